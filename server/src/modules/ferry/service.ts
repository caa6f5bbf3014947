// Ferry tasks of 云文档 (the sending side): a user asks to send files to another zone; the
// server pins the versions submitted, computes their SHA-256 and runs the checks the settings
// switch on; a task that passes goes to the direction's approval flow (workflow source 'ferry');
// once approved, exactly the pinned bytes are packed (re-hashed: a change on disk fails the
// task) and sent through the peer's channel. Receipts from the other side move the task on
// (delivered, downloaded, expired, removed) or say it was refused on arrival (被拒收, with the
// reason). Background work (scanning after a restart, sending, pushing, receipts) is leased in
// the database rows, so any API instance takes it up.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ContentSource } from '../storage/source';
import type { Kysely } from 'kysely';
import type { AppConfig, FerryPeer } from '../../config';
import type { Database, FerryTaskFileRow, FerryTaskRow, UserRow } from '../../db/types';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import { contentTypeOf, type Content } from '../downloads/http';
import { LEVEL } from '../folders/rights';
import { itemNameKey } from '../folders/repository';
import type { FoldersService } from '../folders/service';
import { acquireBlob, releaseBlobs, type BlobStore } from '../versions/blobs';
import { masterVersionsOf } from '../versions/repository';
import { isParticipant } from '../workflow/repository';
import type { InstanceEnd, WorkflowService } from '../workflow/service';
import { INSTANCE_STATUS } from '../workflow/engine';
import type { DefinitionBody } from '../workflow/schemas';
import type { Scanner } from './antivirus';
import { appendAudit } from './audit';
import { recordEvent } from '../notices/events';
import { checkTask } from './checks';
import { pushPackage } from './push';
import { dueTasks, fileTotals, filesOfTask, findTask, leaseTask, moveTask, pageTasks } from './repository';
import {
  FERRY_TABS,
  RECIPIENT_MAX,
  RECIPIENTS_MAX,
  REASON_MAX,
  type CreateTaskBody,
  type FerryCheckResult,
  type FerryKeywordHit,
  type FerryTab,
  type FerryTaskDetail,
  type FerryTaskRowView,
  type FerryTaskStatus,
  type TasksQuery,
} from './schemas';
import { FerrySettingsStore } from './settings';
import { FerryOutbox } from './outbox';
import { ChangedAfterApproval, PackageRefused, REFUSAL_TEXT, writePackage, type Manifest, type PackSource, type RejectReason } from './spool';

export const FERRY_SOURCE = 'ferry';
export const TASK_NOT_FOUND = '摆渡任务不存在或无权查看';
/** The personal-space folder the ferry page uploads new files into. */
export const UPLOAD_FOLDER_NAME = '文件摆渡';
/** The ready-made approval flow of the ferry, used by directions that name none. */
export const FERRY_FLOW_NAME = '文件摆渡审批';
export const FERRY_FLOW_CATEGORY = '文件摆渡';

const SCAN_LEASE_MS = 30 * 60 * 1000;
const SEND_LEASE_MS = 30 * 60 * 1000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Up to this many bytes the approval's reply waits until the package has been written. */
const WAIT_FOR_SEND_BYTES = 64 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

const STATUS_TEXT: Record<FerryTaskStatus, string> = {
  scanning: '检查中',
  blocked: '已拦截',
  pending: '审批中',
  approved: '已批准',
  transferring: '传输中',
  delivered: '已送达',
  downloaded: '已下载',
  expired: '已过期',
  removed: '已移除',
  rejected: '已驳回',
  cancelled: '已取消',
  failed: '传输失败',
  refused: '被拒收',
};

/** Refusals in an HTTPS push's reply that end the task as 被拒收 (an unreadable push is tried again). */
const REFUSED_ON_PUSH: ReadonlySet<string> = new Set<RejectReason>(['badSignature', 'wrongZone', 'directionClosed', 'missingFile', 'sizeMismatch', 'hashMismatch']);

/** Audit events of the receiving side: their task ids are the other zone's, never a task of this one. */
const RECEIVING_EVENTS = ['package.received', 'package.rejected', 'file.downloaded', 'inbox.expired', 'inbox.removed'];

/** What a refused task shows after 被拒收, e.g. 外网拒收：文件哈希不符（图纸.dwg）. */
export function refusalText(zone: string, reason: RejectReason, file: string): string {
  const name = [...file].length > 100 ? `${[...file].slice(0, 100).join('')}…` : file;
  return `${zone}拒收：${REFUSAL_TEXT[reason] ?? REFUSAL_TEXT.unreadable}${name ? `（${name}）` : ''}`;
}

const wireId = (id: number | string) => String(id);
const displayName = (u: Pick<UserRow, 'nick_name' | 'user_name'>) => u.nick_name || u.user_name;

function cleanRecipients(raw: readonly string[]): string[] {
  const names = [...new Set(raw.map((r) => r.trim()).filter(Boolean))];
  if (!names.length) throw badRequest('请填写接收人');
  if (names.length > RECIPIENTS_MAX) throw badRequest(`接收人最多 ${RECIPIENTS_MAX} 个`);
  for (const n of names) if ([...n].length > RECIPIENT_MAX) throw badRequest(`接收人“${n.slice(0, 20)}…”过长（最多 ${RECIPIENT_MAX} 个字符）`);
  return names;
}

