// The 统计审计 page of 云文档's ferry: the audit log (paged, filtered, verified, exported as CSV
// or XLSX, streamed) and the statistics by user, department, direction, time bucket and state,
// with blocked-by-reason counts and the median approval time.
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, FerryAuditRow } from '../../db/types';
import { badRequest } from '../../lib/errors';
import { exportTable, type ExportedTable } from '../../lib/table-export';
import { parseDateTime, type TimeFormatter } from '../../lib/time';
import { verifyAudit } from './audit';
import type { AuditQuery, ExportQuery, FerryAuditRecord, FerryCheckResult, FerryStats, FerryTaskStatus, StatsQuery } from './schemas';

export const EVENT_TEXT: Record<string, string> = {
  'task.created': '提交摆渡申请',
  'check.passed': '检查通过',
  'check.blocked': '检查未通过',
  'approval.started': '进入审批',
  'approval.approved': '审批通过',
  'task.blocked': '拦截',
  'task.rejected': '审批驳回',
  'task.cancelled': '取消摆渡',
  'task.failed': '传输失败',
  'task.refused': '被拒收',
  'task.handedOver': '离职交接',
  'package.sent': '发出摆渡包',
  'package.delivered': '对端已接收',
  'package.received': '收到摆渡包',
  'package.rejected': '拒收摆渡包',
  'file.downloaded': '下载收到的文件',
  'task.downloaded': '接收人已下载',
  'task.expired': '文件已过期',
  'task.removed': '接收方已移除',
  'inbox.expired': '收到的文件过期',
  'inbox.removed': '移除收到的文件',
  'settings.changed': '修改摆渡设置',
  'audit.pruned': '清理超期审计记录',
};

const CHECK_TEXT: Record<string, string> = { type: '文件类型', size: '文件大小', count: '文件数量', keyword: '敏感词', antivirus: '病毒查杀' };
const SETTING_TEXT: Record<string, string> = {
  directions: '摆渡方向',
  typeCheck: '类型白名单开关',
  allowedTypes: '允许的类型',
  sizeCheck: '大小限制开关',
  maxFileSize: '单个文件上限',
  maxTotalSize: '总大小上限',
  countCheck: '数量限制开关',
  maxFileCount: '文件数量上限',
  keywordCheck: '敏感词开关',
  keywords: '敏感词',
  antivirus: '病毒查杀开关',
  expiryDays: '过期天数',
  auditRetentionDays: '审计保留天数',
};

type Detail = Record<string, unknown>;
const files = (d: Detail) => (Array.isArray(d.files) ? (d.files as Array<{ name?: string; size?: number; sha256?: string }>) : []);
const fileList = (d: Detail) =>
  files(d)
    .map((f) => `${f.name ?? ''}（${f.size ?? 0} 字节${f.sha256 ? `，SHA-256 ${f.sha256}` : ''}）`)
    .join('；');

/** One line of Chinese about a record: what, with which files and hashes, from where to where. */
export function summarize(event: string, d: Detail): string {
  const route = d.from || d.to ? `${String(d.from ?? '')} → ${String(d.to ?? '')}` : '';
  switch (event) {
    case 'task.created':
      return `${route}；接收人 ${((d.recipients as string[]) ?? []).join('、')}；原因：${String(d.reason ?? '')}；文件：${fileList(d)}`;
    case 'check.passed':
    case 'check.blocked': {
      const failed = files(d).flatMap((f) => ((f as { failed?: Array<{ message: string }> }).failed ?? []).map((x) => `${f.name}：${x.message}`));
      return `${fileList(d)}${failed.length ? `；未通过：${failed.join('；')}` : ''}`;
    }
    case 'package.sent':
      return `${route}；通道 ${d.channel === 'https' ? 'HTTPS' : '摆渡目录'}；摆渡包 ${String(d.packageId ?? '')}；文件：${fileList(d)}`;
    case 'package.received':
      return `${route}；发送人 ${String(d.sender ?? '')}；接收人 ${((d.recipients as string[]) ?? []).join('、')}；文件：${fileList(d)}`;
    case 'package.rejected': {
      const task = d.taskNumber ? `摆渡任务 ${String(d.taskNumber)}；` : '';
      // a manifest whose signature failed only claims where it comes from
      const unverified = d.signed === false && (d.from || d.taskNumber) ? '（来源与任务未经验证）' : '';
      const back = d.receipt === true ? '；已回执发送方' : '';
      return `${d.from ? `来自 ${String(d.from)}；` : ''}${task}${String(d.message ?? d.reason ?? '')}${d.file ? `：${String(d.file)}` : ''}${unverified}${back}`;
    }
    case 'settings.changed':
      return `修改了：${Object.keys((d.changed as Detail) ?? {})
        .map((k) => SETTING_TEXT[k] ?? k)
        .join('、')}`;
    case 'file.downloaded':
      return `来自 ${String(d.from ?? '')}；${String(d.file ?? '')}`;
    case 'audit.pruned':
      return `按保留期 ${String(d.retentionDays ?? '')} 天清理了 ${String(d.removed ?? 0)} 条记录（至第 ${String(d.throughSeq ?? '')} 条）`;
    default:
      return typeof d.reason === 'string' && d.reason ? d.reason : d.packageId ? `摆渡包 ${String(d.packageId)}` : '';
  }
}

