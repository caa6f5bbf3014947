// 云文档 access policies: the caller's permissions on items, and the policy lists of
// enterprise items (docs/integration.md, "Rights: levels and how they are found").
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest, forbidden, isUniqueViolation, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { TimeFormatter } from '../../lib/time';
import { findLiveItem, type ItemWithOwner } from '../folders/repository';
import {
  LEVEL,
  listLevel,
  loadLists,
  pathIds,
  permissionsFor,
  SPACE_PERSONAL,
  SUBJECT,
  type Level,
  type LoadedRights,
  type RightsRow,
} from '../folders/rights';
import type { FoldersService } from '../folders/service';
import type { SettingsService } from '../settings/service';
import type { EnvironmentConfig } from '../settings/schemas';
import { existingSubjects, ownPolicies, replacePolicies } from './repository';
import type { CalcBody, Permission, PoliciesQuery, Policy, PolicyList, SetPoliciesBody } from './schemas';

const ITEM_NOT_FOUND = '文件或文件夹不存在或已被删除';
const NOT_MANAGER = '您没有管理该文件或文件夹访问权限的权限';
const PERSONAL = '个人空间的文件和文件夹不能设置访问权限';
const SUBJECT_GONE: Record<number, string> = {
  [SUBJECT.user]: '已删除的用户',
  [SUBJECT.department]: '已删除的部门',
  [SUBJECT.group]: '已删除的用户组',
};

