// 云文档 registration (docs/integration.md, "Registration").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { Paging } from '../../lib/paging';

export const PhoneQuerySchema = Type.Object({ phone: Type.String({ maxLength: 32, description: '手机号（中国大陆 11 位）' }) });

export const SendCodeResultSchema = Type.Object({
  resendAfter: Type.Integer({ description: '多少秒后可以再次发送' }),
  expiresIn: Type.Integer({ description: '验证码有效秒数' }),
});

export const RegisterBodySchema = Type.Object({
  phone: Type.String({ maxLength: 32 }),
  code: Type.String({ maxLength: 16, description: '短信验证码' }),
  userName: Type.String({ maxLength: 64, description: '登录用的用户名' }),
  nickName: Type.String({ maxLength: 64, description: '姓名' }),
  password: Type.String({ maxLength: 256, description: '须符合密码策略' }),
  department: Type.Optional(Type.String({ maxLength: 128, description: '所在部门（供管理员参考）' })),
  reason: Type.Optional(Type.String({ maxLength: 500, description: '申请理由' })),
});
export type RegisterBody = Static<typeof RegisterBodySchema>;

export const RegistrationSchema = Type.Object(
  {
    id: IdString(),
    phone: Type.String(),
    userName: Type.String(),
    nickName: Type.String(),
    department: Type.String(),
    reason: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
    createdAt: Type.String(),
    decidedAt: Type.Union([Type.String(), Type.Null()]),
    decisionNote: Type.String(),
    userId: Type.Union([IdString(), Type.Null()], { description: '批准后建立的账号' }),
  },
  { title: '注册申请' },
);
export type Registration = Static<typeof RegistrationSchema>;

export const RegistrationsQuerySchema = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')])),
  ...Paging(50, 1000),
});

export const RegistrationIdParamsSchema = Type.Object({ id: IdString('申请 id') });
export const ApproveBodySchema = Type.Object({
  deptId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '账号放入的部门，为空时放在根部门' })),
});
export const RejectBodySchema = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500, description: '驳回理由，会告诉申请人' }) });

export const SmsMessageSchema = Type.Object({ phone: Type.String(), text: Type.String(), createdAt: Type.String() }, { title: '短信记录' });