export class FerryReport {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly formatTime: TimeFormatter,
    private readonly tzName: string,
    private readonly zone: string,
  ) {}

  private range(from?: string, to?: string): { start: number | null; end: number | null } {
    const start = from ? parseDateTime(`${from} 00:00:00`, this.tzName) : null;
    const endDay = to ? parseDateTime(`${to} 00:00:00`, this.tzName) : null;
    if ((from && start === null) || (to && endDay === null)) throw badRequest('日期无效');
    const end = endDay === null ? null : endDay + 24 * 60 * 60 * 1000;
    if (start !== null && end !== null && end <= start) throw badRequest('结束日期不能早于开始日期');
    return { start, end };
  }

  private filtered(q: Pick<AuditQuery, 'from' | 'to' | 'event' | 'keyword'>): SelectQueryBuilder<Database, 'ferry_audit', object> {
    const { start, end } = this.range(q.from, q.to);
    let query = this.db.selectFrom('ferry_audit');
    if (start !== null) query = query.where('at', '>=', start);
    if (end !== null) query = query.where('at', '<', end);
    if (q.event) query = query.where('event', '=', q.event);
    const keyword = q.keyword?.trim();
    if (keyword) {
      const like = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) => eb.or([eb('actor_name', 'like', like), eb('task_id', '=', keyword), eb('detail', 'like', like)]));
    }
    return query;
  }

  private record(r: FerryAuditRow): FerryAuditRecord {
    const detail = JSON.parse(r.detail) as Detail;
    return {
      seq: Number(r.seq),
      at: this.formatTime(r.at),
      actorName: r.actor_name,
      event: r.event,
      eventText: EVENT_TEXT[r.event] ?? r.event,
      taskId: r.task_id,
      summary: summarize(r.event, detail),
      detail,
      hash: r.hash,
    };
  }

  /** GET /api/Ferry/Audit */
  async list(q: AuditQuery): Promise<{ data: FerryAuditRecord[]; total: number }> {
    const base = this.filtered(q);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy('seq', 'desc')
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { data: rows.map((r) => this.record(r)), total: Number(count.n) };
  }

  /** GET /api/Ferry/Audit/Verify */
  async verify(): Promise<{ ok: boolean; count: number; brokenAt: number | null; message: string }> {
    const check = await verifyAudit(this.db);
    return { ok: check.ok, count: check.checked, brokenAt: check.brokenAt, message: check.ok ? `审计日志完整，共 ${check.checked} 条记录，哈希链校验通过` : check.message };
  }

  /** Every matching record, oldest first, a page at a time. */
  private async *records(q: ExportQuery): AsyncGenerator<FerryAuditRecord> {
    let after = 0;
    for (;;) {
      const rows = await this.filtered(q).selectAll().where('seq', '>', after).orderBy('seq').limit(1000).execute();
      for (const r of rows) yield this.record(r);
      if (rows.length < 1000) return;
      after = Number(rows[rows.length - 1].seq);
    }
  }

  static readonly COLUMNS = ['序号', '时间', '操作人', '事件', '摆渡任务', '内容', '记录哈希'];

  /** GET /api/Ferry/Audit/Export: CSV (UTF-8 with BOM, for Excel) or XLSX, streamed. */
  export(q: ExportQuery): ExportedTable {
    const stamp = this.formatTime(Date.now()).slice(0, 10).replace(/-/g, '');
    const widths = [8, 20, 14, 16, 10, 80, 66];
    const columns = FerryReport.COLUMNS.map((header, i) => ({ header, width: widths[i] }));
    const records = this.records(q);
    const rows = (async function* () {
      for await (const r of records) yield [r.seq, r.at, r.actorName, r.eventText, r.taskId, r.summary, r.hash];
    })();
    return exportTable(q.format, columns, rows, `摆渡审计-${stamp}`, '摆渡审计');
  }

  private bucketOf(ms: number, bucket: StatsQuery['bucket']): string {
    const day = this.formatTime(ms).slice(0, 10);
    if (bucket === 'day') return day;
    if (bucket === 'month') return day.slice(0, 7);
    // weeks start on Monday (the Chinese calendar's week)
    const d = new Date(`${day}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    return `${d.toISOString().slice(0, 10)} 周`;
  }

  /** GET /api/Ferry/Audit/Stats */
  async stats(q: StatsQuery): Promise<FerryStats> {
    const { start, end } = this.range(q.from, q.to);
    let tasks = this.db
      .selectFrom('ferry_tasks as t')
      .leftJoin('departments as d', 'd.id', 't.dept_id')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('ferry_task_files')
            .select((f) => ['task_id', f.fn.countAll<number>().as('n'), f.fn.sum<number>('size').as('bytes')])
            .groupBy('task_id')
            .as('f'),
        (join) => join.onRef('f.task_id', '=', 't.id'),
      )
      .select(['t.id', 't.requester_name', 'd.name as dept', 't.from_zone', 't.to_zone', 't.status', 't.created_at', 't.decided_at', 'f.n', 'f.bytes']);
    if (start !== null) tasks = tasks.where('t.created_at', '>=', start);
    if (end !== null) tasks = tasks.where('t.created_at', '<', end);
    const rows = await tasks.execute();

    type Tally = { tasks: number; files: number; bytes: number };
    const add = <K>(map: Map<K, Tally>, key: K, n: number, bytes: number) => {
      const t = map.get(key) ?? { tasks: 0, files: 0, bytes: 0 };
      t.tasks += 1;
      t.files += n;
      t.bytes += bytes;
      map.set(key, t);
    };
    const byUser = new Map<string, Tally>();
    const byDept = new Map<string, Tally>();
    const byDirection = new Map<string, Tally>();
    const byBucket = new Map<string, Tally>();
    const byStatus = new Map<string, number>();
    const waits: number[] = [];
    let totalFiles = 0;
    let totalBytes = 0;
    for (const r of rows) {
      const n = Number(r.n ?? 0);
      const bytes = Number(r.bytes ?? 0);
      totalFiles += n;
      totalBytes += bytes;
      add(byUser, r.requester_name, n, bytes);
      add(byDept, r.dept ?? '（无部门）', n, bytes);
      add(byDirection, `${r.from_zone}\u0000${r.to_zone}`, n, bytes);
      add(byBucket, this.bucketOf(Number(r.created_at), q.bucket), n, bytes);
      byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
      if (r.decided_at !== null) waits.push(Number(r.decided_at) - Number(r.created_at));
    }
    // packages that came in from other zones count in their direction too
    let inbox = this.db.selectFrom('ferry_inbox as i').leftJoin('ferry_inbox_files as f', 'f.inbox_id', 'i.id').select((eb) => ['i.id', 'i.from_zone', eb.fn.count<number>('f.idx').as('n'), eb.fn.sum<number>('f.size').as('bytes')]);
    if (start !== null) inbox = inbox.where('i.received_at', '>=', start);
    if (end !== null) inbox = inbox.where('i.received_at', '<', end);
    for (const r of await inbox.groupBy(['i.id', 'i.from_zone']).execute()) add(byDirection, `${r.from_zone}\u0000${this.zone}`, Number(r.n ?? 0), Number(r.bytes ?? 0));

    const blocked = await this.blockedReasons(start, end);
    waits.sort((a, b) => a - b);
    const median = waits.length ? (waits.length % 2 ? waits[(waits.length - 1) / 2] : (waits[waits.length / 2 - 1] + waits[waits.length / 2]) / 2) : null;
    const sorted = <K>(map: Map<K, Tally>) => [...map.entries()].sort((a, b) => b[1].tasks - a[1].tasks);
    return {
      tasks: rows.length,
      files: totalFiles,
      bytes: totalBytes,
      byUser: sorted(byUser).map(([name, t]) => ({ name, ...t })),
      byDepartment: sorted(byDept).map(([name, t]) => ({ name, ...t })),
      byDirection: sorted(byDirection).map(([key, t]) => {
        const [from, to] = key.split('\u0000');
        return { from, to, ...t };
      }),
      byBucket: [...byBucket.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([bucket, t]) => ({ bucket, ...t })),
      byStatus: [...byStatus.entries()].map(([status, n]) => ({ status: status as FerryTaskStatus, tasks: n })),
      blockedByReason: blocked,
      medianApprovalMs: median,
    };
  }

  /** Blocked tasks counted by the checks that failed (a task failing two checks counts under both). */
  private async blockedReasons(start: number | null, end: number | null): Promise<Array<{ reason: string; count: number }>> {
    let q = this.db
      .selectFrom('ferry_task_files as f')
      .innerJoin('ferry_tasks as t', 't.id', 'f.task_id')
      .select(['f.task_id', 'f.checks'])
      .where('t.status', '=', 'blocked')
      .where('f.blocked', '=', 1);
    if (start !== null) q = q.where('t.created_at', '>=', start);
    if (end !== null) q = q.where('t.created_at', '<', end);
    const perReason = new Map<string, Set<number>>();
    for (const r of await q.execute()) {
      for (const c of JSON.parse(r.checks) as FerryCheckResult[]) {
        if (c.result !== 'failed') continue;
        const reason = c.name === 'antivirus' && c.message.startsWith('发现病毒') ? '发现病毒' : (CHECK_TEXT[c.name] ?? c.name);
        const set = perReason.get(reason) ?? new Set<number>();
        set.add(Number(r.task_id));
        perReason.set(reason, set);
      }
    }
    return [...perReason.entries()].map(([reason, s]) => ({ reason, count: s.size })).sort((a, b) => b.count - a.count);
  }
}
