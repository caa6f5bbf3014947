// Sessions and failed sign-ins of 云文档. Only SHA-256 digests of tokens are stored.
import type { Kysely } from 'kysely';
import type { Database, SessionRow } from '../../db/types';

export type CredentialKind = 'bearer' | 'cookie';

export async function insertSession(
  db: Kysely<Database>,
  values: { tokenHash: string; jwtIdHash: string; userId: number; now: number; expiresAt: number; ip: string; userAgent: string },
): Promise<SessionRow> {
  return db
    .insertInto('sessions')
    .values({
      token_hash: values.tokenHash,
      jwt_id_hash: values.jwtIdHash,
      user_id: values.userId,
      created_at: values.now,
      last_seen_at: values.now,
      expires_at: values.expiresAt,
      revoked_at: null,
      ip: values.ip,
      user_agent: values.userAgent,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findSession(db: Kysely<Database>, kind: CredentialKind, digest: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where(kind === 'bearer' ? 'token_hash' : 'jwt_id_hash', '=', digest)
    .executeTakeFirst();
}

export async function touchSession(db: Kysely<Database>, id: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function revokeSession(db: Kysely<Database>, id: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/**
 * Ends every client grant of a user (client authorization): its refresh tokens stop working.
 * Its access tokens are sessions, ended with the others.
 */
async function endClientGrantsOfUser(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  await db.updateTable('oauth_grants').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Revokes every live session of a user (and every client grant); returns how many sessions there were. */
export async function revokeSessionsOfUser(db: Kysely<Database>, userId: number, now: number): Promise<number> {
  await endClientGrantsOfUser(db, userId, now);
  const res = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * Revokes every live session of a user but one (the one that changed the password), and every
 * client grant; returns how many sessions.
 */
export async function revokeOtherSessions(db: Kysely<Database>, userId: number, keepId: number, now: number): Promise<number> {
  await endClientGrantsOfUser(db, userId, now);
  const res = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keepId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export interface FailureWindow {
  count: number;
  oldest: number | null;
}

export async function failuresSince(
  db: Kysely<Database>,
  by: { accountKey: string } | { ip: string },
  since: number,
): Promise<FailureWindow> {
  let q = db.selectFrom('login_failures').where('created_at', '>', since);
  q = 'accountKey' in by ? q.where('account_key', '=', by.accountKey) : q.where('ip', '=', by.ip);
  const row = await q
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number | null>('created_at').as('oldest')])
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest === null ? null : Number(row.oldest) };
}

export async function recordFailure(db: Kysely<Database>, accountKey: string, ip: string, now: number, windowMs: number): Promise<void> {
  await db.insertInto('login_failures').values({ account_key: accountKey, ip, created_at: now }).execute();
  await db.deleteFrom('login_failures').where('created_at', '<=', now - windowMs).execute();
}

export async function clearAccountFailures(db: Kysely<Database>, accountKey: string): Promise<void> {
  await db.deleteFrom('login_failures').where('account_key', '=', accountKey).execute();
}
