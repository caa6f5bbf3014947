// 云文档 file version calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Envelope, ok } from '../../lib/schema';
import { FileIdParamsSchema, RollbackParamsSchema, SetMasterQuerySchema, VersionIdParamsSchema, VersionListSchema } from './schemas';

export const versionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const versions = app.services.versions;
  const tags = ['文件'];
  const response = { 200: Envelope(VersionListSchema) };
  /** The file a version belongs to (the operation log names the file). */
  const versionItem = async (req: FastifyRequest) => {
    const id = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(id)) return null;
    const row = await app.db.selectFrom('file_versions').select('item_id').where('id', '=', id).executeTakeFirst();
    return row ? Number(row.item_id) : null;
  };

  app.get(
    '/User/Files/:id/Versions',
    { schema: { tags, summary: '文件的版本（最新的在前）', params: FileIdParamsSchema, response } },
    async (req) => ok(await versions.versions(req.user(), req.params.id)),
  );

  app.post(
    '/User/Files/:fileId/VersionRollback/:id',
    {
      config: { davLock: (req) => ({ items: (req.params as { fileId: string }).fileId }), oplog: { action: 'file.version', items: (req) => (req.params as { fileId: string }).fileId, detail: () => ({ change: '回滚到某个版本' }) } },
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
      config: { davLock: async (req) => ({ items: await versionItem(req) }), oplog: { action: 'file.version', items: versionItem, detail: () => ({ change: '设为主版本' }) } },
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
      config: { davLock: async (req) => ({ items: await versionItem(req) }), oplog: { action: 'file.version', items: versionItem, detail: () => ({ change: '删除版本' }) } },
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
