// Queries of 云文档's ferry: tasks and their pinned files (sending side), received packages
// (receiving side), seen package ids, and the receipts queue.
import type { Kysely } from 'kysely';
import type { Database, FerryTaskFileRow, FerryTaskRow } from '../../db/types';
import { FERRY_TABS, type FerryTab, type FerryTaskStatus } from './schemas';

export function findTask(db: Kysely<Database>, id: number): Promise<FerryTaskRow | undefined> {
  return db.selectFrom('ferry_tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function filesOfTask(db: Kysely<Database>, taskId: number): Promise<FerryTaskFileRow[]> {
  return db.selectFrom('ferry_task_files').selectAll().where('task_id', '=', taskId).orderBy('position').execute();
}

/**
 * Moves a task to `to` only from one of `from` (a transition another request or instance made
 * first is not overwritten); true when it moved.
 */
export async function moveTask(
  db: Kysely<Database>,
  id: number,
  from: readonly FerryTaskStatus[],
  to: FerryTaskStatus,
  set: Partial<Omit<FerryTaskRow, 'id' | 'status'>> = {},
  now: number = Date.now(),
): Promise<boolean> {
  const res = await db
    .updateTable('ferry_tasks')
    .set({ ...set, status: to, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Takes the lease on a task in `status` whose lease has run out; true when this caller holds it now. */
export async function leaseTask(db: Kysely<Database>, id: number, status: FerryTaskStatus, leaseMs: number, now: number = Date.now()): Promise<boolean> {
  const res = await db
    .updateTable('ferry_tasks')
    .set({ lease_until: now + leaseMs })
    .where('id', '=', id)
    .where('status', '=', status)
    .where('lease_until', '<', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Tasks in `status` whose lease has run out (work to take up). */
export function dueTasks(db: Kysely<Database>, status: FerryTaskStatus, now: number, limit = 50): Promise<FerryTaskRow[]> {
  return db.selectFrom('ferry_tasks').selectAll().where('status', '=', status).where('lease_until', '<', now).orderBy('id').limit(limit).execute();
}

export async function pageTasks(
  db: Kysely<Database>,
  requesterId: number,
  tab: FerryTab,
  keyword: string,
  page: number,
  pageSize: number,
): Promise<{ rows: FerryTaskRow[]; total: number }> {
  let q = db.selectFrom('ferry_tasks').where('requester_id', '=', requesterId).where('status', 'in', [...FERRY_TABS[tab]]);
  if (keyword) {
    const like = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) => eb.or([eb('reason', 'like', like), eb('recipients', 'like', like), eb('to_zone', 'like', like)]));
  }
  const [rows, count] = await Promise.all([
    q
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** File count and total size of each task. */
export async function fileTotals(db: Kysely<Database>, taskIds: readonly number[]): Promise<Map<number, { count: number; size: number }>> {
  if (!taskIds.length) return new Map();
  const rows = await db
    .selectFrom('ferry_task_files')
    .select((eb) => ['task_id', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('total')])
    .where('task_id', 'in', [...taskIds])
    .groupBy('task_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.task_id), { count: Number(r.n), size: Number(r.total ?? 0) }]));
}

export async function wasSeen(db: Kysely<Database>, packageId: string): Promise<boolean> {
  return !!(await db.selectFrom('ferry_seen').select('package_id').where('package_id', '=', packageId).executeTakeFirst());
}

export async function enqueueReceipt(
  db: Kysely<Database>,
  r: { toZone: string; taskId: string; packageId: string; event: string; byName: string; at: number; reason?: string; detail?: string },
): Promise<void> {
  await db
    .insertInto('ferry_receipts')
    .values({
      to_zone: r.toZone,
      task_id: r.taskId,
      package_id: r.packageId,
      event: r.event,
      at: r.at,
      by_name: r.byName,
      sent_at: null,
      lease_until: 0,
      attempts: 0,
      last_error: '',
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      ...(r.detail !== undefined ? { detail: r.detail } : {}),
    })
    .execute();
}

/** Whether a receipt of this event about this package is already queued (or sent). */
export async function receiptQueued(db: Kysely<Database>, packageId: string, event: string): Promise<boolean> {
  return !!(await db.selectFrom('ferry_receipts').select('id').where('package_id', '=', packageId).where('event', '=', event).executeTakeFirst());
}
