// 云文档 files and folders: root folders, folder listings, creating folders and files.
import type { Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import type { SettingsService } from '../settings/service';
import type { EnvironmentConfig, FeaturePolicy } from '../settings/schemas';
import {
  addChildCount,
  childFolders,
  dropSubtreePolicies,
  findItemsWithOwner,
  findLiveItem,
  findRoot,
  insertItem,
  itemNameKey,
  listChildren,
  liveNameOwner,
  liveNameTaken,
  liveSubtree,
  markDeleted,
  nextSortOrder,
  rewriteSubtree,
  touchItem,
  type ItemWithOwner,
  type TreeRow,
} from './repository';
import { LEVEL, ownerOfNew, permissionsFor, SPACE_ENTERPRISE, SPACE_PERSONAL, type LoadedRights, type Rights, type RightsService } from './rights';
import { addFirstVersion, addMasterVersion, copyMasterVersion, dropVersionsOf, masterContent } from '../versions/repository';
import type { BlobStore } from '../versions/blobs';
import { resolveTargets, shortcutInItsTarget, shortcutWouldLandInTarget } from './shortcuts';
import type { CreateFileBody, FileActions, FolderItems, Item, ItemsQuery, OperationBody, OperationResult, TreeNode } from './schemas';
import { previewSource } from '../preview/kinds';
import { nameProblem } from '../../lib/names';
import { bytesLandingIn, personalBytes } from '../quota/repository';
import { overQuota } from '../quota/errors';
import { noteQuotaUse, usedBytes } from '../quota/warnings';

export const NAME_MAX_LENGTH = 150;
export const DUPLICATE_NAME = '该位置已存在同名的文件或文件夹，请换一个名称';
const ITEM_NOT_FOUND = '文件或文件夹不存在或已被删除';

/** HTTP 400, code 40002: a folder moved or copied into itself or one of its descendants. */
export const intoItself = () => new AppError(400, 40002, '不能将文件夹移动或复制到其自身或子文件夹中');

/** The name path of an item's parent (names hold no slash). */
export function parentNamePath(namePath: string): string {
  const cut = namePath.lastIndexOf('/');
  return cut < 0 ? '' : namePath.slice(0, cut);
}

export function childNamePath(parentPath: string, name: string): string {
  return parentPath ? `${parentPath}/${name}` : name;
}

/** `名称（n）`, before the extension of a file, cut to the length limit. */
export function numberedName(name: string, type: string, n: number): string {
  const ext = type === 'folder' ? '' : extensionOf(name);
  const base = ext ? name.slice(0, name.length - ext.length - 1) : name;
  const tail = `（${n}）${ext ? name.slice(base.length) : ''}`;
  const room = NAME_MAX_LENGTH - [...tail].length;
  return [...base].slice(0, Math.max(1, room)).join('') + tail;
}

/** The first `名称（n）` that no live item of the folder holds. */
export async function freeName(db: Kysely<Database>, parentId: number, name: string, type: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = numberedName(name, type, n);
    if (!(await liveNameTaken(db, parentId, itemNameKey(candidate)))) return candidate;
  }
}

