// 云文档 files and folders (api-contract.md, "Files and folders").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';

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
    isFavorite: Type.Boolean(),
    tags: Type.Array(Type.String()),
    permissions: Type.Array(Type.String(), { description: '当前用户对该项的权限' }),
  },
  { title: '文件或文件夹' },
);
export type Item = Static<typeof ItemSchema>;

export const SORT_FIELDS = ['name', 'size', 'updatedAt', 'type'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export const ItemsParamsSchema = Type.Object({ parentId: IdString('文件夹 id') });

export const ItemsQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000, default: 1, description: '页码，从 1 开始' })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: '每页条数，最多 1000' })),
  sortField: Type.Optional(
    Type.Union([Type.Literal('name'), Type.Literal('size'), Type.Literal('updatedAt'), Type.Literal('type')], { description: '排序字段' }),
  ),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: '排序方向' })),
  keyword: Type.Optional(Type.String({ maxLength: 150, description: '按名称筛选（不区分大小写）' })),
});
export type ItemsQuery = Static<typeof ItemsQuerySchema>;

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
