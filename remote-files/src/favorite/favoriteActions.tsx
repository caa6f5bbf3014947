// 收藏 and 取消收藏 of 云文档, as the file list and 我的收藏 run them: 收藏 puts the items in
// 默认收藏夹 (or the category given); 取消收藏 first asks the confirmation of spec section 8.
import { App as AntApp } from 'antd';
import { api, DEFAULT_FAVORITE_CATEGORY, notify, type Item } from '@app/shared';

/** The confirmation of 取消收藏 (spec section 8). */
export const UNFAVORITE_CONFIRM = { title: '取消收藏', content: '确定取消收藏该文件（夹）吗？', okText: '确定' } as const;

export const FAVORITE_TEXTS = {
  added: '收藏成功',
  removed: '已取消收藏',
  moved: '移动成功',
} as const;

type Favorite = Pick<Item, 'id'> & Partial<Pick<Item, 'isFavorite'>>;

/**
 * `onChanged(ids, isFavorite)` runs after the server took the change (the items acted on that
 * changed: 收藏 skips those already favourites, 取消收藏 those that are not).
 */
export function useFavoriteActions(onChanged: (ids: string[], isFavorite: boolean) => void) {
  const { modal } = AntApp.useApp();

  const favorite = async (items: Favorite[], categoryId: number = DEFAULT_FAVORITE_CATEGORY) => {
    const ids = items.filter((i) => !i.isFavorite).map((i) => i.id);
    if (!ids.length) return;
    try {
      await api.addFavorites({ fileIds: ids, categoryId });
    } catch {
      return; // the http client has shown the server's message
    }
    notify.success(FAVORITE_TEXTS.added);
    onChanged(ids, true);
  };

  /** An item whose isFavorite is not known (a row of 我的收藏) counts as a favourite. */
  const unfavorite = (items: Favorite[]) => {
    const ids = items.filter((i) => i.isFavorite !== false).map((i) => i.id);
    if (!ids.length) return;
    modal.confirm({
      ...UNFAVORITE_CONFIRM,
      cancelText: '取消',
      onOk: async () => {
        try {
          await api.removeFavorites(ids);
        } catch {
          return; // the http client has shown the server's message
        }
        notify.success(FAVORITE_TEXTS.removed);
        onChanged(ids, false);
      },
    });
  };

  return { favorite, unfavorite };
}
