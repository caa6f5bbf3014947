// The main-thread side of hashing: a Web Worker per file (terminated when the upload is
// paused or cancelled), or hashing on this thread with a pause between slices where no
// Worker exists or it fails to start.
import { MD5_SLICE_SIZE } from '@app/shared';
import { computeHashes, HashAbortedError, type FileHashes, type HashMessage, type HashRequest } from './md5';

export interface HashJob {
  chunkSize: number;
  /** 0–100 */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export interface Hasher {
  hash(file: Blob, job: HashJob): Promise<FileHashes>;
}

/** The least of a Worker the hasher needs (tests hand in fakes). */
export interface HashWorker {
  onmessage: ((event: { data: HashMessage }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  postMessage(request: HashRequest): void;
  terminate(): void;
}

export interface HasherOptions {
  /** makes the worker; null hashes on this thread */
  createWorker?: (() => HashWorker) | null;
  sliceSize?: number;
  /** awaited between slices on this thread */
  between?: () => Promise<void>;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function defaultWorkerFactory(): (() => HashWorker) | null {
  if (typeof Worker === 'undefined') return null;
  return () => new Worker(new URL('./md5.worker.ts', import.meta.url)) as unknown as HashWorker;
}

export function createHasher(options: HasherOptions = {}): Hasher {
  const sliceSize = options.sliceSize ?? MD5_SLICE_SIZE;
  const between = options.between ?? nextTask;
  const createWorker = options.createWorker === undefined ? defaultWorkerFactory() : options.createWorker;

  const inThread = (file: Blob, job: HashJob) =>
    computeHashes(file, { chunkSize: job.chunkSize, sliceSize, onProgress: job.onProgress, between, signal: job.signal });

  const inWorker = (file: Blob, job: HashJob, make: () => HashWorker) =>
    new Promise<FileHashes>((resolve, reject) => {
      let worker: HashWorker;
      try {
        worker = make();
      } catch {
        inThread(file, job).then(resolve, reject);
        return;
      }
      let started = false;
      const finish = () => {
        job.signal?.removeEventListener('abort', onAbort);
        worker.terminate();
      };
      const onAbort = () => {
        finish();
        reject(new HashAbortedError());
      };
      job.signal?.addEventListener('abort', onAbort, { once: true });
      worker.onmessage = ({ data }) => {
        started = true;
        if (data.type === 'progress') job.onProgress?.(data.percent);
        else if (data.type === 'done') {
          finish();
          resolve(data.hashes);
        } else {
          finish();
          reject(new Error(data.message));
        }
      };
      worker.onerror = () => {
        finish();
        // a worker that could not even start (blocked script, CSP): hash here instead
        if (!started && !job.signal?.aborted) inThread(file, job).then(resolve, reject);
        else reject(new Error('worker failed'));
      };
      worker.postMessage({ file, chunkSize: job.chunkSize, sliceSize });
    });

  return {
    hash(file, job) {
      if (job.signal?.aborted) return Promise.reject(new HashAbortedError());
      return createWorker ? inWorker(file, job, createWorker) : inThread(file, job);
    },
  };
}
