// 云文档's 消息中心 calls: a person's own notices only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { ChangedSchema, NoticeIdsSchema, NoticePageSchema, NoticesQuerySchema, ReadAllSchema, UnreadSchema } from './schemas';

export const noticesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const notices = app.services.notices;
  const tags = ['消息'];

  app.get(
    '/Notices',
    {
      schema: {
        tags,
        summary: '我的消息',
        description: '最新的在前；kind 按类型筛选，unread=true 只列未读；unread 为全部未读数。',
        querystring: NoticesQuerySchema,
        response: { 200: Envelope(NoticePageSchema) },
      },
    },
    async (req) => ok(await notices.list(req.user(), req.query)),
  );

  app.get(
    '/Notices/UnreadCount',
    { schema: { tags, summary: '未读消息数', response: { 200: Envelope(UnreadSchema) } } },
    async (req) => ok(await notices.unread(req.user())),
  );

  app.post(
    '/Notices/Read',
    { schema: { tags, summary: '标为已读', description: '只影响自己的消息；别人的编号被忽略。', body: NoticeIdsSchema, response: { 200: Envelope(ChangedSchema) } } },
    async (req) => ok(await notices.read(req.user(), req.body.ids)),
  );

  app.post(
    '/Notices/ReadAll',
    { schema: { tags, summary: '全部已读', description: '可按 kind 只标一类。', body: ReadAllSchema, response: { 200: Envelope(ChangedSchema) } } },
    async (req) => ok(await notices.readAll(req.user(), req.body.kind)),
  );

  app.delete(
    '/Notices',
    { schema: { tags, summary: '删除消息', description: '只删除自己的消息。', body: NoticeIdsSchema, response: { 200: Envelope(ChangedSchema) } } },
    async (req) => ok(await notices.remove(req.user(), req.body.ids)),
  );
};
