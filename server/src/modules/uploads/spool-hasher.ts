// Adds a spooled chunk to an upload's running MD5 off the event loop: one worker thread loads
// hash-wasm's saved state (the session row's md5_state), feeds it the spool file from the page
// cache and hands back the state to save. The event loop meanwhile goes on streaming the other
// chunks to the store.
import { WorkerClient } from '../../lib/worker-client';

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
  private readonly worker = new WorkerClient<string>(WORKER_SOURCE, 'spool hashing worker', { hashWasm: require.resolve('hash-wasm') });

  /** hash-wasm's MD5 state after `state` (null: a fresh hash) took in the whole of `file`. */
  resume(state: string | null, file: string): Promise<string> {
    return this.worker.ask({ state, file });
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