export class PoliciesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly settings: SettingsService,
    private readonly formatTime: TimeFormatter,
  ) {}

  private permission(row: RightsRow, level: Level): Permission {
    return { fileId: String(row.id), level, permissions: permissionsFor(level) };
  }

  /** A live item the caller sees (≥1), else 404, with the caller's rights. */
  private async visible(user: UserRow, idText: string) {
    const { policy, env } = await this.folders.context(user);
    const { items, rights } = await this.folders.itemsAndRights(user, [idText], policy);
    return { item: items[0], rights, env };
  }

  /** GET /api/User/FileAccessPolicies/FilePermissions */
  async filePermissions(user: UserRow, fileId: string): Promise<Permission> {
    const { item, rights } = await this.visible(user, fileId);
    return this.permission(item, rights.level(item));
  }

  /** GET /api/User/FileAccessPolicies/FolderPermission: 404 unless a folder. */
  async folderPermission(user: UserRow, folderId: string): Promise<Permission> {
    const { item, rights } = await this.visible(user, folderId).catch((err: unknown) => {
      throw err instanceof Error && (err as { statusCode?: number }).statusCode === 404 ? notFound('文件夹不存在或已被删除') : err;
    });
    if (item.type !== 'folder') throw notFound('文件夹不存在或已被删除');
    return this.permission(item, rights.level(item));
  }

  /** An enterprise item the caller manages (4), else 404 / 403. */
  private async managed(user: UserRow, idText: string) {
    const found = await this.visible(user, idText);
    if (found.item.space_type === SPACE_PERSONAL) throw forbidden(PERSONAL);
    if (!found.rights.can(found.item, LEVEL.manage)) throw forbidden(NOT_MANAGER);
    return found;
  }

  /** GET /api/User/FileAccessPolicies/{id}/Policies */
  async policies(user: UserRow, id: string, query: PoliciesQuery): Promise<PolicyList> {
    const { item, env } = await this.managed(user, id);
    return this.policyList(item, query.validOnly ?? true, env);
  }

  /** The list in force (validOnly) or the item's own list, with where it comes from. */
  private async policyList(item: ItemWithOwner, validOnly: boolean, env: EnvironmentConfig): Promise<PolicyList> {
    const ids = pathIds(item);
    const lists = await loadLists(this.db, ids);
    const from = [...ids].reverse().find((i) => lists.has(i)) ?? null;
    let inheritedFrom: PolicyList['inheritedFrom'] = null;
    if (from !== null && from !== item.id) {
      const owner = await findLiveItem(this.db, from);
      if (owner) {
        const rootName = env.publicFolderName;
        inheritedFrom = {
          id: String(owner.id),
          name: owner.parent_id === null ? rootName : owner.name,
          namePath: owner.name_path ? `${rootName}/${owner.name_path}` : rootName,
        };
      }
    }
    const shown = validOnly ? from : lists.has(item.id) ? item.id : null;
    const rows = shown === null ? [] : await ownPolicies(this.db, shown);
    const policies: Policy[] = rows.map((r) => ({
      id: String(r.id),
      subjectType: r.subject_type,
      subjectId: String(r.subject_id),
      subjectName: r.subject_name ?? SUBJECT_GONE[r.subject_type] ?? '',
      level: r.level,
      createdAt: this.formatTime(r.created_at),
    }));
    return { fileId: String(item.id), inherited: !lists.has(item.id), inheritedFrom, policies };
  }

  /** POST /api/User/FileAccessPolicies/Policies: replaces the item's own list ([]: inherit again). */
  async setPolicies(user: UserRow, body: SetPoliciesBody): Promise<PolicyList> {
    const { item, rights, env } = await this.managed(user, body.fileId);
    const entries = body.policies.map((p) => ({ subject_type: p.subjectType, subject_id: parseId(p.subjectId) ?? 0, level: p.level }));

    const seen = new Set<string>();
    for (const e of entries) {
      const key = `${e.subject_type}/${e.subject_id}`;
      if (seen.has(key)) throw badRequest('同一权限对象不能重复设置');
      seen.add(key);
    }
    for (const type of [SUBJECT.user, SUBJECT.department, SUBJECT.group]) {
      const wanted = [...new Set(entries.filter((e) => e.subject_type === type).map((e) => e.subject_id))];
      const found = await existingSubjects(this.db, type, wanted);
      if (wanted.some((id) => !found.has(id))) throw badRequest('权限对象不存在');
    }
    this.keepsManaging(user, item, rights, entries);

    const old = new Map((await ownPolicies(this.db, item.id)).map((r) => [`${r.subject_type}/${r.subject_id}`, r.created_at]));
    const now = Date.now();
    try {
      await this.db.transaction().execute(async (trx) => {
        const still = await findLiveItem(trx, item.id);
        if (!still) throw notFound(ITEM_NOT_FOUND);
        await replacePolicies(
          trx,
          item.id,
          entries.map((e) => ({ ...e, created_at: old.get(`${e.subject_type}/${e.subject_id}`) ?? now })),
          user.id,
        );
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest('同一权限对象不能重复设置');
      throw err;
    }
    return this.policyList(item, true, env);
  }

  /**
   * A caller who is not a document administrator must still manage the item with the new
   * list: through 4 from a list further up, or through an entry of the new list.
   */
  private keepsManaging(user: UserRow, item: RightsRow, rights: LoadedRights, entries: { subject_type: number; subject_id: number; level: number }[]) {
    if (user.is_doc_admin === 1) return;
    const caller = rights.caller();
    const above = pathIds(item).filter((id) => id !== item.id);
    const lists = new Map([...rights.lists].filter(([id]) => above.includes(id)));
    const fromAbove = above.some((id) => lists.has(id) && listLevel(lists.get(id)!, caller) === LEVEL.manage);
    // an empty list inherits again: then only what comes from above counts
    if (fromAbove || listLevel(entries, caller) === LEVEL.manage) return;
    throw badRequest('不能移除自己的管理权限');
  }

  /** POST /api/User/FileAccessPolicies/Calc: in the order asked; another user's rights need 4 on each item. */
  async calc(user: UserRow, body: CalcBody): Promise<Permission[]> {
    const { policy } = await this.folders.context(user);
    const { items, rights } = await this.folders.itemsAndRights(user, body.fileIds, policy);
    const otherId = body.userId === undefined ? null : parseId(body.userId);
    if (body.userId !== undefined && otherId === null) throw badRequest('用户不存在');
    if (otherId === null || otherId === user.id) {
      // duplicates answer once per id asked
      const byId = new Map(items.map((i) => [i.id, i]));
      return body.fileIds.map((text) => {
        const row = byId.get(parseId(text)!)!;
        return this.permission(row, rights.level(row));
      });
    }
    for (const row of items) if (!rights.can(row, LEVEL.manage)) throw forbidden('您没有查看他人权限的权限');
    const other = await this.db.selectFrom('users').selectAll().where('id', '=', otherId).executeTakeFirst();
    if (!other) throw badRequest('用户不存在');
    const theirs = await this.folders.rights.load(other, await this.settings.policyFor(other), items);
    const byId = new Map(items.map((i) => [i.id, i]));
    return body.fileIds.map((text) => {
      const row = byId.get(parseId(text)!)!;
      return this.permission(row, theirs.level(row));
    });
  }
}
