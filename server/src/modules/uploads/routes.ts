// 云文档 upload calls (api-contract.md "Upload"): the five calls for signed-in users, and
// CreateFolders for the empty folders of a dropped folder; their External forms for share
// uploads (accessKey header); the admin's upload policy; and the sweep of abandoned sessions
// (at start-up, then on an interval).
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { badRequest, forbidden } from '../../lib/errors';
import { Envelope, ok } from '../../lib/schema';
import { LEVEL } from '../folders/rights';
import { ItemSchema } from '../folders/schemas';
import { SharesService } from '../shares/service';
import { Type } from 'typebox';
import {
  AbandonResultSchema,
  BatchParamsSchema,
  CheckAndCreateBodySchema,
  CheckAndCreateResultSchema,
  ChunkQuerySchema,
  ChunkResultSchema,
  CreateFoldersBodySchema,
  CreateFoldersResultSchema,
  FileUploadOptionsSchema,
  MergeBodySchema,
  RapidBodySchema,
  RapidResultSchema,
  SessionParamsSchema,
  ShareParamsSchema,
  ShareQuerySchema,
  UploadPolicyBodySchema,
  UploadPolicySchema,
} from './schemas';
import { MAX_CHUNK_SIZE, type Actor } from './service';
import { recordEvent } from '../notices/events';
import { LINK_UPLOAD_GROUP_MS } from '../notices/kinds';

const BASE = '/User/FileTransfer';
const FIELD_NAMES = new Set(['chunkNumber', 'totalChunks', 'chunkSize', 'currentChunkSize', 'totalSize', 'identifier', 'filename', 'relativePath']);

