// 云文档 sign-in and sign-out calls.
import type { OplogRoute } from '../oplog/plugin';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clearCookie, setCookie } from '../../lib/cookies';
import { Envelope, ok } from '../../lib/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { LoginOutcome } from './service';
import {
  ChangePasswordBodySchema,
  ChangePasswordResultSchema,
  LoginAnswerSchema,
  LoginBodySchema,
  QuitResultSchema,
  ResetPasswordBodySchema,
  TotpBodySchema,
} from './schemas';

/** Cookie `token` = jwtId, 720 days (spec sections 4 and 9). */
export const TOKEN_COOKIE = 'token';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const auth = app.services.auth;
  const maxAgeSeconds = Math.floor(app.config.sessionTtlMs / 1000);
  const client = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? '' });
  /** A session sets the cookie; a second step does not. */
  const answer = (req: FastifyRequest, reply: FastifyReply, outcome: LoginOutcome) => {
    if (outcome.jwtId) {
      setCookie(reply, TOKEN_COOKIE, outcome.jwtId, { maxAgeSeconds, secure: req.protocol === 'https' });
      const r = outcome.result as { userId?: string; userName?: string };
      if (r.userId) req.oplog.user = { id: Number(r.userId), userName: r.userName ?? '' };
    }
    return ok(outcome.result);
  };
  const stepTags = ['登录'];
  /**
   * The operation log's record of a sign-in: the session made (a step reached is not one yet),
   * a failure with its reason, or a lockout (429).
   */
  const signInLog = (how: string): { oplog: OplogRoute } => ({
    oplog: {
      action: 'auth.login',
      detail: () => ({ how }),
      when: (ok, result, status) => (ok ? ((result as { token?: string } | undefined)?.token ? 'auth.login' : null) : status === 429 ? 'auth.lockout' : 'auth.login.fail'),
    },
  });

  app.post(
    '/login',
    {
      config: { public: true, ...signInLog('密码') },
      schema: {
        tags: ['登录'],
        summary: '用户名密码登录',
        description:
          '成功时返回用户信息、token 与 jwtId，并写入 Cookie token（jwtId，720 天）。须先修改密码（管理员设置的密码、密码过期）、绑定或输入动态口令时，' +
          '返回 passwordReset / totpBind / totpCode 之一为 true 与 actionToken，不返回 token，也不建立会话。' +
          '用户名或密码错误时 HTTP 400、code 40001；失败过多或账号锁定时 HTTP 429、code 42901。',
        security: [],
        body: LoginBodySchema,
        response: { 200: Envelope(LoginAnswerSchema) },
      },
    },
    async (req, reply) => {
      req.oplog.userName = req.body.userName;
      return answer(req, reply, await auth.login(req.body, client(req)));
    },
  );

  app.post(
    '/login/LoginWithDingtalk',
    {
      config: { public: true, ...signInLog('钉钉') },
      schema: {
        tags: stepTags,
        summary: '钉钉登录',
        description:
          '用钉钉回调带回的授权码 code 登录（appId 须与配置的 DINGTALK_APP_KEY 相同）。按已关联的钉钉用户、再按手机号或邮箱找到账号；' +
          '找不到时按配置自动建号或 HTTP 403。钉钉返回任何错误时 HTTP 502、code 50201，不会登录。需要动态口令时同样返回 totpBind / totpCode。',
        security: [],
        querystring: Type.Object({ code: Type.String({ maxLength: 512 }), appId: Type.String({ maxLength: 128 }) }),
        response: { 200: Envelope(LoginAnswerSchema) },
      },
    },
    async (req, reply) => answer(req, reply, await auth.loginWithDingtalk(req.query.code, req.query.appId, client(req))),
  );

  app.post(
    '/login/ResetPassword',
    {
      config: { public: true, ...signInLog('设置新密码后') },
      schema: {
        tags: stepTags,
        summary: '登录时设置新密码',
        description: '用 passwordReset 步骤的 actionToken 设置符合密码策略的新密码；该用户的其他会话随之结束，然后继续登录（可能还须动态口令）。actionToken 过期或已用过时 HTTP 400。',
        security: [],
        body: ResetPasswordBodySchema,
        response: { 200: Envelope(LoginAnswerSchema) },
      },
    },
    async (req, reply) => answer(req, reply, await auth.resetPassword(req.body, client(req))),
  );

  app.post(
    '/login/TotpBind',
    {
      config: { public: true, ...signInLog('绑定动态口令后') },
      schema: {
        tags: stepTags,
        summary: '登录时绑定动态口令',
        description: '用 totpBind 步骤的 actionToken 和身份验证器显示的第一个动态口令完成绑定并登录。口令错误 HTTP 400；一次登录最多输错 5 次。',
        security: [],
        body: TotpBodySchema,
        response: { 200: Envelope(LoginAnswerSchema) },
      },
    },
    async (req, reply) => answer(req, reply, await auth.totpBind(req.body, client(req))),
  );

  app.post(
    '/login/TotpCode',
    {
      config: { public: true, ...signInLog('动态口令') },
      schema: {
        tags: stepTags,
        summary: '登录时输入动态口令',
        description: '用 totpCode 步骤的 actionToken 和当前动态口令完成登录。已用过的口令不再有效；口令错误 HTTP 400；一次登录最多输错 5 次。',
        security: [],
        body: TotpBodySchema,
        response: { 200: Envelope(LoginAnswerSchema) },
      },
    },
    async (req, reply) => answer(req, reply, await auth.totpCode(req.body, client(req))),
  );

  app.post(
    '/account/changepassword',
    {
      config: { oplog: { action: 'auth.password' } },
      schema: {
        tags: ['账号'],
        summary: '修改密码',
        description: '须提供原密码；新密码须符合密码策略。当前会话保留，其他会话全部结束。原密码错误 HTTP 400。',
        body: ChangePasswordBodySchema,
        response: { 200: Envelope(ChangePasswordResultSchema) },
      },
    },
    async (req) => ok(await auth.changePassword(req.user(), req.auth!.session, req.body, req.ip)),
  );

  app.post(
    '/login/quit',
    {
      config: { public: true, optionalAuth: true, oplog: { action: 'auth.logout', when: (ok) => (ok ? 'auth.logout' : null) } },
      schema: {
        tags: ['登录'],
        summary: '退出登录',
        description: '结束当前会话：它的 token 与 Cookie 立即失效。会话已失效时同样返回成功。',
        response: { 200: Envelope(QuitResultSchema) },
      },
    },
    async (req, reply) => {
      if (!req.auth) req.oplog.skip = true;
      if (req.auth) await auth.quit(req.auth.session);
      clearCookie(reply, TOKEN_COOKIE, { secure: req.protocol === 'https' });
      return ok(null);
    },
  );
};
