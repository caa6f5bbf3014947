// 云文档 sign-in, sessions and sign-in throttling.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, LoginStepKind, SessionRow, UserRow } from '../../db/types';
import type { SecretBox } from '../../lib/secret-box';
import { AppError, badRequest, forbidden, MESSAGES, tooManyRequests } from '../../lib/errors';
import { findUserById, findUserByKey, markSignedIn, setUserDisabled, userNameKey } from '../users/repository';
import { mobileOrEmpty, type UsersService } from '../users/service';
import { recordEvent } from '../notices/events';
import { endAppPasswordsOfUser } from '../app-passwords/repository';
import type { Credentials } from './credentials';
import { passwordKeptElsewhere, verifyPassword } from './password';
import { countWrongCode, dropStepsOfUser, findStep, insertStep, useStep, type LoginStep } from './steps';
import { acceptedStep, newTotpSecret, totpUri } from './totp';
import { DingTalkClient, type DingTalkUser } from './dingtalk';
import {
  clearAccountFailures,
  failuresSince,
  findSession,
  insertSession,
  recordFailure,
  revokeOtherSessions,
  revokeSession,
  revokeSessionsOfUser,
  touchSession,
  type CredentialKind,
} from './repository';
import type { LoginBody, LoginResult, LoginStepResult } from './schemas';

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** A sign-in's answer: a session (with its jwtId for the cookie) or a second step. */
export interface LoginOutcome {
  result: LoginResult | LoginStepResult;
  jwtId?: string;
}

/** how long an account password checked over WebDAV is taken again without hashing it */
const ACCOUNT_PASSWORD_SEEN_MS = 5 * 60_000;
/** How long a second step (password reset, TOTP) may take. */
const STEP_TTL_MS = 10 * 60 * 1000;
/** wrong TOTP codes one sign-in may try */
const MAX_CODE_ATTEMPTS = 5;
const STEP_EXPIRED = '操作已过期，请重新登录';
const totpPurpose = (userId: number) => `totp:${userId}`;

export type AuthOutcome =
  | { status: 'ok'; user: UserRow; session: SessionRow }
  | { status: 'invalid' }
  /** a session that no longer works, of an account that is disabled */
  | { status: 'ended'; reason: 'disabled' }
  | { status: 'disabled'; user: UserRow; session: SessionRow };

