// 云文档 administration calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { EnvironmentConfigSchema, FeaturePolicySchema, PasswordPolicySchema } from '../settings/schemas';
import { GroupIdParamsSchema, GroupMemberPageSchema, GroupSchema, PagingQuerySchema } from '../organizations/schemas';
import { DeletedResultSchema, GroupBodySchema, GroupMembersBodySchema } from './schemas';

export const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const admin = app.services.admin;
  const tags = ['管理'];
  const only = '仅系统管理员；其他用户得到 HTTP 403、code 40301。';

  // refuse before the body is even looked at
  app.addHook('preValidation', async (req) => admin.assertAdmin(req.user()));

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

  app.get(
    '/Admin/Groups/:id/Members',
    {
      schema: {
        tags,
        summary: '用户组成员（含已停用）',
        description: `按用户名排序，含已停用的成员（disabled 为 true）；设置成员会替换全部成员，应从这里读到的完整名单出发。${only}`,
        params: GroupIdParamsSchema,
        querystring: PagingQuerySchema,
        response: { 200: Envelope(GroupMemberPageSchema) },
      },
    },
    async (req) => ok(await admin.groupMembers(req.user(), req.params.id, req.query)),
  );

  app.put(
    '/Admin/Groups/:id/Members',
    {
      schema: {
        tags,
        summary: '设置用户组成员',
        description: `用给出的用户替换全部成员（已停用的用户也可以是成员，未列出的即被移出）；有不存在的用户 id 时整体拒绝（400、code 40001）。${only}`,
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
  app.get(
    '/Admin/FeaturePolicy',
    { schema: { tags, summary: '全局功能策略', description: `部门和个人的设置在用户与部门管理中。${only}`, response: { 200: Envelope(FeaturePolicySchema) } } },
    async () => ok(await app.services.settings.featurePolicy()),
  );
};
