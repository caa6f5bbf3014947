// Recording in the operation log from the routes: a route names its action in its config
// (`config: { oplog: { action, items… } }`); the items it acts on are read before the handler
// runs (their names and paths at that time), and the record is made once the answer has gone
// out, with the result (成功, or 失败 and the Chinese message of the failure); it is written
// within a second with the other records of that second (service.ts), and the log's readers on
// this instance wait for it. A handler may add to the record through `req.oplog`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { globalPlugin } from '../../lib/plugin';
import { userNameKey } from '../users/repository';
import type { OplogAction } from './actions';
import { itemObject, type LoggedItem, type OplogEntry, type OplogObject } from './repository';

type Ids = ReadonlyArray<string | number> | string | number | null | undefined;

export interface OplogRoute {
  action: OplogAction;
  /** the items acted on, named in the request */
  items?: (req: FastifyRequest) => Ids | Promise<Ids>;
  /**
   * The handler reads the items it acts on and changes neither their names nor their places (a
   * download): it hands them to the record (`noteItem`) rather than the record reading them
   * before it runs, one query less per request. One it never reached (a refusal) is read when
   * the record is made.
   */
  itemsFromHandler?: boolean;
  /** the items the answer names (a new file): from its result, on success */
  resultItems?: (result: any) => Ids;
  /** another kind of object */
  object?: (req: FastifyRequest) => OplogObject | null | undefined | Promise<OplogObject | null | undefined>;
  /** the object the answer names (a request just started), on success */
  resultObject?: (result: any, req: FastifyRequest) => OplogObject | null | undefined;
  detail?: (req: FastifyRequest) => Record<string, unknown> | undefined;
  /**
   * Decides from the outcome whether and as what to record (e.g. a sign-in that only reached its
   * second step is not one yet): an action, or null for no record.
   */
  when?: (ok: boolean, result: any, status: number, req: FastifyRequest) => OplogAction | null;
}

/** What a handler adds to its record. */
export interface OplogNote {
  /** who acted, when the session does not say (a sign-in) */
  user?: { id: number; userName: string } | null;
  /** the user name typed, for a failed sign-in */
  userName?: string;
  object?: OplogObject;
  items?: Ids;
  detail?: Record<string, unknown>;
  onBehalf?: { id: number; name: string };
  /** nothing happened worth a record (signing out without a session) */
  skip?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    oplog?: OplogRoute;
  }
  interface FastifyRequest {
    /** added to this request's operation-log record (routes with config.oplog) */
    oplog: OplogNote;
    oplogBefore: Map<number, OplogObject> | null;
    /** the items the route named, read before its handler ran */
    oplogItems: number[] | null;
    /** what the route records (read once per request: the route's options cost a lookup each time) */
    oplogRoute: OplogRoute | null;
    /** the answer as the handler gave it (before serialization), for its record */
    oplogResult: { result?: unknown; message?: string } | null;
    /** the answer's body, for its record */
    oplogPayload: unknown;
  }
}

const idsOf = (ids: Ids): number[] => {
  if (ids === null || ids === undefined || ids === '') return [];
  const list = Array.isArray(ids) ? ids : [ids as string | number];
  return list.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0).slice(0, 1000);
};

