// 应用密码 (application passwords) of 云文档: made in 个人设置 for WebDAV clients (issue 29).
// A password is 30 random characters of a 32-letter alphabet (150 bits), shown once in groups
// of five; only its SHA-256 is kept, like sessions' tokens (auth/service.ts `digest`): a secret
// of that strength needs no slow hash. It works for people who sign in through TOTP, DingTalk
// or LDAP alike. Disabling the account and any new password of the account end them all.
//
// HTTP Basic authentication checks them with sign-in's throttling: per account and per address
// (AuthService.assertMayTry / countFailure), so a guesser is locked out exactly as at the
// sign-in page. The account's own password is accepted over WebDAV only where the administrator
// allows it (密码策略 → webdavAccountPassword) and only for people without TOTP
// (AuthService.accountPassword); it gives read-write access, as the web does.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppPasswordScope, Database, UserRow } from '../../db/types';
import { badRequest, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import { digest, type AuthService } from '../auth/service';
import { findUserById, userNameKey } from '../users/repository';
import {
  countLive,
  findBySecretHash,
  insertAppPassword,
  liveAppPasswords,
  revokeAppPassword,
  touchAppPassword,
  type AppPasswordRow,
} from './repository';
import { APP_PASSWORD_NAME_MAX, APP_PASSWORDS_MAX, type AppPassword, type CreateAppPasswordBody, type NewAppPassword } from './schemas';

/** Crockford's base32 in lower case: no i, l, o, u to misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const SECRET_LENGTH = 30;
const GROUP = 5;
/** last_used_at is written at most this often per password (unless the address changes) */
const TOUCH_INTERVAL_MS = 60_000;

/** A new secret: 30 characters, grouped by five with hyphens. */
export function newAppSecret(): string {
  const bytes = crypto.randomBytes(SECRET_LENGTH);
  let out = '';
  for (let i = 0; i < SECRET_LENGTH; i++) {
    if (i && i % GROUP === 0) out += '-';
    out += ALPHABET[bytes[i] & 31];
  }
  return out;
}

/** The secret as stored (hashed): lower case, without hyphens or spaces; null when it cannot be one of ours. */
export function normalizedAppSecret(text: string): string | null {
  const s = text.replace(/[\s-]/g, '').toLowerCase();
  return s.length === SECRET_LENGTH && [...s].every((c) => ALPHABET.includes(c)) ? s : null;
}

export interface BasicClient {
  ip: string;
  userAgent: string;
}

/** What an `Authorization: Basic` header comes to. */
export type BasicOutcome =
  | { status: 'ok'; user: UserRow; scope: AppPasswordScope; /** null: the account's own password */ passwordId: number | null }
  /** no credentials sent: the client is asked for them */
  | { status: 'missing' }
  /** wrong, revoked, or the account may not sign in; `user` when the name is an account's */
  | { status: 'invalid'; userName: string; user: UserRow | null; reason: string };

export const APP_PASSWORD_ONLY = 'WebDAV 只接受应用密码：请在“个人设置 → WebDAV 与应用密码”中创建，用户名为你的登录用户名（管理员未允许使用账号的登录密码）';

/** `user:password` of a Basic header (UTF-8), or null when it is not one. */
export function basicCredentials(header: string | undefined): { userName: string; secret: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!m) return null;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  return { userName: text.slice(0, colon), secret: text.slice(colon + 1) };
}

