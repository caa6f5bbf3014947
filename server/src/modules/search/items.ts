// Turns an ordered page of item ids (from a search, a favourites or a tag list, each already
// filtered by readableScope) into the Items the caller sees: owners, shortcut targets, rights
// and the caller's marks, in the order given.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { findItemsWithOwner, type ItemWithOwner } from '../folders/repository';
import type { LoadedRights } from '../folders/rights';
import type { Item } from '../folders/schemas';
import type { FoldersService } from '../folders/service';
import { resolveTargets } from '../folders/shortcuts';

export async function itemsInOrder(
  db: Kysely<Database>,
  folders: FoldersService,
  user: UserRow,
  rights: LoadedRights,
  ids: readonly number[],
): Promise<{ item: Item; row: ItemWithOwner }[]> {
  if (!ids.length) return [];
  const { policy, env } = await folders.context(user);
  const rows = await findItemsWithOwner(db, [...ids]);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is ItemWithOwner => r !== undefined);
  await rights.ensure(ordered);
  await resolveTargets(rights, ordered);
  const items = ordered.map((row) => ({ item: folders.toItem(row, user, policy, env, rights), row }));
  await folders.marked(
    user,
    items.map((x) => x.item),
  );
  return items;
}
