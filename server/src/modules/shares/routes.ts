// 云文档 share calls (api-contract.md, "Sharing"): the creator's share records, the recipient's
// 与我共享, and the external visitor's calls (no session: the key in the `accessKey` header, or
// the `accessKey` query on plain browser downloads).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Envelope, ok } from '../../lib/schema';
import { sendContent, startsDownload } from '../downloads/http';
import { DownloadParamsSchema, DownloadStatusSchema, DownloadTaskBodySchema, DownloadTaskSchema } from '../downloads/schemas';
import { FolderItemsSchema } from '../folders/schemas';
import {
  AccessKeyQuerySchema,
  CreatedShareSchema,
  CreateShareBodySchema,
  ExternalDownloadQuerySchema,
  ExternalTaskParamsSchema,
  OutsourceInfoSchema,
  OutsourceItemsQuerySchema,
  PageQuerySchema,
  ShareEventsPageSchema,
  ShareIdsBodySchema,
  SharePageSchema,
  ShareParamsSchema,
  UpdatedShareSchema,
  UpdateShareBodySchema,
} from './schemas';
import { SharesService, type ShareVisitor } from './service';

/** Who may fetch the zip tasks of an external share's visitors. */
export function shareTaskOwner(shareId: string): string {
  return `s:${shareId}`;
}

/** The path of an external share's zip task file (the key is added by the page). */
export function externalTaskFileUrl(shareId: string, taskId: string): string {
  return `/api/User/FileTransfer/External/${shareId}/DownloadTasks/${taskId}/File`;
}

