// 云文档 administration calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { FeaturePolicySchema } from '../settings/schemas';
import { CreateUserBodySchema, CreateUserResultSchema, DisableResultSchema, RevokeResultSchema, UserIdParamsSchema } from './schemas';

export const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const admin = app.services.admin;
  const tags = ['管理'];
  const only = '仅系统管理员；其他用户得到 HTTP 403、code 40301。';

  // refuse before the body is even looked at
  app.addHook('preValidation', async (req) => admin.assertAdmin(req.user()));

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
