// 云文档 preview calls (api-contract.md, "Preview"; docs/integration.md, "Preview"). The
// content calls are GET (and HEAD) so that <img>, <video> and pdf.js load them with the
// session cookie; an outside visitor of an external share adds its key (accessKey).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Envelope, ok } from '../../lib/schema';
import { sendContent, type Content } from '../downloads/http';
import { PreviewPolicySchema } from '../settings/schemas';
import { SharesService } from '../shares/service';
import {
  PreviewBodySchema,
  PreviewConversionSchema,
  PreviewParamsSchema,
  PreviewPayloadSchema,
  PreviewQuerySchema,
  TextPreviewSchema,
  type PreviewParams,
  type PreviewQuery,
} from './schemas';
import type { PreviewCaller } from './service';

/** Nothing a previewed file holds may run in the page's origin (an SVG's scripts, say). */
const CONTENT_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

export const previewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const preview = app.services.preview;
  const conversions = preview.conversions;
  const tags = ['预览'];
  // public: an external share's visitor has no session; a session, when sent, is used
  const config = { public: true, optionalAuth: true };
  const caller = (req: FastifyRequest, query?: { accessKey?: string }): PreviewCaller => ({
    user: req.auth?.user ?? null,
    accessKey: SharesService.keyOf(req.headers, query),
    address: req.ip,
  });
  const who =
    '自己的文件用登录会话（GET 也可用 Cookie）；shareId 为内部分享或外链分享的 id，外链分享的提取码放在 accessKey 查询参数或请求头中。' +
    '至少需要预览权限（否则 404）；分享失效时 HTTP 401。';

  // the workers: queued office documents become PDFs, pictures thumbnails, in the background
  conversions.onError = (err) => app.log.error({ err }, '云文档预览：处理文件出错');
  let timer: NodeJS.Timeout | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  const tick = () => void conversions.drain().catch((err: unknown) => conversions.onError(err));
  let sweeping = false;
  const sweep = () => {
    if (sweeping) return;
    sweeping = true;
    void conversions
      .sweep()
      .then((n) => n && app.log.info({ removed: n }, '云文档预览：已删除不再有文件使用的预览结果'))
      .catch((err: unknown) => conversions.onError(err))
      .finally(() => {
        sweeping = false;
      });
  };
  app.addHook('onReady', async () => {
    if (!conversions.makers.pdf.available) {
      app.log.warn('云文档预览：未找到 LibreOffice（soffice），Office 文档无法预览；安装 libreoffice-writer-nogui、libreoffice-calc-nogui、libreoffice-impress-nogui 与 fonts-noto-cjk 后重启，或用 PREVIEW_SOFFICE 指定路径');
    }
    if (app.config.preview.sweepMs) {
      sweeper = setInterval(sweep, app.config.preview.sweepMs);
      sweeper.unref();
    }
    if (!app.config.preview.pollMs) return;
    tick();
    timer = setInterval(tick, app.config.preview.pollMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    if (sweeper) clearInterval(sweeper);
    await conversions.stop();
  });

  app.get(
    '/Admin/PreviewPolicy',
    { schema: { tags: ['管理'], summary: '预览策略', response: { 200: Envelope(PreviewPolicySchema) } } },
    async (req) => {
      app.services.admin.assertAdmin(req.user());
      return ok(await app.services.settings.previewPolicy());
    },
  );

  app.put(
    '/Admin/PreviewPolicy',
    {
      preValidation: async (req) => app.services.admin.assertAdmin(req.user()),
      schema: {
        tags: ['管理'],
        summary: '修改预览策略',
        description: 'watermark：预览企业文件时是否显示查看者姓名与时间的水印（默认开启）；仅系统管理员。',
        body: PreviewPolicySchema,
        response: { 200: Envelope(PreviewPolicySchema) },
      },
    },
    async (req) => ok(await app.services.settings.setPreviewPolicy(req.body)),
  );

  app.post(
    '/User/FileTransfer/CreateComponentData',
    {
      config: {
        ...config,
        oplog: {
          action: 'file.preview',
          items: (req) => (req.body as { fileId: string }).fileId,
          detail: (req) => ({ shareId: (req.body as { shareId?: string }).shareId, versionId: (req.body as { versionId?: string }).versionId }),
        },
      },
      schema: {
        tags,
        summary: '创建预览数据',
        description:
          `返回预览页需要的数据：source 为查看器，data.url 为它加载的地址。${who}` +
          '没有查看器的类型 HTTP 400（该文件暂不支持预览）；服务器未安装 LibreOffice 时 Office 文档 HTTP 503（code 50301）。只能预览（权限 1）时 downloadUrl 为 null。',
        body: PreviewBodySchema,
        response: { 200: Envelope(PreviewPayloadSchema) },
      },
    },
    async (req) => ok(await preview.componentData(caller(req), req.body)),
  );

  type BytesRequest = FastifyRequest<{ Params: PreviewParams; Querystring: PreviewQuery }>;
  const bytes = (url: string, summary: string, description: string, load: (req: BytesRequest) => Promise<Content>) =>
    app.route({
      method: ['GET', 'HEAD'],
      url,
      config,
      schema: { tags, summary, description: `${description}${who}`, params: PreviewParamsSchema, querystring: PreviewQuerySchema },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const content = await load(req as BytesRequest);
        reply.header('content-security-policy', CONTENT_POLICY);
        return sendContent(req, reply, content);
      },
    });

  bytes(
    '/User/Preview/:fileId/Content',
    '预览内容',
    '图片、PDF、音频与视频的内容本身，在页面中显示（不是 JSON）；支持 Range（视频可在下载完成前拖动播放）。文本与 Office 文档不经此处。',
    (req) => preview.content(caller(req, req.query), req.params.fileId, req.query.versionId, req.query.shareId),
  );
  bytes(
    '/User/Preview/:fileId/Thumbnail',
    '图片缩略图',
    '最长边 256 像素的 WebP，同一内容只生成一次；尚未生成时最多等 3 秒，仍未生成则 HTTP 404（稍后再取）。只有 JPEG、PNG、WebP、GIF、AVIF 有缩略图。',
    (req) => preview.thumbnail(caller(req, req.query), req.params.fileId, req.query.versionId, req.query.shareId),
  );
  bytes(
    '/User/Preview/:fileId/Image',
    '缩小后的大图',
    '像素超过 4096×4096 的图片缩小到最长边 4096 像素（WebP）后显示；处理中时 HTTP 409。',
    (req) => preview.image(caller(req, req.query), req.params.fileId, req.query.versionId, req.query.shareId),
  );
  bytes(
    '/User/Preview/:fileId/Pdf',
    'Office 文档的 PDF',
    'LibreOffice 转换得到的 PDF（同一内容只转换一次）；尚未转换完时 HTTP 409，转换失败时 HTTP 422 并说明原因。',
    (req) => preview.pdf(caller(req, req.query), req.params.fileId, req.query.versionId, req.query.shareId),
  );

  app.get(
    '/User/Preview/:fileId/Text',
    {
      config,
      schema: {
        tags,
        summary: '文本预览',
        description: `文本与代码文件的内容，按 UTF-8 或 GB18030（含 GBK）解码；只返回开头的 2 MB（truncated 说明）。${who}`,
        params: PreviewParamsSchema,
        querystring: PreviewQuerySchema,
        response: { 200: Envelope(TextPreviewSchema) },
      },
    },
    async (req) => ok(await preview.text(caller(req, req.query), req.params.fileId, req.query.versionId, req.query.shareId)),
  );

  app.get(
    '/User/Preview/:fileId/Conversion',
    {
      config,
      schema: {
        tags,
        summary: 'Office 文档的转换进度',
        description: `ready 时 data.url 可加载 PDF；converting 时稍后再问（本次最多等 3 秒）；failed 时 message 说明原因。${who}`,
        params: PreviewParamsSchema,
        querystring: PreviewQuerySchema,
        response: { 200: Envelope(PreviewConversionSchema) },
      },
    },
    async (req) => ok(await preview.conversion(caller(req, req.query), req.params.fileId, req.query.versionId, req.query.shareId)),
  );
};
