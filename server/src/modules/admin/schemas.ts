// 云文档 administration (admin only; others get HTTP 403 with code 40301).
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

export const CreateUserBodySchema = Type.Object({
  userName: Type.String({ minLength: 1, maxLength: 64, description: '用户名（不区分大小写，唯一）' }),
  nickName: Type.String({ maxLength: 64, description: '昵称，为空时与用户名相同' }),
  password: Type.String({ minLength: 1, maxLength: 256, description: '须符合密码策略' }),
  deptId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '部门 id，为空时放在根部门' })),
  isDocAdmin: Type.Optional(Type.Boolean()),
  isFlowAdmin: Type.Optional(Type.Boolean()),
  isTagAdmin: Type.Optional(Type.Boolean()),
});
export type CreateUserBody = Static<typeof CreateUserBodySchema>;

export const CreateUserResultSchema = Type.Object({ userId: IdString() });

export const UserIdParamsSchema = Type.Object({ userId: IdString('用户 id') });

export const DisableResultSchema = Type.Object({ userId: IdString() });

export const RevokeResultSchema = Type.Object({ revoked: Type.Integer({ description: '被撤销的会话数' }) });
