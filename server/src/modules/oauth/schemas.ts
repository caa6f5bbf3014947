// 云文档 client authorization: OAuth 2.0 authorization code with PKCE (RFC 6749, RFC 7636).
import { Type, type Static } from 'typebox';

export const AuthorizeRequestQuerySchema = Type.Object({
  request: Type.String({ maxLength: 4096, description: '登录地址中 authorize= 的值：client_id、redirect_uri、scope、state、code_challenge、code_challenge_method=S256 组成的查询串' }),
});

export const AuthorizeInfoSchema = Type.Object(
  {
    clientId: Type.String(),
    clientName: Type.String(),
    redirectUri: Type.String(),
    scopes: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
  },
  { title: '授权请求' },
);
export type AuthorizeInfo = Static<typeof AuthorizeInfoSchema>;

export const AuthorizeBodySchema = Type.Object({
  request: Type.String({ maxLength: 4096 }),
  approve: Type.Boolean({ description: 'true 授权，false 拒绝' }),
});
export const AuthorizeResultSchema = Type.Object({
  redirectTo: Type.String({ description: '浏览器接着前往的客户端地址（带 code 与 state，或 error=access_denied）' }),
});

// The token and revocation endpoints speak OAuth 2.0 itself (RFC 6749, RFC 7009), outside the
// envelope. Their bodies are checked in the route, so that every fault comes out as an OAuth error.
export const TokenBodySchema = Type.Object(
  {
    grant_type: Type.String({ maxLength: 64, description: 'authorization_code 或 refresh_token' }),
    code: Type.Optional(Type.String({ maxLength: 512, description: 'authorization_code 时必填：回调地址上的授权码' })),
    redirect_uri: Type.Optional(Type.String({ maxLength: 2048, description: 'authorization_code 时必填：与授权请求相同的回调地址' })),
    client_id: Type.Optional(Type.String({ maxLength: 128, description: 'authorization_code 时必填；refresh_token 时建议带上，须与令牌所属客户端一致' })),
    code_verifier: Type.Optional(Type.String({ maxLength: 256, description: 'authorization_code 时必填：PKCE 的 code_verifier' })),
    refresh_token: Type.Optional(Type.String({ maxLength: 512, description: 'refresh_token 时必填' })),
    scope: Type.Optional(Type.String({ maxLength: 256, description: 'refresh_token 时可选：只要原授权范围中的一部分' })),
  },
  { title: '令牌请求' },
);
export type TokenBody = Static<typeof TokenBodySchema>;
export const TokenResultSchema = Type.Object(
  {
    access_token: Type.String({ description: '访问令牌：放在 Authorization: Bearer 中使用' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: '访问令牌的剩余有效秒数（3600）' }),
    refresh_token: Type.String({ description: '刷新令牌：只能使用一次，每次刷新都会返回新的刷新令牌' }),
    scope: Type.String({ description: '访问令牌的授权范围，空格分隔' }),
  },
  { title: '令牌' },
);
export type TokenResult = Static<typeof TokenResultSchema>;

export const RevokeBodySchema = Type.Object(
  {
    token: Type.String({ maxLength: 512, description: '要撤销的访问令牌或刷新令牌' }),
    token_type_hint: Type.Optional(Type.String({ maxLength: 64, description: 'access_token 或 refresh_token（可省略）' })),
    client_id: Type.String({ maxLength: 128 }),
  },
  { title: '撤销令牌请求' },
);
export type RevokeBody = Static<typeof RevokeBodySchema>;

export const OAuthErrorSchema = Type.Object(
  {
    error: Type.String({
      description: 'invalid_request、invalid_client（HTTP 401）、invalid_grant、unauthorized_client、unsupported_grant_type、invalid_scope 之一（RFC 6749 第 5.2 节）',
    }),
    error_description: Type.String({ description: '中文说明' }),
  },
  { title: 'OAuth 错误' },
);

export const ClientBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64, description: '授权页上显示的客户端名称' }),
  redirectUris: Type.Array(Type.String({ maxLength: 2048 }), { minItems: 1, maxItems: 10, description: '完整的回调地址，授权时逐字比较' }),
});
export const ClientSchema = Type.Object(
  { clientId: Type.String(), name: Type.String(), redirectUris: Type.Array(Type.String()), createdAt: Type.String() },
  { title: '客户端' },
);

export const MyClientSchema = Type.Object(
  {
    clientId: Type.String(),
    name: Type.String(),
    scopes: Type.Array(Type.String({ description: '授权范围的说明' })),
    authorizedAt: Type.String({ description: '最近一次授权的时间' }),
    lastUsedAt: Type.String(),
  },
  { title: '已授权的客户端' },
);
export const ClientIdParamsSchema = Type.Object({ clientId: Type.String({ maxLength: 128 }) });
