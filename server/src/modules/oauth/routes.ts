// 云文档 client authorization calls (docs/integration.md, "Client authorization").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import type { UserRow } from '../../db/types';
import { assertSystemAdmin } from '../users/service';
import { validationMessage } from '../../plugins/envelope';
import { OAuthError, invalidRequest } from './errors';
import { ACCESS_TOKEN_TTL_MS, REFRESH_TOKEN_TTL_MS } from './service';
import {
  AuthorizeBodySchema,
  AuthorizeInfoSchema,
  AuthorizeRequestQuerySchema,
  AuthorizeResultSchema,
  ClientBodySchema,
  ClientIdParamsSchema,
  ClientSchema,
  MyClientSchema,
  OAuthErrorSchema,
  RevokeBodySchema,
  TokenBodySchema,
  TokenResultSchema,
} from './schemas';

/** Token responses must not be cached (RFC 6749 section 5.1). */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
}

/** Repeated parameters and schema faults are invalid_request (RFC 6749 section 3.2, 5.2). */
function checkParameters(req: FastifyRequest): void {
  const body = req.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const repeated = Object.entries(body).find(([, v]) => Array.isArray(v));
    if (repeated) throw invalidRequest(`参数 ${repeated[0].slice(0, 64)} 不能重复出现`);
  }
  const fault = req.validationError as (Error & { validation?: Parameters<typeof validationMessage>[0]; validationContext?: string }) | undefined;
  if (fault) throw invalidRequest(fault.validation ? validationMessage(fault.validation, fault.validationContext) : '请求参数不正确');
}

const BODY_FAULTS: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容不能为空',
  FST_ERR_CTP_INVALID_JSON_BODY: '请求内容不是合法的 JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '请求内容须为 application/x-www-form-urlencoded 或 application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: '请求内容过大',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求内容长度不正确',
};

/** Every fault of the token and revocation endpoints as `{ error, error_description }`. */
function oauthErrorHandler(error: FastifyError | OAuthError | Error, req: FastifyRequest, reply: FastifyReply) {
  noStore(reply).type('application/json; charset=utf-8');
  if (error instanceof OAuthError) {
    return reply.code(error.statusCode).headers(error.headers).send({ error: error.error, error_description: error.description });
  }
  const fe = error as FastifyError;
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return reply.code(400).send({ error: 'invalid_request', error_description: (fe.code && BODY_FAULTS[fe.code]) || '请求参数不正确' });
  }
  req.log.error({ err: error }, '云文档令牌接口未处理的错误');
  return reply.code(500).send({ error: 'server_error', error_description: '服务器内部错误，请稍后重试' });
}

export const oauthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const oauth = app.services.oauth;
  const tags = ['客户端授权'];
  // OAuth clients send the token request as a form (RFC 6749 section 4.1.3)
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    // a repeated parameter stays a list, which the token endpoint refuses
    const fields = new Map<string, string | string[]>();
    for (const [k, v] of new URLSearchParams(String(body))) {
      const had = fields.get(k);
      fields.set(k, had === undefined ? v : ([] as string[]).concat(had, v));
    }
    done(null, Object.fromEntries(fields));
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

  // The token and revocation endpoints answer as OAuth 2.0 requires (RFC 6749 section 5, RFC 7009),
  // not in the envelope: their faults, from body parsing and validation on, are OAuth errors.
  const oauthRoute = {
    config: { public: true },
    attachValidation: true,
    errorHandler: oauthErrorHandler,
  } as const;

  app.post(
    '/OAuth/Token',
    {
      ...oauthRoute,
      schema: {
        tags,
        summary: '换取或刷新客户端令牌',
        description:
          '客户端调用，遵循 OAuth 2.0（RFC 6749）：请求内容为表单（application/x-www-form-urlencoded）或 JSON，应答不使用 { code, result, message } 包装。' +
          'grant_type=authorization_code 时带 code、redirect_uri、client_id、code_verifier（授权码只能用一次）；' +
          'grant_type=refresh_token 时带 refresh_token（与 client_id）。' +
          `成功时 HTTP 200 返回 access_token（有效 ${ACCESS_TOKEN_TTL_MS / 3600000} 小时）、token_type=Bearer、expires_in、refresh_token（${REFRESH_TOKEN_TTL_MS / 86400000} 天内未使用即失效）与 scope。` +
          '每次刷新都返回新的刷新令牌，旧的随即作废；已作废的刷新令牌再次出现时，该次授权的全部令牌立即失效。' +
          '失败时 HTTP 400（客户端不存在或已停用时 401）返回 { error, error_description }。应答带 Cache-Control: no-store 与 Pragma: no-cache。' +
          '访问令牌放在 Authorization: Bearer 中使用，只能做授权范围内的事；用户可在个人设置中撤销授权，修改密码时授权随之失效。',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TokenBodySchema,
        response: { 200: TokenResultSchema, 400: OAuthErrorSchema, 401: OAuthErrorSchema },
      },
    },
    async (req, reply) => {
      checkParameters(req);
      const tokens = await oauth.token(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' });
      return noStore(reply).send(tokens);
    },
  );

  app.post(
    '/OAuth/Revoke',
    {
      ...oauthRoute,
      schema: {
        tags,
        summary: '撤销客户端令牌',
        description:
          '客户端调用，遵循 RFC 7009：请求内容为表单或 JSON，带 token、client_id（token_type_hint 可省略）。' +
          '撤销刷新令牌时该次授权的全部令牌一并失效；撤销访问令牌时只有它失效。令牌不存在或已失效时同样返回 HTTP 200（无内容）。' +
          '失败时 HTTP 400（客户端不存在或已停用时 401）返回 { error, error_description }。',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: RevokeBodySchema,
        response: { 200: Type.Null({ description: '无内容' }), 400: OAuthErrorSchema, 401: OAuthErrorSchema },
      },
    },
    async (req, reply) => {
      checkParameters(req);
      await oauth.revokeToken(req.body);
      return noStore(reply).code(200).send();
    },
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
    { schema: { tags, summary: '已授权的客户端', description: '授权仍有效（刷新令牌仍可使用）的客户端，按客户端合并。', response: { 200: Envelope(Type.Array(MyClientSchema)) } } },
    async (req) => ok(await oauth.myClients(req.user())),
  );

  app.delete(
    '/account/Clients/:clientId',
    {
      schema: {
        tags,
        summary: '撤销客户端的授权',
        description: '该客户端的访问令牌随即失效（HTTP 401），刷新令牌也不能再换取新令牌（invalid_grant）。',
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
