// 云文档 exchange space and ferry calls (api-contract.md, "Approvals, exchange space and ferry";
// docs/integration.md, "File ferry").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { contentDisposition, sendContent, startsDownload } from '../downloads/http';
import { KNOWN_TYPES } from './filetype';
import { PUSH_CONTENT_TYPE } from './push';
import {
  AuditPageSchema,
  AuditQuerySchema,
  AuditVerifySchema,
  CreatedTaskSchema,
  CreateTaskBodySchema,
  ExportQuerySchema,
  InboxDownloadQuerySchema,
  InboxPageSchema,
  InboxParamsSchema,
  InboxQuerySchema,
  PreviewBodySchema,
  PreviewSchema,
  SettingsSchema,
  SettingsViewSchema,
  StatsQuerySchema,
  StatsSchema,
  TaskDetailSchema,
  TaskPageSchema,
  TaskParamsSchema,
  TasksQuerySchema,
  ZonesSchema,
} from './schemas';
import { FerryWorker } from './worker';

export const ferryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ferry, ferryInbox: inbox, ferryReport: report, workflow } = app.services;
  const tags = ['交换空间与文件摆渡'];
  const adminOnly = '只有系统管理员可以调用（否则 HTTP 403、code 40301）。';

  const worker = new FerryWorker(app.db, ferry, inbox, (err, step) => app.log.error({ err, step }, '云文档文件摆渡后台任务出错，稍后重试'));
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    void worker.tick();
    timer = setInterval(() => void worker.tick(), app.config.ferry.pollMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await worker.tick().catch(() => undefined);
  });

  app.get(
    '/Ferry/Zones',
    { schema: { tags, summary: '本区域与可摆渡到的区域', description: '以及文件摆渡页上传新文件的个人空间文件夹（没有个人空间时为空字符串）。', response: { 200: Envelope(ZonesSchema) } } },
    async (req) => ok(await ferry.zones(req.user())),
  );

  app.post(
    '/Ferry/FerryTasks',
    {
      schema: {
        tags,
        summary: '发起文件摆渡',
        description:
          '计算每个文件的 SHA-256，按摆渡设置检查类型（按内容识别）、大小、数量、敏感词与病毒；有文件未通过时任务为 blocked（instanceId 为空），否则进入该方向的审批流程（pending）。',
        body: CreateTaskBodySchema,
        response: { 200: Envelope(CreatedTaskSchema) },
      },
    },
    async (req) => ok(await ferry.create(req.user(), req.body)),
  );

  app.get(
    '/Ferry/FerryTasks',
    { schema: { tags, summary: '我的摆渡', querystring: TasksQuerySchema, response: { 200: Envelope(TaskPageSchema) } } },
    async (req) => ok(await ferry.list(req.user(), req.query)),
  );

  app.get(
    '/Ferry/FerryTasks/:taskId',
    {
      schema: {
        tags,
        summary: '摆渡任务详情',
        description: '每个文件的哈希、实际类型、检查结果与敏感词命中，以及任务的全部经过。申请人、其审批的参与者与系统管理员可以查看，其他人得到 404。',
        params: TaskParamsSchema,
        response: { 200: Envelope(TaskDetailSchema) },
      },
    },
    async (req) => ok(await ferry.detail(req.user(), req.params.taskId)),
  );

  app.post(
    '/Ferry/FerryTasks/:taskId/Cancel',
    {
      schema: { tags, summary: '取消摆渡', description: '申请人在检查中或审批中可以取消（撤销其审批）。', params: TaskParamsSchema, response: { 200: Envelope(TaskDetailSchema) } },
    },
    async (req) => ok(await ferry.cancel(req.user(), req.params.taskId)),
  );

  app.post(
    '/Ferry/FerryFiles/PreviewInProcessing',
    {
      schema: {
        tags,
        summary: '审批中预览文件',
        description: '审批人（及系统管理员）查看提交的那个版本；返回的 url 以 Cookie 认证，在浏览器中打开（图片、PDF、文本等直接显示），文件不离开本区域。',
        body: PreviewBodySchema,
        response: { 200: Envelope(PreviewSchema) },
      },
    },
    async (req) => ok(await ferry.preview(req.user(), req.body)),
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/Ferry/FerryFiles/:taskId/:fileId/Content',
    schema: {
      tags,
      summary: '审批中文件的内容',
      description: '提交摆渡时的那个版本（不是 JSON）；只在审批中可用。可用 Cookie token 认证。',
      params: Type.Object({ taskId: TaskParamsSchema.properties.taskId, fileId: PreviewBodySchema.properties.fileId }),
    },
    handler: async (req, reply) => sendContent(req, reply, await ferry.previewContent(req.user(), req.params.taskId, req.params.fileId)),
  });

  app.get(
    '/Ferry/Inbox',
    { schema: { tags, summary: '收到的文件', description: '从其他区域摆渡给调用者的文件，最新的在前。', querystring: InboxQuerySchema, response: { 200: Envelope(InboxPageSchema) } } },
    async (req) => ok(await inbox.list(req.user(), req.query.page, req.query.pageSize)),
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: '/Ferry/Inbox/:id/Download',
    schema: {
      tags,
      summary: '下载收到的文件',
      description: '带 index 时下载该文件（支持断点续传），不带时把全部文件打包为 zip。过期或被移除后 HTTP 410。第一次下载会告知发送方。可用 Cookie token 认证。',
      params: InboxParamsSchema,
      querystring: InboxDownloadQuerySchema,
    },
    handler: async (req, reply) => {
      const user = req.user();
      if (req.query.index !== undefined) {
        const { content, row } = await inbox.fileContent(user, req.params.id, req.query.index);
        if (startsDownload(req)) await inbox.noteDownload(user, row, content.fileName);
        return sendContent(req, reply, content);
      }
      const { stream, fileName, row } = await inbox.zip(user, req.params.id);
      if (req.method === 'GET') await inbox.noteDownload(user, row, fileName);
      reply.header('content-disposition', contentDisposition(fileName));
      reply.header('cache-control', 'private, no-cache');
      reply.type('application/zip');
      return reply.send(req.method === 'HEAD' ? undefined : stream);
    },
  });

  app.delete(
    '/Ferry/Inbox/:id',
    { schema: { tags, summary: '移除收到的文件', description: '到期前由接收人移除；文件从本区域删除并告知发送方。', params: InboxParamsSchema, response: { 200: Envelope(Type.Object({ id: Type.String() })) } } },
    async (req) => ok(await inbox.remove(req.user(), req.params.id)),
  );

  const settingsView = async () => ({
    ...(await ferry.settings.get()),
    zone: ferry.zone,
    peers: app.config.ferry.peers.map((p) => ({ zone: p.zone, channel: p.channel })),
    secretConfigured: app.config.ferry.secret !== null,
    antivirusEngine: await ferry.scanner.engine(),
    antivirusMissing: await ferry.scanner.missing(),
    knownTypes: Object.keys(KNOWN_TYPES),
  });

  app.get(
    '/Ferry/Settings',
    { schema: { tags, summary: '摆渡设置', description: adminOnly, response: { 200: Envelope(SettingsViewSchema) } } },
    async (req) => {
      ferry.requireAdmin(req.user());
      return ok(await settingsView());
    },
  );

  app.put(
    '/Ferry/Settings',
    {
      schema: {
        tags,
        summary: '保存摆渡设置',
        description: `方向与审批流程、各项检查（可分别开关）、过期天数、审计保留天数（至少 180 天）。每次修改都记入审计日志。${adminOnly}`,
        body: SettingsSchema,
        response: { 200: Envelope(SettingsViewSchema) },
      },
    },
    async (req) => {
      const user = req.user();
      ferry.requireAdmin(user);
      await ferry.settings.save(user, req.body, (id) => workflow.definitionUsable(id));
      return ok(await settingsView());
    },
  );

  app.get(
    '/Ferry/Audit',
    { schema: { tags, summary: '摆渡审计日志', description: adminOnly, querystring: AuditQuerySchema, response: { 200: Envelope(AuditPageSchema) } } },
    async (req) => {
      ferry.requireAdmin(req.user());
      return ok(await report.list(req.query));
    },
  );

  app.get(
    '/Ferry/Audit/Verify',
    { schema: { tags, summary: '校验审计日志的完整性', description: `重新计算哈希链，指出第一条被修改、删除或插入的记录。${adminOnly}`, response: { 200: Envelope(AuditVerifySchema) } } },
    async (req) => {
      ferry.requireAdmin(req.user());
      return ok(await report.verify());
    },
  );

  app.get(
    '/Ferry/Audit/Stats',
    { schema: { tags, summary: '摆渡统计', description: adminOnly, querystring: StatsQuerySchema, response: { 200: Envelope(StatsSchema) } } },
    async (req) => {
      ferry.requireAdmin(req.user());
      return ok(await report.stats(req.query));
    },
  );

  app.get(
    '/Ferry/Audit/Export',
    { schema: { tags, summary: '导出审计日志', description: `CSV（UTF-8 带 BOM）或 Excel（xlsx），按筛选条件，流式输出。可用 Cookie token 认证。${adminOnly}`, querystring: ExportQuerySchema } },
    async (req, reply) => {
      ferry.requireAdmin(req.user());
      const { stream, fileName, contentType } = report.export(req.query);
      reply.header('content-disposition', contentDisposition(fileName));
      reply.header('cache-control', 'private, no-cache');
      reply.type(contentType);
      return reply.send(stream);
    },
  );

  // the channel: a peer deployment pushes packages here, authenticated by the manifest's HMAC
  await app.register(async (channel) => {
    channel.addContentTypeParser(PUSH_CONTENT_TYPE, (_req, _payload, done) => done(null, undefined));
    channel.post(
      '/Ferry/Channel/Packages',
      {
        config: { public: true },
        bodyLimit: Number.MAX_SAFE_INTEGER,
        schema: {
          tags,
          summary: '接收对端推送的摆渡包',
          description: `对端部署调用（Content-Type: ${PUSH_CONTENT_TYPE}）：4 字节清单长度、清单、64 个字符的 HMAC-SHA256 签名，然后按清单顺序是每个文件的内容。签名不对时不写入任何内容；校验与摆渡目录相同。拒收时的回复即发送方的拒收回执：reason 为原因，detail 为相关文件名，发送方据此把任务标为被拒收。`,
          response: {
            200: Envelope(
              Type.Object({
                accepted: Type.Boolean(),
                reason: Type.String(),
                message: Type.String(),
                detail: Type.Optional(Type.String({ description: '拒收时相关的文件名（没有时不带）' })),
              }),
            ),
          },
        },
      },
      async (req) => ok(await inbox.receivePush(req.raw as AsyncIterable<Buffer>)),
    );
  });
};
