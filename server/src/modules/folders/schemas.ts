// 云文档 files and folders (api-contract.md, "Files and folders").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { Paging } from '../../lib/paging';

/** A tag as an item carries it (api-contract.md, "Favourites and tags"). */
export const TagRefSchema = Type.Object({
  id: IdString(),
  name: Type.String(),
  color: Type.String({ description: '#rrggbb' }),
});

export const ItemSchema = Type.Object(
  {
    id: IdString(),
    parentId: Type.Union([IdString(), Type.Null()], { description: '根目录为 null' }),
    name: Type.String(),
    type: Type.Union([Type.Literal('folder'), Type.Literal('file'), Type.Literal('shortcut')]),
    extension: Type.String({ description: '小写扩展名，不含点；文件夹为空' }),
    size: Type.Integer({ description: '字节数' }),
    idPath: Type.String({ description: '以 / 分隔的 id，首段为空间：1 企业，2 个人' }),
    namePath: Type.String({ description: '以 / 分隔的名称，从空间根目录开始' }),
    spaceType: Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 企业空间，2 个人空间' }),
    ownerId: IdString(),
    ownerName: Type.String(),
    createdAt: Type.String({ description: 'YYYY-MM-DD HH:mm:ss' }),
    updatedAt: Type.String({ description: 'YYYY-MM-DD HH:mm:ss' }),
    isFavorite: Type.Boolean({ description: '当前用户是否已收藏' }),
    tags: Type.Array(TagRefSchema, { description: '当前用户的个人标签和公共标签' }),
    permissions: Type.Array(Type.String(), { description: '当前用户对该项的权限' }),
    targetId: Type.Union([IdString(), Type.Null()], { description: '快捷方式指向的项；其他项为 null' }),
    targetType: Type.Union([Type.Literal('folder'), Type.Literal('file'), Type.Null()], {
      description: '快捷方式指向的项的类型；指向的项已不存在或当前用户无权查看时为 null',
    }),
    targetIdPath: Type.Union([Type.String(), Type.Null()], {
      description: '快捷方式指向的项的 idPath；指向的项已不存在、已删除或当前用户无权查看时为 null',
    }),
  },
  { title: '文件、文件夹或快捷方式' },
);
export type Item = Static<typeof ItemSchema>;

export const SORT_FIELDS = ['name', 'size', 'updatedAt', 'type', 'manual'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export const ItemsParamsSchema = Type.Object({ parentId: IdString('文件夹 id') });

export const ItemsQuerySchema = Type.Object({
  ...Paging(100, 1000),
  sortField: Type.Optional(
    Type.Union([Type.Literal('name'), Type.Literal('size'), Type.Literal('updatedAt'), Type.Literal('type'), Type.Literal('manual')], {
      description: '排序字段；manual 为手动排序（新建的项排在最后）',
    }),
  ),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: '排序方向' })),
  keyword: Type.Optional(Type.String({ maxLength: 150, description: '按名称筛选（不区分大小写）' })),
  shareId: Type.Optional(Type.String({ maxLength: 64, description: '通过“与我共享”访问时的分享 id' })),
});
export type ItemsQuery = Omit<Static<typeof ItemsQuerySchema>, 'shareId'>;

export const FolderItemsSchema = Type.Object(
  {
    folder: ItemSchema,
    items: Type.Object({ data: Type.Array(ItemSchema), total: Type.Integer() }),
  },
  { title: '文件夹内容' },
);
export type FolderItems = Static<typeof FolderItemsSchema>;

export const CreateFileBodySchema = Type.Object({
  parentId: IdString('所在文件夹 id'),
  name: Type.String({ description: '名称：去掉首尾空白后 1–150 个字符，不能包含 / \\ 或控制字符' }),
  type: Type.Union([Type.Literal('folder'), Type.Literal('file')]),
});
export type CreateFileBody = Static<typeof CreateFileBodySchema>;

export const IdParamsSchema = Type.Object({ id: IdString('文件或文件夹 id') });

export const RenameQuerySchema = Type.Object({
  fileName: Type.String({ maxLength: 1000, description: '新名称：去掉首尾空白后 1–150 个字符，不能包含 / \\ 或控制字符' }),
});
export type RenameQuery = Static<typeof RenameQuerySchema>;

export const IdListSchema = Type.Array(IdString(), { minItems: 1, maxItems: 1000, description: 'id 列表' });

export const DeleteResultSchema = Type.Object({ deleted: Type.Integer({ description: '放入回收站的项数' }) });

export const OperationBodySchema = Type.Object({
  ids: IdListSchema,
  targetId: IdString('目标文件夹 id'),
  strategy: Type.Optional(
    // an enum without a type: Ajv's type coercion would read null as 0 (or 0 as null)
    Type.Unsafe<0 | 1 | 2 | 3 | null>({
      enum: [0, 1, 2, 3, null],
      description: '同名时的处理：0 新版本（仅文件与同名文件），1 覆盖，2 重命名，3 跳过；不传或 null 则只返回冲突',
    } as never),
  ),
  newFileName: Type.Optional(Type.String({ maxLength: 1000, description: '重命名策略的新名称（仅当只有一个冲突时）' })),
});
export type OperationBody = Static<typeof OperationBodySchema>;

export const OperationResultSchema = Type.Object(
  {
    conflictType: Type.Union([Type.Literal(0), Type.Literal(1)], { description: '1 表示存在同名冲突，什么都没有做' }),
    conflictInfo: Type.Union([Type.Object({ fileName: Type.String() }), Type.Null()]),
    conflictStrategies: Type.Array(Type.Object({ name: Type.String(), value: Type.Integer() })),
    items: Type.Array(ItemSchema),
  },
  { title: '移动或复制的结果' },
);
export type OperationResult = Static<typeof OperationResultSchema>;

export const TreeNodeSchema = Type.Object(
  {
    id: IdString(),
    parentId: Type.Union([IdString(), Type.Null()]),
    name: Type.String(),
    idPath: Type.String(),
    namePath: Type.String(),
    hasChildren: Type.Boolean({ description: '是否有子文件夹' }),
  },
  { title: '文件夹树节点' },
);
export type TreeNode = Static<typeof TreeNodeSchema>;

export const ActionsQuerySchema = Type.Object({ extension: Type.Optional(Type.String({ maxLength: 50, description: '扩展名，可带点' })) });

export const FileActionsSchema = Type.Object(
  { previewable: Type.Boolean(), editable: Type.Boolean(), actions: Type.Array(Type.String()) },
  { title: '文件可用操作' },
);
export type FileActions = Static<typeof FileActionsSchema>;

export const ShortcutBodySchema = Type.Object({
  targetId: IdString('指向的文件或文件夹 id'),
  parentId: IdString('快捷方式所在文件夹 id'),
});
export type ShortcutBody = Static<typeof ShortcutBodySchema>;

export const FolderSizeSchema = Type.Object(
  {
    id: IdString(),
    size: Type.Integer({ description: '文件夹下所有文件的字节数之和（不含快捷方式指向的内容）' }),
    fileCount: Type.Integer({ description: '文件数' }),
    folderCount: Type.Integer({ description: '子文件夹数（各层）' }),
  },
  { title: '文件夹大小' },
);
export type FolderSize = Static<typeof FolderSizeSchema>;

export const SetSortQuerySchema = Type.Object({
  folderId: IdString('要移动位置的文件或文件夹 id'),
  targetId: IdString('参照的同级项 id'),
  position: Type.Union([Type.Literal('before'), Type.Literal('after')], { description: '放在参照项之前或之后' }),
});
export type SetSortQuery = Static<typeof SetSortQuerySchema>;
