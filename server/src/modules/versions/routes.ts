// 云文档 file version calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { FileIdParamsSchema, RollbackParamsSchema, SetMasterQuerySchema, VersionIdParamsSchema, VersionListSchema } from './schemas';

export const versionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const versions = app.services.versions;
  const tags = ['文件'];
  const response = { 200: Envelope(VersionListSchema) };

  app.get(
    '/User/Files/:id/Versions',
    { schema: { tags, summary: '文件的版本（最新的在前）', params: FileIdParamsSchema, response } },
    async (req) => ok(await versions.versions(req.user(), req.params.id)),
  );

  app.post(
    '/User/Files/:fileId/VersionRollback/:id',
    {
      schema: {
        tags,
        summary: '回滚到某个版本',
        description: '以该版本的内容新建一个主版本；需要上传/编辑权限。',
        params: RollbackParamsSchema,
        response,
      },
    },
    async (req) => ok(await versions.rollback(req.user(), req.params.fileId, req.params.id)),
  );

  app.post(
    '/User/Files/Versions/:id/SetMaster',
    {
      schema: {
        tags,
        summary: '设为主版本',
        description: '文件的大小随主版本变化；主版本不能取消（HTTP 400、code 40001）。',
        params: VersionIdParamsSchema,
        querystring: SetMasterQuerySchema,
        response,
      },
    },
    async (req) => ok(await versions.setMaster(req.user(), req.params.id, req.query.isMaster ?? true)),
  );

  app.delete(
    '/User/Files/Versions/:id',
    {
      schema: {
        tags,
        summary: '删除版本',
        description: '主版本不能删除（HTTP 400、code 40001）；返回剩下的版本。',
        params: VersionIdParamsSchema,
        response,
      },
    },
    async (req) => ok(await versions.remove(req.user(), req.params.id)),
  );
};
