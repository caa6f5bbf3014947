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

  app.get(
    '/Notices/Stream',
    {
      schema: {
        tags,
        summary: '消息推送（server-sent events）',
        description:
          '保持连接：先发送 event: unread（{ unread }），之后每条新消息发送 event: notice（{ unread, notice }），已读或删除后发送 event: unread；每 25 秒一行注释保持连接。实例关闭时连接结束，页面应重新连接（并以较慢的轮询兜底）。',
      },
    },
    async (req, reply) => {
      const user = req.user();
      const res = reply.raw;
      const queued: Array<{ event: string; data: unknown }> = [];
      let send = (event: string, data: unknown) => void queued.push({ event, data });
      const stop = await notices.streams.subscribe(user.id, (m) => {
        if (m.event === 'close') res.end();
        else send(m.event, m.data);
      });
      const unread = await notices.unread(user).catch((err: unknown) => {
        stop();
        throw err;
      });
      reply.hijack();
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache, no-transform',
        // nginx passes each event on at once
        'X-Accel-Buffering': 'no',
        Connection: 'keep-alive',
      });
      send = (event: string, data: unknown) => void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      send('unread', unread);
      for (const m of queued.splice(0)) send(m.event, m.data);
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 25_000);
      res.on('close', () => {
        clearInterval(heartbeat);
        stop();
      });
    },
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