const EDITABLE = new Set(['txt', 'md', 'json', 'xml', 'csv', 'log', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx']);

/** What the client may offer for a file type (GET /api/User/Files/Actions). */
export function fileActions(extensionText: string | undefined): FileActions {
  const ext = (extensionText ?? '').trim().replace(/^\./, '').toLowerCase();
  // a viewer exists for the type (office documents through LibreOffice: when it is missing,
  // CreateComponentData says so)
  const previewable = previewSource(ext) !== null;
  const editable = EDITABLE.has(ext);
  return { previewable, editable, actions: ['download', ...(previewable ? ['preview'] : []), ...(editable ? ['edit'] : [])] };
}

/** Distinct ids of a list, in order; null when one is not an id we could have issued. */
function parseIds(ids: string[]): number[] | null {
  const out: number[] = [];
  for (const text of ids) {
    const id = parseId(text);
    if (id === null) return null;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** The items that do not lie below another item of the list (those travel with it). */
function topmost<T extends Pick<ItemRow, 'id_path'>>(items: T[]): T[] {
  return items.filter((s) => !items.some((o) => o !== s && s.id_path.startsWith(`${o.id_path}/`)));
}

/** The trimmed name, or throws 40001 with the reason it cannot be used (lib/names.ts). */
export function validItemName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  const problem = nameProblem(name, NAME_MAX_LENGTH);
  if (problem) throw badRequest(problem);
  return name;
}

/** Lower-case extension without the dot ('' for none, for dot-files and for folders). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export class FoldersService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
    private readonly formatTime: TimeFormatter,
    readonly rights: RightsService,
    readonly blobs: BlobStore,
  ) {}

  private marks: { mark<T extends Pick<Item, 'id' | 'isFavorite' | 'tags'>>(userId: number, items: T[]): Promise<T[]> } | null = null;

  /** Who sets isFavorite and tags on the items of the caller's own lists (modules/tags/marks.ts). */
  useMarks(marks: NonNullable<FoldersService['marks']>): void {
    this.marks = marks;
  }

  /** The caller's favourites and tags on `items` (never through a share: those would be the owner's). */
  async marked<T extends Pick<Item, 'id' | 'isFavorite' | 'tags'>>(user: UserRow, items: T[]): Promise<T[]> {
    return this.marks ? this.marks.mark(user.id, items) : items;
  }

  /** An item as the caller sees it; `rights` must have been loaded for the row. */
  toItem(row: ItemWithOwner, user: UserRow, policy: FeaturePolicy, env: EnvironmentConfig, rights: Rights): Item {
    const rootName = row.space_type === SPACE_ENTERPRISE ? env.publicFolderName : env.personalFolderName;
    return {
      id: String(row.id),
      parentId: row.parent_id === null ? null : String(row.parent_id),
      name: row.parent_id === null ? rootName : row.name,
      type: row.type,
      extension: row.extension,
      size: Number(row.size),
      idPath: row.id_path,
      namePath: row.name_path ? `${rootName}/${row.name_path}` : rootName,
      spaceType: row.space_type === SPACE_ENTERPRISE ? 1 : 2,
      ownerId: String(row.owner_id),
      ownerName: row.owner_name,
      createdAt: this.formatTime(row.created_at),
      updatedAt: this.formatTime(row.updated_at),
      isFavorite: false,
      tags: [],
      permissions: permissionsFor(rights.level(row)),
      // a shortcut's target, as far as the caller may see it (resolveTargets)
      targetId: row.target_id == null ? null : String(row.target_id),
      targetType: row.target_readable && (row.target_type === 'folder' || row.target_type === 'file') ? row.target_type : null,
      targetIdPath: row.target_readable ? (row.target_id_path ?? null) : null,
    };
  }

  async context(user: UserRow) {
    const [policy, env] = await Promise.all([this.settings.policyFor(user), this.settings.environmentConfig()]);
    return { policy, env };
  }

  /** The caller's personal root folder ([] when the feature policy switches personal space off). */
  async personalRoots(user: UserRow): Promise<Item[]> {
    const { policy, env } = await this.context(user);
    if (!policy.personalSpace) return [];
    let root = await findRoot(this.db, SPACE_PERSONAL, user.id);
    if (!root) {
      await this.createPersonalRoot(this.db, user.id, env.personalFolderName).catch((err: unknown) => {
        if (!isUniqueViolation(err)) throw err; // made by a parallel request
      });
      root = await findRoot(this.db, SPACE_PERSONAL, user.id);
    }
    if (!root) return [];
    const rights = await this.rights.load(user, policy, [root]);
    return rights.can(root, LEVEL.preview) ? [this.toItem(root, user, policy, env, rights)] : [];
  }

  /** The enterprise root folder ([] when the caller may not see the enterprise space). */
  async publicRoots(user: UserRow): Promise<Item[]> {
    const { policy, env } = await this.context(user);
    const root = await findRoot(this.db, SPACE_ENTERPRISE);
    if (!root) return [];
    const rights = await this.rights.load(user, policy, [root]);
    if (!rights.can(root, LEVEL.preview)) return [];
    return [this.toItem(root, user, policy, env, rights)];
  }

  /** A live folder the caller may read, else 404. */
  private async readableFolder(user: UserRow, idText: string, policy: FeaturePolicy, message = '文件夹不存在或已被删除'): Promise<ItemWithOwner> {
    return (await this.folderAndRights(user, idText, policy, message)).folder;
  }

  /** A live folder the caller may read (else 404), with the caller's rights loaded for it. */
  async folderAndRights(
    user: UserRow,
    idText: string,
    policy: FeaturePolicy,
    message = '文件夹不存在或已被删除',
    /** rights through a share, instead of the caller's own */
    through?: LoadedRights,
  ): Promise<{ folder: ItemWithOwner; rights: LoadedRights }> {
    const rights = through ?? (await this.rights.load(user, policy, []));
    return { folder: await this.folderFor(rights, idText, message), rights };
  }

  /** A live folder readable with `rights` (loaded for it here), else 404. */
  private async folderFor(rights: LoadedRights, idText: string, message = '文件夹不存在或已被删除'): Promise<ItemWithOwner> {
    const id = parseId(idText);
    const folder = id === null ? undefined : await findLiveItem(this.db, id);
    if (!folder || folder.type !== 'folder') throw notFound(message);
    await rights.ensure([folder]);
    if (!rights.can(folder, LEVEL.preview)) throw notFound(message);
    return folder;
  }

  /** A folder's page of children; `through` lists it with the rights of a share (its owner is `user`). */
  async listItems(user: UserRow, parentId: string, query: ItemsQuery, through?: LoadedRights): Promise<FolderItems> {
    const { policy, env } = await this.context(user);
    const { folder, rights } = await this.folderAndRights(user, parentId, policy, undefined, through);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const { rows, total } = await listChildren(this.db, folder, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
      sortField: query.sortField ?? 'name',
      sortOrder: query.sortOrder ?? 'asc',
      keyword: (query.keyword ?? '').trim(),
      // below a folder managed by the caller everything is visible; otherwise children whose
      // own policy list gives the caller nothing are left out
      hideFrom: rights.level(folder) < LEVEL.manage ? await rights.loadCaller() : undefined,
    });
    await rights.ensure(rows);
    await resolveTargets(rights, rows);
    const data = rows.map((r) => this.toItem(r, user, policy, env, rights));
    const folderItem = this.toItem(folder, user, policy, env, rights);
    if (!through) await this.marked(user, [folderItem, ...data]);
    return { folder: folderItem, items: { data, total } };
  }

  /** POST /api/User/Files/CreateFile: an empty folder or file. */
  async createFile(user: UserRow, body: CreateFileBody): Promise<Item> {
    const { policy, env } = await this.context(user);
    const { folder: parent, rights } = await this.folderAndRights(user, body.parentId, policy);
    if (!rights.can(parent, LEVEL.edit)) throw forbidden('您没有在此文件夹中新建的权限');
    const name = validItemName(body.name);
    const now = Date.now();
    let id: number;
    try {
      id = await this.db.transaction().execute(async (trx) => {
        if (await liveNameTaken(trx, parent.id, itemNameKey(name))) throw conflict(DUPLICATE_NAME);
        const row = await insertItem(trx, {
          parent,
          spaceType: parent.space_type,
          ownerId: ownerOfNew(parent, user.id),
          name,
          type: body.type,
          extension: body.type === 'file' ? extensionOf(name) : '',
          size: 0,
          now,
        });
        if (row.type === 'file') await addFirstVersion(trx, row.id, user.id, now);
        await touchItem(trx, parent.id, now);
        return row.id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME);
      throw err;
    }
    const created = await findLiveItem(this.db, id);
    if (!created) throw notFound();
    await rights.ensure([created]);
    return this.toItem(created, user, policy, env, rights);
  }

  /** Live items the caller may see, in the order asked, else 404 (the whole call fails). */
  private async visibleItems(user: UserRow, ids: string[], policy: FeaturePolicy): Promise<ItemWithOwner[]> {
    return (await this.itemsAndRights(user, ids, policy)).items;
  }

  /** Live items the caller may see (≥1), in the order asked, else 404, with the caller's rights on them. */
  async itemsAndRights(
    user: UserRow,
    ids: string[],
    policy: FeaturePolicy,
    /** rights through a share, instead of the caller's own */
    through?: LoadedRights,
  ): Promise<{ items: ItemWithOwner[]; rights: LoadedRights }> {
    const parsed = parseIds(ids);
    if (!parsed) throw notFound(ITEM_NOT_FOUND);
    const rows = await findItemsWithOwner(this.db, parsed);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = parsed.map((id) => {
      const row = byId.get(id);
      if (!row || row.deleted_at !== null) throw notFound(ITEM_NOT_FOUND);
      return row;
    });
    const rights = through ?? (await this.rights.load(user, policy, items));
    if (through) await through.ensure(items);
    for (const row of items) if (!rights.can(row, LEVEL.preview)) throw notFound(ITEM_NOT_FOUND);
    return { items, rights };
  }

  /** GET /api/User/Files/{id} */
  async getItem(user: UserRow, id: string): Promise<Item> {
    const { policy, env } = await this.context(user);
    const { items: [row], rights } = await this.itemsAndRights(user, [id], policy);
    await resolveTargets(rights, [row]);
    const [item] = await this.marked(user, [this.toItem(row, user, policy, env, rights)]);
    return item;
  }

  /** PUT /api/User/Files/Rename/{id}?fileName=: descendants' name paths follow in the same transaction. */
  async rename(user: UserRow, id: string, fileName: string): Promise<Item> {
    const { policy, env } = await this.context(user);
    const { items: [item], rights } = await this.itemsAndRights(user, [id], policy);
    if (item.parent_id === null) throw forbidden('根目录不能重命名');
    if (!rights.can(item, LEVEL.edit)) throw forbidden('您没有重命名该文件或文件夹的权限');
    const name = validItemName(fileName);
    const parentId = item.parent_id;
    try {
      await this.db.transaction().execute(async (trx) => {
        const current = await findLiveItem(trx, item.id);
        if (!current) throw notFound(ITEM_NOT_FOUND);
        const holder = await liveNameOwner(trx, parentId, itemNameKey(name));
        if (holder && holder.id !== item.id) throw conflict(DUPLICATE_NAME);
        const now = Date.now();
        const updated = await trx
          .updateTable('items')
          .set({ name, name_key: itemNameKey(name), extension: item.type === 'folder' ? '' : extensionOf(name), updated_at: now })
          .where('id', '=', item.id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw notFound(ITEM_NOT_FOUND);
        await rewriteSubtree(trx, current, { idPath: current.id_path, namePath: childNamePath(parentNamePath(current.name_path), name) });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME);
      throw err;
    }
    const renamed = await findLiveItem(this.db, item.id);
    if (!renamed) throw notFound(ITEM_NOT_FOUND);
    await resolveTargets(rights, [renamed]);
    const [result] = await this.marked(user, [this.toItem(renamed, user, policy, env, rights)]);
    return result;
  }

  /** DELETE /api/User/Files: to the recycle bin, all or nothing. */
  async deleteItems(user: UserRow, ids: string[]): Promise<{ deleted: number }> {
    const { policy } = await this.context(user);
    const { items, rights } = await this.itemsAndRights(user, ids, policy);
    for (const item of items) {
      if (item.parent_id === null) throw forbidden('根目录不能删除');
      if (!rights.can(item, LEVEL.edit)) throw forbidden('您没有删除该文件或文件夹的权限');
    }
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      for (const item of topmost(items)) {
        const still = await findLiveItem(trx, item.id);
        if (!still || still.id_path !== item.id_path) throw notFound(ITEM_NOT_FOUND);
        await markDeleted(trx, item, user.id, now);
        if (item.parent_id !== null) await touchItem(trx, item.parent_id, now);
      }
    });
    return { deleted: items.length };
  }

  /** POST /api/User/Files/Move and /Copy (docs/integration.md, "File operations"). */
  async transfer(
    user: UserRow,
    body: OperationBody,
    mode: 'move' | 'copy',
    /** one item landing under another name (WebDAV's Destination); the web keeps the name */
    landing?: { name: string },
  ): Promise<OperationResult> {
    const newName = landing ? validItemName(landing.name) : null;
    if (newName !== null && body.ids.length !== 1) throw badRequest('只能为一个文件或文件夹指定新名称');
    const nameOf = (s: ItemRow) => newName ?? s.name;
    const keyOf = (s: ItemRow) => (newName !== null ? itemNameKey(newName) : s.name_key);
    const { policy, env } = await this.context(user);
    const { items: sources, rights } = await this.itemsAndRights(user, body.ids, policy);
    const target = await this.folderFor(rights, body.targetId, '目标文件夹不存在或已被删除');
    for (const s of sources) {
      if (s.parent_id === null) throw forbidden(mode === 'move' ? '根目录不能移动' : '根目录不能复制');
      if (mode === 'move' && !rights.can(s, LEVEL.edit)) throw forbidden('您没有移动该文件或文件夹的权限');
      if (mode === 'copy' && !rights.can(s, LEVEL.download)) throw forbidden('您没有复制该文件或文件夹的权限');
    }
    if (!rights.can(target, LEVEL.edit)) throw forbidden('您没有在目标文件夹中放入文件的权限');
    for (const s of sources) {
      if (target.id_path === s.id_path || target.id_path.startsWith(`${s.id_path}/`)) throw intoItself();
    }
    for (const s of sources) {
      if (await shortcutWouldLandInTarget(this.db, s, target)) throw shortcutInItsTarget();
    }
    const strategy = body.strategy ?? null;

    // moving an item into the folder it is in changes nothing
    const unchanged = (s: ItemRow) => mode === 'move' && s.parent_id === target.id && nameOf(s) === s.name;
    const work = topmost(sources).filter((s) => !unchanged(s));
    const movedIn = topmost(sources).filter(unchanged);
    const spaceChanges = (s: ItemRow) => s.space_type !== target.space_type;
    /** the quota of the personal space the items land in, when they add to it (its 90 % warning) */
    let watchedQuota = 0;
    if (target.space_type === SPACE_PERSONAL) {
      // refused before anything is written, like an upload over the quota
      const incoming = await bytesLandingIn(this.db, work, target.owner_id, mode);
      const quota = incoming > 0 ? await this.settings.quotaFor(target.owner_id) : 0;
      if (quota && (await personalBytes(this.db, target.owner_id)).all + incoming > quota) throw overQuota('transfer');
      watchedQuota = quota;
    }
    const ownerIn = (s: ItemRow) => (target.space_type === SPACE_PERSONAL ? target.owner_id : spaceChanges(s) || mode === 'copy' ? user.id : s.owner_id);

    let outcome: OperationResult | number[];
    // blobs that no file version holds any more, removed from disk once the transaction has committed
    const released: string[] = [];
    try {
      outcome = await this.db.transaction().execute(async (trx): Promise<OperationResult | number[]> => {
        // the conflicts, before anything changes
        const conflicts: ItemRow[] = [];
        const seen = new Map<string, string>();
        // 新版本 (0) is a choice only when every conflict is a file meeting a file
        let filesOnFiles = true;
        for (const s of work) {
          const holder = await liveNameOwner(trx, target.id, keyOf(s));
          // an item moved to a new name in its own folder (its case only, say): no conflict with itself
          const holderType = (holder && !(mode === 'move' && holder.id === s.id) ? holder.type : undefined) ?? seen.get(keyOf(s));
          if (holderType !== undefined) {
            conflicts.push(s);
            if (s.type !== 'file' || holderType !== 'file') filesOnFiles = false;
          }
          seen.set(keyOf(s), s.type);
        }
        if (conflicts.length && strategy === null) {
          const first = conflicts[0];
          const strategies = [
            ...(filesOnFiles ? [{ name: '新版本', value: 0 }] : []),
            { name: '覆盖', value: 1 },
            { name: '重命名', value: 2 },
            { name: '跳过', value: 3 },
          ];
          return { conflictType: 1, conflictInfo: { fileName: first.name }, conflictStrategies: strategies, items: [] };
        }

        const now = Date.now();
        const usedBefore = watchedQuota ? await usedBytes(trx, target.owner_id) : 0;
        const done: number[] = movedIn.map((s) => s.id);
        for (const s of work) {
          const current = await findLiveItem(trx, s.id);
          if (!current || current.id_path !== s.id_path || current.name_path !== s.name_path) throw notFound(ITEM_NOT_FOUND);
          let name = nameOf(s);
          const found = await liveNameOwner(trx, target.id, keyOf(s));
          const holder = found && !(mode === 'move' && found.id === s.id) ? found : undefined;
          if (holder) {
            if (strategy === 3) continue;
            if (strategy === 0) {
              if (s.type === 'folder' || holder.type === 'folder') throw badRequest('文件夹不能保存为新版本');
              if (s.type !== 'file' || holder.type !== 'file') throw badRequest('快捷方式不能保存为新版本');
              await rights.ensure([holder], trx);
              if (!rights.can(holder, LEVEL.edit)) throw forbidden('您没有为目标位置的同名文件添加版本的权限');
              await addMasterVersion(trx, holder.id, await masterContent(trx, s.id), user.id, now);
              if (mode === 'move') {
                // the moved file is gone for good: its content lives on as the new version
                released.push(...(await dropVersionsOf(trx, [s.id])));
                await trx.deleteFrom('items').where('id', '=', s.id).execute();
                if (current.parent_id !== null) {
                  await addChildCount(trx, current.parent_id, current.type_order, -1);
                  await touchItem(trx, current.parent_id, now);
                }
              }
              if (!done.includes(holder.id)) done.push(holder.id);
              continue;
            }
            if (strategy === 1) {
              if (holder.id === s.id) continue; // a copy over itself: nothing to replace
              if (s.id_path.startsWith(`${holder.id_path}/`)) throw badRequest('不能用文件夹中的内容覆盖该文件夹本身');
              await rights.ensure([holder], trx);
              if (!rights.can(holder, LEVEL.edit)) throw forbidden('您没有覆盖目标位置同名项的权限');
              await markDeleted(trx, holder, user.id, now);
            } else if (strategy === 2) {
              const wanted = conflicts.length === 1 && body.newFileName !== undefined ? validItemName(body.newFileName) : null;
              if (wanted !== null) {
                if (await liveNameTaken(trx, target.id, itemNameKey(wanted))) throw conflict(DUPLICATE_NAME);
                name = wanted;
              } else {
                name = await freeName(trx, target.id, nameOf(s), s.type);
              }
            }
          }
          const extension = s.type === 'folder' ? '' : name === s.name ? s.extension : extensionOf(name);
          if (mode === 'move') {
            await trx
              .updateTable('items')
              .set({
                parent_id: target.id,
                name,
                name_key: itemNameKey(name),
                extension,
                updated_at: now,
                // last in the target's manual order
                sort_order: await nextSortOrder(trx, target.id, Number(current.type_order)),
              })
              .where('id', '=', s.id)
              .execute();
            // the live child counts of the source folder and the target
            if (current.parent_id !== null) await addChildCount(trx, current.parent_id, current.type_order, -1);
            await addChildCount(trx, target.id, current.type_order, 1);
            // access policies belong to the enterprise space: a subtree moved out leaves them behind
            if (spaceChanges(s) && target.space_type === SPACE_PERSONAL) await dropSubtreePolicies(trx, s);
            await rewriteSubtree(trx, s, {
              idPath: `${target.id_path}/${s.id}`,
              namePath: childNamePath(target.name_path, name),
              ...(spaceChanges(s) ? { spaceType: target.space_type, ownerId: ownerIn(s) } : {}),
            });
            if (s.parent_id !== null) await touchItem(trx, s.parent_id, now);
            done.push(s.id);
          } else {
            const copies = new Map<number, ItemRow>();
            for (const r of await liveSubtree(trx, s)) {
              const parent = r.id === s.id ? target : r.parent_id !== null ? copies.get(r.parent_id) : undefined;
              if (!parent) continue;
              const copy = await insertItem(trx, {
                parent,
                spaceType: target.space_type,
                ownerId: ownerIn(s),
                name: r.id === s.id ? name : r.name,
                type: r.type,
                extension: r.id === s.id ? extension : r.extension,
                size: Number(r.size),
                now,
                targetId: r.target_id,
              });
              copies.set(r.id, copy);
              if (r.type === 'file') await copyMasterVersion(trx, r.id, copy.id, user.id, now);
            }
            const top = copies.get(s.id);
            if (top) done.push(top.id);
          }
        }
        await touchItem(trx, target.id, now);
        if (watchedQuota) await noteQuotaUse(trx, target.owner_id, watchedQuota, usedBefore, now);
        return done;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME);
      throw err;
    }
    if (!Array.isArray(outcome)) return outcome;
    await this.blobs.remove(released);
    const rows = await findItemsWithOwner(this.db, outcome);
    await rights.ensure(rows);
    await resolveTargets(rights, rows);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const items = outcome.flatMap((id) => {
      const row = byId.get(id);
      return row && row.deleted_at === null ? [this.toItem(row, user, policy, env, rights)] : [];
    });
    return { conflictType: 0, conflictInfo: null, conflictStrategies: [], items };
  }

  private toTreeNode(row: TreeRow | ItemWithOwner, hasChildren: boolean, env: EnvironmentConfig): TreeNode {
    const rootName = row.space_type === SPACE_ENTERPRISE ? env.publicFolderName : env.personalFolderName;
    return {
      id: String(row.id),
      parentId: row.parent_id === null ? null : String(row.parent_id),
      name: row.parent_id === null ? rootName : row.name,
      idPath: row.id_path,
      namePath: row.name_path ? `${rootName}/${row.name_path}` : rootName,
      hasChildren,
    };
  }

  /** GET /api/User/Folders/{id}/TreeNodes: the child folders. */
  async treeNodes(user: UserRow, id: string): Promise<TreeNode[]> {
    const { policy, env } = await this.context(user);
    const { folder, rights } = await this.folderAndRights(user, id, policy);
    const hideFrom = rights.level(folder) < LEVEL.manage ? await rights.loadCaller() : undefined;
    return (await childFolders(this.db, folder.id, hideFrom)).map((r) => this.toTreeNode(r, r.has_children === 1, env));
  }

  /** GET /api/User/Folders/Personal/FolderTree and /Public/FolderTree: the root, then its child folders. */
  async folderTree(user: UserRow, space: 'personal' | 'public'): Promise<TreeNode[]> {
    const roots = space === 'personal' ? await this.personalRoots(user) : await this.publicRoots(user);
    if (!roots.length) return [];
    const { policy, env } = await this.context(user);
    const { folder: root, rights } = await this.folderAndRights(user, roots[0].id, policy);
    const hideFrom = rights.level(root) < LEVEL.manage ? await rights.loadCaller() : undefined;
    const children = (await childFolders(this.db, root.id, hideFrom)).map((r) => this.toTreeNode(r, r.has_children === 1, env));
    return [this.toTreeNode(root, children.length > 0, env), ...children];
  }

  /** Creates the personal root folder of a user (with the user, or repaired later). */
  async createPersonalRoot(db: Kysely<Database>, ownerId: number, name: string): Promise<void> {
    await insertItem(db, { parent: null, spaceType: SPACE_PERSONAL, ownerId, name, type: 'folder', extension: '', size: 0, now: Date.now() });
  }

  /** Creates the enterprise root folder unless it exists. */
  async ensureEnterpriseRoot(db: Kysely<Database>, ownerId: number, name: string): Promise<void> {
    if (await findRoot(db, SPACE_ENTERPRISE)) return;
    try {
      await insertItem(db, { parent: null, spaceType: SPACE_ENTERPRISE, ownerId, name, type: 'folder', extension: '', size: 0, now: Date.now() });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
}
