// 云文档 settings calls: environment configuration, feature policy, password policy,
// branding and the home/menu call.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { BrandingSchema, EnvironmentConfigSchema, FeaturePolicySchema, HomeSchema, PasswordPolicySchema } from './schemas';

export const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = app.services.settings;

  app.get(
    '/EnvironmentConfig',
    {
      config: { public: true },
      schema: { tags: ['设置'], summary: '环境配置（空间名称）', security: [], response: { 200: Envelope(EnvironmentConfigSchema) } },
    },
    async () => ok(await settings.environmentConfig()),
  );

  app.get(
    '/User/GlobalPolicies/FeaturePolicy',
    { schema: { tags: ['设置'], summary: '功能策略', response: { 200: Envelope(FeaturePolicySchema) } } },
    async (req) => ok(await settings.policyFor(req.user())),
  );

  app.get(
    '/Login/PasswordPolicy',
    {
      config: { public: true },
      schema: { tags: ['设置'], summary: '密码策略', security: [], response: { 200: Envelope(PasswordPolicySchema) } },
    },
    async () => ok(await settings.passwordPolicy()),
  );

  app.get(
    '/Client/Branding',
    {
      config: { public: true },
      schema: { tags: ['设置'], summary: '客户端品牌', security: [], response: { 200: Envelope(BrandingSchema) } },
    },
    async () => ok(await settings.branding()),
  );

  app.get(
    '/User/Home',
    { schema: { tags: ['设置'], summary: '首页与菜单', response: { 200: Envelope(HomeSchema) } } },
    async (req) => ok(await settings.home(req.user())),
  );
};
