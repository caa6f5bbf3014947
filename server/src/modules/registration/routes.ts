// 云文档 registration calls: the SMS code and the application (public), and the
// administrators' decisions and the log sender's messages.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import type { UserRow } from '../../db/types';
import { assertSystemAdmin } from '../users/service';
import {
  ApproveBodySchema,
  PhoneQuerySchema,
  RegisterBodySchema,
  RegistrationIdParamsSchema,
  RegistrationSchema,
  RegistrationsQuerySchema,
  RejectBodySchema,
  SendCodeResultSchema,
  SmsMessageSchema,
} from './schemas';

export const registrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const registration = app.services.registration;
  const tags = ['注册'];
  const adminOnly = (req: { user(): UserRow }) => assertSystemAdmin(req.user());

  app.post(
    '/User/Register/SendVerifyCode',
    {
      config: { public: true },
      schema: {
        tags,
        summary: '发送注册验证码',
        description: '向手机号发送 6 位验证码，10 分钟内有效。同一手机号 60 秒内只能发送一次、每小时最多 5 次，同一地址每小时最多 20 次，超出时 HTTP 429。',
        security: [],
        querystring: PhoneQuerySchema,
        response: { 200: Envelope(SendCodeResultSchema) },
      },
    },
    async (req) => ok(await registration.sendCode(req.query.phone, req.ip)),
  );

  app.post(
    '/User/Register',
    {
      config: { public: true },
      schema: {
        tags,
        summary: '提交注册申请',
        description: '验证码正确后提交申请，由管理员审批；批准前账号不存在，不能登录。验证码错误 5 次后失效。',
        security: [],
        body: RegisterBodySchema,
        response: { 200: Envelope(RegistrationSchema) },
      },
    },
    async (req) => ok(await registration.register(req.body, req.ip)),
  );

  app.get(
    '/Admin/Registrations',
    {
      schema: {
        tags,
        summary: '注册申请列表',
        description: '最新的在前；status 可选 pending、approved、rejected。仅系统管理员。',
        querystring: RegistrationsQuerySchema,
        response: { 200: Envelope(Type.Object({ data: Type.Array(RegistrationSchema), total: Type.Integer() })) },
      },
    },
    async (req) => {
      adminOnly(req);
      return ok(await registration.list(req.query));
    },
  );

  app.post(
    '/Admin/Registrations/:id/Approve',
    {
      schema: {
        tags,
        summary: '批准注册申请',
        description: '以申请人设置的密码建立账号（放入 deptId 部门）。已处理的申请 HTTP 409。仅系统管理员。',
        params: RegistrationIdParamsSchema,
        body: ApproveBodySchema,
        response: { 200: Envelope(RegistrationSchema) },
      },
    },
    async (req) => ok(await registration.approve(adminOnly(req), req.params.id, req.body ?? {})),
  );

  app.post(
    '/Admin/Registrations/:id/Reject',
    {
      schema: {
        tags,
        summary: '驳回注册申请',
        description: '须填写理由。已处理的申请 HTTP 409。仅系统管理员。',
        params: RegistrationIdParamsSchema,
        body: RejectBodySchema,
        response: { 200: Envelope(RegistrationSchema) },
      },
    },
    async (req) => ok(await registration.reject(adminOnly(req), req.params.id, req.body.reason)),
  );

  app.get(
    '/Admin/Sms',
    {
      schema: {
        tags,
        summary: '短信记录（日志发送方式）',
        description: '未接入短信网关时，验证码短信只记录在这里，管理员可据此告知申请人。最新的 200 条。仅系统管理员。',
        querystring: Type.Object({ phone: Type.Optional(Type.String({ maxLength: 32 })) }),
        response: { 200: Envelope(Type.Array(SmsMessageSchema)) },
      },
    },
    async (req) => {
      adminOnly(req);
      return ok(await registration.smsMessages(req.query.phone));
    },
  );
};
