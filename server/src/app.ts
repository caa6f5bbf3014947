// Builds the 云文档 API server: plugins first, then routes (the layout of fastify/demo).
// server.ts listens; tests call buildApp() and use inject().
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AppConfig } from './config';
import { parseAddressList } from './lib/address-list';
import { guardConnections } from './lib/connection-guard';
import { draining } from './lib/draining';
import { MESSAGES } from './lib/errors';
import { adminRoutes } from './modules/admin/routes';
import { peopleRoutes } from './modules/people/routes';
import { leaverRoutes } from './modules/people/leaver-routes';
import { directoryRoutes } from './modules/directory/routes';
import { authRoutes } from './modules/auth/routes';
import { accountRoutes } from './modules/account/routes';
import { appPasswordsRoutes } from './modules/app-passwords/routes';
import { webdavRoutes } from './modules/webdav/routes';
import { registrationRoutes } from './modules/registration/routes';
import { oauthRoutes } from './modules/oauth/routes';
import { downloadsRoutes } from './modules/downloads/routes';
import { uploadsRoutes } from './modules/uploads/routes';
import { quotaRoutes } from './modules/quota/routes';
import { sharesRoutes } from './modules/shares/routes';
import { foldersRoutes } from './modules/folders/routes';
import { organizationsRoutes } from './modules/organizations/routes';
import { policiesRoutes } from './modules/policies/routes';
import { recycleRoutes } from './modules/recycle/routes';
import { versionsRoutes } from './modules/versions/routes';
import { settingsRoutes } from './modules/settings/routes';
import { brandingRoutes } from './modules/branding/routes';
import { agreementsRoutes } from './modules/agreements/routes';
import { webRoutes } from './modules/web/routes';
import { workflowRoutes } from './modules/workflow/routes';
import { noticesRoutes } from './modules/notices/routes';
import { noticeDeliveryRoutes } from './modules/notice-delivery/routes';
import { announcementsRoutes } from './modules/announcements/routes';
import { ferryRoutes } from './modules/ferry/routes';
import { favoritesRoutes } from './modules/favorites/routes';
import { tagsRoutes } from './modules/tags/routes';
import { searchRoutes } from './modules/search/routes';
import { previewRoutes } from './modules/preview/routes';
import { authPlugin } from './plugins/auth';
import { oplogPlugin } from './modules/oplog/plugin';
import { davLockGuard } from './modules/webdav/lock-guard';
import { oplogRoutes } from './modules/oplog/routes';
import { bodyDrainPlugin } from './plugins/body-drain';
import { dbPlugin } from './plugins/db';
import { envelopePlugin } from './plugins/envelope';
import { JobLeases } from './lib/job-lease';
import { servicesPlugin } from './plugins/services';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
  }
}

export const APP_VERSION = '1.1.0';

/** How often the recycle bin's expired items are purged. */
/** how often one instance sweeps the store for orphaned objects */
const ORPHAN_SWEEP_PERIOD_MS = 6 * 3600_000;
const RECYCLE_PURGE_INTERVAL_MS = 60 * 60 * 1000;

const OPENAPI_DESCRIPTION = [
  '云文档服务端接口。',
  '每个 /api 调用都返回 `{ code, result, message }`：成功时 HTTP 200、code 200；',
  '失败时 code 为 HTTP 状态码或以其开头的五位产品错误码（40001 参数错误，40301 无权执行，40901 名称冲突，42901 尝试过于频繁），message 为中文说明。',
  '401 表示未登录或会话已失效，403（code 403）表示账号已被停用。',
  '认证：请求头 `Authorization: Bearer <token>`；浏览器导航（下载、图片）可使用 Cookie `token`（值为 jwtId）。',
].join('');

/** The /api context: envelope, authentication, then one route plugin per domain. */
const apiPlugin: FastifyPluginAsyncTypebox = async (api) => {
  await api.register(envelopePlugin);
  await api.register(authPlugin);
  await api.register(oplogPlugin);
  await api.register(davLockGuard);
  await api.register(authRoutes);
  await api.register(accountRoutes);
  await api.register(appPasswordsRoutes);
  await api.register(registrationRoutes);
  await api.register(oauthRoutes);
  await api.register(settingsRoutes);
  await api.register(brandingRoutes);
  await api.register(agreementsRoutes);
  await api.register(organizationsRoutes);
  await api.register(foldersRoutes);
  await api.register(recycleRoutes);
  await api.register(policiesRoutes);
  await api.register(versionsRoutes);
  await api.register(downloadsRoutes);
  await api.register(uploadsRoutes);
  await api.register(quotaRoutes);
  await api.register(sharesRoutes);
  await api.register(workflowRoutes);
  await api.register(noticesRoutes);
  await api.register(noticeDeliveryRoutes);
  await api.register(announcementsRoutes);
  await api.register(ferryRoutes);
  await api.register(favoritesRoutes);
  await api.register(tagsRoutes);
  await api.register(searchRoutes);
  await api.register(previewRoutes);
  await api.register(adminRoutes);
  await api.register(peopleRoutes);
  await api.register(leaverRoutes);
  await api.register(directoryRoutes);
  await api.register(oplogRoutes);

  // the OpenAPI document itself, generated from the TypeBox route schemas (not enveloped)
  api.get('/docs', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return api.swagger();
  });
};

