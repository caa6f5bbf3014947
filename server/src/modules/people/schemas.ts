// 云文档 people administration: users, departments and their administrators, roles, the
// feature switches and quotas of departments and people, and the record of administrators'
// actions (docs/integration.md, "Organisation administration").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { Paging } from '../../lib/paging';

export const ROLES = ['admin', 'docAdmin', 'tagAdmin', 'flowAdmin', 'auditAdmin'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABELS: Record<Role, string> = {
  admin: '系统管理员',
  docAdmin: '文档管理员',
  tagAdmin: '标签管理员',
  flowAdmin: '流程管理员',
  auditAdmin: '审计管理员',
};
export const SOURCES = ['local', 'ldap', 'dingtalk'] as const;
export type Source = (typeof SOURCES)[number];

const RoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('docAdmin'), Type.Literal('tagAdmin'), Type.Literal('flowAdmin'), Type.Literal('auditAdmin')], { description: 'admin 系统管理员、docAdmin 文档管理员、tagAdmin 标签管理员、flowAdmin 流程管理员、auditAdmin 审计管理员' });
const SourceSchema = Type.Union([Type.Literal('local'), Type.Literal('ldap'), Type.Literal('dingtalk')], { description: 'local 本地、ldap 目录同步、dingtalk 钉钉同步' });
const Bytes = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
// one schema with two types: in a union Ajv's type coercion would read null as 0 (unlimited)
const QuotaField = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: '个人空间配额（字节，0 为不限）；null 为沿用部门或默认配额',
} as never);

const UserRefSchema = Type.Object({ userId: IdString(), userName: Type.String(), nickName: Type.String() }, { title: '用户（简要）' });
export type UserRef = Static<typeof UserRefSchema>;

export const AdminUserSchema = Type.Object(
  {
    userId: IdString(),
    userName: Type.String(),
    nickName: Type.String(),
    deptId: Type.Union([IdString(), Type.Null()]),
    deptName: Type.String({ description: '从根部门起的部门名称，以 / 分隔' }),
    mobile: Type.String(),
    email: Type.String(),
    employeeNo: Type.String({ description: '工号' }),
    source: SourceSchema,
    roles: Type.Array(RoleSchema),
    adminOf: Type.Array(Type.Object({ id: IdString(), name: Type.String() }), { description: '担任部门管理员的部门' }),
    isDocAdmin: Type.Boolean(),
    isFlowAdmin: Type.Boolean(),
    isTagAdmin: Type.Boolean(),
    disabled: Type.Boolean(),
    locked: Type.Boolean({ description: '密码错误次数过多，登录被暂时锁定' }),
    totpRequired: Type.Boolean({ description: '管理员要求该用户使用动态口令' }),
    totpBound: Type.Boolean({ description: '已绑定动态口令' }),
    mustChangePassword: Type.Boolean({ description: '下次登录须修改密码' }),
    quota: QuotaField,
    effectiveQuota: Bytes('生效的配额（字节，0 为不限）'),
    used: Bytes('个人空间已用（字节，含回收站）'),
    lastLoginAt: Type.Union([Type.Number(), Type.Null()]),
    createdAt: Type.Number(),
  },
  { title: '用户（管理）' },
);
export type AdminUser = Static<typeof AdminUserSchema>;

export const AdminUsersQuerySchema = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 100, description: '用户名、昵称、工号、手机或邮箱中的文字' })),
  deptId: Type.Optional(Type.Union([IdString('部门 id：默认含其全部下级部门'), Type.Literal('')])),
  directOnly: Type.Optional(Type.Boolean({ description: 'true：只列出直属该部门的人' })),
  status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled'), Type.Literal('locked'), Type.Literal('')])),
  role: Type.Optional(Type.Union([RoleSchema, Type.Literal('deptAdmin'), Type.Literal('')])),
  source: Type.Optional(Type.Union([SourceSchema, Type.Literal('')])),
  ...Paging(20, 200),
});
export type AdminUsersQuery = Static<typeof AdminUsersQuerySchema>;

