// 云文档 sharing (api-contract.md, "Sharing").
import { Type, type Static } from 'typebox';
import { IdString, Nullable } from '../../lib/schema';
import { Paging } from '../../lib/paging';

export const MAX_SHARE_ITEMS = 100;
export const MAX_SHARE_TARGETS = 200;

export const ShareLevel = Type.Integer({ minimum: 1, maximum: 3, description: '权限：1 预览，2 下载，3 上传与编辑' });

export const ShareTargetSchema = Type.Object(
  {
    type: Type.Integer({ minimum: 1, maximum: 3, description: '1 用户，2 部门（含下级部门），3 用户组' }),
    id: IdString('用户、部门或用户组的 id'),
  },
  { title: '分享对象' },
);

export const ShareTargetViewSchema = Type.Object(
  {
    type: Type.Integer({ description: '1 用户，2 部门，3 用户组' }),
    id: Type.String(),
    name: Type.String({ description: '用户昵称、部门或用户组名称；已删除的对象为空字符串' }),
  },
  { title: '分享对象（含名称）' },
);

export const CreateShareBodySchema = Type.Object({
  fileIds: Type.Array(IdString(), { minItems: 1, maxItems: MAX_SHARE_ITEMS, description: '要分享的文件和文件夹' }),
  shareType: Type.Integer({ minimum: 1, maximum: 2, description: '1 内部分享，2 外链分享' }),
  level: ShareLevel,
  expireAt: Type.Optional(Nullable(Type.String({ maxLength: 19, description: '到期时间 YYYY-MM-DD HH:mm:ss；null 为永久有效' }))),
  targets: Type.Optional(Type.Array(ShareTargetSchema, { maxItems: MAX_SHARE_TARGETS, description: '内部分享的对象' })),
  accessKey: Type.Optional(Nullable(Type.String({ maxLength: 64, description: '外链的提取码（4–16 位字母或数字）；留空由系统随机生成' }))),
  downloadLimit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: '下载次数上限；null 为不限' }))),
});
export type CreateShareBody = Static<typeof CreateShareBodySchema>;

export const UpdateShareBodySchema = Type.Object({
  level: Type.Optional(ShareLevel),
  expireAt: Type.Optional(Nullable(Type.String({ maxLength: 19, description: '到期时间；null 为永久有效；不传则不变' }))),
  targets: Type.Optional(Type.Array(ShareTargetSchema, { maxItems: MAX_SHARE_TARGETS, description: '内部分享的对象；不传则不变' })),
  accessKey: Type.Optional(
    Nullable(Type.String({ maxLength: 64, description: '新的提取码；空字符串由系统随机生成新的提取码；不传或 null 则不变' })),
  ),
  downloadLimit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: '下载次数上限；null 为不限；不传则不变' }))),
});
export type UpdateShareBody = Static<typeof UpdateShareBodySchema>;

export const CreatedShareSchema = Type.Object(
  {
    shareId: Type.String(),
    url: Type.String({ description: '分享页的路径（从站点根开始），如 /s/{shareId}' }),
    accessKey: Type.String({ description: '外链的提取码，只在创建或更换时返回这一次；内部分享为空字符串' }),
  },
  { title: '新建的分享' },
);

export const ShareItemSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String({ description: 'folder 或 file' }),
    extension: Type.String(),
    size: Type.Integer(),
  },
  { title: '分享的文件或文件夹' },
);

export const ShareRecordSchema = Type.Object(
  {
    shareId: Type.String(),
    shareType: Type.Integer({ description: '1 内部分享，2 外链分享' }),
    level: Type.Integer({ description: '1 预览，2 下载，3 上传与编辑' }),
    items: Type.Array(ShareItemSchema, { description: '仍然存在、仍可通过分享访问的项' }),
    ownerId: Type.String(),
    ownerName: Type.String(),
    targets: Type.Array(ShareTargetViewSchema),
    expireAt: Type.Union([Type.String(), Type.Null()], { description: '到期时间；null 为永久有效' }),
    createdAt: Type.String(),
    visitCount: Type.Integer(),
    downloadCount: Type.Integer(),
    downloadLimit: Type.Union([Type.Integer(), Type.Null()]),
    status: Type.Integer({ description: '1 有效，2 已过期或已失效（到期、下载次数用完、分享的文件已删除），3 已取消' }),
    url: Type.String({ description: '外链分享页的路径；内部分享为空字符串' }),
  },
  { title: '分享记录' },
);
export type ShareRecord = Static<typeof ShareRecordSchema>;

export const UpdatedShareSchema = Type.Intersect([
  ShareRecordSchema,
  Type.Object({ accessKey: Type.String({ description: '更换后的提取码（只在更换时返回）；未更换为空字符串' }) }),
]);

export const PageQuerySchema = Type.Object({
  ...Paging(20, 100),
});

export const SharePageSchema = Type.Object({ data: Type.Array(ShareRecordSchema), total: Type.Integer() }, { title: '分享记录列表' });

export const ShareIdsBodySchema = Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 500, description: '要取消的分享 id' });

export const ShareParamsSchema = Type.Object({ shareId: Type.String({ maxLength: 64 }) });

export const ShareEventSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('visit'), Type.Literal('download'), Type.Literal('upload')], { description: '访问、下载或上传' }),
    userName: Type.String({ description: '登录的接收人；外部访客为空字符串' }),
    address: Type.String({ description: '访问者的 IP 地址' }),
    itemName: Type.String(),
    createdAt: Type.String(),
  },
  { title: '分享的访问记录' },
);
export type ShareEvent = Static<typeof ShareEventSchema>;

export const ShareEventsPageSchema = Type.Object({ data: Type.Array(ShareEventSchema), total: Type.Integer() });

export const OutsourceInfoSchema = Type.Object(
  {
    shareId: Type.String(),
    ownerName: Type.String({ description: '分享人' }),
    name: Type.String({ description: '分享的名称；提取码正确之前为空字符串' }),
    needKey: Type.Boolean({ description: 'true：还需要输入正确的提取码；false：请求头 accessKey 中的提取码正确' }),
    expireAt: Type.Union([Type.String(), Type.Null()]),
    level: Type.Integer({ description: '1 预览，2 下载，3 上传与编辑' }),
  },
  { title: '外链分享' },
);
export type OutsourceInfo = Static<typeof OutsourceInfoSchema>;

export const OutsourceItemsQuerySchema = Type.Object({
  folderId: Type.Optional(Type.String({ maxLength: 20, description: '文件夹 id；不传为分享的顶层' })),
  ...Paging(100, 1000),
  sortField: Type.Optional(Type.Union([Type.Literal('name'), Type.Literal('size'), Type.Literal('updatedAt'), Type.Literal('type')])),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  keyword: Type.Optional(Type.String({ maxLength: 150 })),
});
export type OutsourceItemsQuery = Static<typeof OutsourceItemsQuerySchema>;

export const ShareQuerySchema = Type.Object({
  shareId: Type.Optional(Type.String({ maxLength: 64, description: '通过“与我共享”访问时的分享 id' })),
});

export const ExternalDownloadQuerySchema = Type.Object({
  urlKey: Type.String({ maxLength: 64, description: '分享 id' }),
  accessKey: Type.Optional(Type.String({ maxLength: 64, description: '提取码（也可放在请求头 accessKey 中）' })),
});

export const ExternalTaskParamsSchema = Type.Object({ shareId: Type.String({ maxLength: 64 }), taskId: Type.String({ maxLength: 64 }) });
export const AccessKeyQuerySchema = Type.Object({ accessKey: Type.Optional(Type.String({ maxLength: 64 })) });
