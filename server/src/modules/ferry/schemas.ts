// 云文档 exchange space and ferry (api-contract.md, "Approvals, exchange space and ferry";
// shared/src/api/types.ts, "Exchange space and ferry").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { PagingFilled } from '../../lib/paging';

export const REASON_MAX = 500;
export const RECIPIENTS_MAX = 20;
export const RECIPIENT_MAX = 64;

const STATUSES = ['scanning', 'blocked', 'pending', 'approved', 'transferring', 'delivered', 'downloaded', 'expired', 'removed', 'rejected', 'cancelled', 'failed', 'refused'] as const;
export type FerryTaskStatus = (typeof STATUSES)[number];
const TaskStatus = Type.Union(
  [
    Type.Literal('scanning'),
    Type.Literal('blocked'),
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('transferring'),
    Type.Literal('delivered'),
    Type.Literal('downloaded'),
    Type.Literal('expired'),
    Type.Literal('removed'),
    Type.Literal('rejected'),
    Type.Literal('cancelled'),
    Type.Literal('failed'),
    Type.Literal('refused'),
  ],
  {
    description:
      'scanning 检查中，blocked 已拦截，pending 审批中，approved 已批准，transferring 传输中，delivered 已送达，downloaded 已下载，expired 已过期，removed 已移除，rejected 已驳回，cancelled 已取消，failed 传输失败，refused 被拒收（接收方校验未通过，statusReason 说明原因）',
  },
);

export const FERRY_TABS = {
  processing: ['scanning', 'pending', 'approved', 'transferring'],
  completed: ['delivered', 'downloaded', 'expired', 'removed'],
  rejected: ['blocked', 'rejected', 'cancelled', 'failed', 'refused'],
} as const satisfies Record<string, readonly FerryTaskStatus[]>;
export type FerryTab = keyof typeof FERRY_TABS;

const CheckName = Type.Union([Type.Literal('type'), Type.Literal('size'), Type.Literal('count'), Type.Literal('keyword'), Type.Literal('antivirus')]);

export const CheckResultSchema = Type.Object({
  name: CheckName,
  result: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('skipped')]),
  message: Type.String(),
});
export type FerryCheckResult = Static<typeof CheckResultSchema>;

export const KeywordHitSchema = Type.Object({ keyword: Type.String(), count: Type.Integer(), context: Type.String() });
export type FerryKeywordHit = Static<typeof KeywordHitSchema>;

export const TaskFileSchema = Type.Object({
  fileId: Type.String(),
  name: Type.String(),
  size: Type.Number(),
  sha256: Type.String(),
  detectedType: Type.String(),
  checks: Type.Array(CheckResultSchema),
  keywordHits: Type.Array(KeywordHitSchema),
  blocked: Type.Boolean(),
});
export type FerryTaskFile = Static<typeof TaskFileSchema>;

const FerryUserSchema = Type.Object({ userId: Type.String(), name: Type.String() });

export const TaskRowSchema = Type.Object(
  {
    taskId: Type.String(),
    number: Type.String({ description: '摆渡编号，如 BD20261124000012' }),
    fromZone: Type.String(),
    targetZone: Type.String(),
    recipients: Type.Array(Type.String()),
    reason: Type.String(),
    status: TaskStatus,
    requester: FerryUserSchema,
    fileCount: Type.Integer(),
    totalSize: Type.Number(),
    instanceId: Type.String({ description: "审批 id；检查未通过、没有发起审批时为 ''" }),
    statusReason: Type.String(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    deliveredAt: Type.String(),
    downloadedAt: Type.String(),
    expiresAt: Type.String(),
  },
  { title: '摆渡任务' },
);
export type FerryTaskRowView = Static<typeof TaskRowSchema>;

export const TaskDetailSchema = Type.Intersect([
  TaskRowSchema,
  Type.Object({
    files: Type.Array(TaskFileSchema),
    events: Type.Array(Type.Object({ at: Type.String(), text: Type.String(), actorName: Type.String() })),
    can: Type.Object({ cancel: Type.Boolean(), preview: Type.Boolean() }),
  }),
]);
export type FerryTaskDetail = Static<typeof TaskDetailSchema>;

export const TaskPageSchema = Type.Object({ data: Type.Array(TaskRowSchema), total: Type.Integer() });

export const TasksQuerySchema = Type.Object({
  status: Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('rejected')], {
    description: 'processing 审批中（检查中…传输中），completed 已完成（已送达…已移除），rejected 已驳回（已拦截、已驳回、已取消、传输失败、被拒收）',
  }),
  keyword: Type.Optional(Type.String({ maxLength: 100, description: '编号、原因或接收人中包含的文字' })),
  ...PagingFilled(20, 200),
});
export type TasksQuery = Static<typeof TasksQuerySchema>;

