// Folder size calculation and the manual order of a folder's items in 云文档.
import { sql, type Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { belowPath, findLiveItem, SORT_GAP, type ItemWithOwner } from './repository';
import { LEVEL } from './rights';
import type { FolderSize, Item, SetSortQuery } from './schemas';
import type { FoldersService } from './service';
import { resolveTargets } from './shortcuts';

const ITEM_NOT_FOUND = '文件或文件夹不存在或已被删除';

type Place = Pick<ItemRow, 'id' | 'parent_id' | 'type_order' | 'sort_order'>;

/** The live sibling next to `ref` in the manual order (before or after it), leaving out `skip`. */
function neighbour(db: Kysely<Database>, ref: Place, side: 'before' | 'after', skip: number) {
  const s = Number(ref.sort_order);
  return db
    .selectFrom('items')
    .select(['id', 'sort_order'])
    .where('parent_id', '=', ref.parent_id)
    .where('type_order', '=', ref.type_order)
    .where('deleted_at', 'is', null)
    .where('id', '<>', skip)
    .where((eb) =>
      side === 'before'
        ? eb.or([eb('sort_order', '<', s), eb.and([eb('sort_order', '=', s), eb('id', '<', ref.id)])])
        : eb.or([eb('sort_order', '>', s), eb.and([eb('sort_order', '=', s), eb('id', '>', ref.id)])]),
    )
    .orderBy('sort_order', side === 'before' ? 'desc' : 'asc')
    .orderBy('id', side === 'before' ? 'desc' : 'asc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The sort_order that places an item just before or after `ref`: halfway to the neighbour
 * when there is room, else the items from `ref` on (before) or after `ref` (after) move up
 * by one gap first. Order keys are (sort_order, id).
 */
export async function placeNextTo(db: Kysely<Database>, itemId: number, ref: Place, position: 'before' | 'after'): Promise<number> {
  const s = Number(ref.sort_order);
  const next = await neighbour(db, ref, position, itemId);
  if (!next) return position === 'before' ? s - SORT_GAP : s + SORT_GAP;
  const n = Number(next.sort_order);
  const room = Math.abs(s - n);
  if (room >= 2) return Math.min(s, n) + Math.floor(room / 2);
  await db
    .updateTable('items')
    .set({ sort_order: sql<number>`sort_order + ${SORT_GAP}` })
    .where('parent_id', '=', ref.parent_id)
    .where('type_order', '=', ref.type_order)
    .where('deleted_at', 'is', null)
    .where('id', '<>', itemId)
    .where((eb) =>
      eb.or([
        eb('sort_order', '>', s),
        eb.and([eb('sort_order', '=', s), eb('id', position === 'before' ? '>=' : '>', ref.id)]),
      ]),
    )
    .execute();
  return s + SORT_GAP / 2;
}

export class ArrangeService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
  ) {}

  /** POST /api/User/Folders/{id}/SizeCalc: the live items below a folder, shortcuts neither followed nor counted. */
  async sizeCalc(user: UserRow, idText: string): Promise<FolderSize> {
    const { policy } = await this.folders.context(user);
    const id = parseId(idText);
    const folder = id === null ? undefined : await findLiveItem(this.db, id);
    if (!folder || folder.type !== 'folder') throw notFound('文件夹不存在或已被删除');
    const rights = await this.folders.rights.load(user, policy, [folder]);
    if (!rights.can(folder, LEVEL.preview)) throw notFound('文件夹不存在或已被删除');
    const totals = await this.db
      .selectFrom('items')
      .select([
        sql<number>`coalesce(sum(case when type = 'file' then size else 0 end), 0)`.as('size'),
        sql<number>`coalesce(sum(case when type = 'file' then 1 else 0 end), 0)`.as('files'),
        sql<number>`coalesce(sum(case when type = 'folder' then 1 else 0 end), 0)`.as('folders'),
      ])
      .where('id_path', 'like', belowPath(folder.id_path))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { id: String(folder.id), size: Number(totals.size), fileCount: Number(totals.files), folderCount: Number(totals.folders) };
  }

  /** POST /api/User/Folders/SetSort: places an item just before or after a sibling of the same kind. */
  async setSort(user: UserRow, query: SetSortQuery): Promise<Item> {
    const { policy, env } = await this.folders.context(user);
    const itemId = parseId(query.folderId);
    const refId = parseId(query.targetId);
    const item = itemId === null ? undefined : await findLiveItem(this.db, itemId);
    const ref = refId === null ? undefined : await findLiveItem(this.db, refId);
    const parent = item?.parent_id == null ? undefined : await findLiveItem(this.db, item.parent_id);
    const rights = await this.folders.rights.load(
      user,
      policy,
      [item, ref, parent].filter((r): r is ItemWithOwner => r !== undefined),
    );
    if (!item || !rights.can(item, LEVEL.preview) || !ref || !rights.can(ref, LEVEL.preview)) throw notFound(ITEM_NOT_FOUND);
    if (item.parent_id === null || !parent) throw badRequest('根目录不能调整顺序');
    if (ref.parent_id !== item.parent_id) throw badRequest('只能在同一文件夹中的文件或文件夹之间调整顺序');
    if (!rights.can(parent, LEVEL.edit)) throw forbidden('您没有调整此文件夹中顺序的权限');
    if (Number(ref.type_order) !== Number(item.type_order)) throw badRequest('文件夹只能排在文件夹之间，文件只能排在文件之间');
    if (ref.id !== item.id) {
      await this.db.transaction().execute(async (trx) => {
        const [nowItem, nowRef] = [await findLiveItem(trx, item.id), await findLiveItem(trx, ref.id)];
        if (!nowItem || !nowRef || nowItem.parent_id !== nowRef.parent_id) throw notFound(ITEM_NOT_FOUND);
        const sortOrder = await placeNextTo(trx, nowItem.id, nowRef, query.position);
        await trx.updateTable('items').set({ sort_order: sortOrder }).where('id', '=', item.id).execute();
      });
    }
    const placed = await findLiveItem(this.db, item.id);
    if (!placed) throw notFound(ITEM_NOT_FOUND);
    await resolveTargets(rights, [placed]);
    return this.folders.toItem(placed, user, policy, env, rights);
  }
}
