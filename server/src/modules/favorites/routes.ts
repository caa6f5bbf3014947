// 云文档 favourites calls (api-contract.md, "Favourites and tags").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, ok } from '../../lib/schema';
import { IdListSchema } from '../folders/schemas';
import {
  FavoriteCategoryBodySchema,
  FavoriteCategorySchema,
  FavoritesBodySchema,
  FavoritesListSchema,
  FavoritesQuerySchema,
} from './schemas';

export const favoritesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const favorites = app.services.favorites;
  const tags = ['收藏'];
  const CategoryParams = Type.Object({ id: Type.Integer({ minimum: -1, description: '分类 id；0 为默认收藏夹，-1 为全部' }) });

  app.get(
    '/User/Favorites/Categories',
    { schema: { tags, summary: '收藏分类（默认收藏夹在前）', response: { 200: Envelope(Type.Array(FavoriteCategorySchema)) } } },
    async (req) => ok(await favorites.categories(req.user())),
  );
  app.post(
    '/User/Favorites/Categories',
    { schema: { tags, summary: '新建或重命名收藏分类', body: FavoriteCategoryBodySchema, response: { 200: Envelope(FavoriteCategorySchema) } } },
    async (req) => ok(await favorites.saveCategory(req.user(), req.body)),
  );
  app.delete(
    '/User/Favorites/Categories/:id',
    {
      schema: {
        tags,
        summary: '删除收藏分类',
        description: '其中的收藏移到默认收藏夹。',
        params: CategoryParams,
        response: { 200: Envelope(Type.Object({ moved: Type.Integer() })) },
      },
    },
    async (req) => ok(await favorites.deleteCategory(req.user(), req.params.id)),
  );
  app.get(
    '/User/Favorites/:id',
    {
      schema: {
        tags,
        summary: '分类中的收藏（最近收藏的在前）',
        description: '只列出当前仍可访问、且不在回收站中的项。',
        params: CategoryParams,
        querystring: FavoritesQuerySchema,
        response: { 200: Envelope(FavoritesListSchema) },
      },
    },
    async (req) => ok(await favorites.list(req.user(), req.params.id, req.query)),
  );
  app.post(
    '/User/Favorites',
    { schema: { tags, summary: '收藏', body: FavoritesBodySchema, response: { 200: Envelope(Type.Object({ added: Type.Integer() })) } } },
    async (req) => ok(await favorites.add(req.user(), req.body)),
  );
  app.put(
    '/User/Favorites/Move',
    { schema: { tags, summary: '移动收藏到分类', body: FavoritesBodySchema, response: { 200: Envelope(Type.Object({ moved: Type.Integer() })) } } },
    async (req) => ok(await favorites.move(req.user(), req.body)),
  );
  app.delete(
    '/User/Favorites',
    { schema: { tags, summary: '取消收藏', body: IdListSchema, response: { 200: Envelope(Type.Object({ removed: Type.Integer() })) } } },
    async (req) => ok(await favorites.remove(req.user(), req.body)),
  );
};
