// 云文档 administration: users, their sessions, departments, groups and the feature policy.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import { revokeSessionsOfUser } from '../auth/repository';
import type { AuthService } from '../auth/service';
import type { Department, Group } from '../organizations/schemas';
import type { OrganizationsService } from '../organizations/service';
import type { EnvironmentConfig, FeaturePolicy, PasswordPolicy } from '../settings/schemas';
import type { Credentials } from '../auth/credentials';
import type { SettingsService } from '../settings/service';
import { findUserById, updateUserFields } from '../users/repository';
import { assertSystemAdmin, type UsersService } from '../users/service';
import { listUsers } from './repository';
import type {
  AdminUser,
  AdminUsersQuery,
  CreateDepartmentBody,
  CreateUserBody,
  GroupBody,
  GroupMembersBody,
  ResetPasswordBody,
  UpdateDepartmentBody,
  UpdateUserBody,
  UserTotpBody,
} from './schemas';

const toAdminUser = (u: UserRow): AdminUser => ({
  userId: String(u.id),
  userName: u.user_name,
  nickName: u.nick_name,
  deptId: u.dept_id === null ? null : String(u.dept_id),
  isDocAdmin: u.is_doc_admin === 1,
  isFlowAdmin: u.is_flow_admin === 1,
  isTagAdmin: u.is_tag_admin === 1,
  disabled: u.disabled === 1,
  totpRequired: u.totp_required === 1,
  totpBound: u.totp_secret !== null,
  mustChangePassword: u.must_change_password === 1,
});

