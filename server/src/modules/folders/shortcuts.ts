// Shortcuts of 云文档: an item of type `shortcut` that points at a file or folder elsewhere.
// Size calculation, copy and delete never follow one; copying it copies the shortcut.
import type { Kysely } from 'kysely';
import type { Database, ItemRow, UserRow } from '../../db/types';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { belowPath, findLiveItem, insertItem, itemNameKey, liveNameTaken, touchItem, type ItemWithOwner } from './repository';
import { LEVEL, ownerOfNew, SPACE_ENTERPRISE, SPACE_PERSONAL, type Rights, type RightsRow } from './rights';
import type { Item, ShortcutBody } from './schemas';
import { DUPLICATE_NAME, freeName, type FoldersService } from './service';

/** HTTP 400, code 40002: a shortcut would lie in the folder it points at (or below it). */
export const shortcutInItsTarget = () => new AppError(400, 40002, '快捷方式不能放在其指向的文件夹中');

/**
 * Marks the shortcuts among `rows` whose target is live and visible to the caller
 * (`target_readable`), with one rights load for all their targets.
 */
export async function resolveTargets(rights: Rights, rows: readonly ItemWithOwner[], db?: Kysely<Database>): Promise<void> {
  const shortcuts = rows.filter((r) => r.target_id !== null && r.target_id !== undefined && r.target_id_path && r.target_deleted_at == null);
  if (!shortcuts.length) return;
  const targets: RightsRow[] = shortcuts.map((r) => ({
    id: Number(r.target_id),
    id_path: r.target_id_path!,
    space_type: Number(r.target_space_type),
    owner_id: Number(r.target_owner_id),
  }));
  await rights.ensure(targets, db);
  shortcuts.forEach((r, i) => {
    r.target_readable = rights.can(targets[i], LEVEL.preview);
  });
}

/** The ids of the folders on an id path (`<space>/<root id>/…/<id>`), the folder itself included. */
function idsOnPath(idPath: string): number[] {
  return idPath
    .split('/')
    .slice(1)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n));
}

/**
 * True when moving or copying `source` into `folder` would put a shortcut into the folder it
 * points at or below it: the source itself, or a live shortcut of a folder's subtree.
 */
export async function shortcutWouldLandInTarget(db: Kysely<Database>, source: ItemRow, folder: Pick<ItemRow, 'id_path'>): Promise<boolean> {
  const pathIds = idsOnPath(folder.id_path);
  if (source.type === 'shortcut') return source.target_id !== null && pathIds.includes(Number(source.target_id));
  if (source.type !== 'folder') return false;
  const hit = await db
    .selectFrom('items')
    .select('id')
    .where('id_path', 'like', belowPath(source.id_path))
    .where('type', '=', 'shortcut')
    .where('deleted_at', 'is', null)
    .where('target_id', 'in', pathIds)
    .limit(1)
    .executeTakeFirst();
  return hit !== undefined;
}

export class ShortcutsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
  ) {}

  /** POST /api/User/Folders/Shortcuts: a shortcut named after its target (`（n）` on a clash). */
  async create(user: UserRow, body: ShortcutBody): Promise<Item> {
    const { policy, env } = await this.folders.context(user);
    const targetId = parseId(body.targetId);
    const parentId = parseId(body.parentId);
    const target = targetId === null ? undefined : await findLiveItem(this.db, targetId);
    const parent = parentId === null ? undefined : await findLiveItem(this.db, parentId);
    const rights = await this.folders.rights.load(user, policy, [target, parent].filter((r): r is ItemWithOwner => r !== undefined));
    if (!target || !rights.can(target, LEVEL.preview)) throw notFound('快捷方式指向的文件或文件夹不存在或已被删除');
    if (!parent || parent.type !== 'folder' || !rights.can(parent, LEVEL.preview)) throw notFound('文件夹不存在或已被删除');
    if (!rights.can(parent, LEVEL.edit)) throw forbidden('您没有在此文件夹中新建的权限');
    if (target.type === 'shortcut') throw badRequest('不能为快捷方式创建快捷方式');
    if (target.parent_id === null) throw badRequest('不能为根目录创建快捷方式');
    if (target.type === 'folder' && (parent.id === target.id || parent.id_path.startsWith(`${target.id_path}/`))) throw shortcutInItsTarget();
    if (parent.space_type === SPACE_ENTERPRISE && target.space_type === SPACE_PERSONAL) {
      throw badRequest('企业空间中不能创建指向个人空间的快捷方式');
    }
    const now = Date.now();
    let id: number;
    try {
      id = await this.db.transaction().execute(async (trx) => {
        const name = (await liveNameTaken(trx, parent.id, itemNameKey(target.name)))
          ? await freeName(trx, parent.id, target.name, target.type)
          : target.name;
        const row = await insertItem(trx, {
          parent,
          spaceType: parent.space_type,
          ownerId: ownerOfNew(parent, user.id),
          name,
          type: 'shortcut',
          extension: target.type === 'file' ? target.extension : '',
          size: 0,
          now,
          targetId: target.id,
        });
        await touchItem(trx, parent.id, now);
        return row.id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(DUPLICATE_NAME);
      throw err;
    }
    const created = await findLiveItem(this.db, id);
    if (!created) throw notFound('快捷方式不存在或已被删除');
    await rights.ensure([created]);
    await resolveTargets(rights, [created]);
    return this.folders.toItem(created, user, policy, env, rights);
  }
}
