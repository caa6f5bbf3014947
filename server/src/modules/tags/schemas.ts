// 云文档 tags (api-contract.md, "Favourites and tags").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { ItemSchema } from '../folders/schemas';
import { Paging } from '../../lib/paging';

export const TagSchema = Type.Object(
  {
    id: IdString(),
    name: Type.String(),
    color: Type.String({ description: '#rrggbb' }),
    isPublic: Type.Boolean({ description: '公共标签：所有人可见，由标签管理员管理' }),
    count: Type.Integer({ description: '当前用户可访问的带此标签的项数' }),
    editable: Type.Boolean({ description: '当前用户可否修改或删除' }),
  },
  { title: '标签' },
);
export type Tag = Static<typeof TagSchema>;

export const TagBodySchema = Type.Object({
  name: Type.String({ maxLength: 200 }),
  color: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' }),
  isPublic: Type.Optional(Type.Boolean({ default: false })),
});
export type TagBody = Static<typeof TagBodySchema>;

export const TagFilesBodySchema = Type.Object({
  fileIds: Type.Array(IdString(), { minItems: 1, maxItems: 1000 }),
  tagIds: Type.Array(IdString(), { minItems: 1, maxItems: 100 }),
});
export type TagFilesBody = Static<typeof TagFilesBodySchema>;

export const TagFilesQuerySchema = Type.Object({
  ...Paging(100, 1000),
});
export type TagFilesQuery = Static<typeof TagFilesQuerySchema>;

export const TagFilesListSchema = Type.Object({ data: Type.Array(ItemSchema), total: Type.Integer() });
