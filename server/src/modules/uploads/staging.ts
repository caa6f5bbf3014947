// Staging files of 云文档 uploads: one file per session, `$DATA_DIR/uploads/<session id>.part`,
// on the same file system as the blob store so that a finished one can be linked into it.
// Chunks are written at their offset as they stream in, then fsync'ed (a body the server reads
// whole is fsync'ed once, at its end).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** The chunk streamed more bytes than it declared (the write stops at the declared size). */
export class ChunkTooLong extends Error {}

export interface WrittenChunk {
  bytes: number;
  /** hex MD5 of the bytes written; null when none was asked for */
  md5: string | null;
}

const SUFFIX = '.part';
/** Bytes gathered before one write into the staging file. */
const WRITE_BATCH = 1024 * 1024;
/** Pieces in one writev, at most (well under IOV_MAX). */
const MAX_PIECES = 256;

export class Staging {
  /** `dir` is `$DATA_DIR/uploads`. */
  constructor(readonly dir: string) {}

  pathOf(sessionId: string): string {
    return path.join(this.dir, `${sessionId}${SUFFIX}`);
  }

  /** Makes the (empty) staging file of a new session. */
  async create(sessionId: string): Promise<void> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const fh = await fs.promises.open(this.pathOf(sessionId), fs.constants.O_RDWR | fs.constants.O_CREAT);
    await fh.close();
  }

  /**
   * Streams `source` into the staging file at `offset` (hashing it on the way when `hash`), and
   * fsyncs it (unless `sync` is false: the caller syncs the file once when all of it is there).
   * Refuses (ChunkTooLong) as soon as more than `limit` bytes arrive.
   */
  async writeAt(sessionId: string, offset: number, source: Readable, limit: number, hash = true, sync = true): Promise<WrittenChunk> {
    const file = this.pathOf(sessionId);
    let fh: fs.promises.FileHandle;
    try {
      fh = await fs.promises.open(file, fs.constants.O_RDWR | fs.constants.O_CREAT);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await fs.promises.mkdir(this.dir, { recursive: true });
      fh = await fs.promises.open(file, fs.constants.O_RDWR | fs.constants.O_CREAT);
    }
    const md5 = hash ? crypto.createHash('md5') : null;
    let bytes = 0;
    // the multipart parser hands over pieces of about 64 KB: they are written in batches of up
    // to WRITE_BATCH bytes, one writev each (a bounded buffer per chunk in flight, never the
    // whole chunk, and no copy)
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let written = 0;
    const flush = async () => {
      if (!batchBytes) return;
      let pieces = batch;
      let left = batchBytes;
      batch = [];
      batchBytes = 0;
      while (left > 0) {
        const { bytesWritten } = await fh.writev(pieces, offset + written);
        written += bytesWritten;
        left -= bytesWritten;
        if (left > 0) pieces = rest(pieces, bytesWritten);
      }
    };
    try {
      for await (const piece of source) {
        const buf = piece as Buffer;
        if (bytes + buf.length > limit) throw new ChunkTooLong();
        md5?.update(buf);
        bytes += buf.length;
        batch.push(buf);
        batchBytes += buf.length;
        if (batchBytes >= WRITE_BATCH || batch.length >= MAX_PIECES) await flush();
      }
      await flush();
      if (sync) await fh.sync();
    } finally {
      await fh.close();
    }
    return { bytes, md5: md5 ? md5.digest('hex') : null };
  }

  /** Flushes the staging file to disk (after chunks written without `sync`). */
  async sync(sessionId: string): Promise<void> {
    const fh = await fs.promises.open(this.pathOf(sessionId), fs.constants.O_RDWR);
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }

  async size(sessionId: string): Promise<number | null> {
    try {
      return (await fs.promises.stat(this.pathOf(sessionId))).size;
    } catch {
      return null;
    }
  }

  async remove(sessionId: string): Promise<void> {
    await fs.promises.rm(this.pathOf(sessionId), { force: true });
  }

  /** Session ids of the staging files present. */
  async list(): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch {
      return [];
    }
    return names.filter((n) => n.endsWith(SUFFIX)).map((n) => n.slice(0, -SUFFIX.length));
  }
}

/** What is left of `pieces` after their first `skip` bytes (a short writev). */
function rest(pieces: Buffer[], skip: number): Buffer[] {
  const out: Buffer[] = [];
  for (const p of pieces) {
    if (skip >= p.length) {
      skip -= p.length;
      continue;
    }
    out.push(skip > 0 ? p.subarray(skip) : p);
    skip = 0;
  }
  return out;
}
