// 云文档 recycle bin calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { IdListSchema } from '../folders/schemas';
import { PurgeResultSchema, RecycleListSchema, RecycleQuerySchema, RestoreResultSchema } from './schemas';

export const recycleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const recycle = app.services.recycle;
  const tags = ['文件'];

  app.get(
    '/User/Recycle',
    {
      schema: {
        tags,
        summary: '回收站（最近删除的在前）',
        description: '个人空间中自己删除的项，以及企业空间中自己有编辑权限（3 级及以上）的已删除项。',
        querystring: RecycleQuerySchema,
        response: { 200: Envelope(RecycleListSchema) },
      },
    },
    async (req) => ok(await recycle.list(req.user(), req.query)),
  );

  app.post(
    '/User/Recycle/Restore',
    {
      config: { oplog: { action: 'file.restore', items: (req) => req.body as string[] } },
      schema: {
        tags,
        summary: '还原',
        description: '还原到原文件夹；原文件夹已删除时还原到空间根目录；名称已被占用时加（n）。',
        body: IdListSchema,
        response: { 200: Envelope(RestoreResultSchema) },
      },
    },
    async (req) => ok(await recycle.restore(req.user(), req.body)),
  );

  app.delete(
    '/User/Recycle',
    {
      config: { oplog: { action: 'file.purge', items: (req) => req.body as string[] } },
      schema: { tags, summary: '彻底删除', body: IdListSchema, response: { 200: Envelope(PurgeResultSchema) } },
    },
    async (req) => ok(await recycle.purge(req.user(), req.body)),
  );
};
