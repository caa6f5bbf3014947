// 云文档 client authorization calls (docs/integration.md, "Client authorization").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import type { UserRow } from '../../db/types';
import { assertSystemAdmin } from '../users/service';
import {
  AuthorizeBodySchema,
  AuthorizeInfoSchema,
  AuthorizeRequestQuerySchema,
  AuthorizeResultSchema,
  ClientBodySchema,
  ClientIdParamsSchema,
  ClientSchema,
  MyClientSchema,
  TokenBodySchema,
  TokenResultSchema,
} from './schemas';

export const oauthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const oauth = app.services.oauth;
  const tags = ['客户端授权'];
  // OAuth clients send the token request as a form (RFC 6749 section 4.1.3)
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  const adminOnly = (req: { user(): UserRow }) => assertSystemAdmin(req.user());

  app.get(
    '/OAuth/Request',
    {
      schema: {
        tags,
        summary: '查看授权请求',
        description: '授权页据此显示客户端名称与请求的范围。客户端未登记、回调地址不符、未使用 PKCE（S256）或范围不支持时 HTTP 400。',
        querystring: AuthorizeRequestQuerySchema,
        response: { 200: Envelope(AuthorizeInfoSchema) },
      },
    },
    async (req) => ok(await oauth.describe(req.query.request)),
  );

  app.post(
    '/OAuth/Authorize',
    {
      schema: {
        tags,
        summary: '授权或拒绝',
        description: '返回浏览器接着前往的地址：授权时带一次性授权码 code（5 分钟内有效）与 state，拒绝时带 error=access_denied。',
        body: AuthorizeBodySchema,
        response: { 200: Envelope(AuthorizeResultSchema) },
      },
    },
    async (req) => ok(await oauth.answer(req.user(), req.body.request, req.body.approve)),
  );

  app.post(
    '/OAuth/Token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: '用授权码换取客户端令牌',
        description:
          '客户端调用：grant_type=authorization_code、code、redirect_uri、client_id、code_verifier（JSON 或表单）。令牌放在 Authorization: Bearer 中使用，' +
          '只能做授权范围内的事；用户可在个人设置中撤销，修改密码时随之失效。授权码只能用一次。',
        security: [],
        body: TokenBodySchema,
        response: { 200: Envelope(TokenResultSchema) },
      },
    },
    async (req) => ok(await oauth.token(req.body, req.ip, req.headers['user-agent'] ?? '')),
  );

  app.get(
    '/OAuth/UserInfo',
    {
      schema: {
        tags,
        summary: '令牌所属的用户',
        response: { 200: Envelope(Type.Object({ userId: Type.String(), userName: Type.String(), nickName: Type.String(), deptName: Type.String(), avatar: Type.String() })) },
      },
    },
    async (req) => {
      const info = await app.services.users.userInfo(req.user());
      return ok({ userId: info.userId, userName: info.userName, nickName: info.nickName, deptName: info.deptName, avatar: info.avatar });
    },
  );

  app.get(
    '/account/Clients',
    { schema: { tags, summary: '已授权的客户端', response: { 200: Envelope(Type.Array(MyClientSchema)) } } },
    async (req) => ok(await oauth.myClients(req.user())),
  );

  app.delete(
    '/account/Clients/:clientId',
    {
      schema: {
        tags,
        summary: '撤销客户端的授权',
        description: '该客户端持有的令牌随即失效（HTTP 401）。',
        params: ClientIdParamsSchema,
        response: { 200: Envelope(Type.Object({ revoked: Type.Integer() })) },
      },
    },
    async (req) => ok(await oauth.revokeClient(req.user(), req.params.clientId)),
  );

  app.get(
    '/Admin/Clients',
    { schema: { tags, summary: '登记的客户端', description: '仅系统管理员。', response: { 200: Envelope(Type.Array(ClientSchema)) } } },
    async (req) => {
      adminOnly(req);
      return ok(await oauth.clients());
    },
  );

  app.post(
    '/Admin/Clients',
    {
      schema: {
        tags,
        summary: '登记客户端',
        description: '回调地址须为 https、本机 http（127.0.0.1、localhost）或客户端自有协议，不能带 #。返回 clientId。仅系统管理员。',
        body: ClientBodySchema,
        response: { 200: Envelope(ClientSchema) },
      },
    },
    async (req) => {
      adminOnly(req);
      return ok(await oauth.registerClient(req.body));
    },
  );

  app.delete(
    '/Admin/Clients/:clientId',
    {
      schema: { tags, summary: '停用客户端', description: '它的授权码与令牌全部失效。仅系统管理员。', params: ClientIdParamsSchema, response: { 200: Envelope(Type.Null()) } },
    },
    async (req) => {
      adminOnly(req);
      await oauth.removeClient(req.params.clientId);
      return ok(null);
    },
  );
};
