// MD5 of a file in 2 MB slices with spark-md5, in one pass: the whole file's hash for the
// hash check and the merge, and each chunk's hash for the ChunkHash of its upload. Runs in
// the Web Worker, or on the main thread (yielding between slices) where no Worker exists.
// Nothing here may import @app/shared: this module is bundled into the worker, which must
// stay small (spark-md5 only).
import SparkMD5 from 'spark-md5';

/** Slices of 2 MB (spec section 9; the hasher passes MD5_SLICE_SIZE). */
const DEFAULT_SLICE_SIZE = 2 * 1024 * 1024;

export interface FileHashes {
  /** hex MD5 of the whole file */
  fileHash: string;
  /** hex MD5 of each chunk, chunk 1 first */
  chunkHashes: string[];
  /** the chunk size the chunk hashes were made for */
  chunkSize: number;
}

export interface HashOptions {
  chunkSize: number;
  sliceSize?: number;
  /** 0–100 */
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

export async function computeHashes(blob: Blob, options: HashOptions): Promise<FileHashes> {
  const { chunkSize, onProgress, between, signal } = options;
  const sliceSize = Math.max(1, options.sliceSize ?? DEFAULT_SLICE_SIZE);
  const whole = new SparkMD5.ArrayBuffer();
  const chunk = new SparkMD5.ArrayBuffer();
  const chunkHashes: string[] = [];
  const size = blob.size;
  let offset = 0;
  let reported = -1;
  if (size === 0) {
    onProgress?.(100);
    return { fileHash: whole.end(), chunkHashes: [chunk.end()], chunkSize };
  }
  while (offset < size) {
    if (signal?.aborted) throw new HashAbortedError();
    const chunkEnd = Math.min(size, (Math.floor(offset / chunkSize) + 1) * chunkSize);
    const end = Math.min(chunkEnd, offset + sliceSize);
    const buffer = await readArrayBuffer(blob.slice(offset, end));
    whole.append(buffer);
    chunk.append(buffer);
    offset = end;
    // end() also resets the running hash for the next chunk
    if (offset === chunkEnd) chunkHashes.push(chunk.end());
    const percent = Math.floor((offset / size) * 100);
    if (percent !== reported) {
      reported = percent;
      onProgress?.(percent);
    }
    if (between && offset < size) await between();
  }
  if (signal?.aborted) throw new HashAbortedError();
  return { fileHash: whole.end(), chunkHashes, chunkSize };
}

// ---- the worker's protocol ------------------------------------------------------------------

export interface HashRequest {
  file: Blob;
  chunkSize: number;
  sliceSize?: number;
}

export type HashMessage =
  | { type: 'progress'; percent: number }
  | { type: 'done'; hashes: FileHashes }
  | { type: 'error'; message: string };

/** What the worker does with one request; the worker file only wires it to its scope. */
export async function handleHashRequest(request: HashRequest, post: (message: HashMessage) => void): Promise<void> {
  try {
    const hashes = await computeHashes(request.file, {
      chunkSize: request.chunkSize,
      sliceSize: request.sliceSize,
      onProgress: (percent) => post({ type: 'progress', percent }),
    });
    post({ type: 'done', hashes });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
}
