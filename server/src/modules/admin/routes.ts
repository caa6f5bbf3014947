// 云文档 administration calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { EnvironmentConfigSchema, FeaturePolicySchema, PasswordPolicySchema } from '../settings/schemas';
import { DepartmentSchema, GroupIdParamsSchema, GroupSchema } from '../organizations/schemas';
import {
  AdminUserSchema,
  AdminUsersQuerySchema,
  UserTotpBodySchema,
  CreateDepartmentBodySchema,
  CreateUserBodySchema,
  CreateUserResultSchema,
  DeletedResultSchema,
  DeptIdParamsSchema,
  DisableResultSchema,
  EnableResultSchema,
  GroupBodySchema,
  GroupMembersBodySchema,
  ResetPasswordBodySchema,
  ResetPasswordResultSchema,
  RevokeResultSchema,
  UpdateDepartmentBodySchema,
  UpdateUserBodySchema,
  UserIdParamsSchema,
} from './schemas';

export const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const admin = app.services.admin;
  const tags = ['管理'];
  const only = '仅系统管理员；其他用户得到 HTTP 403、code 40301。';

  // refuse before the body is even looked at
  app.addHook('preValidation', async (req) => admin.assertAdmin(req.user()));

  app.get(
    '/Admin/Users',
    {
      schema: {
        tags,
        summary: '用户列表',
        description: `按用户名排序，含已停用的用户；keyword 匹配用户名或昵称。${only}`,
        querystring: AdminUsersQuerySchema,
        response: { 200: Envelope(Type.Object({ data: Type.Array(AdminUserSchema), total: Type.Integer() })) },
      },
    },
    async (req) => ok(await admin.listUsers(req.user(), req.query)),
  );

  app.post(
    '/Admin/Users',
    {
      schema: {
        tags,
        summary: '新建用户',
        description: `同时创建该用户的个人空间根目录。${only}`,
        body: CreateUserBodySchema,
        response: { 200: Envelope(CreateUserResultSchema) },
      },
    },
    async (req) => ok(await admin.createUser(req.user(), req.body)),
  );

  app.post(
    '/Admin/Users/:userId/Disable',
    {
      schema: {
        tags,
        summary: '停用用户',
        description: `该账号不能再登录，它已有的会话返回 403。${only}`,
        params: UserIdParamsSchema,
        response: { 200: Envelope(DisableResultSchema) },
      },
    },
    async (req) => ok(await admin.disableUser(req.user(), req.params.userId)),
  );

  app.post(
    '/Admin/Users/:userId/Enable',
    {
      schema: {
        tags,
        summary: '启用用户',
        description: `停用的反操作：该账号可以再次登录。${only}`,
        params: UserIdParamsSchema,
        response: { 200: Envelope(EnableResultSchema) },
      },
    },
    async (req) => ok(await admin.enableUser(req.user(), req.params.userId)),
  );

  app.put(
    '/Admin/Users/:userId',
    {
      schema: {
        tags,
        summary: '修改用户',
        description: `修改昵称、部门和角色标志，未给出的字段不变。${only}`,
        params: UserIdParamsSchema,
        body: UpdateUserBodySchema,
        response: { 200: Envelope(AdminUserSchema) },
      },
    },
    async (req) => ok(await admin.updateUser(req.user(), req.params.userId, req.body)),
  );

  app.post(
    '/Admin/Users/:userId/ResetPassword',
    {
      schema: {
        tags,
        summary: '重置用户密码',
        description: `新密码须符合密码策略；该用户的全部会话随即失效（返回 401）；默认下次登录须修改密码。${only}`,
        params: UserIdParamsSchema,
        body: ResetPasswordBodySchema,
        response: { 200: Envelope(ResetPasswordResultSchema) },
      },
    },
    async (req) => ok(await admin.resetPassword(req.user(), req.params.userId, req.body)),
  );

  app.put(
    '/Admin/Users/:userId/Totp',
    {
      schema: {
        tags,
        summary: '要求（或不再要求）用户使用动态口令',
        description: `密码策略要求所有人使用动态口令时，此项不起作用。${only}`,
        params: UserIdParamsSchema,
        body: UserTotpBodySchema,
        response: { 200: Envelope(AdminUserSchema) },
      },
    },
    async (req) => ok(await admin.setUserTotp(req.user(), req.params.userId, req.body)),
  );

  app.delete(
    '/Admin/Users/:userId/Totp',
    {
      schema: {
        tags,
        summary: '重置用户的动态口令',
        description: `忘记已绑定的密钥（如手机丢失）；仍须使用动态口令时，下次登录重新绑定。${only}`,
        params: UserIdParamsSchema,
        response: { 200: Envelope(AdminUserSchema) },
      },
    },
    async (req) => ok(await admin.resetUserTotp(req.user(), req.params.userId)),
  );

  app.put(
    '/Admin/PasswordPolicy',
    {
      schema: {
        tags,
        summary: '更新密码策略',
        description: `长度与字符要求、不能重复使用的历史密码数、有效天数、错误锁定、是否所有人都须动态口令。${only}`,
        body: PasswordPolicySchema,
        response: { 200: Envelope(PasswordPolicySchema) },
      },
    },
    async (req) => ok(await admin.updatePasswordPolicy(req.user(), req.body)),
  );

  app.post(
    '/Admin/Users/:userId/RevokeSessions',
    {
      schema: {
        tags,
        summary: '撤销用户的全部会话',
        description: `之后这些会话返回 401。${only}`,
        params: UserIdParamsSchema,
        response: { 200: Envelope(RevokeResultSchema) },
      },
    },
    async (req) => ok(await admin.revokeSessions(req.user(), req.params.userId)),
  );

  app.post(
    '/Admin/Departments',
    {
      schema: {
        tags,
        summary: '新建部门',
        description: `同一上级部门下名称不能重复（409、code 40901）。${only}`,
        body: CreateDepartmentBodySchema,
        response: { 200: Envelope(DepartmentSchema) },
      },
    },
    async (req) => ok(await admin.createDepartment(req.user(), req.body)),
  );

  app.put(
    '/Admin/Departments/:id',
    {
      schema: {
        tags,
        summary: '重命名或移动部门',
        description: `移动时连同全部下级部门一起移动；移到自身或下级部门中得到 400、code 40002。${only}`,
        params: DeptIdParamsSchema,
        body: UpdateDepartmentBodySchema,
        response: { 200: Envelope(DepartmentSchema) },
      },
    },
    async (req) => ok(await admin.updateDepartment(req.user(), req.params.id, req.body)),
  );

  app.delete(
    '/Admin/Departments/:id',
    {
      schema: {
        tags,
        summary: '删除部门',
        description: `部门下还有用户或下级部门时拒绝（409、code 40902）；根部门不能删除。${only}`,
        params: DeptIdParamsSchema,
        response: { 200: Envelope(DeletedResultSchema) },
      },
    },
    async (req) => ok(await admin.deleteDepartment(req.user(), req.params.id)),
  );

  app.post(
    '/Admin/Groups',
    {
      schema: {
        tags,
        summary: '新建用户组',
        description: `名称不能重复（409、code 40901）。${only}`,
        body: GroupBodySchema,
        response: { 200: Envelope(GroupSchema) },
      },
    },
    async (req) => ok(await admin.createGroup(req.user(), req.body)),
  );

  app.put(
    '/Admin/Groups/:id',
    {
      schema: {
        tags,
        summary: '重命名用户组',
        description: only,
        params: GroupIdParamsSchema,
        body: GroupBodySchema,
        response: { 200: Envelope(GroupSchema) },
      },
    },
    async (req) => ok(await admin.renameGroup(req.user(), req.params.id, req.body)),
  );

  app.delete(
    '/Admin/Groups/:id',
    {
      schema: {
        tags,
        summary: '删除用户组',
        description: `成员关系一并删除，用户本身不受影响。${only}`,
        params: GroupIdParamsSchema,
        response: { 200: Envelope(DeletedResultSchema) },
      },
    },
    async (req) => ok(await admin.deleteGroup(req.user(), req.params.id)),
  );

  app.put(
    '/Admin/Groups/:id/Members',
    {
      schema: {
        tags,
        summary: '设置用户组成员',
        description: `用给出的用户替换全部成员；有不存在的用户 id 时整体拒绝（400、code 40001）。${only}`,
        params: GroupIdParamsSchema,
        body: GroupMembersBodySchema,
        response: { 200: Envelope(GroupSchema) },
      },
    },
    async (req) => ok(await admin.setGroupMembers(req.user(), req.params.id, req.body)),
  );

  app.put(
    '/Admin/EnvironmentConfig',
    {
      schema: {
        tags,
        summary: '设置空间名称',
        description: `个人空间与企业空间根目录显示的名称，各 1–20 个字符，不能相同。${only}`,
        body: EnvironmentConfigSchema,
        response: { 200: Envelope(EnvironmentConfigSchema) },
      },
    },
    async (req) => ok(await admin.updateEnvironmentConfig(req.user(), req.body)),
  );

  app.put(
    '/Admin/FeaturePolicy',
    {
      schema: {
        tags,
        summary: '更新功能策略',
        description: only,
        body: FeaturePolicySchema,
        response: { 200: Envelope(FeaturePolicySchema) },
      },
    },
    async (req) => ok(await admin.updateFeaturePolicy(req.user(), req.body)),
  );
};
