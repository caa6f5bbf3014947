// 云文档 file and folder calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { CreateFileBodySchema, FolderItemsSchema, ItemSchema, ItemsParamsSchema, ItemsQuerySchema } from './schemas';

export const foldersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const folders = app.services.folders;

  app.get(
    '/User/Folders/Personal/RootFolders',
    { schema: { tags: ['文件'], summary: '个人空间根目录', response: { 200: Envelope(Type.Array(ItemSchema)) } } },
    async (req) => ok(await folders.personalRoots(req.user())),
  );

  app.get(
    '/User/Folders/Public/RootFolders',
    { schema: { tags: ['文件'], summary: '企业空间根目录', response: { 200: Envelope(Type.Array(ItemSchema)) } } },
    async (req) => ok(await folders.publicRoots(req.user())),
  );

  app.get(
    '/User/Folders/:parentId/Items',
    {
      schema: {
        tags: ['文件'],
        summary: '文件夹内容（分页、排序、按名称筛选，文件夹在前）',
        params: ItemsParamsSchema,
        querystring: ItemsQuerySchema,
        response: { 200: Envelope(FolderItemsSchema) },
      },
    },
    async (req) => ok(await folders.listItems(req.user(), req.params.parentId, req.query)),
  );

  app.post(
    '/User/Files/CreateFile',
    {
      schema: {
        tags: ['文件'],
        summary: '新建文件夹或空文件',
        body: CreateFileBodySchema,
        response: { 200: Envelope(ItemSchema) },
      },
    },
    async (req) => ok(await folders.createFile(req.user(), req.body)),
  );
};