/** last_seen_at is written at most this often per session. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export const digest = (secret: string) => crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
const randomSecret = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

export class AuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly config: Pick<AppConfig, 'throttle' | 'sessionTtlMs' | 'dingtalk'>,
    private readonly credentials: Credentials,
    private readonly box: SecretBox,
    private readonly dingtalk: DingTalkClient | null = config.dingtalk ? new DingTalkClient(config.dingtalk) : null,
  ) {}

  /** Checks a directory person's password (true/false); throws when the directory cannot answer. */
  private directory: ((userName: string, password: string) => Promise<boolean>) | null = null;

  useDirectory(check: (userName: string, password: string) => Promise<boolean>): void {
    this.directory = check;
  }

  /**
   * 429 while the client address has too many recent failures (configuration), or the account
   * is locked by the password policy (lockoutThreshold failures inside lockoutMinutes).
   */
  private async assertNotThrottled(accountKey: string | null, ip: string, now: number): Promise<void> {
    const { addressLimit, windowMs } = this.config.throttle;
    const policy = await this.credentials.policy();
    const lockMs = policy.lockoutMinutes * 60_000;
    const [byAccount, byAddress] = await Promise.all([
      policy.lockoutThreshold > 0 && accountKey !== null
        ? failuresSince(this.db, { accountKey }, now - lockMs)
        : Promise.resolve({ count: 0, oldest: null }),
      failuresSince(this.db, { ip }, now - windowMs),
    ]);
    const until = [
      byAccount.count >= policy.lockoutThreshold && byAccount.oldest !== null ? byAccount.oldest + lockMs : null,
      byAddress.count >= addressLimit && byAddress.oldest !== null ? byAddress.oldest + windowMs : null,
    ].filter((t): t is number => t !== null);
    if (until.length) {
      const retryAfterMs = Math.max(...until) - now;
      const minutes = Math.max(1, Math.ceil(retryAfterMs / 60000));
      throw tooManyRequests(`登录失败次数过多，请 ${minutes} 分钟后再试`, retryAfterMs / 1000);
    }
  }

  /** Counts a failed sign-in (a wrong password or TOTP code) against the account and the address. */
  private async fail(accountKey: string, ip: string, now: number): Promise<void> {
    const policy = await this.credentials.policy();
    const keepMs = Math.max(this.config.throttle.windowMs, policy.lockoutMinutes * 60_000);
    await recordFailure(this.db, accountKey, ip, now, keepMs);
  }

  /**
   * 429 while sign-ins of the account or from the address are throttled: another way in (an
   * application password over WebDAV) waits exactly as the sign-in page does.
   */
  async assertMayTry(accountKey: string, ip: string): Promise<void> {
    await this.assertNotThrottled(accountKey, ip, Date.now());
  }

  /** A failed attempt of another way in (a wrong application password) counts as a failed sign-in. */
  async countFailure(accountKey: string, ip: string): Promise<void> {
    await this.fail(accountKey, ip, Date.now());
  }

  async login(body: LoginBody, client: ClientInfo): Promise<LoginOutcome> {
    if (body.mode !== undefined && body.mode !== 'password') throw badRequest('不支持该登录方式');
    const now = Date.now();
    const accountKey = userNameKey(body.userName);
    if (!accountKey) throw badRequest('请输入用户名');
    await this.assertNotThrottled(accountKey, client.ip, now);

    const user = await findUserByKey(this.db, accountKey);
    // a directory person has no local password: the directory checks it (a bind as them)
    const byDirectory = user?.source === 'ldap' && this.directory !== null;
    const passwordOk = byDirectory ? await this.directory!(user.user_name, body.password) : await verifyPassword(body.password, user?.password_hash ?? null);
    if (!user || !passwordOk) {
      await this.fail(accountKey, client.ip, now);
      throw badRequest(MESSAGES.wrongCredentials);
    }
    if (user.disabled) throw new AppError(403, 403, MESSAGES.accountDisabled);
    // the failures are cleared only when the whole sign-in succeeds: signing in again with the
    // password must not give a guesser of TOTP codes a fresh count

    const reason = byDirectory ? null : this.credentials.resetReason(user, await this.credentials.policy(), now);
    if (reason) return this.step(user, 'passwordReset', now, { message: reason });
    return this.afterPassword(user, client, now);
  }

  /**
   * The account's own password outside the sign-in page (WebDAV, where the administrator allows
   * it): only for people without TOTP (theirs would skip the second step), checked as at the
   * sign-in page (a directory person's by the directory); a password that must be changed first
   * is refused. 'off' when the administrator has not allowed it.
   */
  async accountPassword(user: UserRow, password: string): Promise<'ok' | 'off' | 'totp' | 'wrong' | 'expired'> {
    const policy = await this.credentials.policy();
    if (!policy.webdavAccountPassword) return 'off';
    if (policy.totpRequired || user.totp_required === 1 || user.totp_secret !== null) return 'totp';
    const byDirectory = user.source === 'ldap' && this.directory !== null;
    // a WebDAV client sends the password with every request: a password checked a moment ago
    // (for this account, with this stored hash) is not hashed again
    const key = digest(`${user.id}\n${user.password_hash ?? ''}\n${password}`);
    const now = Date.now();
    if ((this.accountPasswordsSeen.get(key) ?? 0) < now) {
      const passwordOk = byDirectory ? await this.directory!(user.user_name, password) : await verifyPassword(password, user.password_hash ?? null);
      if (!passwordOk) return 'wrong';
      this.accountPasswordsSeen.delete(key);
      this.accountPasswordsSeen.set(key, now + ACCOUNT_PASSWORD_SEEN_MS);
      if (this.accountPasswordsSeen.size > 1000) this.accountPasswordsSeen.delete(this.accountPasswordsSeen.keys().next().value as string);
    }
    if (!byDirectory && this.credentials.resetReason(user, policy, now)) return 'expired';
    return 'ok';
  }

  /** digests of account passwords checked lately (accountPassword), with when that lapses */
  private readonly accountPasswordsSeen = new Map<string, number>();

  /**
   * POST /api/login/LoginWithDingtalk: the DingTalk user behind the code, then the account bound
   * to it; else the one account with that mobile number or email (then bound); else, when
   * configured, a new account. TOTP still applies; no password step (none was typed).
   */
  async loginWithDingtalk(code: string, appId: string, client: ClientInfo): Promise<LoginOutcome> {
    const settings = this.config.dingtalk;
    if (!settings || !this.dingtalk) throw badRequest('未启用钉钉登录');
    if (appId !== settings.appKey) throw badRequest('钉钉应用不匹配，请刷新登录页后重试');
    if (!code || code.length > 512) throw badRequest('缺少钉钉授权码');
    const now = Date.now();
    await this.assertNotThrottled(null, client.ip, now);
    const person = await this.dingtalk.userOf(code);
    let user = await this.db.selectFrom('users').selectAll().where('dingtalk_union_id', '=', person.unionId).executeTakeFirst();
    if (!user) {
      user = await this.matchByContact(person);
      if (user) {
        await this.db.updateTable('users').set({ dingtalk_union_id: person.unionId, updated_at: now }).where('id', '=', user.id).execute();
      } else if (settings.autoCreate) {
        user = await this.createFromDingtalk(person);
      } else {
        throw forbidden('该钉钉账号尚未关联云文档账号，请联系管理员');
      }
    }
    if (user.disabled) throw new AppError(403, 403, MESSAGES.accountDisabled);
    return this.afterPassword(user, client, now);
  }

  /** The only account with the DingTalk user's mobile number, else with its email. */
  private async matchByContact(person: DingTalkUser): Promise<UserRow | undefined> {
    for (const [column, value] of [['mobile', person.mobile], ['email', person.email]] as const) {
      if (!value) continue;
      const rows = await this.db.selectFrom('users').selectAll().where(column, '=', value).where('dingtalk_union_id', 'is', null).limit(2).execute();
      if (rows.length === 1) return rows[0];
    }
    return undefined;
  }

  private async createFromDingtalk(person: DingTalkUser): Promise<UserRow> {
    const base = `dingtalk_${person.unionId.replace(/[^\p{L}\p{N}]/gu, '').slice(0, 24) || 'user'}`;
    const created = await this.users.createUser(
      { userName: base, nickName: person.nick || base, password: randomSecret(24), mobile: mobileOrEmpty(person.mobile), source: 'dingtalk' },
      { enforcePolicy: false },
    );
    await this.db.updateTable('users').set({ dingtalk_union_id: person.unionId, email: person.email }).where('id', '=', created.id).execute();
    return (await findUserById(this.db, created.id)) ?? created;
  }

  /** The password is settled: TOTP when the policy, an administrator or the user asked for it, else a session. */
  private async afterPassword(user: UserRow, client: ClientInfo, now: number): Promise<LoginOutcome> {
    const policy = await this.credentials.policy();
    const needsTotp = policy.totpRequired || user.totp_required === 1 || user.totp_secret !== null;
    if (!needsTotp) return this.signIn(user, client, now);
    if (user.totp_secret === null) {
      const secret = newTotpSecret();
      return this.step(user, 'totpBind', now, { secret, totpUri: totpUri(secret, user.user_name), totpSecret: secret });
    }
    return this.step(user, 'totpCode', now, {});
  }

  /** A second step: an actionToken and no session. */
  private async step(
    user: UserRow,
    kind: LoginStepKind,
    now: number,
    extra: { message?: string; secret?: string; totpUri?: string; totpSecret?: string },
  ): Promise<LoginOutcome> {
    const actionToken = randomSecret(32);
    await insertStep(this.db, {
      tokenHash: digest(actionToken),
      userId: user.id,
      kind,
      secret: extra.secret ? this.box.seal(extra.secret, `totp-bind:${user.id}`) : '',
      now,
      ttlMs: STEP_TTL_MS,
    });
    const result: LoginStepResult = {
      userName: user.user_name,
      nickName: user.nick_name,
      passwordReset: kind === 'passwordReset',
      totpBind: kind === 'totpBind',
      totpCode: kind === 'totpCode',
      actionToken,
    };
    if (extra.message) result.message = extra.message;
    if (extra.totpUri) result.totpUri = extra.totpUri;
    if (extra.totpSecret) result.totpSecret = extra.totpSecret;
    return { result };
  }

  /** A new session for a user who passed every step. */
  private async signIn(user: UserRow, client: ClientInfo, now: number): Promise<LoginOutcome> {
    const token = randomSecret(32);
    const jwtId = randomSecret(32);
    await insertSession(this.db, {
      tokenHash: digest(token),
      jwtIdHash: digest(jwtId),
      userId: user.id,
      now,
      expiresAt: now + this.config.sessionTtlMs,
      ip: client.ip.slice(0, 64),
      userAgent: client.userAgent.slice(0, 512),
    });
    await clearAccountFailures(this.db, user.user_name_key);
    const firstSignIn = user.last_login_at === null;
    await markSignedIn(this.db, user.id, now);
    const info = await this.users.userInfo(user);
    return {
      jwtId,
      result: { ...info, token, jwtId, showGuide: firstSignIn, passwordReset: false, totpBind: false, totpCode: false },
    };
  }

  /** The live step an actionToken names, of the kind expected, and its user. */
  private async openStep(actionToken: string, kind: LoginStepKind, now: number): Promise<{ step: LoginStep; user: UserRow }> {
    const step = actionToken && actionToken.length <= 512 ? await findStep(this.db, digest(actionToken)) : undefined;
    if (!step || step.kind !== kind || step.used_at !== null || step.expires_at <= now) throw badRequest(STEP_EXPIRED);
    const user = await findUserById(this.db, step.user_id);
    if (!user) throw badRequest(STEP_EXPIRED);
    if (user.disabled) throw new AppError(403, 403, MESSAGES.accountDisabled);
    return { step, user };
  }

  /** A wrong TOTP code: counted against the sign-in and the account; the fifth ends the sign-in. */
  private async wrongCode(step: LoginStep, user: UserRow, client: ClientInfo, now: number, message: string): Promise<never> {
    await this.fail(user.user_name_key, client.ip, now);
    const attempts = await countWrongCode(this.db, step.token_hash);
    if (attempts >= MAX_CODE_ATTEMPTS) {
      await useStep(this.db, step.token_hash, now);
      throw badRequest('动态口令错误次数过多，请重新登录');
    }
    throw badRequest(message);
  }

  /** POST /api/login/ResetPassword: a policy-conforming password ends the reset step; the sign-in goes on. */
  async resetPassword(body: { actionToken: string; password: string }, client: ClientInfo): Promise<LoginOutcome> {
    const now = Date.now();
    const { step, user } = await this.openStep(body.actionToken, 'passwordReset', now);
    await this.assertNotThrottled(user.user_name_key, client.ip, now);
    const hash = await this.credentials.newHash(body.password, user);
    await this.db.transaction().execute(async (trx) => {
      if (!(await useStep(trx, step.token_hash, now))) throw badRequest(STEP_EXPIRED);
      await this.credentials.store(trx, user.id, hash, now, false);
      await revokeSessionsOfUser(trx, user.id, now);
    });
    const fresh = (await findUserById(this.db, user.id)) ?? user;
    return this.afterPassword(fresh, client, now);
  }

  /** POST /api/login/TotpBind: the first code proves the app holds the key; the key is kept, sealed. */
  async totpBind(body: { actionToken: string; code: string }, client: ClientInfo): Promise<LoginOutcome> {
    const now = Date.now();
    const { step, user } = await this.openStep(body.actionToken, 'totpBind', now);
    await this.bindWith(step, user, body.code, client, now);
    return this.signIn(user, client, now);
  }

  /** Checks the first code of a key being bound and keeps the key, sealed. */
  private async bindWith(step: LoginStep, user: UserRow, code: string, client: ClientInfo, now: number): Promise<void> {
    await this.assertNotThrottled(user.user_name_key, client.ip, now);
    const secret = this.box.open(step.secret, `totp-bind:${user.id}`);
    if (!secret) throw badRequest(STEP_EXPIRED);
    const accepted = acceptedStep(secret, code.trim(), now, 0);
    if (accepted === null) return this.wrongCode(step, user, client, now, '动态口令错误，请确认手机时间准确后重新输入');
    await this.db.transaction().execute(async (trx) => {
      if (!(await useStep(trx, step.token_hash, now))) throw badRequest(STEP_EXPIRED);
      await trx
        .updateTable('users')
        .set({ totp_secret: this.box.seal(secret, totpPurpose(user.id)), totp_last_step: accepted, updated_at: now })
        .where('id', '=', user.id)
        .execute();
    });
  }

  /** 个人设置: a new key for the signed-in user; it counts once its first code is confirmed. */
  async beginTotp(user: UserRow): Promise<{ actionToken: string; totpUri: string; totpSecret: string }> {
    const now = Date.now();
    const secret = newTotpSecret();
    const actionToken = randomSecret(32);
    await insertStep(this.db, {
      tokenHash: digest(actionToken),
      userId: user.id,
      kind: 'totpBind',
      secret: this.box.seal(secret, `totp-bind:${user.id}`),
      now,
      ttlMs: STEP_TTL_MS,
    });
    return { actionToken, totpUri: totpUri(secret, user.user_name), totpSecret: secret };
  }

  /** 个人设置: the first code of the new key; from now on sign-ins ask for codes. */
  async confirmTotp(user: UserRow, body: { actionToken: string; code: string }, client: ClientInfo): Promise<void> {
    const now = Date.now();
    const { step } = await this.openStep(body.actionToken, 'totpBind', now);
    if (step.user_id !== user.id) throw badRequest(STEP_EXPIRED);
    await this.bindWith(step, user, body.code, client, now);
  }

  /** 个人设置: unbinds with a current code, unless TOTP is required of the user. */
  async removeTotp(user: UserRow, code: string, client: ClientInfo): Promise<void> {
    const now = Date.now();
    if ((await this.credentials.policy()).totpRequired || user.totp_required === 1) throw forbidden('管理员要求使用动态口令，不能解除绑定');
    const secret = user.totp_secret === null ? null : this.box.open(user.totp_secret, totpPurpose(user.id));
    if (!secret) throw badRequest('尚未绑定动态口令');
    await this.assertNotThrottled(user.user_name_key, client.ip, now);
    if (acceptedStep(secret, code.trim(), now, user.totp_last_step) === null) {
      await this.fail(user.user_name_key, client.ip, now);
      throw badRequest('动态口令错误或已使用过，请输入新的动态口令');
    }
    await this.resetTotp(user.id);
  }

  /** POST /api/login/TotpCode: a code of a step later than the last one used finishes the sign-in. */
  async totpCode(body: { actionToken: string; code: string }, client: ClientInfo): Promise<LoginOutcome> {
    const now = Date.now();
    const { step, user } = await this.openStep(body.actionToken, 'totpCode', now);
    await this.assertNotThrottled(user.user_name_key, client.ip, now);
    const secret = user.totp_secret === null ? null : this.box.open(user.totp_secret, totpPurpose(user.id));
    if (!secret) throw badRequest('动态口令已被重置，请重新登录');
    const wrong = '动态口令错误或已使用过，请输入新的动态口令';
    const accepted = acceptedStep(secret, body.code.trim(), now, user.totp_last_step);
    if (accepted === null) return this.wrongCode(step, user, client, now, wrong);
    const taken = await this.db.transaction().execute(async (trx) => {
      // two requests with the same code: only one moves the last step forward
      const res = await trx
        .updateTable('users')
        .set({ totp_last_step: accepted })
        .where('id', '=', user.id)
        .where('totp_last_step', '<', accepted)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      if (!(await useStep(trx, step.token_hash, now))) throw badRequest(STEP_EXPIRED);
      return true;
    });
    if (!taken) return this.wrongCode(step, user, client, now, wrong);
    return this.signIn(user, client, now);
  }

  /** POST /api/account/changepassword: the old password, then a new one under the policy; the user's other sessions end. */
  async changePassword(user: UserRow, session: SessionRow, body: { oldPassword: string; newPassword: string }, ip: string): Promise<{ revoked: number }> {
    const now = Date.now();
    const elsewhere = passwordKeptElsewhere(user);
    if (elsewhere) throw badRequest(elsewhere);
    await this.assertNotThrottled(user.user_name_key, ip, now);
    if (!(await verifyPassword(body.oldPassword, user.password_hash))) {
      await this.fail(user.user_name_key, ip, now);
      throw badRequest('原密码错误');
    }
    const hash = await this.credentials.newHash(body.newPassword, user);
    const revoked = await this.db.transaction().execute(async (trx) => {
      await this.credentials.store(trx, user.id, hash, now, false);
      await dropStepsOfUser(trx, user.id, now);
      return revokeOtherSessions(trx, user.id, session.id, now);
    });
    await clearAccountFailures(this.db, user.user_name_key);
    return { revoked };
  }

  /** The user's TOTP key is forgotten: the next sign-in binds a new one (when TOTP is still required). */
  /** Unbinds the user's TOTP; `byAdminId`: an administrator reset it, and the person is told (totp.reset). */
  async resetTotp(userId: number, byAdminId?: number): Promise<void> {
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ totp_secret: null, totp_last_step: 0, updated_at: now }).where('id', '=', userId).execute();
      await dropStepsOfUser(trx, userId, now);
      if (byAdminId !== undefined && byAdminId !== userId) await recordEvent(trx, 'totp.reset', { userId, adminId: byAdminId }, now);
    });
  }

  /** Resolves a bearer token or a `token` cookie (jwtId) to its live session and user. */
  async authenticate(kind: CredentialKind, secret: string): Promise<AuthOutcome> {
    if (!secret || secret.length > 512) return { status: 'invalid' };
    const session = await findSession(this.db, kind, digest(secret));
    const now = Date.now();
    if (!session || session.expires_at <= now) return { status: 'invalid' };
    const user = await findUserById(this.db, session.user_id);
    if (!user) return { status: 'invalid' };
    // a session ended by disabling the account still says why (403) while the account stays
    // disabled; once enabled again it is simply gone (401)
    if (user.disabled) return session.revoked_at !== null ? { status: 'ended', reason: 'disabled' } : { status: 'disabled', user, session };
    if (session.revoked_at !== null) return { status: 'invalid' };
    if (now - session.last_seen_at > TOUCH_INTERVAL_MS) await touchSession(this.db, session.id, now);
    return { status: 'ok', user, session };
  }

  /** POST /api/login/quit: the session's token and jwtId stop working at once. */
  async quit(session: SessionRow): Promise<void> {
    await revokeSession(this.db, session.id, Date.now());
  }

  async revokeUserSessions(userId: number): Promise<number> {
    return revokeSessionsOfUser(this.db, userId, Date.now());
  }

  /**
   * Disables an account or lets it in again. Disabling ends, in the same transaction, every
   * way in that the account held: its sessions (browsers, client tokens), its unfinished
   * second steps, its unused authorization codes and its application passwords (WebDAV).
   * Enabling brings none of them back: the person signs in afresh.
   */
  async setDisabled(userId: number, disabled: boolean): Promise<void> {
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      await setUserDisabled(trx, userId, disabled, now);
      if (!disabled) return;
      await revokeSessionsOfUser(trx, userId, now);
      await dropStepsOfUser(trx, userId, now);
      await trx.updateTable('oauth_codes').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
      await endAppPasswordsOfUser(trx, userId, now);
    });
  }
}
