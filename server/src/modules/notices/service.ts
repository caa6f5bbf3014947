// 云文档's 消息中心: a person's notices, newest first; read, all read, delete. Only ever the
// caller's own notices.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import type { TimeFormatter } from '../../lib/time';
import { pageNotices, unreadCount, type NoticeRow } from './repository';
import type { NoticesQuery } from './schemas';
import { NoticeStreams } from './stream';

export class NoticesService {
  /** the pages open on this instance (/api/Notices/Stream) */
  readonly streams: NoticeStreams;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly formatTime: TimeFormatter,
  ) {
    this.streams = new NoticeStreams(db, {
      unreadOf: (userId) => unreadCount(db, userId),
      noticeOf: async (id) => {
        const row = await db.selectFrom('notices').selectAll().where('id', '=', id).executeTakeFirst();
        return row ? this.toWire(row) : null;
      },
    });
  }

  private toWire(r: NoticeRow) {
    return {
      id: String(r.id),
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      createdAt: this.formatTime(Number(r.created_at)),
      read: r.read_at !== null,
      resolved: r.resolved_at !== null,
      resolution: r.resolution,
    };
  }

  async list(user: UserRow, q: NoticesQuery) {
    const { rows, total } = await pageNotices(this.db, { userId: user.id, kind: q.kind, unread: q.unread }, q.page, q.pageSize);
    return { data: rows.map((r) => this.toWire(r)), total, unread: await unreadCount(this.db, user.id) };
  }

  async unread(user: UserRow): Promise<{ unread: number }> {
    return { unread: await unreadCount(this.db, user.id) };
  }

  async read(user: UserRow, ids: readonly string[]): Promise<{ changed: number }> {
    const r = await this.db
      .updateTable('notices')
      .set({ read_at: Date.now() })
      .where('user_id', '=', user.id)
      .where('id', 'in', ids.map(Number))
      .where('read_at', 'is', null)
      .executeTakeFirst();
    await this.streams.changed(user.id);
    return { changed: Number(r.numUpdatedRows) };
  }

  async readAll(user: UserRow, kind?: string): Promise<{ changed: number }> {
    let q = this.db.updateTable('notices').set({ read_at: Date.now() }).where('user_id', '=', user.id).where('read_at', 'is', null);
    if (kind) q = q.where('kind', '=', kind);
    const r = await q.executeTakeFirst();
    await this.streams.changed(user.id);
    return { changed: Number(r.numUpdatedRows) };
  }

  async remove(user: UserRow, ids: readonly string[]): Promise<{ changed: number }> {
    const r = await this.db.deleteFrom('notices').where('user_id', '=', user.id).where('id', 'in', ids.map(Number)).executeTakeFirst();
    await this.streams.changed(user.id);
    return { changed: Number(r.numDeletedRows) };
  }
}
