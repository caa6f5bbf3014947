// 云文档 recycle bin (docs/integration.md, "File operations (issue 3)").
import { Type, type Static } from 'typebox';
import { ItemSchema } from '../folders/schemas';
import { Paging } from '../../lib/paging';

export const RecycleItemSchema = Type.Object(
  {
    ...ItemSchema.properties,
    deletedAt: Type.String({ description: 'YYYY-MM-DD HH:mm:ss' }),
    expiresAt: Type.String({ description: '将被彻底删除的时间，YYYY-MM-DD HH:mm:ss' }),
    originalPath: Type.String({ description: '原所在文件夹的 namePath' }),
  },
  { title: '回收站项' },
);
export type RecycleItem = Static<typeof RecycleItemSchema>;

export const RecycleQuerySchema = Type.Object({
  ...Paging(100, 1000),
});
export type RecycleQuery = Static<typeof RecycleQuerySchema>;

export const RecycleListSchema = Type.Object({ data: Type.Array(RecycleItemSchema), total: Type.Integer() }, { title: '回收站列表' });
export type RecycleList = Static<typeof RecycleListSchema>;

export const RestoreResultSchema = Type.Object({ restored: Type.Array(ItemSchema) });
export const PurgeResultSchema = Type.Object({ purged: Type.Integer({ description: '彻底删除的项数' }) });
