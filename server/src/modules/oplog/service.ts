// The operation log (issue 28, 等保 and the Cybersecurity Law's six months): what every person
// did, with time, address, object and result. Requests append rows (plugin.ts); the sealer
// chains them (chain.ts); retention removes the oldest after OPLOG_RETENTION_DAYS (never below
// 180) and records that it did. Readers: 操作日志 (system and audit administrators; department
// administrators their subtree), 文件动态 (people who manage the item) and 登录记录 (oneself).
import type { Kysely, Selectable } from 'kysely';
import type { Database, OperationLogsTable, UserRow } from '../../db/types';
import { badRequest, forbidden } from '../../lib/errors';
import type { JobLeases } from '../../lib/job-lease';
import { exportTable, type ExportedTable, type ExportFormat } from '../../lib/table-export';
import { parseDateTime, type TimeFormatter } from '../../lib/time';
import { deviceOf } from '../account/device';
import { loadScope } from '../people/scope';
import { actionName, OPLOG_GROUPS } from './actions';
import { appendSealed, pruneBefore, sealPending, verifyChain, type OplogChainCheck } from './chain';
import { appendEntries, countUpTo, filtered, type OplogEntry, type OplogFilter } from './repository';

type Row = Selectable<OperationLogsTable>;

export const MIN_RETENTION_DAYS = 180;
/** Totals above this are shown as "more than" (a count over millions of rows costs seconds). */
export const COUNT_CAP = 10_000;
const DAY = 86_400_000;
const PRUNE_LEASE = 'oplog-prune';
/** How often each instance seals what was appended inside other transactions. */
const SEAL_EVERY_MS = 1000;
/**
 * How long a record waits to be written with the others of that second: a record costs the log's
 * indexes a fraction as much in a batch of hundreds as in one of tens (the pages each index
 * touches are written once per commit), and nobody waits for it (the answer has gone out; this
 * instance's readers of the log write the queue first). A kill -9 loses at most this much.
 */
const WRITE_EVERY_MS = 1000;
/** Queued records written at once, without waiting for WRITE_EVERY_MS: one statement's worth. */
const WRITE_AT_ONCE = 500;

export interface OplogRecord {
  id: string;
  seq: number | null;
  at: number;
  time: string;
  userId: string | null;
  userName: string;
  deptPath: string;
  onBehalfName: string;
  ip: string;
  userAgent: string;
  /** the browser and system the user agent names */
  device: string;
  action: string;
  actionName: string;
  objectType: string;
  objectId: string;
  objectName: string;
  objectPath: string;
  result: 'ok' | 'fail';
  reason: string;
  requestId: string;
  detail: Record<string, unknown>;
}

export interface OplogListQuery {
  from?: string;
  to?: string;
  userId?: string;
  deptId?: string;
  action?: string;
  objectType?: string;
  objectId?: string;
  object?: string;
  ip?: string;
  result?: 'ok' | 'fail';
  page?: number;
  pageSize?: number;
}

