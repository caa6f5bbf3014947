// Where 云文档 keeps file contents: one interface, two stores. The local folder (the default,
// `$DATA_DIR`) and any S3-compatible store (AWS S3, Ceph RGW, OSS and COS in S3 mode, SeaweedFS,
// Garage…). Keys are `/`-separated paths such as `blobs/ab/ab12…-7`; the store adds its own root
// or prefix. Writes are whole: an object is either absent or complete.
import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  /** when it was written (ms) */
  modifiedAt: number;
}

/** Bytes `start` to `end`, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

export class ObjectMissing extends Error {
  constructor(readonly key: string) {
    super(`对象 ${key} 不存在`);
  }
}

/** One part of a multipart upload, as the store acknowledged it. */
export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/**
 * An object written in numbered parts from anywhere (S3's multipart upload): the parts are sent
 * one by one, each in its own request, and the object appears whole when the upload is completed
 * with their list (every part but the last at least 5 MiB), without its bytes being copied.
 */
export interface MultipartWrites {
  /** Starts an upload for `key`; its id. */
  createMultipart(key: string): Promise<string>;
  /** Sends part `partNumber` (from 1) of exactly `size` bytes; the part's ETag. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: Readable, size: number): Promise<string>;
  /** Makes the object from the parts; ObjectMissing when the upload is unknown (completed or aborted before). */
  completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<void>;
  /** Drops the upload and its parts (an unknown upload is no error). */
  abortMultipart(key: string, uploadId: string): Promise<void>;
  /** The unfinished uploads of keys under the prefix. */
  listMultipart(prefix: string): AsyncIterable<{ key: string; uploadId: string; startedAt: number }>;
}

export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** multipart uploads, where the store has them (S3) */
  readonly multipart?: MultipartWrites;
  /** a description for logs and the start-up line (no secrets) */
  readonly where: string;
  /** Writes the object whole (replacing one of that key); `size`, when known, lets a stream go in one request. */
  put(key: string, body: Readable | Buffer, size?: number): Promise<void>;
  /** The object's bytes, or a range of them; ObjectMissing when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size and time of the object, or null. */
  stat(key: string): Promise<StoredObject | null>;
  /** Removes the objects (absent ones are no error). */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * Makes `key` from the parts, in order, inside the store (S3: a multipart copy; every part
   * but the last at least 5 MiB). The parts stay; the caller removes them.
   */
  compose(key: string, parts: readonly string[]): Promise<void>;
  /** Every object under the prefix, a page at a time. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /**
   * Runs `fn` with a local file holding the object, for tools that need a path (LibreOffice,
   * ClamAV, text extraction). The local store hands its own file; S3 a temporary copy removed
   * afterwards.
   */
  withFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T>;
}
