// 云文档 approvals (api-contract.md, "Approvals"; shared/src/api/types.ts, "Approvals").
import { Type, type Static } from 'typebox';
import { IdString, Nullable } from '../../lib/schema';
import { PagingFilled } from '../../lib/paging';

export const MAX_STEPS = 20;
export const MAX_FIELDS = 50;
export const MAX_RULES = 50;
export const TITLE_MAX = 100;
export const COMMENT_MAX = 1000;
export const FIELD_TEXT_MAX = 2000;

const RuleType = Type.Union(
  [Type.Literal('user'), Type.Literal('deptLeader'), Type.Literal('deptMembers'), Type.Literal('groupMembers'), Type.Literal('initiatorLeader'), Type.Literal('initiatorChoice')],
  {
    description:
      'user 指定成员，deptLeader 部门负责人，deptMembers 部门成员（含下级部门），groupMembers 用户组成员，initiatorLeader 发起人的部门负责人，initiatorChoice 发起人自选',
  },
);

export const ApproverRuleSchema = Type.Object(
  {
    type: RuleType,
    id: Type.Optional(IdString('用户、部门或用户组的 id（initiatorLeader、initiatorChoice 不需要）')),
    name: Type.Optional(Type.String({ maxLength: 200, description: '名称（由服务端填写，提交时忽略）' })),
  },
  { title: '审批人规则' },
);
export type ApproverRule = Static<typeof ApproverRuleSchema>;

export const FieldDefSchema = Type.Object(
  {
    key: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,31}$', description: '字段标识：字母、数字或下划线，以字母或下划线开头' }),
    label: Type.String({ minLength: 1, maxLength: 50 }),
    type: Type.Union([Type.Literal('text'), Type.Literal('textarea'), Type.Literal('number'), Type.Literal('date'), Type.Literal('select')]),
    required: Type.Boolean(),
    options: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50, description: 'select 的选项' })),
  },
  { title: '表单字段' },
);
export type FieldDef = Static<typeof FieldDefSchema>;

const StepMode = Type.Union([Type.Literal('sequential'), Type.Literal('any'), Type.Literal('all')], {
  description: 'sequential 依次审批，all 会签（全部同意），any 或签（一人同意即可）',
});

export const StepDefSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50 }),
    mode: StepMode,
    approvers: Type.Array(ApproverRuleSchema, { minItems: 1, maxItems: MAX_RULES }),
  },
  { title: '审批步骤' },
);
export type StepDef = Static<typeof StepDefSchema>;

const RevokeRule = Type.Union([Type.Literal('untouched'), Type.Literal('processing'), Type.Literal('never')], {
  description: '撤销：untouched 审批人处理前可撤销，processing 审批结束前可撤销，never 不可撤销',
});

export const DefinitionBodySchema = Type.Object({
  name: Type.String({ maxLength: 200, description: '名称：去掉首尾空白后 1–50 个字符' }),
  category: Type.String({ maxLength: 50 }),
  description: Type.String({ maxLength: 500 }),
  enabled: Type.Boolean(),
  fields: Type.Array(FieldDefSchema, { maxItems: MAX_FIELDS }),
  allowFiles: Type.Boolean({ description: '允许附加文件（最多 workflowFileNumber 个）' }),
  steps: Type.Array(StepDefSchema, { minItems: 1, maxItems: MAX_STEPS }),
  cc: Type.Array(ApproverRuleSchema, { maxItems: MAX_RULES, description: '抄送' }),
  revoke: RevokeRule,
  autoRemindHours: Type.Optional(
    Type.Number({ description: '自动催办：审批人超过这么多小时未处理时自动提醒（0 不自动催办，1–168 的整数）；新建时不填为 0，修改时不填则不变' }),
  ),
});
export type DefinitionBody = Static<typeof DefinitionBodySchema>;

export const DefinitionSchema = Type.Object(
  {
    id: Type.String(),
    ...DefinitionBodySchema.properties,
    autoRemindHours: Type.Integer({ description: '自动催办的小时数（0 不自动催办）' }),
    version: Type.Integer({ description: '每次修改加 1；已发起的审批保持发起时的版本' }),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  { title: '流程定义' },
);
export type Definition = Static<typeof DefinitionSchema>;

export const DefinitionParamsSchema = Type.Object({ id: IdString('流程定义 id') });
export const InstanceParamsSchema = Type.Object({ id: IdString('审批 id') });
export const InstanceFileParamsSchema = Type.Object({ id: IdString('审批 id'), fileId: IdString('附件的文件 id') });

export const WorkflowUserSchema = Type.Object({ userId: Type.String(), name: Type.String() }, { title: '用户' });
export type WorkflowUser = Static<typeof WorkflowUserSchema>;

export const RouteStepSchema = Type.Object(
  {
    name: Type.String(),
    mode: StepMode,
    approvers: Type.Array(WorkflowUserSchema),
    choose: Type.Boolean({ description: '由发起人选择审批人（开始时在 chosen 中给出）' }),
    fallback: Type.Boolean({ description: '没有审批人，交给流程管理员' }),
  },
  { title: '审批路线的一步' },
);
export type RouteStep = Static<typeof RouteStepSchema>;

export const StartBodySchema = Type.Object({
  definitionId: IdString('流程定义 id'),
  title: Type.String({ maxLength: 500, description: `标题：去掉首尾空白后 1–${TITLE_MAX} 个字符` }),
  form: Type.Record(Type.String(), Nullable(Type.Union([Type.String({ maxLength: 20000 }), Type.Number()])), { description: '字段标识 → 值' }),
  fileIds: Type.Array(IdString(), { maxItems: 1000, description: '附加的文件（个人或企业空间中可下载的文件）' }),
  chosen: Type.Optional(
    Type.Record(Type.String({ pattern: '^[0-9]{1,2}$' }), Type.Array(IdString(), { maxItems: 100 }), {
      description: '发起人自选的审批人：步骤序号（从 0 开始）→ 用户 id',
    }),
  ),
});
export type StartBody = Static<typeof StartBodySchema>;

export const StartedSchema = Type.Object({ instanceId: Type.String() });

const Box = Type.Union([Type.Literal('todo'), Type.Literal('done'), Type.Literal('mine'), Type.Literal('cc')], {
  description: 'todo 待我审批，done 我已审批，mine 我发起的，cc 抄送我的',
});

export const InstancesQuerySchema = Type.Object({
  box: Box,
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 4, description: '1 审批中，2 已通过，3 已驳回，4 已撤销' })),
  definitionId: Type.Optional(IdString('流程定义 id')),
  from: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: '发起日期不早于（YYYY-MM-DD）' })),
  to: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: '发起日期不晚于（YYYY-MM-DD）' })),
  keyword: Type.Optional(Type.String({ maxLength: 100, description: '标题或编号中包含的文字' })),
  ...PagingFilled(20, 200),
});
export type InstancesQuery = Static<typeof InstancesQuerySchema>;

