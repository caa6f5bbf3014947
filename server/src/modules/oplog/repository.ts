// Rows of the operation log: appended by requests (oplog/plugin.ts) and by services, read by
// the log page, 文件动态 and 登录记录 with the filters of schemas.ts.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/types';

export interface OplogObject {
  type: string;
  id: string;
  name: string;
  /** where it was at the time (an item's folder path) */
  path?: string;
  /** an item's id path */
  scope?: string;
}

export interface OplogEntry {
  at?: number;
  userId: number | null;
  userName: string;
  onBehalfId?: number | null;
  onBehalfName?: string;
  ip?: string;
  userAgent?: string;
  action: string;
  object?: OplogObject | null;
  result?: 'ok' | 'fail';
  reason?: string;
  requestId?: string;
  detail?: Record<string, unknown>;
}

const clip = (s: string | undefined, n: number) => (s ?? '').slice(0, n);

/** The columns of an item a record describes. */
export interface LoggedItem {
  id: number | string;
  name: string;
  name_path: string;
  id_path: string;
  space_type: number | string;
  type: string;
}

/** What a record says of an item: its name and its place (folder path and id path) now. */
export function itemObject(r: LoggedItem): OplogObject {
  const space = Number(r.space_type) === 2 ? '个人空间' : '企业空间';
  return {
    type: r.type === 'folder' ? 'folder' : 'file',
    id: String(r.id),
    name: r.name,
    path: `${space}/${r.name_path}`.replace(/\/$/, ''),
    scope: r.id_path,
  };
}

/** The columns of a record as stored, with the department path of its person at the time. */
function recordRow(e: OplogEntry, now: number, deptPath: string) {
  return {
    at: e.at ?? now,
    user_id: e.userId,
    user_name: clip(e.userName, 200),
    // department administrators read their subtree by it
    dept_path: deptPath,
    on_behalf_id: e.onBehalfId ?? null,
    on_behalf_name: clip(e.onBehalfName, 200),
    ip: clip(e.ip, 100),
    user_agent: clip(e.userAgent, 500),
    action: e.action,
    object_type: e.object?.type ?? '',
    object_id: clip(e.object?.id, 100),
    object_name: clip(e.object?.name, 500),
    object_path: clip(e.object?.path, 2000),
    object_scope: clip(e.object?.scope, 1000),
    result: e.result ?? 'ok',
    reason: clip(e.reason, 1000),
    request_id: clip(e.requestId, 100),
    detail: JSON.stringify(e.detail ?? {}),
  };
}

/** The entries' rows, each with its person's department path now ('' without one): one query for all of them. */
export async function recordRows(db: Kysely<Database>, entries: readonly OplogEntry[], now: number) {
  const ids = [...new Set(entries.flatMap((e) => (e.userId === null ? [] : [e.userId])))];
  const paths = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('users as u')
      .innerJoin('departments as d', 'd.id', 'u.dept_id')
      .select(['u.id', 'd.path'])
      .where('u.id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) paths.set(Number(r.id), r.path);
  }
  return entries.map((e) => recordRow(e, now, e.userId === null ? '' : (paths.get(e.userId) ?? '')));
}

/**
 * Appends entries unsealed (one statement); inside the caller's transaction when given one. The
 * sealer chains them within a second (chain.ts); records written outside a transaction are
 * chained as they are written instead (appendSealed).
 */
export async function appendEntries(db: Kysely<Database>, entries: readonly OplogEntry[], now = Date.now()): Promise<void> {
  if (!entries.length) return;
  const rows = await recordRows(db, entries, now);
  await db
    .insertInto('operation_logs')
    .values(rows.map((r) => ({ ...r, seq: null, prev_hash: null, hash: null })))
    .execute();
}

export interface OplogFilter {
  from?: number;
  to?: number;
  userId?: number;
  /** department paths: the records of people in any of these subtrees */
  deptPaths?: string[];
  /** a code, or a group prefix ending in '.' */
  action?: string;
  objectType?: string;
  objectId?: string;
  /** part of the object's name or path */
  object?: string;
  ip?: string;
  result?: 'ok' | 'fail';
  /** an item's id path: the item and everything below it */
  scope?: string;
}

type LogQuery = SelectQueryBuilder<Database, 'operation_logs', object>;

/** The text range that holds a prefix and everything that continues it with `/`. */
const below = (path: string): [string, string] => [`${path}/`, `${path}0`];

export function filtered(db: Kysely<Database>, f: OplogFilter): LogQuery {
  let q = db.selectFrom('operation_logs') as LogQuery;
  if (f.from !== undefined) q = q.where('at', '>=', f.from);
  if (f.to !== undefined) q = q.where('at', '<', f.to);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  if (f.deptPaths) {
    const paths = f.deptPaths;
    q = q.where((eb) =>
      eb.or(
        paths.flatMap((p) => {
          const [lo, hi] = below(p);
          return [eb('dept_path', '=', p), eb.and([eb('dept_path', '>=', lo), eb('dept_path', '<', hi)])];
        }),
      ),
    );
  }
  if (f.action) {
    if (f.action.endsWith('.')) {
      const [lo, hi] = [f.action, f.action.slice(0, -1) + '/'];
      q = q.where('action', '>=', lo).where('action', '<', hi);
    } else q = q.where('action', '=', f.action);
  }
  if (f.objectType) q = q.where('object_type', '=', f.objectType);
  if (f.objectId) q = q.where('object_id', '=', f.objectId);
  if (f.object) {
    const like = `%${f.object.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([sql<boolean>`${eb.ref('object_name')} like ${like} escape '\\'`, sql<boolean>`${eb.ref('object_path')} like ${like} escape '\\'`]),
    );
  }
  if (f.ip) q = q.where('ip', '=', f.ip);
  if (f.result) q = q.where('result', '=', f.result);
  if (f.scope) {
    const [lo, hi] = below(f.scope);
    q = q.where((eb) => eb.or([eb('object_scope', '=', f.scope!), eb.and([eb('object_scope', '>=', lo), eb('object_scope', '<', hi)])]));
  }
  return q;
}

/** How many match, counted up to `cap` (a count over millions of rows would cost seconds). */
export async function countUpTo(db: Kysely<Database>, f: OplogFilter, cap: number): Promise<number> {
  const row = await db
    .selectFrom(filtered(db, f).select(sql<number>`1`.as('one')).limit(cap).as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
