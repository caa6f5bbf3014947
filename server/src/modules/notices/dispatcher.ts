// The one dispatcher of 云文档's events (events.ts): on the instance that holds the lease
// `notice-dispatch`, it takes the due events oldest first and, for each, in one transaction,
// marks it dispatched and makes its notices (or resolves earlier ones). A crash in between
// rolls both back, so an event is worked again and never twice: a notice per event and person
// is unique. A failing event is tried again later, backing off, without holding up the others.
import type { Kysely } from 'kysely';
import type { Database, EventsTable } from '../../db/types';
import type { Selectable } from 'kysely';
import type { JobLeases } from '../../lib/job-lease';
import type { OutsideChannel } from '../notice-delivery/channels';
import { withOutsideChannels } from '../notice-delivery/plan';
import { TARGET } from '../shares/repository';
import { userNames } from '../workflow/approvers';
import { INSTANCE_STATUS } from '../workflow/engine';
import type { EventKind, EventPayloads } from './events';
import { KIND_HANDLERS } from './kinds';
import { insertNotices, resolveNotices, type NewNotice } from './repository';

export type EventRow = Selectable<EventsTable>;
export type Handler<K extends EventKind> = (trx: Kysely<Database>, event: EventRow, payload: EventPayloads[K], now: number) => Promise<void>;

/** Events worked per round, at most. */
const BATCH = 100;
const LEASE = 'notice-dispatch';
const LEASE_MS = 15_000;

/** The notices that ask the person to act (resolved once the action is taken). */
export const ACTIONABLE_APPROVAL = ['approval.waiting', 'approval.returned', 'approval.remind'];
/** …and a ferry task's approval (an instance of source 'ferry'), resolved the same way. */
const ACTIONABLE = [...ACTIONABLE_APPROVAL, 'ferry.waiting'];

/** Where the workflow remote shows an instance. */
export const approvalLink = (instanceWireId: string) => `/workflow/informationDetails?id=${encodeURIComponent(instanceWireId)}`;

const workflowChanged: Handler<'workflow.changed'> = async (trx, event, p, now) => {
  const object = { type: 'workflow', id: String(p.instanceId) };
  const names = await userNames(trx, [p.initiatorId, p.actorId]);
  const initiator = names.get(p.initiatorId) ?? '';
  const actor = names.get(p.actorId) ?? '';
  const base = { object_type: object.type, object_id: object.id, link: approvalLink(object.id), event_id: event.id, created_at: now };
  const ended = p.status !== INSTANCE_STATUS.processing;
  // a ferry task's approval asks with a kind of its own (ferry.waiting)
  const source = await trx.selectFrom('workflow_instances').select('source').where('id', '=', p.instanceId).executeTakeFirst();
  const ferry = source?.source === 'ferry';

  // first what is no longer asked: by the one who acted, by someone else, or by the end
  if (ended) {
    const why = p.status === INSTANCE_STATUS.revoked ? '申请人已撤回' : p.status === INSTANCE_STATUS.approved ? '审批已通过' : '审批已驳回';
    await resolveNotices(trx, object, ACTIONABLE, [p.actorId], '已处理', now);
    await resolveNotices(trx, object, ACTIONABLE, null, why, now);
  } else {
    await resolveNotices(trx, object, ACTIONABLE, p.goneTodo.filter((u) => u === p.actorId), '已处理', now);
    await resolveNotices(trx, object, ACTIONABLE, p.goneTodo.filter((u) => u !== p.actorId), actor ? `已由${actor}处理` : '已处理', now);
  }

  const notices: NewNotice[] = [];
  for (const userId of p.newTodo) {
    if (userId === p.actorId) continue;
    if (p.action === 'return') {
      notices.push({ ...base, user_id: userId, kind: 'approval.returned', title: `退回重审：${p.title}`, body: `${actor} 将 ${initiator} 的申请退回到你所在的步骤，请重新审批` });
      continue;
    }
    const what = ferry ? '文件摆渡申请' : '申请';
    const body =
      p.action === 'transfer'
        ? `${actor} 将 ${initiator} 的${what}转交给你审批`
        : p.action === 'addApprover'
          ? `${actor} 请你一起审批 ${initiator} 的${what}（加签）`
          : `${initiator} 的${what}等待你审批`;
    if (ferry) notices.push({ ...base, user_id: userId, kind: 'ferry.waiting', title: `待审批：${p.title}`, body: `${body}，审批通过后文件才会发出` });
    else notices.push({ ...base, user_id: userId, kind: 'approval.waiting', title: `待审批：${p.title}`, body });
  }
  if (p.action === 'start') {
    for (const userId of p.cc) {
      if (userId !== p.initiatorId) notices.push({ ...base, user_id: userId, kind: 'approval.cc', title: `抄送：${p.title}`, body: `${initiator} 的申请抄送给你` });
    }
  }
  // the initiator learns that an approver sent the request back to an earlier step
  if (p.action === 'return' && !ended && p.initiatorId !== p.actorId) {
    notices.push({ ...base, user_id: p.initiatorId, kind: 'approval.sentback', title: `申请被退回：${p.title}`, body: `${actor} 将你的申请退回到之前的步骤重新审批` });
  }
  if (ended && p.initiatorId !== p.actorId) {
    if (p.status === INSTANCE_STATUS.approved) {
      notices.push({ ...base, user_id: p.initiatorId, kind: 'approval.approved', title: `审批通过：${p.title}`, body: '你的申请已通过全部审批' });
    } else if (p.status === INSTANCE_STATUS.rejected) {
      notices.push({ ...base, user_id: p.initiatorId, kind: 'approval.rejected', title: `审批驳回：${p.title}`, body: `${actor} 驳回了你的申请` });
    }
  }
  // one notice per person and event (a CC who is also an approver gets the approver's)
  const seen = new Set<number>();
  await insertNotices(
    trx,
    notices.filter((n) => !seen.has(n.user_id) && seen.add(n.user_id)),
  );
};

