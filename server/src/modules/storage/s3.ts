// An S3-compatible store (AWS S3, Ceph RGW, Aliyun OSS and Tencent COS in S3 mode, SeaweedFS,
// Garage) through @aws-sdk/client-s3. Checksums only where the API requires them: with the SDK's
// defaults a streamed upload gets 411 from RGW 16 and 501 from Swift. Compose copies the parts
// inside the store (UploadPartCopy), never through this process.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageConfig } from '../../config';
import { ObjectMissing, type ByteRange, type MultipartWrites, type ObjectStore, type StoredObject, type UploadedPart } from './store';

/** The settings of config.ts (S3_*): endpoint, region, bucket, keys, path style, prefix ('' or a folder ending in '/'). */
export type S3StoreOptions = Omit<Extract<StorageConfig, { kind: 's3' }>, 'kind'>;

/** Streams up to this size go in one PutObject; larger or unknown sizes as a multipart upload. */
const SINGLE_PUT_MAX = 64 * 1024 * 1024;
const UPLOAD_PART_SIZE = 16 * 1024 * 1024;
const UPLOAD_QUEUE = 4;
const DELETE_BATCH = 1000;
/** part copies of one compose in flight at once */
const COMPOSE_PARALLEL = 6;

/** Why the store refused, in words an administrator can act on. */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

