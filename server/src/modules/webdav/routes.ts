// 云文档's WebDAV endpoint /dav/ (issue 29, first increment): read access (OPTIONS, PROPFIND
// depth 0 and 1, GET and HEAD with Range), MKCOL and DELETE (to the recycle bin) for read-write
// application passwords; the other writes (PUT, COPY, MOVE, PROPPATCH, LOCK, UNLOCK) answer
// 403 until they are built. Outside /api: answers are WebDAV's (XML multistatus, status codes,
// short Chinese texts), never the JSON envelope.
//
// Authentication: HTTP Basic with the user name and an application password (应用密码) only;
// failures are throttled and logged as sign-in failures are. OPTIONS answers without it (the
// same everywhere: it says nothing about any path).
import { Readable } from 'node:stream';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppPasswordScope, UserRow } from '../../db/types';
import { AppError, MESSAGES } from '../../lib/errors';
import { formatBytes } from '../../lib/bytes';
import { sendContent, startsDownload } from '../downloads/http';
import { describeItems } from '../oplog/plugin';
import type { OplogAction } from '../oplog/actions';
import type { OplogEntry, OplogObject } from '../oplog/repository';
import { FINITE_DEPTH_ERROR, MULTISTATUS_END, MULTISTATUS_START, BadPropfind, parsePropfind, responseXml, type DavResource, type PropfindRequest } from './props';
import { DavTree, pathOf, SHARED_FOLDER_NAME, type DavContext, type DavNode } from './tree';
import { escapeXml } from './xml';

declare module 'fastify' {
  interface FastifyRequest {
    /** who a /dav/ request is from (Basic authentication with an application password) */
    dav: { user: UserRow; scope: AppPasswordScope; passwordId: number } | null;
  }
}

/** `Basic realm="云文档"` with the realm as UTF-8 bytes (a header carries bytes; RFC 7617 charset). */
const CHALLENGE = Buffer.from('Basic realm="云文档", charset="UTF-8"', 'utf8').toString('latin1');
const WRITE_CLOSED = 'WebDAV 写入尚未开放';
const READ_ONLY = '该应用密码为只读，不能修改文件；如需写入，请在个人设置中新建读写的应用密码';
/** what works now (class 1: no locks yet) */
const ALLOW = 'OPTIONS, GET, HEAD, PROPFIND, MKCOL, DELETE';
const DAV_METHODS: [string, boolean][] = [
  ['PROPFIND', true],
  ['PROPPATCH', true],
  ['MKCOL', true],
  ['COPY', false],
  ['MOVE', false],
  ['LOCK', true],
  ['UNLOCK', false],
];
/** request bodies read (PROPFIND) at most */
const BODY_LIMIT = 256 * 1024;
/** entries a folder's HTML page shows at most */
const HTML_LIMIT = 1000;

const davError = (status: number, message: string, headers: Record<string, string> = {}) => new AppError(status, status, message, headers);

