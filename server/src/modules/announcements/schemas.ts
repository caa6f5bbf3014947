// 云文档's 系统公告 calls (/api/Admin/Announcements; shared/src/api/admin.ts).
import { Type, type Static } from 'typebox';
import { PagingFilled } from '../../lib/paging';

export const ANNOUNCEMENT_TITLE_MAX = 100;
export const ANNOUNCEMENT_BODY_MAX = 2000;
/** Departments one 公告 may name, at most (each with those below it). */
export const ANNOUNCEMENT_DEPARTMENTS_MAX = 200;

const IdText = Type.String({ pattern: '^[0-9]{1,15}$' });

export const AnnouncementBodySchema = Type.Object({
  // lengths are checked in characters by the service (with its own messages)
  title: Type.String({ maxLength: 1000, description: `标题，1–${ANNOUNCEMENT_TITLE_MAX} 个字符` }),
  body: Type.String({ maxLength: 10000, description: `正文，1–${ANNOUNCEMENT_BODY_MAX} 个字符，纯文本（换行保留）` }),
  scope: Type.Union([Type.Literal('all'), Type.Literal('departments')], { description: 'all：所有在用的人；departments：所选部门及其下级部门的在用的人' }),
  departmentIds: Type.Optional(Type.Array(IdText, { maxItems: ANNOUNCEMENT_DEPARTMENTS_MAX, description: 'scope 为 departments 时必填' })),
});
export type AnnouncementBody = Static<typeof AnnouncementBodySchema>;

export const AnnouncementSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  body: Type.String(),
  scope: Type.Union([Type.Literal('all'), Type.Literal('departments')]),
  departments: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), { description: '所选部门（已删除的部门不再列出）' }),
  senderName: Type.String(),
  recipients: Type.Integer({ description: '收到的人数：发送时估计，消息送出后为实际人数' }),
  createdAt: Type.String({ description: 'yyyy-MM-dd HH:mm:ss' }),
  sentAt: Type.String({ description: '消息送出的时间，送出前为空' }),
});
export type Announcement = Static<typeof AnnouncementSchema>;

export const AnnouncementPageSchema = Type.Object({ data: Type.Array(AnnouncementSchema), total: Type.Integer() });

export const AnnouncementsQuerySchema = Type.Object({ ...PagingFilled(20, 100) });
export type AnnouncementsQuery = Static<typeof AnnouncementsQuerySchema>;
