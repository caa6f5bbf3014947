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
    isAdmin: Type.Boolean({ description: '系统管理员（可进入系统管理）' }),
    isDeptAdmin: Type.Boolean({ description: '部门管理员（可进入系统管理，管理其部门中的人）' }),
    isAuditAdmin: Type.Boolean({ description: '审计管理员（可查看管理日志）' }),
    jwtId: Type.String({ description: '同时写入 Cookie token' }),
    showGuide: Type.Boolean({ description: '首次登录时为 true' }),
    passwordReset: Type.Boolean(),
    totpBind: Type.Boolean(),
    totpCode: Type.Boolean(),
  },
  { title: '登录结果' },
);
export type LoginResult = Static<typeof LoginResultSchema>;

export const LoginStepResultSchema = Type.Object(
  {
    userName: Type.String(),
    nickName: Type.String(),
    passwordReset: Type.Boolean({ description: 'true：须先设置新密码（POST /api/login/ResetPassword）' }),
    totpBind: Type.Boolean({ description: 'true：须先绑定动态口令（POST /api/login/TotpBind）' }),
    totpCode: Type.Boolean({ description: 'true：须输入动态口令（POST /api/login/TotpCode）' }),
    actionToken: Type.String({ description: '下一步调用时带上；10 分钟内有效，只能用一次' }),
    message: Type.Optional(Type.String({ description: '须修改密码的原因' })),
    totpUri: Type.Optional(Type.String({ description: 'otpauth:// 地址，生成二维码供身份验证器扫描' })),
    totpSecret: Type.Optional(Type.String({ description: '手动输入身份验证器的密钥（Base32）' })),
  },
  { title: '登录的下一步' },
);
export type LoginStepResult = Static<typeof LoginStepResultSchema>;

/** What POST /api/login and each second step answer. */
export const LoginAnswerSchema = Type.Union([LoginResultSchema, LoginStepResultSchema]);

export const ResetPasswordBodySchema = Type.Object({
  actionToken: Type.String({ minLength: 1, maxLength: 512 }),
  password: Type.String({ minLength: 1, maxLength: 256, description: '新密码，须符合密码策略' }),
});

export const TotpBodySchema = Type.Object({
  actionToken: Type.String({ minLength: 1, maxLength: 512 }),
  code: Type.String({ minLength: 1, maxLength: 16, description: '身份验证器上的 6 位动态口令' }),
});

export const ChangePasswordBodySchema = Type.Object({
  oldPassword: Type.String({ minLength: 1, maxLength: 256 }),
  newPassword: Type.String({ minLength: 1, maxLength: 256, description: '须符合密码策略，且不能与最近用过的密码相同' }),
});
export const ChangePasswordResultSchema = Type.Object({ revoked: Type.Integer({ description: '随之结束的其他会话数' }) });

export const QuitResultSchema = Type.Null();
