// 云文档 search calls (api-contract.md, "Search").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { SearchQuerySchema, SearchResultSchema } from './schemas';

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const search = app.services.search;
  const tags = ['搜索'];

  app.get(
    '/User/Search/Files',
    {
      schema: {
        tags,
        summary: '按名称搜索',
        description: '名称包含关键词（不区分大小写，单个汉字亦可）；只返回当前用户可访问的项，不含回收站；默认最近修改的在前。',
        querystring: SearchQuerySchema,
        response: { 200: Envelope(SearchResultSchema) },
      },
    },
    async (req) => ok(await search.files(req.user(), req.query)),
  );
};
