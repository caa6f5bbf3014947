// 系统公告 of 云文档 (issue 28): a system administrator sends a 公告 (a title and a plain-text
// body) to every active person or to chosen departments with those below them. The 公告 and its
// event are written in one transaction; the dispatcher makes the notices (kind announcement),
// 500 rows an insert, and records how many people it reached and when. The list pages the 公告
// sent, newest first, with their recipients' count.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest } from '../../lib/errors';
import type { TimeFormatter } from '../../lib/time';
import { recordEvent } from '../notices/events';
import { recordAction } from '../people/repository';
import { assertSystemAdmin } from '../users/service';
import { announcementRecipients, pageAnnouncements, type AnnouncementScope } from './repository';
import { ANNOUNCEMENT_BODY_MAX, ANNOUNCEMENT_TITLE_MAX, type Announcement, type AnnouncementBody, type AnnouncementsQuery } from './schemas';

type AnnouncementRow = Awaited<ReturnType<typeof pageAnnouncements>>['rows'][number];

const length = (text: string) => [...text].length;

export class AnnouncementsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly formatTime: TimeFormatter,
    /** runs after a 公告 was committed (the notice dispatcher is nudged) */
    private readonly afterSend: () => void = () => undefined,
  ) {}

  /** POST /api/Admin/Announcements */
  async send(caller: UserRow, body: AnnouncementBody): Promise<Announcement> {
    assertSystemAdmin(caller);
    const title = body.title.trim();
    if (!title) throw badRequest('请填写公告标题');
    if (length(title) > ANNOUNCEMENT_TITLE_MAX) throw badRequest(`公告标题不能超过 ${ANNOUNCEMENT_TITLE_MAX} 个字符`);
    const text = body.body.replace(/\r\n?/g, '\n').trim();
    if (!text) throw badRequest('请填写公告内容');
    if (length(text) > ANNOUNCEMENT_BODY_MAX) throw badRequest(`公告内容不能超过 ${ANNOUNCEMENT_BODY_MAX} 个字符`);
    const scope: AnnouncementScope = body.scope;
    let departmentIds: number[] = [];
    if (scope === 'departments') {
      departmentIds = [...new Set((body.departmentIds ?? []).map(Number))];
      if (!departmentIds.length) throw badRequest('请选择接收公告的部门');
      const found = await this.db.selectFrom('departments').select('id').where('id', 'in', departmentIds).execute();
      if (found.length !== departmentIds.length) throw badRequest('所选的部门不存在或已被删除，请刷新后重新选择');
    }
    // counted before the transaction (SQLite has one connection); the dispatcher counts again
    const recipients = (await announcementRecipients(this.db, scope, departmentIds)).length;
    if (!recipients) throw badRequest('所选部门及其下级部门中没有在用的人员，公告无人可收');
    const now = Date.now();
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('announcements')
        .values({
          title,
          body: text,
          scope,
          department_ids: JSON.stringify(departmentIds),
          sender_id: caller.id,
          sender_name: caller.nick_name || caller.user_name,
          recipients,
          created_at: now,
          sent_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordEvent(trx, 'announcement.sent', { announcementId: Number(inserted.id) }, now);
      await recordAction(
        trx,
        {
          actorId: caller.id,
          actorName: caller.user_name,
          action: '发送系统公告',
          targetType: 'announcement',
          targetId: String(inserted.id),
          targetName: title,
          detail: scope === 'all' ? `所有人（${recipients} 人）` : `${departmentIds.length} 个部门及其下级部门（${recipients} 人）`,
        },
        now,
      );
      return inserted;
    });
    this.afterSend();
    return (await this.views([row]))[0];
  }

  /** GET /api/Admin/Announcements */
  async list(caller: UserRow, q: AnnouncementsQuery): Promise<{ data: Announcement[]; total: number }> {
    assertSystemAdmin(caller);
    const { rows, total } = await pageAnnouncements(this.db, q.page, q.pageSize);
    return { data: await this.views(rows), total };
  }

  private async views(rows: readonly AnnouncementRow[]): Promise<Announcement[]> {
    const ids = new Map(rows.map((r) => [Number(r.id), (JSON.parse(r.department_ids) as Array<string | number>).map(Number)]));
    const all = [...new Set([...ids.values()].flat())];
    const names = new Map<number, string>();
    if (all.length) for (const d of await this.db.selectFrom('departments').select(['id', 'name']).where('id', 'in', all).execute()) names.set(Number(d.id), d.name);
    return rows.map((r) => ({
      id: String(r.id),
      title: r.title,
      body: r.body,
      scope: r.scope === 'departments' ? 'departments' : 'all',
      departments: (ids.get(Number(r.id)) ?? []).filter((d) => names.has(d)).map((d) => ({ id: String(d), name: names.get(d) ?? '' })),
      senderName: r.sender_name,
      recipients: Number(r.recipients),
      createdAt: this.formatTime(Number(r.created_at)),
      sentAt: r.sent_at === null ? '' : this.formatTime(Number(r.sent_at)),
    }));
  }
}
