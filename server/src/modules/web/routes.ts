// 云文档 web builds: the shell at / (deep links fall back to index.html), each remote at
// /remotes/<name>/ with CORS, /runtime-config.json and /json/config.json. A build that is
// missing answers a Chinese text, never a crash. HTML pages carry the security headers of
// ./security.ts.
import cors from '@fastify/cors';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import path from 'node:path';
import { Type } from 'typebox';
import { sendApiNotFound } from '../../plugins/envelope';
import { RuntimeConfigSchema } from './schemas';
import { pageSecurityHeaders } from './security';
import { cacheControlFor, isRemoteName, pathKind, REMOTE_TITLES, safeRelativePath } from './service';

const TEXT = {
  shellMissing: '云文档前端尚未构建（缺少 shell/dist），请先执行 npm run build 后再访问。',
  remoteMissing: (title: string, name: string) => `前端模块「${title}」尚未构建（缺少 remote-${name}/dist），请先执行 npm run build。`,
  unknownRemote: '没有这个前端模块。',
  fileMissing: '文件不存在。',
  versionMissing: '版本信息不存在（前端尚未构建）。',
};

function sendText(reply: FastifyReply, status: number, text: string) {
  return reply.code(status).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(text);
}

/** A built file; an HTML page gets `pageHeaders` (for the path the browser asked for). */
function sendStatic(reply: FastifyReply, root: string, rel: string, pageHeaders?: Record<string, string>) {
  reply.header('cache-control', cacheControlFor(rel));
  if (pageHeaders) reply.headers(pageHeaders);
  return reply.sendFile(rel, root, { cacheControl: false, index: false, dotfiles: 'allow' });
}

/** A page the browser navigates to, rather than a missing script or image. */
function wantsPage(req: FastifyRequest, rel: string): boolean {
  const last = rel.split('/').pop() ?? '';
  return !last.includes('.') || (req.headers.accept ?? '').includes('text/html');
}

export const webRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const web = app.services.web;
  /** the security headers of an HTML page at `urlPath`; nothing for the other files */
  const pageHeaders = async (rel: string, urlPath: string) =>
    /\.html?$/i.test(rel) ? pageSecurityHeaders(await web.pagePolicy(), urlPath) : undefined;

  app.get(
    '/runtime-config.json',
    { schema: { hide: true, response: { 200: RuntimeConfigSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return web.runtimeConfig();
    },
  );

  app.get('/json/config.json', { schema: { hide: true } }, async (_req, reply) => {
    const text = await web.versionConfigText();
    if (text === null) return sendText(reply, 404, TEXT.versionMissing);
    return reply.code(200).type('application/json; charset=utf-8').header('cache-control', 'no-store').send(text);
  });

  const remoteRoutes: FastifyPluginAsyncTypebox = async (remotes) => {
    await remotes.register(cors, { origin: '*', methods: ['GET', 'HEAD', 'OPTIONS'] });

    remotes.get(
      '/:name',
      { schema: { hide: true, params: Type.Object({ name: Type.String() }) } },
      async (req, reply) => reply.redirect(`/remotes/${encodeURIComponent(req.params.name)}/`),
    );

    remotes.get(
      '/:name/*',
      { schema: { hide: true, params: Type.Object({ name: Type.String(), '*': Type.String() }) } },
      async (req, reply) => {
        const { name } = req.params;
        if (!isRemoteName(name)) return sendText(reply, 404, TEXT.unknownRemote);
        const root = web.remoteDist(name);
        if ((await pathKind(root)) !== 'dir') return sendText(reply, 503, TEXT.remoteMissing(REMOTE_TITLES[name], name));
        const rel = safeRelativePath(req.params['*'], true);
        if (rel === null) return sendText(reply, 404, TEXT.fileMissing);
        const target = rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel;
        if ((await pathKind(path.join(root, target))) !== 'file') return sendText(reply, 404, TEXT.fileMissing);
        return sendStatic(reply, root, target, await pageHeaders(target, req.url.split('?')[0]));
      },
    );
  };
  await app.register(remoteRoutes, { prefix: '/remotes' });

  app.get('/*', { schema: { hide: true } }, async (req, reply) => {
    const urlPath = req.url.split('?')[0];
    if (urlPath === '/api' || urlPath.startsWith('/api/')) return sendApiNotFound(reply);
    const root = web.shellDist;
    if ((await pathKind(root)) !== 'dir') return sendText(reply, 503, TEXT.shellMissing);
    const rel = safeRelativePath(urlPath);
    if (rel === null) return sendText(reply, 404, TEXT.fileMissing);
    if (rel !== '' && !rel.endsWith('/') && (await pathKind(path.join(root, rel))) === 'file') return sendStatic(reply, root, rel, await pageHeaders(rel, urlPath));
    if (!wantsPage(req, rel)) return sendText(reply, 404, TEXT.fileMissing);
    if ((await pathKind(path.join(root, 'index.html'))) !== 'file') return sendText(reply, 503, TEXT.shellMissing);
    return sendStatic(reply, root, 'index.html', await pageHeaders('index.html', urlPath));
  });
};
