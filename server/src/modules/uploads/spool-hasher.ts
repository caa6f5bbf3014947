// Adds a spooled chunk to an upload's running MD5 off the event loop: one worker thread loads
// hash-wasm's saved state (the session row's md5_state), feeds it the spool file from the page
// cache and hands back the state to save. The event loop meanwhile goes on streaming the other
// chunks to the store.
import { Worker } from 'node:worker_threads';

/** The worker's code (CommonJS, evaluated as is: it must not depend on the build). */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { createMD5 } = require(workerData.hashWasm);

const PIECE = 1 << 20;
const piece = Buffer.allocUnsafe(PIECE);

async function resume(m) {
  const md5 = await createMD5();
  if (m.state) md5.load(Buffer.from(m.state, 'base64'));
  else md5.init();
  const fd = fs.openSync(m.file, 'r');
  try {
    for (;;) {
      const got = fs.readSync(fd, piece, 0, PIECE, null);
      if (got <= 0) break;
      md5.update(got === PIECE ? piece : piece.subarray(0, got));
    }
  } finally {
    fs.closeSync(fd);
  }
  return Buffer.from(md5.save()).toString('base64');
}

parentPort.on('message', (m) => {
  resume(m).then(
    (result) => parentPort.postMessage({ id: m.id, result }),
    (err) => parentPort.postMessage({ id: m.id, error: err && err.message ? err.message : String(err) }),
  );
});
`;

export class SpoolHasher {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve(state: string): void; reject(error: Error): void }>();
  private lastId = 0;

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { hashWasm: require.resolve('hash-wasm') } });
    // an idle worker must not keep the process alive
    worker.unref();
    worker.on('message', (m: { id: number; result?: string; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result ?? '');
    });
    const lost = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const p of waiting) p.reject(err);
    };
    worker.on('error', lost);
    worker.on('exit', () => lost(new Error('spool hashing worker stopped')));
    this.worker = worker;
    return worker;
  }

  /** hash-wasm's MD5 state after `state` (null: a fresh hash) took in the whole of `file`. */
  resume(state: string | null, file: string): Promise<string> {
    const worker = this.start();
    const id = ++this.lastId;
    return new Promise<string>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, state, file });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(new Error('spool hashing worker stopped'));
  }
}
