// MD5 of a file: the whole file's hash (for the instant-upload check and the merge) and, when
// the server asks for chunk checks, each chunk's hash (the ChunkHash of its upload). Each byte
// goes through one running MD5; the file is read as a stream where the browser can (into one
// buffer of 1 MB read again and again where the stream is a byte stream, else in the pieces it
// hands out), else in 2 MB slices (the next read while the current slice is hashed); progress
// comes every 2 MB. Runs in the Web Workers, or on the main thread (yielding every 2 MB) where
// no Worker exists.
// Two engines: hash-wasm's WebAssembly MD5 (the fast path, about 2.7× spark-md5 in Chromium)
// and spark-md5 in plain JavaScript, the fallback where WebAssembly cannot run (a
// Content-Security-Policy without 'wasm-unsafe-eval', an old browser, a failed instantiation).
// The choice is made once per JavaScript context, at run time, on first use.
// Nothing here may import @app/shared: this module is bundled into the worker, which must
// stay small (hash-wasm's MD5 and spark-md5 only).
import { createMD5 } from 'hash-wasm';
import SparkMD5 from 'spark-md5';

/** Slices of 2 MB (spec section 9; the hasher passes MD5_SLICE_SIZE). */
const DEFAULT_SLICE_SIZE = 2 * 1024 * 1024;
/**
 * Bytes asked for at once from a byte stream, into the same buffer each time (no larger than a
 * slice, so that progress and the pause still come every slice). In Chromium the default
 * reader hands out a new 64 KB piece per read: hashing 1 GB so took 5.2–5.7 s (6.6–7.9 s of
 * processor time), reading alone 3.7–4.6 s; reads of 1 MB into one buffer take 2.3 s (3.4 s)
 * and 1.1–1.3 s (reads of 4 MB: 3.0 s).
 */
export const STREAM_READ_SIZE = 1024 * 1024;

export type Md5EngineName = 'hash-wasm' | 'spark-md5';

/** One running MD5: bytes in, hex digest out (once). */
export interface RunningMd5 {
  update(bytes: Uint8Array): void;
  hex(): string;
}

export interface Md5Engine {
  name: Md5EngineName;
  /** a new running MD5 (one per file or chunk) */
  start(): RunningMd5 | Promise<RunningMd5>;
}

/** Which engine hashes here, and why not the fast one when it is the fallback. */
export interface Md5Choice {
  engine: Md5Engine;
  /** null when hash-wasm runs; else what stopped it */
  fallbackReason: string | null;
}

export const sparkMd5Engine: Md5Engine = {
  name: 'spark-md5',
  start() {
    const md5 = new SparkMD5.ArrayBuffer();
    // spark-md5 copies what it is given through `new Uint8Array(…)`, so a view is read as its bytes
    return { update: (bytes) => void md5.append(bytes as unknown as ArrayBuffer), hex: () => md5.end() };
  },
};

/** MD5('abc') (RFC 1321): the first instance proves that the WebAssembly really runs. */
const PROBE = { input: 'abc', hex: '900150983cd24fb0d6963f7d28e17f72' };

/**
 * hash-wasm's MD5. Its module is compiled once (hash-wasm caches it) and each file gets an
 * instance of its own. Rejects where WebAssembly cannot run.
 */
export async function loadWasmMd5(create: typeof createMD5 = createMD5): Promise<Md5Engine> {
  if (typeof WebAssembly === 'undefined') throw new Error('此环境不支持 WebAssembly');
  const probe = await create();
  probe.update(PROBE.input);
  if (probe.digest('hex') !== PROBE.hex) throw new Error('WebAssembly MD5 自检结果不正确');
  return {
    name: 'hash-wasm',
    async start() {
      const md5 = await create();
      return { update: (bytes) => void md5.update(bytes), hex: () => md5.digest('hex') };
    },
  };
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

let choice: Promise<Md5Choice> | null = null;

/**
 * The engine of this context: hash-wasm where it loads, else spark-md5 with the reason. Made
 * once; later calls get the same answer.
 */
export function chooseMd5Engine(load: () => Promise<Md5Engine> = loadWasmMd5): Promise<Md5Choice> {
  choice ??= load().then(
    (engine): Md5Choice => ({ engine, fallbackReason: null }),
    (e): Md5Choice => ({ engine: sparkMd5Engine, fallbackReason: messageOf(e) || 'WebAssembly 无法运行' }),
  );
  return choice;
}

/** Forgets the choice (tests). */
export function resetMd5Choice(): void {
  choice = null;
}

export interface Md5Options {
  sliceSize?: number;
  /** the engine to use (by default the one chosen for this context) */
  engine?: Md5Engine;
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

/** A reader of `stream` that reads into buffers given to it, where it is a byte stream. */
function byobReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return stream.getReader({ mode: 'byob' });
  } catch {
    // not a byte stream (older browsers): the stream is left unlocked for the default reader
    return null;
  }
}

/**
 * The bytes of `blob` in order. Where the browser can stream a Blob, it is read as one stream:
 * in Chromium that reads a file at about twice the rate of 2 MB slices, for about half the
 * CPU time; where that stream is a byte stream, into one buffer of up to STREAM_READ_SIZE,
 * read into again once the caller asks for the next piece (so a piece handed out is good
 * only until then: computeMd5 hashes each before it asks). Elsewhere (jsdom, old browsers)
 * it is read in slices of `sliceSize`, the read of the next slice started before the current
 * one is handed out.
 */
