// 云文档's 消息中心 calls (/api/Notices; shared/src/notices.ts).
import { Type, type Static } from 'typebox';
import { PagingFilled } from '../../lib/paging';

export const NOTICE_KINDS = [
  'approval.waiting',
  'approval.cc',
  'approval.approved',
  'approval.rejected',
  'approval.returned',
  'approval.sentback',
  'approval.remind',
  'share.received',
  'link.uploaded',
  'ferry.waiting',
  'ferry.blocked',
  'ferry.delivered',
  'ferry.downloaded',
  'ferry.arrived',
  'registration.waiting',
  'quota.warning',
  'password.expiring',
  'totp.reset',
  'announcement',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The kinds that ask for prompt attention: a channel beside the bell (mail) sends these at once. */
export const URGENT_KINDS: readonly NoticeKind[] = ['approval.waiting', 'approval.returned', 'approval.remind', 'ferry.waiting', 'ferry.arrived'];

export const NoticeSchema = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: `${NOTICE_KINDS.join('、')}` }),
  title: Type.String(),
  body: Type.String(),
  link: Type.String({ description: '打开相关页面的路由，没有时为空' }),
  createdAt: Type.String({ description: 'yyyy-MM-dd HH:mm:ss' }),
  read: Type.Boolean(),
  resolved: Type.Boolean({ description: '所要求的操作已完成（已处理、已由他人处理、申请已撤回等），见 resolution' }),
  resolution: Type.String(),
});

export const NoticePageSchema = Type.Object({ data: Type.Array(NoticeSchema), total: Type.Integer(), unread: Type.Integer() });

export const NoticesQuerySchema = Type.Object({
  ...PagingFilled(20, 100),
  kind: Type.Optional(Type.Union(NOTICE_KINDS.map((k) => Type.Literal(k)))),
  unread: Type.Optional(Type.Boolean({ description: 'true：只列未读' })),
});
export type NoticesQuery = Static<typeof NoticesQuerySchema>;

export const NoticeIdsSchema = Type.Object({ ids: Type.Array(Type.String({ pattern: '^[0-9]{1,15}$' }), { minItems: 1, maxItems: 500 }) });
export const ReadAllSchema = Type.Object({ kind: Type.Optional(Type.Union(NOTICE_KINDS.map((k) => Type.Literal(k)))) });
export const UnreadSchema = Type.Object({ unread: Type.Integer() });
export const ChangedSchema = Type.Object({ changed: Type.Integer({ description: '受影响的通知数' }) });