export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly settings: SettingsService,
    private readonly organizations: OrganizationsService,
    private readonly credentials: Credentials,
  ) {}

  /** Every admin call starts here: 403/40301 for anyone but a system administrator. */
  assertAdmin(caller: UserRow): void {
    assertSystemAdmin(caller);
  }

  private async targetUser(userIdText: string): Promise<UserRow> {
    const id = parseId(userIdText);
    const user = id === null ? undefined : await findUserById(this.db, id);
    if (!user) throw notFound('用户不存在');
    return user;
  }

  /** Users by user name, disabled ones included, with what the security settings need. */
  async listUsers(caller: UserRow, query: AdminUsersQuery): Promise<{ data: AdminUser[]; total: number }> {
    this.assertAdmin(caller);
    const pageSize = query.pageSize ?? 20;
    const { rows, total } = await listUsers(this.db, query.keyword?.trim() ?? '', { offset: ((query.page ?? 1) - 1) * pageSize, limit: pageSize });
    return { data: rows.map(toAdminUser), total };
  }

  async createUser(caller: UserRow, body: CreateUserBody): Promise<{ userId: string }> {
    this.assertAdmin(caller);
    let deptId: number | null = null;
    if (body.deptId !== undefined && body.deptId !== null) {
      deptId = parseId(body.deptId);
      if (deptId === null) throw badRequest('所选部门不存在');
    }
    const user = await this.users.createUser({
      userName: body.userName,
      nickName: body.nickName,
      password: body.password,
      deptId,
      isDocAdmin: body.isDocAdmin,
      isFlowAdmin: body.isFlowAdmin,
      isTagAdmin: body.isTagAdmin,
      mustChangePassword: body.mustChangePassword ?? true,
    });
    return { userId: String(user.id) };
  }

  /** The account can no longer sign in; every session, client token and pending sign-in step of it ends for good. */
  async disableUser(caller: UserRow, userIdText: string): Promise<{ userId: string }> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    if (user.id === caller.id) throw badRequest('不能停用自己的账号');
    await this.auth.setDisabled(user.id, true);
    return { userId: String(user.id) };
  }

  /** The counterpart of disableUser: the account may sign in again (its old sessions stay ended). */
  async enableUser(caller: UserRow, userIdText: string): Promise<{ userId: string }> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    await this.auth.setDisabled(user.id, false);
    return { userId: String(user.id) };
  }

  async updateUser(caller: UserRow, userIdText: string, body: UpdateUserBody): Promise<AdminUser> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    let deptId: number | null | undefined = undefined;
    if (body.deptId !== undefined) {
      deptId = body.deptId === null ? null : parseId(body.deptId);
      if (body.deptId !== null && deptId === null) throw badRequest('所选部门不存在');
    }
    const updated = await this.users.updateUser(user, {
      nickName: body.nickName,
      deptId,
      isDocAdmin: body.isDocAdmin,
      isFlowAdmin: body.isFlowAdmin,
      isTagAdmin: body.isTagAdmin,
    });
    return toAdminUser(updated);
  }

  /** Sets a new password and ends every session of the user in the same transaction. */
  async resetPassword(caller: UserRow, userIdText: string, body: ResetPasswordBody): Promise<{ userId: string; revoked: number }> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    const passwordHash = await this.credentials.newHash(body.password);
    const revoked = await this.db.transaction().execute(async (trx) => {
      const now = Date.now();
      await this.credentials.store(trx, user.id, passwordHash, now, body.mustChangePassword ?? true);
      return revokeSessionsOfUser(trx, user.id, now);
    });
    return { userId: String(user.id), revoked };
  }

  /** TOTP required for this user (or no longer, unless the policy requires it for everyone). */
  async setUserTotp(caller: UserRow, userIdText: string, body: UserTotpBody): Promise<AdminUser> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    await this.db.updateTable('users').set({ totp_required: body.required ? 1 : 0, updated_at: Date.now() }).where('id', '=', user.id).execute();
    return toAdminUser((await findUserById(this.db, user.id)) ?? user);
  }

  /** Forgets the user's TOTP key (a lost phone): the next sign-in binds a new one when TOTP is required. */
  async resetUserTotp(caller: UserRow, userIdText: string): Promise<AdminUser> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    await this.auth.resetTotp(user.id);
    return toAdminUser((await findUserById(this.db, user.id)) ?? user);
  }

  async updatePasswordPolicy(caller: UserRow, policy: PasswordPolicy): Promise<PasswordPolicy> {
    this.assertAdmin(caller);
    return this.settings.setPasswordPolicy(policy);
  }


  /** Every live session of the user answers 401 from now on. */
  async revokeSessions(caller: UserRow, userIdText: string): Promise<{ revoked: number }> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    return { revoked: await this.auth.revokeUserSessions(user.id) };
  }

  // ---- departments and groups ----

  async createDepartment(caller: UserRow, body: CreateDepartmentBody): Promise<Department> {
    this.assertAdmin(caller);
    return this.organizations.createDepartment(body);
  }

  async updateDepartment(caller: UserRow, idText: string, body: UpdateDepartmentBody): Promise<Department> {
    this.assertAdmin(caller);
    return this.organizations.updateDepartment(idText, body);
  }

  async deleteDepartment(caller: UserRow, idText: string): Promise<{ id: string }> {
    this.assertAdmin(caller);
    return this.organizations.deleteDepartment(idText);
  }

  async createGroup(caller: UserRow, body: GroupBody): Promise<Group> {
    this.assertAdmin(caller);
    return this.organizations.createGroup(body);
  }

  async renameGroup(caller: UserRow, idText: string, body: GroupBody): Promise<Group> {
    this.assertAdmin(caller);
    return this.organizations.renameGroup(idText, body);
  }

  async deleteGroup(caller: UserRow, idText: string): Promise<{ id: string }> {
    this.assertAdmin(caller);
    return this.organizations.deleteGroup(idText);
  }

  async setGroupMembers(caller: UserRow, idText: string, body: GroupMembersBody): Promise<Group> {
    this.assertAdmin(caller);
    return this.organizations.setGroupMembers(idText, body);
  }

  async updateEnvironmentConfig(caller: UserRow, config: EnvironmentConfig): Promise<EnvironmentConfig> {
    this.assertAdmin(caller);
    return this.settings.setEnvironmentConfig(config);
  }

  async updateFeaturePolicy(caller: UserRow, policy: FeaturePolicy): Promise<FeaturePolicy> {
    this.assertAdmin(caller);
    return this.settings.setFeaturePolicy(policy);
  }
}