export const sharesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const shares = app.services.shares;
  const downloads = app.services.downloads;
  const tags = ['分享'];
  const external = { public: true };
  const outsider = (req: FastifyRequest, query?: { accessKey?: string }): ShareVisitor => ({
    user: null,
    accessKey: SharesService.keyOf(req.headers, query),
    address: req.ip,
  });
  const gone = '分享不存在、已取消、已过期或下载次数已用完时 HTTP 401（code 401，message“指定的分享不存在或已过期。”）。';
  const keyRules = '提取码放在请求头 accessKey 中；缺少或错误时 HTTP 403（code 40302），同一地址多次错误后 HTTP 429。';

  app.post(
    '/User/Shares',
    {
      config: { oplog: { action: 'share.create', items: (req) => (req.body as { fileIds: string[] }).fileIds, detail: (req) => { const b = req.body as { shareType: number; level: number }; return { shareType: b.shareType, level: b.level }; } } },
      schema: {
        tags,
        summary: '新建分享',
        description:
          '内部分享（shareType 1）给用户、部门或用户组；外链分享（shareType 2）生成 /s/{shareId} 与提取码（只返回这一次）。' +
          '每一项都必须可见（否则 404），且分享人对它的权限不低于分享的权限（否则 HTTP 403、code 40301）。',
        body: CreateShareBodySchema,
        response: { 200: Envelope(CreatedShareSchema) },
      },
    },
    async (req) => ok(await shares.create(req.user(), req.body)),
  );

  app.get(
    '/User/Shares/Sent',
    { schema: { tags, summary: '分享记录（我发出的分享）', querystring: PageQuerySchema, response: { 200: Envelope(SharePageSchema) } } },
    async (req) => ok(await shares.sent(req.user(), req.query.page, req.query.pageSize)),
  );

  app.get(
    '/User/Shares/Received',
    {
      schema: {
        tags,
        summary: '与我共享',
        description: '分享给我、我所在部门（含上级部门）或我所在用户组、且当前有效的内部分享。',
        querystring: PageQuerySchema,
        response: { 200: Envelope(SharePageSchema) },
      },
    },
    async (req) => ok(await shares.received(req.user(), req.query.page, req.query.pageSize)),
  );

  app.put(
    '/User/Shares/:shareId',
    {
      config: { oplog: { action: 'share.change', object: (req) => ({ type: 'share', id: (req.params as { shareId: string }).shareId, name: '' }), detail: (req) => ({ change: req.body as Record<string, unknown> }) } },
      schema: {
        tags,
        summary: '修改分享',
        description: '只有分享人能修改（其他人 404）；已取消的分享不能修改。',
        params: ShareParamsSchema,
        body: UpdateShareBodySchema,
        response: { 200: Envelope(UpdatedShareSchema) },
      },
    },
    async (req) => ok(await shares.update(req.user(), req.params.shareId, req.body)),
  );

  app.delete(
    '/User/Shares',
    {
      config: { oplog: { action: 'share.cancel', detail: (req) => ({ shareIds: req.body as string[] }) } },
      schema: {
        tags,
        summary: '取消分享',
        description: '立即生效；每个 id 都必须是自己的分享（否则 404，且什么也不改变）。',
        body: ShareIdsBodySchema,
      },
    },
    async (req) => ok(await shares.cancel(req.user(), req.body)),
  );

  app.get(
    '/User/Shares/:shareId/Events',
    {
      schema: {
        tags,
        summary: '分享的访问记录',
        description: '通过该分享的每次访问、下载和上传（只有分享人能查看）。',
        params: ShareParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: Envelope(ShareEventsPageSchema) },
      },
    },
    async (req) => ok(await shares.events(req.user(), req.params.shareId, req.query.page, req.query.pageSize)),
  );

  // ---- external visitors ------------------------------------------------------------------

  app.get(
    '/Outsource/:shareId',
    {
      config: external,
      schema: {
        tags,
        summary: '外链分享的基本信息',
        description: `不带提取码时只返回分享人、有效期与权限（needKey 为 true）；带正确的提取码时还返回名称并记一次访问。${gone}${keyRules}`,
        params: ShareParamsSchema,
        response: { 200: Envelope(OutsourceInfoSchema) },
      },
    },
    async (req) => ok(await shares.info(req.params.shareId, outsider(req))),
  );

  app.get(
    '/Outsource/:shareId/Items',
    {
      config: external,
      schema: {
        tags,
        summary: '外链分享的文件夹内容',
        description: `不传 folderId 为分享的顶层；分享范围以外的 id 一律 404。路径从分享的文件夹开始。${gone}${keyRules}`,
        params: ShareParamsSchema,
        querystring: OutsourceItemsQuerySchema,
        response: { 200: Envelope(FolderItemsSchema) },
      },
    },
    async (req) => {
      const scope = await shares.open(req.params.shareId, outsider(req));
      return ok(await shares.items(scope, req.query.folderId, req.query));
    },
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/User/FileTransfer/ExternalDownload/:fileId',
    config: {
      ...external,
      oplog: {
        action: 'share.download',
        itemsFromHandler: true,
        items: (req) => (req.params as { fileId: string }).fileId,
        detail: (req) => ({ shareId: (req.query as { urlKey: string }).urlKey, external: true }),
        // one record per download started (not per HEAD or resumed range)
        when: (ok, _r, _s, req) => (!ok || startsDownload(req) ? 'share.download' : null),
      },
    },
    schema: {
      tags,
      summary: '外链分享的文件下载',
      description:
        `urlKey 为分享 id，提取码放在 accessKey 查询参数或请求头中。只能下载分享范围内的文件（其余 404）；只能预览的分享 HTTP 403（code 40301）。` +
        `每次下载计入下载次数（HEAD 与从中间继续的 Range 请求不计）。${gone}`,
      params: DownloadParamsSchema,
      querystring: ExternalDownloadQuerySchema,
    },
    handler: async (req, reply) => {
      const scope = await shares.open(req.query.urlKey, outsider(req, req.query));
      req.oplog.onBehalf = { id: Number(scope.owner.id), name: scope.owner.user_name };
      const content = await downloads.fileContent(scope.owner, req.params.fileId, undefined, scope.rights);
      if (startsDownload(req)) await shares.countDownload(scope, { id: Number(req.params.fileId), name: content.fileName });
      return sendContent(req, reply, content);
    },
  });

  app.post(
    '/User/FileTransfer/External/:shareId/DownloadTask',
    {
      config: {
        ...external,
        oplog: { action: 'share.download', items: (req) => req.body as string[], detail: (req) => ({ shareId: (req.params as { shareId: string }).shareId, external: true, zip: true }) },
      },
      schema: {
        tags,
        summary: '外链分享的打包下载',
        description: `每一项都必须在分享范围内（否则 404）且分享允许下载（否则 HTTP 403、code 40301）；计一次下载。${gone}${keyRules}`,
        params: ShareParamsSchema,
        body: DownloadTaskBodySchema,
        response: { 200: Envelope(DownloadTaskSchema) },
      },
    },
    async (req) => {
      const scope = await shares.open(req.params.shareId, outsider(req));
      req.oplog.onBehalf = { id: Number(scope.owner.id), name: scope.owner.user_name };
      const task = await downloads.createTask(scope.owner, req.body, { rights: scope.rights, owner: shareTaskOwner(scope.share.id) });
      await shares.countDownload(scope, { id: null, name: (await downloads.tasks.get(shareTaskOwner(scope.share.id), task.taskId))?.fileName ?? '' });
      return ok(task);
    },
  );

  app.get(
    '/User/FileTransfer/External/:shareId/DownloadTasks/:taskId/Status',
    {
      config: external,
      schema: {
        tags,
        summary: '外链分享打包下载的进度',
        description: `downloadUrl 不含提取码，下载时加上 accessKey 查询参数。${gone}${keyRules}`,
        params: ExternalTaskParamsSchema,
        response: { 200: Envelope(DownloadStatusSchema) },
      },
    },
    async (req) => {
      const scope = await shares.open(req.params.shareId, outsider(req));
      return ok(await downloads.status(shareTaskOwner(scope.share.id), req.params.taskId, (id) => externalTaskFileUrl(scope.share.id, id)));
    },
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/User/FileTransfer/External/:shareId/DownloadTasks/:taskId/File',
    config: external,
    schema: {
      tags,
      summary: '下载外链分享打包好的压缩包',
      description: `提取码放在 accessKey 查询参数或请求头中；支持 Range。${gone}`,
      params: ExternalTaskParamsSchema,
      querystring: AccessKeyQuerySchema,
    },
    handler: async (req, reply) => {
      const scope = await shares.open(req.params.shareId, outsider(req, req.query));
      return sendContent(req, reply, await downloads.taskContent(shareTaskOwner(scope.share.id), req.params.taskId));
    },
  });
};