export class FerryService {
  readonly settings: FerrySettingsStore;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: AppConfig,
    private readonly folders: FoldersService,
    private readonly workflow: WorkflowService,
    private readonly blobs: BlobStore,
    private readonly formatTime: TimeFormatter,
    readonly scanner: Scanner,
  ) {
    this.settings = new FerrySettingsStore(db, config.ferry);
    this.outbox = new FerryOutbox(blobs.store, path.join(config.dataDir, 'ferry', 'outbox'));
  }

  get zone(): string {
    return this.config.ferry.zone;
  }

  numberOf(row: Pick<FerryTaskRow, 'id' | 'created_at'>): string {
    return `BD${this.formatTime(row.created_at).slice(0, 10).replace(/-/g, '')}${String(row.id).padStart(6, '0')}`;
  }

  peer(zone: string): FerryPeer | undefined {
    return this.config.ferry.peers.find((p) => p.zone === zone);
  }

  httpsPeers(): Array<FerryPeer & { channel: 'https' }> {
    return this.config.ferry.peers.filter((p): p is FerryPeer & { channel: 'https' } => p.channel === 'https');
  }

  /** The exchange space is open to the caller: in simple mode always, else per the feature policy. */
  async requireAccess(user: UserRow): Promise<void> {
    if (this.config.mode === 'simple') return;
    const { policy } = await this.folders.context(user);
    if (!policy.ferrySpaces) throw forbidden('交换空间未开放');
  }

  /** Where the sender sees the tasks of a tab: 交换空间 in full mode, 文件摆渡 in simple mode. */
  tasksLink(tab: FerryTab): string {
    if (this.config.mode === 'simple') return `/ferry/file?tab=tasks${tab === 'processing' ? '' : `&status=${tab}`}`;
    return `/swapSpace/myFerry/${tab}`;
  }

  /** Where a recipient sees the files received from other zones. */
  inboxLink(): string {
    return this.config.mode === 'simple' ? '/ferry/file?tab=received' : '/swapSpace/myFerry/received';
  }

  requireAdmin(user: UserRow): void {
    if (user.is_admin !== 1) throw forbidden('只有系统管理员可以查看或修改摆渡设置与审计');
  }

  // ---- seeding ---------------------------------------------------------------------------------

  /** The ready-made flow 文件摆渡审批: the requester's department leader, else the flow admins. */
  async seed(adminId: number): Promise<void> {
    const body: DefinitionBody = {
      name: FERRY_FLOW_NAME,
      category: FERRY_FLOW_CATEGORY,
      description: '文件摆渡到其他网络区域前的审批：由申请人的部门负责人审批，部门没有负责人时由流程管理员审批。',
      enabled: true,
      fields: [],
      allowFiles: false,
      steps: [{ name: '部门负责人审批', mode: 'sequential', approvers: [{ type: 'initiatorLeader' }] }],
      cc: [],
      revoke: 'processing',
    };
    await this.workflow.ensureDefinition(adminId, body);
  }

  private async flowFor(from: string, to: string): Promise<string> {
    const direction = await this.settings.direction(from, to);
    if (direction?.definitionId) return direction.definitionId;
    const id = await this.workflow.definitionIdByName(FERRY_FLOW_NAME, FERRY_FLOW_CATEGORY);
    if (!id) throw new AppError(500, 50001, `未找到审批流程“${FERRY_FLOW_NAME}”，请在摆渡设置中为该方向选择审批流程`);
    return id;
  }

  // ---- zones and the upload folder -------------------------------------------------------------

  /** Where the caller may send to now: a configured peer whose direction is switched on. */
  async targets(): Promise<string[]> {
    if (!this.config.ferry.secret) return [];
    const settings = await this.settings.get();
    return settings.directions.filter((d) => d.from === this.zone && d.enabled && this.peer(d.to)).map((d) => d.to);
  }

  /** GET /api/Ferry/Zones */
  async zones(user: UserRow): Promise<{ zone: string; targets: string[]; uploadFolderId: string }> {
    await this.requireAccess(user);
    return { zone: this.zone, targets: await this.targets(), uploadFolderId: await this.uploadFolder(user) };
  }

  /** The caller's 文件摆渡 folder in the personal space, made on first use ('' without a personal space). */
  private async uploadFolder(user: UserRow): Promise<string> {
    const [root] = await this.folders.personalRoots(user);
    if (!root) return '';
    const find = () =>
      this.db
        .selectFrom('items')
        .select('id')
        .where('parent_id', '=', Number(root.id))
        .where('name_key', '=', itemNameKey(UPLOAD_FOLDER_NAME))
        .where('type', '=', 'folder')
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
    const found = await find();
    if (found) return wireId(found.id);
    try {
      return (await this.folders.createFile(user, { parentId: root.id, name: UPLOAD_FOLDER_NAME, type: 'folder' })).id;
    } catch (err) {
      const again = await find();
      if (again) return wireId(again.id);
      throw err;
    }
  }

  // ---- creating and checking -------------------------------------------------------------------

  /** POST /api/Ferry/FerryTasks */
  async create(user: UserRow, body: CreateTaskBody): Promise<{ taskId: string; instanceId: string; status: FerryTaskStatus }> {
    await this.requireAccess(user);
    const ids = [...new Set(body.fileIds)];
    if (!ids.length) throw badRequest('请选择要摆渡的文件');
    const targetZone = body.targetZone.trim();
    if (!targetZone) throw badRequest('请选择目标网络区域');
    if (!(await this.targets()).includes(targetZone)) throw badRequest(`不能摆渡到“${targetZone}”：未配置该区域或摆渡设置未开启该方向`);
    const recipients = cleanRecipients(body.recipients);
    const reason = body.reason.trim();
    if (!reason) throw badRequest('请填写摆渡原因');
    if ([...reason].length > REASON_MAX) throw badRequest(`摆渡原因不能超过 ${REASON_MAX} 个字符`);

    const { policy } = await this.folders.context(user);
    const { items, rights } = await this.folders.itemsAndRights(user, ids, policy);
    for (const item of items) {
      if (item.type !== 'file') throw badRequest(`“${item.name}”不是文件，只能摆渡文件`);
      if (!rights.can(item, LEVEL.download)) throw forbidden(`没有“${item.name}”的下载权限，不能摆渡`);
    }
    const masters = await masterVersionsOf(this.db, items.map((i) => i.id));
    const now = Date.now();
    const task = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('ferry_tasks')
        .values({
          requester_id: user.id,
          requester_name: displayName(user),
          dept_id: user.dept_id,
          from_zone: this.zone,
          to_zone: targetZone,
          recipients: JSON.stringify(recipients),
          reason,
          status: 'scanning',
          status_reason: '',
          instance_id: null,
          package_id: null,
          created_at: now,
          updated_at: now,
          decided_at: null,
          sent_at: null,
          delivered_at: null,
          downloaded_at: null,
          expires_at: null,
          lease_until: now + SCAN_LEASE_MS,
          attempts: 0,
          last_error: '',
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      for (const [position, item] of items.entries()) {
        const version = masters.get(item.id);
        if (!version) throw notFound(`“${item.name}”的内容不存在`);
        await trx
          .insertInto('ferry_task_files')
          .values({
            task_id: row.id,
            position,
            item_id: item.id,
            version_id: version.id,
            blob_id: version.blob_id,
            released: 0,
            name: item.name,
            extension: item.extension,
            size: Number(version.size),
            md5: version.md5 ?? '',
            sha256: '',
            detected_type: '',
            checks: '[]',
            keyword_hits: '[]',
            blocked: 0,
          })
          .execute();
        // the submitted content stays, whatever happens to the file, until it is sent or the task ends
        await acquireBlob(trx, version.blob_id);
      }
      await appendAudit(trx, {
        event: 'task.created',
        actorId: user.id,
        actorName: displayName(user),
        taskId: wireId(row.id),
        detail: { from: this.zone, to: targetZone, recipients, reason, files: items.map((i) => ({ name: i.name, size: Number(masters.get(i.id)?.size ?? 0) })) },
        at: now,
      });
      return row;
    });
    const outcome = await this.scan(task);
    return { taskId: wireId(task.id), instanceId: outcome.instanceId, status: outcome.status };
  }

  private async blobSource(size: number, blobId: number | null): Promise<ContentSource | null> {
    const key = size > 0 ? await this.blobKey(blobId) : null;
    return key ? this.blobs.source(key) : null;
  }

  private async blobKey(blobId: number | null): Promise<string | null> {
    if (blobId === null) return null;
    const row = await this.db.selectFrom('blobs').select('storage_key').where('id', '=', blobId).executeTakeFirst();
    if (!row) throw new Error(`blob ${blobId} missing`);
    return row.storage_key;
  }

  /** Hashes and checks a task's files, then blocks it or starts its approval. */
  private async scan(task: FerryTaskRow): Promise<{ status: FerryTaskStatus; instanceId: string }> {
    const files = await filesOfTask(this.db, task.id);
    const settings = await this.settings.get();
    const keys = await Promise.all(files.map((f) => this.blobKey(f.blob_id)));
    // the checks read files (type, words, ClamAV): the store's own, or temporary copies from S3
    const results = await this.blobs.withFiles(keys, (paths) =>
      checkTask(
        files.map((f, i) => ({ name: f.name, extension: f.extension, size: Number(f.size), file: paths[i] })),
        settings,
        this.scanner,
      ),
    );
    const blocked = files.filter((_, i) => results[i].blocked);
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      for (const [i, f] of files.entries()) {
        const r = results[i];
        await trx
          .updateTable('ferry_task_files')
          .set({ sha256: r.sha256, detected_type: r.detectedType, checks: JSON.stringify(r.checks), keyword_hits: JSON.stringify(r.keywordHits), blocked: r.blocked ? 1 : 0 })
          .where('task_id', '=', task.id)
          .where('position', '=', f.position)
          .execute();
      }
      await appendAudit(trx, {
        event: blocked.length ? 'check.blocked' : 'check.passed',
        actorId: null,
        actorName: '系统',
        taskId: wireId(task.id),
        detail: {
          files: files.map((f, i) => ({
            name: f.name,
            size: Number(f.size),
            sha256: results[i].sha256,
            type: results[i].detectedType,
            failed: results[i].checks.filter((c) => c.result === 'failed').map((c) => ({ check: c.name, message: c.message })),
          })),
        },
        at: now,
      });
    });
    if (blocked.length) {
      const first = results[files.indexOf(blocked[0])].checks.find((c) => c.result === 'failed') as FerryCheckResult;
      const reason = `“${blocked[0].name}”${first.message}${blocked.length > 1 ? `（另有 ${blocked.length - 1} 个文件未通过检查）` : ''}`;
      await this.end(task.id, ['scanning'], 'blocked', reason);
      return { status: 'blocked', instanceId: '' };
    }
    return this.startApproval(task);
  }

  private async startApproval(task: FerryTaskRow): Promise<{ status: FerryTaskStatus; instanceId: string }> {
    const requester = await this.db.selectFrom('users').selectAll().where('id', '=', task.requester_id).executeTakeFirstOrThrow();
    let instanceId: string;
    try {
      const definitionId = await this.flowFor(task.from_zone, task.to_zone);
      const number = this.numberOf(task);
      const form = await this.workflow.formFor(definitionId, task.reason);
      instanceId = (
        await this.workflow.start(requester, { definitionId, title: `文件摆渡 ${number}（${task.from_zone} → ${task.to_zone}）`, form, fileIds: [] }, { source: FERRY_SOURCE, sourceId: wireId(task.id) })
      ).instanceId;
    } catch (err) {
      const message = err instanceof AppError ? err.message : '审批无法发起';
      await this.end(task.id, ['scanning'], 'failed', `审批无法发起：${message}`);
      return { status: 'failed', instanceId: '' };
    }
    const moved = await moveTask(this.db, task.id, ['scanning'], 'pending', { instance_id: Number(instanceId), lease_until: 0 });
    if (!moved) {
      // cancelled while being checked: the approval it just got is withdrawn
      await this.workflow.act(requester, instanceId, 'Revoke', { comment: '申请人取消摆渡' }).catch(() => undefined);
      const now = await findTask(this.db, task.id);
      return { status: (now?.status ?? 'cancelled') as FerryTaskStatus, instanceId: '' };
    }
    await appendAudit(this.db, { event: 'approval.started', actorId: null, actorName: '系统', taskId: wireId(task.id), detail: { instanceId } });
    return { status: 'pending', instanceId };
  }

  /** Ends a task (blocked, rejected, cancelled, failed) from one of `from`, letting go of its pinned content. */
  private async end(taskId: number, from: readonly FerryTaskStatus[], to: FerryTaskStatus, reason: string, actor?: UserRow): Promise<boolean> {
    const now = Date.now();
    let gone: string[] = [];
    const moved = await this.db.transaction().execute(async (trx) => {
      if (!(await moveTask(trx, taskId, from, to, { status_reason: reason, lease_until: 0 }, now))) return false;
      gone = await this.releaseFiles(trx, taskId);
      if (to === 'blocked') {
        const row = (await findTask(trx, taskId)) as FerryTaskRow;
        await recordEvent(trx, 'ferry.blocked', { taskId, number: this.numberOf(row), toZone: row.to_zone, reason, link: this.tasksLink('rejected') }, now);
      }
      await appendAudit(trx, {
        event: `task.${to}`,
        actorId: actor?.id ?? null,
        actorName: actor ? displayName(actor) : '系统',
        taskId: wireId(taskId),
        detail: { reason },
        at: now,
      });
      return true;
    });
    await this.blobs.remove(gone);
    return moved;
  }

  private async releaseFiles(trx: Kysely<Database>, taskId: number): Promise<string[]> {
    const held = await trx.selectFrom('ferry_task_files').select('blob_id').where('task_id', '=', taskId).where('released', '=', 0).execute();
    await trx.updateTable('ferry_task_files').set({ released: 1 }).where('task_id', '=', taskId).execute();
    return releaseBlobs(
      trx,
      held.map((h) => h.blob_id),
    );
  }

  // ---- reading ---------------------------------------------------------------------------------

  /** The task when the caller may see it: the requester, an administrator, or anyone on its approval. */
  private async visible(user: UserRow, idText: string): Promise<FerryTaskRow> {
    const id = parseId(idText);
    const row = id === null ? undefined : await findTask(this.db, id);
    if (!row) throw notFound(TASK_NOT_FOUND);
    if (row.requester_id === user.id || user.is_admin === 1 || (await this.isApprover(user, row))) return row;
    throw notFound(TASK_NOT_FOUND);
  }

  private async isApprover(user: UserRow, row: FerryTaskRow): Promise<boolean> {
    if (row.instance_id === null) return false;
    return user.is_flow_admin === 1 || (await isParticipant(this.db, Number(row.instance_id), user.id));
  }

  private rowView(row: FerryTaskRow, totals: { count: number; size: number } | undefined): FerryTaskRowView {
    const time = (ms: number | null) => (ms === null ? '' : this.formatTime(ms));
    return {
      taskId: wireId(row.id),
      number: this.numberOf(row),
      fromZone: row.from_zone,
      targetZone: row.to_zone,
      recipients: JSON.parse(row.recipients) as string[],
      reason: row.reason,
      status: row.status as FerryTaskStatus,
      requester: { userId: wireId(row.requester_id), name: row.requester_name },
      fileCount: totals?.count ?? 0,
      totalSize: totals?.size ?? 0,
      instanceId: row.instance_id === null ? '' : wireId(row.instance_id),
      statusReason: row.status_reason,
      createdAt: this.formatTime(row.created_at),
      updatedAt: this.formatTime(row.updated_at),
      deliveredAt: time(row.delivered_at),
      downloadedAt: time(row.downloaded_at),
      expiresAt: time(row.expires_at),
    };
  }

  /** GET /api/Ferry/FerryTasks: the caller's own tasks of one tab. */
  async list(user: UserRow, q: TasksQuery): Promise<{ data: FerryTaskRowView[]; total: number }> {
    await this.requireAccess(user);
    const { rows, total } = await pageTasks(this.db, user.id, q.status, (q.keyword ?? '').trim(), q.page, q.pageSize);
    const totals = await fileTotals(
      this.db,
      rows.map((r) => r.id),
    );
    return { data: rows.map((r) => this.rowView(r, totals.get(Number(r.id)))), total };
  }

  /** GET /api/Ferry/FerryTasks/{taskId} */
  async detail(user: UserRow, idText: string): Promise<FerryTaskDetail> {
    const row = await this.visible(user, idText);
    return this.detailOf(user, row);
  }

  private async detailOf(user: UserRow, row: FerryTaskRow): Promise<FerryTaskDetail> {
    const files = await filesOfTask(this.db, row.id);
    const totals = { count: files.length, size: files.reduce((s, f) => s + Number(f.size), 0) };
    const events = await this.db
      .selectFrom('ferry_audit')
      .select(['at', 'event', 'actor_name', 'detail'])
      .where('task_id', '=', wireId(row.id))
      .where('event', 'not in', RECEIVING_EVENTS)
      .orderBy('seq')
      .execute();
    const pending = row.status === 'pending';
    return {
      ...this.rowView(row, totals),
      files: files.map((f) => this.fileView(f)),
      events: events.map((e) => ({ at: this.formatTime(e.at), text: eventLine(e.event, JSON.parse(e.detail) as Record<string, unknown>, row.to_zone), actorName: e.actor_name })),
      can: {
        cancel: row.requester_id === user.id && (row.status === 'scanning' || pending),
        preview: pending && (user.is_admin === 1 || (await this.isApprover(user, row))),
      },
    };
  }

  private fileView(f: FerryTaskFileRow) {
    return {
      fileId: wireId(f.item_id),
      name: f.name,
      size: Number(f.size),
      sha256: f.sha256,
      detectedType: f.detected_type,
      checks: JSON.parse(f.checks) as FerryCheckResult[],
      keywordHits: JSON.parse(f.keyword_hits) as FerryKeywordHit[],
      blocked: f.blocked === 1,
    };
  }

  // ---- cancel and preview ----------------------------------------------------------------------

  /** POST /api/Ferry/FerryTasks/{taskId}/Cancel: the requester, while checking or pending. */
  async cancel(user: UserRow, idText: string): Promise<FerryTaskDetail> {
    const row = await this.visible(user, idText);
    if (row.requester_id !== user.id) throw forbidden('只有申请人可以取消摆渡');
    if (row.status === 'scanning') {
      if (!(await this.end(row.id, ['scanning'], 'cancelled', '申请人取消', user))) throw new AppError(409, 40901, '摆渡任务的状态已变化，请刷新后重试');
    } else if (row.status === 'pending' && row.instance_id !== null) {
      // the approval is revoked; its end (revoked) cancels the task through onApprovalEnd
      await this.workflow.act(user, wireId(row.instance_id), 'Revoke', { comment: '申请人取消摆渡' });
    } else {
      throw new AppError(409, 40901, `摆渡任务${STATUS_TEXT[row.status as FerryTaskStatus]}，不能取消`);
    }
    return this.detailOf(user, (await findTask(this.db, row.id)) as FerryTaskRow);
  }

  /** POST /api/Ferry/FerryFiles/PreviewInProcessing: where an approver sees the submitted version, in place. */
  async preview(user: UserRow, body: { taskId: string; fileId: string }): Promise<{ url: string; name: string; detectedType: string }> {
    const { file } = await this.previewable(user, body.taskId, body.fileId);
    return { url: `/api/Ferry/FerryFiles/${body.taskId}/${body.fileId}/Content`, name: file.name, detectedType: file.detected_type };
  }

  private async previewable(user: UserRow, taskIdText: string, fileIdText: string): Promise<{ row: FerryTaskRow; file: FerryTaskFileRow }> {
    const row = await this.visible(user, taskIdText);
    const fileId = parseId(fileIdText);
    const file = (await filesOfTask(this.db, row.id)).find((f) => Number(f.item_id) === fileId);
    if (!file) throw notFound('文件不在该摆渡任务中');
    if (row.status !== 'pending') throw forbidden('只有审批中的摆渡任务可以预览文件');
    if (user.is_admin !== 1 && !(await this.isApprover(user, row))) throw forbidden('只有审批人可以预览审批中的文件');
    return { row, file };
  }

  /** GET /api/Ferry/FerryFiles/{taskId}/{fileId}/Content: the submitted version, shown inline when safe. */
  async previewContent(user: UserRow, taskIdText: string, fileIdText: string): Promise<Content> {
    const { row, file } = await this.previewable(user, taskIdText, fileIdText);
    const size = Number(file.size);
    return {
      source: await this.blobSource(size, file.blob_id),
      size,
      etag: `"${file.sha256 || file.md5}-${size}"`,
      lastModifiedMs: Number(row.created_at),
      fileName: file.name,
      contentType: contentTypeOf(file.extension),
      inline: true,
    };
  }

  // ---- 离职交接 ---------------------------------------------------------------------------------

  /** A requester's tasks not finished yet (checking, in approval, approved, being sent). */
  async openTaskCount(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('ferry_tasks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('requester_id', '=', userId)
      .where('status', 'in', [...FERRY_TABS.processing])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * 离职交接, inside the caller's transaction: the unfinished tasks of `from` get `to` as their
   * requester (their list, 取消摆渡 while in approval, the receipts); the name recorded at
   * submission stays for the audit and the statistics, and each task's audit chain records
   * the change. Returns how many tasks changed.
   */
  async handOver(trx: Kysely<Database>, from: UserRow, to: UserRow, actor: UserRow, now: number): Promise<number> {
    const rows = await trx
      .selectFrom('ferry_tasks')
      .select('id')
      .where('requester_id', '=', from.id)
      .where('status', 'in', [...FERRY_TABS.processing])
      .orderBy('id')
      .execute();
    let moved = 0;
    for (const { id } of rows) {
      const r = await trx
        .updateTable('ferry_tasks')
        .set({ requester_id: to.id, updated_at: now })
        .where('id', '=', id)
        .where('requester_id', '=', from.id)
        .where('status', 'in', [...FERRY_TABS.processing])
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) continue;
      await appendAudit(trx, {
        event: 'task.handedOver',
        actorId: actor.id,
        actorName: displayName(actor),
        taskId: wireId(id),
        detail: { reason: `离职交接：申请人由 ${displayName(from)} 改为 ${displayName(to)}`, fromUserId: wireId(from.id), toUserId: wireId(to.id) },
        at: now,
      });
      moved++;
    }
    return moved;
  }

  // ---- the approval's end ----------------------------------------------------------------------

  /** The workflow's end handler for source 'ferry' (idempotent). */
  async onApprovalEnd(end: InstanceEnd): Promise<void> {
    const id = parseId(end.sourceId);
    const row = id === null ? undefined : await findTask(this.db, id);
    if (!row || row.status !== 'pending') return;
    const decided = { decided_at: end.finishedAt };
    if (end.status === INSTANCE_STATUS.approved) {
      const now = Date.now();
      await this.db.transaction().execute(async (trx) => {
        if (!(await moveTask(trx, row.id, ['pending'], 'approved', { ...decided, lease_until: 0 }, now))) return;
        await appendAudit(trx, { event: 'approval.approved', actorId: null, actorName: '系统', taskId: wireId(row.id), detail: { instanceId: wireId(end.instanceId) }, at: now });
      });
      // packing starts at once (the worker takes it up should this fail); the approver waits for
      // it only when it is quick, never for a large task's copy
      const sending = this.sendDue(row.id).catch(() => 0);
      const size = (await fileTotals(this.db, [row.id])).get(Number(row.id))?.size ?? 0;
      if (size <= WAIT_FOR_SEND_BYTES) await sending;
      return;
    }
    const revokedByRequester = end.status === INSTANCE_STATUS.revoked;
    const comment = await this.workflow.lastComment(end.instanceId);
    await this.db.updateTable('ferry_tasks').set(decided).where('id', '=', row.id).execute();
    await this.end(row.id, ['pending'], revokedByRequester ? 'cancelled' : 'rejected', revokedByRequester ? '申请人取消' : `审批未通过${comment ? `：${comment}` : ''}`);
  }

  // ---- sending ---------------------------------------------------------------------------------

  /** Where packages for an HTTPS peer wait until a push succeeds (outbox.ts). */
  readonly outbox: FerryOutbox;

  /** Sends approved tasks whose lease has run out (all of them, or the one named). */
  async sendDue(onlyId?: number): Promise<number> {
    const now = Date.now();
    const due = onlyId !== undefined ? [await findTask(this.db, onlyId)].filter((r): r is FerryTaskRow => !!r && r.status === 'approved') : await dueTasks(this.db, 'approved', now);
    let sent = 0;
    for (const row of due) {
      if (!(await leaseTask(this.db, row.id, 'approved', SEND_LEASE_MS))) continue;
      if (await this.send((await findTask(this.db, row.id)) as FerryTaskRow)) sent++;
    }
    return sent;
  }

  private async retryLater(row: FerryTaskRow, message: string): Promise<void> {
    const attempts = row.attempts + 1;
    const wait = Math.min(MAX_BACKOFF_MS, this.config.ferry.pollMs * 2 ** Math.min(attempts, 20));
    await this.db
      .updateTable('ferry_tasks')
      .set({ attempts, last_error: message, status_reason: `等待发送：${message}`, lease_until: Date.now() + wait, updated_at: Date.now() })
      .where('id', '=', row.id)
      .execute();
  }

  /** Packs exactly the approved bytes and hands them to the peer's channel. */
  private async send(row: FerryTaskRow): Promise<boolean> {
    const peer = this.peer(row.to_zone);
    const secret = this.config.ferry.secret;
    if (!peer || !secret) {
      await this.retryLater(row, `未配置到“${row.to_zone}”的摆渡通道`);
      return false;
    }
    const files = await filesOfTask(this.db, row.id);
    const keys: (string | null)[] = [];
    for (const f of files) keys.push(Number(f.size) > 0 ? await this.blobKey(f.blob_id) : null);
    const settings = await this.settings.get();
    const now = Date.now();
    const packageId = row.package_id ?? crypto.randomUUID();
    if (!row.package_id) await this.db.updateTable('ferry_tasks').set({ package_id: packageId }).where('id', '=', row.id).execute();
    const expiresAt = now + settings.expiryDays * DAY_MS;
    const meta: Omit<Manifest, 'version' | 'files'> = {
      kind: 'files',
      packageId,
      taskId: wireId(row.id),
      fromZone: row.from_zone,
      toZone: row.to_zone,
      recipients: JSON.parse(row.recipients) as string[],
      reason: row.reason,
      createdAt: now,
      expiresAt,
      taskNumber: this.numberOf(row),
      senderName: row.requester_name,
    };
    // packed from the store's files (or temporary copies from S3), hashes checked again
    const pack = (target: string) =>
      this.blobs.withFiles(keys, (paths) => {
        const sources: PackSource[] = files.map((f, i) => ({ name: f.name, size: Number(f.size), sha256: f.sha256, file: paths[i] }));
        return writePackage(target, meta, sources, secret);
      });
    try {
      if (peer.channel === 'https') await this.outbox.put(peer.zone, packageId, pack);
      else {
        await fs.promises.rm(path.join(peer.dir, `.incoming-${packageId}`), { recursive: true, force: true });
        if (!fs.existsSync(path.join(peer.dir, `${packageId}.pkg`))) await pack(peer.dir);
      }
    } catch (err) {
      if (err instanceof ChangedAfterApproval) {
        await this.end(row.id, ['approved'], 'failed', err.message);
        return false;
      }
      await this.retryLater(row, `写入摆渡包失败：${(err as Error).message}`);
      return false;
    }
    let gone: string[] = [];
    await this.db.transaction().execute(async (trx) => {
      if (!(await moveTask(trx, row.id, ['approved'], 'transferring', { sent_at: now, expires_at: expiresAt, status_reason: '', last_error: '', lease_until: 0 }, now))) return;
      gone = await this.releaseFiles(trx, row.id);
      await appendAudit(trx, {
        event: 'package.sent',
        actorId: null,
        actorName: '系统',
        taskId: wireId(row.id),
        detail: { packageId, from: row.from_zone, to: row.to_zone, channel: peer.channel, files: files.map((f) => ({ name: f.name, size: Number(f.size), sha256: f.sha256 })) },
        at: now,
      });
    });
    await this.blobs.remove(gone);
    if (peer.channel === 'https') await this.pushOutbox(peer).catch(() => undefined);
    return true;
  }

  /** Pushes the packages and receipts waiting in an HTTPS peer's outbox. */
  async pushOutbox(peer: FerryPeer & { channel: 'https' }): Promise<void> {
    for (const name of await this.outbox.waiting(peer.zone)) {
      const sent = await this.outbox.withPackage(peer.zone, name, async (pkgDir) => {
        const manifest = JSON.parse(await fs.promises.readFile(path.join(pkgDir, 'manifest.json'), 'utf8')) as Manifest;
        try {
          return { manifest, reply: await pushPackage(peer.url, pkgDir) };
        } catch (err) {
          return { manifest, error: err as Error };
        }
      });
      const { manifest, reply } = sent;
      if (!reply) {
        await this.noteSendError(manifest, `推送到“${peer.zone}”失败：${sent.error?.message ?? ''}`);
        continue;
      }
      if (reply.accepted || reply.reason === 'replayed') {
        if (manifest.kind !== 'receipt') await this.markDelivered(manifest.taskId, manifest.packageId, Date.now(), peer.zone);
        await this.outbox.remove(peer.zone, name);
      } else if (manifest.kind !== 'receipt' && REFUSED_ON_PUSH.has(reply.reason)) {
        // the reply of the peer this package was pushed to is its refusal receipt
        await this.markRefused(manifest.taskId, manifest.packageId, peer.zone, reply.reason as RejectReason, reply.detail ?? '', 'reply');
        await this.outbox.remove(peer.zone, name);
      } else if (['badSignature', 'wrongZone', 'directionClosed', 'unknownTask'].includes(reply.reason)) {
        await this.outbox.remove(peer.zone, name);
        if (manifest.kind !== 'receipt') {
          const id = parseId(manifest.taskId);
          if (id !== null) await this.end(id, ['transferring'], 'failed', `对端拒收：${reply.message}`);
        }
      } else {
        await this.noteSendError(manifest, `对端拒收：${reply.message}，稍后重试`);
      }
    }
  }

  private async noteSendError(manifest: Manifest, message: string): Promise<void> {
    if (manifest.kind === 'receipt') return;
    const id = parseId(manifest.taskId);
    if (id !== null) await this.db.updateTable('ferry_tasks').set({ last_error: message, status_reason: message }).where('id', '=', id).where('status', '=', 'transferring').execute();
  }

  /** The other zone has verified and imported the package. */
  private async markDelivered(taskIdText: string, packageId: string, at: number, zone: string): Promise<void> {
    const id = parseId(taskIdText);
    if (id === null) return;
    await this.db.transaction().execute(async (trx) => {
      const row = await findTask(trx, id);
      if (!row || row.package_id !== packageId || row.to_zone !== zone) return;
      // a refusal was about a copy: the other zone has now verified and imported the package itself
      if (!(await moveTask(trx, id, ['transferring', 'refused'], 'delivered', { delivered_at: at, status_reason: '', last_error: '' }))) return;
      await appendAudit(trx, { event: 'package.delivered', actorId: null, actorName: '系统', taskId: taskIdText, detail: { packageId, to: zone } });
      await recordEvent(trx, 'ferry.delivered', { taskId: id, number: this.numberOf(row), toZone: row.to_zone, link: this.tasksLink('completed') });
    });
  }

  /**
   * A receipt from the receiving zone: received, downloaded, expired, removed or refused. It has
   * passed the signature check; it must also name the package this task sent to that zone.
   */
  async applyReceipt(m: Manifest): Promise<void> {
    const r = m.receipt;
    if (!r) return;
    const id = parseId(m.taskId);
    const row = id === null ? undefined : await findTask(this.db, id);
    if (!row || row.package_id !== r.packageId || row.to_zone !== m.fromZone) {
      throw new PackageRefused('unknownTask', m.taskId);
    }
    if (r.event === 'received') return this.markDelivered(m.taskId, r.packageId, r.at, m.fromZone);
    if (r.event === 'refused') {
      await this.markRefused(m.taskId, r.packageId, m.fromZone, r.reason ?? 'unreadable', r.detail ?? '', 'receipt');
      return;
    }
    const event = r.event;
    await this.db.transaction().execute(async (trx) => {
      // a receipt may overtake 'received' (spool order): delivered is implied; a refusal of a
      // copy of the package gives way to what happened to the package itself
      if (event === 'downloaded') {
        if (!(await moveTask(trx, row.id, ['transferring', 'delivered', 'refused'], 'downloaded', { downloaded_at: r.at, delivered_at: row.delivered_at ?? r.at, status_reason: '' }))) return;
        await recordEvent(trx, 'ferry.downloaded', { taskId: row.id, number: this.numberOf(row), toZone: row.to_zone, byName: r.byName, link: this.tasksLink('completed') });
      } else if (!(await moveTask(trx, row.id, ['transferring', 'delivered', 'downloaded', 'refused'], event, { delivered_at: row.delivered_at ?? r.at, status_reason: '' }))) return;
      await appendAudit(trx, { event: `task.${event}`, actorId: null, actorName: r.byName || '系统', taskId: m.taskId, detail: { packageId: r.packageId, zone: m.fromZone, at: r.at } });
    });
  }

  /**
   * The receiving zone refused the package sent for this task (its refusal receipt, or the reply
   * to an HTTPS push). Only the package this task sent to that zone, and only while it is in
   * transit: a delivery once confirmed is never taken back (a replay is refused over there, but
   * the task was delivered), and a refusal naming another package changes nothing.
   */
  async markRefused(taskIdText: string, packageId: string, zone: string, reason: RejectReason, file: string, via: 'receipt' | 'reply'): Promise<boolean> {
    const id = parseId(taskIdText);
    if (id === null) return false;
    const text = refusalText(zone, reason, file);
    const now = Date.now();
    let gone: string[] = [];
    const moved = await this.db.transaction().execute(async (trx) => {
      const row = await findTask(trx, id);
      if (!row || row.package_id !== packageId || row.to_zone !== zone) return false;
      if (!(await moveTask(trx, id, ['transferring'], 'refused', { status_reason: text, last_error: '', lease_until: 0 }, now))) return false;
      gone = await this.releaseFiles(trx, id);
      await appendAudit(trx, { event: 'task.refused', actorId: null, actorName: '系统', taskId: wireId(id), detail: { reason: text, code: reason, file, packageId, zone, via }, at: now });
      return true;
    });
    await this.blobs.remove(gone);
    return moved;
  }

  /** Tasks whose received files have expired by now on the other side, as far as this side knows. */
  async expireSent(now: number = Date.now()): Promise<number> {
    const rows = await this.db
      .selectFrom('ferry_tasks')
      .select(['id'])
      .where('status', 'in', ['transferring', 'delivered', 'downloaded'])
      .where('expires_at', '<', now)
      .limit(500)
      .execute();
    let n = 0;
    for (const r of rows) {
      const moved = await this.db.transaction().execute(async (trx) => {
        if (!(await moveTask(trx, r.id, ['transferring', 'delivered', 'downloaded'], 'expired', {}, now))) return false;
        await appendAudit(trx, { event: 'task.expired', actorId: null, actorName: '系统', taskId: wireId(r.id), detail: { by: '到期' }, at: now });
        return true;
      });
      if (moved) n++;
    }
    return n;
  }

  /** Scans that stopped with their instance (crash or restart) start again. */
  async resumeScans(): Promise<number> {
    let n = 0;
    for (const row of await dueTasks(this.db, 'scanning', Date.now())) {
      if (!(await leaseTask(this.db, row.id, 'scanning', SCAN_LEASE_MS))) continue;
      await this.scan(row);
      n++;
    }
    return n;
  }
}

