// What happened in 云文档, recorded as an event in the same transaction as the change (an outbox
// in the database): the change and its event commit together or not at all. The dispatcher
// (dispatcher.ts) turns each event into notices once, on whichever instance holds its lease.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

/** The events and their payloads. */
export interface EventPayloads {
  /** an approval was started or acted on (workflow/service.ts) */
  'workflow.changed': {
    instanceId: number;
    title: string;
    initiatorId: number;
    /** who acted (0: the engine) */
    actorId: number;
    /** 'start' or the action's kind (approve, reject, return, transfer, addApprover, revoke, comment) */
    action: string;
    /** the instance's status after it (INSTANCE_STATUS) */
    status: number;
    /** approvers the instance now waits for who did not before */
    newTodo: number[];
    /** approvers it waited for who are no longer asked */
    goneTodo: number[];
    /** people copied (at the start) */
    cc: number[];
  };
  /** the initiator reminded approvers of a waiting request (催办), or the flow did (自动催办) */
  'workflow.reminded': {
    instanceId: number;
    title: string;
    initiatorId: number;
    userIds: number[];
    comment: string;
    /** 自动催办: sent by the system after the flow's `hours` without action */
    auto?: boolean;
    hours?: number;
  };
  /** an internal share was made (shares/service.ts) */
  'share.received': {
    shareId: string;
    ownerId: number;
    /** the first items' names */
    itemNames: string[];
    itemCount: number;
    /** 1 仅预览, 2 预览和下载, 3 上传和编辑 */
    level: number;
    /** users, departments (with the ones below) and groups (shares/repository.ts TARGET) */
    targets: Array<{ type: number; id: number }>;
  };
  /**
   * a file was uploaded through an external share link of level 3 (uploads/routes.ts); recorded
   * due a minute later, and worked together with the share's other uploads waiting by then
   */
  'link.uploaded': { shareId: string; ownerId: number; itemId: number; name: string };
  /** a ferry task's checks stopped it (ferry/service.ts); `link`: where the sender sees the task */
  'ferry.blocked': { taskId: number; number: string; toZone: string; reason: string; link: string };
  /** the receiving zone verified and imported the task's package */
  'ferry.delivered': { taskId: number; number: string; toZone: string; link: string };
  /** a recipient in the receiving zone downloaded the task's files (its receipt) */
  'ferry.downloaded': { taskId: number; number: string; toZone: string; byName: string; link: string };
  /** a package arrived in this zone (ferry/inbox.ts): its recipients are told */
  'ferry.arrived': { inboxId: number; link: string; /** full mode: only recipients whose feature policy opens 交换空间 */ policyChecked: boolean };
  /** a registration was filed (registration/service.ts): the system administrators are asked */
  'registration.filed': { registrationId: number };
  /** an administrator approved or rejected it: the others' notices are resolved */
  'registration.decided': { registrationId: number; adminId: number; status: 'approved' | 'rejected' };
  /** a personal space reached 90 % of its quota (quota/warnings.ts) */
  'quota.crossed': { userId: number; used: number; quota: number };
  /** a password expires within 7 days (notices/password-expiry.ts) */
  'password.expiring': { userId: number; expiresAt: number; expiresText: string; /** the password's date then (changed or created) */ since: number };
  /** an administrator reset the person's TOTP (auth/service.ts) */
  'totp.reset': { userId: number; adminId: number };
  /** a 系统公告 was sent (announcements/service.ts) */
  'announcement.sent': { announcementId: number };
}

export type EventKind = keyof EventPayloads;

/** Records an event; call it with the transaction of the change. `delayMs`: not dispatched before then. */
export async function recordEvent<K extends EventKind>(
  db: Kysely<Database>,
  kind: K,
  payload: EventPayloads[K],
  now: number = Date.now(),
  delayMs = 0,
): Promise<void> {
  await db
    .insertInto('events')
    .values({ kind, payload: JSON.stringify(payload), created_at: now, dispatched_at: null, ...(delayMs > 0 ? { next_at: now + delayMs } : {}) })
    .execute();
}
