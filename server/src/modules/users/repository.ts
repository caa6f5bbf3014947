// Users of 云文档.
import type { Kysely } from 'kysely';
import type { Database, NewUser, UserRow, UserUpdate } from '../../db/types';

/** Normalised user name: what uniqueness and sign-in compare. */
export function userNameKey(userName: string): string {
  return userName.trim().normalize('NFKC').toLowerCase();
}

/** Normalised text for user search (user names and nicknames), the same rule as userNameKey. */
export const searchKey = userNameKey;

export function findUserById(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByKey(db: Kysely<Database>, key: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('user_name_key', '=', key).executeTakeFirst();
}

export async function departmentName(db: Kysely<Database>, deptId: number | null): Promise<string> {
  if (deptId === null) return '';
  const row = await db.selectFrom('departments').select('name').where('id', '=', deptId).executeTakeFirst();
  return row?.name ?? '';
}

export function insertUser(db: Kysely<Database>, values: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function setUserDisabled(db: Kysely<Database>, id: number, disabled: boolean, now: number): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ disabled: disabled ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Ids among `ids` that belong to no user. */
export async function unknownUserIds(db: Kysely<Database>, ids: number[]): Promise<number[]> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = await db.selectFrom('users').select('id').where('id', 'in', chunk).execute();
    for (const r of rows) found.add(Number(r.id));
  }
  return ids.filter((id) => !found.has(id));
}

export async function updateUserFields(
  db: Kysely<Database>,
  id: number,
  values: Pick<
    UserUpdate,
    | 'nick_name'
    | 'nick_name_key'
    | 'dept_id'
    | 'is_admin'
    | 'is_doc_admin'
    | 'is_flow_admin'
    | 'is_tag_admin'
    | 'is_audit_admin'
    | 'password_hash'
    | 'mobile'
    | 'email'
    | 'employee_no'
    | 'quota'
  >,
  now: number,
): Promise<void> {
  await db.updateTable('users').set({ ...values, updated_at: now }).where('id', '=', id).execute();
}

export async function markSignedIn(db: Kysely<Database>, id: number, now: number): Promise<void> {
  await db.updateTable('users').set({ last_login_at: now }).where('id', '=', id).execute();
}

/** Users that have no live personal root folder (repaired at start-up). */
export function usersWithoutPersonalRoot(db: Kysely<Database>): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('items')
            .select('items.id')
            .whereRef('items.owner_id', '=', 'users.id')
            .where('items.space_type', '=', 2)
            .where('items.parent_id', 'is', null)
            .where('items.deleted_at', 'is', null),
        ),
      ),
    )
    .execute();
}
