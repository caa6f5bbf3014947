// The running MD5 (and CRC-32, for zip archives) of each upload session's contiguous prefix of
// chunks, made off the event loop and off the chunks' replies: once a chunk is checked (its own
// MD5 is made as it streams in) and recorded, one worker thread reads it back from the staging
// file (from the page cache) and adds it to the prefix, so that the merge finds the whole file's
// MD5 and CRC-32 ready. Chunks that arrive ahead of their turn join the prefix when the gap
// before them is filled.
// The worker keeps its state in memory only: after a restart, or if the worker died, the merge
// hashes the staging file from its start.
import { WorkerClient } from '../../lib/worker-client';
import type { ContentDigest } from '../versions/blobs';

/** The worker's code (CommonJS, evaluated as is: it must not depend on the build). */
const WORKER_SOURCE = String.raw`
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const fs = require('node:fs');
const zlib = require('node:zlib');

const PIECE = 1 << 20;
const piece = Buffer.allocUnsafe(PIECE);
/** session id -> { hash, crc, upTo: chunks 1..upTo are in hash and crc, ahead: checked chunks past upTo } */
const sessions = new Map();

const newState = () => ({ hash: crypto.createHash('md5'), crc: 0, upTo: 0, ahead: new Set() });

/** Feeds bytes [start, end) of file into the state's MD5 and CRC-32. */
function feed(file, start, end, state) {
  if (end <= start) return;
  const fd = fs.openSync(file, 'r');
  try {
    let at = start;
    while (at < end) {
      const got = fs.readSync(fd, piece, 0, Math.min(PIECE, end - at), at);
      if (got <= 0) throw new Error('staging file shorter than recorded');
      const bytes = got === PIECE ? piece : piece.subarray(0, got);
      state.hash.update(bytes);
      state.crc = zlib.crc32(bytes, state.crc);
      at += got;
    }
  } finally {
    fs.closeSync(fd);
  }
}

const rangeOf = (n, m) => [(n - 1) * m.chunkSize, Math.min(m.size, n * m.chunkSize)];

const ops = {
  open(m) {
    sessions.set(m.session, newState());
  },
  recorded(m) {
    const state = sessions.get(m.session);
    if (!state || m.n <= state.upTo) return;
    state.ahead.add(m.n);
    try {
      while (state.ahead.has(state.upTo + 1)) {
        const k = state.upTo + 1;
        const [s, e] = rangeOf(k, m);
        feed(m.file, s, e, state);
        state.ahead.delete(k);
        state.upTo = k;
      }
    } catch (err) {
      // the file could not be read: the merge hashes it from its start
      sessions.delete(m.session);
      throw err;
    }
  },
  digest(m) {
    let state = m.fresh ? null : sessions.get(m.session);
    if (!state) {
      state = newState();
      sessions.set(m.session, state);
    }
    const total = Math.max(1, Math.ceil(m.size / m.chunkSize));
    try {
      feed(m.file, Math.min(m.size, state.upTo * m.chunkSize), m.size, state);
    } catch (err) {
      // a hash fed part of the way is of no use: the next digest starts over
      sessions.delete(m.session);
      throw err;
    }
    state.upTo = total;
    state.ahead.clear();
    return { md5: state.hash.copy().digest('hex'), crc32: state.crc };
  },
  forget(m) {
    sessions.delete(m.session);
  },
};

parentPort.on('message', (m) => {
  try {
    const result = ops[m.op](m);
    if (m.id) parentPort.postMessage({ id: m.id, result });
  } catch (err) {
    if (m.id) parentPort.postMessage({ id: m.id, error: err && err.message ? err.message : String(err) });
  }
});
`;

/** Where a session's chunks are: its staging file, its chunk size and its total size. */
export interface StagedFile {
  session: string;
  file: string;
  chunkSize: number;
  size: number;
}

export class UploadHashing {
  private readonly worker = new WorkerClient<ContentDigest>(WORKER_SOURCE, 'upload hashing worker');

  private ask(message: Record<string, unknown>): Promise<ContentDigest> {
    return this.worker.ask(message);
  }

  private tell(message: Record<string, unknown>): void {
    // nothing to tell a worker that is not running: it holds no state
    this.worker.tell(message, message.op === 'open');
  }

  /** A new session: its prefix hash starts empty. */
  open(session: string): void {
    this.tell({ op: 'open', session });
  }

  /**
   * Chunk `n` is checked and recorded: the prefix takes it in, in the background (what the
   * merge asks for later is answered after it).
   */
  recorded(staged: StagedFile, n: number): void {
    this.tell({ op: 'recorded', ...staged, n });
  }

  /** The MD5 and CRC-32 of the whole staging file (`fresh`: read from its start, whatever is known). */
  digest(staged: StagedFile, fresh = false): Promise<ContentDigest> {
    return this.ask({ op: 'digest', ...staged, fresh });
  }

  forget(session: string): void {
    this.tell({ op: 'forget', session });
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
