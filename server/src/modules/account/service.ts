// 个人设置 of 云文档 on the server: the account's security state, its live sessions (listed
// and ended one by one) and its avatar. Password and TOTP changes go through AuthService.
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, SessionRow, UserRow } from '../../db/types';
import { notFound } from '../../lib/errors';
import type { TimeFormatter } from '../../lib/time';
import type { Credentials } from '../auth/credentials';
import { passwordKeptElsewhere } from '../auth/password';
import { avatarName, avatarUrl, type AvatarStore } from './avatars';
import { deviceOf } from './device';
import type { MySession, Security } from './schemas';

const DAY_MS = 24 * 3600 * 1000;

export class AccountService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly credentials: Credentials,
    private readonly avatars: AvatarStore,
    private readonly formatTime: TimeFormatter,
  ) {}

  async security(user: UserRow): Promise<Security> {
    const policy = await this.credentials.policy();
    const changed = user.password_changed_at || user.created_at;
    return {
      totpBound: user.totp_secret !== null,
      totpRequired: policy.totpRequired || user.totp_required === 1,
      passwordChangedAt: this.formatTime(changed),
      passwordExpiresAt: policy.expiryDays > 0 ? this.formatTime(changed + policy.expiryDays * DAY_MS) : null,
      passwordElsewhere: passwordKeptElsewhere(user),
    };
  }

  /** The user's live sessions, the most recently used first. */
  async sessions(user: UserRow, current: SessionRow): Promise<MySession[]> {
    const now = Date.now();
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('client_id', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id', 'desc')
      .limit(200)
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      current: Number(r.id) === Number(current.id),
      createdAt: this.formatTime(Number(r.created_at)),
      lastSeenAt: this.formatTime(Number(r.last_seen_at)),
      ip: r.ip,
      device: deviceOf(r.user_agent),
    }));
  }

  /** Ends one of the user's own sessions (another user's answers as unknown). */
  async endSession(user: UserRow, idText: string): Promise<void> {
    const id = Number(idText);
    const res = await this.db
      .updateTable('sessions')
      .set({ revoked_at: Date.now() })
      .where('id', '=', Number.isSafeInteger(id) ? id : -1)
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw notFound('会话不存在或已结束');
  }

  /** A new avatar: stored re-encoded, then the old one removed. */
  async setAvatar(user: UserRow, bytes: Buffer): Promise<{ avatar: string }> {
    const name = await this.avatars.save(user.id, bytes);
    const avatar = avatarUrl(user.id, name);
    await this.db.updateTable('users').set({ avatar, updated_at: Date.now() }).where('id', '=', user.id).execute();
    await this.avatars.remove(avatarName(user.id, user.avatar));
    return { avatar };
  }

  /** The bytes of a user's current avatar, or 404. */
  async avatarFile(userIdText: string): Promise<Readable> {
    const id = Number(userIdText);
    const row = Number.isSafeInteger(id)
      ? await this.db.selectFrom('users').select(['id', 'avatar']).where('id', '=', id).executeTakeFirst()
      : undefined;
    const name = row ? avatarName(Number(row.id), row.avatar) : null;
    const stream = name ? await this.avatars.open(name) : null;
    if (!stream) throw notFound('头像不存在');
    return stream;
  }
}
