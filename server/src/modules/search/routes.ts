// 云文档 search calls (api-contract.md, "Search").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { SearchQuerySchema, SearchResultSchema } from './schemas';

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const search = app.services.search;
  const index = app.services.contentIndex;
  const tags = ['搜索'];

  // the full-text indexer: queued files are read in the background, never on a request
  index.reportTo((err) => app.log.error({ err }, '云文档全文索引处理文件时出错，稍后重试'));
  let timer: NodeJS.Timeout | null = null;
  const tick = () =>
    void index.drain().catch((err: unknown) => app.log.error({ err }, '云文档全文索引后台任务出错，稍后重试'));
  app.addHook('onReady', async () => {
    if (!app.config.searchIndexPollMs) return;
    tick();
    timer = setInterval(tick, app.config.searchIndexPollMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await index.stop();
  });

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

  app.get(
    '/User/Search/Content',
    {
      schema: {
        tags,
        summary: '全文搜索',
        description:
          '文件内的文字包含关键词（txt/md/csv/源代码、pdf、docx、xlsx、pptx 及 ODF，上传或产生新版本后在后台提取）；每项带 highlight（命中处前后的一段文字）。其余同按名称搜索。',
        querystring: SearchQuerySchema,
        response: { 200: Envelope(SearchResultSchema) },
      },
    },
    async (req) => ok(await search.content(req.user(), req.query)),
  );
};