export const AdminUserPageSchema = Type.Object({ data: Type.Array(AdminUserSchema), total: Type.Integer() });

const Mobile = Type.String({ maxLength: 32, description: '手机号（中国大陆 11 位，可为空）' });
const Email = Type.String({ maxLength: 254, description: '邮箱（可为空）' });
const EmployeeNo = Type.String({ maxLength: 64, description: '工号（可为空，非空时唯一）' });

export const CreateUserBodySchema = Type.Object({
  userName: Type.String({ minLength: 1, maxLength: 64, description: '用户名（不区分大小写，唯一）' }),
  nickName: Type.Optional(Type.String({ maxLength: 64, description: '昵称，为空时与用户名相同' })),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: '须符合密码策略；不给出时生成一个，只在本次返回' })),
  deptId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '部门 id，为空时放在根部门' })),
  mobile: Type.Optional(Mobile),
  email: Type.Optional(Email),
  employeeNo: Type.Optional(EmployeeNo),
  roles: Type.Optional(Type.Array(RoleSchema, { maxItems: 5 })),
  quota: Type.Optional(QuotaField),
  isDocAdmin: Type.Optional(Type.Boolean()),
  isFlowAdmin: Type.Optional(Type.Boolean()),
  isTagAdmin: Type.Optional(Type.Boolean()),
  mustChangePassword: Type.Optional(Type.Boolean({ description: '首次登录须修改密码（默认 true）' })),
});
export type CreateUserBody = Static<typeof CreateUserBodySchema>;

export const CreateUserResultSchema = Type.Object({
  userId: IdString(),
  initialPassword: Type.Optional(Type.String({ description: '生成的初始密码：只在这一次返回，不保存明文' })),
});

export const UpdateUserBodySchema = Type.Object({
  nickName: Type.Optional(Type.String({ maxLength: 64, description: '昵称，为空时与用户名相同' })),
  deptId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '部门 id，为 null 时放在根部门' })),
  mobile: Type.Optional(Mobile),
  email: Type.Optional(Email),
  employeeNo: Type.Optional(EmployeeNo),
  roles: Type.Optional(Type.Array(RoleSchema, { maxItems: 5, description: '全部角色（替换原有角色）' })),
  quota: Type.Optional(QuotaField),
  isDocAdmin: Type.Optional(Type.Boolean()),
  isFlowAdmin: Type.Optional(Type.Boolean()),
  isTagAdmin: Type.Optional(Type.Boolean()),
});
export type UpdateUserBody = Static<typeof UpdateUserBodySchema>;

export const UserIdParamsSchema = Type.Object({ userId: IdString('用户 id') });
export const UserIdResultSchema = Type.Object({ userId: IdString() });
export const RevokeResultSchema = Type.Object({ revoked: Type.Integer({ description: '被撤销的会话数' }) });

export const ResetPasswordBodySchema = Type.Object({
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: '新密码，须符合密码策略；不给出时生成一个，只在本次返回' })),
  mustChangePassword: Type.Optional(Type.Boolean({ description: '下次登录须修改密码（默认 true）' })),
});
export type ResetPasswordBody = Static<typeof ResetPasswordBodySchema>;
export const ResetPasswordResultSchema = Type.Object({
  userId: IdString(),
  revoked: Type.Integer({ description: '被撤销的会话数' }),
  initialPassword: Type.Optional(Type.String({ description: '生成的新密码：只在这一次返回' })),
});

export const UserTotpBodySchema = Type.Object({ required: Type.Boolean({ description: '该用户登录须输入动态口令' }) });
export type UserTotpBody = Static<typeof UserTotpBodySchema>;

