// 应用密码 (application passwords for WebDAV) of 云文档: only the SHA-256 of a secret is stored.
import type { Kysely } from 'kysely';
import type { AppPasswordScope, Database } from '../../db/types';

export type AppPasswordRow = {
  id: number;
  user_id: number;
  name: string;
  scope: AppPasswordScope;
  created_at: number;
  last_used_at: number | null;
  last_used_ip: string;
  revoked_at: number | null;
};

const COLUMNS = ['id', 'user_id', 'name', 'scope', 'created_at', 'last_used_at', 'last_used_ip', 'revoked_at'] as const;

export async function insertAppPassword(
  db: Kysely<Database>,
  values: { userId: number; name: string; scope: AppPasswordScope; secretHash: string; now: number },
): Promise<AppPasswordRow> {
  return db
    .insertInto('app_passwords')
    .values({
      user_id: values.userId,
      name: values.name,
      scope: values.scope,
      secret_hash: values.secretHash,
      created_at: values.now,
      last_used_at: null,
      revoked_at: null,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The person's application passwords that still work, the newest first. */
export function liveAppPasswords(db: Kysely<Database>, userId: number): Promise<AppPasswordRow[]> {
  return db
    .selectFrom('app_passwords')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function countLive(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('app_passwords')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findBySecretHash(db: Kysely<Database>, secretHash: string): Promise<AppPasswordRow | undefined> {
  return db.selectFrom('app_passwords').select(COLUMNS).where('secret_hash', '=', secretHash).executeTakeFirst();
}

/** Revokes one live application password of the person; the row as it was, or undefined. */
export async function revokeAppPassword(db: Kysely<Database>, userId: number, id: number, now: number): Promise<AppPasswordRow | undefined> {
  const row = await db
    .selectFrom('app_passwords')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const res = await db.updateTable('app_passwords').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1 ? row : undefined;
}

/**
 * Ends every application password of a person (the account disabled, a new password set); in
 * the caller's transaction when given one. Returns how many were live.
 */
export async function endAppPasswordsOfUser(db: Kysely<Database>, userId: number, now: number): Promise<number> {
  const res = await db.updateTable('app_passwords').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function touchAppPassword(db: Kysely<Database>, id: number, now: number, ip: string): Promise<void> {
  await db.updateTable('app_passwords').set({ last_used_at: now, last_used_ip: ip }).where('id', '=', id).execute();
}
