// The 云文档 organisation: the department tree, user search and user groups. The writes here
// are reached only through AdminService, which checks that the caller is a system administrator.
import type { Kysely } from 'kysely';
import type { Database, DepartmentRow, GroupRow } from '../../db/types';
import { AppError, badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { searchKey, unknownUserIds } from '../users/repository';
import {
  countChildDepartments,
  countDepartmentUsers,
  deleteDepartment,
  deleteGroup,
  findDepartment,
  findGroup,
  findGroupByName,
  findRootDepartment,
  findSiblingByName,
  insertDepartment,
  insertGroup,
  listDepartments,
  listGroups,
  lockDepartments,
  moveDepartment,
  renameDepartment,
  renameGroup,
  replaceGroupMembers,
  searchUsers,
  type OrgUserFilter,
  type OrgUserRow,
} from './repository';
import type { Department, DepartmentNode, Group, GroupMemberPage, OrgUser, OrgUserPage, OrgUsersQuery, PagingQuery } from './schemas';

export const ROOT_DEPARTMENT_NAME = '总部';

/** HTTP 400, code 40002: a department moved under itself or one of its sub-departments. */
const departmentCycle = () => new AppError(400, 40002, '不能将部门移动到其自身或下级部门中');
/** HTTP 409, code 40902: a department that still holds users or sub-departments. */
const departmentNotEmpty = (message: string) => new AppError(409, 40902, message);

const NAME_MAX = 64;

/** A department or group name: trimmed, 1–64 characters, no control characters. */
function cleanName(raw: string, what: '部门' | '用户组'): string {
  const name = raw.trim().normalize('NFC');
  // eslint-disable-next-line no-control-regex
  if (!name || [...name].length > NAME_MAX || /[\u0000-\u001f\u007f]/.test(name)) {
    throw badRequest(`${what}名称须为 1–${NAME_MAX} 个字符，且不能包含控制字符`);
  }
  return name;
}

const toDepartment = (r: DepartmentRow): Department => ({
  id: String(r.id),
  parentId: r.parent_id === null ? null : String(r.parent_id),
  name: r.name,
  path: r.path,
  leaderId: r.leader_id === null ? null : String(r.leader_id),
});

const toOrgUser = (r: OrgUserRow): OrgUser => ({
  userId: String(r.id),
  userName: r.user_name,
  nickName: r.nick_name,
  deptId: r.dept_id === null ? null : String(r.dept_id),
  deptName: r.dept_name ?? '',
});

function paging(q: PagingQuery): { offset: number; limit: number } {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? 20;
  return { offset: (page - 1) * pageSize, limit: pageSize };
}

export class OrganizationsService {
  constructor(private readonly db: Kysely<Database>) {}

  async departmentTree(): Promise<DepartmentNode[]> {
    const rows = await listDepartments(this.db);
    const nodes = new Map<number, DepartmentNode>();
    for (const r of rows) {
      nodes.set(r.id, { id: String(r.id), parentId: r.parent_id === null ? null : String(r.parent_id), name: r.name, path: r.path, children: [] });
    }
    const roots: DepartmentNode[] = [];
    for (const r of rows) {
      const node = nodes.get(r.id)!;
      const parent = r.parent_id === null ? undefined : nodes.get(r.parent_id);
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return roots;
  }

  /** The root department, created on the first start. */
  async ensureRootDepartment(db: Kysely<Database> = this.db): Promise<number> {
    const existing = await findRootDepartment(db);
    if (existing) return existing.id;
    const row = await insertDepartment(db, { parentId: null, parentPath: '', name: ROOT_DEPARTMENT_NAME, now: Date.now() });
    return row.id;
  }

  // ---- user search ----

  /** Enabled users whose user name or nickname contains the keyword, in a department's subtree. */
  async searchUsers(query: OrgUsersQuery): Promise<OrgUserPage> {
    let deptPath: string | null = null;
    if (query.deptId) {
      const id = parseId(query.deptId);
      const dept = id === null ? undefined : await findDepartment(this.db, id);
      if (!dept) throw badRequest('所选部门不存在');
      deptPath = dept.path;
    }
    return this.userPage({ keyword: searchKey(query.keyword ?? ''), deptPath, groupId: null }, query);
  }

  /** The enabled members of a group, ordered by user name. */
  async groupMembers(groupIdText: string, query: PagingQuery): Promise<OrgUserPage> {
    const group = await this.targetGroup(this.db, groupIdText);
    return this.userPage({ keyword: '', deptPath: null, groupId: group.id }, query);
  }

  /**
   * Every member of a group, the disabled ones included and marked, ordered by user name: what a
   * system administrator edits (the member list is replaced as a whole, so none may be missing).
   */
  async groupMembersWithDisabled(groupIdText: string, query: PagingQuery): Promise<GroupMemberPage> {
    const group = await this.targetGroup(this.db, groupIdText);
    const { rows, total } = await searchUsers(this.db, { keyword: '', deptPath: null, groupId: group.id, includeDisabled: true }, paging(query));
    return { data: rows.map((r) => ({ ...toOrgUser(r), disabled: Number(r.disabled) === 1 })), total };
  }

  private async userPage(filter: OrgUserFilter, query: PagingQuery): Promise<OrgUserPage> {
    const { rows, total } = await searchUsers(this.db, filter, paging(query));
    return { data: rows.map(toOrgUser), total };
  }

  // ---- departments ----

  private async targetDepartment(db: Kysely<Database>, idText: string): Promise<DepartmentRow> {
    const id = parseId(idText);
    const dept = id === null ? undefined : await findDepartment(db, id);
    if (!dept) throw notFound('部门不存在');
    return dept;
  }

  /** A new department under `parentId` (the root department when none is given). */
  async createDepartment(body: { name: string; parentId?: string | null }): Promise<Department> {
    const name = cleanName(body.name, '部门');
    return this.db.transaction().execute(async (trx) => {
      const parentId = body.parentId === undefined || body.parentId === null ? await this.ensureRootDepartment(trx) : parseId(body.parentId);
      if (parentId === null) throw badRequest('上级部门不存在');
      // a concurrent delete or move of the parent waits for this transaction (and vice versa)
      await lockDepartments(trx, [parentId]);
      const parent = await findDepartment(trx, parentId);
      if (!parent) throw badRequest('上级部门不存在');
      if (await findSiblingByName(trx, parent.id, name, null)) throw conflict('同一上级部门下已有同名部门');
      const row = await insertDepartment(trx, { parentId: parent.id, parentPath: parent.path, name, now: Date.now() });
      return toDepartment(row);
    });
  }

  /** Renames a department and/or moves it (with its whole subtree) under another department. */
  async updateDepartment(idText: string, body: { name?: string; parentId?: string; leaderId?: string | null }): Promise<Department> {
    const name = body.name === undefined ? undefined : cleanName(body.name, '部门');
    let leaderId: number | null | undefined;
    if (body.leaderId !== undefined && body.leaderId !== null) {
      leaderId = parseId(body.leaderId);
      const leader = leaderId === null ? undefined : await this.db.selectFrom('users').select('disabled').where('id', '=', leaderId).executeTakeFirst();
      if (!leader || leader.disabled) throw badRequest('所选的负责人不存在或已停用');
    } else if (body.leaderId === null) {
      leaderId = null;
    }
    let parentId: number | null = null;
    if (body.parentId !== undefined) {
      parentId = parseId(body.parentId);
      if (parentId === null) throw badRequest('上级部门不存在');
    }
    const id = parseId(idText);
    if (id === null) throw notFound('部门不存在');
    return this.db.transaction().execute(async (trx) => {
      // concurrent moves of these two departments wait for each other, so no cycle slips in
      await lockDepartments(trx, parentId === null ? [id] : [id, parentId]);
      const dept = await this.targetDepartment(trx, idText);
      let parent: DepartmentRow | undefined;
      if (parentId !== null && parentId !== dept.parent_id) {
        parent = await findDepartment(trx, parentId);
        if (!parent) throw badRequest('上级部门不存在');
        if (parent.id === dept.id || parent.path.startsWith(`${dept.path}/`)) throw departmentCycle();
        if (dept.parent_id === null) throw badRequest('不能移动根部门');
      }
      const finalName = name ?? dept.name;
      const finalParentId = parent ? parent.id : dept.parent_id;
      if ((name !== undefined || parent) && (await findSiblingByName(trx, finalParentId, finalName, dept.id))) {
        throw conflict('同一上级部门下已有同名部门');
      }
      if (name !== undefined && name !== dept.name) await renameDepartment(trx, dept.id, name);
      if (parent) await moveDepartment(trx, dept.id, dept.path, parent.id, parent.path);
      if (leaderId !== undefined) await trx.updateTable('departments').set({ leader_id: leaderId }).where('id', '=', dept.id).execute();
      return toDepartment((await findDepartment(trx, dept.id))!);
    });
  }

  /** Deletes an empty department: one with users or sub-departments is refused (409/40902). */
  async deleteDepartment(idText: string): Promise<{ id: string }> {
    const id = parseId(idText);
    if (id === null) throw notFound('部门不存在');
    return this.db.transaction().execute(async (trx) => {
      await lockDepartments(trx, [id]);
      const dept = await this.targetDepartment(trx, idText);
      if (dept.parent_id === null) throw badRequest('不能删除根部门');
      if ((await countChildDepartments(trx, dept.id)) > 0) throw departmentNotEmpty('该部门下还有下级部门，不能删除');
      if ((await countDepartmentUsers(trx, dept.id)) > 0) throw departmentNotEmpty('该部门下还有用户，不能删除');
      await deleteDepartment(trx, dept.id);
      return { id: String(dept.id) };
    });
  }

  // ---- groups ----

  async groups(): Promise<Group[]> {
    const rows = await listGroups(this.db);
    return rows.map((r) => ({ id: String(r.id), name: r.name, memberCount: r.member_count }));
  }

  private async targetGroup(db: Kysely<Database>, idText: string): Promise<GroupRow> {
    const id = parseId(idText);
    const group = id === null ? undefined : await findGroup(db, id);
    if (!group) throw notFound('用户组不存在');
    return group;
  }

  private async group(id: number): Promise<Group> {
    const found = (await this.groups()).find((g) => g.id === String(id));
    if (!found) throw notFound('用户组不存在');
    return found;
  }

  async createGroup(body: { name: string }): Promise<Group> {
    const name = cleanName(body.name, '用户组');
    if (await findGroupByName(this.db, name)) throw conflict('该用户组名称已被使用');
    try {
      const row = await insertGroup(this.db, name, Date.now());
      return { id: String(row.id), name: row.name, memberCount: 0 };
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('该用户组名称已被使用');
      throw err;
    }
  }

  async renameGroup(idText: string, body: { name: string }): Promise<Group> {
    const group = await this.targetGroup(this.db, idText);
    const name = cleanName(body.name, '用户组');
    if (name !== group.name) {
      const other = await findGroupByName(this.db, name);
      if (other && other.id !== group.id) throw conflict('该用户组名称已被使用');
      try {
        await renameGroup(this.db, group.id, name);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('该用户组名称已被使用');
        throw err;
      }
    }
    return this.group(group.id);
  }

  async deleteGroup(idText: string): Promise<{ id: string }> {
    const group = await this.targetGroup(this.db, idText);
    await this.db.transaction().execute((trx) => deleteGroup(trx, group.id));
    return { id: String(group.id) };
  }

  /** Replaces the members of a group; an unknown user id refuses the whole list (400/40001). */
  async setGroupMembers(idText: string, body: { userIds: string[] }): Promise<Group> {
    const ids: number[] = [];
    for (const text of body.userIds) {
      const id = parseId(text);
      if (id === null) throw badRequest('用户不存在');
      ids.push(id);
    }
    const unique = [...new Set(ids)];
    const group = await this.targetGroup(this.db, idText);
    await this.db.transaction().execute(async (trx) => {
      const unknown = await unknownUserIds(trx, unique);
      if (unknown.length > 0) throw badRequest(`用户不存在：${unknown.slice(0, 5).join('、')}${unknown.length > 5 ? ' 等' : ''}`);
      if (!(await findGroup(trx, group.id))) throw notFound('用户组不存在');
      await replaceGroupMembers(trx, group.id, unique);
    });
    return this.group(group.id);
  }
}
