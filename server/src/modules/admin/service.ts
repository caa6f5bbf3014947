// 云文档 administration for system administrators only: the password policy, groups, the
// spaces' names and the global feature policy. People and departments: ../people.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import type { Group, GroupMemberPage, PagingQuery } from '../organizations/schemas';
import type { OrganizationsService } from '../organizations/service';
import type { EnvironmentConfig, FeaturePolicy, PasswordPolicy, UploadPolicy, UploadPolicyBody } from '../settings/schemas';
import type { SettingsService } from '../settings/service';
import { assertSystemAdmin } from '../users/service';
import { recordAction } from '../people/repository';
import type { GroupBody, GroupMembersBody } from './schemas';

const onOff = (b: boolean) => (b ? '开启' : '关闭');

export class AdminService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: SettingsService,
    private readonly organizations: OrganizationsService,
  ) {}

  /** Every admin call starts here: 403/40301 for anyone but a system administrator. */
  assertAdmin(caller: UserRow): void {
    assertSystemAdmin(caller);
  }

  private record(caller: UserRow, action: string, targetType: string, targetId: string, targetName: string, detail = '') {
    return recordAction(this.db, { actorId: caller.id, actorName: caller.user_name, action, targetType, targetId, targetName, detail });
  }

  async updatePasswordPolicy(caller: UserRow, policy: PasswordPolicy): Promise<PasswordPolicy> {
    this.assertAdmin(caller);
    const saved = await this.settings.setPasswordPolicy(policy);
    await this.record(caller, '修改密码策略', 'setting', 'passwordPolicy', '密码策略', JSON.stringify(saved));
    return saved;
  }

  async createGroup(caller: UserRow, body: GroupBody): Promise<Group> {
    this.assertAdmin(caller);
    const group = await this.organizations.createGroup(body);
    await this.record(caller, '新建用户组', 'group', group.id, group.name);
    return group;
  }

  async renameGroup(caller: UserRow, idText: string, body: GroupBody): Promise<Group> {
    this.assertAdmin(caller);
    const group = await this.organizations.renameGroup(idText, body);
    await this.record(caller, '重命名用户组', 'group', group.id, group.name);
    return group;
  }

  async deleteGroup(caller: UserRow, idText: string): Promise<{ id: string }> {
    this.assertAdmin(caller);
    const name = (await this.organizations.groups()).find((g) => g.id === idText)?.name ?? idText;
    const result = await this.organizations.deleteGroup(idText);
    await this.record(caller, '删除用户组', 'group', result.id, name);
    return result;
  }

  /** Every member of a group, the disabled ones marked: what 设置成员 starts from. */
  async groupMembers(caller: UserRow, idText: string, query: PagingQuery): Promise<GroupMemberPage> {
    this.assertAdmin(caller);
    return this.organizations.groupMembersWithDisabled(idText, query);
  }

  async setGroupMembers(caller: UserRow, idText: string, body: GroupMembersBody): Promise<Group> {
    this.assertAdmin(caller);
    const group = await this.organizations.setGroupMembers(idText, body);
    await this.record(caller, '设置用户组成员', 'group', group.id, group.name, `${group.memberCount} 名成员`);
    return group;
  }

  async updateEnvironmentConfig(caller: UserRow, config: EnvironmentConfig): Promise<EnvironmentConfig> {
    this.assertAdmin(caller);
    const saved = await this.settings.setEnvironmentConfig(config);
    await this.record(caller, '修改空间名称', 'setting', 'environmentConfig', '空间名称', `${saved.personalFolderName}、${saved.publicFolderName}`);
    return saved;
  }

  async updateUploadPolicy(caller: UserRow, body: UploadPolicyBody): Promise<UploadPolicy> {
    this.assertAdmin(caller);
    const saved = await this.settings.setUploadPolicy(body);
    await this.record(caller, '修改上传策略', 'setting', 'uploadPolicy', '上传策略', JSON.stringify(saved));
    return saved;
  }

  async updateFeaturePolicy(caller: UserRow, policy: FeaturePolicy): Promise<FeaturePolicy> {
    this.assertAdmin(caller);
    const saved = await this.settings.setFeaturePolicy(policy);
    await this.record(
      caller,
      '修改全局功能策略',
      'setting',
      'featurePolicy',
      '功能策略',
      `个人空间${onOff(saved.personalSpace)}、企业空间${onOff(saved.publicSpace)}、审批流程${onOff(saved.workflow)}、摆渡${onOff(saved.ferrySpaces)}`,
    );
    return saved;
  }
}
