// Upload chunks in the object store, for S3: any chunk may reach any instance. Two ways:
// - Parts (chunks of 5 MiB or more, two or more of them): each chunk is sent as a part of one
//   multipart upload of the future blob (`blobs/up/<session>`), and the merge completes that
//   upload: the bytes go to the store once and are never read back or copied. The instance that
//   receives a chunk also keeps it in a spool file on its own disk until it has added it to the
//   running MD5 (in order, so a chunk that arrives before its predecessor is done waits for it,
//   a bounded time). Where the MD5 could not be carried to the end (a spool lost with its
//   instance, a chunk that came much later than the next), the merge reads the completed object.
// - Objects (smaller chunks, or a file of one chunk): each chunk is an object
//   (`uploads/<session>/<n>`), the prefix MD5 is carried on by whichever instance gets there,
//   reading the next chunks back from the store, and the merge composes them inside the store.
// Either way the running MD5 of the contiguous prefix lives in the session's row (hash-wasm's
// saved state, 156 bytes) with the CRC-32 of the same bytes (for zip archives), and a
// conditional update keeps two instances from adding the same chunk twice.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { createMD5 } from 'hash-wasm';
import type { Kysely } from 'kysely';
import { isPostgres, lockKey } from '../../db/locks';
import type { Database } from '../../db/types';
import { BLOB_PREFIX, type ContentDigest } from '../versions/blobs';
import { ObjectMissing, type MultipartWrites, type ObjectStore } from '../storage/store';
import { SpoolHasher } from './spool-hasher';
import { ChunkTooLong, type WrittenChunk } from './staging';

/**
 * The CRC-32 of a session's hashed prefix: 0 before any chunk, null when its row was hashed by
 * a version that kept none (the CRC-32 then stays unknown to the end).
 */
function prefixCrc(row: { crc32_state: number | null; hashed_through: number }): number | null {
  if (Number(row.hashed_through) === 0) return 0;
  return row.crc32_state === null ? null : Number(row.crc32_state);
}

/** S3's smallest part: compose needs every chunk but the last to be at least this large. */
const MIN_PART = 5 * 1024 * 1024;

/** How long chunks wait for the running MD5 (tests shorten them). */
export interface PrefixWaits {
  /** a chunk that came before its predecessor was added waits for it this long, at most */
  waitMs: number;
  /** the next chunk is received but the MD5 has not moved on for this long: its spool is gone */
  stuckMs: number;
  /** how often a waiting chunk looks at the row (another instance may have moved the MD5 on) */
  pollMs: number;
}

/** The body ended before the declared size: the store's request is aborted, not ended short. */
class ShortChunk extends Error {}

/**
 * Counts (and hashes) what passes, and copies it into `spool` when given; refuses more than
 * `size` bytes, and fails when the body ends with fewer (the store was promised exactly `size`).
 */
class Gauge extends Transform {
  bytes = 0;
  readonly md5: crypto.Hash | null;

  constructor(
    private readonly size: number,
    hash: boolean,
    private readonly spool: fs.WriteStream | null = null,
  ) {
    super();
    this.md5 = hash ? crypto.createHash('md5') : null;
    // a spool that cannot be written (disk full) fails the chunk
    spool?.on('error', (err) => this.destroy(err));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.bytes + chunk.length > this.size) return callback(new ChunkTooLong());
    this.bytes += chunk.length;
    this.md5?.update(chunk);
    if (!this.spool) return callback(null, chunk);
    // the piece goes on at once; only a spool that falls behind holds the next one back
    if (this.spool.write(chunk)) return callback(null, chunk);
    this.push(chunk);
    this.spool.once('drain', () => callback());
  }

  override _flush(callback: TransformCallback) {
    if (this.bytes < this.size) return callback(new ShortChunk());
    if (!this.spool) return callback(null);
    this.spool.end(() => callback(null));
  }
}

export interface ChunkedSession {
  id: string;
  chunk_size: number;
  total_chunks: number;
  size: number;
}

export class ObjectChunks {
  private readonly multipart: MultipartWrites | null;
  private readonly hasher = new SpoolHasher();

  /** `spoolDir`: this instance's folder for chunks not yet added to the MD5 (`$DATA_DIR/tmp/upload-parts`). */
  constructor(
    private readonly db: Kysely<Database>,
    readonly store: ObjectStore,
    private readonly spoolDir: string,
    readonly waits: PrefixWaits = { waitMs: 20_000, stuckMs: 3_000, pollMs: 100 },
  ) {
    this.multipart = store.multipart ?? null;
  }

