// 云文档 favourites: each user's favourite items in categories (默认收藏夹 is id 0 and has no
// row). Lists show only what the user may still read and what is not in the recycle bin; a
// favourite comes back when its item does.
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/types';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors';
import type { TimeFormatter } from '../../lib/time';
import type { FoldersService } from '../folders/service';
import { itemsInOrder } from '../search/items';
import { callerScope, markedInScope, markedPage } from '../search/scope';
import { cleanLabel } from '../tags/labels';
import type { FavoriteCategory, FavoriteCategoryBody, FavoritesBody, FavoritesList, FavoritesQuery } from './schemas';

export const DEFAULT_CATEGORY = 0;
export const ALL_CATEGORIES = -1;
const DEFAULT_CATEGORY_NAME = '默认收藏夹';
const CATEGORY_NOT_FOUND = '收藏分类不存在';
/** Categories a user may make. */
const CATEGORIES_MAX = 200;

export class FavoritesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly folders: FoldersService,
    private readonly formatTime: TimeFormatter,
  ) {}

  private scopeFor(user: UserRow) {
    return callerScope(this.db, this.folders, user);
  }

  /** A category of the user (0 always exists), else 404. */
  private async categoryOf(user: UserRow, id: number): Promise<number | null> {
    if (id === DEFAULT_CATEGORY) return null;
    const row = await this.db.selectFrom('favorite_categories').select('id').where('id', '=', id).where('user_id', '=', user.id).executeTakeFirst();
    if (!row) throw notFound(CATEGORY_NOT_FOUND);
    return Number(row.id);
  }

  /** GET /api/User/Favorites/Categories: 默认收藏夹 first, then the others in the order they were made. */
  async categories(user: UserRow): Promise<FavoriteCategory[]> {
    const { scope } = await this.scopeFor(user);
    const [rows, counts] = await Promise.all([
      this.db.selectFrom('favorite_categories').select(['id', 'name']).where('user_id', '=', user.id).orderBy('id').execute(),
      markedInScope(this.db.selectFrom('favorites as f').where('f.user_id', '=', user.id), scope, 'f')
        .select(['f.category_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('f.category_id')
        .execute(),
    ]);
    const countOf = new Map(counts.map((c) => [c.category_id === null ? DEFAULT_CATEGORY : Number(c.category_id), Number(c.n)]));
    return [
      { id: DEFAULT_CATEGORY, name: DEFAULT_CATEGORY_NAME, count: countOf.get(DEFAULT_CATEGORY) ?? 0 },
      ...rows.map((r) => ({ id: Number(r.id), name: r.name, count: countOf.get(Number(r.id)) ?? 0 })),
    ];
  }

  /** POST /api/User/Favorites/Categories: creates a category, or renames one (not 默认收藏夹). */
  async saveCategory(user: UserRow, body: FavoriteCategoryBody): Promise<FavoriteCategory> {
    const { name, key } = cleanLabel(body.name, '分类名称');
    if (key === DEFAULT_CATEGORY_NAME) throw conflict('已存在同名的收藏分类');
    try {
      if (body.id === undefined) {
        const made = await this.db.transaction().execute(async (trx) => {
          const { n } = await trx
            .selectFrom('favorite_categories')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', user.id)
            .executeTakeFirstOrThrow();
          if (Number(n) >= CATEGORIES_MAX) throw badRequest(`收藏分类最多 ${CATEGORIES_MAX} 个`);
          return trx
            .insertInto('favorite_categories')
            .values({ user_id: user.id, name, name_key: key, created_at: Date.now() })
            .returning('id')
            .executeTakeFirstOrThrow();
        });
        return { id: Number(made.id), name, count: 0 };
      }
      if (body.id === DEFAULT_CATEGORY) throw badRequest('默认收藏夹不能重命名');
      const id = (await this.categoryOf(user, body.id))!;
      await this.db.updateTable('favorite_categories').set({ name, name_key: key }).where('id', '=', id).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('已存在同名的收藏分类');
      throw err;
    }
    return (await this.categories(user)).find((c) => c.id === body.id)!;
  }

  /** DELETE /api/User/Favorites/Categories/{id}: its favourites go to 默认收藏夹. */
  async deleteCategory(user: UserRow, id: number): Promise<{ moved: number }> {
    if (id === DEFAULT_CATEGORY) throw badRequest('默认收藏夹不能删除');
    const categoryId = (await this.categoryOf(user, id))!;
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx.updateTable('favorites').set({ category_id: null }).where('user_id', '=', user.id).where('category_id', '=', categoryId).executeTakeFirst();
      await trx.deleteFrom('favorite_categories').where('id', '=', categoryId).where('user_id', '=', user.id).execute();
      return { moved: Number(moved.numUpdatedRows) };
    });
  }

  /** GET /api/User/Favorites/{categoryId}: newest favourite first; -1 lists every category. */
  async list(user: UserRow, categoryId: number, query: FavoritesQuery): Promise<FavoritesList> {
    if (categoryId !== ALL_CATEGORIES) await this.categoryOf(user, categoryId);
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const { rights, scope } = await this.scopeFor(user);
    const { rows, total } = await markedPage(
      this.db
        .selectFrom('favorites as f')
        .where('f.user_id', '=', user.id)
        .$if(categoryId === DEFAULT_CATEGORY, (q) => q.where('f.category_id', 'is', null))
        .$if(categoryId > DEFAULT_CATEGORY, (q) => q.where('f.category_id', '=', categoryId)),
      scope,
      'f',
      ['item_id', 'category_id', 'created_at'],
      page,
      pageSize,
    );
    const meta = new Map(rows.map((r) => [Number(r.item_id), r]));
    const items = await itemsInOrder(this.db, this.folders, user, rights, rows.map((r) => Number(r.item_id)));
    return {
      data: items.map(({ item }) => {
        const m = meta.get(Number(item.id))!;
        return { ...item, favoriteCategoryId: m.category_id === null ? DEFAULT_CATEGORY : Number(m.category_id), favoritedAt: this.formatTime(m.created_at) };
      }),
      total,
    };
  }

  /** POST /api/User/Favorites: items the caller may read (else 404, nothing added); a favourite already there moves to the category. */
  async add(user: UserRow, body: FavoritesBody): Promise<{ added: number }> {
    const category = await this.categoryOf(user, body.categoryId ?? DEFAULT_CATEGORY);
    const { policy } = await this.folders.context(user);
    const { items } = await this.folders.itemsAndRights(user, [...new Set(body.fileIds)], policy);
    const now = Date.now();
    await this.db.transaction().execute(async (trx) => {
      for (const item of items) {
        await trx
          .insertInto('favorites')
          .values({ user_id: user.id, item_id: item.id, category_id: category, created_at: now })
          .onConflict((oc) => oc.columns(['user_id', 'item_id']).doUpdateSet({ category_id: category }))
          .execute();
      }
    });
    return { added: items.length };
  }

  /** PUT /api/User/Favorites/Move: the caller's favourites among fileIds go to the category. */
  async move(user: UserRow, body: FavoritesBody): Promise<{ moved: number }> {
    const category = await this.categoryOf(user, body.categoryId ?? DEFAULT_CATEGORY);
    const ids = body.fileIds.map(Number);
    const moved = await this.db.updateTable('favorites').set({ category_id: category }).where('user_id', '=', user.id).where('item_id', 'in', ids).executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw notFound('收藏不存在');
    return { moved: Number(moved.numUpdatedRows) };
  }

  /** DELETE /api/User/Favorites: removes the caller's favourites of these items (others are ignored). */
  async remove(user: UserRow, fileIds: string[]): Promise<{ removed: number }> {
    const removed = await this.db.deleteFrom('favorites').where('user_id', '=', user.id).where('item_id', 'in', fileIds.map(Number)).executeTakeFirst();
    return { removed: Number(removed.numDeletedRows) };
  }
}
