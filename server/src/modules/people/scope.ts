// Who may manage whom. A system administrator manages everyone; a department administrator the
// people and departments of the subtrees they administer, and may grant only the roles they
// hold themselves (never 系统管理员). Everyone else is refused with 403/40301.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { forbidden } from '../../lib/errors';
import { isSystemAdmin } from '../users/service';
import type { Role } from './schemas';

export interface Scope {
  system: boolean;
  roles: Role[];
  /** the administered departments, none inside another */
  departments: { id: number; name: string; path: string }[];
}

export function rolesOf(u: UserRow): Role[] {
  const roles: Role[] = [];
  if (u.is_admin === 1) roles.push('admin');
  if (u.is_doc_admin === 1) roles.push('docAdmin');
  if (u.is_tag_admin === 1) roles.push('tagAdmin');
  if (u.is_flow_admin === 1) roles.push('flowAdmin');
  if (u.is_audit_admin === 1) roles.push('auditAdmin');
  return roles;
}

export const ALL_ROLES: Role[] = ['admin', 'docAdmin', 'tagAdmin', 'flowAdmin', 'auditAdmin'];

export const NOT_AN_ADMIN = '只有系统管理员或部门管理员可以执行此操作';
export const SYSTEM_ONLY = '只有系统管理员可以执行此操作';
export const OUTSIDE = '该用户不在您管理的部门中';
export const DEPT_OUTSIDE = '该部门不在您管理的范围内';

/** Within a subtree: the path itself or below it. */
export const under = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

export async function loadScope(db: Kysely<Database>, caller: UserRow): Promise<Scope> {
  if (isSystemAdmin(caller)) return { system: true, roles: ALL_ROLES, departments: [] };
  if (caller.disabled) throw forbidden(NOT_AN_ADMIN);
  const rows = await db
    .selectFrom('department_admins')
    .innerJoin('departments', 'departments.id', 'department_admins.dept_id')
    .select(['departments.id', 'departments.name', 'departments.path'])
    .where('department_admins.user_id', '=', caller.id)
    .execute();
  if (!rows.length) throw forbidden(NOT_AN_ADMIN);
  const departments = rows
    .map((r) => ({ id: Number(r.id), name: r.name, path: r.path }))
    .filter((d, _i, all) => !all.some((o) => o.id !== d.id && under(d.path, o.path) && d.path !== o.path));
  return { system: false, roles: rolesOf(caller).filter((r) => r !== 'admin'), departments };
}

/** Whether a department (by path) is in the scope. */
export function covers(scope: Scope, deptPath: string | null): boolean {
  if (scope.system) return true;
  if (deptPath === null) return false;
  return scope.departments.some((d) => under(deptPath, d.path));
}

/** Strictly below one of the administered departments (a department administrator may not move or delete the top of their subtree). */
export function coversBelow(scope: Scope, deptPath: string): boolean {
  if (scope.system) return true;
  return scope.departments.some((d) => deptPath.startsWith(`${d.path}/`));
}

export function assertSystem(scope: Scope): void {
  if (!scope.system) throw forbidden(SYSTEM_ONLY);
}

/** A role change that the scope allows: only roles the caller holds may be added or taken away. */
export function assertRoleChange(scope: Scope, before: readonly Role[], after: readonly Role[]): void {
  const changed = [...before.filter((r) => !after.includes(r)), ...after.filter((r) => !before.includes(r))];
  const foreign = changed.filter((r) => !scope.roles.includes(r));
  if (foreign.length) throw forbidden('只能授予或取消自己拥有的角色');
}
