// Deleted (top) items of the 云文档 recycle bin: the items a user deleted, not what went with them.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { ItemWithOwner } from '../folders/repository';
import { entryForCaller, LEVEL, SPACE_ENTERPRISE, SPACE_PERSONAL, type Caller } from '../folders/rights';

export interface RecycleScope {
  /** personal items of this owner */
  personalOwnerId: number | null;
  /** every enterprise item (true), none (false), or those at or below these id paths */
  enterprise: boolean | string[];
}

function enterpriseAll(scope: RecycleScope): boolean {
  return scope.enterprise === true;
}
function enterpriseBelow(scope: RecycleScope): string[] {
  return Array.isArray(scope.enterprise) ? scope.enterprise : [];
}

/**
 * A column of `items` kept from the query planner (unary plus; `|| ''` for text): the index of
 * deleted items (migration 0059) must drive the bin's queries. Offered the owner's or the
 * space's index instead, SQLite read every live item of the owner or space to keep the few
 * deleted ones.
 */
const notIndexed = (column: 'space_type' | 'owner_id') => sql<number>`+${sql.ref(`items.${column}`)}`;
const idPathNotIndexed = sql<string>`(${sql.ref('items.id_path')} || '')`;

function deletedTops(db: Kysely<Database>, scope: RecycleScope) {
  return db
    .selectFrom('items')
    .where('items.deleted_at', 'is not', null)
    .where('items.deleted_with', 'is', null)
    .where((eb) => {
      const parts = [];
      if (scope.personalOwnerId !== null) {
        parts.push(eb.and([eb(notIndexed('space_type'), '=', SPACE_PERSONAL), eb(notIndexed('owner_id'), '=', scope.personalOwnerId)]));
      }
      if (enterpriseAll(scope)) parts.push(eb(notIndexed('space_type'), '=', SPACE_ENTERPRISE));
      const below = enterpriseBelow(scope);
      if (below.length) {
        parts.push(
          eb.and([
            eb(notIndexed('space_type'), '=', SPACE_ENTERPRISE),
            eb.or(below.flatMap((p) => [eb(idPathNotIndexed, '=', p), eb(idPathNotIndexed, 'like', `${p}/%`)])),
          ]),
        );
      }
      return eb.or(parts);
    });
}

export async function listDeleted(
  db: Kysely<Database>,
  scope: RecycleScope,
  offset: number,
  limit: number,
): Promise<{ rows: ItemWithOwner[]; total: number }> {
  if (scope.personalOwnerId === null && !enterpriseAll(scope) && !enterpriseBelow(scope).length) return { rows: [], total: 0 };
  const count = await deletedTops(db, scope)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await deletedTops(db, scope)
    // the owner is looked up for each deleted item, not the owner's items for each user
    .innerJoin('users', (join) => join.on((eb) => eb('users.id', '=', notIndexed('owner_id'))))
    .selectAll('items')
    .select('users.nick_name as owner_name')
    .orderBy('items.deleted_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { rows, total: Number(count.n) };
}

/** Deleted top items by id (with owner names); descendants that went with another item are not among them. */
export function findDeletedTops(db: Kysely<Database>, ids: number[]): Promise<ItemWithOwner[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .selectFrom('items')
    .innerJoin('users', 'users.id', 'items.owner_id')
    .selectAll('items')
    .select('users.nick_name as owner_name')
    .where('items.id', 'in', ids)
    .where('items.deleted_at', 'is not', null)
    .where('items.deleted_with', 'is', null)
    .execute();
}

/** Ids of deleted top items deleted before a time (oldest first). */
export async function expiredTops(db: Kysely<Database>, before: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('items')
    .select('id')
    .where('deleted_at', '<', before)
    .where('deleted_with', 'is', null)
    .orderBy('deleted_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Id paths of the enterprise items (live or deleted) with a policy entry of level 3 or more for
 * the caller: outside them a user who is not a document administrator cannot edit anything.
 */
export async function editableAnchors(db: Kysely<Database>, caller: Caller): Promise<string[]> {
  const rows = await db
    .selectFrom('access_policies as p')
    .innerJoin('items', 'items.id', 'p.item_id')
    .select('items.id_path')
    // the caller's policy entries drive the query, each item found by its id
    .where(notIndexed('space_type'), '=', SPACE_ENTERPRISE)
    .where('p.level', '>=', LEVEL.edit)
    .where(entryForCaller(caller))
    .execute();
  const paths = [...new Set(rows.map((r) => r.id_path))].sort();
  // a path below another one adds nothing
  return paths.filter((p) => !paths.some((o) => o !== p && p.startsWith(`${o}/`)));
}
