// 云文档 people administration (系统管理 → 用户, 部门): the 用户 page's list, accounts made,
// edited, disabled, unlocked and reset, departments with their leaders, administrators, quotas
// and feature switches. Every call checks the caller's scope (./scope.ts) and every change is
// recorded in admin_actions with the names of the time.
import type { Kysely } from 'kysely';
import type { Database, DepartmentRow, UserRow } from '../../db/types';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { revokeSessionsOfUser, clearAccountFailures } from '../auth/repository';
import type { Credentials } from '../auth/credentials';
import { generatePassword } from '../auth/password';
import type { AuthService } from '../auth/service';
import { FEATURE_KEYS, parseOverride, resolveQuota, storeOverride, type FeatureOverride } from '../organizations/inheritance';
import { findDepartment, listDepartments } from '../organizations/repository';
import type { OrganizationsService } from '../organizations/service';
import type { SettingsService } from '../settings/service';
import { findUserById } from '../users/repository';
import type { UsersService } from '../users/service';
import {
  adminOf,
  departmentAdmins,
  directCounts,
  listActions,
  listPeople,
  lockedAmong,
  personalBytesOf,
  recordAction,
  replaceDepartmentAdmins,
  type PeopleFilter,
} from './repository';
import type {
  ActionsQuery,
  AdminUser,
  AdminUsersQuery,
  CreateDepartmentBody,
  CreateUserBody,
  DepartmentAdminsBody,
  ResetPasswordBody,
  Role,
  UpdateDepartmentBody,
  UpdateUserBody,
  UserRef,
  UserTotpBody,
} from './schemas';
import { ROLE_LABELS } from './schemas';
import { assertRoleChange, assertSystem, covers, coversBelow, DEPT_OUTSIDE, loadScope, OUTSIDE, rolesOf, type Scope } from './scope';

export interface AdminDepartmentNode {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  leader: UserRef | null;
  admins: UserRef[];
  userCount: number;
  quota: number | null;
  featurePolicy: FeatureOverride;
  manageable: boolean;
  children: AdminDepartmentNode[];
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const describeRoles = (roles: readonly Role[]) => (roles.length ? roles.map((r) => ROLE_LABELS[r]).join('、') : '无');

/** Departments by id, and each one's names from the root (`总部/研发中心/前端组`). */
class DepartmentIndex {
  readonly byId = new Map<number, DepartmentRow>();
  constructor(rows: DepartmentRow[]) {
    for (const r of rows) this.byId.set(Number(r.id), r);
  }
  chain(id: number | null): DepartmentRow[] {
    const d = id === null ? undefined : this.byId.get(id);
    if (!d) return [];
    return d.path
      .split('/')
      .filter(Boolean)
      .map((x) => this.byId.get(Number(x)))
      .filter((x): x is DepartmentRow => !!x)
      .reverse();
  }
  names(id: number | null): string {
    return this.chain(id)
      .reverse()
      .map((d) => d.name)
      .join('/');
  }
}

export class PeopleService {
  private readonly scopes = new WeakMap<UserRow, Promise<Scope>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly settings: SettingsService,
    private readonly organizations: OrganizationsService,
    private readonly credentials: Credentials,
  ) {}

  /** The caller's scope (once per request): 403/40301 for anyone who administers nothing. */
  scope(caller: UserRow): Promise<Scope> {
    let s = this.scopes.get(caller);
    if (!s) {
      s = loadScope(this.db, caller);
      this.scopes.set(caller, s);
      s.catch(() => this.scopes.delete(caller));
    }
    return s;
  }

  async scopeView(caller: UserRow) {
    const s = await this.scope(caller);
    return { system: s.system, roles: s.roles, departments: s.departments.map((d) => ({ id: String(d.id), name: d.name, path: d.path })) };
  }

  private record(caller: UserRow, action: string, targetType: string, targetId: string | number, targetName: string, detail = '') {
    return recordAction(this.db, { actorId: caller.id, actorName: caller.user_name, action, targetType, targetId: String(targetId), targetName, detail });
  }

  // ---- people ----

  private async lockout(now = Date.now()) {
    const p = await this.credentials.policy();
    return { threshold: p.lockoutThreshold, since: now - p.lockoutMinutes * 60_000 };
  }

