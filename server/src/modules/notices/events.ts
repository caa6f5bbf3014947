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
  /** the initiator reminded approvers of a waiting request (催办) */
  'workflow.reminded': {
    instanceId: number;
    title: string;
    initiatorId: number;
    userIds: number[];
    comment: string;
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
}

export type EventKind = keyof EventPayloads;

/** Records an event; call it with the transaction of the change. */
export async function recordEvent<K extends EventKind>(db: Kysely<Database>, kind: K, payload: EventPayloads[K], now: number = Date.now()): Promise<void> {
  await db.insertInto('events').values({ kind, payload: JSON.stringify(payload), created_at: now, dispatched_at: null }).execute();
}