/** The body of a request, as text, up to `limit` bytes (413 beyond). */
async function readBody(req: FastifyRequest, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw davError(413, '请求内容过大');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw) {
    size += (chunk as Buffer).length;
    if (size > limit) throw davError(413, '请求内容过大');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** True when the request carries a body (RFC 9112: a length above 0, or chunked). */
function hasBody(req: FastifyRequest): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

function escapeHtml(text: string): string {
  return escapeXml(text);
}

export const webdavRoutes: FastifyPluginAsync = async (app) => {
  const { appPasswords, folders, shares, downloads, quota } = app.services;
  const tree = new DavTree(app.db, folders, shares, quota);

  for (const [method, body] of DAV_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: body });

  // bodies are read by the handler that needs one (PROPFIND), never by a parser: a refused
  // write's body is left to body-drain
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  app.decorateRequest('dav', null);

  /** Appends to the operation log (never fails the request). */
  const record = async (req: FastifyRequest, action: OplogAction, o: { ok: boolean; reason?: string; items?: number[]; object?: OplogObject; user?: { id: number; userName: string } | null; userName?: string; detail?: Record<string, unknown> }) => {
    if (!app.config.oplogRecording) return;
    try {
      const who = o.user !== undefined ? o.user : req.dav ? { id: Number(req.dav.user.id), userName: req.dav.user.user_name } : null;
      const base: OplogEntry = {
        userId: who?.id ?? null,
        userName: who?.userName ?? o.userName ?? '',
        ip: req.ip,
        userAgent: String(req.headers['user-agent'] ?? ''),
        action,
        result: o.ok ? 'ok' : 'fail',
        reason: o.ok ? '' : (o.reason ?? ''),
        requestId: String(req.id),
        detail: { via: 'WebDAV', ...o.detail },
      };
      const objects: OplogObject[] = o.object ? [o.object] : o.items?.length ? [...(await describeItems(app.db, o.items)).values()] : [];
      await app.services.oplog.record(objects.length ? objects.map((object) => ({ ...base, object })) : [base]);
    } catch (err) {
      req.log.error({ err }, '云文档操作日志记录失败');
    }
  };

  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    let status = 500;
    let message: string = MESSAGES.internal;
    const headers: Record<string, string> = {};
    if (error instanceof AppError) {
      status = error.statusCode;
      message = error.message;
      Object.assign(headers, error.headers);
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      message = '请求无法处理。';
    } else {
      req.log.error({ err: error }, '云文档 WebDAV 请求出错');
    }
    if (status === 401) headers['www-authenticate'] = CHALLENGE;
    reply.removeHeader('content-disposition');
    return reply.code(status).headers(headers).type('text/plain; charset=utf-8').send(`${message}\n`);
  });

  app.addHook('onRequest', async (req) => {
    if (req.method === 'OPTIONS') return;
    const client = { ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') };
    let outcome: Awaited<ReturnType<typeof appPasswords.authenticate>>;
    try {
      outcome = await appPasswords.authenticate(req.headers.authorization, client);
    } catch (err) {
      if (err instanceof AppError && err.statusCode === 429) {
        const typed = /^Basic\s+(\S+)/i.exec(req.headers.authorization ?? '');
        const userName = typed ? Buffer.from(typed[1], 'base64').toString('utf8').split(':')[0] : '';
        await record(req, 'auth.lockout', { ok: false, reason: err.message, user: null, userName, detail: { how: 'WebDAV 应用密码' } });
      }
      throw err;
    }
    if (outcome.status === 'missing') throw davError(401, '请使用用户名和应用密码登录 WebDAV（应用密码在个人设置中创建）');
    if (outcome.status === 'invalid') {
      const user = outcome.user ? { id: Number(outcome.user.id), userName: outcome.user.user_name } : null;
      await record(req, 'auth.login.fail', { ok: false, reason: outcome.reason, user, userName: outcome.userName, detail: { how: 'WebDAV 应用密码' } });
      throw davError(401, outcome.reason);
    }
    req.dav = { user: outcome.user, scope: outcome.scope, passwordId: outcome.passwordId };
  });

  const contextOf = async (req: FastifyRequest): Promise<{ ctx: DavContext; path: string[] }> => {
    const path = pathOf(req.url);
    if (!path) throw davError(400, '地址无效');
    return { ctx: await tree.context(req.dav!.user, req.ip), path };
  };

  // ---- reading --------------------------------------------------------------------------

  const propfind = async (req: FastifyRequest, reply: FastifyReply) => {
    const depthHeader = String(req.headers.depth ?? 'infinity').trim().toLowerCase();
    if (depthHeader === 'infinity') {
      return reply.code(403).type('application/xml; charset=utf-8').send(FINITE_DEPTH_ERROR);
    }
    if (depthHeader !== '0' && depthHeader !== '1') throw davError(400, 'Depth 只能是 0 或 1');
    let request: PropfindRequest;
    try {
      request = parsePropfind(await readBody(req, BODY_LIMIT));
    } catch (err) {
      if (err instanceof BadPropfind) throw davError(400, `PROPFIND 请求体无效：${err.message}`);
      throw err;
    }
    const { ctx, path } = await contextOf(req);
    const node = await tree.resolve(ctx, path);
    const self = await tree.resource(ctx, node);
    reply.code(207).type('application/xml; charset=utf-8');
    if (depthHeader === '0' || !self.collection) return reply.send(`${MULTISTATUS_START}${responseXml(self, request)}${MULTISTATUS_END}`);
    // a folder of any size: its members a page at a time, as they are read
    async function* body() {
      yield Buffer.from(`${MULTISTATUS_START}${responseXml(self, request)}`);
      for await (const page of tree.children(ctx, node)) {
        if (page.length) yield Buffer.from(page.map((r) => responseXml(r, request)).join(''));
      }
      yield Buffer.from(MULTISTATUS_END);
    }
    return reply.send(Readable.from(body()));
  };

  /** A collection's GET: a small HTML page listing it (the first HTML_LIMIT entries). */
  const folderPage = async (ctx: DavContext, node: DavNode, self: DavResource, reply: FastifyReply) => {
    const entries: DavResource[] = [];
    let more = false;
    for await (const page of tree.children(ctx, node)) {
      for (const r of page) {
        if (entries.length >= HTML_LIMIT) {
          more = true;
          break;
        }
        entries.push(r);
      }
      if (more) break;
    }
    const up = self.href === '/dav/' ? '' : `<li><a href="${escapeHtml(self.href.replace(/[^/]+\/?$/, ''))}">上一级</a></li>`;
    const items = entries
      .map((r) => `<li><a href="${escapeHtml(r.href)}">${escapeHtml(r.displayName)}${r.collection ? '/' : ''}</a>${r.collection ? '' : ` <small>${escapeHtml(formatBytes(r.size ?? 0))}</small>`}</li>`)
      .join('');
    const html =
      `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(self.displayName)} - 云文档 WebDAV</title></head><body>` +
      `<h1>${escapeHtml(self.displayName)}</h1><p>这是云文档的 WebDAV 地址，请在文件管理器或同步工具中连接（个人设置中有各系统的连接方法）。</p>` +
      `<ul>${up}${items}${more ? `<li>……只列出前 ${HTML_LIMIT} 项</li>` : ''}</ul></body></html>`;
    reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'self'");
    reply.header('cache-control', 'private, no-cache');
    return reply.code(200).type('text/html; charset=utf-8').send(html);
  };

  const get = async (req: FastifyRequest, reply: FastifyReply) => {
    const { ctx, path } = await contextOf(req);
    const node = await tree.resolve(ctx, path);
    if (node.kind !== 'item' || node.row.type === 'folder') return folderPage(ctx, node, await tree.resource(ctx, node), reply);
    const scope = node.share;
    const started = startsDownload(req);
    const action: OplogAction = scope ? 'share.download' : 'file.download';
    const detail = scope ? { shareId: scope.share.id } : undefined;
    let content;
    try {
      content = await downloads.fileContent(scope ? scope.owner : ctx.user, String(node.row.id), undefined, scope?.rights);
      if (scope && started) await shares.countDownload(scope, { id: node.row.id, name: content.fileName });
    } catch (err) {
      if (started && err instanceof AppError) await record(req, action, { ok: false, reason: err.message, items: [node.row.id], detail });
      throw err;
    }
    if (started) await record(req, action, { ok: true, items: [node.row.id], detail });
    return sendContent(req, reply, content);
  };

  // ---- writing (MKCOL and DELETE now) ---------------------------------------------------

  const writable = (req: FastifyRequest) => {
    if (req.dav!.scope !== 'readWrite') throw davError(403, READ_ONLY);
  };

  const mkcol = async (req: FastifyRequest, reply: FastifyReply) => {
    writable(req);
    // RFC 4918 §9.3: a body this server does not understand (none is defined)
    if (hasBody(req)) throw davError(415, 'MKCOL 不接受请求体');
    const { ctx, path } = await contextOf(req);
    if (!path.length) throw davError(405, '该位置已存在', { allow: ALLOW });
    const exists = await tree.resolve(ctx, path).then(
      () => true,
      (err: unknown) => {
        if (err instanceof AppError && err.statusCode === 404) return false;
        throw err;
      },
    );
    if (exists) throw davError(405, '该位置已存在同名的文件或文件夹', { allow: ALLOW });
    const parent = await tree.resolve(ctx, path.slice(0, -1)).catch((err: unknown) => {
      if (err instanceof AppError && err.statusCode === 404) throw davError(409, '上级文件夹不存在');
      throw err;
    });
    if (parent.kind !== 'item') throw davError(403, path.length === 1 ? '不能在 WebDAV 根目录新建文件夹' : `不能在“${SHARED_FOLDER_NAME}”中直接新建文件夹`);
    if (parent.row.type !== 'folder') throw davError(409, '上级不是文件夹');
    if (parent.area === 'share') throw davError(403, `通过“${SHARED_FOLDER_NAME}”暂不能新建文件夹`);
    try {
      const created = await folders.createFile(ctx.user, { parentId: String(parent.row.id), name: path[path.length - 1], type: 'folder' });
      await record(req, 'file.create', { ok: true, items: [Number(created.id)] });
    } catch (err) {
      if (err instanceof AppError) {
        await record(req, 'file.create', { ok: false, reason: err.message, object: { type: 'folder', id: '', name: path[path.length - 1] } });
        if (err.statusCode === 409) throw davError(405, err.message, { allow: ALLOW });
      }
      throw err;
    }
    return reply.code(201).type('text/plain; charset=utf-8').send('已新建文件夹\n');
  };

  const remove = async (req: FastifyRequest, reply: FastifyReply) => {
    writable(req);
    const depth = req.headers.depth;
    if (depth !== undefined && String(depth).trim().toLowerCase() !== 'infinity') throw davError(400, '删除只能使用 Depth: infinity');
    const { ctx, path } = await contextOf(req);
    const node = await tree.resolve(ctx, path);
    if (node.kind !== 'item' || node.row.parent_id === null) throw davError(403, '根目录不能删除');
    if (node.area === 'share') throw davError(403, `通过“${SHARED_FOLDER_NAME}”暂不能删除`);
    const items = [node.row.id];
    const before = app.config.oplogRecording ? await describeItems(app.db, items) : new Map();
    try {
      await folders.deleteItems(ctx.user, [String(node.row.id)]);
    } catch (err) {
      if (err instanceof AppError) await record(req, 'file.delete', { ok: false, reason: err.message, object: before.get(node.row.id) });
      throw err;
    }
    await record(req, 'file.delete', { ok: true, object: before.get(node.row.id), detail: { recycled: true } });
    return reply.code(204).send();
  };

  const refused = async (req: FastifyRequest) => {
    throw davError(403, req.dav!.scope === 'readWrite' ? WRITE_CLOSED : `${WRITE_CLOSED}（${READ_ONLY}）`);
  };

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    switch (req.method) {
      case 'OPTIONS':
        reply.header('dav', '1');
        reply.header('ms-author-via', 'DAV');
        reply.header('allow', ALLOW);
        return reply.code(200).send();
      case 'PROPFIND':
        return propfind(req, reply);
      case 'GET':
      case 'HEAD':
        return get(req, reply);
      case 'MKCOL':
        return mkcol(req, reply);
      case 'DELETE':
        return remove(req, reply);
      case 'PUT':
      case 'COPY':
      case 'MOVE':
      case 'PROPPATCH':
      case 'LOCK':
      case 'UNLOCK':
        return refused(req);
      default:
        throw davError(405, '不支持该请求方法', { allow: ALLOW });
    }
  };

  const methods = ['OPTIONS', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', ...DAV_METHODS.map(([m]) => m)];
  // not in the OpenAPI document of /api (WebDAV is described by RFC 4918)
  app.route({ method: methods, url: '/dav', schema: { hide: true }, handler });
  app.route({ method: methods, url: '/dav/*', schema: { hide: true }, handler });
};
