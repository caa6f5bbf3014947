import SparkMD5 from 'spark-md5';
import { chunkCount, chunkRange, computeHashes, handleHashRequest, type HashMessage, type HashRequest } from './md5';
import { createHasher, type HashWorker } from './hasher';

const text = 'The quick brown fox jumps over the lazy dog'; // 43 bytes
const blob = () => new Blob([text]);

describe('computeHashes', () => {
  it('gives the whole file MD5 and each chunk MD5 in one pass, whatever the slice size', async () => {
    for (const sliceSize of [1, 3, 7, 64]) {
      const h = await computeHashes(blob(), { chunkSize: 10, sliceSize });
      expect(h.fileHash).toBe(SparkMD5.hash(text));
      expect(h.chunkHashes).toEqual([0, 10, 20, 30, 40].map((s) => SparkMD5.hash(text.slice(s, s + 10))));
      expect(h.chunkSize).toBe(10);
    }
  });

  it('reports whole percents and stops when aborted', async () => {
    const seen: number[] = [];
    await computeHashes(blob(), { chunkSize: 100, sliceSize: 11, onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([25, 51, 76, 100]);
    const controller = new AbortController();
    const run = computeHashes(blob(), { chunkSize: 100, sliceSize: 11, signal: controller.signal, between: async () => controller.abort() });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('counts chunks and their ranges', () => {
    expect(chunkCount(0, 4)).toBe(1);
    expect(chunkCount(8, 4)).toBe(2);
    expect(chunkCount(9, 4)).toBe(3);
    expect(chunkRange(3, 9, 4)).toEqual([8, 9]);
  });
});

/** A Worker that runs the worker's handler on this thread. */
class InlineWorker implements HashWorker {
  onmessage: ((event: { data: HashMessage }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  terminated = false;
  postMessage(request: HashRequest) {
    void handleHashRequest(request, (data) => {
      if (!this.terminated) setTimeout(() => this.onmessage?.({ data }), 0);
    });
  }
  terminate() {
    this.terminated = true;
  }
}

describe('createHasher', () => {
  it('hashes in the worker with its progress, and terminates it after', async () => {
    const workers: InlineWorker[] = [];
    const hasher = createHasher({ sliceSize: 8, createWorker: () => { const w = new InlineWorker(); workers.push(w); return w; } });
    const progress: number[] = [];
    const h = await hasher.hash(blob(), { chunkSize: 16, onProgress: (p) => progress.push(p) });
    expect(h.fileHash).toBe(SparkMD5.hash(text));
    expect(h.chunkHashes).toHaveLength(3);
    expect(progress.at(-1)).toBe(100);
    expect(workers[0].terminated).toBe(true);
  });

  it('terminates the worker when the upload is paused', async () => {
    const worker = new InlineWorker();
    worker.postMessage = () => undefined; // never answers
    const controller = new AbortController();
    const run = createHasher({ createWorker: () => worker }).hash(blob(), { chunkSize: 16, signal: controller.signal });
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.terminated).toBe(true);
  });

  it('hashes on this thread when the worker cannot start', async () => {
    const failing = createHasher({ createWorker: () => { throw new Error('blocked'); } });
    await expect(failing.hash(blob(), { chunkSize: 16 })).resolves.toMatchObject({ fileHash: SparkMD5.hash(text) });
    const erroring = new InlineWorker();
    erroring.postMessage = () => setTimeout(() => erroring.onerror?.(new Event('error')), 0);
    const h = await createHasher({ createWorker: () => erroring }).hash(blob(), { chunkSize: 16 });
    expect(h.fileHash).toBe(SparkMD5.hash(text));
  });

  it('hashes on this thread where Worker does not exist (jsdom), yielding between slices', async () => {
    expect(typeof Worker).toBe('undefined');
    const between = jest.fn(() => Promise.resolve());
    const h = await createHasher({ sliceSize: 10, between }).hash(blob(), { chunkSize: 100 });
    expect(h.fileHash).toBe(SparkMD5.hash(text));
    expect(between).toHaveBeenCalledTimes(4);
  });
});