// an enum without a type: Ajv's type coercion would read null as false
const Switch = Type.Unsafe<boolean | null>({ enum: [true, false, null], description: 'true 开启、false 关闭、null 沿用上一级' } as never);
export const FeatureOverrideSchema = Type.Object(
  { personalSpace: Switch, publicSpace: Switch, workflow: Switch, ferrySpaces: Switch },
  { title: '功能策略（覆盖）' },
);
const PolicySchema = Type.Object({ personalSpace: Type.Boolean(), publicSpace: Type.Boolean(), workflow: Type.Boolean(), ferrySpaces: Type.Boolean() });
export const EffectivePolicySchema = Type.Object(
  {
    own: FeatureOverrideSchema,
    effective: PolicySchema,
    source: Type.Object({ personalSpace: Type.String(), publicSpace: Type.String(), workflow: Type.String(), ferrySpaces: Type.String() }, { description: '全局、部门：名称 或 个人' }),
  },
  { title: '生效的功能策略' },
);

export const ScopeSchema = Type.Object(
  {
    system: Type.Boolean({ description: '系统管理员：可管理全部' }),
    roles: Type.Array(RoleSchema, { description: '调用者拥有（因而可以授予）的角色' }),
    departments: Type.Array(Type.Object({ id: IdString(), name: Type.String(), path: Type.String() }), { description: '部门管理员管理的部门（含下级）' }),
  },
  { title: '管理范围' },
);

export const AdminDepartmentNodeSchema = Type.Object(
  {
    id: IdString(),
    parentId: Type.Union([IdString(), Type.Null()]),
    name: Type.String(),
    path: Type.String(),
    leader: Type.Union([UserRefSchema, Type.Null()]),
    admins: Type.Array(UserRefSchema),
    userCount: Type.Integer({ description: '直属本部门的人数（含已停用）' }),
    quota: QuotaField,
    featurePolicy: FeatureOverrideSchema,
    manageable: Type.Boolean(),
    children: Type.Array(Type.Unknown(), { description: '下级部门（结构同本节点）' }),
  },
  { title: '部门（管理）' },
);

export const DeptIdParamsSchema = Type.Object({ id: IdString('部门 id') });

export const CreateDepartmentBodySchema = Type.Object({
  name: Type.String({ maxLength: 256, description: '部门名称：去掉首尾空白后 1–64 个字符' }),
  parentId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '上级部门 id，为空时放在根部门下' })),
});
export type CreateDepartmentBody = Static<typeof CreateDepartmentBodySchema>;

export const UpdateDepartmentBodySchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 256, description: '新名称' })),
  parentId: Type.Optional(IdString('新的上级部门 id（连同全部下级部门和人员一起移动）')),
  leaderId: Type.Optional(Type.Union([IdString(), Type.Null()], { description: '部门负责人的用户 id（审批中的“部门负责人”）；null 为不设负责人' })),
  quota: Type.Optional(QuotaField),
});
export type UpdateDepartmentBody = Static<typeof UpdateDepartmentBodySchema>;

export const DepartmentSchema = Type.Object(
  {
    id: IdString(),
    parentId: Type.Union([IdString(), Type.Null()]),
    name: Type.String(),
    path: Type.String({ description: '从根部门到本部门的 id，以 / 分隔' }),
    leaderId: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: '部门负责人的用户 id' })),
  },
  { title: '部门（不含下级）' },
);

export const DepartmentAdminsBodySchema = Type.Object({
  userIds: Type.Array(IdString(), { maxItems: 100, description: '本部门全部管理员的用户 id（替换原有）' }),
});
export type DepartmentAdminsBody = Static<typeof DepartmentAdminsBodySchema>;

export const DeletedResultSchema = Type.Object({ id: IdString() });

export const AdminActionSchema = Type.Object(
  {
    id: IdString(),
    at: Type.Number(),
    actorId: IdString(),
    actorName: Type.String(),
    action: Type.String(),
    targetType: Type.String(),
    targetId: Type.String(),
    targetName: Type.String(),
    detail: Type.String(),
  },
  { title: '管理操作记录' },
);
export const ActionsQuerySchema = Type.Object({ ...Paging(20, 200) });
export type ActionsQuery = Static<typeof ActionsQuerySchema>;
export const ActionPageSchema = Type.Object({ data: Type.Array(AdminActionSchema), total: Type.Integer() });
