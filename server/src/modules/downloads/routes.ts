// 云文档 download calls (api-contract.md, "Download"; docs/integration.md, "Download (issue 4)").
// The byte routes accept the bearer header or the `token` cookie (a download in a hidden frame
// carries no header); they answer raw bytes, and every refusal in the envelope.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { sendContent, startsDownload } from './http';
import { userTaskOwner } from './service';
import {
  DownloadParamsSchema,
  DownloadQuerySchema,
  DownloadStatusSchema,
  DownloadTaskBodySchema,
  DownloadTaskQuerySchema,
  DownloadTaskSchema,
  TaskParamsSchema,
} from './schemas';

export const downloadsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const downloads = app.services.downloads;
  const tags = ['文件'];
  downloads.tasks.log = (err, message) => app.log.error({ err }, message);
  // this instance takes queued tasks (its own and other instances') and beats for its builds
  app.addHook('onReady', async () => downloads.tasks.start());
  app.addHook('onClose', async () => downloads.close());

  // GET and HEAD in one route: Fastify's own HEAD route would read the whole file and answer
  // Content-Length 0
  app.route({
    method: ['GET', 'HEAD'],
    url: '/User/FileTransfer/Download/:fileId',
    config: {
      oplog: {
        action: 'file.download',
        itemsFromHandler: true,
        items: (req) => (req.params as { fileId: string }).fileId,
        detail: (req) => ({ shareId: (req.query as { shareId?: string }).shareId, versionId: (req.query as { versionId?: string }).versionId }),
        // one record per download started (not per HEAD or resumed range)
        when: (ok, _r, _s, req) => (!ok || startsDownload(req) ? ((req.query as { shareId?: string }).shareId ? 'share.download' : 'file.download') : null),
      },
    },
    schema: {
      tags,
      summary: '下载文件',
      description:
        '返回文件内容本身（不是 JSON）：默认主版本，versionId 指定某个版本。需要下载权限（HTTP 403、code 40301）。' +
        '支持 HEAD、ETag/If-None-Match（304）、单个 Range（206，无法满足时 416）与 If-Range；多个范围时返回完整内容。' +
        '可用 Cookie token 认证（隐藏框架下载）。文件夹与快捷方式不能直接下载（HTTP 400、code 40001）。',
      params: DownloadParamsSchema,
      querystring: DownloadQuerySchema,
    },
    handler: async (req, reply) => {
      const { shareId, versionId } = req.query;
      if (!shareId) return sendContent(req, reply, await downloads.fileContent(req.user(), req.params.fileId, versionId));
      const shares = app.services.shares;
      const scope = await shares.open(shareId, { user: req.user(), address: req.ip });
      const content = await downloads.fileContent(scope.owner, req.params.fileId, versionId, scope.rights);
      if (startsDownload(req)) await shares.countDownload(scope, { id: Number(req.params.fileId), name: content.fileName });
      return sendContent(req, reply, content);
    },
  });

  app.post(
    '/User/FileTransfer/DownloadTask',
    {
      config: { oplog: { action: 'file.zip', items: (req) => req.body as string[], detail: (req) => ({ shareId: (req.query as { shareId?: string }).shareId }) } },
      schema: {
        tags,
        summary: '创建打包下载任务',
        description:
          '每一项都必须可见（否则 404）且有下载权限（否则 HTTP 403、code 40301）；文件夹内只打包有下载权限的文件和文件夹，快捷方式不打包。' +
          '压缩包在后台生成，用状态接口查询进度。',
        querystring: DownloadTaskQuerySchema,
        body: DownloadTaskBodySchema,
        response: { 200: Envelope(DownloadTaskSchema) },
      },
    },
    async (req) => {
      const user = req.user();
      if (!req.query.shareId) return ok(await downloads.createTask(user, req.body));
      const shares = app.services.shares;
      const scope = await shares.open(req.query.shareId, { user, address: req.ip });
      const owner = userTaskOwner(user.id);
      const task = await downloads.createTask(scope.owner, req.body, { rights: scope.rights, owner });
      await shares.countDownload(scope, { id: null, name: (await downloads.tasks.get(owner, task.taskId))?.fileName ?? '' });
      return ok(task);
    },
  );

  app.get(
    '/User/FileTransfer/DownloadTasks/:taskId/Status',
    {
      schema: {
        tags,
        summary: '打包下载任务的进度',
        description: 'percent 为 100 时 downloadUrl 给出压缩包地址；state 为 failed 时打包失败，error 说明原因。只有创建任务的用户能查询。',
        params: TaskParamsSchema,
        response: { 200: Envelope(DownloadStatusSchema) },
      },
    },
    async (req) => ok(await downloads.status(userTaskOwner(req.user().id), req.params.taskId)),
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/User/FileTransfer/DownloadTasks/:taskId/File',
    schema: {
      tags,
      summary: '下载打包好的压缩包',
      description: '只有创建任务的用户能下载（其他用户 404）；可用 Cookie token 认证；支持 HEAD 与 Range。压缩包在完成 1 小时后删除。',
      params: TaskParamsSchema,
    },
    handler: async (req, reply) => sendContent(req, reply, await downloads.taskContent(userTaskOwner(req.user().id), req.params.taskId)),
  });
};
