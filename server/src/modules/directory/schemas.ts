// 云文档 目录同步 (system administrators): LDAP/AD settings, 测试连接, 钉钉通讯录同步 settings, runs (plan, apply).
import { Type } from 'typebox';

const Attr = (description: string) => Type.String({ maxLength: 64, description });

export const LdapSettingsBodySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: '启用 LDAP 同步与目录登录' })),
    url: Type.Optional(Type.String({ maxLength: 500, description: 'ldap://主机:端口 或 ldaps://主机:端口' })),
    startTls: Type.Optional(Type.Boolean({ description: 'ldap:// 连接后用 StartTLS 加密' })),
    tlsVerify: Type.Optional(Type.Boolean({ description: '校验服务器证书（默认 true）' })),
    bindDn: Type.Optional(Type.String({ maxLength: 500, description: '绑定（服务）账号的 DN' })),
    bindPassword: Type.Optional(Type.String({ maxLength: 500, description: '绑定密码：加密保存，不会返回；不给出时保持原值，空字符串为清除' })),
    baseDn: Type.Optional(Type.String({ maxLength: 500, description: '基准 DN：在其下查找用户；部门取其下的 OU' })),
    userFilter: Type.Optional(Type.String({ maxLength: 1000, description: '用户筛选条件，如 (objectClass=inetOrgPerson)' })),
    groupFilter: Type.Optional(Type.String({ maxLength: 1000, description: '用户组筛选条件，如 (objectClass=groupOfNames)；为空时不同步用户组' })),
    groupBaseDn: Type.Optional(Type.String({ maxLength: 500, description: '在其下查找用户组（为空时同基准 DN）' })),
    groupNameAttribute: Type.Optional(Attr('用户组名称属性（如 cn）')),
    groupMemberAttribute: Type.Optional(Attr('成员属性（值为成员的 DN，如 member）')),
    attributes: Type.Optional(
      Type.Object({
        userName: Type.Optional(Attr('用户名属性（如 uid、sAMAccountName）')),
        displayName: Type.Optional(Attr('显示名属性（如 cn、displayName）')),
        mail: Type.Optional(Attr('邮箱属性')),
        mobile: Type.Optional(Attr('手机属性')),
        employeeNo: Type.Optional(Attr('工号属性')),
      }),
    ),
    departmentsFrom: Type.Optional(Type.Union([Type.Literal('ou'), Type.Literal('attribute')], { description: 'ou：按 OU 层级；attribute：按部门属性中的路径（如 研发中心/前端组）' })),
    departmentAttribute: Type.Optional(Attr('部门属性')),
    intervalMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 10080, description: '自动同步间隔（分钟，0 为不自动同步，默认 60）' })),
    maxDisablePercent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: '一次同步停用的人数超过已同步用户的这个比例时不应用（默认 10）' })),
  },
  { title: 'LDAP 设置' },
);

// one schema with a type list: in a union Ajv's type coercion would read null as 0
const RootDeptField = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  description: '从哪个钉钉部门同步（该部门及其下级部门的成员，部门路径仍从组织起算）；null 或 1 为整个组织（默认）',
} as never);

export const DingtalkSyncBodySchema = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: '自动同步：按间隔定时同步并直接应用（钉钉没有返回任何用户或停用人数超过上限时不应用）；需已配置钉钉' })),
    intervalMinutes: Type.Optional(Type.Integer({ description: '自动同步间隔（分钟，5–10080，默认 60）' })),
    maxDisablePercent: Type.Optional(Type.Number({ description: '一次同步停用的人数超过已同步用户的这个比例（0–100）时不应用（默认 10）' })),
    rootDeptId: Type.Optional(RootDeptField),
  },
  { title: '钉钉通讯录同步设置' },
);

export const DingtalkSyncSchema = Type.Object(
  {
    configured: Type.Boolean({ description: '已配置钉钉（DINGTALK_APP_KEY、DINGTALK_APP_SECRET）；未配置时不能同步' }),
    appKey: Type.String({ description: '钉钉应用的 AppKey（未配置时为空）；AppSecret 不会返回' }),
    enabled: Type.Boolean({ description: '自动同步' }),
    intervalMinutes: Type.Integer({ description: '自动同步间隔（分钟）' }),
    maxDisablePercent: Type.Number({ description: '停用比例上限（%）' }),
    rootDeptId: Type.Union([Type.Integer(), Type.Null()], { description: '根部门 ID；null 为整个组织' }),
  },
  { title: '钉钉通讯录同步设置（含是否已配置）' },
);

const Summary = Type.Unknown({ description: '同步计划：total、adds、updates、moves、disables、unchanged、conflicts、departmentsToCreate、samples、refused' });

export const RunSchema = Type.Object(
  {
    id: Type.String(),
    source: Type.Union([Type.Literal('ldap'), Type.Literal('dingtalk')]),
    trigger: Type.Union([Type.Literal('manual'), Type.Literal('schedule')]),
    status: Type.Union([Type.Literal('planned'), Type.Literal('applied'), Type.Literal('refused'), Type.Literal('failed')], {
      description: 'planned 待应用；applied 已应用；refused 因安全规则未应用；failed 失败',
    }),
    startedAt: Type.Number(),
    finishedAt: Type.Union([Type.Number(), Type.Null()]),
    summary: Type.Union([Summary, Type.Null()]),
    error: Type.String(),
  },
  { title: '同步记录' },
);

export const RunIdParamsSchema = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,18}$' }) });
export const SourceQuerySchema = Type.Object({
  source: Type.Optional(Type.Union([Type.Literal('ldap'), Type.Literal('dingtalk'), Type.Literal('all')], { description: 'ldap（默认）、dingtalk，或 all 为全部来源' })),
});