/** Errors outside /api (web builds) answer a short Chinese text. */
function webErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  if (status === 500) request.log.error({ err: error }, '云文档页面请求出错');
  return reply
    .code(status)
    .type('text/plain; charset=utf-8')
    .send(status === 500 ? MESSAGES.internal : status === 404 ? '页面不存在。' : '请求无法处理。');
}

/**
 * An /api call answers at its path with or without a trailing slash (spec section 7 writes
 * `/api/User/Register/SendVerifyCode/?phone`): the slash is dropped before routing. Web paths
 * keep theirs (`/remotes/<name>/` is a folder).
 */
export function withoutApiTrailingSlash(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!path.startsWith('/api/') || !path.endsWith('/')) return url;
  return path.replace(/\/+$/, '') + (q < 0 ? '' : url.slice(q));
}

/** TRUST_PROXY=<n>: trust the n proxies closest to the server. */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/**
 * The peers the per-address connection ceiling leaves alone: the proxies TRUST_PROXY names.
 * `true` or a hop count trusts whatever connects (every peer is a proxy), so nobody is limited.
 */
function trustedPeers(trustProxy: AppConfig['trustProxy']): (address: string) => boolean {
  if (trustProxy === true || typeof trustProxy === 'number') return () => true;
  if (trustProxy === false) return () => false;
  return parseAddressList(trustProxy) ?? (() => false);
}

/** How often Node looks for requests whose headers are late: a quarter of the limit, 100 ms to 5 s. */
function headersCheckMs(headersTimeoutMs: number): number {
  return Math.max(100, Math.min(5000, Math.floor(headersTimeoutMs / 4)));
}

/**
 * Headers that apply to every answer: no type sniffing; frames only from the product's own
 * pages (the hidden frames that start downloads are same-origin); no Referer from a document
 * the API serves (a PDF or text shown in a tab may carry a share's key in its address). The
 * HTML pages replace the last three with their own (modules/web).
 */
function baseSecurityHeaders(reply: FastifyReply) {
  reply.header('x-content-type-options', 'nosniff');
  if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'SAMEORIGIN');
  if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'no-referrer');
  const policy = reply.getHeader('content-security-policy');
  if (policy === undefined) reply.header('content-security-policy', "frame-ancestors 'self'");
  else if (!/(^|;)\s*frame-ancestors\s/.test(String(policy))) reply.header('content-security-policy', `${String(policy)}; frame-ancestors 'self'`);
}

/** Work an instance does in the background (one of the leased jobs): told of its failures. */
interface BackgroundJob {
  onError: (err: unknown, subject: number) => void;
  start(): void;
  stop(): Promise<void>;
}

/** Starts the job when the app is ready and stops it before the app closes; its failures are logged. */
function inBackground(app: FastifyInstance, job: BackgroundJob, failure: string): void {
  job.onError = (err, subject) => app.log.error({ err, subject }, failure);
  app.addHook('onReady', async () => job.start());
  app.addHook('preClose', async () => job.stop());
}

