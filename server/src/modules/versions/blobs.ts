// File content of 云文档, stored once per distinct content (MD5 and size) in the object store
// (`$DATA_DIR/blobs` by default, or an S3 bucket under `blobs/`) and counted by the file versions
// that hold it. A blob whose count reaches 0 is removed: its row in the same transaction as the
// change, its object once that has committed. An object no row claims (a write whose transaction
// did not commit) is found and removed by the orphan sweep after a day.
import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { LocalStore, syncDir } from '../storage/local';
import { objectSource, type ContentSource } from '../storage/source';
import type { ByteRange, ObjectStore } from '../storage/store';
import { sweepOrphans, type SweepReport } from '../storage/sweep';

/** What a stored content is known by. */
export interface BlobRef {
  id: number;
  md5: string;
  size: number;
}

/** What a content is known by before it is stored: its MD5 (hex) and, where made, its CRC-32. */
export interface ContentDigest {
  md5: string;
  /** unsigned; null where it was not made */
  crc32: number | null;
}

/** Keys of blob objects: `blobs/<storage key>`. */
export const BLOB_PREFIX = 'blobs/';
/** An object younger than this may belong to a transaction still running: the sweep leaves it. */
export const ORPHAN_MIN_AGE_MS = 24 * 3600 * 1000;

export class BlobStore {
  constructor(readonly store: ObjectStore) {}

  private keyOf(storageKey: string): string {
    return BLOB_PREFIX + storageKey;
  }

  /**
   * Where a blob's file lies, for the local store only (tests and diagnostics); code that reads
   * contents uses source(), open() or withFile(), which work with every store.
   */
  pathOf(storageKey: string): string {
    if (!(this.store instanceof LocalStore)) throw new Error('blob files have paths only in the local store');
    return this.store.pathOf(this.keyOf(storageKey));
  }

  /** The blob's bytes to send (whole or by range), with its stored size to check first. */
  source(storageKey: string): ContentSource {
    return objectSource(this.store, this.keyOf(storageKey));
  }

  open(storageKey: string, range?: ByteRange): Promise<Readable> {
    return this.store.get(this.keyOf(storageKey), range);
  }

  /** Runs `fn` with a local file of the blob (tools that need a path: LibreOffice, extraction, ClamAV). */
  withFile<T>(storageKey: string, fn: (file: string) => Promise<T>): Promise<T> {
    return this.store.withFile(this.keyOf(storageKey), fn);
  }

  /** withFile for several blobs at once (null: an empty content, which has no file). */
  async withFiles<T>(storageKeys: readonly (string | null)[], fn: (files: (string | null)[]) => Promise<T>): Promise<T> {
    const files: (string | null)[] = [];
    const step = async (i: number): Promise<T> => {
      if (i === storageKeys.length) return fn(files);
      const key = storageKeys[i];
      if (!key) {
        files.push(null);
        return step(i + 1);
      }
      return this.withFile(key, async (file) => {
        files.push(file);
        return step(i + 1);
      });
    };
    return step(0);
  }

  /**
   * Stores a content unless the same content is stored already, and takes one reference on it
   * for a new file version (null for empty content, which has no blob). The object is written
   * before the caller's transaction commits; a rolled-back call leaves an unreferenced object
   * behind (for the sweep), never a row without its object.
   */
  async put(db: Kysely<Database>, content: Buffer, now: number = Date.now()): Promise<BlobRef | null> {
    if (content.length === 0) return null;
    const digest = { md5: crypto.createHash('md5').update(content).digest('hex'), crc32: zlib.crc32(content) };
    const size = content.length;
    const claimed = await this.claim(db, digest, size, now, (key) => this.store.put(key, content));
    return claimed.blob;
  }

  /**
   * Takes one reference on the content of a finished upload's staging file (its MD5 and size
   * already verified, its CRC-32 kept when known): an existing blob of that content, else a new
   * blob made from the staging file (in the local store a hard link, a copy where the file
   * system cannot link; in S3 an upload of the file). Call it inside the transaction that makes the version: the staging file
   * itself stays until that transaction has committed, so a rolled-back or interrupted merge can
   * run again. `created` is the storage key of an object made here (to remove if the
   * transaction does not commit).
   */
  async adopt(
    db: Kysely<Database>,
    stagingFile: string,
    digest: ContentDigest,
    size: number,
    now: number = Date.now(),
  ): Promise<{ blob: BlobRef | null; created: string | null }> {
    if (size === 0) return { blob: null, created: null };
    return this.claim(db, digest, size, now, async (key) => {
      const store = this.store;
      if (!(store instanceof LocalStore)) {
        await store.put(key, fs.createReadStream(stagingFile), size);
        return;
      }
      // the local store: a hard link renamed into place (atomic), else a flushed copy
      const file = store.pathOf(key);
      const dir = path.dirname(file);
      await fs.promises.mkdir(dir, { recursive: true });
      const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      try {
        await fs.promises.link(stagingFile, temp);
      } catch {
        await fs.promises.copyFile(stagingFile, temp);
        const fh = await fs.promises.open(temp, 'r+');
        try {
          await fh.sync();
        } finally {
          await fh.close();
        }
      }
      await fs.promises.rename(temp, file);
      await syncDir(dir);
    });
  }

