// Upload sessions and their chunks in the 云文档 database.
import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, UploadChunksTable, UploadSessionRow, UploadSessionsTable } from '../../db/types';
import { SPACE_PERSONAL } from '../folders/rights';

export function findSession(db: Kysely<Database>, id: string): Promise<UploadSessionRow | undefined> {
  return db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The newest unfinished session of an owner's task. */
export function findOpenTask(db: Kysely<Database>, ownerKey: string, taskId: string): Promise<UploadSessionRow | undefined> {
  return db
    .selectFrom('upload_sessions')
    .selectAll()
    .where('owner_key', '=', ownerKey)
    .where('task_id', '=', taskId)
    .where('status', '=', 'open')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function insertSession(db: Kysely<Database>, row: Insertable<UploadSessionsTable>): Promise<void> {
  await db.insertInto('upload_sessions').values(row).execute();
}

/** Marks activity on an open session; false when it is gone or finished. */
export async function touchSession(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable('upload_sessions').set({ updated_at: now }).where('id', '=', id).where('status', '=', 'open').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Open → done, once (false when another merge got there first or the session is gone). */
export async function claimSession(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('upload_sessions')
    .set({ status: 'done', updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('upload_chunks').where('session_id', '=', id).execute();
  await db.deleteFrom('upload_sessions').where('id', '=', id).execute();
}

export function listChunks(db: Kysely<Database>, sessionId: string) {
  return db.selectFrom('upload_chunks').select(['chunk_no', 'size', 'md5']).where('session_id', '=', sessionId).orderBy('chunk_no').execute();
}

export function findChunk(db: Kysely<Database>, sessionId: string, n: number) {
  return db.selectFrom('upload_chunks').select(['chunk_no', 'md5']).where('session_id', '=', sessionId).where('chunk_no', '=', n).executeTakeFirst();
}

export async function recordChunk(db: Kysely<Database>, row: Insertable<UploadChunksTable>): Promise<void> {
  await db.insertInto('upload_chunks').values(row).execute();
}

/** Bytes a user's personal space holds: its files' current sizes, recycle bin included. */
export async function quotaUsed(db: Kysely<Database>, ownerId: number): Promise<number> {
  const row = await db
    .selectFrom('items')
    .select(sql<number>`coalesce(sum(size), 0)`.as('used'))
    .where('space_type', '=', SPACE_PERSONAL)
    .where('owner_id', '=', ownerId)
    .where('type', '=', 'file')
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

/** At most this many candidates are looked at for an instant upload. */
export const RAPID_CANDIDATES = 200;

/**
 * Live files with a version of that content (at most RAPID_CANDIDATES), for rapid upload;
 * with `md5` null, any content of that size. Below `rootIdPath` (a share's root) when given.
 */
export function rapidCandidates(db: Kysely<Database>, md5: string | null, size: number, rootIdPath: string | null, rootId: number | null) {
  let q = db
    .selectFrom('file_versions')
    .innerJoin('blobs', 'blobs.id', 'file_versions.blob_id')
    .innerJoin('items', 'items.id', 'file_versions.item_id')
    .select(['items.id', 'items.id_path', 'items.space_type', 'items.owner_id', 'file_versions.blob_id'])
    .where('blobs.size', '=', size)
    .where('items.deleted_at', 'is', null)
    .where('items.type', '=', 'file');
  if (md5 !== null) q = q.where('blobs.md5', '=', md5);
  if (rootIdPath !== null && rootId !== null) {
    q = q.where((eb) => eb.or([eb('items.id', '=', rootId), eb('items.id_path', 'like', `${rootIdPath}/%`)]));
  }
  return q.orderBy('items.id').limit(RAPID_CANDIDATES).execute();
}
