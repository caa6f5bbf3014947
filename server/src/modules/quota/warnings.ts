// 云文档's quota warning (issue 28): a personal space that reaches 90 % of its quota tells its
// owner (quota.warning), once per crossing. The database holds whether the owner was told: a
// row notice_marks(owner, 'quota.warning'). A change that adds to the space (an upload, a copy
// or move into it) checks, in its own transaction, where the usage stands now and where it
// stood before the change: reaching 90 % with no mark records the event and sets the mark;
// usage found below 90 % drops the mark; a change that starts below 90 % while the mark is
// there is a new crossing too (the usage dropped meanwhile: files purged or moved out, a larger
// quota), and the mark is renewed. Concurrent changes take the mark row in turn, so one
// crossing makes one event.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { recordEvent } from '../notices/events';
import { personalBytes } from './repository';

/** The share of the quota at which the owner is warned. */
export const QUOTA_WARN_RATIO = 0.9;
const KIND = 'quota.warning';

/** Bytes counted against a personal space's quota now (its files, the recycle bin's included). */
export async function usedBytes(db: Kysely<Database>, ownerId: number): Promise<number> {
  return (await personalBytes(db, ownerId)).all;
}

/**
 * After a change that may have added to `ownerId`'s personal space, inside the change's
 * transaction; `before`: the usage when the change began, `quota`: the owner's (0: unlimited).
 */
export async function noteQuotaUse(trx: Kysely<Database>, ownerId: number, quota: number, before: number, now: number = Date.now()): Promise<void> {
  if (!quota) return;
  const threshold = quota * QUOTA_WARN_RATIO;
  const used = await usedBytes(trx, ownerId);
  const marks = trx.selectFrom('notice_marks').where('user_id', '=', ownerId).where('kind', '=', KIND);
  if (used < threshold) {
    if (await marks.select('at').executeTakeFirst()) await trx.deleteFrom('notice_marks').where('user_id', '=', ownerId).where('kind', '=', KIND).execute();
    return;
  }
  const mark = await marks.select('at').executeTakeFirst();
  let crossed = false;
  if (!mark) {
    const r = await trx
      .insertInto('notice_marks')
      .values({ user_id: ownerId, kind: KIND, mark: String(quota), at: now })
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
      .executeTakeFirst();
    crossed = Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  } else if (before < threshold) {
    const r = await trx
      .updateTable('notice_marks')
      .set({ mark: String(quota), at: now })
      .where('user_id', '=', ownerId)
      .where('kind', '=', KIND)
      .where('at', '=', Number(mark.at))
      .executeTakeFirst();
    crossed = Number(r.numUpdatedRows) === 1;
  }
  if (crossed) await recordEvent(trx, 'quota.crossed', { userId: ownerId, used, quota }, now);
}