  private async toAdminUsers(rows: UserRow[]): Promise<AdminUser[]> {
    if (!rows.length) return [];
    const [index, admins, used, lockout, defaultQuota] = await Promise.all([
      listDepartments(this.db).then((d) => new DepartmentIndex(d)),
      adminOf(this.db, rows.map((r) => r.id)),
      personalBytesOf(this.db, rows.map((r) => r.id)),
      this.lockout(),
      this.settings.uploadPolicy().then((p) => p.personalQuota),
    ]);
    const locked = await lockedAmong(this.db, rows.map((r) => r.user_name_key), lockout);
    return rows.map((u) => ({
      userId: String(u.id),
      userName: u.user_name,
      nickName: u.nick_name,
      deptId: u.dept_id === null ? null : String(u.dept_id),
      deptName: index.names(num(u.dept_id)),
      mobile: u.mobile,
      email: u.email,
      employeeNo: u.employee_no,
      source: (['local', 'ldap', 'dingtalk'].includes(u.source) ? u.source : 'local') as AdminUser['source'],
      roles: rolesOf(u),
      adminOf: (admins.get(u.id) ?? []).map((d) => ({ id: String(d.id), name: d.name })),
      isDocAdmin: u.is_doc_admin === 1,
      isFlowAdmin: u.is_flow_admin === 1,
      isTagAdmin: u.is_tag_admin === 1,
      disabled: u.disabled === 1,
      locked: locked.has(u.user_name_key),
      totpRequired: u.totp_required === 1,
      totpBound: u.totp_secret !== null,
      mustChangePassword: u.must_change_password === 1,
      quota: num(u.quota),
      effectiveQuota: resolveQuota({ quota: num(u.quota) }, index.chain(num(u.dept_id)).map((d) => ({ ...d, quota: num(d.quota) })), defaultQuota),
      used: used.get(u.id) ?? 0,
      lastLoginAt: num(u.last_login_at),
      createdAt: Number(u.created_at),
    }));
  }

  private async deptPath(deptId: number | null): Promise<string | null> {
    if (deptId === null) return null;
    return (await findDepartment(this.db, deptId))?.path ?? null;
  }

  /** The person, when the caller may manage them: 404 for no one, 403 outside the scope or for a system administrator managed by someone else. */
  private async target(caller: UserRow, userIdText: string): Promise<{ user: UserRow; scope: Scope }> {
    const scope = await this.scope(caller);
    const id = parseId(userIdText);
    const user = id === null ? undefined : await findUserById(this.db, id);
    if (!user) throw notFound('用户不存在');
    if (!scope.system) {
      if (!covers(scope, await this.deptPath(num(user.dept_id)))) throw forbidden(OUTSIDE);
      if (user.is_admin === 1) throw forbidden('部门管理员不能管理系统管理员');
    }
    return { user, scope };
  }

  /** A department id the caller may place people in (400 for none, 403 outside the scope). */
  private async placeable(scope: Scope, deptIdText: string | null | undefined): Promise<number | null | undefined> {
    if (deptIdText === undefined) return undefined;
    if (deptIdText === null) {
      if (!scope.system) throw forbidden(DEPT_OUTSIDE);
      return null;
    }
    const id = parseId(deptIdText);
    const dept = id === null ? undefined : await findDepartment(this.db, id);
    if (!dept) throw badRequest('所选部门不存在');
    if (!covers(scope, dept.path)) throw forbidden(DEPT_OUTSIDE);
    return dept.id;
  }

  private async filterOf(caller: UserRow, query: Omit<AdminUsersQuery, 'page' | 'pageSize'>): Promise<PeopleFilter> {
    const scope = await this.scope(caller);
    let dept: PeopleFilter['dept'] = null;
    if (query.deptId) {
      const id = parseId(query.deptId);
      const d = id === null ? undefined : await findDepartment(this.db, id);
      if (!d) throw badRequest('所选部门不存在');
      if (!covers(scope, d.path)) throw forbidden(DEPT_OUTSIDE);
      dept = query.directOnly ? { id: d.id } : { path: d.path };
    }
    return {
      keyword: (query.keyword ?? '').trim().normalize('NFKC').toLowerCase(),
      within: scope.system ? null : scope.departments.map((d) => d.path),
      dept,
      status: query.status || null,
      lockout: await this.lockout(),
      role: query.role || null,
      source: query.source || null,
    };
  }

