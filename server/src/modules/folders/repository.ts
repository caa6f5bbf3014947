// Items (files, folders, shortcuts) of 云文档.
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Database, ItemRow, ItemTypeName } from '../../db/types';
import { entryForCaller, LEVEL, ownerOfNew, type Caller } from './rights';
import { dropVersionsOf } from '../versions/repository';
import type { SortField } from './schemas';

/** What a shortcut's row carries about its target (all null when the target row is gone). */
export interface TargetColumns {
  target_type?: ItemTypeName | null;
  target_id_path?: string | null;
  target_space_type?: number | null;
  target_owner_id?: number | null;
  target_deleted_at?: number | null;
  /** set once the caller's rights on the target are known: it is live and the caller may see it */
  target_readable?: boolean;
}

export type ItemWithOwner = ItemRow & { owner_name: string } & TargetColumns;

/** Room left between neighbours of the manual order, so that most moves touch one row. */
export const SORT_GAP = 65536;

/** Normalised name: what the one-live-name-per-folder rule compares (case-insensitive). */
export function itemNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Adds the owners' nick names to item rows (one query for the distinct owners). */
async function withOwnerNames<T extends ItemRow>(db: Kysely<Database>, rows: T[]): Promise<(T & { owner_name: string })[]> {
  const ids = [...new Set(rows.map((r) => r.owner_id))];
  const owners = ids.length ? await db.selectFrom('users').select(['id', 'nick_name']).where('id', 'in', ids).execute() : [];
  const names = new Map(owners.map((u) => [u.id, u.nick_name]));
  return rows.map((r) => ({ ...r, owner_name: names.get(r.owner_id) ?? '' }));
}

function withOwner(db: Kysely<Database>) {
  return db
    .selectFrom('items')
    .innerJoin('users', 'users.id', 'items.owner_id')
    .leftJoin('items as t', 't.id', 'items.target_id')
    .selectAll('items')
    .select('users.nick_name as owner_name')
    .select(TARGET_COLUMNS);
}

/** The target columns of a query that left-joins a shortcut's target as `t`. */
const TARGET_COLUMNS = [
  't.type as target_type',
  't.id_path as target_id_path',
  't.space_type as target_space_type',
  't.owner_id as target_owner_id',
  't.deleted_at as target_deleted_at',
] as const;

