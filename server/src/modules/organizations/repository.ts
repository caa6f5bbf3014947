// Departments, users and groups of the 云文档 organisation.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, DepartmentRow, GroupRow } from '../../db/types';

export function listDepartments(db: Kysely<Database>): Promise<DepartmentRow[]> {
  return db.selectFrom('departments').selectAll().orderBy('sort_order').orderBy('id').execute();
}

export function findDepartment(db: Kysely<Database>, id: number): Promise<DepartmentRow | undefined> {
  return db.selectFrom('departments').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findRootDepartment(db: Kysely<Database>): Promise<DepartmentRow | undefined> {
  return db.selectFrom('departments').selectAll().where('parent_id', 'is', null).orderBy('id').executeTakeFirst();
}

export async function insertDepartment(
  db: Kysely<Database>,
  values: { parentId: number | null; parentPath: string; name: string; now: number },
): Promise<DepartmentRow> {
  const row = await db
    .insertInto('departments')
    .values({ parent_id: values.parentId, name: values.name, path: '', sort_order: 0, created_at: values.now })
    .returningAll()
    .executeTakeFirstOrThrow();
  const path = values.parentPath ? `${values.parentPath}/${row.id}` : String(row.id);
  await db.updateTable('departments').set({ path }).where('id', '=', row.id).execute();
  return { ...row, path };
}

/** Ids of a department and all departments below it, found by path. */
function subtreeFilter(path: string) {
  return (eb: ExpressionBuilder<Database, 'departments'>) =>
    eb.or([eb('departments.path', '=', path), eb('departments.path', 'like', `${path}/%`)]);
}

export function departmentSubtree(db: Kysely<Database>, path: string): Promise<DepartmentRow[]> {
  return db.selectFrom('departments').selectAll().where(subtreeFilter(path)).execute();
}

export async function countChildDepartments(db: Kysely<Database>, id: number): Promise<number> {
  const row = await db.selectFrom('departments').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function countDepartmentUsers(db: Kysely<Database>, id: number): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('dept_id', '=', id).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function findSiblingByName(
  db: Kysely<Database>,
  parentId: number | null,
  name: string,
  exceptId: number | null,
): Promise<DepartmentRow | undefined> {
  let q = db.selectFrom('departments').selectAll().where('name', '=', name);
  q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
  if (exceptId !== null) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
}

/** Takes the row locks of these departments (in id order) for the rest of the transaction. */
export async function lockDepartments(db: Kysely<Database>, ids: number[]): Promise<void> {
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    await db.updateTable('departments').set((eb) => ({ path: eb.ref('path') })).where('id', '=', id).execute();
  }
}

export async function renameDepartment(db: Kysely<Database>, id: number, name: string): Promise<void> {
  await db.updateTable('departments').set({ name }).where('id', '=', id).execute();
}

/** Moves a department under a new parent and rewrites the path of its whole subtree. */
export async function moveDepartment(db: Kysely<Database>, id: number, oldPath: string, parentId: number, parentPath: string): Promise<void> {
  const newPath = `${parentPath}/${id}`;
  await db.updateTable('departments').set({ parent_id: parentId }).where('id', '=', id).execute();
  // every path of the subtree starts with oldPath: swap that prefix for newPath
  await db
    .updateTable('departments')
    .set({ path: sql<string>`${newPath} || substr(path, ${oldPath.length + 1})` })
    .where(subtreeFilter(oldPath))
    .execute();
}

export async function deleteDepartment(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('departments').where('id', '=', id).execute();
}

// ---- users as the organisation lists them ----

export interface OrgUserFilter {
  /** normalised search text ('' for none): matched inside the user name or nickname */
  keyword: string;
  /** path of a department: only users in it or below it */
  deptPath: string | null;
  /** only members of this group */
  groupId: number | null;
  /** disabled users too (administrators' lists only); by default only enabled users */
  includeDisabled?: boolean;
}

export interface OrgUserRow {
  id: number;
  user_name: string;
  nick_name: string;
  dept_id: number | null;
  dept_name: string | null;
  disabled: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Users matching the filter (enabled ones unless `includeDisabled`), ordered by user name: one page and the total. */
export async function searchUsers(
  db: Kysely<Database>,
  filter: OrgUserFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: OrgUserRow[]; total: number }> {
  let q = db.selectFrom('users');
  if (!filter.includeDisabled) q = q.where('users.disabled', '=', 0);
  if (filter.keyword) {
    const pattern = `%${escapeLike(filter.keyword)}%`;
    q = q.where((eb) =>
      eb.or([
        sql<boolean>`${eb.ref('users.user_name_key')} like ${pattern} escape '\\'`,
        sql<boolean>`${eb.ref('users.nick_name_key')} like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (filter.deptPath !== null) {
    q = q.where('users.dept_id', 'in', db.selectFrom('departments').select('departments.id').where(subtreeFilter(filter.deptPath)));
  }
  if (filter.groupId !== null) {
    q = q.where('users.id', 'in', db.selectFrom('group_members').select('group_members.user_id').where('group_members.group_id', '=', filter.groupId));
  }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q
    .leftJoin('departments', 'departments.id', 'users.dept_id')
    .select(['users.id', 'users.user_name', 'users.nick_name', 'users.dept_id', 'departments.name as dept_name', 'users.disabled'])
    .orderBy('users.user_name_key')
    .orderBy('users.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { rows, total: Number(count?.n ?? 0) };
}

// ---- groups ----

export interface GroupWithCount extends GroupRow {
  member_count: number;
}

/** Groups by name, each with its number of enabled members. */
export function listGroups(db: Kysely<Database>): Promise<GroupWithCount[]> {
  return db
    .selectFrom('groups')
    .selectAll('groups')
    .select((eb) =>
      eb
        .selectFrom('group_members')
        .innerJoin('users', 'users.id', 'group_members.user_id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('group_members.group_id', '=', 'groups.id')
        .where('users.disabled', '=', 0)
        .as('member_count'),
    )
    .orderBy('groups.name')
    .orderBy('groups.id')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, member_count: Number(r.member_count ?? 0) })));
}

export function findGroup(db: Kysely<Database>, id: number): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findGroupByName(db: Kysely<Database>, name: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('name', '=', name).executeTakeFirst();
}

export function insertGroup(db: Kysely<Database>, name: string, now: number): Promise<GroupRow> {
  return db.insertInto('groups').values({ name, created_at: now }).returningAll().executeTakeFirstOrThrow();
}

export async function renameGroup(db: Kysely<Database>, id: number, name: string): Promise<void> {
  await db.updateTable('groups').set({ name }).where('id', '=', id).execute();
}

export async function deleteGroup(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('group_members').where('group_id', '=', id).execute();
  await db.deleteFrom('groups').where('id', '=', id).execute();
}

/** Replaces the members of a group. */
export async function replaceGroupMembers(db: Kysely<Database>, groupId: number, userIds: number[]): Promise<void> {
  await db.deleteFrom('group_members').where('group_id', '=', groupId).execute();
  for (let i = 0; i < userIds.length; i += 500) {
    const chunk = userIds.slice(i, i + 500);
    await db.insertInto('group_members').values(chunk.map((user_id) => ({ group_id: groupId, user_id }))).execute();
  }
}
