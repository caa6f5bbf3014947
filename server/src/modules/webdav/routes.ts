// 云文档's WebDAV endpoint /dav/ (issue 29): read access (OPTIONS, PROPFIND depth 0 and 1 with
// dead properties, GET and HEAD with Range) and, for read-write application passwords, PUT
// (streamed through the web upload's session, chunks and merge), MKCOL, DELETE (to the recycle
// bin), COPY and MOVE (FoldersService.transfer) and PROPPATCH (dead properties in
// dav_properties), LOCK and UNLOCK (class 2: locks.ts, the If header; the web's own changes
// respect the locks through lock-guard.ts), and Nextcloud's chunked uploads under
// /dav/uploads/<user>/ (chunked-uploads.ts). Outside /api: answers are WebDAV's (XML
// multistatus, status codes, short Chinese texts), never the JSON envelope.
//
// Authentication: HTTP Basic with the user name and an application password (应用密码), or the
// account password where the administrator allows it for people without TOTP; failures are
// throttled and logged as sign-in failures are. OPTIONS answers without it (the same
// everywhere: it says nothing about any path).
import { Readable } from 'node:stream';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppPasswordScope, UserRow } from '../../db/types';
import { AppError, MESSAGES } from '../../lib/errors';
import { LEVEL } from '../folders/rights';
import { findLiveItem } from '../folders/repository';
import type { Actor } from '../uploads/service';
import { formatBytes } from '../../lib/bytes';
import { sendContent, startsDownload } from '../downloads/http';
import { describeItems, requestEntries } from '../oplog/plugin';
import type { OplogAction } from '../oplog/actions';
import type { OplogObject } from '../oplog/repository';
import { FINITE_DEPTH_ERROR, MULTISTATUS_END, MULTISTATUS_START, BadPropfind, element, parsePropfind, responseXml, statusLine, wantsDead, wantsLocks, type DavResource, type PropfindRequest } from './props';
import { contentXml, DavProperties, isProtected, type PatchOp } from './dead-props';
import { DavTree, hrefOf, pathOf, SHARED_FOLDER_NAME, type DavContext, type DavNode } from './tree';
import { DAV_NS, escapeXml, parseXml, XmlError } from './xml';
import { activeLockXml, BadIf, DavLocks, parseIf, timeoutOf, type ActiveLock } from './locks';
import { ASSEMBLE, MAX_OPEN_UPLOADS, MAX_PARTS, validName, type DavUpload } from './chunked-uploads';

declare module 'fastify' {
  interface FastifyRequest {
    /** who a /dav/ request is from (Basic authentication with an application password) */
    dav: { user: UserRow; scope: AppPasswordScope; /** null: the account's own password */ passwordId: number | null } | null;
  }
}

