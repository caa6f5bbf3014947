// 云文档 files and folders: root folders, folder listings, creating folders and files.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import type { SettingsService } from '../settings/service';
import type { EnvironmentConfig, FeaturePolicy } from '../settings/schemas';
import { findLiveItem, findRoot, insertItem, itemNameKey, listChildren, liveNameTaken, touchItem, type ItemWithOwner } from './repository';
import { accessTo, permissionsOf, SPACE_ENTERPRISE, SPACE_PERSONAL } from './rights';
import type { CreateFileBody, FolderItems, Item, ItemsQuery } from './schemas';

export const NAME_MAX_LENGTH = 150;
const DUPLICATE_NAME = '该位置已存在同名的文件或文件夹，请换一个名称';

/** The trimmed name, or throws 40001 with the reason it cannot be used. */
export function validItemName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (!name) throw badRequest('名称不能为空');
  if ([...name].length > NAME_MAX_LENGTH) throw badRequest(`名称不能超过 ${NAME_MAX_LENGTH} 个字符`);
  // eslint-disable-next-line no-control-regex
  if (/[/\\\u0000-\u001f\u007f-\u009f]/.test(name)) throw badRequest('名称不能包含 /、\\ 或控制字符');
  if (name === '.' || name === '..') throw badRequest('名称不能是 . 或 ..');
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
  ) {}

  private toItem(row: ItemWithOwner, user: UserRow, policy: FeaturePolicy, env: EnvironmentConfig): Item {
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
      permissions: permissionsOf(accessTo(user, row, policy)),
    };
  }

  private async context(user: UserRow) {
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
    return root ? [this.toItem(root, user, policy, env)] : [];
  }

  /** The enterprise root folder ([] when the caller may not see the enterprise space). */
  async publicRoots(user: UserRow): Promise<Item[]> {
    const { policy, env } = await this.context(user);
    const root = await findRoot(this.db, SPACE_ENTERPRISE);
    if (!root || !accessTo(user, root, policy).read) return [];
    return [this.toItem(root, user, policy, env)];
  }

  /** A live folder the caller may read, else 404. */
  private async readableFolder(user: UserRow, idText: string, policy: FeaturePolicy): Promise<ItemWithOwner> {
    const id = parseId(idText);
    const folder = id === null ? undefined : await findLiveItem(this.db, id);
    if (!folder || folder.type !== 'folder' || !accessTo(user, folder, policy).read) throw notFound('文件夹不存在或已被删除');
    return folder;
  }

  async listItems(user: UserRow, parentId: string, query: ItemsQuery): Promise<FolderItems> {
    const { policy, env } = await this.context(user);
    const folder = await this.readableFolder(user, parentId, policy);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const { rows, total } = await listChildren(this.db, folder.id, {
      offset: (page - 1) * pageSize,
      limit: pageSize,
      sortField: query.sortField ?? 'name',
      sortOrder: query.sortOrder ?? 'asc',
      keyword: (query.keyword ?? '').trim(),
    });
    return {
      folder: this.toItem(folder, user, policy, env),
      items: { data: rows.map((r) => this.toItem(r, user, policy, env)), total },
    };
  }

  /** POST /api/User/Files/CreateFile: an empty folder or file. */
  async createFile(user: UserRow, body: CreateFileBody): Promise<Item> {
    const { policy, env } = await this.context(user);
    const parent = await this.readableFolder(user, body.parentId, policy);
    if (!accessTo(user, parent, policy).write) throw forbidden('您没有在此文件夹中新建的权限');
    const name = validItemName(body.name);
    const now = Date.now();
    let id: number;
    try {
      id = await this.db.transaction().execute(async (trx) => {
        if (await liveNameTaken(trx, parent.id, itemNameKey(name))) throw conflict(DUPLICATE_NAME);
        const row = await insertItem(trx, {
          parent,
          spaceType: parent.space_type,
          ownerId: parent.space_type === SPACE_PERSONAL ? parent.owner_id : user.id,
          name,
          type: body.type,
          extension: body.type === 'file' ? extensionOf(name) : '',
          size: 0,
          now,
        });
        await touchItem(trx, parent.id, now);
        return row.id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME);
      throw err;
    }
    const created = await findLiveItem(this.db, id);
    if (!created) throw notFound();
    return this.toItem(created, user, policy, env);
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
