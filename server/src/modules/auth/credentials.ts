// Passwords of 云文档 accounts under the password policy (docs/integration.md, "Sign-in"):
// rules on the characters, no reuse of the last N passwords, expiry, and the flag that makes
// the next sign-in choose a new password after an administrator set one.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest } from '../../lib/errors';
import type { PasswordPolicy } from '../settings/schemas';
import type { SettingsService } from '../settings/service';
import { hashPassword, passwordPolicyViolation, verifyPassword } from './password';
import { endAppPasswordsOfUser } from '../app-passwords/repository';

const DAY_MS = 24 * 3600 * 1000;
/** rows kept per user, whatever the policy says today */
const HISTORY_KEPT = 24;

export class Credentials {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
  ) {}

  policy(): Promise<PasswordPolicy> {
    return this.settings.passwordPolicy();
  }

  /**
   * The hash of a new password, after the policy's checks: its characters and, for an existing
   * account, that it is none of the account's last `historyCount` passwords.
   */
  async newHash(password: string, user?: UserRow): Promise<string> {
    const policy = await this.policy();
    const violation = passwordPolicyViolation(policy, password);
    if (violation) throw badRequest(violation);
    if (user && policy.historyCount > 0) {
      const recent = await this.db
        .selectFrom('password_history')
        .select('password_hash')
        .where('user_id', '=', user.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(policy.historyCount)
        .execute();
      const hashes = new Set([user.password_hash, ...recent.map((r) => r.password_hash)]);
      for (const hash of hashes) {
        if (await verifyPassword(password, hash)) throw badRequest(`新密码不能与最近 ${policy.historyCount} 次使用过的密码相同`);
      }
    }
    return hashPassword(password);
  }

  /**
   * Stores a password set just now (in the caller's transaction) and remembers it for the
   * history rule. A new password, whoever set it, ends the account's application passwords.
   */
  async store(db: Kysely<Database>, userId: number, hash: string, now: number, mustChange: boolean): Promise<void> {
    await db
      .updateTable('users')
      .set({ password_hash: hash, password_changed_at: now, must_change_password: mustChange ? 1 : 0, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await this.remember(db, userId, hash, now);
    await endAppPasswordsOfUser(db, userId, now);
  }

  /** Adds a password to the account's history and keeps only the newest rows. */
  /** The first password of a new account: nothing older to trim. */
  async rememberFirst(db: Kysely<Database>, userId: number, hash: string, now: number): Promise<void> {
    await db.insertInto('password_history').values({ user_id: userId, password_hash: hash, created_at: now }).execute();
  }

  async remember(db: Kysely<Database>, userId: number, hash: string, now: number): Promise<void> {
    await db.insertInto('password_history').values({ user_id: userId, password_hash: hash, created_at: now }).execute();
    const old = await db
      .selectFrom('password_history')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(HISTORY_KEPT)
      .limit(1000)
      .execute();
    if (old.length) await db.deleteFrom('password_history').where('id', 'in', old.map((r) => r.id)).execute();
  }

  /** Why the next sign-in must choose a new password, or null. */
  resetReason(user: UserRow, policy: PasswordPolicy, now: number): string | null {
    if (user.must_change_password === 1) return '管理员设置的密码需要您修改后才能继续使用';
    const since = user.password_changed_at || user.created_at;
    if (policy.expiryDays > 0 && now - since >= policy.expiryDays * DAY_MS) return `密码已超过 ${policy.expiryDays} 天未修改，请设置新密码`;
    return null;
  }
}
