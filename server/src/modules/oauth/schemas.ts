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

export const TokenBodySchema = Type.Object({
  grant_type: Type.String(),
  code: Type.String({ maxLength: 512 }),
  redirect_uri: Type.String({ maxLength: 2048 }),
  client_id: Type.String({ maxLength: 128 }),
  code_verifier: Type.String({ maxLength: 256 }),
});
export type TokenBody = Static<typeof TokenBodySchema>;
export const TokenResultSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  scope: Type.String(),
});

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
