// 云文档 tag calls (api-contract.md, "Favourites and tags").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, IdString, ok } from '../../lib/schema';
import { TagBodySchema, TagFilesBodySchema, TagFilesListSchema, TagFilesQuerySchema, TagSchema } from './schemas';

export const tagsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.tags;
  const tags = ['标签'];
  const Params = Type.Object({ id: IdString() });

  app.get(
    '/User/Tags',
    { schema: { tags, summary: '标签：公共标签和自己的个人标签', response: { 200: Envelope(Type.Array(TagSchema)) } } },
    async (req) => ok(await service.list(req.user())),
  );
  app.post(
    '/User/Tags',
    {
      schema: { tags, summary: '新建标签', description: '公共标签只能由标签管理员创建。', body: TagBodySchema, response: { 200: Envelope(TagSchema) } },
    },
    async (req) => ok(await service.create(req.user(), req.body)),
  );
  app.post(
    '/User/Tags/Files',
    {
      schema: {
        tags,
        summary: '给文件（夹）添加标签',
        description: '公共标签需要对文件（夹）有编辑权限。',
        body: TagFilesBodySchema,
        response: { 200: Envelope(Type.Object({ added: Type.Integer() })) },
      },
    },
    async (req) => ok(await service.tagFiles(req.user(), req.body)),
  );
  app.delete(
    '/User/Tags/Files',
    {
      schema: { tags, summary: '移除文件（夹）的标签', body: TagFilesBodySchema, response: { 200: Envelope(Type.Object({ removed: Type.Integer() })) } },
    },
    async (req) => ok(await service.untagFiles(req.user(), req.body)),
  );
  app.put(
    '/User/Tags/:id',
    { schema: { tags, summary: '修改标签名称和颜色', params: Params, body: TagBodySchema, response: { 200: Envelope(TagSchema) } } },
    async (req) => ok(await service.update(req.user(), req.params.id, req.body)),
  );
  app.delete(
    '/User/Tags/:id',
    { schema: { tags, summary: '删除标签', description: '标签从所有文件上移除。', params: Params, response: { 200: Envelope(Type.Object({ id: IdString() })) } } },
    async (req) => ok(await service.remove(req.user(), req.params.id)),
  );
  app.get(
    '/User/Tags/:id/Files',
    {
      schema: {
        tags,
        summary: '带此标签的文件（夹）（最近添加的在前）',
        params: Params,
        querystring: TagFilesQuerySchema,
        response: { 200: Envelope(TagFilesListSchema) },
      },
    },
    async (req) => ok(await service.files(req.user(), req.params.id, req.query)),
  );
};
