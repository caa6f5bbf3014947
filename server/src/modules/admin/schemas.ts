// 云文档 administration (admin only; others get HTTP 403 with code 40301).
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { Paging } from '../../lib/paging';

export const CreateUserBodySchema = Type.Object({
  userName: Type.String({ minLength: 1, maxLength: 64, description: '用户名（不区分大小写，唯一）' }),
  nickName: Type.String({ maxLength: 64, description: '昵称，为空时与用户名相同' }),
  password: Type.String({ minLength: 1, maxLength: 256, description: '须符合密码策略' }),
  deptId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '部门 id，为空时放在根部门' })),
  isDocAdmin: Type.Optional(Type.Boolean()),
  isFlowAdmin: Type.Optional(Type.Boolean()),
  isTagAdmin: Type.Optional(Type.Boolean()),
  mustChangePassword: Type.Optional(Type.Boolean({ description: '首次登录须修改密码（默认 true）' })),
});
export type CreateUserBody = Static<typeof CreateUserBodySchema>;

export const CreateUserResultSchema = Type.Object({ userId: IdString() });

export const UserIdParamsSchema = Type.Object({ userId: IdString('用户 id') });

export const DisableResultSchema = Type.Object({ userId: IdString() });

export const RevokeResultSchema = Type.Object({ revoked: Type.Integer({ description: '被撤销的会话数' }) });

export const EnableResultSchema = Type.Object({ userId: IdString() });

export const UpdateUserBodySchema = Type.Object({
  nickName: Type.Optional(Type.String({ maxLength: 64, description: '昵称，为空时与用户名相同' })),
  deptId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '部门 id，为 null 时放在根部门' })),
  isDocAdmin: Type.Optional(Type.Boolean()),
  isFlowAdmin: Type.Optional(Type.Boolean()),
  isTagAdmin: Type.Optional(Type.Boolean()),
});
export type UpdateUserBody = Static<typeof UpdateUserBodySchema>;

export const AdminUserSchema = Type.Object(
  {
    userId: IdString(),
    userName: Type.String(),
    nickName: Type.String(),
    deptId: Type.Union([IdString(), Type.Null()]),
    isDocAdmin: Type.Boolean(),
    isFlowAdmin: Type.Boolean(),
    isTagAdmin: Type.Boolean(),
    disabled: Type.Boolean(),
    totpRequired: Type.Boolean({ description: '管理员要求该用户使用动态口令' }),
    totpBound: Type.Boolean({ description: '已绑定动态口令' }),
    mustChangePassword: Type.Boolean({ description: '下次登录须修改密码' }),
  },
  { title: '用户（管理）' },
);
export type AdminUser = Static<typeof AdminUserSchema>;

export const AdminUsersQuerySchema = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 100, description: '用户名或昵称中的文字' })),
  ...Paging(20, 200),
});
export type AdminUsersQuery = Static<typeof AdminUsersQuerySchema>;

export const ResetPasswordBodySchema = Type.Object({
  password: Type.String({ minLength: 1, maxLength: 256, description: '新密码，须符合密码策略' }),
  mustChangePassword: Type.Optional(Type.Boolean({ description: '下次登录须修改密码（默认 true）' })),
});

export const UserTotpBodySchema = Type.Object({
  required: Type.Boolean({ description: '该用户登录须输入动态口令' }),
});
export type UserTotpBody = Static<typeof UserTotpBodySchema>;
export type ResetPasswordBody = Static<typeof ResetPasswordBodySchema>;

export const ResetPasswordResultSchema = Type.Object({
  userId: IdString(),
  revoked: Type.Integer({ description: '被撤销的会话数' }),
});

export const DeptIdParamsSchema = Type.Object({ id: IdString('部门 id') });

export const CreateDepartmentBodySchema = Type.Object({
  name: Type.String({ maxLength: 256, description: '部门名称：去掉首尾空白后 1–64 个字符' }),
  parentId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '上级部门 id，为空时放在根部门下' })),
});
export type CreateDepartmentBody = Static<typeof CreateDepartmentBodySchema>;

export const UpdateDepartmentBodySchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 256, description: '新名称' })),
  parentId: Type.Optional(IdString('新的上级部门 id（连同全部下级部门一起移动）')),
  leaderId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '部门负责人的用户 id（审批中的“部门负责人”）；null 为不设负责人' })),
});
export type UpdateDepartmentBody = Static<typeof UpdateDepartmentBodySchema>;

export const DeletedResultSchema = Type.Object({ id: IdString() });

export const GroupBodySchema = Type.Object({
  name: Type.String({ maxLength: 256, description: '用户组名称：去掉首尾空白后 1–64 个字符，唯一' }),
});
export type GroupBody = Static<typeof GroupBodySchema>;

export const GroupMembersBodySchema = Type.Object({
  userIds: Type.Array(IdString(), { maxItems: 10000, description: '全部成员的用户 id（替换原有成员）' }),
});
export type GroupMembersBody = Static<typeof GroupMembersBodySchema>;
