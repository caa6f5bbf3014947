// 云文档 administration: users, their sessions and the feature policy.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { parseId } from '../../lib/ids';
import type { AuthService } from '../auth/service';
import type { FeaturePolicy } from '../settings/schemas';
import type { SettingsService } from '../settings/service';
import { findUserById } from '../users/repository';
import { isSystemAdmin, type UsersService } from '../users/service';
import { setUserDisabled } from './repository';
import type { CreateUserBody } from './schemas';

export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    private readonly settings: SettingsService,
  ) {}

  /** Every admin call starts here: 403/40301 for anyone but a system administrator. */
  assertAdmin(caller: UserRow): void {
    if (!isSystemAdmin(caller)) throw forbidden('只有系统管理员可以执行此操作');
  }

  private async targetUser(userIdText: string): Promise<UserRow> {
    const id = parseId(userIdText);
    const user = id === null ? undefined : await findUserById(this.db, id);
    if (!user) throw notFound('用户不存在');
    return user;
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
    });
    return { userId: String(user.id) };
  }

  /** The account can no longer sign in; its sessions answer 403. */
  async disableUser(caller: UserRow, userIdText: string): Promise<{ userId: string }> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    if (user.id === caller.id) throw badRequest('不能停用自己的账号');
    await setUserDisabled(this.db, user.id, true, Date.now());
    return { userId: String(user.id) };
  }

  /** Every live session of the user answers 401 from now on. */
  async revokeSessions(caller: UserRow, userIdText: string): Promise<{ revoked: number }> {
    this.assertAdmin(caller);
    const user = await this.targetUser(userIdText);
    return { revoked: await this.auth.revokeUserSessions(user.id) };
  }

  async updateFeaturePolicy(caller: UserRow, policy: FeaturePolicy): Promise<FeaturePolicy> {
    this.assertAdmin(caller);
    return this.settings.setFeaturePolicy(policy);
  }
}
