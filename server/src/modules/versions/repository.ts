// File versions of 云文档: every file has at least one, exactly one of them the master (the
// file's content). Versions hold content through reference-counted blobs.
import { sql, type Kysely } from 'kysely';
import type { Database, FileVersionRow } from '../../db/types';
import { acquireBlob, releaseBlobs } from './blobs';

export type VersionWithCreator = FileVersionRow & { creator_name: string };

/** A file's versions, newest first, with the creators' nick names. */
export function listVersions(db: Kysely<Database>, itemId: number): Promise<VersionWithCreator[]> {
  return db
    .selectFrom('file_versions')
    .leftJoin('users', 'users.id', 'file_versions.creator_id')
    .selectAll('file_versions')
    .select(sql<string>`coalesce(users.nick_name, '')`.as('creator_name'))
    .where('file_versions.item_id', '=', itemId)
    .orderBy('file_versions.version_no', 'desc')
    .execute();
}

export function findVersion(db: Kysely<Database>, id: number): Promise<FileVersionRow | undefined> {
  return db.selectFrom('file_versions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findMaster(db: Kysely<Database>, itemId: number): Promise<FileVersionRow | undefined> {
  return db.selectFrom('file_versions').selectAll().where('item_id', '=', itemId).where('is_master', '=', 1).executeTakeFirst();
}

/** The master version of each file (for pinning the content a request was made with). */
export async function masterVersionsOf(
  db: Kysely<Database>,
  itemIds: readonly number[],
): Promise<Map<number, Pick<FileVersionRow, 'id' | 'blob_id' | 'size' | 'md5'>>> {
  if (!itemIds.length) return new Map();
  const rows = await db.selectFrom('file_versions').select(['item_id', 'id', 'blob_id', 'size', 'md5']).where('item_id', 'in', [...itemIds]).where('is_master', '=', 1).execute();
  return new Map(rows.map((v) => [Number(v.item_id), { id: v.id, blob_id: v.blob_id, size: v.size, md5: v.md5 }]));
}

export interface VersionContent {
  blobId: number | null;
  size: number;
  md5: string | null;
}

/**
 * Adds a version holding `content` as the file's new master: the file's size follows it and
 * its updatedAt becomes `now`. Takes a reference on the blob unless the caller holds one for
 * this version already (`acquired`, as BlobStore.put gives it).
 */
export async function addMasterVersion(
  db: Kysely<Database>,
  itemId: number,
  content: VersionContent,
  creatorId: number,
  now: number,
  acquired = false,
): Promise<FileVersionRow> {
  const last = await db
    .selectFrom('file_versions')
    .select('version_no')
    .where('item_id', '=', itemId)
    .orderBy('version_no', 'desc')
    .limit(1)
    .executeTakeFirst();
  await db.updateTable('file_versions').set({ is_master: 0 }).where('item_id', '=', itemId).where('is_master', '=', 1).execute();
  const row = await db
    .insertInto('file_versions')
    .values({
      item_id: itemId,
      version_no: (last ? Number(last.version_no) : 0) + 1,
      blob_id: content.blobId,
      size: content.size,
      md5: content.md5,
      is_master: 1,
      creator_id: creatorId,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (!acquired) await acquireBlob(db, content.blobId);
  await db.updateTable('items').set({ size: content.size, updated_at: now }).where('id', '=', itemId).execute();
  return row;
}

/** Version 1 (the master) of a new file: empty unless `content` is given (the content's blob already acquired). */
export async function addFirstVersion(
  db: Kysely<Database>,
  itemId: number,
  creatorId: number,
  now: number,
  content: VersionContent = { blobId: null, size: 0, md5: null },
): Promise<void> {
  await db
    .insertInto('file_versions')
    .values({ item_id: itemId, version_no: 1, blob_id: content.blobId, size: content.size, md5: content.md5, is_master: 1, creator_id: creatorId, created_at: now })
    .execute();
}

/** Version 1 of a copy: the master content of the file copied (one more reference on its blob). */
export async function copyMasterVersion(db: Kysely<Database>, fromItemId: number, toItemId: number, creatorId: number, now: number): Promise<void> {
  const master = await findMaster(db, fromItemId);
  await db
    .insertInto('file_versions')
    .values({
      item_id: toItemId,
      version_no: 1,
      blob_id: master?.blob_id ?? null,
      size: master ? Number(master.size) : 0,
      md5: master?.md5 ?? null,
      is_master: 1,
      creator_id: creatorId,
      created_at: now,
    })
    .execute();
  if (master) await acquireBlob(db, master.blob_id);
}

/** The content of a file's master version (a file without versions counts as empty). */
export async function masterContent(db: Kysely<Database>, itemId: number): Promise<VersionContent> {
  const master = await findMaster(db, itemId);
  return master ? { blobId: master.blob_id, size: Number(master.size), md5: master.md5 } : { blobId: null, size: 0, md5: null };
}

/**
 * Removes every version of these items and lets go of their blobs; returns the storage keys
 * of blobs nobody holds any more (to remove from disk after commit).
 */
export async function dropVersionsOf(db: Kysely<Database>, itemIds: readonly number[]): Promise<string[]> {
  if (!itemIds.length) return [];
  const held = await db.selectFrom('file_versions').select('blob_id').where('item_id', 'in', itemIds).where('blob_id', 'is not', null).execute();
  await db.deleteFrom('file_versions').where('item_id', 'in', itemIds).execute();
  return releaseBlobs(
    db,
    held.map((v) => v.blob_id),
  );
}

/** Removes one version and lets go of its blob; returns storage keys as dropVersionsOf does. */
export async function dropVersion(db: Kysely<Database>, version: Pick<FileVersionRow, 'id' | 'blob_id'>): Promise<string[]> {
  await db.deleteFrom('file_versions').where('id', '=', version.id).execute();
  return releaseBlobs(db, [version.blob_id]);
}
