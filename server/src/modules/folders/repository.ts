// Items (files, folders, shortcuts) of 云文档.
import { sql, type Kysely } from 'kysely';
import type { Database, ItemRow, ItemTypeName } from '../../db/types';
import type { SortField } from './schemas';

export type ItemWithOwner = ItemRow & { owner_name: string };

/** Normalised name: what the one-live-name-per-folder rule compares (case-insensitive). */
export function itemNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Adds the owners' nick names to item rows (one query for the distinct owners). */
async function withOwnerNames(db: Kysely<Database>, rows: ItemRow[]): Promise<ItemWithOwner[]> {
  const ids = [...new Set(rows.map((r) => r.owner_id))];
  const owners = ids.length ? await db.selectFrom('users').select(['id', 'nick_name']).where('id', 'in', ids).execute() : [];
  const names = new Map(owners.map((u) => [u.id, u.nick_name]));
  return rows.map((r) => ({ ...r, owner_name: names.get(r.owner_id) ?? '' }));
}

function withOwner(db: Kysely<Database>) {
  return db
    .selectFrom('items')
    .innerJoin('users', 'users.id', 'items.owner_id')
    .selectAll('items')
    .select('users.nick_name as owner_name');
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
}

/** Inserts an item and fills in its id path (which needs the new id). */
export async function insertItem(db: Kysely<Database>, input: NewItemInput): Promise<ItemRow> {
  const { parent } = input;
  const row = await db
    .insertInto('items')
    .values({
      parent_id: parent?.id ?? null,
      space_type: input.spaceType,
      owner_id: input.ownerId,
      name: input.name,
      name_key: itemNameKey(input.name),
      type: input.type,
      type_order: input.type === 'folder' ? 0 : 1,
      extension: input.extension,
      size: input.size,
      id_path: '',
      name_path: parent ? (parent.name_path ? `${parent.name_path}/${input.name}` : input.name) : '',
      sort_order: 0,
      created_at: input.now,
      updated_at: input.now,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const idPath = parent ? `${parent.id_path}/${row.id}` : `${input.spaceType}/${row.id}`;
  await db.updateTable('items').set({ id_path: idPath }).where('id', '=', row.id).execute();
  return { ...row, id_path: idPath };
}

export async function touchItem(db: Kysely<Database>, id: number, now: number): Promise<void> {
  await db.updateTable('items').set({ updated_at: now }).where('id', '=', id).execute();
}

export interface ListOptions {
  offset: number;
  limit: number;
  sortField: SortField;
  sortOrder: 'asc' | 'desc';
  keyword: string;
}

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
  parentId: number,
  o: ListOptions,
): Promise<{ rows: ItemWithOwner[]; total: number }> {
  let filtered = db.selectFrom('items').where('items.parent_id', '=', parentId).where('items.deleted_at', 'is', null);
  if (o.keyword) filtered = filtered.where(sql<boolean>`items.name_key like ${likePattern(o.keyword)} escape '\\'`);

  const counts = await filtered
    .select(['items.type_order', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('items.type_order')
    .execute();
  const folderCount = Number(counts.find((c) => Number(c.type_order) === 0)?.n ?? 0);
  const total = counts.reduce((sum, c) => sum + Number(c.n), 0);

  const dir = o.sortOrder;
  const range = (typeOrder: number, offset: number, limit: number) => {
    let q = filtered.selectAll('items').where('items.type_order', '=', typeOrder);
    if (o.sortField === 'size') q = q.orderBy('items.size', dir);
    else if (o.sortField === 'updatedAt') q = q.orderBy('items.updated_at', dir);
    else if (o.sortField === 'type') q = q.orderBy('items.extension', dir);
    return q.orderBy('items.name_key', dir).orderBy('items.id', dir).limit(limit).offset(offset).execute();
  };

  let page: ItemRow[] = [];
  if (o.offset < folderCount) {
    page = await range(0, o.offset, o.limit);
    if (page.length < o.limit && total > folderCount) page = page.concat(await range(1, 0, o.limit - page.length));
  } else if (o.offset < total) {
    page = await range(1, o.offset - folderCount, o.limit);
  }
  return { rows: await withOwnerNames(db, page), total };
}