/** `Basic realm="云文档"` with the realm as UTF-8 bytes (a header carries bytes; RFC 7617 charset). */
const CHALLENGE = Buffer.from('Basic realm="云文档", charset="UTF-8"', 'utf8').toString('latin1');
const READ_ONLY = '该应用密码为只读，不能修改文件；如需写入，请在个人设置中新建读写的应用密码';
/** the methods of every path */
const ALLOW = 'OPTIONS, GET, HEAD, PROPFIND, PROPPATCH, PUT, MKCOL, DELETE, COPY, MOVE, LOCK, UNLOCK';
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
  const { appPasswords, folders, shares, downloads, quota, uploads } = app.services;
  const tree = new DavTree(app.db, folders, shares, quota);
  const props = new DavProperties(app.db);
  /** the dead properties of resources, when the request asks for them */
  const locks = new DavLocks(app.db);
  const chunked = app.services.davUploads;
  const withDead = async (resources: DavResource[], request: PropfindRequest) => {
    if (wantsLocks(request)) {
      const found = await locks.coveringMany(resources.flatMap((r) => (r.itemId === undefined || r.idPath === undefined ? [] : [{ id: r.itemId, idPath: r.idPath }])));
      for (const r of resources) if (r.itemId !== undefined) r.locks = (found.get(r.itemId) ?? []).map((l) => activeLockXml(l)).join('');
    }
    if (!wantsDead(request)) return resources;
    const ids = resources.flatMap((r) => (r.itemId === undefined ? [] : [r.itemId]));
    const dead = await props.list(ids);
    for (const r of resources) if (r.itemId !== undefined) r.dead = dead.get(r.itemId) ?? [];
    return resources;
  };

  for (const [method, body] of DAV_METHODS) if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: body });

  // bodies are read by the handler that needs one (PROPFIND, PROPPATCH, PUT), never by a parser: a refused
  // write's body is left to body-drain
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  app.decorateRequest('dav', null);

  /** Appends to the operation log, after the answer (never fails or delays the request). */
  const record = (req: FastifyRequest, action: OplogAction, o: { ok: boolean; reason?: string; items?: number[]; object?: OplogObject; user?: { id: number; userName: string } | null; userName?: string; detail?: Record<string, unknown> }) => {
    const user = o.user !== undefined ? o.user : req.dav ? { id: Number(req.dav.user.id), userName: req.dav.user.user_name } : null;
    app.services.oplog.recordLater(async () => {
      const objects: OplogObject[] = o.object ? [o.object] : o.items?.length ? [...(await describeItems(app.db, o.items)).values()] : [];
      return requestEntries(req, { action, user, userName: o.userName, ok: o.ok, reason: o.reason, detail: { via: 'WebDAV', ...o.detail } }, objects);
    });
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
        record(req, 'auth.lockout', { ok: false, reason: err.message, user: null, userName, detail: { how: 'WebDAV 应用密码' } });
      }
      throw err;
    }
    if (outcome.status === 'missing') throw davError(401, '请使用用户名和应用密码登录 WebDAV（应用密码在个人设置中创建）');
    if (outcome.status === 'invalid') {
      const user = outcome.user ? { id: Number(outcome.user.id), userName: outcome.user.user_name } : null;
      record(req, 'auth.login.fail', { ok: false, reason: outcome.reason, user, userName: outcome.userName, detail: { how: 'WebDAV 应用密码' } });
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

  /** A PROPFIND's body: what it asks for (400 when it is not a propfind). */
  const propfindBody = async (req: FastifyRequest): Promise<PropfindRequest> => {
    try {
      return parsePropfind(await readBody(req, BODY_LIMIT));
    } catch (err) {
      if (err instanceof BadPropfind) throw davError(400, `PROPFIND 请求体无效：${err.message}`);
      throw err;
    }
  };

  const propfind = async (req: FastifyRequest, reply: FastifyReply) => {
    const depthHeader = String(req.headers.depth ?? 'infinity').trim().toLowerCase();
    if (depthHeader === 'infinity') {
      return reply.code(403).type('application/xml; charset=utf-8').send(FINITE_DEPTH_ERROR);
    }
    if (depthHeader !== '0' && depthHeader !== '1') throw davError(400, 'Depth 只能是 0 或 1');
    const request = await propfindBody(req);
    const { ctx, path } = await contextOf(req);
    const node = await tree.resolve(ctx, path);
    const [self] = await withDead([await tree.resource(ctx, node)], request);
    reply.code(207).type('application/xml; charset=utf-8');
    if (depthHeader === '0' || !self.collection) return reply.send(`${MULTISTATUS_START}${responseXml(self, request)}${MULTISTATUS_END}`);
    // a folder of any size: its members a page at a time, as they are read
    async function* body() {
      yield Buffer.from(`${MULTISTATUS_START}${responseXml(self, request)}`);
      for await (const page of tree.children(ctx, node)) {
        if (page.length) yield Buffer.from((await withDead(page, request)).map((r) => responseXml(r, request)).join(''));
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
      if (started && err instanceof AppError) record(req, action, { ok: false, reason: err.message, items: [node.row.id], detail });
      throw err;
    }
    if (started) record(req, action, { ok: true, items: [node.row.id], detail });
    return sendContent(req, reply, content);
  };

  // ---- writing ---------------------------------------------------------------------------

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
    await checkLocks(ctx, await ifState(req, ctx, path), [parent.row]);
    try {
      const created = await folders.createFile(ctx.user, { parentId: String(parent.row.id), name: path[path.length - 1], type: 'folder' });
      record(req, 'file.create', { ok: true, items: [Number(created.id)] });
    } catch (err) {
      if (err instanceof AppError) {
        record(req, 'file.create', { ok: false, reason: err.message, object: { type: 'folder', id: '', name: path[path.length - 1] } });
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
    await checkLocks(ctx, await ifState(req, ctx, path), [{ ...node.row, below: true }, parentOf(node.row)]);
    const items = [node.row.id];
    const before = app.services.oplog.recording ? await describeItems(app.db, items) : new Map();
    try {
      await folders.deleteItems(ctx.user, [String(node.row.id)]);
      await locks.releaseItem(node.row);
    } catch (err) {
      if (err instanceof AppError) record(req, 'file.delete', { ok: false, reason: err.message, object: before.get(node.row.id) });
      throw err;
    }
    record(req, 'file.delete', { ok: true, object: before.get(node.row.id), detail: { recycled: true } });
    return reply.code(204).send();
  };

  /** An item's parent as the lock checks need it (its id and id path), from the item's id path. */
  const parentOf = (row: { id_path: string }) => {
    const ids = row.id_path.split('/').filter(Boolean);
    ids.pop();
    return ids.length ? { id: Number(ids[ids.length - 1]), id_path: ids.join('/') } : null;
  };

  /**
   * The If header (RFC 4918 §10.4) of a write: false → 412; and the lock tokens it submits.
   * A list is true when each condition is: a token that is a live lock covering the list's
   * resource, an entity tag equal to the resource's (Not reverses).
   */
  const ifState = async (req: FastifyRequest, ctx: DavContext, path: string[]): Promise<Set<string>> => {
    const header = req.headers.if;
    const tokens = new Set<string>();
    if (header === undefined) return tokens;
    let lists;
    try {
      lists = parseIf(String(header));
    } catch (err) {
      if (err instanceof BadIf) throw davError(400, err.message);
      throw err;
    }
    const states = new Map<string, Promise<{ etag: string | null; tokens: Set<string> }>>();
    const stateOf = (resource: string | null) => {
      let target: string[] | null = path;
      if (resource !== null) {
        try {
          target = pathOf(new URL(resource, `http://${req.headers.host ?? 'localhost'}`).pathname);
        } catch {
          target = null;
        }
      }
      const key = target ? target.join('/') : '\u0000';
      if (!states.has(key)) {
        states.set(
          key,
          (async () => {
            const node = target ? await lookup(ctx, target) : null;
            if (!node || node.kind !== 'item') return { etag: null, tokens: new Set<string>() };
            const etag = (await tree.resource(ctx, node)).etag ?? null;
            return { etag, tokens: new Set((await locks.covering(node.row)).map((l) => l.token)) };
          })(),
        );
      }
      return states.get(key)!;
    };
    let any = false;
    for (const list of lists) {
      const state = await stateOf(list.resource);
      let all = true;
      for (const c of list.conditions) {
        if (c.kind === 'token' && !c.not) tokens.add(c.value);
        const holds = c.kind === 'token' ? state.tokens.has(c.value) : state.etag !== null && state.etag === c.value;
        if (holds === c.not) all = false;
      }
      if (all) any = true;
    }
    if (!any) throw davError(412, '请求的条件（If）不满足');
    return tokens;
  };

  /**
   * A write to items (and, with `below`, everything under them): every lock covering them must
   * be submitted in the If header by the person who took it, else 423.
   */
  const checkLocks = async (ctx: DavContext, tokens: Set<string>, rows: ({ id: number; id_path: string; below?: boolean } | null)[]) => {
    for (const row of rows) {
      if (!row) continue;
      for (const l of await locks.covering(row, row.below)) {
        if (!(tokens.has(l.token) && l.userId === Number(ctx.user.id))) {
          throw davError(423, `“${decodeURIComponent(l.root.split('/').filter(Boolean).pop() ?? '')}”已被锁定，请先解锁或提供锁令牌`);
        }
      }
    }
  };

  /** The node at `path`, or null when nothing is there. */
  const lookup = (ctx: DavContext, path: string[]) =>
    tree.resolve(ctx, path).catch((err: unknown) => {
      if (err instanceof AppError && err.statusCode === 404) return null;
      throw err;
    });

  /** RFC 9110 §13.1.1/§13.1.2 for a write: If-Match and If-None-Match against the target (null when none). */
  const preconditions = (req: FastifyRequest, etag: string | null) => {
    const list = (h: string | string[] | undefined) => (h === undefined ? null : String(h).split(',').map((t) => t.trim().replace(/^W\//, '')));
    const ifMatch = list(req.headers['if-match']);
    const ifNoneMatch = list(req.headers['if-none-match']);
    if (ifMatch && !(etag !== null && (ifMatch.includes('*') || ifMatch.includes(etag)))) throw davError(412, '目标已改变或不存在（If-Match 不满足）');
    if (ifNoneMatch && etag !== null && (ifNoneMatch.includes('*') || ifNoneMatch.includes(etag))) throw davError(412, '目标已存在（If-None-Match 不满足）');
  };

  /** A write's actor in the folder `parent`: the person, or through 与我共享 the share's owner when the share allows uploads. */
  const actorIn = (ctx: DavContext, parent: Extract<DavNode, { kind: 'item' }>): Actor => {
    const scope = parent.share;
    if (!scope) return { user: ctx.user, share: null };
    if (Number(scope.share.level) < LEVEL.edit) throw davError(403, '该分享不允许上传文件');
    const afterUpload = (item: { id: string; name: string }) => shares.record(scope, 'upload', { id: Number(item.id), name: item.name });
    return { user: scope.owner, share: scope.share, through: scope.rights, uploader: ctx.user, afterUpload };
  };

  /**
   * PUT: the body streamed through the web upload's session, chunks and merge (deduplication,
   * quota and maximum size before a byte is read, a new master version over an existing file).
   */
  const put = async (req: FastifyRequest, reply: FastifyReply) => {
    writable(req);
    const { ctx, path } = await contextOf(req);
    if (req.headers['content-range'] !== undefined) throw davError(400, '不支持部分写入（Content-Range）');
    return writeFile(req, reply, ctx, path, () => declaredSize(req), req.raw);
  };

  /** The body's length as the request declares it (Finder's chunked PUT says it in X-Expected-Entity-Length); 411 without. */
  const declaredSize = (req: FastifyRequest) => {
    const declared = req.headers['content-length'] ?? req.headers['x-expected-entity-length'];
    const size = declared === undefined ? NaN : Number(declared);
    if (!Number.isSafeInteger(size) || size < 0) throw davError(411, '请在请求头中给出内容长度（Content-Length）');
    return size;
  };

  /**
   * Stores `body` (of `size()` bytes, asked once the target is known to be writable) as the file
   * at `path`: new 201, over a file 204 and a new version. PUT's body, or an assembled chunked
   * upload (`stored` then removes it before the answer).
   */
  const writeFile = async (req: FastifyRequest, reply: FastifyReply, ctx: DavContext, path: string[], size: () => number, body: Readable, stored?: () => Promise<void>) => {
    if (path.length < 2) throw davError(path.length ? 405 : 403, '这里不能存放文件', { allow: ALLOW });
    const parent = await tree.resolve(ctx, path.slice(0, -1)).catch((err: unknown) => {
      if (err instanceof AppError && err.statusCode === 404) throw davError(409, '上级文件夹不存在');
      throw err;
    });
    if (parent.kind === 'root') throw davError(403, '不能在 WebDAV 根目录存放文件');
    if (parent.kind === 'shares') throw davError(403, `不能在“${SHARED_FOLDER_NAME}”中直接存放文件`);
    if (parent.row.type !== 'folder') throw davError(409, '上级不是文件夹');
    const target = await lookup(ctx, path);
    if (target && (target.kind !== 'item' || target.row.type === 'folder')) throw davError(405, '同名的文件夹已存在，不能写入', { allow: ALLOW });
    preconditions(req, target ? ((await tree.resource(ctx, target)).etag ?? null) : null);
    await checkLocks(ctx, await ifState(req, ctx, path), [target?.kind === 'item' ? target.row : parent.row]);
    const length = size();
    const actor = actorIn(ctx, parent);
    const name = path[path.length - 1];
    let item;
    try {
      item = await uploads.receiveWhole(actor, String(parent.row.id), name, length, body);
    } catch (err) {
      if (err instanceof AppError) {
        record(req, 'file.upload', { ok: false, reason: err.message, object: { type: 'file', id: target ? String(target.row.id) : '', name } });
        // RFC 4918 §9.7.1 and §11.5: a full personal space is 507
        if (err.code === 41301) throw davError(507, err.message);
        if (err.statusCode === 409 && !target) throw davError(409, err.message);
      }
      throw err;
    }
    record(req, 'file.upload', { ok: true, items: [Number(item.id)], detail: target ? { newVersion: true } : undefined });
    await stored?.();
    const now = await lookup(ctx, [...path.slice(0, -1), item.name]);
    const etag = now ? (await tree.resource(ctx, now)).etag : undefined;
    if (etag) {
      reply.header('etag', etag);
      // Nextcloud's clients read these after a chunked upload
      reply.header('oc-etag', etag);
    }
    reply.header('oc-fileid', String(item.id));
    if (target) return reply.code(204).send();
    reply.header('location', hrefOf([...(parent.path), item.name], false));
    return reply.code(201).type('text/plain; charset=utf-8').send('已上传\n');
  };

  /**
   * COPY and MOVE through FoldersService.transfer (the web's rights, name rules, descendants'
   * paths, quotas, across 个人文件 and 企业文件). Over an existing target (Overwrite: T): a file
   * over a file becomes its new master version (the web's 新版本, so that a save by "write a
   * temporary file, then MOVE it over" keeps the history); anything else sends the old target
   * to the recycle bin first (the web's 覆盖).
   */
  const copyMove = async (req: FastifyRequest, reply: FastifyReply, mode: 'copy' | 'move') => {
    writable(req);
    const { ctx, path } = await contextOf(req);
    const depth = String(req.headers.depth ?? 'infinity').trim().toLowerCase();
    if (depth !== 'infinity' && !(mode === 'copy' && depth === '0')) throw davError(400, mode === 'move' ? '移动只能使用 Depth: infinity' : '复制只能使用 Depth: 0 或 infinity');
    const overwriteHeader = String(req.headers.overwrite ?? 'T').trim().toUpperCase();
    if (overwriteHeader !== 'T' && overwriteHeader !== 'F') throw davError(400, 'Overwrite 只能是 T 或 F');
    const destination = req.headers.destination;
    if (typeof destination !== 'string' || !destination) throw davError(400, '缺少目标地址（Destination）');
    let destPath: string[] | null;
    try {
      const url = new URL(destination, `http://${req.headers.host ?? 'localhost'}`);
      destPath = pathOf(url.pathname);
    } catch {
      destPath = null;
    }
    if (!destPath) throw davError(502, '目标地址不在本服务器的 WebDAV 中');
    const source = await tree.resolve(ctx, path);
    if (source.kind !== 'item' || source.row.parent_id === null) throw davError(403, mode === 'move' ? '根目录不能移动' : '根目录不能复制');
    if (source.area === 'share') throw davError(403, `通过“${SHARED_FOLDER_NAME}”暂不能复制或移动`);
    if (destPath.length < 2) throw davError(403, '不能复制或移动到这里');
    const parent = await tree.resolve(ctx, destPath.slice(0, -1)).catch((err: unknown) => {
      if (err instanceof AppError && err.statusCode === 404) throw davError(409, '目标的上级文件夹不存在');
      throw err;
    });
    if (parent.kind !== 'item') throw davError(403, '不能复制或移动到这里');
    if (parent.area === 'share') throw davError(403, `暂不能复制或移动到“${SHARED_FOLDER_NAME}”中`);
    if (parent.row.type !== 'folder') throw davError(409, '目标的上级不是文件夹');
    const name = destPath[destPath.length - 1];
    let existing = await lookup(ctx, destPath);
    if (existing?.kind === 'item' && existing.row.id === source.row.id) {
      // the same item: only a MOVE that changes the name's case does anything
      if (mode === 'copy' || existing.row.name === name) throw davError(403, '源与目标相同');
      existing = null;
    }
    if (existing && overwriteHeader === 'F') throw davError(412, '目标已存在（Overwrite: F）');
    await checkLocks(ctx, await ifState(req, ctx, path), [
      existing?.kind === 'item' ? { ...existing.row, below: true } : parent.row,
      ...(mode === 'move' ? [{ ...source.row, below: true }, parentOf(source.row)] : []),
    ]);
    const target = existing?.kind === 'item' ? existing : null;
    const action: OplogAction = mode === 'move' ? 'file.move' : 'file.copy';
    const before = app.services.oplog.recording ? await describeItems(app.db, [source.row.id]) : new Map();
    let made: number[];
    try {
      if (mode === 'copy' && source.row.type === 'folder' && depth === '0') {
        // Depth 0: the collection alone, without its members
        if (target) await folders.deleteItems(ctx.user, [String(target.row.id)]);
        const created = await folders.createFile(ctx.user, { parentId: String(parent.row.id), name, type: 'folder' });
        made = [Number(created.id)];
      } else {
        const strategy = target ? (target.row.type === 'file' && source.row.type === 'file' ? 0 : 1) : null;
        const result = await folders.transfer(ctx.user, { ids: [String(source.row.id)], targetId: String(parent.row.id), strategy }, mode, { name });
        if (result.conflictType) throw davError(412, '目标位置已有同名的文件或文件夹');
        made = result.items.map((i) => Number(i.id));
      }
    } catch (err) {
      if (err instanceof AppError) {
        record(req, action, { ok: false, reason: err.message, object: before.get(source.row.id) });
        if (err.code === 41301) throw davError(507, err.message);
        if (err.code === 40002) throw davError(403, err.message);
      }
      throw err;
    }
    if (mode === 'copy' && made.length === 1) await props.copy(source.row.id, made[0]).catch(() => undefined);
    // a lock does not go with its item (RFC 4918 §9.9.4)
    if (mode === 'move') {
      // its new id path (the items below it moved too); gone when it became a new version
      const moved = await findLiveItem(app.db, source.row.id);
      if (moved) await locks.releaseItem(moved).catch(() => undefined);
    }
    record(req, action, { ok: true, items: made, detail: { from: path.join('/'), to: destPath.join('/'), ...(target ? { replaced: true } : {}) } });
    if (target) return reply.code(204).send();
    return reply.code(201).type('text/plain; charset=utf-8').send(mode === 'move' ? '已移动\n' : '已复制\n');
  };

  /** PROPPATCH (RFC 4918 §9.2): dead properties set and removed in order, all or none; DAV: properties are protected (403, the others 424). */
  const proppatch = async (req: FastifyRequest, reply: FastifyReply) => {
    writable(req);
    let ops: PatchOp[];
    try {
      const root = parseXml(await readBody(req, BODY_LIMIT));
      if (root.ns !== DAV_NS || root.name !== 'propertyupdate') throw new XmlError('请求体应为 DAV:propertyupdate');
      ops = [];
      for (const step of root.children) {
        if (step.ns !== DAV_NS || (step.name !== 'set' && step.name !== 'remove')) continue;
        for (const prop of step.children.filter((c) => c.ns === DAV_NS && c.name === 'prop')) {
          for (const p of prop.children) {
            ops.push(step.name === 'set' ? { kind: 'set', ns: p.ns, name: p.name, value: contentXml(p) } : { kind: 'remove', ns: p.ns, name: p.name });
          }
        }
      }
    } catch (err) {
      if (err instanceof XmlError) throw davError(400, `PROPPATCH 请求体无效：${err.message}`);
      throw err;
    }
    const { ctx, path } = await contextOf(req);
    const node = await tree.resolve(ctx, path);
    if (node.kind !== 'item') throw davError(403, '这里的属性不能修改');
    await node.rights.ensure([node.row]);
    if (!node.rights.can(node.row, LEVEL.edit)) throw davError(403, '您没有修改该文件或文件夹的权限');
    await checkLocks(ctx, await ifState(req, ctx, path), [node.row]);
    const refusedOps = ops.filter((o) => isProtected(o.ns));
    if (!refusedOps.length) await props.patch(node.row.id, ops);
    const names = (list: PatchOp[]) => list.map((o, n) => element(o, null, n)).join('');
    const href = (await tree.resource(ctx, node)).href;
    let body = `${MULTISTATUS_START}<D:response><D:href>${escapeXml(href)}</D:href>`;
    if (refusedOps.length) {
      const others = ops.filter((o) => !isProtected(o.ns));
      body += `<D:propstat><D:prop>${names(refusedOps)}</D:prop>${statusLine(403)}<D:error><D:cannot-modify-protected-property/></D:error></D:propstat>`;
      if (others.length) body += `<D:propstat><D:prop>${names(others)}</D:prop>${statusLine(424)}</D:propstat>`;
    } else {
      body += `<D:propstat><D:prop>${names(ops)}</D:prop>${statusLine(200)}</D:propstat>`;
    }
    body += `</D:response>${MULTISTATUS_END}`;
    return reply.code(207).type('application/xml; charset=utf-8').send(body);
  };

  const lockAnswer = (reply: FastifyReply, l: ActiveLock, status: number) =>
    reply
      .code(status)
      .header('lock-token', `<${l.token}>`)
      .type('application/xml; charset=utf-8')
      .send(`<?xml version="1.0" encoding="utf-8"?>\n<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(l)}</D:lockdiscovery></D:prop>\n`);

  /** LOCK (RFC 4918 §9.10): a new exclusive or shared write lock, or a refresh (no body, the token in If). */
  const lock = async (req: FastifyRequest, reply: FastifyReply) => {
    writable(req);
    const text = await readBody(req, BODY_LIMIT);
    const { ctx, path } = await contextOf(req);
    const timeout = timeoutOf(req.headers.timeout === undefined ? undefined : String(req.headers.timeout));
    if (!text.trim()) {
      const tokens = await ifState(req, ctx, path);
      const node = await tree.resolve(ctx, path);
      if (node.kind !== 'item') throw davError(412, '没有可刷新的锁');
      const held = (await locks.covering(node.row)).find((l) => tokens.has(l.token) && l.userId === Number(ctx.user.id));
      if (!held) throw davError(412, '没有可刷新的锁（If 中应有该锁的令牌）');
      const refreshed = await locks.refresh(held.token, timeout);
      if (!refreshed) throw davError(412, '锁已失效');
      return lockAnswer(reply, refreshed, 200);
    }
    let scope: 'exclusive' | 'shared';
    let owner = '';
    try {
      const root = parseXml(text);
      if (root.ns !== DAV_NS || root.name !== 'lockinfo') throw new XmlError('请求体应为 DAV:lockinfo');
      const child = (name: string) => root.children.find((c) => c.ns === DAV_NS && c.name === name);
      const scopeEl = child('lockscope')?.children.find((c) => c.ns === DAV_NS);
      if (!scopeEl || (scopeEl.name !== 'exclusive' && scopeEl.name !== 'shared')) throw new XmlError('lockscope 应为 exclusive 或 shared');
      scope = scopeEl.name;
      if (!child('locktype')?.children.some((c) => c.ns === DAV_NS && c.name === 'write')) throw new XmlError('locktype 应为 write');
      const ownerEl = child('owner');
      if (ownerEl) owner = contentXml(ownerEl);
    } catch (err) {
      if (err instanceof XmlError) throw davError(400, `LOCK 请求体无效：${err.message}`);
      throw err;
    }
    const depthHeader = String(req.headers.depth ?? 'infinity').trim().toLowerCase();
    if (depthHeader !== '0' && depthHeader !== 'infinity') throw davError(400, '锁定只能使用 Depth: 0 或 infinity');
    const tokens = await ifState(req, ctx, path);
    let node = await lookup(ctx, path);
    let created = false;
    if (!node) {
      // RFC 4918 §7.3: a LOCK of an unmapped URL makes an empty file
      if (path.length < 2) throw davError(403, '这里不能锁定');
      const parent = await tree.resolve(ctx, path.slice(0, -1)).catch((err: unknown) => {
        if (err instanceof AppError && err.statusCode === 404) throw davError(409, '上级文件夹不存在');
        throw err;
      });
      if (parent.kind !== 'item') throw davError(403, '这里不能锁定');
      if (parent.row.type !== 'folder') throw davError(409, '上级不是文件夹');
      await checkLocks(ctx, tokens, [parent.row]);
      const item = await uploads.receiveWhole(actorIn(ctx, parent), String(parent.row.id), path[path.length - 1], 0, Readable.from([]));
      record(req, 'file.upload', { ok: true, items: [Number(item.id)], detail: { lock: true } });
      node = await tree.resolve(ctx, [...path.slice(0, -1), item.name]);
      created = true;
    }
    if (node.kind !== 'item') throw davError(403, '这里不能锁定');
    await node.rights.ensure([node.row]);
    if (!node.rights.can(node.row, LEVEL.edit)) throw davError(403, '您没有锁定该文件或文件夹的权限');
    const made = await locks.take(node.row, {
      userId: Number(ctx.user.id),
      scope,
      depth: depthHeader === '0' ? 0 : -1,
      owner,
      timeoutSeconds: timeout,
      root: hrefOf(node.path, node.row.type === 'folder'),
    });
    if (!made) {
      return reply
        .code(423)
        .type('application/xml; charset=utf-8')
        .send('<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:no-conflicting-lock/></D:error>\n');
    }
    return lockAnswer(reply, made, created ? 201 : 200);
  };

  /** UNLOCK (RFC 4918 §9.11): the lock named by Lock-Token, when it covers the resource and is the person's. */
  const unlock = async (req: FastifyRequest, reply: FastifyReply) => {
    writable(req);
    const token = /^\s*<([^>]+)>\s*$/.exec(String(req.headers['lock-token'] ?? ''))?.[1];
    if (!token) throw davError(400, '缺少锁令牌（Lock-Token）');
    const { ctx, path } = await contextOf(req);
    const node = await tree.resolve(ctx, path);
    if (node.kind !== 'item') throw davError(409, '该锁不属于这里');
    const held = (await locks.covering(node.row)).find((l) => l.token === token);
    if (!held) {
      return reply
        .code(409)
        .type('application/xml; charset=utf-8')
        .send('<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:lock-token-matches-request-uri/></D:error>\n');
    }
    if (held.userId !== Number(ctx.user.id)) throw davError(403, '只能解除自己的锁');
    await locks.release(token);
    return reply.code(204).send();
  };

  // ---- chunked uploads (Nextcloud's protocol: chunked-uploads.ts) -----------------------------

  /** PROPFIND of an upload: the upload and its parts (what a client resumes from). */
  const uploadListing = async (req: FastifyRequest, reply: FastifyReply, upload: DavUpload, base: string) => {
    const depth = String(req.headers.depth ?? '1').trim();
    if (depth !== '0' && depth !== '1') throw davError(400, 'Depth 只能是 0 或 1');
    const request = await propfindBody(req);
    const self: DavResource = { href: base, collection: true, displayName: upload.name, lastModified: Number(upload.touched_at), created: Number(upload.created_at) };
    const parts: DavResource[] =
      depth === '0'
        ? []
        : (await chunked.parts(upload)).map((p) => ({ href: `${base}${encodeURIComponent(p.name)}`, collection: false, displayName: p.name, size: p.size, lastModified: p.modifiedAt, contentType: 'application/octet-stream' }));
    return reply
      .code(207)
      .type('application/xml; charset=utf-8')
      .send(`${MULTISTATUS_START}${[self, ...parts].map((r) => responseXml(r, request)).join('')}${MULTISTATUS_END}`);
  };

  /** OC-Total-Length, when sent; 400 when it is not a length. */
  const totalLengthOf = (req: FastifyRequest): number | null => {
    const header = req.headers['oc-total-length'];
    if (header === undefined) return null;
    const n = Number(header);
    if (!Number.isSafeInteger(n) || n < 0) throw davError(400, 'OC-Total-Length 无效');
    return n;
  };

  /** The path below /dav/ that a Destination header names (an absolute URL or path); 400 otherwise. */
  const destinationPath = (req: FastifyRequest, header: string): string[] => {
    let pathname: string;
    try {
      pathname = new URL(header, `http://${req.headers.host ?? 'localhost'}`).pathname;
    } catch {
      throw davError(400, '目标地址（Destination）无效');
    }
    const path = pathOf(pathname);
    if (!path || path[0] === 'uploads') throw davError(400, '目标地址须在 /dav/ 之下');
    return path;
  };

  /** /dav/uploads/<user>/<upload>/<part>: MKCOL, PUT, PROPFIND, MOVE .file, DELETE. */
  const chunkedUpload = async (req: FastifyRequest, reply: FastifyReply, path: string[]) => {
    const user = req.dav!.user;
    if (path.length >= 2 && path[1] !== user.user_name) throw davError(403, '只能使用自己的上传目录');
    const [, , name, part] = path;
    const base = hrefOf(path.slice(0, 3), true);
    if (path.length < 3) {
      if (req.method === 'PROPFIND') {
        const request = await propfindBody(req);
        const self: DavResource = { href: hrefOf(path, true), collection: true, displayName: path[path.length - 1] ?? 'uploads' };
        return reply.code(207).type('application/xml; charset=utf-8').send(`${MULTISTATUS_START}${responseXml(self, request)}${MULTISTATUS_END}`);
      }
      throw davError(405, '请在上传目录下新建一次上传', { allow: 'OPTIONS, PROPFIND' });
    }
    if (path.length > 4 || !validName(name) || (part !== undefined && part !== ASSEMBLE && !validName(part))) throw davError(400, '上传或分片的名称无效（只能用字母、数字、点、下划线和连字符）');
    writable(req);
    const userId = Number(user.id);
    if (path.length === 3 && req.method === 'MKCOL') {
      if (hasBody(req)) throw davError(415, 'MKCOL 不接受请求体');
      if ((await chunked.openCount(userId)) >= MAX_OPEN_UPLOADS) throw davError(507, `未完成的分片上传已有 ${MAX_OPEN_UPLOADS} 个，请先完成或取消一些`);
      const destination = typeof req.headers.destination === 'string' ? req.headers.destination : '';
      if (destination) destinationPath(req, destination);
      const made = await chunked.open(userId, name, destination, totalLengthOf(req));
      if (!made) throw davError(405, '该上传已存在', { allow: 'PROPFIND, PUT, MOVE, DELETE' });
      return reply.code(201).type('text/plain; charset=utf-8').send('已开始分片上传\n');
    }
    const upload = await chunked.find(userId, name);
    if (!upload) throw davError(404, '该分片上传不存在或已过期（一天内未继续的会被清除）');
    if (path.length === 3) {
      if (req.method === 'PROPFIND') return uploadListing(req, reply, upload, base);
      if (req.method === 'DELETE') {
        await chunked.remove(upload);
        return reply.code(204).send();
      }
      throw davError(405, '不支持该请求方法', { allow: 'PROPFIND, DELETE' });
    }
    if (part === ASSEMBLE) {
      if (req.method !== 'MOVE') throw davError(405, '请用 MOVE 把分片合成文件', { allow: 'MOVE' });
      const header = typeof req.headers.destination === 'string' && req.headers.destination ? req.headers.destination : upload.destination;
      if (!header) throw davError(400, '缺少目标地址（Destination）');
      const target = destinationPath(req, header);
      const parts = await chunked.parts(upload);
      if (!parts.length) throw davError(400, '还没有收到任何分片');
      const total = parts.reduce((sum, p) => sum + p.size, 0);
      const declared = totalLengthOf(req) ?? (upload.total_length === null ? null : Number(upload.total_length));
      if (declared !== null && declared !== total) throw davError(400, `分片合计 ${total} 字节，与声明的长度 ${declared} 字节不符，请补齐缺少的分片`);
      const { ctx } = await contextOf(req);
      // the upload is gone before the answer goes out
      return writeFile(req, reply, ctx, target, () => total, chunked.assembled(upload, parts), () => chunked.remove(upload));
    }
    if (req.method === 'PUT') {
      const size = declaredSize(req);
      const { maxFileSize } = await uploads.options();
      const stored = await chunked.putPart(upload, part, req.raw, size, totalLengthOf(req), maxFileSize);
      if (stored === 'size') throw davError(413, `文件超过允许的最大大小（${formatBytes(maxFileSize)}）`);
      if (stored === 'parts') throw davError(400, `一次上传最多 ${MAX_PARTS} 个分片`);
      return reply.code(stored === 'created' ? 201 : 204).send();
    }
    if (req.method === 'DELETE') {
      if (!(await chunked.removePart(upload, part))) throw davError(404, '该分片不存在');
      return reply.code(204).send();
    }
    throw davError(405, '不支持该请求方法', { allow: 'PUT, DELETE' });
  };

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method !== 'OPTIONS') {
      const path = pathOf(req.url);
      if (path?.[0] === 'uploads') return chunkedUpload(req, reply, path);
    }
    switch (req.method) {
      case 'OPTIONS':
        reply.header('dav', '1, 2');
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
        return put(req, reply);
      case 'COPY':
        return copyMove(req, reply, 'copy');
      case 'MOVE':
        return copyMove(req, reply, 'move');
      case 'PROPPATCH':
        return proppatch(req, reply);
      case 'LOCK':
        return lock(req, reply);
      case 'UNLOCK':
        return unlock(req, reply);
      default:
        throw davError(405, '不支持该请求方法', { allow: ALLOW });
    }
  };

  const methods = ['OPTIONS', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', ...DAV_METHODS.map(([m]) => m)];
  // not in the OpenAPI document of /api (WebDAV is described by RFC 4918)
  app.route({ method: methods, url: '/dav', schema: { hide: true }, handler });
  app.route({ method: methods, url: '/dav/*', schema: { hide: true }, handler });
};