export const InstanceRowSchema = Type.Object(
  {
    instanceId: Type.String(),
    number: Type.String({ description: '审批编号（印章上的编号）' }),
    title: Type.String(),
    definitionId: Type.String(),
    definitionName: Type.String(),
    category: Type.String(),
    initiator: WorkflowUserSchema,
    status: Type.Integer({ description: '1 审批中，2 已通过，3 已驳回，4 已撤销' }),
    currentStep: Type.String({ description: '正在审批的步骤；结束后为空字符串' }),
    pending: Type.Array(WorkflowUserSchema, { description: '当前待处理的人' }),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    finishedAt: Nullable(Type.String()),
    source: Type.String({ description: "发起它的模块：'' 为在流程页面发起的审批，'ferry' 为文件摆渡" }),
    sourceId: Type.String({ description: '发起模块自己的编号（文件摆渡为 taskId）' }),
  },
  { title: '审批' },
);
export type InstanceRow = Static<typeof InstanceRowSchema>;

export const InstancePageSchema = Type.Object({ data: Type.Array(InstanceRowSchema), total: Type.Integer() });

export const CountsSchema = Type.Object({ todo: Type.Integer(), done: Type.Integer(), mine: Type.Integer(), cc: Type.Integer() });
export type Counts = Static<typeof CountsSchema>;

const TaskStatus = Type.Union(
  [Type.Literal('waiting'), Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('transferred'), Type.Literal('returned'), Type.Literal('cancelled')],
);

export const StepViewSchema = Type.Object({
  name: Type.String(),
  mode: StepMode,
  fallback: Type.Boolean(),
  state: Type.Union([Type.Literal('done'), Type.Literal('current'), Type.Literal('waiting'), Type.Literal('closed')]),
  tasks: Type.Array(
    Type.Object({ userId: Type.String(), name: Type.String(), status: TaskStatus, from: Nullable(WorkflowUserSchema) }),
  ),
});

export const ActionViewSchema = Type.Object({
  id: Type.String(),
  kind: Type.String({ description: 'start, approve, reject, return, transfer, addApprover, revoke, comment, finish' }),
  user: Nullable(WorkflowUserSchema),
  step: Type.Integer(),
  stepName: Type.String(),
  comment: Type.String(),
  target: Nullable(WorkflowUserSchema),
  toStep: Nullable(Type.Integer()),
  status: Nullable(Type.Integer()),
  createdAt: Type.String(),
});

export const FileViewSchema = Type.Object({
  fileId: Type.String(),
  versionId: Type.String(),
  name: Type.String(),
  extension: Type.String(),
  size: Type.Integer(),
  url: Type.String({ description: '查看附件（发起时的版本）的地址；不能再查看时为空字符串' }),
});

export const InstanceDetailSchema = Type.Object(
  {
    ...InstanceRowSchema.properties,
    fields: Type.Array(
      Type.Object({
        key: Type.String(),
        label: Type.String(),
        type: Type.String(),
        value: Nullable(Type.Union([Type.String(), Type.Number()])),
      }),
    ),
    files: Type.Array(FileViewSchema),
    steps: Type.Array(StepViewSchema),
    cc: Type.Array(WorkflowUserSchema),
    timeline: Type.Array(ActionViewSchema),
    can: Type.Object({
      approve: Type.Boolean(),
      reject: Type.Boolean(),
      returnTo: Type.Array(Type.Integer()),
      transfer: Type.Boolean(),
      addApprover: Type.Boolean(),
      revoke: Type.Boolean(),
      comment: Type.Boolean(),
      remind: Type.Boolean({ description: '催办：发起人在审批进行中可用' }),
    }),
  },
  { title: '审批详情' },
);
export type InstanceDetail = Static<typeof InstanceDetailSchema>;

export const ActionBodySchema = Type.Object({
  comment: Type.Optional(Type.String({ maxLength: 5000, description: `意见（最多 ${COMMENT_MAX} 个字符）；驳回、退回与评论时必填` })),
  userId: Type.Optional(IdString('转交、加签：对方的用户 id')),
  toStep: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_STEPS, description: '退回：退回到的步骤序号（从 0 开始）' })),
});
export type ActionBody = Static<typeof ActionBodySchema>;
