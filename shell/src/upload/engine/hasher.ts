// The main-thread side of hashing.
// - The whole file: a Web Worker, kept from one file to the next while the engine is busy (so a
//   queue of small files starts no worker per file), terminated when the upload is paused or
//   cancelled, and when the engine goes idle. It may be started ahead (warm), while the user
//   picks files: its script is loaded and its MD5 engine made ready before the first file.
// - Chunks, while they are being sent: a small pool of long-lived workers answering requests
//   { chunk, id } with the chunk's MD5, so that the next chunks are hashed on other cores
//   while earlier ones are on the wire. The engine releases the pool when it goes idle.
// Chunks are hashed only when the server asks for chunk checks (FileUploadOptions.chunkCheck).
// Where no Worker exists, or a worker fails to start, both hash on this thread with a pause
// between slices. Whoever hashes the file says which MD5 engine it runs (onEngine).
import { MD5_SLICE_SIZE } from '@app/shared';
import { chooseMd5Engine, computeMd5, HashAbortedError, type HashMessage, type HashRequest, type Md5EngineName } from './md5';

export interface HashJob {
  /** 0–100 */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export interface Hasher {
  /** hex MD5 of the whole file */
  hash(file: Blob, job: HashJob): Promise<string>;
  /** hex MD5 of one chunk (a slice of the file), for its ChunkHash */
  hashChunk(chunk: Blob, signal?: AbortSignal): Promise<string>;
  /** ends the workers (the engine is idle); files and chunks asked for later start them again */
  release(): void;
  /**
   * Starts the file worker ahead (files are about to be picked), so that the first file's hash
   * starts at once: its script is loaded and its MD5 engine made ready. One not used within
   * WARM_KEPT_MS ends. Left out by a hasher that has nothing to start.
   */
  warm?(): void;
}

/** How long a worker started ahead waits for a file before it ends. */
export const WARM_KEPT_MS = 2 * 60_000;

/** The least of a Worker the hasher needs (tests hand in fakes). */
export interface HashWorker {
  onmessage: ((event: { data: HashMessage }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  postMessage(request: HashRequest): void;
  terminate(): void;
}

export interface HasherOptions {
  /** makes a worker; null hashes on this thread */
  createWorker?: (() => HashWorker) | null;
  sliceSize?: number;
  /** awaited between slices on this thread */
  between?: () => Promise<void>;
  /** how many workers hash chunks (2 by default where there are 2 cores or more) */
  chunkWorkers?: number;
  /** told, for each file, which MD5 engine hashes it (and why not hash-wasm when it falls back) */
  onEngine?: (name: Md5EngineName, fallbackReason: string | null) => void;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function defaultWorkerFactory(): (() => HashWorker) | null {
  if (typeof Worker === 'undefined') return null;
  return () => new Worker(new URL('./md5.worker.ts', import.meta.url)) as unknown as HashWorker;
}

/**
 * Two chunk workers where there are two cores or more. While the whole file is hashed only one
 * of them is busy (chunks are hashed ahead one at a time), so the file's own hash keeps a core;
 * once it is done, chunks still unhashed go two at a time.
 */
function defaultChunkWorkers(): number {
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof cores === 'number' && cores >= 2 ? 2 : 1;
}

/** A file worker kept between files (createHasher's `idle`). */
interface KeptWorker {
  worker: HashWorker;
  started: boolean;
  /** ends one started ahead that no file took */
  timer: ReturnType<typeof setTimeout> | null;
}

interface ChunkJob {
  id: number;
  blob: Blob;
  signal?: AbortSignal;
  settled: boolean;
  resolve(hash: string): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: HashWorker;
  job: ChunkJob | null;
  /** it has answered at least once (so it did start) */
  answered: boolean;
}

export function createHasher(options: HasherOptions = {}): Hasher {
  const sliceSize = options.sliceSize ?? MD5_SLICE_SIZE;
  const between = options.between ?? nextTask;
  const createWorker = options.createWorker === undefined ? defaultWorkerFactory() : options.createWorker;
  const poolSize = Math.max(1, Math.floor(options.chunkWorkers ?? defaultChunkWorkers()));

  const onEngine = options.onEngine;

  /** A chunk on this thread. */
  const inThread = (blob: Blob, signal?: AbortSignal) => computeMd5(blob, { sliceSize, between, signal });

  /** The whole file on this thread: the engine is told first, as a worker tells it. */
  const fileInThread = async (file: Blob, job: HashJob) => {
    const { engine, fallbackReason } = await chooseMd5Engine();
    onEngine?.(engine.name, fallbackReason);
    return computeMd5(file, { engine, sliceSize, between, signal: job.signal, onProgress: job.onProgress });
  };

  // ---- the whole file -----------------------------------------------------------------------

  /**
   * The file worker kept for the next file until the engine is idle: one that finished its last
   * file, or one started ahead (warm, ended by its timer if no file takes it). `started`: it has
   * answered, so it did start (one started ahead may not have yet).
   */
  let idle: KeptWorker | null = null;
  /** a file is being hashed (its worker is kept when it is done) */
  let hashingFile = false;

  /** The idle worker, no longer idle (its timer stopped), or null. */
  const takeIdle = () => {
    const kept = idle;
    if (kept?.timer) clearTimeout(kept.timer);
    idle = null;
    return kept;
  };

  const dropIdle = () => takeIdle()?.worker.terminate();

  const warm = () => {
    if (!createWorker || idle || hashingFile) return;
    let worker: HashWorker;
    try {
      worker = createWorker();
    } catch {
      return; // the file's turn finds this out again and hashes on this thread
    }
    const kept: KeptWorker = { worker, started: false, timer: null };
    // (a file that takes the worker sets its own handlers)
    worker.onmessage = ({ data }) => {
      if (data.type === 'ready') kept.started = true;
    };
    // one that cannot start (a blocked script) is dropped; the file's turn tries again
    worker.onerror = () => {
      if (idle === kept) dropIdle();
    };
    worker.postMessage({ type: 'warm' });
    kept.timer = setTimeout(() => {
      if (idle === kept) dropIdle();
    }, WARM_KEPT_MS);
    idle = kept;
  };

  const fileInWorker = (file: Blob, job: HashJob, make: () => HashWorker) =>
    new Promise<string>((resolve, reject) => {
      let worker: HashWorker;
      const kept = takeIdle();
      // a worker that hashed a file before, or answered when started ahead, has started for sure
      let started = kept?.started ?? false;
      if (kept) worker = kept.worker;
      else {
        try {
          worker = make();
        } catch {
          fileInThread(file, job).then(resolve, reject);
          return;
        }
      }
      hashingFile = true;
      const detach = () => {
        hashingFile = false;
        job.signal?.removeEventListener('abort', onAbort);
        worker.onmessage = null;
        worker.onerror = null;
      };
      const end = () => {
        detach();
        worker.terminate();
      };
      const onAbort = () => {
        end();
        reject(new HashAbortedError());
      };
      job.signal?.addEventListener('abort', onAbort, { once: true });
      worker.onmessage = ({ data }) => {
        started = true;
        if (data.type === 'engine') onEngine?.(data.name, data.fallbackReason);
        else if (data.type === 'progress') job.onProgress?.(data.percent);
        else if (data.type === 'done') {
          // kept for the next file: no new worker to start, no module to compile again
          detach();
          if (idle) worker.terminate();
          else idle = { worker, started: true, timer: null };
          resolve(data.hash);
        } else if (data.type === 'error') {
          end();
          reject(new Error(data.message));
        }
      };
      worker.onerror = () => {
        end();
        // a worker that could not even start (blocked script, CSP): hash here instead
        if (!started && !job.signal?.aborted) fileInThread(file, job).then(resolve, reject);
        else reject(new Error('worker failed'));
      };
      worker.postMessage({ type: 'file', file, sliceSize });
    });

  // ---- chunks -------------------------------------------------------------------------------

  let slots: Slot[] = [];
  let queue: ChunkJob[] = [];
  let lastId = 0;
  /** a worker could not start: chunks are hashed on this thread from then on */
  let noWorkers = !createWorker;

  const settle = (job: ChunkJob, outcome: { hash: string } | { error: unknown }) => {
    if (job.settled) return;
    job.settled = true;
    if ('hash' in outcome) job.resolve(outcome.hash);
    else job.reject(outcome.error);
  };

  const runHere = (job: ChunkJob) => {
    if (job.settled) return;
    inThread(job.blob, job.signal).then(
      (hash) => settle(job, { hash }),
      (error) => settle(job, { error }),
    );
  };

  const drainHere = () => {
    const waiting = queue;
    queue = [];
    for (const job of waiting) runHere(job);
  };

  const dispatch = () => {
    queue = queue.filter((job) => !job.settled);
    while (queue.length > 0) {
      if (noWorkers) return drainHere();
      let slot: Slot | null = slots.find((s) => !s.job) ?? null;
      if (!slot) {
        if (slots.length >= poolSize) return;
        slot = startSlot();
        if (!slot) continue;
      }
      const job = queue.shift()!;
      slot.job = job;
      slot.worker.postMessage({ type: 'chunk', id: job.id, blob: job.blob, sliceSize });
    }
  };

  const startSlot = (): Slot | null => {
    let worker: HashWorker;
    try {
      worker = createWorker!();
    } catch {
      noWorkers = true;
      return null;
    }
    const slot: Slot = { worker, job: null, answered: false };
    worker.onmessage = ({ data }) => {
      if (data.type !== 'chunk' && data.type !== 'chunk-error') return;
      slot.answered = true;
      const job = slot.job;
      slot.job = null;
      if (job && job.id === data.id) {
        settle(job, data.type === 'chunk' ? { hash: data.hash } : { error: new Error(data.message) });
      }
      dispatch();
    };
    worker.onerror = () => {
      worker.terminate();
      slots = slots.filter((s) => s !== slot);
      // one that never answered could not start (blocked script, CSP): no more workers
      if (!slot.answered) noWorkers = true;
      if (slot.job) runHere(slot.job);
      slot.job = null;
      dispatch();
    };
    slots.push(slot);
    return slot;
  };

  const hashChunk = (blob: Blob, signal?: AbortSignal): Promise<string> => {
    if (signal?.aborted) return Promise.reject(new HashAbortedError());
    if (noWorkers) return inThread(blob, signal);
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        settle(job, { error: new HashAbortedError() });
        // a job waiting for a worker leaves the queue; one being hashed is answered into the void
        queue = queue.filter((j) => j !== job);
      };
      const job: ChunkJob = {
        id: (lastId += 1),
        blob,
        signal,
        settled: false,
        resolve: (hash) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(hash);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(job);
      dispatch();
    });
  };

  const release = () => {
    dropIdle();
    const busy = slots;
    const waiting = queue;
    slots = [];
    queue = [];
    for (const slot of busy) {
      slot.worker.onmessage = null;
      slot.worker.onerror = null;
      slot.worker.terminate();
      if (slot.job) settle(slot.job, { error: new HashAbortedError() });
    }
    for (const job of waiting) settle(job, { error: new HashAbortedError() });
  };

  return {
    hash(file, job) {
      if (job.signal?.aborted) return Promise.reject(new HashAbortedError());
      return createWorker ? fileInWorker(file, job, createWorker) : fileInThread(file, job);
    },
    hashChunk,
    release,
    warm,
  };
}
