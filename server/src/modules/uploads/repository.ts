// Upload sessions and their chunks in the 云文档 database.
import type { Insertable, Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, UploadChunksTable, UploadSessionRow, UploadSessionsTable } from '../../db/types';
import { personalBytes } from '../quota/repository';

export function findSession(db: Kysely<Database>, id: string): Promise<UploadSessionRow | undefined> {
  return db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The newest unfinished session of an owner's task (open, or one whose merge was cut short). */
export function findOpenTask(db: Kysely<Database>, ownerKey: string, taskId: string): Promise<UploadSessionRow | undefined> {
  return db
    .selectFrom('upload_sessions')
    .selectAll()
    .where('owner_key', '=', ownerKey)
    .where('task_id', '=', taskId)
    .where('status', 'in', ['open', 'merging'])
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function insertSession(db: Kysely<Database>, row: Insertable<UploadSessionsTable>): Promise<void> {
  await db.insertInto('upload_sessions').values(row).execute();
}

/** Marks activity on an open session; false when it is gone, finished or being merged. */
export async function touchSession(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db.updateTable('upload_sessions').set({ updated_at: now }).where('id', '=', id).where('status', '=', 'open').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Marks activity on a session that is not finished (open, or merging after a cut-short merge). */
export async function touchUnfinished(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('upload_sessions').set({ updated_at: now }).where('id', '=', id).where('status', 'in', ['open', 'merging']).execute();
}

/** Open or merging → done, once (false when another merge got there first or the session is gone). */
export async function claimSession(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('upload_sessions')
    .set({ status: 'done', updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['open', 'merging'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Open → merging: no chunk may start being written any more. Takes the session's row (every
 * chunk lease is taken under the same row, so none is half-taken meanwhile). A session already
 * merging (an earlier merge that failed part-way) is merging still. False when it is neither.
 */
export async function startMerging(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('upload_sessions')
    .set({ status: 'merging', updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['open', 'merging'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}


export async function deleteSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('upload_chunks').where('session_id', '=', id).execute();
  await db.deleteFrom('upload_sessions').where('id', '=', id).execute();
}

/** The chunks received (written, fsync'ed and recorded), in order; chunks still being written are not among them. */
export function listChunks(db: Kysely<Database>, sessionId: string) {
  return db
    .selectFrom('upload_chunks')
    .select(['chunk_no', 'size', 'md5'])
    .where('session_id', '=', sessionId)
    .where('writing_until', 'is', null)
    .orderBy('chunk_no')
    .execute();
}

/** The row of a chunk: received (writing_until null) or being written (a lease). */
export function findChunk(db: Kysely<Database>, sessionId: string, n: number) {
  return db
    .selectFrom('upload_chunks')
    .select(['chunk_no', 'md5', 'writing_until'])
    .where('session_id', '=', sessionId)
    .where('chunk_no', '=', n)
    .executeTakeFirst();
}

/** Chunks of the session being written right now (a lease that has not run out). */
export async function chunksBeingWritten(db: Kysely<Database>, sessionId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('upload_chunks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('session_id', '=', sessionId)
    .where('writing_until', '>=', now)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertChunkLease(db: Kysely<Database>, row: Insertable<UploadChunksTable>): Promise<void> {
  await db.insertInto('upload_chunks').values(row).execute();
}

/** Takes over the lease of a chunk whose writer went away (its lease ran out); false when someone else did. */
export async function takeOverChunkLease(db: Kysely<Database>, sessionId: string, n: number, was: number, until: number): Promise<boolean> {
  const r = await db
    .updateTable('upload_chunks')
    .set({ writing_until: until })
    .where('session_id', '=', sessionId)
    .where('chunk_no', '=', n)
    .where('writing_until', '=', was)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Extends the lease of a chunk being written (its writer is alive). `held` is the lease as its
 * holder last set it: a lease another request took over meanwhile is not extended (false).
 */
export async function renewChunkLease(db: Kysely<Database>, sessionId: string, n: number, held: number, until: number): Promise<boolean> {
  return takeOverChunkLease(db, sessionId, n, held, until);
}

/** The chunk is written: its row becomes a received chunk. False when the session is gone or the lease `held` is no longer this writer's. */
export async function recordChunk(
  db: Kysely<Database>,
  sessionId: string,
  n: number,
  held: number,
  md5: string,
  now: number,
  etag: string | null = null,
): Promise<boolean> {
  const r = await db
    .updateTable('upload_chunks')
    .set({ writing_until: null, md5, created_at: now, etag })
    .where('session_id', '=', sessionId)
    .where('chunk_no', '=', n)
    .where('writing_until', '=', held)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The write failed: the lease `held` goes (unless another request took it over), and the chunk may be sent again. */
export async function dropChunkLease(db: Kysely<Database>, sessionId: string, n: number, held: number): Promise<void> {
  await db.deleteFrom('upload_chunks').where('session_id', '=', sessionId).where('chunk_no', '=', n).where('writing_until', '=', held).execute();
}

/**
 * Open sessions of one uploader that have not expired: how many, and their declared bytes
 * together (what they may still stage).
 */
export async function openSessionsOf(db: Kysely<Database>, ownerKey: string, since: number): Promise<{ count: number; bytes: number }> {
  const row = await db
    .selectFrom('upload_sessions')
    .select((eb) => [eb.fn.countAll<number>().as('n'), sql<number>`coalesce(sum(size), 0)`.as('bytes')])
    .where('owner_key', '=', ownerKey)
    .where('status', 'in', ['open', 'merging'])
    .where('updated_at', '>=', since)
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/** Bytes that open, unexpired upload sessions reserve in a person's personal space. */
export async function reservedFor(db: Kysely<Database>, quotaOwnerId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('upload_sessions')
    .select(sql<number>`coalesce(sum(size), 0)`.as('bytes'))
    .where('quota_owner_id', '=', quotaOwnerId)
    .where('status', 'in', ['open', 'merging'])
    .where('updated_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** Bytes a user's personal space holds: its files' current sizes, recycle bin included. */
export async function quotaUsed(db: Kysely<Database>, ownerId: number): Promise<number> {
  return (await personalBytes(db, ownerId)).all;
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
