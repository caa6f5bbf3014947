// The second steps of a 云文档 sign-in (password reset, TOTP binding, TOTP code): the
// password was right, no session exists yet, and an actionToken names the step. Kept in the
// database so that any instance can finish a sign-in another one began.
import type { Kysely } from 'kysely';
import type { Database, LoginStepKind, LoginStepsTable } from '../../db/types';

export type LoginStep = LoginStepsTable;

export async function insertStep(
  db: Kysely<Database>,
  values: { tokenHash: string; userId: number; kind: LoginStepKind; secret?: string; now: number; ttlMs: number },
): Promise<void> {
  await db
    .insertInto('login_steps')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      kind: values.kind,
      secret: values.secret ?? '',
      attempts: 0,
      created_at: values.now,
      expires_at: values.now + values.ttlMs,
      used_at: null,
    })
    .execute();
  // steps that ran out are of no use to anyone
  await db.deleteFrom('login_steps').where('expires_at', '<', values.now - 24 * 3600 * 1000).execute();
}

export function findStep(db: Kysely<Database>, tokenHash: string): Promise<LoginStep | undefined> {
  return db.selectFrom('login_steps').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the step used; false when another request used it first. */
export async function useStep(db: Kysely<Database>, tokenHash: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('login_steps')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Counts a wrong code; returns the attempts so far. */
export async function countWrongCode(db: Kysely<Database>, tokenHash: string): Promise<number> {
  await db
    .updateTable('login_steps')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .execute();
  const row = await db.selectFrom('login_steps').select('attempts').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(row?.attempts ?? 0);
}

/** Every pending step of a user ends (a password change, a TOTP reset). */
export async function dropStepsOfUser(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  await db.updateTable('login_steps').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