  /** Whether the session's chunks are parts of one multipart upload (else objects of their own). */
  usesParts(s: ChunkedSession): boolean {
    return this.multipart !== null && Number(s.total_chunks) >= 2 && Number(s.chunk_size) >= MIN_PART;
  }

  /** The blob's storage key (below `blobs/`) that a parts upload completes into; null for the other way. */
  storageKeyOf(s: ChunkedSession): string | null {
    return this.usesParts(s) ? `up/${s.id}` : null;
  }

  private assembledKey(sessionId: string): string {
    return `${BLOB_PREFIX}up/${sessionId}`;
  }

  private spoolOf(sessionId: string, n: number): string {
    return path.join(this.spoolDir, sessionId, String(n));
  }

  keyOf(sessionId: string, n: number): string {
    return `uploads/${sessionId}/${String(n).padStart(6, '0')}`;
  }

  private keysOf(s: ChunkedSession): string[] {
    return Array.from({ length: Number(s.total_chunks) }, (_, i) => this.keyOf(s.id, i + 1));
  }

  /**
   * Streams one chunk into the store (whole or not at all): as a part of the session's multipart
   * upload (then also into this instance's spool) or as an object of its own. Refuses more than
   * `limit` bytes.
   */
  async write(s: ChunkedSession, n: number, source: Readable, limit: number, hash: boolean): Promise<WrittenChunk & { etag: string | null }> {
    const parts = this.usesParts(s) ? this.multipart : null;
    let spool: fs.WriteStream | null = null;
    let uploadId = '';
    if (parts) {
      uploadId = await this.multipartOf(s, parts);
      await fs.promises.mkdir(path.dirname(this.spoolOf(s.id, n)), { recursive: true });
      spool = fs.createWriteStream(this.spoolOf(s.id, n));
    }
    const gauge = new Gauge(limit, hash, spool);
    let failure: unknown = null;
    gauge.on('error', (err) => (failure ??= err));
    source.on('error', (err) => gauge.destroy(err));
    source.pipe(gauge);
    let etag: string | null = null;
    try {
      if (parts) etag = await parts.uploadPart(this.assembledKey(s.id), uploadId, n, gauge, limit);
      else await this.store.put(this.keyOf(s.id, n), gauge, limit);
    } catch (err) {
      if (spool) {
        spool.destroy();
        await fs.promises.rm(this.spoolOf(s.id, n), { force: true });
      }
      if (failure instanceof ChunkTooLong || err instanceof ChunkTooLong) throw new ChunkTooLong();
      // fewer bytes than declared: nothing was stored; the caller reports how many came
      if (failure instanceof ShortChunk || gauge.bytes < limit) return { bytes: gauge.bytes, md5: null, etag: null };
      throw err;
    }
    return { bytes: gauge.bytes, md5: gauge.md5 ? gauge.md5.digest('hex') : null, etag };
  }

  /** The session's multipart upload, started by the first chunk to need it (on any instance). */
  private async multipartOf(s: ChunkedSession, parts: MultipartWrites): Promise<string> {
    const row = await this.db.selectFrom('upload_sessions').select('multipart_id').where('id', '=', s.id).executeTakeFirst();
    if (row?.multipart_id) return row.multipart_id;
    const uploadId = await parts.createMultipart(this.assembledKey(s.id));
    const set = await this.db
      .updateTable('upload_sessions')
      .set({ multipart_id: uploadId })
      .where('id', '=', s.id)
      .where('multipart_id', 'is', null)
      .executeTakeFirst();
    if (Number(set.numUpdatedRows) === 1) return uploadId;
    // another chunk started one first: that one is the session's
    await parts.abortMultipart(this.assembledKey(s.id), uploadId).catch(() => undefined);
    const again = await this.db.selectFrom('upload_sessions').select('multipart_id').where('id', '=', s.id).executeTakeFirst();
    if (!again?.multipart_id) throw new Error(`upload session ${s.id} is gone`);
    return again.multipart_id;
  }

  /**
   * A chunk is recorded: with parts, this request adds its spool to the MD5 once the chunks
   * before it are in (waiting for them a bounded time); with objects, the prefix goes on in the
   * background, here or on whichever instance comes next.
   */
  async recorded(s: ChunkedSession, n: number): Promise<void> {
    if (!this.usesParts(s)) {
      void this.advance(s.id).catch(() => undefined);
      return;
    }
    const file = this.spoolOf(s.id, n);
    try {
      const through = await this.awaitPrefix(s.id, n - 1);
      if (through !== n - 1) return;
      const row = await this.db.selectFrom('upload_sessions').select(['md5_state', 'crc32_state', 'hashed_through']).where('id', '=', s.id).executeTakeFirst();
      if (!row || Number(row.hashed_through) !== n - 1) return;
      const { state, crc32 } = await this.hasher.resume(row.md5_state, prefixCrc(row), file);
      await this.db
        .updateTable('upload_sessions')
        .set({ md5_state: state, crc32_state: crc32, hashed_through: n })
        .where('id', '=', s.id)
        .where('hashed_through', '=', n - 1)
        .execute();
      this.notify(s.id);
    } finally {
      await fs.promises.rm(file, { force: true }).catch(() => undefined);
    }
  }

