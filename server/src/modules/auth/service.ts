// 云文档 sign-in, sessions and sign-in throttling.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../../config';
import type { Database, SessionRow, UserRow } from '../../db/types';
import { AppError, badRequest, MESSAGES, tooManyRequests } from '../../lib/errors';
import { findUserById, findUserByKey, markSignedIn, userNameKey } from '../users/repository';
import type { UsersService } from '../users/service';
import { verifyPassword } from './password';
import {
  clearAccountFailures,
  failuresSince,
  findSession,
  insertSession,
  recordFailure,
  revokeSession,
  revokeSessionsOfUser,
  touchSession,
  type CredentialKind,
} from './repository';
import type { LoginBody, LoginResult } from './schemas';

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export type AuthOutcome =
  | { status: 'ok'; user: UserRow; session: SessionRow }
  | { status: 'invalid' }
  | { status: 'disabled'; user: UserRow; session: SessionRow };

/** last_seen_at is written at most this often per session. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export const digest = (secret: string) => crypto.createHash('sha256').update(secret, 'utf8').digest('hex');
const randomSecret = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

export class AuthService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly config: Pick<AppConfig, 'throttle' | 'sessionTtlMs'>,
  ) {}

  /** 429 while the account or the client address has too many recent failures. */
  private async assertNotThrottled(accountKey: string, ip: string, now: number): Promise<void> {
    const { accountLimit, addressLimit, windowMs } = this.config.throttle;
    const since = now - windowMs;
    const [byAccount, byAddress] = await Promise.all([
      failuresSince(this.db, { accountKey }, since),
      failuresSince(this.db, { ip }, since),
    ]);
    const blockers = [
      byAccount.count >= accountLimit ? byAccount.oldest : null,
      byAddress.count >= addressLimit ? byAddress.oldest : null,
    ].filter((t): t is number => t !== null);
    if (blockers.length) {
      const retryAfterMs = Math.max(...blockers) + windowMs - now;
      const minutes = Math.max(1, Math.ceil(retryAfterMs / 60000));
      throw tooManyRequests(`登录失败次数过多，请 ${minutes} 分钟后再试`, retryAfterMs / 1000);
    }
  }

  async login(body: LoginBody, client: ClientInfo): Promise<{ result: LoginResult; jwtId: string }> {
    if (body.mode !== undefined && body.mode !== 'password') throw badRequest('不支持该登录方式');
    const now = Date.now();
    const accountKey = userNameKey(body.userName);
    if (!accountKey) throw badRequest('请输入用户名');
    await this.assertNotThrottled(accountKey, client.ip, now);

    const user = await findUserByKey(this.db, accountKey);
    const passwordOk = await verifyPassword(body.password, user?.password_hash ?? null);
    if (!user || !passwordOk) {
      await recordFailure(this.db, accountKey, client.ip, now, this.config.throttle.windowMs);
      throw badRequest(MESSAGES.wrongCredentials);
    }
    if (user.disabled) throw new AppError(403, 403, MESSAGES.accountDisabled);

    await clearAccountFailures(this.db, accountKey);
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
    const firstSignIn = user.last_login_at === null;
    await markSignedIn(this.db, user.id, now);
    const info = await this.users.userInfo(user);
    return {
      jwtId,
      result: { ...info, token, jwtId, showGuide: firstSignIn, passwordReset: false, totpBind: false, totpCode: false },
    };
  }

  /** Resolves a bearer token or a `token` cookie (jwtId) to its live session and user. */
  async authenticate(kind: CredentialKind, secret: string): Promise<AuthOutcome> {
    if (!secret || secret.length > 512) return { status: 'invalid' };
    const session = await findSession(this.db, kind, digest(secret));
    const now = Date.now();
    if (!session || session.revoked_at !== null || session.expires_at <= now) return { status: 'invalid' };
    const user = await findUserById(this.db, session.user_id);
    if (!user) return { status: 'invalid' };
    if (user.disabled) return { status: 'disabled', user, session };
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
}
