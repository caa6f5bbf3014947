// Departments of the 云文档 organisation.
import type { Kysely } from 'kysely';
import type { Database, DepartmentRow } from '../../db/types';

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