/** The sort_order after the last live child of a kind (0 folders, 1 files) of a folder. */
export async function nextSortOrder(db: Kysely<Database>, parentId: number, typeOrder: number): Promise<number> {
  const last = await db
    .selectFrom('items')
    .select('sort_order')
    .where('parent_id', '=', parentId)
    .where('type_order', '=', typeOrder)
    .where('deleted_at', 'is', null)
    .orderBy('sort_order', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return (last ? Number(last.sort_order) : 0) + SORT_GAP;
}

export function findLiveItem(db: Kysely<Database>, id: number): Promise<ItemWithOwner | undefined> {
  return withOwner(db).where('items.id', '=', id).where('items.deleted_at', 'is', null).executeTakeFirst();
}

export function findRoot(db: Kysely<Database>, spaceType: number, ownerId?: number): Promise<ItemWithOwner | undefined> {
  let q = withOwner(db)
    .where('items.space_type', '=', spaceType)
    .where('items.parent_id', 'is', null)
    .where('items.deleted_at', 'is', null);
  if (ownerId !== undefined) q = q.where('items.owner_id', '=', ownerId);
  return q.orderBy('items.id').executeTakeFirst();
}

export async function liveNameTaken(db: Kysely<Database>, parentId: number, nameKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('items')
    .select('id')
    .where('parent_id', '=', parentId)
    .where('name_key', '=', nameKey)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewItemInput {
  parent: Pick<ItemRow, 'id' | 'id_path' | 'name_path' | 'space_type'> | null;
  spaceType: number;
  ownerId: number;
  name: string;
  type: ItemTypeName;
  extension: string;
  size: number;
  now: number;
  /** a shortcut's target */
  targetId?: number | null;
}

/** Inserts an item (last in its folder's manual order) and fills in its id path (which needs the new id). */
export async function insertItem(db: Kysely<Database>, input: NewItemInput): Promise<ItemRow> {
  const { parent } = input;
  const typeOrder = input.type === 'folder' ? 0 : 1;
  const sortOrder = parent ? await nextSortOrder(db, parent.id, typeOrder) : 0;
  const row = await db
    .insertInto('items')
    .values({
      parent_id: parent?.id ?? null,
      space_type: input.spaceType,
      owner_id: input.ownerId,
      name: input.name,
      name_key: itemNameKey(input.name),
      type: input.type,
      type_order: typeOrder,
      extension: input.extension,
      size: input.size,
      id_path: '',
      name_path: parent ? (parent.name_path ? `${parent.name_path}/${input.name}` : input.name) : '',
      sort_order: sortOrder,
      target_id: input.targetId ?? null,
      created_at: input.now,
      updated_at: input.now,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const idPath = parent ? `${parent.id_path}/${row.id}` : `${input.spaceType}/${row.id}`;
  await db.updateTable('items').set({ id_path: idPath }).where('id', '=', row.id).execute();
  if (parent) await addChildCount(db, parent.id, row.type_order, 1);
  return { ...row, id_path: idPath };
}

/**
 * Changes a folder's live child count of one kind (type_order 0 folders, else files) by
 * `delta`, relative to what the row holds (`count = count + delta`): concurrent writes add up.
 * Call it in the transaction of the write that changed the folder's live children.
 */
export async function addChildCount(db: Kysely<Database>, parentId: number, typeOrder: number, delta: number): Promise<void> {
  if (delta === 0) return;
  const column = Number(typeOrder) === 0 ? 'child_folders' : 'child_files';
  await db
    .updateTable('items')
    .set({ [column]: sql<number>`${sql.ref(column)} + ${delta}` })
    .where('id', '=', parentId)
    .execute();
}

/** Correlated count of the children of the `items` row being updated, of one kind, that match `where`. */
function childCount(typeOrder: '= 0' | '<> 0', where: RawBuilder<unknown>) {
  return sql<number>`(select count(*) from items c where c.parent_id = items.id and c.type_order ${sql.raw(typeOrder)} and ${where})`;
}

export async function touchItem(db: Kysely<Database>, id: number, now: number): Promise<void> {
  await db.updateTable('items').set({ updated_at: now }).where('id', '=', id).execute();
}

/** A new folder `name` in `parent`, made by `userId` (the parent counts as changed). */
export async function insertFolder(db: Kysely<Database>, parent: ItemRow, name: string, userId: number, now: number): Promise<ItemRow> {
  const row = await insertItem(db, {
    parent,
    spaceType: parent.space_type,
    ownerId: ownerOfNew(parent, userId),
    name,
    type: 'folder',
    extension: '',
    size: 0,
    now,
  });
  await touchItem(db, parent.id, now);
  return row;
}

export interface ListOptions {
  offset: number;
  limit: number;
  sortField: SortField;
  sortOrder: 'asc' | 'desc';
  keyword: string;
  /** leave out the children whose own policy list gives this caller nothing */
  hideFrom?: Caller;
}

/**
 * Items (of the query's `alias`) the caller can see as children of a folder they see but do
 * not manage: those without an own policy list, and those whose list has an entry of level 1
 * or more for the caller (docs/integration.md, "Rights").
 */
export function visibleChild(caller: Caller, alias: 'items' | 'f' | 'c' = 'items') {
  return (eb: ExpressionBuilder<any, any>) => {
    const own = () => eb.selectFrom('access_policies as p').select('p.id').whereRef('p.item_id', '=', sql.ref(`${alias}.id`) as never);
    return eb.or([eb.not(eb.exists(own())), eb.exists(own().where('p.level', '>=', 1).where(entryForCaller(caller)))]);
  };
}

/** The item (of `alias`) has its own policy list, and it gives the caller level 4 (管理). */
function managesOwnList(caller: Caller, alias: 'f' | 'c') {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.exists(
      eb
        .selectFrom('access_policies as p')
        .select('p.id')
        .whereRef('p.item_id', '=', sql.ref(`${alias}.id`) as never)
        .where('p.level', '>=', LEVEL.manage)
        .where(entryForCaller(caller)),
    );
}

/** The folder being listed, with its stored live child counts. */
export type ListedFolder = Pick<ItemRow, 'id' | 'child_folders' | 'child_files'>;

function likePattern(keyword: string): string {
  return `%${itemNameKey(keyword).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of a folder's live children, folders first, and the number of all matches.
 * Folders and files are read as two ranges (type_order fixed), each sorted in one direction
 * (ties follow the sort direction), so either one is a plain forward or backward walk of
 * an items_list_* index: no scan of the folder and no sort, whatever the page.
 */
export async function listChildren(
  db: Kysely<Database>,
  folder: ListedFolder,
  o: ListOptions,
): Promise<{ rows: ItemWithOwner[]; total: number }> {
  let filtered = db.selectFrom('items').where('items.parent_id', '=', folder.id).where('items.deleted_at', 'is', null);
  // hidden children make the stored counts too high: then the visible ones are counted
  const hiding = o.hideFrom !== undefined && (await hasChildWithPolicies(db, folder.id));
  if (hiding) filtered = filtered.where(visibleChild(o.hideFrom!));

  // without a keyword the folder's stored counts are the split; a keyword (LIKE, which no
  // index serves) is counted
  let folderCount = Math.max(0, Number(folder.child_folders));
  let fileCount = Math.max(0, Number(folder.child_files));
  if (o.keyword || hiding) {
    if (o.keyword) filtered = filtered.where(sql<boolean>`items.name_key like ${likePattern(o.keyword)} escape '\\'`);
    const counts = await filtered
      .select(['items.type_order', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('items.type_order')
      .execute();
    folderCount = Number(counts.find((c) => Number(c.type_order) === 0)?.n ?? 0);
    fileCount = counts.reduce((sum, c) => sum + (Number(c.type_order) === 0 ? 0 : Number(c.n)), 0);
  }
  const total = folderCount + fileCount;

  // one sorted range (folders or files) of `size` rows; past its middle the index is walked
  // from the other end, so the last page costs what the first does
  const range = async (typeOrder: number, size: number, offset: number, limit: number) => {
    const take = Math.min(limit, size - offset);
    if (take <= 0) return [];
    const fromEnd = offset > size / 2;
    const dir = fromEnd ? (o.sortOrder === 'asc' ? 'desc' : 'asc') : o.sortOrder;
    let q = filtered
      .leftJoin('items as t', 't.id', 'items.target_id')
      .selectAll('items')
      .select(TARGET_COLUMNS)
      .where('items.type_order', '=', typeOrder);
    if (o.sortField === 'manual') q = q.orderBy('items.sort_order', dir);
    else if (o.sortField === 'size') q = q.orderBy('items.size', dir);
    else if (o.sortField === 'updatedAt') q = q.orderBy('items.updated_at', dir);
    else if (o.sortField === 'type') q = q.orderBy('items.extension', dir);
    if (o.sortField !== 'manual') q = q.orderBy('items.name_key', dir);
    const rows = await q
      .orderBy('items.id', dir)
      .limit(take)
      .offset(fromEnd ? size - offset - take : offset)
      .execute();
    return fromEnd ? rows.reverse() : rows;
  };

  let page: (ItemRow & TargetColumns)[] = [];
  if (o.offset < folderCount) {
    page = await range(0, folderCount, o.offset, o.limit);
    if (page.length < o.limit && fileCount > 0) page = page.concat(await range(1, fileCount, 0, o.limit - page.length));
  } else if (o.offset < total) {
    page = await range(1, fileCount, o.offset - folderCount, o.limit);
  }
  return { rows: await withOwnerNames(db, page), total };
}

/** Whether any live child of a folder has an own policy list. */
async function hasChildWithPolicies(db: Kysely<Database>, folderId: number): Promise<boolean> {
  const row = await db
    .selectFrom('access_policies as p')
    .innerJoin('items as c', 'c.id', 'p.item_id')
    .select('p.id')
    .where('c.parent_id', '=', folderId)
    .where('c.deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Removes the access policies of an item and of everything below it. */
export async function dropSubtreePolicies(db: Kysely<Database>, item: Pick<ItemRow, 'id' | 'id_path'>): Promise<void> {
  await db
    .deleteFrom('access_policies')
    .where('item_id', 'in', (eb) =>
      eb
        .selectFrom('items')
        .select('items.id')
        .where((w) => w.or([w('items.id', '=', item.id), w('items.id_path', 'like', belowPath(item.id_path))])),
    )
    .execute();
}

/** Length in characters (code points), as SQLite's and PostgreSQL's substr count them. */
function charLength(text: string): number {
  return [...text].length;
}

/** LIKE pattern of every row below an id path (ids and slashes hold no wildcard). */
export function belowPath(idPath: string): string {
  return `${idPath}/%`;
}

/** The live item holding a name in a folder, if any. */
export async function liveNameOwner(db: Kysely<Database>, parentId: number, nameKey: string): Promise<ItemRow | undefined> {
  return db
    .selectFrom('items')
    .selectAll()
    .where('parent_id', '=', parentId)
    .where('name_key', '=', nameKey)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function findItemsWithOwner(db: Kysely<Database>, ids: number[]): Promise<ItemWithOwner[]> {
  if (!ids.length) return Promise.resolve([]);
  return withOwner(db).where('items.id', 'in', ids).execute();
}

/**
 * Gives an item and all its descendants (live or deleted) new paths in set-based UPDATEs:
 * the item's old id path and name path are prefixes of every descendant's, so the prefix is
 * replaced. Space and owner follow a move into another space.
 */
export async function rewriteSubtree(
  db: Kysely<Database>,
  item: Pick<ItemRow, 'id' | 'id_path' | 'name_path'>,
  to: { idPath: string; namePath: string; spaceType?: number; ownerId?: number },
): Promise<void> {
  const idCut = charLength(item.id_path) + 1;
  const nameCut = charLength(item.name_path) + 1;
  await db
    .updateTable('items')
    .set({
      id_path: sql<string>`cast(${to.idPath} as text) || substr(id_path, ${idCut})`,
      name_path: sql<string>`cast(${to.namePath} as text) || substr(name_path, ${nameCut})`,
      ...(to.spaceType !== undefined ? { space_type: to.spaceType } : {}),
      ...(to.ownerId !== undefined ? { owner_id: to.ownerId } : {}),
    })
    .where((eb) => eb.or([eb('id', '=', item.id), eb('id_path', 'like', belowPath(item.id_path))]))
    .execute();
}

/**
 * Sends an item to the recycle bin: its live descendants go with it (and stay out of listings).
 * Live child counts: the item's parent loses it, and every live item of the subtree loses
 * its live children (deleted items count none), before they are marked.
 */
export async function markDeleted(
  db: Kysely<Database>,
  item: Pick<ItemRow, 'id' | 'id_path' | 'parent_id' | 'type_order'>,
  userId: number,
  now: number,
): Promise<void> {
  const live = sql`c.deleted_at is null`;
  await db
    .updateTable('items')
    .set({
      child_folders: sql<number>`child_folders - ${childCount('= 0', live)}`,
      child_files: sql<number>`child_files - ${childCount('<> 0', live)}`,
    })
    .where((eb) => eb.or([eb('id', '=', item.id), eb('id_path', 'like', belowPath(item.id_path))]))
    .where('deleted_at', 'is', null)
    .execute();
  await db
    .updateTable('items')
    .set({ deleted_at: now, deleted_by: userId, deleted_with: item.id })
    .where('id_path', 'like', belowPath(item.id_path))
    .where('deleted_at', 'is', null)
    .execute();
  const top = await db
    .updateTable('items')
    .set({ deleted_at: now, deleted_by: userId, deleted_with: null })
    .where('id', '=', item.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(top.numUpdatedRows) === 1 && item.parent_id !== null) {
    await addChildCount(db, item.parent_id, item.type_order, -1);
  }
}

/**
 * Brings a deleted (top) item and what went with it back to life, in the live folder
 * `parentId` (where the caller has hung it). Live child counts: every restored item gains its
 * children that come back with it, and the folder gains the item.
 */
export async function markRestored(db: Kysely<Database>, top: Pick<ItemRow, 'id' | 'type_order'>, parentId: number): Promise<void> {
  const topId = top.id;
  const back = sql`c.deleted_with = ${topId} and c.deleted_at is not null`;
  await db
    .updateTable('items')
    .set({
      child_folders: sql<number>`child_folders + ${childCount('= 0', back)}`,
      child_files: sql<number>`child_files + ${childCount('<> 0', back)}`,
    })
    .where((eb) => eb.or([eb('id', '=', topId), eb('deleted_with', '=', topId)]))
    .where('deleted_at', 'is not', null)
    .execute();
  const restored = await db
    .updateTable('items')
    .set({ deleted_at: null, deleted_by: null, deleted_with: null })
    .where('id', '=', topId)
    .where('deleted_at', 'is not', null)
    .executeTakeFirst();
  await db
    .updateTable('items')
    .set({ deleted_at: null, deleted_by: null, deleted_with: null })
    .where('deleted_with', '=', topId)
    .execute();
  if (Number(restored.numUpdatedRows) === 1) await addChildCount(db, parentId, top.type_order, 1);
}

/**
 * Removes deleted (top) items and what went with them for good, with their file versions.
 * Items deleted separately earlier that still hang below them are detached (parent_id null)
 * and restore into the root. Returns the storage keys of blobs nobody holds any more, to
 * remove from disk once the transaction has committed (BlobStore.remove).
 */
export async function purgeDeleted(db: Kysely<Database>, topIds: number[]): Promise<string[]> {
  if (!topIds.length) return [];
  const inSet = (eb: any) => eb.or([eb('id', 'in', topIds), eb('deleted_with', 'in', topIds)]);
  const setIds = db
    .selectFrom('items')
    .select('id')
    .where((eb) => inSet(eb));
  // every row that hangs below a purged row lets go of it: the purged rows themselves, and
  // the earlier deleted ones that stay in the bin
  await db.updateTable('items').set({ parent_id: null }).where('parent_id', 'in', setIds).execute();
  const files = await db
    .selectFrom('items')
    .select('id')
    .where((eb) => inSet(eb))
    .where('type', '=', 'file')
    .execute();
  const gone = await dropVersionsOf(
    db,
    files.map((f) => f.id),
  );
  await db.deleteFrom('items').where((eb) => inSet(eb)).execute();
  return gone;
}

/** The live subtree of an item (the item first, then by depth; siblings in manual order). */
export async function liveSubtree(db: Kysely<Database>, item: Pick<ItemRow, 'id' | 'id_path'>): Promise<ItemRow[]> {
  const rows = await db
    .selectFrom('items')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', item.id), eb('id_path', 'like', belowPath(item.id_path))]))
    .where('deleted_at', 'is', null)
    .execute();
  const depth = (r: ItemRow) => r.id_path.split('/').length;
  return rows.sort((a, b) => depth(a) - depth(b) || Number(a.sort_order) - Number(b.sort_order) || a.id - b.id);
}

export interface TreeRow {
  id: number;
  parent_id: number | null;
  name: string;
  id_path: string;
  name_path: string;
  space_type: number;
  has_children: number;
}

/** The live child folders of a folder, by name, each with whether it has child folders. */
export async function childFolders(db: Kysely<Database>, parentId: number, hideFrom?: Caller): Promise<TreeRow[]> {
  let query = db
    .selectFrom('items as f')
    .select(['f.id', 'f.parent_id', 'f.name', 'f.id_path', 'f.name_path', 'f.space_type'])
    .select((eb) =>
      eb
        .case()
        .when(
          eb.exists(
            eb
              .selectFrom('items as c')
              .select('c.id')
              .whereRef('c.parent_id', '=', 'f.id')
              .where('c.type', '=', 'folder')
              .where('c.deleted_at', 'is', null)
              // a child folder hidden from the caller does not count, unless `f`'s own list
              // makes the caller its manager (then nothing below `f` is hidden)
              .$if(hideFrom !== undefined, (sub) =>
                sub.where((eb2) => eb2.or([visibleChild(hideFrom!, 'c')(eb2), managesOwnList(hideFrom!, 'f')(eb2)])),
              ),
          ),
        )
        .then(1)
        .else(0)
        .end()
        .as('has_children'),
    )
    .where('f.parent_id', '=', parentId)
    .where('f.type', '=', 'folder')
    .where('f.deleted_at', 'is', null);
  if (hideFrom) query = query.where(visibleChild(hideFrom, 'f'));
  const rows = await query.orderBy('f.name_key').orderBy('f.id').execute();
  return rows.map((r) => ({ ...r, has_children: Number(r.has_children) }));
}