  /**
   * adopt() for contents already in the store (an upload's chunks): an existing blob of that
   * content, else a new blob whose object `write` makes at the key given (S3: composed inside
   * the store), under `storageKey` when the object's place is fixed beforehand (a multipart
   * upload started for it).
   */
  adoptWith(
    db: Kysely<Database>,
    digest: ContentDigest,
    size: number,
    now: number,
    write: (objectKey: string) => Promise<void>,
    storageKey: string | null = null,
  ): Promise<{ blob: BlobRef | null; created: string | null }> {
    if (size === 0) return Promise.resolve({ blob: null, created: null });
    return this.claim(db, digest, size, now, write, storageKey);
  }

  /**
   * One more reference on the blob of that content (which learns its CRC-32 if it had none), or
   * a new blob whose object `write` makes (whole: absent or complete) before the row gets its
   * storage key.
   */
  private async claim(
    db: Kysely<Database>,
    { md5, crc32 }: ContentDigest,
    size: number,
    now: number,
    write: (objectKey: string) => Promise<void>,
    fixedKey: string | null = null,
  ): Promise<{ blob: BlobRef; created: string | null }> {
    const existing = await db.selectFrom('blobs').select(['id', 'crc32']).where('md5', '=', md5).where('size', '=', size).executeTakeFirst();
    if (existing) {
      await acquireBlob(db, existing.id);
      if (existing.crc32 === null && crc32 !== null) await db.updateTable('blobs').set({ crc32 }).where('id', '=', existing.id).execute();
      return { blob: { id: existing.id, md5, size }, created: null };
    }
    const row = await db
      .insertInto('blobs')
      .values({ md5, size, storage_key: '', ref_count: 1, created_at: now, crc32 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const storageKey = fixedKey ?? `${md5.slice(0, 2)}/${md5}-${row.id}`;
    await write(this.keyOf(storageKey));
    await db.updateTable('blobs').set({ storage_key: storageKey }).where('id', '=', row.id).execute();
    return { blob: { id: row.id, md5, size }, created: storageKey };
  }

  /** Removes the objects of blobs whose rows are gone (after the transaction that removed them). */
  async remove(storageKeys: readonly string[]): Promise<void> {
    const keys = storageKeys.filter(Boolean).map((k) => this.keyOf(k));
    if (keys.length) await this.store.delete(keys);
  }

  /** Removes blob objects older than a day that no blob row claims (see sweepOrphans). */
  sweep(db: Kysely<Database>, now: number = Date.now()): Promise<SweepReport> {
    return sweepOrphans(this.store, {
      prefix: BLOB_PREFIX,
      minAgeMs: ORPHAN_MIN_AGE_MS,
      now,
      claimed: async (keys) => {
        const storageKeys = keys.map((k) => k.slice(BLOB_PREFIX.length));
        const rows = await db.selectFrom('blobs').select('storage_key').where('storage_key', 'in', storageKeys).execute();
        return new Set(rows.map((r) => BLOB_PREFIX + r.storage_key));
      },
    });
  }
}

/** One more file version holds the blob. */
export async function acquireBlob(db: Kysely<Database>, blobId: number | null): Promise<void> {
  if (blobId === null) return;
  await db
    .updateTable('blobs')
    .set({ ref_count: sql<number>`ref_count + 1` })
    .where('id', '=', blobId)
    .execute();
}

/** The blobs named, grouped by how many times each is named, in slices of at most 500 ids. */
function byCount(blobIds: readonly (number | null)[]): [number, number[]][] {
  const counts = new Map<number, number>();
  for (const id of blobIds) if (id !== null) counts.set(Number(id), (counts.get(Number(id)) ?? 0) + 1);
  const groups = new Map<number, number[]>();
  for (const [id, n] of counts) {
    const ids = groups.get(n);
    if (ids) ids.push(id);
    else groups.set(n, [id]);
  }
  const out: [number, number[]][] = [];
  for (const [n, ids] of groups) for (let at = 0; at < ids.length; at += 500) out.push([n, ids.slice(at, at + 500)]);
  return out;
}

/** One more reference on each blob for every time it is named (null: an empty content, none). */
export async function acquireBlobs(db: Kysely<Database>, blobIds: readonly (number | null)[]): Promise<void> {
  for (const [n, ids] of byCount(blobIds)) {
    await db
      .updateTable('blobs')
      .set({ ref_count: sql<number>`ref_count + ${n}` })
      .where('id', 'in', ids)
      .execute();
  }
}

/**
 * File versions (or other holders) no longer hold these blobs (one entry per reference let go;
 * empty contents are null). Blobs that nobody holds any more lose their rows; returns their
 * storage keys, for BlobStore.remove once the transaction has committed.
 */
export async function releaseBlobs(db: Kysely<Database>, blobIds: readonly (number | null)[]): Promise<string[]> {
  const groups = byCount(blobIds);
  if (!groups.length) return [];
  for (const [n, ids] of groups) {
    await db
      .updateTable('blobs')
      .set({ ref_count: sql<number>`ref_count - ${n}` })
      .where('id', 'in', ids)
      .execute();
  }
  const gone: { id: number; storage_key: string }[] = [];
  for (const [, ids] of groups) {
    gone.push(...(await db.selectFrom('blobs').select(['id', 'storage_key']).where('id', 'in', ids).where('ref_count', '<=', 0).execute()));
  }
  if (!gone.length) return [];
  for (let at = 0; at < gone.length; at += 500) {
    await db
      .deleteFrom('blobs')
      .where(
        'id',
        'in',
        gone.slice(at, at + 500).map((b) => b.id),
      )
      .where('ref_count', '<=', 0)
      .execute();
  }
  return gone.map((b) => b.storage_key);
}
