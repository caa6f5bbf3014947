// Wire shapes of the operation log's calls.
import { Type, type Static } from 'typebox';
import { Paging } from '../../lib/paging';

const Id = Type.String({ pattern: '^[0-9]{1,18}$' });
const Time = Type.String({ maxLength: 19, description: 'YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss（配置的时区）；只有日期时 to 包含当天' });

export const OplogFilterFields = {
  from: Type.Optional(Time),
  to: Type.Optional(Time),
  userId: Type.Optional(Id),
  deptId: Type.Optional(Id),
  action: Type.Optional(Type.String({ maxLength: 40, description: '操作代码（如 file.download），或以 . 结尾的分类（如 file.）' })),
  objectType: Type.Optional(Type.String({ maxLength: 20 })),
  objectId: Type.Optional(Type.String({ maxLength: 100 })),
  object: Type.Optional(Type.String({ maxLength: 200, description: '对象名称或位置中的文字' })),
  ip: Type.Optional(Type.String({ maxLength: 100 })),
  result: Type.Optional(Type.Union([Type.Literal('ok'), Type.Literal('fail')])),
};

export const OplogQuerySchema = Type.Object({ ...OplogFilterFields, ...Paging(20, 200) }, { additionalProperties: false });
export const OplogExportQuerySchema = Type.Object(
  { ...OplogFilterFields, format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], { default: 'csv' }) },
  { additionalProperties: false },
);
export const PageQuerySchema = Type.Object(Paging(20, 100), { additionalProperties: false });
export type OplogQuery = Static<typeof OplogQuerySchema>;

export const OplogRecordSchema = Type.Object({
  id: Type.String(),
  seq: Type.Union([Type.Integer(), Type.Null()]),
  at: Type.Integer(),
  time: Type.String(),
  userId: Type.Union([Type.String(), Type.Null()]),
  userName: Type.String(),
  deptPath: Type.String(),
  onBehalfName: Type.String(),
  ip: Type.String(),
  userAgent: Type.String(),
  device: Type.String({ description: '由 User-Agent 得出的浏览器与系统' }),
  action: Type.String(),
  actionName: Type.String(),
  objectType: Type.String(),
  objectId: Type.String(),
  objectName: Type.String(),
  objectPath: Type.String(),
  result: Type.Union([Type.Literal('ok'), Type.Literal('fail')]),
  reason: Type.String(),
  requestId: Type.String(),
  detail: Type.Record(Type.String(), Type.Unknown()),
});

export const OplogPageSchema = Type.Object({
  data: Type.Array(OplogRecordSchema),
  total: Type.Integer(),
  /** more than `total` match (the count stops at 10,000) */
  more: Type.Boolean(),
});

export const ChainCheckSchema = Type.Object({
  ok: Type.Boolean(),
  checked: Type.Integer(),
  pending: Type.Integer(),
  brokenAt: Type.Union([Type.Integer(), Type.Null()]),
  message: Type.String(),
});

export const ActionCatalogSchema = Type.Object({
  actions: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
  groups: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
});
