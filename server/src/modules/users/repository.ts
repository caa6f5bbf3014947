// Users of 云文档.
import type { Kysely } from 'kysely';
import type { Database, NewUser, UserRow } from '../../db/types';

/** Normalised user name: what uniqueness and sign-in compare. */
export function userNameKey(userName: string): string {
  return userName.trim().normalize('NFKC').toLowerCase();
}

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