export const uploadsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const uploads = app.services.uploads;
  const tags = ['文件'];
  const external = '外部分享上传：以请求头 accessKey 代替登录令牌；分享不存在、已过期或访问密钥不正确时 HTTP 401（code 401）。';

  await app.register(multipart, {
    // the part is streamed to disk; the limit only stops a body far larger than any chunk (each
    // chunk is held to its session's size)
    throwFileSizeLimit: false,
    limits: { fileSize: Math.max(uploads.limits.chunkSize, MAX_CHUNK_SIZE) + 1, files: 1, fields: 20, fieldSize: 8192, parts: 24 },
  });

  /** A signed-in user; with `?shareId=`, a recipient uploading through an internal share at level 3. */
  const userActor = async (req: FastifyRequest): Promise<Actor> => {
    const user = req.user();
    const shareId = (req.query as { shareId?: string } | undefined)?.shareId;
    if (!shareId) return { user, share: null };
    const shares = app.services.shares;
    const scope = await shares.open(shareId, { user, address: req.ip });
    if (Number(scope.share.level) < LEVEL.edit) throw forbidden('该分享不允许上传文件');
    const afterUpload = (item: { id: string; name: string }) => shares.record(scope, 'upload', { id: Number(item.id), name: item.name });
    return { user: scope.owner, share: scope.share, through: scope.rights, uploader: user, afterUpload };
  };
  /** An external share's visitor: the share works, the key is right, and its level allows uploads. */
  const shareActor = async (req: FastifyRequest, shareId: string): Promise<Actor> => {
    const shares = app.services.shares;
    const scope = await shares.open(shareId, { user: null, accessKey: SharesService.keyOf(req.headers), address: req.ip });
    // the operation log: a visitor without an account, acting in the share owner's space
    if (req.oplog) req.oplog.onBehalf = { id: Number(scope.owner.id), name: scope.owner.user_name };
    if (Number(scope.share.level) < LEVEL.edit) throw forbidden('该分享不允许上传文件');
    const afterUpload = (item: { id: string; name: string }) => shares.record(scope, 'upload', { id: Number(item.id), name: item.name });
    // the owner is told (link.uploaded), the files of one batch together
    const onStored: Actor['onStored'] = (trx, file, now) =>
      recordEvent(trx, 'link.uploaded', { shareId: scope.share.id, ownerId: scope.owner.id, itemId: file.id, name: file.name }, now, LINK_UPLOAD_GROUP_MS);
    return { user: scope.owner, share: scope.share, through: scope.rights, afterUpload, onStored };
  };

  /** Reads the form fields, then hands the part `file` over as a stream (never buffered whole). */
  async function chunkFrom(req: FastifyRequest, actor: Actor, query: { fileId: string; ChunkHash?: string }) {
    if (!req.isMultipart()) throw badRequest('分片请求应为 multipart/form-data');
    const fields: Record<string, string> = {};
    let result: Awaited<ReturnType<typeof uploads.receiveChunk>> | null = null;
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const stream = part.file as Readable;
        if (part.fieldname !== 'file' || result) {
          stream.resume();
          continue;
        }
        try {
          result = await uploads.receiveChunk(actor, query.fileId, query.ChunkHash, fields, stream);
        } catch (err) {
          // let the rest of the request go by, then answer
          stream.resume();
          throw err;
        }
      } else if (FIELD_NAMES.has(part.fieldname)) {
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
    if (!result) throw badRequest('缺少分片内容（表单字段 file）');
    return result;
  }

  app.get(
    `${BASE}/FileUploadOptions`,
    { schema: { tags, summary: '上传选项', response: { 200: Envelope(FileUploadOptionsSchema) } } },
    async () => ok(await uploads.options()),
  );

  // ---- signed-in users ----------------------------------------------------------------

  app.post(
    `${BASE}/CheckAndCreateFileInfo`,
    {
      config: {
        // a new file goes into the folder; 新版本 or 覆盖 write over the file of that name
        davLock: (req) => {
          const body = req.body as { folderId: string; fileName: string; strategy?: number | null };
          return { into: body.folderId, over: body.strategy === 0 || body.strategy === 1 ? { folderId: body.folderId, name: body.fileName } : null };
        },
      },
      schema: {
        tags,
        summary: '创建上传任务',
        description:
          '无同名项时新建上传任务（fileInfo.fileId）；同一 taskId 的未完成任务再次提交时返回该任务及已收到的分片。有同名项时不建任务，conflictType 非 0，conflictStrategies 为可选的处理方式。',
        querystring: ShareQuerySchema,
        body: CheckAndCreateBodySchema,
        response: { 200: Envelope(CheckAndCreateResultSchema) },
      },
    },
    async (req) => ok(await uploads.create(await userActor(req), req.body)),
  );

  app.post(
    `${BASE}/UploadRapid2`,
    {
      config: { oplog: { action: 'file.upload', when: (ok, r: { success?: boolean } | undefined) => (ok && !r?.success ? null : 'file.upload'), detail: (req) => ({ rapid: true, shareId: (req.params as { shareId?: string }).shareId }) } },
      schema: {
        tags,
        summary: '秒传',
        description: '调用者已能查看相同内容的文件时直接完成上传（success true），否则 success false。',
        querystring: ShareQuerySchema,
        body: RapidBodySchema,
        response: { 200: Envelope(RapidResultSchema) },
      },
    },
    async (req) => ok(await uploads.rapid(await userActor(req), req.body)),
  );

  app.post(
    `${BASE}/UploadChunk2`,
    {
      schema: {
        tags,
        summary: '上传分片',
        description:
          'multipart/form-data：chunkNumber（从 1 开始）、totalChunks、chunkSize、currentChunkSize、totalSize、identifier、filename、relativePath 与文件部分 file。' +
          'ChunkHash 可选：带上时校验本分片的 MD5，不一致时 HTTP 422（code 42201）；上传选项 chunkCheck 为 true 时必须带上。不带时只在完成上传时校验整个文件。',
        querystring: ChunkQuerySchema,
        response: { 200: Envelope(ChunkResultSchema) },
      },
    },
    async (req) => ok(await chunkFrom(req, await userActor(req), req.query)),
  );

  const createFoldersDoc = '拖入的文件夹中的空文件夹（含文件的文件夹在文件完成上传时创建）：在目标文件夹下逐级创建缺少的文件夹，已有的同名文件夹沿用；某一路径无法创建（同名文件挡路、无上传权限、名称无效）时记入 failed，其余照常创建。';
  app.post(
    `${BASE}/CreateFolders`,
    {
      schema: {
        tags,
        summary: '创建上传的空文件夹',
        description: createFoldersDoc,
        querystring: ShareQuerySchema,
        body: CreateFoldersBodySchema,
        response: { 200: Envelope(CreateFoldersResultSchema) },
      },
    },
    async (req) => ok(await uploads.createFolders(await userActor(req), req.body)),
  );

  app.post(
    `${BASE}/UploadMerge2`,
    {
      config: { oplog: { action: 'file.upload', resultItems: (r: { id?: string } | undefined) => r?.id, detail: (req) => ({ shareId: (req.params as { shareId?: string }).shareId }) } },
      schema: {
        tags,
        summary: '完成上传',
        description: '校验整个文件的 MD5（不一致时 HTTP 422、code 42201，文件不会出现），然后一次性生成文件或其新版本。',
        querystring: ShareQuerySchema,
        body: MergeBodySchema,
        response: { 200: Envelope(ItemSchema) },
      },
    },
    async (req) => ok(await uploads.merge(await userActor(req), req.body)),
  );

  const abandonDoc = '放弃一个未完成的上传：已收到的分片随即删除，为它预留的个人空间容量随即释放。已完成的上传不受影响（removed 为 false）。';
  app.delete(
    `${BASE}/UploadSessions/:fileId`,
    {
      schema: {
        tags,
        summary: '取消上传',
        description: abandonDoc,
        querystring: ShareQuerySchema,
        params: SessionParamsSchema,
        response: { 200: Envelope(AbandonResultSchema) },
      },
    },
    async (req) => ok(await uploads.abandon(await userActor(req), req.params.fileId)),
  );

  // ---- external share uploads ---------------------------------------------------------

  const publicRoute = { public: true };
  app.post(
    `${BASE}/External/:shareId/CheckAndCreateFileInfo`,
    {
      config: publicRoute,
      schema: {
        tags,
        summary: '创建上传任务（外部分享）',
        description: external,
        security: [],
        params: ShareParamsSchema,
        body: CheckAndCreateBodySchema,
        response: { 200: Envelope(CheckAndCreateResultSchema) },
      },
    },
    async (req) => ok(await uploads.create(await shareActor(req, req.params.shareId), req.body)),
  );

  app.post(
    `${BASE}/External/:shareId/UploadRapid2`,
    {
      config: { ...publicRoute, oplog: { action: 'file.upload', when: (ok, r: { success?: boolean } | undefined) => (ok && !r?.success ? null : 'file.upload'), detail: (req) => ({ rapid: true, shareId: (req.params as { shareId?: string }).shareId }) } },
      schema: {
        tags,
        summary: '秒传（外部分享）',
        description: `${external}只在分享范围内的内容中查找。`,
        security: [],
        params: ShareParamsSchema,
        body: RapidBodySchema,
        response: { 200: Envelope(RapidResultSchema) },
      },
    },
    async (req) => ok(await uploads.rapid(await shareActor(req, req.params.shareId), req.body)),
  );

  app.post(
    `${BASE}/External/:shareId/UploadMerge2`,
    {
      config: { ...publicRoute, oplog: { action: 'file.upload', resultItems: (r: { id?: string } | undefined) => r?.id, detail: (req) => ({ shareId: (req.params as { shareId?: string }).shareId }) } },
      schema: {
        tags,
        summary: '完成上传（外部分享）',
        description: external,
        security: [],
        params: ShareParamsSchema,
        body: MergeBodySchema,
        response: { 200: Envelope(ItemSchema) },
      },
    },
    async (req) => ok(await uploads.merge(await shareActor(req, req.params.shareId), req.body)),
  );

  app.post(
    `${BASE}/External/:shareId/CreateFolders`,
    {
      config: publicRoute,
      schema: {
        tags,
        summary: '创建上传的空文件夹（外部分享）',
        description: `${external}${createFoldersDoc}`,
        security: [],
        params: ShareParamsSchema,
        body: CreateFoldersBodySchema,
        response: { 200: Envelope(CreateFoldersResultSchema) },
      },
    },
    async (req) => ok(await uploads.createFolders(await shareActor(req, req.params.shareId), req.body)),
  );

  app.post(
    `${BASE}/External/:batchNumber/UploadChunk2`,
    {
      config: publicRoute,
      schema: {
        tags,
        summary: '上传分片（外部分享）',
        description: `${external}（分片请求的请求头为 Accesskey）batchNumber 为创建任务时返回的批次号（即分享 id）。`,
        security: [],
        params: BatchParamsSchema,
        querystring: ChunkQuerySchema,
        response: { 200: Envelope(ChunkResultSchema) },
      },
    },
    async (req) => ok(await chunkFrom(req, await shareActor(req, req.params.batchNumber), req.query)),
  );

  app.delete(
    `${BASE}/External/:shareId/UploadSessions/:fileId`,
    {
      config: publicRoute,
      schema: {
        tags,
        summary: '取消上传（外部分享）',
        description: `${external}${abandonDoc}`,
        security: [],
        params: Type.Object({ ...ShareParamsSchema.properties, ...SessionParamsSchema.properties }),
        response: { 200: Envelope(AbandonResultSchema) },
      },
    },
    async (req) => ok(await uploads.abandon(await shareActor(req, req.params.shareId), req.params.fileId)),
  );

  // ---- the admin's upload policy ------------------------------------------------------

  app.get(
    '/Admin/UploadPolicy',
    { schema: { tags: ['管理'], summary: '上传策略', response: { 200: Envelope(UploadPolicySchema) } } },
    async (req) => {
      app.services.admin.assertAdmin(req.user());
      return ok(await app.services.settings.uploadPolicy());
    },
  );

  app.put(
    '/Admin/UploadPolicy',
    {
      preValidation: async (req) => app.services.admin.assertAdmin(req.user()),
      schema: {
        tags: ['管理'],
        summary: '修改上传策略',
        description: '秒传与其范围、默认个人空间配额、分片校验、单个文件大小上限和一次选择的文件数上限（省略的可选项保持原值）；仅系统管理员。',
        body: UploadPolicyBodySchema,
        response: { 200: Envelope(UploadPolicySchema) },
      },
    },
    async (req) => ok(await app.services.admin.updateUploadPolicy(req.user(), req.body)),
  );

  // ---- abandoned sessions -------------------------------------------------------------

  let timer: NodeJS.Timeout | null = null;
  const sweep = () => uploads.sweep().catch((err: unknown) => app.log.error({ err }, '云文档上传任务过期清理失败'));
  app.addHook('onReady', async () => {
    await sweep();
    timer = setInterval(() => void sweep(), uploads.limits.sweepIntervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
    await uploads.close();
  });
};