export const CreateTaskBodySchema = Type.Object({
  fileIds: Type.Array(IdString(), { maxItems: 1000, description: '个人或企业空间中可下载的文件' }),
  targetZone: Type.String({ maxLength: 64 }),
  recipients: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100, description: `接收方区域的用户名，1–${RECIPIENTS_MAX} 个` }),
  reason: Type.String({ maxLength: 5000, description: `摆渡原因：去掉首尾空白后 1–${REASON_MAX} 个字符` }),
});
export type CreateTaskBody = Static<typeof CreateTaskBodySchema>;

export const CreatedTaskSchema = Type.Object({ taskId: Type.String(), instanceId: Type.String(), status: TaskStatus });

export const TaskParamsSchema = Type.Object({ taskId: IdString('摆渡任务 id') });

export const PreviewBodySchema = Type.Object({ taskId: IdString('摆渡任务 id'), fileId: IdString('文件 id') });
export const PreviewSchema = Type.Object({ url: Type.String(), name: Type.String(), detectedType: Type.String() });
export const PreviewParamsSchema = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{20,200}$' }) });

export const ZonesSchema = Type.Object({ zone: Type.String(), targets: Type.Array(Type.String()), uploadFolderId: Type.String() });

export const DirectionSchema = Type.Object({
  from: Type.String({ maxLength: 64 }),
  to: Type.String({ maxLength: 64 }),
  enabled: Type.Boolean(),
  definitionId: Type.String({ pattern: '^([0-9]{1,15})?$', description: "审批流程 id；'' 使用“文件摆渡审批”" }),
});
export type FerryDirection = Static<typeof DirectionSchema>;

export const SettingsSchema = Type.Object({
  directions: Type.Array(DirectionSchema, { maxItems: 200 }),
  typeCheck: Type.Boolean(),
  allowedTypes: Type.Array(Type.String({ maxLength: 20 }), { maxItems: 200 }),
  sizeCheck: Type.Boolean(),
  maxFileSize: Type.Number({ description: '单个文件大小上限（字节）' }),
  maxTotalSize: Type.Number({ description: '每次摆渡总大小上限（字节）' }),
  countCheck: Type.Boolean(),
  maxFileCount: Type.Integer(),
  keywordCheck: Type.Boolean(),
  keywords: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 5000 }),
  antivirus: Type.Boolean(),
  expiryDays: Type.Integer({ description: '收到的文件多少天后过期（1–365）' }),
  auditRetentionDays: Type.Integer({ description: '审计日志保留天数（至少 180）' }),
});
export type FerrySettings = Static<typeof SettingsSchema>;

export const SettingsViewSchema = Type.Intersect([
  SettingsSchema,
  Type.Object({
    zone: Type.String(),
    peers: Type.Array(Type.Object({ zone: Type.String(), channel: Type.Union([Type.Literal('spool'), Type.Literal('https')]) })),
    secretConfigured: Type.Boolean(),
    antivirusEngine: Type.String(),
    antivirusMissing: Type.String(),
    knownTypes: Type.Array(Type.String()),
  }),
]);
export type FerrySettingsView = Static<typeof SettingsViewSchema>;

