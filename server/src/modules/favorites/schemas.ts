// 云文档 favourites and their categories (api-contract.md, "Favourites and tags").
import { Type, type Static } from 'typebox';
import { IdString } from '../../lib/schema';
import { ItemSchema } from '../folders/schemas';
import { Paging } from '../../lib/paging';

export const FavoriteCategorySchema = Type.Object(
  {
    id: Type.Integer({ description: '0 为默认收藏夹（始终存在）' }),
    name: Type.String(),
    count: Type.Integer({ description: '其中当前仍可访问的收藏数' }),
  },
  { title: '收藏分类' },
);
export type FavoriteCategory = Static<typeof FavoriteCategorySchema>;

export const FavoriteCategoryBodySchema = Type.Object({
  id: Type.Optional(Type.Integer({ minimum: 0, description: '有 id 时重命名，否则新建' })),
  name: Type.String({ maxLength: 200 }),
});
export type FavoriteCategoryBody = Static<typeof FavoriteCategoryBodySchema>;

export const FavoritesBodySchema = Type.Object({
  fileIds: Type.Array(IdString(), { minItems: 1, maxItems: 1000 }),
  categoryId: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: '0 为默认收藏夹' })),
});
export type FavoritesBody = Static<typeof FavoritesBodySchema>;

export const FavoriteItemSchema = Type.Object(
  {
    ...ItemSchema.properties,
    favoriteCategoryId: Type.Integer(),
    favoritedAt: Type.String({ description: '收藏时间，YYYY-MM-DD HH:mm:ss' }),
  },
  { title: '收藏项' },
);
export type FavoriteItem = Static<typeof FavoriteItemSchema>;

export const FavoritesQuerySchema = Type.Object({
  ...Paging(100, 1000),
});
export type FavoritesQuery = Static<typeof FavoritesQuerySchema>;

export const FavoritesListSchema = Type.Object({ data: Type.Array(FavoriteItemSchema), total: Type.Integer() });
export type FavoritesList = Static<typeof FavoritesListSchema>;
