// 云文档 sign-in and sign-out (api-contract.md, "Authentication").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

export const LoginBodySchema = Type.Object({
  userName: Type.String({ minLength: 1, maxLength: 128, description: '用户名' }),
  password: Type.String({ minLength: 1, maxLength: 256, description: '密码' }),
  mode: Type.Optional(Type.String({ description: '登录方式，目前只有 password' })),
});
export type LoginBody = Static<typeof LoginBodySchema>;

export const LoginResultSchema = Type.Object(
  {
    userId: IdString(),
    userName: Type.String(),
    nickName: Type.String(),
    avatar: Type.String(),
    deptName: Type.String(),
    token: Type.String({ description: '放在 Authorization: Bearer 中' }),
    isTagAdmin: Type.Boolean(),
    isDocAdmin: Type.Boolean(),
    isLdapUser: Type.Boolean(),
    allowBackendLogin: Type.Boolean(),
    allowRepositoryLogin: Type.Boolean(),
    isFlowAdmin: Type.Boolean(),
    jwtId: Type.String({ description: '同时写入 Cookie token' }),
    showGuide: Type.Boolean({ description: '首次登录时为 true' }),
    passwordReset: Type.Boolean(),
    totpBind: Type.Boolean(),
    totpCode: Type.Boolean(),
  },
  { title: '登录结果' },
);
export type LoginResult = Static<typeof LoginResultSchema>;

export const QuitResultSchema = Type.Null();
