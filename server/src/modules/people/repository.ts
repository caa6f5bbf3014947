// Reads and writes of people administration: the 用户 page's query, department administrators,
// personal-space use of a page of people, and the record of administrators' actions.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { SPACE_PERSONAL } from '../folders/rights';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface PeopleFilter {
  /** normalised keyword ('' for none) */
  keyword: string;
  /** department subtrees the people must be in (by path); null: anywhere */
  within: string[] | null;
  /** the one department's path (its subtree) or id (directOnly) the filter asks for */
  dept: { path: string } | { id: number } | null;
  status: 'enabled' | 'disabled' | 'locked' | null;
  /** for 'locked': failures at or above `threshold` since `since` */
  lockout: { threshold: number; since: number };
  role: 'admin' | 'docAdmin' | 'tagAdmin' | 'flowAdmin' | 'auditAdmin' | 'deptAdmin' | null;
  source: string | null;
}

const ROLE_COLUMN = {
  admin: 'users.is_admin',
  docAdmin: 'users.is_doc_admin',
  tagAdmin: 'users.is_tag_admin',
  flowAdmin: 'users.is_flow_admin',
  auditAdmin: 'users.is_audit_admin',
} as const;

function inSubtrees(db: Kysely<Database>, paths: string[]) {
  return db
    .selectFrom('departments')
    .select('departments.id')
    .where((eb) => eb.or(paths.flatMap((p) => [eb('departments.path', '=', p), eb('departments.path', 'like', `${escapeLike(p)}/%`)])));
}

function lockedKeys(db: Kysely<Database>, lockout: PeopleFilter['lockout']) {
  return db
    .selectFrom('login_failures')
    .select('login_failures.account_key')
    .where('login_failures.created_at', '>', lockout.since)
    .groupBy('login_failures.account_key')
    .having((eb) => eb.fn.countAll(), '>=', lockout.threshold);
}

/** People matching the filter, by user name: one page and the total. */
export async function listPeople(db: Kysely<Database>, f: PeopleFilter, page: { offset: number; limit: number }): Promise<{ rows: UserRow[]; total: number }> {
  let q = db.selectFrom('users');
  if (f.within !== null) {
    if (!f.within.length) return { rows: [], total: 0 };
    q = q.where('users.dept_id', 'in', inSubtrees(db, f.within));
  }
  if (f.dept) {
    const dept = f.dept;
    q = 'id' in dept ? q.where('users.dept_id', '=', dept.id) : q.where('users.dept_id', 'in', inSubtrees(db, [dept.path]));
  }
  if (f.keyword) {
    const pattern = `%${escapeLike(f.keyword)}%`;
    q = q.where((eb: ExpressionBuilder<Database, 'users'>) =>
      eb.or([
        sql<boolean>`${eb.ref('users.user_name_key')} like ${pattern} escape '\\'`,
        sql<boolean>`${eb.ref('users.nick_name_key')} like ${pattern} escape '\\'`,
        sql<boolean>`lower(${eb.ref('users.employee_no')}) like ${pattern} escape '\\'`,
        sql<boolean>`${eb.ref('users.mobile')} like ${pattern} escape '\\'`,
        sql<boolean>`lower(${eb.ref('users.email')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (f.status === 'enabled') q = q.where('users.disabled', '=', 0);
  else if (f.status === 'disabled') q = q.where('users.disabled', '=', 1);
  else if (f.status === 'locked') q = q.where('users.user_name_key', 'in', lockedKeys(db, f.lockout));
  if (f.role === 'deptAdmin') q = q.where('users.id', 'in', db.selectFrom('department_admins').select('department_admins.user_id'));
  else if (f.role) q = q.where(ROLE_COLUMN[f.role], '=', 1);
  if (f.source) q = q.where('users.source', '=', f.source);
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(count?.n ?? 0);
  if (!total || page.offset >= total) return { rows: [], total };
  const rows = await q.selectAll('users').orderBy('users.user_name_key').orderBy('users.id').offset(page.offset).limit(page.limit).execute();
  return { rows, total };
}

/** Of `keys` (user-name keys), those whose sign-in is locked now. */
export async function lockedAmong(db: Kysely<Database>, keys: string[], lockout: PeopleFilter['lockout']): Promise<Set<string>> {
  if (!keys.length || lockout.threshold <= 0) return new Set();
  const rows = await lockedKeys(db, lockout).where('login_failures.account_key', 'in', keys).execute();
  return new Set(rows.map((r) => r.account_key));
}

/** Bytes of each person's personal space (files, the recycle bin included). */
export async function personalBytesOf(db: Kysely<Database>, ownerIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!ownerIds.length) return out;
  const rows = await db
    .selectFrom('items')
    .select(['owner_id', sql<number>`coalesce(sum(size), 0)`.as('bytes')])
    .where('space_type', '=', SPACE_PERSONAL)
    .where('type', '=', 'file')
    .where('owner_id', 'in', ownerIds)
    .groupBy('owner_id')
    .execute();
  for (const r of rows) out.set(Number(r.owner_id), Number(r.bytes));
  return out;
}

/** The departments each of `userIds` administers. */
export async function adminOf(db: Kysely<Database>, userIds: number[]): Promise<Map<number, { id: number; name: string; path: string }[]>> {
  const out = new Map<number, { id: number; name: string; path: string }[]>();
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom('department_admins')
    .innerJoin('departments', 'departments.id', 'department_admins.dept_id')
    .select(['department_admins.user_id', 'departments.id', 'departments.name', 'departments.path'])
    .where('department_admins.user_id', 'in', userIds)
    .orderBy('departments.path')
    .execute();
  for (const r of rows) {
    const list = out.get(Number(r.user_id)) ?? [];
    list.push({ id: Number(r.id), name: r.name, path: r.path });
    out.set(Number(r.user_id), list);
  }
  return out;
}

export async function departmentAdmins(db: Kysely<Database>): Promise<{ dept_id: number; user_id: number; user_name: string; nick_name: string }[]> {
  return db
    .selectFrom('department_admins')
    .innerJoin('users', 'users.id', 'department_admins.user_id')
    .select(['department_admins.dept_id', 'department_admins.user_id', 'users.user_name', 'users.nick_name'])
    .orderBy('users.user_name_key')
    .execute();
}

export async function replaceDepartmentAdmins(db: Kysely<Database>, deptId: number, userIds: number[]): Promise<void> {
  await db.deleteFrom('department_admins').where('dept_id', '=', deptId).execute();
  if (userIds.length) await db.insertInto('department_admins').values(userIds.map((user_id) => ({ dept_id: deptId, user_id }))).execute();
}

/** People directly in each department (disabled ones included). */
export async function directCounts(db: Kysely<Database>): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['dept_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('dept_id', 'is not', null)
    .groupBy('dept_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.dept_id), Number(r.n)]));
}

export interface ActionRecord {
  actorId: number;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string;
  targetName: string;
  detail?: string;
}

export async function recordAction(db: Kysely<Database>, a: ActionRecord, now = Date.now()): Promise<void> {
  await db
    .insertInto('admin_actions')
    .values({
      at: now,
      actor_id: a.actorId,
      actor_name: a.actorName,
      action: a.action,
      target_type: a.targetType,
      target_id: a.targetId,
      target_name: a.targetName,
      detail: a.detail ?? '',
    })
    .execute();
}

export async function listActions(db: Kysely<Database>, page: { offset: number; limit: number }) {
  const count = await db.selectFrom('admin_actions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await db.selectFrom('admin_actions').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();
  return { rows, total: Number(count?.n ?? 0) };
}
