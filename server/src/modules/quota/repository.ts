// What a personal space holds, for its usage bar.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { SPACE_PERSONAL } from '../folders/rights';

/** Bytes of a person's personal space: all its files, and those in the recycle bin. */
export async function personalBytes(db: Kysely<Database>, ownerId: number): Promise<{ all: number; recycled: number }> {
  const row = await db
    .selectFrom('items')
    .select([
      sql<number>`coalesce(sum(size), 0)`.as('all'),
      sql<number>`coalesce(sum(case when deleted_at is not null then size else 0 end), 0)`.as('recycled'),
    ])
    .where('space_type', '=', SPACE_PERSONAL)
    .where('owner_id', '=', ownerId)
    .where('type', '=', 'file')
    .executeTakeFirst();
  return { all: Number(row?.all ?? 0), recycled: Number(row?.recycled ?? 0) };
}