/** A task event as the timeline shows it. */
export function eventLine(event: string, detail: Record<string, unknown>, toZone: string): string {
  const reason = typeof detail.reason === 'string' ? detail.reason : '';
  switch (event) {
    case 'task.created':
      return `提交摆渡申请（${String(detail.from)} → ${String(detail.to)}），开始检查`;
    case 'check.passed':
      return '检查通过';
    case 'check.blocked':
      return '检查未通过，已拦截';
    case 'approval.started':
      return '进入审批';
    case 'approval.approved':
      return '审批通过';
    case 'package.sent':
      return `已打包发出（${detail.channel === 'https' ? 'HTTPS 直连' : '摆渡目录'}）`;
    case 'package.delivered':
      return `${toZone}已接收，文件校验一致`;
    case 'task.downloaded':
      return '接收人已下载';
    case 'task.expired':
      return '文件已过期';
    case 'task.removed':
      return '接收方已移除文件';
    case 'task.blocked':
      return `已拦截：${reason}`;
    case 'task.rejected':
      return reason || '审批未通过';
    case 'task.cancelled':
      return reason || '已取消';
    case 'task.failed':
      return `传输失败：${reason}`;
    case 'task.refused':
      return reason || '接收方拒收';
    case 'task.handedOver':
      return reason || '离职交接';
    default:
      return event;
  }
}

