// Queries of 云文档's 系统公告: who a 公告 reaches, and the page of those sent.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';

/** 'all': every active person; 'departments': the active people of the departments and of every department below them. */
export type AnnouncementScope = 'all' | 'departments';

/** The active people a 公告 reaches (ids, ascending). */
export async function announcementRecipients(db: Kysely<Database>, scope: AnnouncementScope, departmentIds: readonly number[]): Promise<number[]> {
  if (scope === 'all') {
    const rows = await db.selectFrom('users').select('id').where('disabled', '=', 0).orderBy('id').execute();
    return rows.map((r) => Number(r.id));
  }
  if (!departmentIds.length) return [];
  const roots = await db.selectFrom('departments').select('path').where('id', 'in', [...departmentIds]).execute();
  if (!roots.length) return [];
  const rows = await db
    .selectFrom('users')
    .innerJoin('departments', 'departments.id', 'users.dept_id')
    .select('users.id')
    .where('users.disabled', '=', 0)
    .where((eb) => eb.or(roots.flatMap(({ path }) => [eb('departments.path', '=', path), eb('departments.path', 'like', `${path}/%`)])))
    .orderBy('users.id')
    .execute();
  return [...new Set(rows.map((r) => Number(r.id)))];
}

export async function pageAnnouncements(db: Kysely<Database>, page: number, pageSize: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('announcements')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    db.selectFrom('announcements').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
