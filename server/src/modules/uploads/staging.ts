// Staging files of 云文档 uploads: one file per session, `$DATA_DIR/uploads/<session id>.part`,
// on the same file system as the blob store so that a finished one can be linked into it.
// Chunks are written at their offset as they stream in, then fsync'ed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** The chunk streamed more bytes than it declared (the write stops at the declared size). */
export class ChunkTooLong extends Error {}

export interface WrittenChunk {
  bytes: number;
  md5: string;
}

const SUFFIX = '.part';
/** Bytes gathered before one write into the staging file. */
const WRITE_BATCH = 1024 * 1024;

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
   * Streams `source` into the staging file at `offset`, hashing it on the way, and fsyncs it.
   * Refuses (ChunkTooLong) as soon as more than `limit` bytes arrive. `alsoHash` sees every
   * byte written, in order (the session's running hash of its contiguous prefix).
   */
  async writeAt(sessionId: string, offset: number, source: Readable, limit: number, alsoHash?: crypto.Hash): Promise<WrittenChunk> {
    await fs.promises.mkdir(this.dir, { recursive: true });
    const fh = await fs.promises.open(this.pathOf(sessionId), fs.constants.O_RDWR | fs.constants.O_CREAT);
    const md5 = crypto.createHash('md5');
    let bytes = 0;
    // the multipart parser hands over pieces of about 64 KB: they are gathered into writes of
    // up to WRITE_BATCH bytes (a bounded buffer per chunk in flight, never the whole chunk)
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let written = 0;
    const flush = async () => {
      if (!batchBytes) return;
      const buf = batch.length === 1 ? batch[0] : Buffer.concat(batch, batchBytes);
      batch = [];
      batchBytes = 0;
      let done = 0;
      while (done < buf.length) {
        const { bytesWritten } = await fh.write(buf, done, buf.length - done, offset + written + done);
        done += bytesWritten;
      }
      written += buf.length;
    };
    try {
      for await (const piece of source) {
        const buf = piece as Buffer;
        if (bytes + buf.length > limit) throw new ChunkTooLong();
        md5.update(buf);
        alsoHash?.update(buf);
        bytes += buf.length;
        batch.push(buf);
        batchBytes += buf.length;
        if (batchBytes >= WRITE_BATCH) await flush();
      }
      await flush();
      await fh.sync();
    } finally {
      await fh.close();
    }
    return { bytes, md5: md5.digest('hex') };
  }

  /** Feeds bytes [start, end) of the staging file into `hash`. */
  async hashRange(sessionId: string, start: number, end: number, hash: crypto.Hash): Promise<void> {
    if (end <= start) return;
    const stream = fs.createReadStream(this.pathOf(sessionId), { start, end: end - 1, highWaterMark: 1024 * 1024 });
    let bytes = 0;
    for await (const piece of stream) {
      const buf = piece as Buffer;
      hash.update(buf);
      bytes += buf.length;
    }
    if (bytes !== end - start) throw new Error('staging file shorter than recorded');
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
