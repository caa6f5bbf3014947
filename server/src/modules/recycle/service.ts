// 云文档 recycle bin: listing, restoring and purging deleted items, and the retention purge.
import type { Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import { conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import {
  findItemsWithOwner,
  findLiveItem,
  findRoot,
  insertFolder,
  itemNameKey,
  liveNameOwner,
  liveNameTaken,
  markRestored,
  purgeDeleted,
  rewriteSubtree,
  touchItem,
} from '../folders/repository';
import { LEVEL, SPACE_ENTERPRISE, SPACE_PERSONAL, type LoadedRights } from '../folders/rights';
import type { Item } from '../folders/schemas';
import { childNamePath, DUPLICATE_NAME, extensionOf, freeName, parentNamePath, type FoldersService } from '../folders/service';
import { editableAnchors, expiredTops, findDeletedTops, listDeleted, type RecycleScope } from './repository';
import type { RecycleList, RecycleQuery } from './schemas';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOT_IN_RECYCLE = '回收站中不存在该文件或文件夹';
/** At most this many deleted items are weighed against a caller's policies for one listing. */
const WEIGHED_MAX = 10000;

export class RecycleService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly formatTime: TimeFormatter,
    private readonly retentionDays: number,
  ) {}

  private get retentionMs() {
    return this.retentionDays * DAY_MS;
  }

  /**
   * Whose deleted items the caller sees: their own personal space, and the enterprise items
   * they may edit (level 3 or more): all of them for a document administrator, else those at
   * or below an item where a policy entry gives the caller 3 or more (then weighed one by one).
   */
  private async scopeOf(user: UserRow, rights: LoadedRights): Promise<RecycleScope> {
    const personal = rights.can({ id: 0, id_path: '', space_type: SPACE_PERSONAL, owner_id: user.id }, LEVEL.edit);
    let enterprise: RecycleScope['enterprise'] = false;
    if (!user.disabled && rights.policy.publicSpace) {
      enterprise = user.is_doc_admin === 1 ? true : await editableAnchors(this.db, await rights.loadCaller());
    }
    return { personalOwnerId: personal ? user.id : null, enterprise };
  }

  /** GET /api/User/Recycle: newest first. */
  async list(user: UserRow, query: RecycleQuery): Promise<RecycleList> {
    const { policy, env } = await this.folders.context(user);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const rights = await this.folders.rights.load(user, policy, []);
    const scope = await this.scopeOf(user, rights);
    let rows: Awaited<ReturnType<typeof listDeleted>>['rows'];
    let total: number;
    if (Array.isArray(scope.enterprise) && scope.enterprise.length) {
      // a policy further down may take editing away again: weigh each candidate
      const candidates = (await listDeleted(this.db, scope, 0, WEIGHED_MAX)).rows;
      await rights.ensure(candidates);
      const editable = candidates.filter((r) => rights.can(r, LEVEL.edit));
      total = editable.length;
      rows = editable.slice((page - 1) * pageSize, page * pageSize);
    } else {
      ({ rows, total } = await listDeleted(this.db, scope, (page - 1) * pageSize, pageSize));
      await rights.ensure(rows);
    }
    const data = rows.map((row) => {
      const rootName = row.space_type === SPACE_ENTERPRISE ? env.publicFolderName : env.personalFolderName;
      const parentPath = parentNamePath(row.name_path);
      return {
        // an item whose folder was purged has no parent any more: it keeps its own name
        ...this.folders.toItem(row, user, policy, env, rights),
        name: row.name,
        deletedAt: this.formatTime(row.deleted_at),
        expiresAt: this.formatTime(Number(row.deleted_at) + this.retentionMs),
        originalPath: parentPath ? `${rootName}/${parentPath}` : rootName,
      };
    });
    return { data, total };
  }

  /** Deleted top items the caller may see in the recycle bin, else 404 (the whole call fails). */
  private async visibleDeleted(user: UserRow, ids: string[]) {
    const { policy, env } = await this.folders.context(user);
    const parsed: number[] = [];
    for (const text of ids) {
      const id = parseId(text);
      if (id === null) throw notFound(NOT_IN_RECYCLE);
      if (!parsed.includes(id)) parsed.push(id);
    }
    const rows = await findDeletedTops(this.db, parsed);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = parsed.map((id) => {
      const row = byId.get(id);
      if (!row) throw notFound(NOT_IN_RECYCLE);
      return row;
    });
    // only who may edit a deleted item sees it in the recycle bin
    const rights = await this.folders.rights.load(user, policy, items);
    for (const row of items) if (!rights.can(row, LEVEL.edit)) throw notFound(NOT_IN_RECYCLE);
    return { items, policy, env, rights };
  }

  /**
   * POST /api/User/Recycle/Restore: back into the original folder, or into the space's root
   * when that folder is deleted or purged; a name taken meanwhile gets `（n）`.
   */
  async restore(user: UserRow, ids: string[]): Promise<{ restored: Item[] }> {
    const { items, policy, env, rights } = await this.visibleDeleted(user, ids);
    try {
      await this.db.transaction().execute(async (trx) => {
        const now = Date.now();
        for (const item of items) {
          let parent: ItemRow | undefined = item.parent_id === null ? undefined : await findLiveItem(trx, item.parent_id);
          if (!parent || parent.type !== 'folder') {
            const root = await findRoot(trx, item.space_type, item.space_type === SPACE_PERSONAL ? item.owner_id : undefined);
            if (!root) throw notFound('原位置与根目录都已不存在，无法还原');
            parent = await this.recreatePath(trx, user, rights, root, parentNamePath(item.name_path), now);
          }
          const name = (await liveNameTaken(trx, parent.id, item.name_key)) ? await freeName(trx, parent.id, item.name, item.type) : item.name;
          const moved = await trx
            .updateTable('items')
            .set({
              parent_id: parent.id,
              name,
              name_key: itemNameKey(name),
              extension: item.type === 'folder' ? '' : name === item.name ? item.extension : extensionOf(name),
              updated_at: now,
            })
            .where('id', '=', item.id)
            .where('deleted_at', 'is not', null)
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) !== 1) throw notFound(NOT_IN_RECYCLE);
          await rewriteSubtree(trx, item, { idPath: `${parent.id_path}/${item.id}`, namePath: childNamePath(parent.name_path, name) });
          await markRestored(trx, item, parent.id);
          await touchItem(trx, parent.id, now);
        }
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME);
      throw err;
    }
    const rows = await findItemsWithOwner(this.db, items.map((i) => i.id));
    await rights.ensure(rows);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return { restored: items.flatMap((i) => (byId.has(i.id) ? [this.folders.toItem(byId.get(i.id)!, user, policy, env, rights)] : [])) };
  }

  /**
   * The original folder of an item whose parent is gone (deleted or purged): the folders of its
   * name path are found again below the root, or made anew where missing, as far as the caller
   * may create them; the deepest one reached receives the item.
   */
  private async recreatePath(trx: Kysely<Database>, user: UserRow, rights: LoadedRights, root: ItemRow, namePath: string, now: number): Promise<ItemRow> {
    let folder = root;
    for (const name of namePath.split('/').filter(Boolean)) {
      const holder = await liveNameOwner(trx, folder.id, itemNameKey(name));
      if (holder && holder.type === 'folder') {
        folder = holder;
        continue;
      }
      await rights.ensure([folder], trx);
      if (!rights.can(folder, LEVEL.edit)) break;
      const folderName = holder ? await freeName(trx, folder.id, name, 'folder') : name;
      folder = await insertFolder(trx, folder, folderName, user.id, now);
    }
    return folder;
  }

  /** DELETE /api/User/Recycle: gone for good. */
  async purge(user: UserRow, ids: string[]): Promise<{ purged: number }> {
    const { items } = await this.visibleDeleted(user, ids);
    const gone = await this.db.transaction().execute((trx) => purgeDeleted(trx, items.map((i) => i.id)));
    await this.folders.blobs.remove(gone);
    return { purged: items.length };
  }

  /** Purges what has been in the recycle bin longer than RECYCLE_RETENTION_DAYS; returns how many items. */
  async purgeExpired(now: number = Date.now()): Promise<number> {
    let purged = 0;
    for (;;) {
      const ids = await expiredTops(this.db, now - this.retentionMs, 200);
      if (!ids.length) return purged;
      const gone = await this.db.transaction().execute((trx) => purgeDeleted(trx, ids));
      await this.folders.blobs.remove(gone);
      purged += ids.length;
    }
  }
}