async function* bytesOf(blob: Blob, sliceSize: number): AsyncGenerator<Uint8Array> {
  const size = blob.size;
  if (typeof blob.stream === 'function') {
    const stream = blob.stream();
    const byob = byobReader(stream);
    if (byob) {
      const want = Math.min(STREAM_READ_SIZE, sliceSize);
      let buffer = new ArrayBuffer(want);
      try {
        for (;;) {
          const { done, value } = await byob.read(new Uint8Array(buffer, 0, want));
          if (done || !value) return;
          if (value.byteLength) yield value;
          buffer = value.buffer as ArrayBuffer;
        }
      } finally {
        byob.cancel().catch(() => undefined);
      }
    }
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value.byteLength) yield value;
      }
    } finally {
      // stopped early (an abort): the rest of the file is not read
      reader.cancel().catch(() => undefined);
    }
  }
  const read = (start: number): Promise<ArrayBuffer> => {
    const pending = readArrayBuffer(blob.slice(start, Math.min(size, start + sliceSize)));
    // a read left behind by an abort must not surface as an unhandled rejection
    pending.catch(() => undefined);
    return pending;
  };
  let next = read(0);
  for (let offset = 0; offset < size; offset += sliceSize) {
    const buffer = await next;
    if (offset + sliceSize < size) next = read(offset + sliceSize);
    yield new Uint8Array(buffer);
  }
}

/**
 * Hex MD5 of `blob` (a whole file or one chunk of it): one running hash fed with its bytes in
 * order. Progress, the pause between slices and the abort check come every `sliceSize` bytes.
 */
export async function computeMd5(blob: Blob, options: Md5Options = {}): Promise<string> {
  const { onProgress, between, signal } = options;
  const sliceSize = Math.max(1, options.sliceSize ?? DEFAULT_SLICE_SIZE);
  const engine = options.engine ?? (await chooseMd5Engine()).engine;
  const md5 = await engine.start();
  const size = blob.size;
  if (signal?.aborted) throw new HashAbortedError();
  if (size === 0) {
    onProgress?.(100);
    return md5.hex();
  }
  let offset = 0;
  let nextStop = Math.min(size, sliceSize);
  let reported = -1;
  for await (const bytes of bytesOf(blob, sliceSize)) {
    if (signal?.aborted) throw new HashAbortedError();
    md5.update(bytes);
    offset += bytes.byteLength;
    if (offset < nextStop) continue;
    nextStop = Math.min(size, (Math.floor(offset / sliceSize) + 1) * sliceSize);
    const percent = Math.floor((Math.min(offset, size) / size) * 100);
    if (percent !== reported) {
      reported = percent;
      onProgress?.(percent);
    }
    if (between && offset < size) {
      await between();
      if (signal?.aborted) throw new HashAbortedError();
    }
  }
  if (offset !== size) throw new Error('文件读取不完整');
  return md5.hex();
}

// ---- the worker's protocol ------------------------------------------------------------------

/**
 * What the worker is asked: the whole file (answered with the engine, progress, then `done` or
 * `error`), one chunk by id (answered with `chunk` or `chunk-error` carrying the same id), or to
 * make its MD5 engine ready before a file comes (answered with `ready`).
 */
export type HashRequest =
  | { type: 'warm' }
  | { type: 'file'; file: Blob; sliceSize?: number }
  | { type: 'chunk'; id: number; blob: Blob; sliceSize?: number };

export type HashMessage =
  | { type: 'engine'; name: Md5EngineName; fallbackReason: string | null }
  | { type: 'progress'; percent: number }
  | { type: 'done'; hash: string }
  | { type: 'error'; message: string }
  | { type: 'chunk'; id: number; hash: string }
  | { type: 'chunk-error'; id: number; message: string }
  | { type: 'ready' };

/**
 * A file's progress leaves the worker at most this often (and at 100 %): the panel shows it at
 * most every 250 ms, and each message costs the page's main thread about a millisecond, taken
 * from the cores that read and hash the file (a percent of 1 GB comes every 25 ms).
 */
export const PROGRESS_POST_EVERY_MS = 100;

/** What the worker does with one request; the worker file only wires it to its scope. */
export async function handleHashRequest(
  request: HashRequest,
  post: (message: HashMessage) => void,
  now: () => number = Date.now,
): Promise<void> {
  if (request.type === 'warm') {
    // the file that follows finds the engine chosen (and hash-wasm's module compiled)
    await chooseMd5Engine();
    post({ type: 'ready' });
    return;
  }
  if (request.type === 'chunk') {
    try {
      post({ type: 'chunk', id: request.id, hash: await computeMd5(request.blob, { sliceSize: request.sliceSize }) });
    } catch (e) {
      post({ type: 'chunk-error', id: request.id, message: messageOf(e) });
    }
    return;
  }
  try {
    // which engine hashes the file comes first: the page logs a fallback
    const { engine, fallbackReason } = await chooseMd5Engine();
    post({ type: 'engine', name: engine.name, fallbackReason });
    let postedAt = -Infinity;
    const hash = await computeMd5(request.file, {
      engine,
      sliceSize: request.sliceSize,
      onProgress: (percent) => {
        const at = now();
        if (percent < 100 && at - postedAt < PROGRESS_POST_EVERY_MS) return;
        postedAt = at;
        post({ type: 'progress', percent });
      },
    });
    post({ type: 'done', hash });
  } catch (e) {
    post({ type: 'error', message: messageOf(e) });
  }
}
