// 云文档's operation log calls: the log page (系统管理 → 操作日志), its check and export;
// 文件动态 of an item; 登录记录 of oneself.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { forbidden } from '../../lib/errors';
import { Envelope, ok } from '../../lib/schema';
import { contentDisposition } from '../downloads/http';
import { IdParamsSchema } from '../folders/schemas';
import { OPLOG_ACTIONS, OPLOG_GROUPS } from './actions';
import { ActionCatalogSchema, ChainCheckSchema, OplogExportQuerySchema, OplogPageSchema, OplogQuerySchema, PageQuerySchema } from './schemas';

export const oplogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { oplog, folders } = app.services;
  const tags = ['操作日志'];
  const readers = '系统管理员与审计管理员看到全部记录，部门管理员看到其管理的部门（含下级）中人员的记录；其他人 HTTP 403。';

  app.get(
    '/Admin/OperationLogs',
    {
      schema: {
        tags,
        summary: '操作日志',
        description: `最新的在前；按时间范围、人员、部门（含下级）、操作或分类、对象、地址与结果筛选。total 最多数到 10000，more 表示还有更多。${readers}`,
        querystring: OplogQuerySchema,
        response: { 200: Envelope(OplogPageSchema) },
      },
    },
    async (req) => ok(await oplog.list(req.user(), req.query)),
  );

  app.get(
    '/Admin/OperationLogs/Actions',
    { schema: { tags, summary: '操作日志的操作类型与分类', response: { 200: Envelope(ActionCatalogSchema) } } },
    async () =>
      ok({
        actions: Object.entries(OPLOG_ACTIONS).map(([code, name]) => ({ code, name })),
        groups: Object.entries(OPLOG_GROUPS).map(([code, name]) => ({ code: `${code}.`, name })),
      }),
  );

  app.get(
    '/Admin/OperationLogs/Verify',
    {
      schema: {
        tags,
        summary: '校验操作日志的完整性',
        description: '重新计算哈希链：记录被修改、删除或插入时指出第一处位置。只有系统管理员与审计管理员可以调用。',
        response: { 200: Envelope(ChainCheckSchema) },
      },
    },
    async (req) => ok(await oplog.verify(req.user())),
  );

  app.get(
    '/Admin/OperationLogs/Export',
    {
      schema: {
        tags,
        summary: '导出操作日志',
        description: `按筛选条件导出全部匹配记录（不分页），CSV（UTF-8 带 BOM）或 Excel（xlsx），流式输出。可用 Cookie token 认证。${readers}`,
        querystring: OplogExportQuerySchema,
      },
    },
    async (req, reply) => {
      const { stream, fileName, contentType } = await oplog.export(req.user(), req.query);
      reply.header('content-disposition', contentDisposition(fileName));
      reply.header('cache-control', 'private, no-cache');
      reply.type(contentType);
      return reply.send(stream);
    },
  );

  app.get(
    '/Account/SignIns',
    {
      schema: {
        tags,
        summary: '我的登录记录',
        description: '本人的登录、登录失败、锁定、退出、修改密码与动态口令的记录，含地址与设备，最新的在前。',
        querystring: PageQuerySchema,
        response: { 200: Envelope(OplogPageSchema) },
      },
    },
    async (req) => ok(await oplog.mySignIns(req.user(), req.query.page, req.query.pageSize)),
  );

  app.get(
    '/User/Files/:id/Activity',
    {
      schema: {
        tags,
        summary: '文件动态',
        description: '谁上传、修改、分享、下载了这个文件（文件夹：包括其中的所有项），最新的在前。需要对该项有管理权限（HTTP 403）。',
        params: IdParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: Envelope(OplogPageSchema) },
      },
    },
    async (req) => {
      const user = req.user();
      const item = await folders.getItem(user, req.params.id);
      if (!item.permissions?.includes('manage')) throw forbidden('只有能管理该文件的人可以查看文件动态');
      const row = await app.db.selectFrom('items').select('id_path').where('id', '=', Number(req.params.id)).executeTakeFirstOrThrow();
      return ok(await oplog.activity({ idPath: row.id_path }, req.query.page, req.query.pageSize));
    },
  );
};
