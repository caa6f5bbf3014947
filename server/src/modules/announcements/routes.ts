// 云文档's 系统公告 calls (system administrators only).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { assertSystemAdmin } from '../users/service';
import { AnnouncementBodySchema, AnnouncementPageSchema, AnnouncementSchema, AnnouncementsQuerySchema } from './schemas';

export const announcementsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const announcements = app.services.announcements;
  const tags = ['管理'];
  const only = '仅系统管理员；其他用户得到 HTTP 403、code 40301。';

  app.post(
    '/Admin/Announcements',
    {
      // refused before the body is looked at
      preValidation: async (req) => void assertSystemAdmin(req.user()),
      schema: {
        tags,
        summary: '发送系统公告',
        description: `发给所有在用的人，或所选部门及其下级部门中在用的人；每人收到一条消息（类型 announcement），点开可看全文。标题不超过 100 个字符，正文不超过 2000 个字符。${only}`,
        body: AnnouncementBodySchema,
        response: { 200: Envelope(AnnouncementSchema) },
      },
    },
    async (req) => ok(await announcements.send(req.user(), req.body)),
  );

  app.get(
    '/Admin/Announcements',
    {
      preValidation: async (req) => void assertSystemAdmin(req.user()),
      schema: {
        tags,
        summary: '已发送的系统公告',
        description: `最新的在前，含收到的人数。${only}`,
        querystring: AnnouncementsQuerySchema,
        response: { 200: Envelope(AnnouncementPageSchema) },
      },
    },
    async (req) => ok(await announcements.list(req.user(), req.query)),
  );
};
