// 云文档 sign-in and sign-out calls.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clearCookie, setCookie } from '../../lib/cookies';
import { Envelope, ok } from '../../lib/schema';
import { LoginBodySchema, LoginResultSchema, QuitResultSchema } from './schemas';

/** Cookie `token` = jwtId, 720 days (spec sections 4 and 9). */
export const TOKEN_COOKIE = 'token';

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const auth = app.services.auth;
  const maxAgeSeconds = Math.floor(app.config.sessionTtlMs / 1000);

  app.post(
    '/login',
    {
      config: { public: true },
      schema: {
        tags: ['登录'],
        summary: '用户名密码登录',
        description: '成功时返回用户信息、token 与 jwtId，并写入 Cookie token（jwtId，720 天）。用户名或密码错误时 HTTP 400、code 40001；失败过多时 HTTP 429、code 42901。',
        security: [],
        body: LoginBodySchema,
        response: { 200: Envelope(LoginResultSchema) },
      },
    },
    async (req, reply) => {
      const { result, jwtId } = await auth.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' });
      setCookie(reply, TOKEN_COOKIE, jwtId, { maxAgeSeconds, secure: req.protocol === 'https' });
      return ok(result);
    },
  );

  app.post(
    '/login/quit',
    {
      config: { public: true, optionalAuth: true },
      schema: {
        tags: ['登录'],
        summary: '退出登录',
        description: '结束当前会话：它的 token 与 Cookie 立即失效。会话已失效时同样返回成功。',
        response: { 200: Envelope(QuitResultSchema) },
      },
    },
    async (req, reply) => {
      if (req.auth) await auth.quit(req.auth.session);
      clearCookie(reply, TOKEN_COOKIE, { secure: req.protocol === 'https' });
      return ok(null);
    },
  );
};