/** Names and places of items at this moment. */
export async function describeItems(db: Kysely<Database>, ids: number[]): Promise<Map<number, OplogObject>> {
  const out = new Map<number, OplogObject>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('items')
      .select(['id', 'name', 'name_path', 'id_path', 'space_type', 'type'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(Number(r.id), itemObject(r));
  }
  return out;
}

/**
 * For a route with `itemsFromHandler`: the handler read this item (as it was when the request
 * acted on it), so its record needs no read of its own. Nothing for a route that records nothing.
 */
export function noteItem(req: FastifyRequest, row: LoggedItem): void {
  if (!req.oplogRoute) return;
  (req.oplogBefore ??= new Map()).set(Number(row.id), itemObject(row));
}

/**
 * describeItems for many requests at once: the ids asked for while a read is under way are read
 * together in the next query (the log's reads then cost one statement however many requests ask).
 */
export function batchedDescriber(db: Kysely<Database>): (ids: number[]) => Promise<Map<number, OplogObject>> {
  let waiting: { ids: number[]; resolve: (m: Map<number, OplogObject>) => void; reject: (err: unknown) => void }[] = [];
  let running = false;
  const run = async () => {
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        const all = await describeItems(db, [...new Set(batch.flatMap((b) => b.ids))]);
        for (const b of batch) b.resolve(new Map(b.ids.filter((id) => all.has(id)).map((id) => [id, all.get(id)!])));
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    running = false;
  };
  // read at once when no read is under way; else together with the others in the next one
  return (ids) =>
    new Promise((resolve, reject) => {
      waiting.push({ ids, resolve, reject });
      if (!running) {
        running = true;
        void run();
      }
    });
}

/** What a request's records carry besides the object: who, from where, with what, and how it ended. */
export interface RequestOutcome {
  action: OplogAction;
  user: { id: number; userName: string } | null;
  /** the user name typed, when nobody is known (a failed sign-in) */
  userName?: string;
  onBehalf?: { id: number; name: string };
  ok: boolean;
  reason?: string;
  detail?: Record<string, unknown>;
}

/** The records of a request: one per object it acted on, or one without an object. */
export function requestEntries(req: FastifyRequest, o: RequestOutcome, objects: readonly OplogObject[]): OplogEntry[] {
  const base: OplogEntry = {
    userId: o.user?.id ?? null,
    userName: o.user?.userName ?? o.userName ?? '',
    onBehalfId: o.onBehalf?.id ?? null,
    onBehalfName: o.onBehalf?.name ?? '',
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? ''),
    action: o.action,
    result: o.ok ? 'ok' : 'fail',
    reason: o.ok ? '' : (o.reason ?? ''),
    requestId: String(req.id),
    detail: o.detail ?? {},
  };
  return objects.length ? objects.map((object) => ({ ...base, object })) : [base];
}

function parsed(payload: unknown): { result?: unknown; message?: string } | null {
  if (typeof payload !== 'string' || payload.length > 2_000_000 || payload[0] !== '{') return null;
  try {
    return JSON.parse(payload) as { result?: unknown; message?: string };
  } catch {
    return null;
  }
}

/** Fields never written to the log (a password typed into an admin form). */
const SECRET_FIELD = /pass|secret|token|key|code/i;

/** A request body without its secrets, cut short: what an administrator changed. */
export function sanitized(body: unknown, depth = 0): unknown {
  if (Array.isArray(body)) return body.slice(0, 50).map((v) => sanitized(v, depth + 1));
  if (body && typeof body === 'object') {
    if (depth > 3) return '…';
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) out[k] = SECRET_FIELD.test(k) ? '******' : sanitized(v, depth + 1);
    return out;
  }
  return typeof body === 'string' && body.length > 500 ? `${body.slice(0, 500)}…` : body;
}

/**
 * Every change an administrator makes through /api/Admin (a call other than GET) is recorded,
 * done or refused, named by the call's own summary, with what was sent (secrets masked).
 */
const ADMIN_CHANGE: OplogRoute = {
  action: 'admin.action',
  object: (req) => ({ type: 'admin', id: req.routeOptions.url ?? '', name: String((req.routeOptions.schema as { summary?: string } | undefined)?.summary ?? '') }),
  detail: (req) => ({ method: req.method, params: req.params, query: req.query, body: sanitized(req.body) }),
};

function routeLog(req: FastifyRequest): OplogRoute | null {
  const own = req.routeOptions.config?.oplog;
  if (own) return own;
  if (req.method !== 'GET' && req.method !== 'HEAD' && (req.routeOptions.url ?? '').startsWith('/api/Admin/')) return ADMIN_CHANGE;
  return null;
}