export async function buildApp(config: AppConfig) {
  // slow and idle clients (docs/integration.md, "Slow and idle connections"): headers and
  // idle keep-alive connections are Node's; bodies and responses, guardConnections below.
  // No whole-request limit and no socket idle limit: a slow but live upload or a long
  // download must never be cut, nor a request the server takes long to answer.
  const drain = draining(
    {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: 0,
      connectionsCheckingInterval: headersCheckMs(config.http.headersTimeoutMs),
    },
    config.http.keepAliveTimeoutMs,
  );
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    rewriteUrl: (req) => withoutApiTrailingSlash(req.url ?? '/'),
    // the HTTP server with those settings, and requests arriving while the instance closes
    // answered by lib/draining.ts (in the contract's envelope, in Chinese)
    serverFactory: drain.serverFactory,
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.addHook('preClose', async () => drain.start());
  const connectionGuard = guardConnections(
    app.server,
    {
      perAddress: config.http.connPerIp,
      exempt: trustedPeers(config.trustProxy),
      bodyTimeoutMs: config.http.bodyTimeoutMs,
      bodyMinBytes: config.http.bodyMinBytes,
      sendTimeoutMs: config.http.sendTimeoutMs,
    },
    app.log,
  );
  app.addHook('onClose', async () => connectionGuard.stop());

  // only reply.sendFile(); the web routes decide what to serve. A build's gzip copy of a file
  // (name.gz, made by shared/build/gzip-plugin.cjs) goes to a client that accepts gzip.
  await app.register(fastifyStatic, { serve: false, preCompressed: true });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: '云文档 API', version: APP_VERSION, description: OPENAPI_DESCRIPTION },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'token' },
        },
      },
      security: [{ bearerAuth: [] }, { cookieAuth: [] }],
      tags: [
        { name: '登录', description: '登录与退出' },
        { name: '设置', description: '功能策略、环境配置、品牌、首页菜单' },
        { name: '组织', description: '部门、用户与用户组' },
        { name: '文件', description: '文件与文件夹' },
        { name: '管理', description: '仅系统管理员' },
      ],
    },
  });

  await app.register(dbPlugin);
  await app.register(servicesPlugin);
  await app.register(bodyDrainPlugin);

  app.setErrorHandler(webErrorHandler);
  app.setNotFoundHandler((_req, reply) => reply.code(404).type('text/plain; charset=utf-8').send('页面不存在。'));
  app.addHook('onSend', async (_req, reply, payload) => {
    baseSecurityHeaders(reply);
    return payload;
  });

  await app.register(apiPlugin, { prefix: '/api' });
  // WebDAV (issue 29): its own authentication (application passwords) and answers, outside /api
  await app.register(webdavRoutes);
  await app.register(webRoutes);

  // the recycle bin's retention purge: once at start, then every hour
  let purgeTimer: NodeJS.Timeout | null = null;
  const purgeExpired = () =>
    app.services.recycle.purgeExpired().catch((err: unknown) => app.log.error({ err }, '云文档回收站过期清理失败'));
  app.addHook('onReady', async () => {
    await purgeExpired();
    purgeTimer = setInterval(() => void purgeExpired(), RECYCLE_PURGE_INTERVAL_MS);
    purgeTimer.unref();
  });
  app.addHook('onClose', async () => {
    if (purgeTimer) clearInterval(purgeTimer);
    purgeTimer = null;
  });

  // objects no blob row claims (a write whose transaction never committed): looked for every
  // hour by each instance, swept by one of them every ORPHAN_SWEEP_PERIOD_MS
  const leases = new JobLeases(app.db);
  const sweepOrphans = async () => {
    try {
      if (!(await leases.take('storage-orphan-sweep', ORPHAN_SWEEP_PERIOD_MS))) return;
      const r = await app.services.folders.blobs.sweep(app.db);
      const line = `云文档存储清理：检查 ${r.seen} 个对象，删除无人引用的 ${r.removed} 个（${r.removedBytes} 字节），${r.young} 个未满一天暂不处理`;
      if (r.removed) app.log.warn({ samples: r.samples }, line);
      else app.log.info(line);
    } catch (err) {
      app.log.error({ err }, '云文档存储清理失败');
    }
  };
  // events become notices on the one instance holding the dispatcher's lease, within a second
  const dispatcher = app.services.dispatcher;
  dispatcher.onError = (err, eventId) => app.log.error({ err, eventId }, '云文档消息分发失败，稍后重试');
  app.addHook('onReady', async () => dispatcher.start());
  // notice mails (at once, or in each person's digest) on the one instance holding `notice-mail`
  inBackground(app, app.services.noticeMailer, '云文档邮件通知发送失败，稍后重试');
  // DingTalk 工作通知 (at once, or in the digest; their send result looked at afterwards) on the
  // one instance holding `notice-dingtalk`
  inBackground(app, app.services.noticeDingTalk, '云文档钉钉通知发送失败，稍后重试');
  // password.expiring: every hour, on the one instance holding its lease
  inBackground(app, app.services.passwordExpiry, '云文档密码到期提醒失败，稍后重试');
  app.addHook('preClose', async () => {
    // open pages' streams end, or the server would wait for them
    app.services.notices.streams.stop();
    await dispatcher.stop();
  });
  // 自动催办: every minute, on the one instance holding its lease
  inBackground(app, app.services.autoRemind, '云文档自动催办失败，稍后重试');
  // the operation log's records chained within a second (every instance may seal) and its
  // retention applied once a day by one instance
  inBackground(app, app.services.oplog, '云文档操作日志封存或清理失败，稍后重试');
  // WebDAV chunked uploads untouched for a day, with their parts: by one instance an hour
  const sweepDavUploads = async () => {
    try {
      if (!(await leases.take('dav-upload-sweep', 3600_000))) return;
      const removed = await app.services.davUploads.sweep();
      if (removed) app.log.info(`云文档 WebDAV：清除 ${removed} 个一天内未继续的分片上传`);
    } catch (err) {
      app.log.error({ err }, '云文档 WebDAV 分片上传清理失败');
    }
  };
  const sweepTimer = setInterval(() => void sweepOrphans().then(sweepDavUploads), 3600_000);
  sweepTimer.unref();
  app.addHook('onClose', async () => clearInterval(sweepTimer));
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
