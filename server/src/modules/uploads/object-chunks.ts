// Upload chunks kept as objects of the store (`uploads/<session>/<n>`), for S3: any chunk may
// reach any instance, and the merge composes them inside the store into the blob. The running
// MD5 of the contiguous prefix lives in the session's row (hash-wasm's saved state, 156 bytes):
// after each chunk is recorded, the prefix is carried on by whichever instance gets there,
// reading the next chunks back from the store; a conditional update keeps two instances from
// adding the same chunk twice. The merge finishes what is left.
import crypto from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { createMD5 } from 'hash-wasm';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { ObjectStore } from '../storage/store';
import { ChunkTooLong, type WrittenChunk } from './staging';

/** S3's smallest part: compose needs every chunk but the last to be at least this large. */
const MIN_PART = 5 * 1024 * 1024;

/** The body ended before the declared size: the store's request is aborted, not ended short. */
class ShortChunk extends Error {}

/**
 * Counts (and hashes) what passes; refuses more than `size` bytes, and fails when the body ends
 * with fewer (the store was promised exactly `size`).
 */
class Gauge extends Transform {
  bytes = 0;
  readonly md5: crypto.Hash | null;

  constructor(
    private readonly size: number,
    hash: boolean,
  ) {
    super();
    this.md5 = hash ? crypto.createHash('md5') : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.bytes + chunk.length > this.size) return callback(new ChunkTooLong());
    this.bytes += chunk.length;
    this.md5?.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback) {
    callback(this.bytes < this.size ? new ShortChunk() : null);
  }
}

export interface ChunkedSession {
  id: string;
  chunk_size: number;
  total_chunks: number;
  size: number;
}

export class ObjectChunks {
  constructor(
    private readonly db: Kysely<Database>,
    readonly store: ObjectStore,
  ) {}

  keyOf(sessionId: string, n: number): string {
    return `uploads/${sessionId}/${String(n).padStart(6, '0')}`;
  }

  private keysOf(s: ChunkedSession): string[] {
    return Array.from({ length: Number(s.total_chunks) }, (_, i) => this.keyOf(s.id, i + 1));
  }

  /** Streams one chunk into its object (whole or not at all); refuses more than `limit` bytes. */
  async write(sessionId: string, n: number, source: Readable, limit: number, hash: boolean): Promise<WrittenChunk> {
    const gauge = new Gauge(limit, hash);
    let failure: unknown = null;
    gauge.on('error', (err) => (failure ??= err));
    source.on('error', (err) => gauge.destroy(err));
    source.pipe(gauge);
    try {
      await this.store.put(this.keyOf(sessionId, n), gauge, limit);
    } catch (err) {
      if (failure instanceof ChunkTooLong || err instanceof ChunkTooLong) throw new ChunkTooLong();
      // fewer bytes than declared: nothing was stored; the caller reports how many came
      if (failure instanceof ShortChunk || gauge.bytes < limit) return { bytes: gauge.bytes, md5: null };
      throw err;
    }
    return { bytes: gauge.bytes, md5: gauge.md5 ? gauge.md5.digest('hex') : null };
  }

  /** this process's advance of each session, so that chunks arriving together read each chunk back once */
  private readonly advancing = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  /**
   * Carries the session's prefix MD5 on over the chunks recorded next to it, reading them back
   * from the store. One run per session in this process (a call meanwhile makes it look once
   * more); safe from several instances at once: a chunk is added only where the row still says
   * the prefix ends before it.
   */
  advance(sessionId: string): Promise<void> {
    const running = this.advancing.get(sessionId);
    if (running) {
      this.again.add(sessionId);
      return running;
    }
    const run = (async () => {
      do {
        this.again.delete(sessionId);
        await this.advanceOnce(sessionId);
      } while (this.again.has(sessionId));
    })().finally(() => this.advancing.delete(sessionId));
    this.advancing.set(sessionId, run);
    return run;
  }

  private async advanceOnce(sessionId: string): Promise<void> {
    for (;;) {
      const row = await this.db.selectFrom('upload_sessions').select(['md5_state', 'hashed_through', 'total_chunks']).where('id', '=', sessionId).executeTakeFirst();
      if (!row) return;
      const through = Number(row.hashed_through);
      if (through >= Number(row.total_chunks)) return;
      const next = through + 1;
      const recorded = await this.db
        .selectFrom('upload_chunks')
        .select('chunk_no')
        .where('session_id', '=', sessionId)
        .where('chunk_no', '=', next)
        .where('writing_until', 'is', null)
        .executeTakeFirst();
      if (!recorded) return;
      const md5 = await createMD5();
      if (row.md5_state) md5.load(Buffer.from(row.md5_state, 'base64'));
      else md5.init();
      for await (const piece of await this.store.get(this.keyOf(sessionId, next))) md5.update(piece as Buffer);
      const state = Buffer.from(md5.save()).toString('base64');
      await this.db
        .updateTable('upload_sessions')
        .set({ md5_state: state, hashed_through: next })
        .where('id', '=', sessionId)
        .where('hashed_through', '=', through)
        .execute();
      // whether this instance or another added it, go on from what the row says now
    }
  }

  /** The MD5 of the whole upload: the prefix carried to the end, or (`fresh`) every chunk read again. */
  async digest(s: ChunkedSession, fresh = false): Promise<string> {
    if (!fresh) {
      await this.advance(s.id);
      const row = await this.db.selectFrom('upload_sessions').select(['md5_state', 'hashed_through']).where('id', '=', s.id).executeTakeFirst();
      if (row && Number(row.hashed_through) >= Number(s.total_chunks)) {
        if (Number(s.size) === 0 || !row.md5_state) return crypto.createHash('md5').digest('hex');
        const md5 = await createMD5();
        md5.load(Buffer.from(row.md5_state, 'base64'));
        return md5.digest('hex');
      }
    }
    const md5 = crypto.createHash('md5');
    for (const key of this.keysOf(s)) for await (const piece of await this.store.get(key)) md5.update(piece as Buffer);
    return md5.digest('hex');
  }

  /**
   * Makes `target` from the session's chunks, inside the store when they are large enough for
   * S3's multipart copy (every chunk but the last ≥ 5 MiB), else by streaming them through.
   */
  async compose(s: ChunkedSession, target: string): Promise<void> {
    const keys = this.keysOf(s);
    if (keys.length === 1 || Number(s.chunk_size) >= MIN_PART) {
      await this.store.compose(target, keys);
      return;
    }
    const store = this.store;
    async function* concatenated() {
      for (const key of keys) for await (const piece of await store.get(key)) yield piece as Buffer;
    }
    await this.store.put(target, Readable.from(concatenated()), Number(s.size));
  }

  /** Removes every chunk object of the session. */
  async remove(sessionId: string): Promise<void> {
    const keys: string[] = [];
    for await (const o of this.store.list(`uploads/${sessionId}/`)) keys.push(o.key);
    if (keys.length) await this.store.delete(keys);
  }

  /** The sessions that have chunk objects in the store. */
  async sessions(): Promise<string[]> {
    const ids = new Set<string>();
    for await (const o of this.store.list('uploads/')) {
      const id = o.key.split('/')[1];
      if (id) ids.add(id);
    }
    return [...ids];
  }
}