export const oplogPlugin = globalPlugin('yunwendang-oplog', async (app) => {
  app.decorateRequest('oplog', null as unknown as OplogNote);
  app.decorateRequest('oplogBefore', null);
  app.decorateRequest('oplogItems', null);
  app.decorateRequest('oplogRoute', null);
  app.decorateRequest('oplogResult', null);
  app.decorateRequest('oplogPayload', null);
  const log = app.services.oplog;
  const describe = batchedDescriber(app.db);
  // OPLOG_RECORDING=off: only to measure what recording costs (bench figure 10)
  const recording = log.recording;
  if (!recording) app.log.warn('云文档操作日志已关闭（OPLOG_RECORDING=off），只应在测量记录开销时这样设置');

  // the hooks run for every request: callback style, without a promise each when there is nothing to do
  app.addHook('onRequest', (req, _reply, done) => {
    const route = routeLog(req);
    if (route) {
      req.oplogRoute = route;
      req.oplog = {};
    }
    done();
  });

  app.addHook('preHandler', (req, _reply, done) => {
    const route = recording ? req.oplogRoute : null;
    const items = route && !route.itemsFromHandler ? route.items : undefined;
    if (!items) return done();
    Promise.resolve()
      .then(() => items(req))
      .then(async (named) => {
        const ids = idsOf(named);
        req.oplogItems = ids;
        if (ids.length) req.oplogBefore = await describe(ids);
      })
      .then(() => done(), done);
  });

  // the answer as the handler gave it: its record needs no parse of the text sent
  app.addHook('preSerialization', (req, _reply, payload, done) => {
    if (recording && req.oplogRoute && payload && typeof payload === 'object') req.oplogResult = payload as { result?: unknown; message?: string };
    done(null, payload);
  });

  // the record is made once the answer is out (or the client went away in the middle of it: a
  // download cut short is recorded too), so the request never waits for its record
  app.addHook('onSend', (req, reply, payload, done) => {
    const route = req.oplogRoute;
    if (recording && route && !req.oplog.skip && req.oplogPayload === null) {
      req.oplogPayload = payload ?? '';
      reply.raw.once('close', () => log.recordLater(() => entriesOf(req, route, reply.statusCode)));
    }
    done(null, payload);
  });

  async function entriesOf(req: FastifyRequest, route: OplogRoute, status: number): Promise<OplogEntry[] | null> {
    try {
      const ok = status < 400;
      const body = !ok || route.resultItems || route.resultObject || route.when ? (req.oplogResult ?? parsed(req.oplogPayload)) : null;
      const action = route.when ? route.when(ok, body?.result, status, req) : route.action;
      if (!action) return null;
      const note = req.oplog;
      let user = note.user !== undefined ? note.user : req.auth ? { id: Number(req.auth.user.id), userName: req.auth.user.user_name } : null;
      if (!user && note.userName) {
        // a failed sign-in is the account's too (its owner sees it in 登录记录)
        const key = userNameKey(note.userName);
        const row = key ? await app.db.selectFrom('users').select(['id', 'user_name']).where('user_name_key', '=', key).executeTakeFirst() : undefined;
        if (row) user = { id: Number(row.id), userName: row.user_name };
      }
      const objects: OplogObject[] = [];
      const fromResult = ok && route.resultObject ? route.resultObject(body?.result, req) : null;
      if (note.object) objects.push(note.object);
      else if (fromResult) objects.push(fromResult);
      else if (route.object) {
        const o = await route.object(req);
        if (o) objects.push(o);
      }
      const before = req.oplogBefore ?? new Map<number, OplogObject>();
      // a request refused before its handler (validation) named no items yet
      const named = req.oplogItems ?? (route.items ? idsOf(await Promise.resolve(route.items(req)).catch(() => null)) : []);
      const unread = route.itemsFromHandler ? named.filter((id) => !before.has(id)) : [];
      const late = unread.length ? await describe(unread) : null;
      for (const id of named) objects.push(before.get(id) ?? late?.get(id) ?? { type: 'item', id: String(id), name: '' });
      const after = [...idsOf(note.items), ...(ok && route.resultItems ? idsOf(route.resultItems(body?.result)) : [])];
      if (after.length) for (const o of (await describe(after)).values()) objects.push(o);
      return requestEntries(
        req,
        {
          action,
          user,
          userName: note.userName,
          onBehalf: note.onBehalf,
          ok,
          reason: body?.message ?? `HTTP ${status}`,
          detail: { ...route.detail?.(req), ...note.detail },
        },
        objects,
      );
    } catch (err) {
      req.log.error({ err }, '云文档操作日志记录失败');
      return null;
    }
  }
});
