// MD5 with spark-md5, read in 2 MB slices: the whole file's hash (for the instant-upload
// check and the merge) and, separately, each chunk's hash (the ChunkHash of its upload),
// made only for the chunks that are actually sent. Each byte goes through one running MD5,
// and the next slice is already being read while the current one is hashed. Runs in the
// Web Workers, or on the main thread (yielding between slices) where no Worker exists.
// Nothing here may import @app/shared: this module is bundled into the worker, which must
// stay small (spark-md5 only).
import SparkMD5 from 'spark-md5';

/** Slices of 2 MB (spec section 9; the hasher passes MD5_SLICE_SIZE). */
const DEFAULT_SLICE_SIZE = 2 * 1024 * 1024;

export interface Md5Options {
  sliceSize?: number;
  /** 0–100, whole percents of the bytes hashed */
  onProgress?: (percent: number) => void;
  /** awaited between slices (the main thread stays responsive) */
  between?: () => Promise<void>;
  signal?: AbortSignal;
}

export class HashAbortedError extends Error {
  constructor() {
    super('hash aborted');
    this.name = 'AbortError';
  }
}

/** Number of chunks of a file: every chunk holds chunkSize bytes but the last; an empty file has one empty chunk. */
export function chunkCount(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** Byte range [start, end) of chunk `n` (from 1). */
export function chunkRange(n: number, size: number, chunkSize: number): [number, number] {
  const start = (n - 1) * chunkSize;
  return [start, Math.min(size, start + chunkSize)];
}

export function readArrayBuffer(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * Hex MD5 of `blob` (a whole file or one chunk of it): one running spark-md5 hash, fed slice
 * by slice; the read of the next slice starts before the current slice is hashed.
 */
export async function computeMd5(blob: Blob, options: Md5Options = {}): Promise<string> {
  const { onProgress, between, signal } = options;
  const sliceSize = Math.max(1, options.sliceSize ?? DEFAULT_SLICE_SIZE);
  const md5 = new SparkMD5.ArrayBuffer();
  const size = blob.size;
  if (signal?.aborted) throw new HashAbortedError();
  if (size === 0) {
    onProgress?.(100);
    return md5.end();
  }
  const read = (start: number): Promise<ArrayBuffer> => {
    const pending = readArrayBuffer(blob.slice(start, Math.min(size, start + sliceSize)));
    // a read left behind by an abort must not surface as an unhandled rejection
    pending.catch(() => undefined);
    return pending;
  };
  let offset = 0;
  let reported = -1;
  let next = read(0);
  while (offset < size) {
    const buffer = await next;
    if (signal?.aborted) throw new HashAbortedError();
    const end = Math.min(size, offset + sliceSize);
    if (end < size) next = read(end);
    md5.append(buffer);
    offset = end;
    const percent = Math.floor((offset / size) * 100);
    if (percent !== reported) {
      reported = percent;
      onProgress?.(percent);
    }
    if (between && offset < size) {
      await between();
      if (signal?.aborted) throw new HashAbortedError();
    }
  }
  return md5.end();
}

// ---- the worker's protocol ------------------------------------------------------------------

/**
 * What the worker is asked: the whole file (answered with progress, then `done` or `error`),
 * or one chunk by id (answered with `chunk` or `chunk-error` carrying the same id).
 */
export type HashRequest =
  | { type: 'file'; file: Blob; sliceSize?: number }
  | { type: 'chunk'; id: number; blob: Blob; sliceSize?: number };

export type HashMessage =
  | { type: 'progress'; percent: number }
  | { type: 'done'; hash: string }
  | { type: 'error'; message: string }
  | { type: 'chunk'; id: number; hash: string }
  | { type: 'chunk-error'; id: number; message: string };

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What the worker does with one request; the worker file only wires it to its scope. */
export async function handleHashRequest(request: HashRequest, post: (message: HashMessage) => void): Promise<void> {
  if (request.type === 'chunk') {
    try {
      post({ type: 'chunk', id: request.id, hash: await computeMd5(request.blob, { sliceSize: request.sliceSize }) });
    } catch (e) {
      post({ type: 'chunk-error', id: request.id, message: messageOf(e) });
    }
    return;
  }
  try {
    const hash = await computeMd5(request.file, {
      sliceSize: request.sliceSize,
      onProgress: (percent) => post({ type: 'progress', percent }),
    });
    post({ type: 'done', hash });
  } catch (e) {
    post({ type: 'error', message: messageOf(e) });
  }
}