  async listUsers(caller: UserRow, query: AdminUsersQuery): Promise<{ data: AdminUser[]; total: number }> {
    const filter = await this.filterOf(caller, query);
    const pageSize = query.pageSize ?? 20;
    const { rows, total } = await listPeople(this.db, filter, { offset: ((query.page ?? 1) - 1) * pageSize, limit: pageSize });
    return { data: await this.toAdminUsers(rows), total };
  }

  /** The people of a filter (within the caller's scope), a page at a time, for the export. */
  async *exportPages(caller: UserRow, query: Omit<AdminUsersQuery, 'page' | 'pageSize'>): AsyncIterable<UserRow[]> {
    for (let page = 1; ; page++) {
      const filter = await this.filterOf(caller, query);
      const { rows, total } = await listPeople(this.db, filter, { offset: (page - 1) * 1000, limit: 1000 });
      if (rows.length) yield rows;
      if (page * 1000 >= total || !rows.length) return;
    }
  }

  async getUser(caller: UserRow, userIdText: string): Promise<AdminUser> {
    const { user } = await this.target(caller, userIdText);
    return (await this.toAdminUsers([user]))[0];
  }

  private rolesFrom(body: { roles?: Role[]; isDocAdmin?: boolean; isFlowAdmin?: boolean; isTagAdmin?: boolean }, before: Role[]): Role[] | undefined {
    if (body.roles) return [...new Set(body.roles)];
    if (body.isDocAdmin === undefined && body.isFlowAdmin === undefined && body.isTagAdmin === undefined) return undefined;
    const set = new Set(before);
    const apply = (r: Role, v: boolean | undefined) => (v === undefined ? undefined : v ? set.add(r) : set.delete(r));
    apply('docAdmin', body.isDocAdmin);
    apply('flowAdmin', body.isFlowAdmin);
    apply('tagAdmin', body.isTagAdmin);
    return [...set];
  }

  async createUser(caller: UserRow, body: CreateUserBody): Promise<{ userId: string; initialPassword?: string }> {
    const scope = await this.scope(caller);
    const roles = this.rolesFrom(body, []) ?? [];
    assertRoleChange(scope, [], roles);
    if (body.quota !== undefined && body.quota !== null && !scope.system) throw forbidden('只有系统管理员可以设置配额');
    let deptId = await this.placeable(scope, body.deptId === undefined ? null : body.deptId);
    if (deptId === undefined) deptId = null;
    if (deptId === null && !scope.system) throw forbidden(DEPT_OUTSIDE);
    const generated = body.password === undefined ? generatePassword(await this.credentials.policy()) : undefined;
    const user = await this.users.createUser({
      userName: body.userName,
      nickName: body.nickName,
      password: body.password ?? generated!,
      deptId,
      mobile: body.mobile,
      email: body.email,
      employeeNo: body.employeeNo,
      quota: body.quota ?? null,
      isAdmin: roles.includes('admin'),
      isDocAdmin: roles.includes('docAdmin'),
      isFlowAdmin: roles.includes('flowAdmin'),
      isTagAdmin: roles.includes('tagAdmin'),
      isAuditAdmin: roles.includes('auditAdmin'),
      mustChangePassword: body.mustChangePassword ?? true,
    });
    await this.record(caller, '新建用户', 'user', user.id, user.user_name, `角色：${describeRoles(roles)}`);
    return { userId: String(user.id), ...(generated ? { initialPassword: generated } : {}) };
  }