const SHARE_LEVEL_NAMES: Record<number, string> = { 1: '仅预览', 2: '预览和下载', 3: '上传和编辑' };

/**
 * The active people an internal share reaches, as 与我共享 finds them: the users named, the
 * members of the groups, and the people of the departments and of every department below them.
 */
async function shareRecipients(db: Kysely<Database>, targets: ReadonlyArray<{ type: number; id: number }>, ownerId: number): Promise<number[]> {
  const of = (type: number) => targets.filter((t) => t.type === type).map((t) => Number(t.id));
  const ids = new Set<number>(of(TARGET.user));
  const groups = of(TARGET.group);
  if (groups.length) for (const r of await db.selectFrom('group_members').select('user_id').where('group_id', 'in', groups).execute()) ids.add(Number(r.user_id));
  const departments = of(TARGET.department);
  if (departments.length) {
    const roots = await db.selectFrom('departments').select('path').where('id', 'in', departments).execute();
    for (const { path } of roots) {
      const members = await db
        .selectFrom('users')
        .innerJoin('departments', 'departments.id', 'users.dept_id')
        .select('users.id')
        .where((eb) => eb.or([eb('departments.path', '=', path), eb('departments.path', 'like', `${path}/%`)]))
        .execute();
      for (const m of members) ids.add(Number(m.id));
    }
  }
  ids.delete(ownerId);
  const all = [...ids];
  const active: number[] = [];
  for (let i = 0; i < all.length; i += 1000) {
    const rows = await db.selectFrom('users').select('id').where('id', 'in', all.slice(i, i + 1000)).where('disabled', '=', 0).execute();
    for (const r of rows) active.push(Number(r.id));
  }
  return active;
}

const shareReceived: Handler<'share.received'> = async (trx, event, p, now) => {
  // cancelled before it was dispatched: nobody is told
  const share = await trx.selectFrom('shares').select(['id', 'deleted']).where('id', '=', p.shareId).executeTakeFirst();
  if (!share || Number(share.deleted) !== 0) return;
  const owner = (await userNames(trx, [p.ownerId])).get(p.ownerId) ?? '';
  const quoted = p.itemNames.map((n) => `“${n}”`).join('、');
  const what = p.itemCount > p.itemNames.length ? `${quoted}等 ${p.itemCount} 项` : quoted;
  const recipients = await shareRecipients(trx, p.targets, p.ownerId);
  const rows: NewNotice[] = recipients.map((userId) => ({
    user_id: userId,
    kind: 'share.received',
    title: `${owner} 分享给你：${what}`,
    body: `权限：${SHARE_LEVEL_NAMES[p.level] ?? ''}。在“与我共享”中查看`,
    object_type: 'share',
    object_id: p.shareId,
    link: '/file/shareme',
    event_id: event.id,
    created_at: now,
  }));
  for (let i = 0; i < rows.length; i += 500) await insertNotices(trx, rows.slice(i, i + 500));
};

