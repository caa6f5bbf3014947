// 云文档 account calls of the signed-in user (docs/integration.md, "Account").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

export const SecuritySchema = Type.Object(
  {
    totpBound: Type.Boolean({ description: '已绑定动态口令' }),
    totpRequired: Type.Boolean({ description: '管理员要求使用动态口令（此时不能解除绑定）' }),
    passwordChangedAt: Type.String({ description: '密码最近一次修改的时间' }),
    passwordExpiresAt: Type.Union([Type.String(), Type.Null()], { description: '密码到期时间；策略不限期时为 null' }),
    passwordElsewhere: Type.Union([Type.String(), Type.Null()], {
      description: '密码不在本系统修改时的说明（目录 LDAP 账号、钉钉同步且无本地密码的账号）；可以修改时为 null',
    }),
  },
  { title: '账号安全' },
);
export type Security = Static<typeof SecuritySchema>;

export const TotpSetupSchema = Type.Object(
  {
    actionToken: Type.String({ description: '确认绑定时带上；10 分钟内有效' }),
    totpUri: Type.String(),
    totpSecret: Type.String(),
  },
  { title: '动态口令绑定' },
);

export const TotpConfirmBodySchema = Type.Object({
  actionToken: Type.String({ minLength: 1, maxLength: 512 }),
  code: Type.String({ minLength: 1, maxLength: 16 }),
});
export const TotpRemoveBodySchema = Type.Object({ code: Type.String({ minLength: 1, maxLength: 16, description: '当前的动态口令' }) });

export const MySessionSchema = Type.Object(
  {
    id: IdString(),
    current: Type.Boolean({ description: '发出本次请求的会话' }),
    createdAt: Type.String({ description: '登录时间' }),
    lastSeenAt: Type.String({ description: '最近使用时间' }),
    ip: Type.String(),
    device: Type.String({ description: '由 User-Agent 得出的浏览器与系统' }),
  },
  { title: '我的会话' },
);
export type MySession = Static<typeof MySessionSchema>;

export const SessionIdParamsSchema = Type.Object({ id: IdString('会话 id') });
export const UserIdParamsSchema = Type.Object({ userId: IdString('用户 id') });
export const AvatarResultSchema = Type.Object({ avatar: Type.String({ description: '新头像的地址' }) });
