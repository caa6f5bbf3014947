// Who can be reached on a channel outside the app, as far as the database tells (no network):
// mail needs an address; DingTalk a userid, that of a person synced from DingTalk's contacts
// (the directory's external id) or the one found for the union id of a person who signed in
// with DingTalk (dingtalk_userids, filled by the DingTalk sender; a union id not looked up yet
// counts as reachable, one DingTalk did not know is asked again after a day).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { OutsideChannel } from './channels';

/** Why a delivery is skipped when the person cannot be reached on the channel. */
export const NO_ADDRESS: Record<OutsideChannel, string> = { mail: '没有邮箱地址', dingtalk: '未绑定钉钉' };

/** A union id DingTalk did not know is looked up again after this. */
export const UNKNOWN_UNION_RETRY_MS = 24 * 3600_000;

/** What the database knows of a person's DingTalk identity. */
export interface DingTalkIdentity {
  source: string;
  external_id: string | null;
  dingtalk_union_id: string | null;
  /** dingtalk_userids.userid of the union id (null: not looked up) */
  found_userid: string | null;
  found_at: number | null;
}

/**
 * The person's DingTalk userid: a string when known, '' when they have none (no binding, or
 * DingTalk did not know the union id lately), null when their union id is still to be looked up.
 */
export function dingtalkUserid(p: DingTalkIdentity, now: number): string | null {
  if (p.source === 'dingtalk' && p.external_id) return p.external_id;
  const union = (p.dingtalk_union_id ?? '').trim();
  if (!union) return '';
  if (p.found_userid === null || p.found_at === null) return null;
  if (p.found_userid) return p.found_userid;
  return now - Number(p.found_at) < UNKNOWN_UNION_RETRY_MS ? '' : null;
}

/** The people's DingTalk identities (users joined with the union ids found). */
export async function dingtalkIdentities(db: Kysely<Database>, userIds: readonly number[]): Promise<Map<number, DingTalkIdentity>> {
  const out = new Map<number, DingTalkIdentity>();
  const ids = [...new Set(userIds.map(Number))];
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .selectFrom('users as u')
      .leftJoin('dingtalk_userids as t', 't.union_id', 'u.dingtalk_union_id')
      .select(['u.id', 'u.source', 'u.external_id', 'u.dingtalk_union_id', 't.userid as found_userid', 't.resolved_at as found_at'])
      .where('u.id', 'in', ids.slice(i, i + 1000))
      .execute();
    for (const r of rows) {
      out.set(Number(r.id), {
        source: r.source,
        external_id: r.external_id,
        dingtalk_union_id: r.dingtalk_union_id,
        found_userid: r.found_userid ?? null,
        found_at: r.found_at === null || r.found_at === undefined ? null : Number(r.found_at),
      });
    }
  }
  return out;
}

/** The people (of `userIds`) who may be reached on the channel. */
export async function reachable(db: Kysely<Database>, channel: OutsideChannel, userIds: readonly number[], now = Date.now()): Promise<Set<number>> {
  const out = new Set<number>();
  const ids = [...new Set(userIds.map(Number))];
  if (channel === 'mail') {
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids.slice(i, i + 1000)).execute();
      for (const r of rows) if ((r.email ?? '').trim()) out.add(Number(r.id));
    }
    return out;
  }
  for (const [id, p] of await dingtalkIdentities(db, ids)) if (dingtalkUserid(p, now) !== '') out.add(id);
  return out;
}
