// Adds a spooled chunk to an upload's running MD5 and CRC-32 off the event loop: one worker
// thread loads hash-wasm's saved state (the session row's md5_state), feeds it and the CRC-32
// (crc32_state) the spool file from the page cache and hands back both to save. The event loop
// meanwhile goes on streaming the other chunks to the store.
import { WorkerClient } from '../../lib/worker-client';

/** The worker's code (CommonJS, evaluated as is: it must not depend on the build). */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const zlib = require('node:zlib');
const { createMD5 } = require(workerData.hashWasm);

const PIECE = 1 << 20;
const piece = Buffer.allocUnsafe(PIECE);

async function resume(m) {
  const md5 = await createMD5();
  if (m.state) md5.load(Buffer.from(m.state, 'base64'));
  else md5.init();
  // null: the CRC-32 of the bytes before is not known (a row hashed by an older version)
  let crc = m.crc;
  const fd = fs.openSync(m.file, 'r');
  try {
    for (;;) {
      const got = fs.readSync(fd, piece, 0, PIECE, null);
      if (got <= 0) break;
      const bytes = got === PIECE ? piece : piece.subarray(0, got);
      md5.update(bytes);
      if (crc !== null) crc = zlib.crc32(bytes, crc);
    }
  } finally {
    fs.closeSync(fd);
  }
  return { state: Buffer.from(md5.save()).toString('base64'), crc32: crc };
}

parentPort.on('message', (m) => {
  resume(m).then(
    (result) => parentPort.postMessage({ id: m.id, result }),
    (err) => parentPort.postMessage({ id: m.id, error: err && err.message ? err.message : String(err) }),
  );
});
`;

/** A running hash to save: hash-wasm's MD5 state (base64) and the CRC-32 of the same bytes. */
export interface RunningHash {
  state: string;
  /** null where the CRC-32 of the bytes before was not known */
  crc32: number | null;
}

export class SpoolHasher {
  private readonly worker = new WorkerClient<RunningHash>(WORKER_SOURCE, 'spool hashing worker', { hashWasm: require.resolve('hash-wasm') });

  /**
   * The MD5 state and CRC-32 after `state` (null: a fresh hash) and `crc32` (null: unknown, and
   * so it stays) took in the whole of `file`.
   */
  resume(state: string | null, crc32: number | null, file: string): Promise<RunningHash> {
    return this.worker.ask({ state, crc: crc32, file });
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
