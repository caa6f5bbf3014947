// Where a new notice goes, decided as it is made (notices/repository.ts insertNotices, in the
// dispatcher's transaction): into the person's 站内消息 or hidden there, and a delivery row per
// outside channel the person gets the kind on: pending (at once for urgent kinds, else for the
// digest) or skipped with the reason (没有邮箱地址, 未绑定钉钉). A notice that goes nowhere is not
// made at all. Any notice kind works.
//
// Which outside channels this server offers is its configuration (DingTalk needs
// DINGTALK_AGENT_ID), not the database's: the dispatcher runs its events inside
// withOutsideChannels(…) and the plan reads them from there (mail alone outside it). Mail is
// offered while 系统管理 › 通知 has it switched on.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Insertable, Kysely } from 'kysely';
import type { Database, NoticesTable } from '../../db/types';
import { effective, isUrgent, mailEnabled, readPolicy, readPreferences, type OutsideChannel } from './channels';
import { NO_ADDRESS, reachable } from './recipients';

type NoticeIn = Omit<Insertable<NoticesTable>, 'id' | 'read_at' | 'resolved_at'>;

const offered = new AsyncLocalStorage<readonly OutsideChannel[]>();

/** Runs `fn` with the outside channels the server offers (the notices made inside get their deliveries). */
export function withOutsideChannels<T>(channels: readonly OutsideChannel[], fn: () => Promise<T>): Promise<T> {
  return offered.run(channels, fn);
}

/** The outside channels offered where the caller runs (mail alone outside withOutsideChannels). */
export function outsideChannels(): readonly OutsideChannel[] {
  return offered.getStore() ?? ['mail'];
}

export interface DeliveryPlan<T extends NoticeIn> {
  /** the notices to make (hidden when the person keeps the kind out of 站内消息) */
  rows: T[];
  /** records the deliveries of the notices made (call with what the insert returned) */
  record(made: ReadonlyArray<{ id: number; user_id: number; kind: string; created_at: number }>): Promise<void>;
}

/** Reads the settings of the notices' people (with `db`: inside the caller's transaction). */
export async function planDeliveries<T extends NoticeIn>(db: Kysely<Database>, notices: readonly T[]): Promise<DeliveryPlan<T>> {
  const userIds = [...new Set(notices.map((n) => Number(n.user_id)))];
  const policy = await readPolicy(db);
  const prefs = await readPreferences(db, userIds);
  const channels: OutsideChannel[] = [];
  for (const c of outsideChannels()) if (c !== 'mail' || (await mailEnabled(db))) channels.push(c);
  const reach = new Map<OutsideChannel, Set<number>>();
  for (const c of channels) reach.set(c, await reachable(db, c, userIds));
  /** the outside channels each person gets the kind on */
  const outside = (userId: number, kind: string) => channels.filter((c) => effective(policy, prefs.get(userId)!, kind, c).enabled);
  const rows: T[] = [];
  for (const n of notices) {
    const userId = Number(n.user_id);
    const inApp = effective(policy, prefs.get(userId)!, n.kind, 'inApp').enabled;
    if (!inApp && !outside(userId, n.kind).length) continue;
    // every row names the column (SQLite has no DEFAULT in a multi-row VALUES)
    rows.push({ ...n, hidden: inApp ? 0 : 1 });
  }
  return {
    rows,
    async record(made) {
      const deliveries = made.flatMap((n) =>
        outside(Number(n.user_id), n.kind).map((channel) => {
          const missing = !reach.get(channel)!.has(Number(n.user_id));
          return {
            notice_id: Number(n.id),
            user_id: Number(n.user_id),
            channel,
            status: missing ? ('skipped' as const) : ('pending' as const),
            reason: missing ? NO_ADDRESS[channel] : '',
            digest: isUrgent(n.kind) ? (0 as const) : (1 as const),
            next_at: Number(n.created_at),
            created_at: Number(n.created_at),
            updated_at: Number(n.created_at),
          };
        }),
      );
      for (let i = 0; i < deliveries.length; i += 500) {
        await db
          .insertInto('notice_deliveries')
          .values(deliveries.slice(i, i + 500))
          .onConflict((oc) => oc.columns(['notice_id', 'channel']).doNothing())
          .execute();
      }
    },
  };
}
