// 云文档 agreement calls: everyone reads the service agreement and privacy policy (the
// registration and login pages link to them); administrators edit them.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok } from '../../lib/schema';
import { assertSystemAdmin } from '../users/service';
import { AgreementBodySchema, AgreementKindParamsSchema, AgreementSchema } from './schemas';

export const agreementsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const agreements = app.services.agreements;
  const tags = ['设置'];

  app.get(
    '/Client/Agreements/:kind',
    {
      config: { public: true },
      schema: { tags, summary: '服务协议或隐私政策', security: [], params: AgreementKindParamsSchema, response: { 200: Envelope(AgreementSchema) } },
    },
    async (req) => ok(await agreements.get(req.params.kind)),
  );

  app.put(
    '/Admin/Agreements/:kind',
    {
      preValidation: async (req) => void assertSystemAdmin(req.user()),
      schema: {
        tags,
        summary: '修改服务协议或隐私政策',
        description: '仅系统管理员；其他用户得到 HTTP 403、code 40301。',
        params: AgreementKindParamsSchema,
        body: AgreementBodySchema,
        response: { 200: Envelope(AgreementSchema) },
      },
    },
    async (req) => ok(await agreements.set(req.params.kind, req.body.content)),
  );
};