export class AppPasswordsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly auth: AuthService,
    private readonly formatTime: TimeFormatter,
  ) {}

  private toItem(row: AppPasswordRow): AppPassword {
    return {
      id: String(row.id),
      name: row.name,
      scope: row.scope,
      createdAt: this.formatTime(Number(row.created_at)),
      lastUsedAt: row.last_used_at === null ? null : this.formatTime(Number(row.last_used_at)),
      lastUsedIp: row.last_used_ip,
    };
  }

  /** GET /api/Account/AppPasswords: the live ones, the newest first; never the secret. */
  async list(user: UserRow): Promise<AppPassword[]> {
    return (await liveAppPasswords(this.db, user.id)).map((r) => this.toItem(r));
  }

  /** POST /api/Account/AppPasswords: a new password, returned this once. */
  async create(user: UserRow, body: CreateAppPasswordBody): Promise<NewAppPassword> {
    const name = body.name.normalize('NFC').trim();
    if (!name) throw badRequest('请填写应用密码的名称，例如“家里的电脑”');
    if ([...name].length > APP_PASSWORD_NAME_MAX) throw badRequest(`名称不能超过 ${APP_PASSWORD_NAME_MAX} 个字符`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('名称不能包含控制字符');
    if (body.scope !== 'readOnly' && body.scope !== 'readWrite') throw badRequest('权限只能是只读或读写');
    if ((await countLive(this.db, user.id)) >= APP_PASSWORDS_MAX) throw badRequest(`最多保留 ${APP_PASSWORDS_MAX} 个应用密码，请先撤销不再使用的`);
    const password = newAppSecret();
    const row = await insertAppPassword(this.db, {
      userId: user.id,
      name,
      scope: body.scope,
      secretHash: digest(normalizedAppSecret(password)!),
      now: Date.now(),
    });
    return { ...this.toItem(row), password, userName: user.user_name };
  }

  /** DELETE /api/Account/AppPasswords/{id}: stops working at once; another person's or a revoked one is 404. */
  async revoke(user: UserRow, idText: string): Promise<AppPassword> {
    const id = parseId(idText);
    const row = id === null ? undefined : await revokeAppPassword(this.db, user.id, id, Date.now());
    if (!row) throw notFound('应用密码不存在或已撤销');
    return this.toItem(row);
  }

  /**
   * Checks an `Authorization: Basic` header: the user name and one of that person's live
   * application passwords. 429 (thrown) while sign-ins of the account or from the address are
   * throttled. A wrong password counts as a failed sign-in; a revoked password of the same
   * person does not (it is no guess: a client still holds it), nor a disabled account's.
   */
  async authenticate(header: string | undefined, client: BasicClient): Promise<BasicOutcome> {
    const credentials = basicCredentials(header);
    if (!credentials) return { status: 'missing' };
    const { userName, secret } = credentials;
    const accountKey = userNameKey(userName);
    if (!accountKey || accountKey.length > 200 || secret.length > 512) return { status: 'invalid', userName, user: null, reason: '用户名或应用密码错误' };
    await this.auth.assertMayTry(accountKey, client.ip);
    const normalized = normalizedAppSecret(secret);
    const row = normalized ? await findBySecretHash(this.db, digest(normalized)) : undefined;
    const user = row ? await findUserById(this.db, Number(row.user_id)) : undefined;
    if (!row || !user || user.user_name_key !== accountKey) {
      // not one of the person's application passwords: their account password, where allowed
      const named = await this.db.selectFrom('users').selectAll().where('user_name_key', '=', accountKey).executeTakeFirst();
      const account = named && !named.disabled ? await this.auth.accountPassword(named, secret) : 'off';
      if (account === 'ok') return { status: 'ok', user: named!, scope: 'readWrite', passwordId: null };
      await this.auth.countFailure(accountKey, client.ip);
      const reason =
        account === 'totp'
          ? '该账号已启用动态口令，只能使用应用密码连接 WebDAV（在个人设置中创建）'
          : account === 'expired'
            ? '账号密码需要先在网页登录后修改，或改用应用密码'
            : account === 'wrong'
              ? '用户名或密码错误'
              : normalized
                ? '用户名或应用密码错误'
                : APP_PASSWORD_ONLY;
      return { status: 'invalid', userName, user: named ?? null, reason };
    }
    if (row.revoked_at !== null) return { status: 'invalid', userName, user, reason: '该应用密码已撤销或已因修改密码、停用账号而失效' };
    if (user.disabled) return { status: 'invalid', userName, user, reason: '该账号已被停用，请联系管理员' };
    const now = Date.now();
    const ip = client.ip.slice(0, 64);
    if (row.last_used_at === null || now - Number(row.last_used_at) > TOUCH_INTERVAL_MS || row.last_used_ip !== ip) {
      await touchAppPassword(this.db, Number(row.id), now, ip);
    }
    return { status: 'ok', user, scope: row.scope, passwordId: Number(row.id) };
  }
}
