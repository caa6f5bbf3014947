import crypto from 'node:crypto';
import SparkMD5 from 'spark-md5';
import {
  chooseMd5Engine,
  chunkCount,
  chunkRange,
  computeMd5,
  handleHashRequest,
  loadWasmMd5,
  PROGRESS_POST_EVERY_MS,
  resetMd5Choice,
  sparkMd5Engine,
  STREAM_READ_SIZE,
  type HashMessage,
  type HashRequest,
  type Md5Engine,
} from './md5';
import { createHasher, WARM_KEPT_MS, type HashWorker } from './hasher';
import { meterMd5 } from './meteredMd5';
import { ReadableStream as WebReadableStream } from 'node:stream/web';

const text = 'The quick brown fox jumps over the lazy dog'; // 43 bytes
const blob = () => new Blob([text]);
const nodeMd5 = (bytes: Uint8Array | string) => crypto.createHash('md5').update(bytes).digest('hex');

afterEach(() => resetMd5Choice());

describe('the two MD5 engines', () => {
  let wasm: Md5Engine;
  beforeAll(async () => {
    wasm = await loadWasmMd5();
  });

  it('hash-wasm loads here (WebAssembly runs) and is chosen, once, with no fallback', async () => {
    expect(wasm.name).toBe('hash-wasm');
    const load = jest.fn(() => loadWasmMd5());
    const first = await chooseMd5Engine(load);
    const second = await chooseMd5Engine(load);
    expect(first).toEqual({ engine: expect.objectContaining({ name: 'hash-wasm' }), fallbackReason: null });
    expect(second).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('give the same digests as each other and as Node, across slice boundaries and for empty files', async () => {
    const random = new Uint8Array(crypto.randomBytes(5 * 1024 * 1024 + 3));
    const cases: Array<[Blob, string]> = [
      [new Blob([]), nodeMd5('')],
      [blob(), nodeMd5(text)],
      [new Blob([random]), nodeMd5(random)],
    ];
    for (const [data, expected] of cases) {
      // slices that cut inside MD5's 64-byte blocks, on them, and larger than the data
      for (const sliceSize of [1, 3, 63, 64, 65, 1000, 2 * 1024 * 1024]) {
        if (data.size > 100_000 && sliceSize < 1000) continue;
        const [a, b] = await Promise.all([computeMd5(data, { engine: wasm, sliceSize }), computeMd5(data, { engine: sparkMd5Engine, sliceSize })]);
        expect({ sliceSize, size: data.size, wasm: a, spark: b }).toEqual({ sliceSize, size: data.size, wasm: expected, spark: expected });
      }
    }
    // 5 MB in 1,000-byte slices through jsdom's Blob, by both engines: about 2 s alone, more
    // than jest's default 5 s on a machine busy with the other suites
  }, 30_000);

  it('each file gets its own running hash: two at once do not mix', async () => {
    const a = new Blob(['a'.repeat(10_000)]);
    const b = new Blob(['b'.repeat(10_000)]);
    const [ha, hb] = await Promise.all([computeMd5(a, { engine: wasm, sliceSize: 100 }), computeMd5(b, { engine: wasm, sliceSize: 100 })]);
    expect([ha, hb]).toEqual([nodeMd5('a'.repeat(10_000)), nodeMd5('b'.repeat(10_000))]);
  });

  it('falls back to spark-md5, with the reason, where WebAssembly is missing, refused (CSP) or wrong', async () => {
    const saved = globalThis.WebAssembly;
    try {
      // an old browser
      delete (globalThis as { WebAssembly?: unknown }).WebAssembly;
      const missing = await chooseMd5Engine();
      expect(missing.engine.name).toBe('spark-md5');
      expect(missing.fallbackReason).toBe('此环境不支持 WebAssembly');
    } finally {
      globalThis.WebAssembly = saved;
    }
    expect(typeof WebAssembly.compile).toBe('function');

    // a Content-Security-Policy without 'wasm-unsafe-eval': compiling is refused
    resetMd5Choice();
    const refused = () => Promise.reject(new WebAssembly.CompileError("WebAssembly.compile(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source"));
    const csp = await chooseMd5Engine(() => loadWasmMd5(refused));
    expect(csp.engine.name).toBe('spark-md5');
    expect(csp.fallbackReason).toMatch(/Refused to compile/);

    // an instance that gives a wrong digest is not trusted
    resetMd5Choice();
    const wrong = (async () => ({ update: () => undefined, digest: () => '0'.repeat(32) })) as unknown as Parameters<typeof loadWasmMd5>[0];
    const broken = await chooseMd5Engine(() => loadWasmMd5(wrong));
    expect(broken).toEqual({ engine: sparkMd5Engine, fallbackReason: 'WebAssembly MD5 自检结果不正确' });

    // whatever engine was chosen, the digests are right
    await expect(computeMd5(blob(), { sliceSize: 5 })).resolves.toBe(nodeMd5(text));
  });
});

describe('computeMd5', () => {
  it('reads a Blob that can stream as one stream: the same digests, progress every slice, nothing read after an abort', async () => {
    const { Blob: StreamingBlob } = await import('node:buffer');
    const random = new Uint8Array(crypto.randomBytes(300_000));
    // in pieces of 10,000 bytes, as a stream hands out a file
    const parts = Array.from({ length: 30 }, (_, i) => random.subarray(i * 10_000, (i + 1) * 10_000));
    const streaming = new StreamingBlob(parts) as unknown as Blob;
    expect(typeof streaming.stream).toBe('function');
    const slice = jest.spyOn(streaming, 'slice');
    for (const engine of [sparkMd5Engine, await loadWasmMd5()]) {
      for (const sliceSize of [1000, 65_536, 100_000, 1 << 21]) {
        const seen: number[] = [];
        const meter = meterMd5(engine);
        await expect(computeMd5(streaming, { sliceSize, onProgress: (p) => seen.push(p) })).resolves.toBe(nodeMd5(random));
        expect(meter.bytes).toBe(random.length);
        expect(seen.at(-1)).toBe(100);
        expect(seen).toEqual([...seen].sort((a, b) => a - b));
        if (sliceSize === 100_000) expect(seen).toEqual([33, 66, 100]);
      }
    }
    // streamed, never sliced
    expect(slice).not.toHaveBeenCalled();
    const controller = new AbortController();
    const between = jest.fn(async () => controller.abort());
    await expect(computeMd5(streaming, { sliceSize: 1000, between, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(between).toHaveBeenCalledTimes(1);
    await expect(computeMd5(new StreamingBlob([]) as unknown as Blob)).resolves.toBe(nodeMd5(''));
  });

  /** A Blob-like whose stream() is a byte stream: the sizes of the buffers each read offered (`asked`). */
  const byteStreamBlob = (bytes: Uint8Array) => {
    const asked: number[] = [];
    const fake = {
      size: bytes.length,
      slice: jest.fn(),
      stream: () => {
        let at = 0;
        return new WebReadableStream({
          type: 'bytes',
          pull(controller) {
            if (at >= bytes.length) {
              controller.close();
              controller.byobRequest?.respond(0);
              return;
            }
            const request = controller.byobRequest;
            if (request?.view) {
              const view = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength);
              asked.push(view.byteLength);
              // a file hands out at most 300,000 bytes at once here, whatever the buffer offered
              const n = Math.min(view.byteLength, 300_000, bytes.length - at);
              view.set(bytes.subarray(at, at + n));
              at += n;
              request.respond(n);
            } else {
              // a default reader's read: a new piece each time
              const n = Math.min(65_536, bytes.length - at);
              controller.enqueue(bytes.slice(at, at + n));
              at += n;
            }
          },
        });
      },
    };
    return { blob: fake as unknown as Blob, asked, slice: fake.slice };
  };

  it('reads a byte stream into one buffer of 1 MB (no larger than a slice) again and again: the same digest, the same progress', async () => {
    const random = new Uint8Array(crypto.randomBytes(3 * STREAM_READ_SIZE + 12_345));
    expect(STREAM_READ_SIZE).toBe(1024 * 1024);
    for (const sliceSize of [2 * 1024 * 1024, 100_000]) {
      const { blob: file, asked, slice } = byteStreamBlob(random);
      const seen: number[] = [];
      await expect(computeMd5(file, { sliceSize, onProgress: (p) => seen.push(p) })).resolves.toBe(nodeMd5(random));
      expect(slice).not.toHaveBeenCalled();
      // every read offered the whole buffer: 1 MB, or the slice where that is smaller
      expect(asked.length).toBeGreaterThan(10);
      expect(new Set(asked)).toEqual(new Set([Math.min(STREAM_READ_SIZE, sliceSize)]));
      expect(seen.at(-1)).toBe(100);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      if (sliceSize === 100_000) expect(seen.length).toBeGreaterThan(30);
    }
  });

  it('reads a stream that is not a byte stream with its default reader', async () => {
    const random = new Uint8Array(crypto.randomBytes(500_000));
    const slice = jest.fn();
    const pieces = [random.subarray(0, 200_000), random.subarray(200_000)];
    const plain = {
      size: random.length,
      slice,
      stream: () =>
        new WebReadableStream<Uint8Array>({
          start(controller) {
            for (const p of pieces) controller.enqueue(p);
            controller.close();
          },
        }),
    } as unknown as Blob;
    const seen: number[] = [];
    await expect(computeMd5(plain, { sliceSize: 100_000, onProgress: (p) => seen.push(p) })).resolves.toBe(nodeMd5(random));
    expect(slice).not.toHaveBeenCalled();
    expect(seen).toEqual([40, 100]);
  });

  it('gives the MD5 of the bytes whatever the slice size, each byte hashed once', async () => {
    for (const inner of [sparkMd5Engine, await loadWasmMd5()]) {
      for (const sliceSize of [1, 3, 7, 64]) {
        const meter = meterMd5(inner);
        const result = await computeMd5(blob(), { sliceSize });
        expect(result).toBe(SparkMD5.hash(text));
        expect(meter.bytes).toBe(text.length);
      }
      meterMd5(inner);
      await expect(computeMd5(new Blob([]))).resolves.toBe(SparkMD5.hash(''));
    }
  });

  it('reads the next slice while the current one is hashed', async () => {
    const file = blob();
    const log: string[] = [];
    const slice = file.slice.bind(file);
    file.slice = ((start?: number, end?: number) => {
      log.push(`read ${start}`);
      return slice(start, end);
    }) as Blob['slice'];
    const meter = meterMd5();
    meter.onUpdate = (buffer) => log.push(`hash ${buffer.byteLength}`);
    expect(await computeMd5(file, { sliceSize: 20 })).toBe(SparkMD5.hash(text));
    expect(log).toEqual(['read 0', 'read 20', 'hash 20', 'read 40', 'hash 20', 'hash 3']);
  });

  it('reports whole percents of the bytes and stops when aborted', async () => {
    const seen: number[] = [];
    await computeMd5(blob(), { sliceSize: 11, onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([25, 51, 76, 100]);
    const controller = new AbortController();
    const run = computeMd5(blob(), { sliceSize: 11, signal: controller.signal, between: async () => controller.abort() });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('counts chunks and their ranges', () => {
    expect(chunkCount(0, 4)).toBe(1);
    expect(chunkCount(8, 4)).toBe(2);
    expect(chunkCount(9, 4)).toBe(3);
    expect(chunkRange(3, 9, 4)).toEqual([8, 9]);
  });
});

describe('the worker protocol', () => {
  it('answers a file with progress then its hash, and a chunk with its hash under its id', async () => {
    const file: HashMessage[] = [];
    await handleHashRequest({ type: 'file', file: blob(), sliceSize: 22 }, (m) => file.push(m));
    expect(file).toEqual([
      { type: 'engine', name: 'hash-wasm', fallbackReason: null },
      { type: 'progress', percent: 51 },
      { type: 'progress', percent: 100 },
      { type: 'done', hash: SparkMD5.hash(text) },
    ]);
    const chunk: HashMessage[] = [];
    await handleHashRequest({ type: 'chunk', id: 7, blob: blob().slice(4, 9) }, (m) => chunk.push(m));
    expect(chunk).toEqual([{ type: 'chunk', id: 7, hash: SparkMD5.hash('quick') }]);
  });

  it('sends a file\'s progress at most every PROGRESS_POST_EVERY_MS, and always its 100 %', async () => {
    // a slice of 4 bytes: a percent every few bytes; the clock moves 40 ms per reading of it
    let clock = 0;
    const now = () => (clock += 40);
    const sent: HashMessage[] = [];
    await handleHashRequest({ type: 'file', file: blob(), sliceSize: 4 }, (m) => sent.push(m), now);
    const percents = sent.flatMap((m) => (m.type === 'progress' ? [m.percent] : []));
    // 11 slices make 11 percents; one in three passes (40 ms apart, 100 ms between two sent)
    expect(percents).toEqual([9, 37, 65, 93, 100]);
    expect(PROGRESS_POST_EVERY_MS).toBe(100);
    expect(sent.at(-1)).toEqual({ type: 'done', hash: SparkMD5.hash(text) });
  });

  it('answers a warm request once its engine is ready, and hashes nothing', async () => {
    const sent: HashMessage[] = [];
    const meter = meterMd5();
    await handleHashRequest({ type: 'warm' }, (m) => sent.push(m));
    expect(sent).toEqual([{ type: 'ready' }]);
    expect(meter.bytes).toBe(0);
  });
});

/** A Worker that runs the worker's handler on this thread. */
class InlineWorker implements HashWorker {
  onmessage: ((event: { data: HashMessage }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  terminated = false;
  requests: HashRequest[] = [];
  postMessage(request: HashRequest) {
    this.requests.push(request);
    void handleHashRequest(request, (data) => {
      if (!this.terminated) setTimeout(() => this.onmessage?.({ data }), 0);
    });
  }
  terminate() {
    this.terminated = true;
  }
}

function inlineWorkers() {
  const workers: InlineWorker[] = [];
  const createWorker = () => {
    const w = new InlineWorker();
    workers.push(w);
    return w;
  };
  return { workers, createWorker };
}

describe('createHasher: the whole file', () => {
  it('hashes in the worker with its progress, tells which engine hashed, keeps it for the next file, ends it on release', async () => {
    const { workers, createWorker } = inlineWorkers();
    const onEngine = jest.fn();
    const hasher = createHasher({ sliceSize: 8, createWorker, onEngine });
    const progress: number[] = [];
    const h = await hasher.hash(blob(), { onProgress: (p) => progress.push(p) });
    expect(h).toBe(SparkMD5.hash(text));
    expect(onEngine.mock.calls).toEqual([['hash-wasm', null]]);
    expect(progress.at(-1)).toBe(100);
    expect(workers).toHaveLength(1);
    expect(workers[0].requests).toEqual([{ type: 'file', file: expect.any(Blob), sliceSize: 8 }]);
    expect(workers[0].terminated).toBe(false);
    // the next file goes to the same worker: no new worker, no second start
    await expect(hasher.hash(blob().slice(4, 9), {})).resolves.toBe(SparkMD5.hash('quick'));
    expect(workers).toHaveLength(1);
    expect(workers[0].requests).toHaveLength(2);
    hasher.release();
    expect(workers[0].terminated).toBe(true);
    await expect(hasher.hash(blob(), {})).resolves.toBe(SparkMD5.hash(text));
    expect(workers).toHaveLength(2);
  });

  it('starts the file worker ahead: the first file goes to it, and one no file takes ends', async () => {
    jest.useFakeTimers();
    try {
      const { workers, createWorker } = inlineWorkers();
      const hasher = createHasher({ sliceSize: 8, createWorker });
      hasher.warm?.();
      hasher.warm?.(); // one is enough
      expect(workers).toHaveLength(1);
      expect(workers[0].requests).toEqual([{ type: 'warm' }]);
      await jest.advanceTimersByTimeAsync(10); // it answers: ready
      const hashed = hasher.hash(blob(), {});
      await jest.advanceTimersByTimeAsync(10);
      await expect(hashed).resolves.toBe(SparkMD5.hash(text));
      expect(workers).toHaveLength(1);
      expect(workers[0].requests.map((r) => r.type)).toEqual(['warm', 'file']);
      // kept for the next file as before; released with the engine
      hasher.release();
      expect(workers[0].terminated).toBe(true);

      // started ahead and never used: it ends after WARM_KEPT_MS
      hasher.warm?.();
      expect(workers).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(WARM_KEPT_MS - 1);
      expect(workers[1].terminated).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(workers[1].terminated).toBe(true);
      // the next file starts another
      const next = hasher.hash(blob(), {});
      await jest.advanceTimersByTimeAsync(10);
      await expect(next).resolves.toBe(SparkMD5.hash(text));
      expect(workers).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });

  it('falls back to this thread when a worker started ahead never started, and starts none while a file is hashed', async () => {
    // the script is blocked: the worker started ahead errs before any answer
    const blocked = new InlineWorker();
    blocked.postMessage = (request) => {
      blocked.requests.push(request);
      if (request.type === 'file') setTimeout(() => blocked.onerror?.(new Event('error')), 0);
    };
    const hasher = createHasher({ createWorker: () => blocked });
    hasher.warm?.();
    await expect(hasher.hash(blob(), {})).resolves.toBe(SparkMD5.hash(text));
    expect(blocked.requests.map((r) => r.type)).toEqual(['warm', 'file']);

    const { workers, createWorker } = inlineWorkers();
    const busy = createHasher({ createWorker });
    const hashing = busy.hash(blob(), {});
    busy.warm?.();
    expect(workers).toHaveLength(1);
    await hashing;
    expect(workers[0].requests.map((r) => r.type)).toEqual(['file']);
  });

  it('terminates the worker when the upload is paused', async () => {
    const worker = new InlineWorker();
    worker.postMessage = () => undefined; // never answers
    const controller = new AbortController();
    const run = createHasher({ createWorker: () => worker }).hash(blob(), { signal: controller.signal });
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.terminated).toBe(true);
  });

  it('hashes on this thread when the worker cannot start', async () => {
    const failing = createHasher({ createWorker: () => { throw new Error('blocked'); } });
    await expect(failing.hash(blob(), {})).resolves.toBe(SparkMD5.hash(text));
    const erroring = new InlineWorker();
    erroring.postMessage = () => setTimeout(() => erroring.onerror?.(new Event('error')), 0);
    await expect(createHasher({ createWorker: () => erroring }).hash(blob(), {})).resolves.toBe(SparkMD5.hash(text));
  });

  it('hashes on this thread where Worker does not exist (jsdom), yielding between slices, each byte once', async () => {
    expect(typeof Worker).toBe('undefined');
    const between = jest.fn(() => Promise.resolve());
    const meter = meterMd5();
    const onEngine = jest.fn();
    const result = await createHasher({ sliceSize: 10, between, onEngine }).hash(blob(), {});
    expect(result).toBe(SparkMD5.hash(text));
    expect(meter.bytes).toBe(text.length);
    expect(between).toHaveBeenCalledTimes(4);
    expect(onEngine).toHaveBeenCalledWith('spark-md5', null);
  });
});

describe('createHasher: chunks', () => {
  const pieces = [0, 8, 16, 24, 32, 40].map((s) => [s, Math.min(text.length, s + 8)] as const);

  it('hashes chunks in a small pool of long-lived workers, one chunk per worker at a time', async () => {
    const { workers, createWorker } = inlineWorkers();
    const hasher = createHasher({ createWorker, chunkWorkers: 2 });
    const answers = await Promise.all(pieces.map(([s, e]) => hasher.hashChunk(blob().slice(s, e))));
    expect(answers).toEqual(pieces.map(([s, e]) => SparkMD5.hash(text.slice(s, e))));
    // two workers for six chunks, not one per chunk
    expect(workers).toHaveLength(2);
    expect(workers.flatMap((w) => w.requests).map((r) => r.type === 'chunk' && r.id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(workers.some((w) => w.terminated)).toBe(false);

    // released when the engine is idle; the next chunk starts a worker again
    hasher.release();
    expect(workers.every((w) => w.terminated)).toBe(true);
    await expect(hasher.hashChunk(blob().slice(0, 3))).resolves.toBe(SparkMD5.hash('The'));
    expect(workers).toHaveLength(3);
  });

  it('never gives a worker a second chunk before it answered the first', async () => {
    const worker = new InlineWorker();
    const posted: number[] = [];
    const answer: Array<() => void> = [];
    worker.postMessage = (request) => {
      posted.push(request.type === 'chunk' ? request.id : 0);
      answer.push(() => void handleHashRequest(request, (data) => worker.onmessage?.({ data })));
    };
    const hasher = createHasher({ createWorker: () => worker, chunkWorkers: 1 });
    const first = hasher.hashChunk(blob().slice(0, 3));
    const second = hasher.hashChunk(blob().slice(4, 9));
    expect(posted).toEqual([1]);
    answer.shift()!();
    await expect(first).resolves.toBe(SparkMD5.hash('The'));
    expect(posted).toEqual([1, 2]);
    answer.shift()!();
    await expect(second).resolves.toBe(SparkMD5.hash('quick'));
  });

  it('a paused chunk waiting for a worker is never sent to it; release rejects the chunk being hashed', async () => {
    const worker = new InlineWorker();
    worker.postMessage = (request) => void worker.requests.push(request); // never answers
    const hasher = createHasher({ createWorker: () => worker, chunkWorkers: 1 });
    const controller = new AbortController();
    const busy = hasher.hashChunk(blob().slice(0, 3));
    const waiting = hasher.hashChunk(blob().slice(4, 9), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    hasher.release();
    await expect(busy).rejects.toMatchObject({ name: 'AbortError' });
    expect(worker.requests).toHaveLength(1);
    expect(worker.terminated).toBe(true);
    await expect(hasher.hashChunk(blob(), AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('hashes chunks on this thread when no worker can start, and when there is no Worker', async () => {
    const make = jest.fn((): HashWorker => { throw new Error('blocked'); });
    const failing = createHasher({ createWorker: make });
    await expect(failing.hashChunk(blob().slice(4, 9))).resolves.toBe(SparkMD5.hash('quick'));
    await expect(failing.hashChunk(blob().slice(0, 3))).resolves.toBe(SparkMD5.hash('The'));
    expect(make).toHaveBeenCalledTimes(1);

    // workers whose script is blocked: each fails before it answers
    const made: InlineWorker[] = [];
    const broken = createHasher({
      chunkWorkers: 2,
      createWorker: () => {
        const w = new InlineWorker();
        w.postMessage = () => setTimeout(() => w.onerror?.(new Event('error')), 0);
        made.push(w);
        return w;
      },
    });
    const answers = await Promise.all(pieces.map(([s, e]) => broken.hashChunk(blob().slice(s, e))));
    expect(answers).toEqual(pieces.map(([s, e]) => SparkMD5.hash(text.slice(s, e))));
    expect(made).toHaveLength(2);
    expect(made.every((w) => w.terminated)).toBe(true);
    await expect(broken.hashChunk(blob().slice(0, 3))).resolves.toBe(SparkMD5.hash('The'));
    expect(made).toHaveLength(2);

    const between = jest.fn(() => Promise.resolve());
    await expect(createHasher({ sliceSize: 10, between }).hashChunk(blob())).resolves.toBe(SparkMD5.hash(text));
    expect(between).toHaveBeenCalledTimes(4);
  });
});

describe('the page', () => {
  it('logs a fallback to spark-md5 in the error log once, and nothing while hash-wasm runs', async () => {
    const { getErrorLog, clearErrorLog } = await import('@app/shared');
    const { reportMd5Engine, md5FallbackMessage } = await import('./index');
    clearErrorLog();
    reportMd5Engine('hash-wasm', null);
    expect(getErrorLog()).toEqual([]);
    reportMd5Engine('spark-md5', '此环境不支持 WebAssembly');
    reportMd5Engine('spark-md5', '此环境不支持 WebAssembly');
    expect(getErrorLog()).toEqual([expect.objectContaining({ type: 'script', message: md5FallbackMessage('此环境不支持 WebAssembly') })]);
    expect(getErrorLog()[0].message).toContain('spark-md5');
  });
});
