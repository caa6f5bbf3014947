// Queries of 云文档's notices and events.
import { sql, type Kysely } from 'kysely';
import type { Database, NoticesTable } from '../../db/types';
import type { Insertable, Selectable } from 'kysely';
import { planDeliveries } from '../notice-delivery/plan';

export type NoticeRow = Selectable<NoticesTable>;
export type NewNotice = Omit<Insertable<NoticesTable>, 'id' | 'read_at' | 'resolved_at'>;

/**
 * Inserts notices; a notice the same event made for the same person already is left alone.
 * Each person's 通知设置 decide whether it shows in 站内消息 and which deliveries (mail) it gets
 * (notice-delivery/plan.ts).
 */
export async function insertNotices(db: Kysely<Database>, rows: readonly NewNotice[]): Promise<void> {
  if (!rows.length) return;
  const plan = await planDeliveries(db, rows);
  if (!plan.rows.length) return;
  const made = await db
    .insertInto('notices')
    .values(plan.rows.map((r) => ({ ...r, read_at: null, resolved_at: null })))
    .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
    .returning(['id', 'user_id', 'kind', 'created_at'])
    .execute();
  await plan.record(made);
}

/** Marks the still-open notices of those kinds about the objects as resolved (for those people, or everyone). */
export async function resolveNotices(
  db: Kysely<Database>,
  object: { type: string; id: string | readonly string[] },
  kinds: readonly string[],
  userIds: readonly number[] | null,
  resolution: string,
  now: number,
): Promise<void> {
  if (userIds && !userIds.length) return;
  let q = db
    .updateTable('notices')
    .set({ resolved_at: now, resolution })
    .where('object_type', '=', object.type)
    .where('object_id', 'in', typeof object.id === 'string' ? [object.id] : object.id)
    .where('kind', 'in', kinds)
    .where('resolved_at', 'is', null);
  if (userIds) q = q.where('user_id', 'in', userIds);
  await q.execute();
}

export interface NoticeFilter {
  userId: number;
  kind?: string;
  unread?: boolean;
}

function filtered(db: Kysely<Database>, f: NoticeFilter) {
  let q = db.selectFrom('notices').where('user_id', '=', f.userId).where('hidden', '=', 0);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.unread) q = q.where('read_at', 'is', null);
  return q;
}

export async function pageNotices(db: Kysely<Database>, f: NoticeFilter, page: number, pageSize: number): Promise<{ rows: NoticeRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, f).selectAll().orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
    filtered(db, f).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function unreadCount(db: Kysely<Database>, userId: number): Promise<number> {
  const r = await db.selectFrom('notices').select(sql<number>`count(*)`.as('n')).where('user_id', '=', userId).where('read_at', 'is', null).where('hidden', '=', 0).executeTakeFirstOrThrow();
  return Number(r.n);
}