  async updateUser(caller: UserRow, userIdText: string, body: UpdateUserBody): Promise<AdminUser> {
    const { user, scope } = await this.target(caller, userIdText);
    const before = rolesOf(user);
    const roles = this.rolesFrom(body, before);
    if (roles) {
      assertRoleChange(scope, before, roles);
      if (user.id === caller.id && before.includes('admin') && !roles.includes('admin')) throw badRequest('不能取消自己的系统管理员角色');
    }
    if (body.quota !== undefined && !scope.system) throw forbidden('只有系统管理员可以设置配额');
    const deptId = await this.placeable(scope, body.deptId);
    const updated = await this.users.updateUser(user, {
      nickName: body.nickName,
      deptId,
      mobile: body.mobile,
      email: body.email,
      employeeNo: body.employeeNo,
      quota: body.quota,
      ...(roles
        ? {
            isAdmin: roles.includes('admin'),
            isDocAdmin: roles.includes('docAdmin'),
            isFlowAdmin: roles.includes('flowAdmin'),
            isTagAdmin: roles.includes('tagAdmin'),
            isAuditAdmin: roles.includes('auditAdmin'),
          }
        : {}),
    });
    const changes: string[] = [];
    if (roles && describeRoles(before) !== describeRoles(rolesOf(updated))) changes.push(`角色：${describeRoles(before)} → ${describeRoles(rolesOf(updated))}`);
    if (updated.dept_id !== user.dept_id) changes.push(`部门：${user.dept_id ?? '无'} → ${updated.dept_id ?? '无'}`);
    if (num(updated.quota) !== num(user.quota)) changes.push(`配额：${num(user.quota) ?? '沿用'} → ${num(updated.quota) ?? '沿用'}`);
    for (const [label, a, b] of [
      ['昵称', user.nick_name, updated.nick_name],
      ['手机', user.mobile, updated.mobile],
      ['邮箱', user.email, updated.email],
      ['工号', user.employee_no, updated.employee_no],
    ] as const) {
      if (a !== b) changes.push(`${label}：${a || '空'} → ${b || '空'}`);
    }
    if (changes.length) await this.record(caller, '修改用户', 'user', user.id, user.user_name, changes.join('；'));
    return (await this.toAdminUsers([updated]))[0];
  }

  async disableUser(caller: UserRow, userIdText: string): Promise<{ userId: string }> {
    const { user } = await this.target(caller, userIdText);
    if (user.id === caller.id) throw badRequest('不能停用自己的账号');
    await this.auth.setDisabled(user.id, true);
    await this.record(caller, '停用用户', 'user', user.id, user.user_name, '全部会话和客户端令牌随即失效');
    return { userId: String(user.id) };
  }

  async enableUser(caller: UserRow, userIdText: string): Promise<{ userId: string }> {
    const { user } = await this.target(caller, userIdText);
    await this.auth.setDisabled(user.id, false);
    await this.record(caller, '启用用户', 'user', user.id, user.user_name);
    return { userId: String(user.id) };
  }

  async unlockUser(caller: UserRow, userIdText: string): Promise<{ userId: string }> {
    const { user } = await this.target(caller, userIdText);
    await clearAccountFailures(this.db, user.user_name_key);
    await this.record(caller, '解锁用户', 'user', user.id, user.user_name);
    return { userId: String(user.id) };
  }

  /** A new password (given, or generated and returned once); every session of the person ends in the same transaction. */
  async resetPassword(caller: UserRow, userIdText: string, body: ResetPasswordBody): Promise<{ userId: string; revoked: number; initialPassword?: string }> {
    const { user } = await this.target(caller, userIdText);
    if (user.source === 'ldap') throw badRequest('该用户使用目录（LDAP）密码登录，请在目录中修改密码');
    const generated = body.password === undefined ? generatePassword(await this.credentials.policy()) : undefined;
    const passwordHash = await this.credentials.newHash(body.password ?? generated!);
    const revoked = await this.db.transaction().execute(async (trx) => {
      const now = Date.now();
      await this.credentials.store(trx, user.id, passwordHash, now, body.mustChangePassword ?? true);
      return revokeSessionsOfUser(trx, user.id, now);
    });
    await this.record(caller, '重置密码', 'user', user.id, user.user_name, `结束 ${revoked} 个会话`);
    return { userId: String(user.id), revoked, ...(generated ? { initialPassword: generated } : {}) };
  }

  async revokeSessions(caller: UserRow, userIdText: string): Promise<{ revoked: number }> {
    const { user } = await this.target(caller, userIdText);
    const revoked = await this.auth.revokeUserSessions(user.id);
    await this.record(caller, '注销会话', 'user', user.id, user.user_name, `结束 ${revoked} 个会话`);
    return { revoked };
  }

  async setUserTotp(caller: UserRow, userIdText: string, body: UserTotpBody): Promise<AdminUser> {
    const { user } = await this.target(caller, userIdText);
    await this.db.updateTable('users').set({ totp_required: body.required ? 1 : 0, updated_at: Date.now() }).where('id', '=', user.id).execute();
    await this.record(caller, body.required ? '要求动态口令' : '不再要求动态口令', 'user', user.id, user.user_name);
    return this.getUser(caller, userIdText);
  }