export const InboxItemSchema = Type.Object({
  id: Type.String(),
  taskId: Type.String(),
  number: Type.String(),
  fromZone: Type.String(),
  senderName: Type.String(),
  reason: Type.String(),
  files: Type.Array(Type.Object({ index: Type.Integer(), name: Type.String(), size: Type.Number(), sha256: Type.String() })),
  totalSize: Type.Number(),
  status: Type.Union([Type.Literal('delivered'), Type.Literal('downloaded'), Type.Literal('expired'), Type.Literal('removed')]),
  receivedAt: Type.String(),
  expiresAt: Type.String(),
  downloadedAt: Type.String(),
});
export type FerryInboxItem = Static<typeof InboxItemSchema>;
export const InboxPageSchema = Type.Object({ data: Type.Array(InboxItemSchema), total: Type.Integer() });
export const InboxQuerySchema = Type.Object({
  ...PagingFilled(20, 200),
});
export const InboxParamsSchema = Type.Object({ id: IdString('收到的摆渡 id') });
export const InboxDownloadQuerySchema = Type.Object({
  index: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000, description: '文件序号；不带时把全部文件打包为 zip' })),
});

const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });

export const AuditQuerySchema = Type.Object({
  from: Type.Optional(DateText),
  to: Type.Optional(DateText),
  event: Type.Optional(Type.String({ maxLength: 64 })),
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
  ...PagingFilled(20, 200),
});
export type AuditQuery = Static<typeof AuditQuerySchema>;

export const AuditRecordSchema = Type.Object({
  seq: Type.Integer(),
  at: Type.String(),
  actorName: Type.String(),
  event: Type.String(),
  eventText: Type.String(),
  taskId: Type.String(),
  summary: Type.String(),
  detail: Type.Record(Type.String(), Type.Unknown()),
  hash: Type.String(),
});
export type FerryAuditRecord = Static<typeof AuditRecordSchema>;
export const AuditPageSchema = Type.Object({ data: Type.Array(AuditRecordSchema), total: Type.Integer() });

export const AuditVerifySchema = Type.Object({ ok: Type.Boolean(), count: Type.Integer(), brokenAt: Type.Union([Type.Integer(), Type.Null()]), message: Type.String() });

export const StatsQuerySchema = Type.Object({
  from: Type.Optional(DateText),
  to: Type.Optional(DateText),
  bucket: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')], { default: 'day' }),
});
export type StatsQuery = Static<typeof StatsQuerySchema>;

const Tally = { tasks: Type.Integer(), files: Type.Integer(), bytes: Type.Number() };
export const StatsSchema = Type.Object({
  tasks: Type.Integer(),
  files: Type.Integer(),
  bytes: Type.Number(),
  byUser: Type.Array(Type.Object({ name: Type.String(), ...Tally })),
  byDepartment: Type.Array(Type.Object({ name: Type.String(), ...Tally })),
  byDirection: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), ...Tally })),
  byBucket: Type.Array(Type.Object({ bucket: Type.String(), ...Tally })),
  byStatus: Type.Array(Type.Object({ status: TaskStatus, tasks: Type.Integer() })),
  blockedByReason: Type.Array(Type.Object({ reason: Type.String(), count: Type.Integer() })),
  medianApprovalMs: Type.Union([Type.Number(), Type.Null()]),
});
export type FerryStats = Static<typeof StatsSchema>;

export const ExportQuerySchema = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
  from: Type.Optional(DateText),
  to: Type.Optional(DateText),
  event: Type.Optional(Type.String({ maxLength: 64 })),
  keyword: Type.Optional(Type.String({ maxLength: 100 })),
});
export type ExportQuery = Static<typeof ExportQuerySchema>;