const workflowReminded: Handler<'workflow.reminded'> = async (trx, event, p, now) => {
  const id = String(p.instanceId);
  // only those still asked when the event is worked
  const still = await trx
    .selectFrom('workflow_participants')
    .select('user_id')
    .where('instance_id', '=', p.instanceId)
    .where('role', '=', 'todo')
    .where('user_id', 'in', p.userIds.length ? p.userIds : [0])
    .execute();
  const initiator = (await userNames(trx, [p.initiatorId])).get(p.initiatorId) ?? '';
  await insertNotices(
    trx,
    still.map((r) => ({
      user_id: Number(r.user_id),
      kind: 'approval.remind',
      title: `催办：${p.title}`,
      body: p.auto ? `${initiator} 的申请已等待你审批超过 ${p.hours ?? 0} 小时，请尽快处理` : `${initiator} 催你尽快审批${p.comment ? `：${p.comment}` : ''}`,
      object_type: 'workflow',
      object_id: id,
      link: approvalLink(id),
      event_id: event.id,
      created_at: now,
    })),
  );
};

const HANDLERS: { [K in EventKind]: Handler<K> } = {
  'workflow.changed': workflowChanged,
  'workflow.reminded': workflowReminded,
  'share.received': shareReceived,
  ...KIND_HANDLERS,
};

/** Seconds before the n-th retry: 2, 4, 8… up to 10 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(600_000, 1000 * 2 ** Math.min(attempts, 20));
}

export class NoticeDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly leases: JobLeases,
    /** the channels outside the app this server offers: the notices made get a delivery on each (notice-delivery/plan.ts) */
    readonly outside: readonly OutsideChannel[] = ['mail'],
    /** told of an event that failed (to log it) */
    public onError: (err: unknown, eventId: number) => void = () => undefined,
  ) {}

  /** Works the due events once (up to `limit`); how many were dispatched. */
  async runOnce(limit = BATCH, now = Date.now()): Promise<number> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('dispatched_at', 'is', null)
      .where('next_at', '<=', now)
      .orderBy('id')
      .limit(limit)
      .execute();
    let done = 0;
    for (const e of rows) {
      try {
        const worked = await this.db.transaction().execute(async (trx) => {
          // taken by this round only if still undispatched (another instance's round may have done it)
          const r = await trx.updateTable('events').set({ dispatched_at: now, last_error: '' }).where('id', '=', e.id).where('dispatched_at', 'is', null).executeTakeFirst();
          if (Number(r.numUpdatedRows) !== 1) return false;
          const handler = HANDLERS[e.kind as EventKind] as Handler<EventKind> | undefined;
          if (!handler) {
            await trx.updateTable('events').set({ last_error: `未知的事件类型 ${e.kind}` }).where('id', '=', e.id).execute();
            return true;
          }
          await withOutsideChannels(this.outside, () => handler(trx, e, JSON.parse(e.payload), now));
          return true;
        });
        if (worked) done++;
      } catch (err) {
        this.onError(err, Number(e.id));
        const attempts = Number(e.attempts) + 1;
        await this.db
          .updateTable('events')
          .set({ attempts, next_at: now + backoffMs(attempts), last_error: err instanceof Error ? err.message.slice(0, 500) : String(err) })
          .where('id', '=', e.id)
          .execute()
          .catch(() => undefined);
      }
    }
    return done;
  }

  /** One round on the lease holder: everything due, a batch at a time. */
  private async round(): Promise<void> {
    // a read first: an idle round writes nothing (no lease taken), on any instance
    const due = await this.db.selectFrom('events').select('id').where('dispatched_at', 'is', null).where('next_at', '<=', Date.now()).limit(1).executeTakeFirst();
    if (!due) return;
    if (!(await this.leases.take(LEASE, LEASE_MS))) return;
    while ((await this.runOnce()) === BATCH);
  }

  /** Runs a round now (after a change was committed here), unless one is running. */
  nudge(): void {
    if (!this.timer || this.running) return;
    this.running = this.round()
      .catch((err: unknown) => this.onError(err, 0))
      .finally(() => (this.running = null));
  }

  /** Rounds every `intervalMs` until stop(). */
  start(intervalMs = 1000): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.nudge(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