  async resetUserTotp(caller: UserRow, userIdText: string): Promise<AdminUser> {
    const { user } = await this.target(caller, userIdText);
    await this.auth.resetTotp(user.id, caller.id);
    await this.record(caller, '重置动态口令', 'user', user.id, user.user_name);
    return this.getUser(caller, userIdText);
  }

  // ---- feature switches of a person ----

  async userPolicy(caller: UserRow, userIdText: string) {
    const { user, scope } = await this.target(caller, userIdText);
    assertSystem(scope);
    const resolved = await this.settings.resolvedPolicyFor(user);
    return { own: parseOverride(user.feature_policy), ...resolved };
  }

  async setUserPolicy(caller: UserRow, userIdText: string, body: FeatureOverride) {
    const { user, scope } = await this.target(caller, userIdText);
    assertSystem(scope);
    await this.db.updateTable('users').set({ feature_policy: storeOverride(body), updated_at: Date.now() }).where('id', '=', user.id).execute();
    await this.record(caller, '设置个人功能策略', 'user', user.id, user.user_name, describeOverride(body));
    return this.userPolicy(caller, userIdText);
  }

  // ---- departments ----

  async departmentTree(caller: UserRow): Promise<AdminDepartmentNode[]> {
    const scope = await this.scope(caller);
    const [rows, admins, counts] = await Promise.all([listDepartments(this.db), departmentAdmins(this.db), directCounts(this.db)]);
    const leaders = new Map<number, UserRef>();
    const leaderIds = rows.map((r) => num(r.leader_id)).filter((x): x is number => x !== null);
    if (leaderIds.length) {
      const found = await this.db.selectFrom('users').select(['id', 'user_name', 'nick_name']).where('id', 'in', [...new Set(leaderIds)]).execute();
      for (const u of found) leaders.set(Number(u.id), { userId: String(u.id), userName: u.user_name, nickName: u.nick_name });
    }
    const nodes = new Map<number, AdminDepartmentNode>();
    for (const r of rows) {
      nodes.set(Number(r.id), {
        id: String(r.id),
        parentId: r.parent_id === null ? null : String(r.parent_id),
        name: r.name,
        path: r.path,
        leader: r.leader_id === null ? null : (leaders.get(Number(r.leader_id)) ?? null),
        admins: admins.filter((a) => Number(a.dept_id) === Number(r.id)).map((a) => ({ userId: String(a.user_id), userName: a.user_name, nickName: a.nick_name })),
        userCount: counts.get(Number(r.id)) ?? 0,
        quota: num(r.quota),
        featurePolicy: parseOverride(r.feature_policy),
        manageable: covers(scope, r.path),
        children: [],
      });
    }
    const roots: AdminDepartmentNode[] = [];
    for (const r of rows) {
      const node = nodes.get(Number(r.id))!;
      const parent = r.parent_id === null ? undefined : nodes.get(Number(r.parent_id));
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    if (scope.system) return roots;
    // a department administrator sees the subtrees they manage
    return scope.departments.map((d) => nodes.get(d.id)).filter((n): n is AdminDepartmentNode => !!n);
  }

  private async department(idText: string): Promise<DepartmentRow> {
    const id = parseId(idText);
    const dept = id === null ? undefined : await findDepartment(this.db, id);
    if (!dept) throw notFound('部门不存在');
    return dept;
  }

  async createDepartment(caller: UserRow, body: CreateDepartmentBody) {
    const scope = await this.scope(caller);
    if (!scope.system) {
      if (!body.parentId) throw forbidden(DEPT_OUTSIDE);
      const parent = await this.department(body.parentId);
      if (!covers(scope, parent.path)) throw forbidden(DEPT_OUTSIDE);
    }
    const dept = await this.organizations.createDepartment(body);
    await this.record(caller, '新建部门', 'department', dept.id, dept.name);
    return dept;
  }

  async updateDepartment(caller: UserRow, idText: string, body: UpdateDepartmentBody) {
    const scope = await this.scope(caller);
    const dept = await this.department(idText);
    if (!covers(scope, dept.path)) throw forbidden(DEPT_OUTSIDE);
    if (body.quota !== undefined && !scope.system) throw forbidden('只有系统管理员可以设置配额');
    if (body.parentId !== undefined && !scope.system) {
      if (!coversBelow(scope, dept.path)) throw forbidden('不能移动您所管理的最上级部门');
      const parent = await this.department(body.parentId).catch(() => null);
      if (parent && !covers(scope, parent.path)) throw forbidden(DEPT_OUTSIDE);
    }
    const index = new DepartmentIndex(await listDepartments(this.db));
    const updated = await this.organizations.updateDepartment(idText, body);
    if (body.quota !== undefined) await this.db.updateTable('departments').set({ quota: body.quota }).where('id', '=', dept.id).execute();
    const changes: string[] = [];
    if (updated.name !== dept.name) changes.push(`名称：${dept.name} → ${updated.name}`);
    if (updated.parentId !== (dept.parent_id === null ? null : String(dept.parent_id))) {
      changes.push(`上级：${index.names(num(dept.parent_id))} → ${index.names(updated.parentId === null ? null : Number(updated.parentId))}`);
    }
    if (body.leaderId !== undefined && (body.leaderId ?? null) !== (dept.leader_id === null ? null : String(dept.leader_id))) changes.push(`负责人：${body.leaderId ?? '无'}`);
    if (body.quota !== undefined && body.quota !== num(dept.quota)) changes.push(`默认配额：${num(dept.quota) ?? '沿用'} → ${body.quota ?? '沿用'}`);
    if (changes.length) await this.record(caller, '修改部门', 'department', dept.id, dept.name, changes.join('；'));
    return updated;
  }

  async deleteDepartment(caller: UserRow, idText: string) {
    const scope = await this.scope(caller);
    const dept = await this.department(idText);
    if (!coversBelow(scope, dept.path)) throw forbidden(scope.system ? DEPT_OUTSIDE : '不能删除您所管理的最上级部门');
    const result = await this.organizations.deleteDepartment(idText);
    await this.record(caller, '删除部门', 'department', dept.id, dept.name);
    return result;
  }

  async setDepartmentAdmins(caller: UserRow, idText: string, body: DepartmentAdminsBody) {
    assertSystem(await this.scope(caller));
    const dept = await this.department(idText);
    const ids = [...new Set(body.userIds.map((t) => parseId(t)))];
    if (ids.some((i) => i === null)) throw badRequest('用户不存在');
    const found = ids.length ? await this.db.selectFrom('users').select(['id', 'user_name', 'disabled']).where('id', 'in', ids as number[]).execute() : [];
    if (found.length !== ids.length) throw badRequest('用户不存在');
    if (found.some((u) => u.disabled)) throw badRequest('已停用的用户不能担任部门管理员');
    await this.db.transaction().execute((trx) => replaceDepartmentAdmins(trx, dept.id, ids as number[]));
    await this.record(caller, '设置部门管理员', 'department', dept.id, dept.name, found.map((u) => u.user_name).join('、') || '无');
    return { id: String(dept.id) };
  }

  async setDepartmentPolicy(caller: UserRow, idText: string, body: FeatureOverride) {
    assertSystem(await this.scope(caller));
    const dept = await this.department(idText);
    await this.db.updateTable('departments').set({ feature_policy: storeOverride(body) }).where('id', '=', dept.id).execute();
    await this.record(caller, '设置部门功能策略', 'department', dept.id, dept.name, describeOverride(body));
    return { id: String(dept.id) };
  }

  // ---- the record ----

  /** System administrators and audit administrators read what administrators did, newest first. */
  async actions(caller: UserRow, query: ActionsQuery) {
    if (!(caller.is_admin === 1 || caller.is_audit_admin === 1) || caller.disabled) throw forbidden('只有系统管理员或审计管理员可以查看管理日志');
    const pageSize = query.pageSize ?? 20;
    const { rows, total } = await listActions(this.db, { offset: ((query.page ?? 1) - 1) * pageSize, limit: pageSize });
    return {
      data: rows.map((r) => ({
        id: String(r.id),
        at: Number(r.at),
        actorId: String(r.actor_id),
        actorName: r.actor_name,
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        targetName: r.target_name,
        detail: r.detail,
      })),
      total,
    };
  }
}

const FEATURE_LABELS = { personalSpace: '个人空间', publicSpace: '企业空间', workflow: '审批流程', ferrySpaces: '摆渡' } as const;

function describeOverride(o: FeatureOverride): string {
  const parts = FEATURE_KEYS.filter((k) => o[k] !== null && o[k] !== undefined).map((k) => `${FEATURE_LABELS[k]}${o[k] ? '开启' : '关闭'}`);
  return parts.length ? parts.join('、') : '全部沿用上一级';
}