  private readonly waiters = new Map<string, Set<() => void>>();

  private notify(sessionId: string): void {
    for (const wake of this.waiters.get(sessionId) ?? []) wake();
  }

  /** Until the next look: woken at once when this process moves the session's MD5 on. */
  private pause(sessionId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(sessionId);
      if (!set) this.waiters.set(sessionId, (set = new Set()));
      const waiters = set;
      const wake = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        if (!waiters.size) this.waiters.delete(sessionId);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiters.add(wake);
    });
  }

  /**
   * Waits until the session's MD5 covers chunk `target`; gives up after `waits.waitMs`, or when
   * the next chunk is received yet nobody adds it for `waits.stuckMs` (its spool went with its
   * instance). Returns how far the MD5 reaches then (-1: the session is gone).
   */
  private async awaitPrefix(sessionId: string, target: number): Promise<number> {
    const deadline = Date.now() + this.waits.waitMs;
    let stuck: { through: number; since: number } | null = null;
    for (;;) {
      const row = await this.db.selectFrom('upload_sessions').select('hashed_through').where('id', '=', sessionId).executeTakeFirst();
      if (!row) return -1;
      const through = Number(row.hashed_through);
      if (through >= target) return through;
      const now = Date.now();
      if (now >= deadline) return through;
      const next = await this.db
        .selectFrom('upload_chunks')
        .select('chunk_no')
        .where('session_id', '=', sessionId)
        .where('chunk_no', '=', through + 1)
        .where('writing_until', 'is', null)
        .executeTakeFirst();
      if (!next) stuck = null;
      else if (!stuck || stuck.through !== through) stuck = { through, since: now };
      else if (now - stuck.since >= this.waits.stuckMs) return through;
      await this.pause(sessionId, this.waits.pollMs);
    }
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
      const row = await this.db
        .selectFrom('upload_sessions')
        .select(['md5_state', 'crc32_state', 'hashed_through', 'total_chunks'])
        .where('id', '=', sessionId)
        .executeTakeFirst();
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
      let crc32 = prefixCrc(row);
      for await (const piece of await this.store.get(this.keyOf(sessionId, next))) {
        md5.update(piece as Buffer);
        if (crc32 !== null) crc32 = zlib.crc32(piece as Buffer, crc32);
      }
      const state = Buffer.from(md5.save()).toString('base64');
      await this.db
        .updateTable('upload_sessions')
        .set({ md5_state: state, crc32_state: crc32, hashed_through: next })
        .where('id', '=', sessionId)
        .where('hashed_through', '=', through)
        .execute();
      // whether this instance or another added it, go on from what the row says now
    }
  }

  /**
   * The MD5 and CRC-32 of the whole upload: the prefix carried to the end, or (`fresh`, or where
   * it stops short) every byte read again: the chunk objects, or the completed multipart upload.
   * A row hashed by a version that kept no CRC-32 answers its MD5 alone.
   */
  async digest(s: ChunkedSession, fresh = false): Promise<ContentDigest> {
    const parts = this.usesParts(s);
    if (!fresh) {
      if (parts) await this.awaitPrefix(s.id, Number(s.total_chunks));
      else await this.advance(s.id);
      const row = await this.db.selectFrom('upload_sessions').select(['md5_state', 'crc32_state', 'hashed_through']).where('id', '=', s.id).executeTakeFirst();
      if (row && Number(row.hashed_through) >= Number(s.total_chunks)) {
        if (Number(s.size) === 0 || !row.md5_state) return { md5: crypto.createHash('md5').digest('hex'), crc32: 0 };
        const md5 = await createMD5();
        md5.load(Buffer.from(row.md5_state, 'base64'));
        return { md5: md5.digest('hex'), crc32: prefixCrc(row) };
      }
    }
    const md5 = crypto.createHash('md5');
    let crc32 = 0;
    const take = (piece: Buffer) => {
      md5.update(piece);
      crc32 = zlib.crc32(piece, crc32);
    };
    if (parts) {
      await this.assemble(s);
      for await (const piece of await this.store.get(this.assembledKey(s.id))) take(piece as Buffer);
    } else {
      for (const key of this.keysOf(s)) for await (const piece of await this.store.get(key)) take(piece as Buffer);
    }
    return { md5: md5.digest('hex'), crc32 };
  }

  /**
   * Completes the session's multipart upload into `blobs/up/<session>` (once, whichever instance
   * asks first; later calls find it done).
   */
  private async assemble(s: ChunkedSession, db: Kysely<Database> = this.db): Promise<void> {
    const parts = this.multipart;
    if (!parts) throw new Error('the store has no multipart uploads');
    const key = this.assembledKey(s.id);
    const inTransaction = (fn: (trx: Kysely<Database>) => Promise<void>) => (db.isTransaction ? fn(db) : db.transaction().execute(fn));
    await inTransaction(async (trx) => {
      if (isPostgres(trx)) await lockKey(trx, `upload-assemble:${s.id}`);
      const row = await trx.selectFrom('upload_sessions').select(['multipart_id', 'assembled_at']).where('id', '=', s.id).executeTakeFirst();
      if (!row) throw new Error(`upload session ${s.id} is gone`);
      if (row.assembled_at !== null) return;
      const chunks = await trx
        .selectFrom('upload_chunks')
        .select(['chunk_no', 'etag'])
        .where('session_id', '=', s.id)
        .where('writing_until', 'is', null)
        .orderBy('chunk_no')
        .execute();
      if (!row.multipart_id || chunks.length !== Number(s.total_chunks) || chunks.some((c) => !c.etag)) {
        throw new Error(`upload session ${s.id} has not every part`);
      }
      try {
        await parts.completeMultipart(key, row.multipart_id, chunks.map((c) => ({ partNumber: Number(c.chunk_no), etag: String(c.etag) })));
      } catch (err) {
        // completed before by a call whose row update did not commit: the object is there
        const made = err instanceof ObjectMissing ? await this.store.stat(key) : null;
        if (!made || made.size !== Number(s.size)) throw err;
      }
      await trx.updateTable('upload_sessions').set({ assembled_at: Date.now() }).where('id', '=', s.id).execute();
    });
  }

  /**
   * Makes `target` from the session's chunks: completes the multipart upload (parts), or composes
   * the chunk objects inside the store when they are large enough for S3's multipart copy (every
   * chunk but the last ≥ 5 MiB), else streams them through. `db`: the caller's transaction.
   */
  async compose(s: ChunkedSession, target: string, db: Kysely<Database> = this.db): Promise<void> {
    if (this.usesParts(s)) {
      if (target !== this.assembledKey(s.id)) throw new Error(`a parts upload completes into ${this.assembledKey(s.id)}, not ${target}`);
      await this.assemble(s, db);
      return;
    }
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

  /** Stops the hashing worker (the server is closing). */
  close(): Promise<void> {
    return this.hasher.close();
  }

  /**
   * Removes what the session left in the store and the spool: its chunk objects, its multipart
   * upload, and its completed object unless a blob holds it.
   */
  async remove(sessionId: string): Promise<void> {
    const keys: string[] = [];
    for await (const o of this.store.list(`uploads/${sessionId}/`)) keys.push(o.key);
    if (keys.length) await this.store.delete(keys);
    await fs.promises.rm(path.join(this.spoolDir, sessionId), { recursive: true, force: true });
    this.notify(sessionId);
    if (!this.multipart) return;
    const key = this.assembledKey(sessionId);
    for await (const u of this.multipart.listMultipart(key)) if (u.key === key) await this.multipart.abortMultipart(key, u.uploadId);
    const held = await this.db.selectFrom('blobs').select('id').where('storage_key', '=', `up/${sessionId}`).executeTakeFirst();
    if (!held) await this.store.delete([key]);
  }

  /**
   * The sessions that have chunk objects or an unfinished multipart upload in the store, or a
   * spool folder here (left by a crash of this instance).
   */
  async sessions(): Promise<string[]> {
    const ids = new Set<string>();
    for (const name of await fs.promises.readdir(this.spoolDir).catch(() => [] as string[])) if (/^[0-9a-f]{32}$/.test(name)) ids.add(name);
    for await (const o of this.store.list('uploads/')) {
      const id = o.key.split('/')[1];
      if (id) ids.add(id);
    }
    if (this.multipart) {
      const prefix = `${BLOB_PREFIX}up/`;
      for await (const u of this.multipart.listMultipart(prefix)) {
        const id = u.key.slice(prefix.length);
        if (id && !id.includes('/')) ids.add(id);
      }
    }
    return [...ids];
  }
}