function statusOf(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata?.httpStatusCode : (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function isMissing(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || name === 'NoSuchUpload' || statusOf(err) === 404;
}

/** The store's refusal as a StoreError with a Chinese reason (credentials, bucket, reachability). */
export function describeStoreError(err: unknown, bucket: string): StoreError {
  const name = (err as { name?: string; Code?: string })?.name ?? '';
  const status = statusOf(err);
  const detail = err instanceof Error ? err.message : String(err);
  if (name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || status === 403) {
    return new StoreError(`对象存储拒绝了访问（${name || status}）：请检查 S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY`, status, name);
  }
  if (name === 'NoSuchBucket') return new StoreError(`对象存储中没有存储桶 ${bucket}`, status, name);
  // the SDK sometimes wraps the socket's error ("AWS SDK error wrapper for Error: connect ECONNREFUSED …")
  const code =
    (err as NodeJS.ErrnoException)?.code ??
    ((err as { cause?: NodeJS.ErrnoException })?.cause?.code as string | undefined) ??
    /\b(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|EAI_AGAIN)\b/.exec(detail)?.[1];
  if (code && /^(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|EAI_AGAIN)$/.test(code)) {
    return new StoreError(`无法连接对象存储（${code}）：请检查 S3_ENDPOINT`, status, code);
  }
  return new StoreError(`对象存储出错：${detail}`, status, name || code);
}

export class S3Store implements ObjectStore, MultipartWrites {
  readonly kind = 's3' as const;
  readonly multipart: MultipartWrites = this;
  readonly where: string;
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.where = `对象存储 ${options.endpoint ?? 'AWS S3'} 存储桶 ${options.bucket}${options.prefix ? ` 前缀 ${options.prefix}` : ''}`;
    this.client = new S3Client({
      endpoint: options.endpoint ?? undefined,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      // without it every large body waits for "100 Continue" on a new connection of its own
      // (the SDK's handler leaves keep-alive out for such requests): 3 s for the first parts
      // against RGW, and a connection set up for every chunk
      expectContinueHeader: false,
    });
  }

  private full(key: string): string {
    if (!key || key.startsWith('/') || key.split('/').some((p) => p === '' || p === '.' || p === '..')) throw new Error(`invalid object key: ${key}`);
    return this.prefix + key;
  }

  /** Makes the bucket unless it exists; a refusal says why (credentials, endpoint). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (err) {
      if (!isMissing(err)) throw describeStoreError(err, this.bucket);
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw describeStoreError(err, this.bucket);
    }
  }

  async put(key: string, body: Readable | Buffer, size?: number): Promise<void> {
    // a body that fails before the SDK reads it is reported by the request, not as an unhandled event
    if (!Buffer.isBuffer(body)) body.on('error', () => undefined);
    const Key = this.full(key);
    try {
      if (Buffer.isBuffer(body)) {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.length }));
      } else if (size !== undefined && size <= SINGLE_PUT_MAX) {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: size }));
      } else {
        const upload = new Upload({
          client: this.client,
          params: { Bucket: this.bucket, Key, Body: body },
          partSize: UPLOAD_PART_SIZE,
          queueSize: UPLOAD_QUEUE,
          leavePartsOnError: false,
        });
        await upload.done();
      }
    } catch (err) {
      if (!Buffer.isBuffer(body)) body.destroy();
      throw describeStoreError(err, this.bucket);
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.full(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      return out.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw new ObjectMissing(key);
      throw describeStoreError(err, this.bucket);
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.full(key) }));
      return { key, size: Number(out.ContentLength ?? 0), modifiedAt: out.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw describeStoreError(err, this.bucket);
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    const list = keys.filter(Boolean);
    for (let i = 0; i < list.length; i += DELETE_BATCH) {
      const batch = list.slice(i, i + DELETE_BATCH);
      try {
        const out = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((k) => ({ Key: this.full(k) })), Quiet: true } }),
        );
        const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length) throw new StoreError(`对象存储未能删除 ${failed.length} 个对象：${failed[0].Code} ${failed[0].Message ?? ''}`, undefined, failed[0].Code);
      } catch (err) {
        if (err instanceof StoreError) throw err;
        throw describeStoreError(err, this.bucket);
      }
    }
  }

  async compose(key: string, parts: readonly string[]): Promise<void> {
    if (!parts.length) {
      await this.put(key, Buffer.alloc(0));
      return;
    }
    const source = (part: string) => `${this.bucket}/${encodeURIComponent(this.full(part)).replace(/%2F/g, '/')}`;
    const Key = this.full(key);
    if (parts.length === 1) {
      try {
        await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key, CopySource: source(parts[0]) }));
        return;
      } catch (err) {
        if (isMissing(err)) throw new ObjectMissing(parts[0]);
        throw describeStoreError(err, this.bucket);
      }
    }
    let uploadId: string | undefined;
    try {
      uploadId = (await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key }))).UploadId;
      if (!uploadId) throw new StoreError('对象存储没有返回分片上传编号', undefined, undefined);
      const id = uploadId;
      const done: { ETag: string; PartNumber: number }[] = new Array(parts.length);
      // the copies run inside the store, COMPOSE_PARALLEL at a time
      let next = 0;
      const copier = async () => {
        while (next < parts.length) {
          const i = next++;
          try {
            const out = await this.client.send(
              new UploadPartCopyCommand({ Bucket: this.bucket, Key, UploadId: id, PartNumber: i + 1, CopySource: source(parts[i]) }),
            );
            done[i] = { ETag: out.CopyPartResult?.ETag ?? '', PartNumber: i + 1 };
          } catch (err) {
            next = parts.length; // no further copy starts
            throw err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(COMPOSE_PARALLEL, parts.length) }, copier));
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: done } }));
    } catch (err) {
      if (uploadId) await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId: uploadId })).catch(() => undefined);
      if (err instanceof StoreError) throw err;
      if (isMissing(err)) throw new ObjectMissing(key);
      throw describeStoreError(err, this.bucket);
    }
  }

  async createMultipart(key: string): Promise<string> {
    try {
      const out = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.full(key) }));
      if (!out.UploadId) throw new StoreError('对象存储没有返回分片上传编号', undefined, undefined);
      return out.UploadId;
    } catch (err) {
      if (err instanceof StoreError) throw err;
      throw describeStoreError(err, this.bucket);
    }
  }

  async uploadPart(key: string, uploadId: string, partNumber: number, body: Readable, size: number): Promise<string> {
    body.on('error', () => undefined);
    try {
      const out = await this.client.send(
        new UploadPartCommand({ Bucket: this.bucket, Key: this.full(key), UploadId: uploadId, PartNumber: partNumber, Body: body, ContentLength: size }),
      );
      if (!out.ETag) throw new StoreError('对象存储没有返回分片的 ETag', undefined, undefined);
      return out.ETag;
    } catch (err) {
      body.destroy();
      if (err instanceof StoreError) throw err;
      if (isMissing(err)) throw new ObjectMissing(key);
      throw describeStoreError(err, this.bucket);
    }
  }

  async completeMultipart(key: string, uploadId: string, parts: readonly UploadedPart[]): Promise<void> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.full(key),
          UploadId: uploadId,
          MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
        }),
      );
    } catch (err) {
      if (isMissing(err)) throw new ObjectMissing(key);
      throw describeStoreError(err, this.bucket);
    }
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.full(key), UploadId: uploadId }));
    } catch (err) {
      if (isMissing(err)) return;
      throw describeStoreError(err, this.bucket);
    }
  }

  async *listMultipart(prefix: string): AsyncIterable<{ key: string; uploadId: string; startedAt: number }> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let out;
      try {
        out = await this.client.send(
          new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.prefix + prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
        );
      } catch (err) {
        throw describeStoreError(err, this.bucket);
      }
      for (const u of out.Uploads ?? []) {
        if (!u.Key || !u.UploadId) continue;
        yield { key: u.Key.slice(this.prefix.length), uploadId: u.UploadId, startedAt: u.Initiated?.getTime() ?? 0 };
      }
      if (!out.IsTruncated) return;
      keyMarker = out.NextKeyMarker;
      uploadIdMarker = out.NextUploadIdMarker;
    }
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      let out;
      try {
        out = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token, MaxKeys: 1000 }));
      } catch (err) {
        throw describeStoreError(err, this.bucket);
      }
      for (const o of out.Contents ?? []) {
        if (!o.Key) continue;
        yield { key: o.Key.slice(this.prefix.length), size: Number(o.Size ?? 0), modifiedAt: o.LastModified?.getTime() ?? 0 };
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  async withFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'yunwendang-object-'));
    const file = path.join(dir, `${crypto.randomBytes(6).toString('hex')}${path.extname(key)}`);
    try {
      await pipeline(await this.get(key), fs.createWriteStream(file));
      return await fn(file);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}