export class OperationLog {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private lastPrune = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly leases: JobLeases,
    private readonly formatTime: TimeFormatter,
    private readonly tzName: string,
    readonly retentionDays: number,
    /** OPLOG_RECORDING: false only to measure what recording costs (bench figure 10) */
    readonly recording = true,
    /** told of a failed seal or prune (to log it) */
    public onError: (err: unknown) => void = () => undefined,
  ) {
    if (!(retentionDays >= MIN_RETENTION_DAYS)) throw new Error(`操作日志至少保留 ${MIN_RETENTION_DAYS} 天`);
  }

  /** Records waiting for the next write, with those who wait for it. */
  private queue: { entries: OplogEntry[]; done: (err?: unknown) => void }[] = [];
  private queued = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  /** records being made after their answers went out (recordLater) */
  private later = new Set<Promise<void>>();

  /**
   * Appends records; inside the caller's transaction when `db` is one (unsealed: the sealer chains
   * them). Otherwise they are queued and written within WRITE_EVERY_MS, already chained, together
   * with every other record queued by then (one statement and one commit for all of them: a
   * commit costs SQLite as much as a hundred rows); the promise settles when they are committed.
   */
  record(entries: OplogEntry | readonly OplogEntry[], db: Kysely<Database> = this.db): Promise<void> {
    if (!this.recording) return Promise.resolve();
    const list = Array.isArray(entries) ? [...entries] : [entries as OplogEntry];
    if (db !== this.db) return appendEntries(db, list);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ entries: list, done: (err) => (err === undefined ? resolve() : reject(err)) });
      this.queued += list.length;
      if (this.queued >= WRITE_AT_ONCE && !this.writing) void this.write().catch(() => undefined);
      else this.writeSoon();
    });
  }

  /**
   * Records made after a request's answer went out (the request does not wait for its record):
   * `make` may read the database (the names of the items an upload made); what it returns is
   * queued as record() does. This instance's readers of the log wait for them (settled()).
   */
  recordLater(make: () => Promise<readonly OplogEntry[] | null | undefined>): void {
    if (!this.recording) return;
    const p: Promise<void> = make()
      .then((list) => (list?.length ? this.record(list) : undefined))
      .catch((err: unknown) => this.onError(err))
      .finally(() => this.later.delete(p));
    this.later.add(p);
  }

  private writeSoon(): void {
    if (this.flushTimer || this.writing) return;
    this.flushTimer = setTimeout(() => void this.write().catch(() => undefined), WRITE_EVERY_MS);
    this.flushTimer.unref();
  }

  /** Writes what is queued now (and what is queued while it writes). */
  private write(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.writing ??= this.writeQueued().finally(() => {
      this.writing = null;
      if (this.queue.length) this.writeSoon();
    });
    return this.writing;
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, WRITE_AT_ONCE);
      this.queued -= batch.reduce((n, b) => n + b.entries.length, 0);
      const now = Date.now();
      try {
        const all = batch.flatMap((b) => b.entries);
        for (let i = 0; i < all.length; i += WRITE_AT_ONCE) await appendSealed(this.db, all.slice(i, i + WRITE_AT_ONCE), now);
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.done(err);
      }
    }
  }

  /** Until every record this instance was asked for is committed (read paths, stop). */
  async settled(): Promise<void> {
    while (this.later.size || this.queue.length || this.writing) {
      await Promise.all(this.later);
      await this.write();
    }
  }

  // ---- sealing and retention ----

  /** Seals what is pending (every instance may; the head's lock orders them). */
  async seal(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await sealPending(this.db);
      total += n;
      if (n < 2000) return total;
    }
  }

  /** Removes what is older than the retention (one instance a day), and records that it did. */
  async prune(now = Date.now()): Promise<number> {
    await this.settled();
    await this.seal();
    const r = await pruneBefore(this.db, now - this.retentionDays * DAY);
    if (!r) return 0;
    await this.record({
      userId: null,
      userName: '系统',
      action: 'log.pruned',
      object: { type: 'log', id: String(r.throughSeq), name: `第 ${r.throughSeq} 条及之前` },
      detail: { removed: r.removed, throughSeq: r.throughSeq, throughHash: r.throughHash, retentionDays: this.retentionDays },
      at: now,
    });
    await this.seal();
    return r.removed;
  }

  private async round(): Promise<void> {
    const pending = await this.db.selectFrom('operation_logs').select('id').where('seq', 'is', null).limit(1).executeTakeFirst();
    if (pending) await this.seal();
    const now = Date.now();
    if (now - this.lastPrune > 3600_000) {
      this.lastPrune = now;
      if (await this.leases.take(PRUNE_LEASE, DAY)) await this.prune(now);
    }
  }

  /** Seals every `intervalMs` (and prunes once a day on one instance) until stop(). */
  start(intervalMs = SEAL_EVERY_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.round()
        .catch((err: unknown) => this.onError(err))
        .finally(() => (this.running = null));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    // what this instance was asked to record is written, and sealed, before it goes
    await this.settled().catch((err: unknown) => this.onError(err));
    await this.seal().catch((err: unknown) => this.onError(err));
  }

  // ---- reading ----

  /** Who may read the log: everything, or the people of some departments' subtrees; 403 otherwise. */
  private async readerScope(caller: UserRow): Promise<string[] | null> {
    if (caller.disabled) throw forbidden('只有系统管理员、审计管理员或部门管理员可以查看操作日志');
    if (caller.is_admin === 1 || caller.is_audit_admin === 1) return null;
    try {
      const scope = await loadScope(this.db, caller);
      return scope.departments.map((d) => d.path);
    } catch {
      throw forbidden('只有系统管理员、审计管理员或部门管理员可以查看操作日志');
    }
  }

  private range(from?: string, to?: string): { from?: number; to?: number } {
    const at = (text: string | undefined, end: boolean) => {
      if (!text) return undefined;
      const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
      const ms = parseDateTime(day ? `${text} 00:00:00` : text, this.tzName);
      if (ms === null) throw badRequest(`时间格式不正确：${text}（应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss）`);
      return end && day ? ms + DAY : ms;
    };
    const r = { from: at(from, false), to: at(to, true) };
    if (r.from !== undefined && r.to !== undefined && r.from >= r.to) throw badRequest('开始时间须早于结束时间');
    return r;
  }

  private async filter(caller: UserRow, q: OplogListQuery): Promise<OplogFilter> {
    const allowed = await this.readerScope(caller);
    let deptPaths = allowed ?? undefined;
    if (q.deptId) {
      const dept = await this.db.selectFrom('departments').select('path').where('id', '=', Number(q.deptId)).executeTakeFirst();
      if (!dept) throw badRequest('部门不存在');
      if (allowed && !allowed.some((p) => dept.path === p || dept.path.startsWith(`${p}/`))) throw forbidden('该部门不在您管理的范围内');
      deptPaths = [dept.path];
    }
    if (q.action && !q.action.endsWith('.') && actionName(q.action) === q.action) throw badRequest(`未知的操作类型：${q.action}`);
    if (q.action?.endsWith('.') && !OPLOG_GROUPS[q.action.slice(0, -1)]) throw badRequest(`未知的操作分类：${q.action}`);
    return {
      ...this.range(q.from, q.to),
      userId: q.userId ? Number(q.userId) : undefined,
      deptPaths,
      action: q.action || undefined,
      objectType: q.objectType || undefined,
      objectId: q.objectId || undefined,
      object: q.object?.trim() || undefined,
      ip: q.ip?.trim() || undefined,
      result: q.result,
    };
  }

  view(r: Row): OplogRecord {
    let detail: Record<string, unknown> = {};
    try {
      detail = JSON.parse(r.detail);
    } catch {
      detail = {};
    }
    return {
      id: String(r.id),
      seq: r.seq === null ? null : Number(r.seq),
      at: Number(r.at),
      time: this.formatTime(Number(r.at)),
      userId: r.user_id === null ? null : String(r.user_id),
      userName: r.user_name,
      deptPath: r.dept_path,
      onBehalfName: r.on_behalf_name,
      ip: r.ip,
      userAgent: r.user_agent,
      device: r.user_agent ? deviceOf(r.user_agent) : '',
      action: r.action,
      actionName: actionName(r.action),
      objectType: r.object_type,
      objectId: r.object_id,
      objectName: r.object_name,
      objectPath: r.object_path,
      result: r.result === 'fail' ? 'fail' : 'ok',
      reason: r.reason,
      requestId: r.request_id,
      detail,
    };
  }

  private async page(f: OplogFilter, page = 1, pageSize = 20) {
    const [rows, total] = await Promise.all([
      filtered(this.db, f)
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      countUpTo(this.db, f, COUNT_CAP + 1),
    ]);
    return { data: rows.map((r) => this.view(r)), total: Math.min(total, COUNT_CAP), more: total > COUNT_CAP };
  }

  /** GET /api/Admin/OperationLogs */
  async list(caller: UserRow, q: OplogListQuery) {
    await this.settled();
    return this.page(await this.filter(caller, q), q.page, q.pageSize);
  }

  /** GET /api/Admin/OperationLogs/Verify (system and audit administrators) */
  async verify(caller: UserRow): Promise<OplogChainCheck> {
    if (!(caller.is_admin === 1 || caller.is_audit_admin === 1) || caller.disabled) throw forbidden('只有系统管理员或审计管理员可以校验操作日志');
    await this.settled();
    await this.seal();
    return verifyChain(this.db);
  }

  static readonly COLUMNS = [
    { header: '序号', width: 10 },
    { header: '时间', width: 20 },
    { header: '操作人', width: 14 },
    { header: '部门', width: 24 },
    { header: '地址', width: 16 },
    { header: '操作', width: 14 },
    { header: '对象类型', width: 10 },
    { header: '对象', width: 30 },
    { header: '位置', width: 40 },
    { header: '结果', width: 8 },
    { header: '原因', width: 30 },
    { header: '详情', width: 50 },
    { header: '设备', width: 40 },
    { header: '请求编号', width: 16 },
    { header: '记录哈希', width: 66 },
  ];

  /** GET /api/Admin/OperationLogs/Export: every matching record, newest first, streamed. */
  async export(caller: UserRow, q: OplogListQuery & { format: ExportFormat }): Promise<ExportedTable> {
    await this.settled();
    const f = await this.filter(caller, q);
    const db = this.db;
    const view = (r: Row) => this.view(r);
    const rows = (async function* () {
      let cursor: { at: number; id: number } | null = null;
      for (;;) {
        let query = filtered(db, f).selectAll();
        if (cursor) {
          const c: { at: number; id: number } = cursor;
          query = query.where((eb) => eb.or([eb('at', '<', c.at), eb.and([eb('at', '=', c.at), eb('id', '<', c.id)])]));
        }
        const page = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(1000).execute();
        for (const raw of page) {
          const r = view(raw);
          yield [r.seq ?? '', r.time, r.userName, r.deptPath, r.ip, r.actionName, r.objectType, r.objectName, r.objectPath, r.result === 'ok' ? '成功' : '失败', r.reason, JSON.stringify(r.detail), r.userAgent, r.requestId, raw.hash ?? ''];
        }
        if (page.length < 1000) return;
        const last = page[page.length - 1];
        cursor = { at: Number(last.at), id: Number(last.id) };
      }
    })();
    const stamp = this.formatTime(Date.now()).slice(0, 10).replace(/-/g, '');
    return exportTable(q.format, OperationLog.COLUMNS, rows, `操作日志-${stamp}`, '操作日志');
  }

  /** GET /api/Account/SignIns: the caller's own sign-ins (and failed attempts), newest first. */
  async mySignIns(caller: UserRow, page = 1, pageSize = 20) {
    await this.settled();
    return this.page({ userId: Number(caller.id), action: 'auth.' }, page, pageSize);
  }

  /** GET /api/User/Files/{id}/Activity: an item's records and those of everything below it. */
  async activity(item: { idPath: string }, page = 1, pageSize = 20) {
    await this.settled();
    return this.page({ scope: item.idPath }, page, pageSize);
  }
}
