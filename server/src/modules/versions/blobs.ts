// File content of 云文档, stored once per distinct content (MD5 and size) under
// `$DATA_DIR/blobs` and counted by the file versions that hold it. A blob whose count reaches 0
// is removed: its row in the same transaction as the change, its file once that has committed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';

/** What a stored content is known by. */
export interface BlobRef {
  id: number;
  md5: string;
  size: number;
}

export class BlobStore {
  /** `root` is `$DATA_DIR/blobs`. */
  constructor(readonly root: string) {}

  /** Where a blob's file lies. Keys are `<first two hex digits of the MD5>/<md5>-<blob id>`. */
  pathOf(storageKey: string): string {
    return path.join(this.root, ...storageKey.split('/'));
  }

  /**
   * Stores a content unless the same content is stored already, and takes one reference on it
   * for a new file version (null for empty content, which has no blob). The file is written
   * before the caller's transaction commits; a rolled-back call leaves an unreferenced file
   * behind, never a row without its file.
   */
  async put(db: Kysely<Database>, content: Buffer, now: number = Date.now()): Promise<BlobRef | null> {
    if (content.length === 0) return null;
    const md5 = crypto.createHash('md5').update(content).digest('hex');
    const size = content.length;
    const claimed = await this.claim(db, md5, size, now, (temp) => fs.promises.writeFile(temp, content));
    return claimed.blob;
  }

  /**
   * Takes one reference on the content of a finished upload's staging file (its MD5 and size
   * already verified): an existing blob of that content, else a new blob whose file is a hard
   * link to the staging file (a copy where the file system cannot link). Call it inside the
   * transaction that makes the version: the staging file itself stays until that transaction
   * has committed, so a rolled-back or interrupted merge can run again. `created` is the
   * storage key of a file made here (to remove if the transaction does not commit).
   */
  async adopt(
    db: Kysely<Database>,
    stagingFile: string,
    md5: string,
    size: number,
    now: number = Date.now(),
  ): Promise<{ blob: BlobRef | null; created: string | null }> {
    if (size === 0) return { blob: null, created: null };
    return this.claim(db, md5, size, now, async (temp) => {
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
    });
  }

  /**
   * One more reference on the blob of that content, or a new blob whose file `write` makes at
   * the temporary path given, renamed into place (atomic: the blob's file is either absent or
   * complete) before the row gets its storage key.
   */
  private async claim(
    db: Kysely<Database>,
    md5: string,
    size: number,
    now: number,
    write: (temp: string) => Promise<void>,
  ): Promise<{ blob: BlobRef; created: string | null }> {
    const existing = await db.selectFrom('blobs').select('id').where('md5', '=', md5).where('size', '=', size).executeTakeFirst();
    if (existing) {
      await acquireBlob(db, existing.id);
      return { blob: { id: existing.id, md5, size }, created: null };
    }
    const row = await db
      .insertInto('blobs')
      .values({ md5, size, storage_key: '', ref_count: 1, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const storageKey = `${md5.slice(0, 2)}/${md5}-${row.id}`;
    const file = this.pathOf(storageKey);
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await write(temp);
    await fs.promises.rename(temp, file);
    await syncDir(dir);
    await db.updateTable('blobs').set({ storage_key: storageKey }).where('id', '=', row.id).execute();
    return { blob: { id: row.id, md5, size }, created: storageKey };
  }

  /** Removes the files of blobs whose rows are gone (after the transaction that removed them). */
  async remove(storageKeys: readonly string[]): Promise<void> {
    for (const key of storageKeys) {
      if (!key) continue;
      await fs.promises.rm(this.pathOf(key), { force: true });
    }
  }
}

/** Makes a directory entry (a rename or link into it) durable, where the platform allows. */
async function syncDir(dir: string): Promise<void> {
  let fh: fs.promises.FileHandle | null = null;
  try {
    fh = await fs.promises.open(dir, 'r');
    await fh.sync();
  } catch {
    /* not supported on this platform */
  } finally {
    await fh?.close();
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

/**
 * File versions no longer hold these blobs (one entry per version let go; empty contents are
 * null). Blobs that nobody holds any more lose their rows; returns their storage keys, for
 * BlobStore.remove once the transaction has committed.
 */
export async function releaseBlobs(db: Kysely<Database>, blobIds: readonly (number | null)[]): Promise<string[]> {
  const counts = new Map<number, number>();
  for (const id of blobIds) if (id !== null) counts.set(Number(id), (counts.get(Number(id)) ?? 0) + 1);
  if (!counts.size) return [];
  for (const [id, n] of counts) {
    await db
      .updateTable('blobs')
      .set({ ref_count: sql<number>`ref_count - ${n}` })
      .where('id', '=', id)
      .execute();
  }
  const ids = [...counts.keys()];
  const gone = await db.selectFrom('blobs').select(['id', 'storage_key']).where('id', 'in', ids).where('ref_count', '<=', 0).execute();
  if (!gone.length) return [];
  await db
    .deleteFrom('blobs')
    .where(
      'id',
      'in',
      gone.map((b) => b.id),
    )
    .where('ref_count', '<=', 0)
    .execute();
  return gone.map((b) => b.storage_key);
}
