// 移动到 of 我的收藏: the favourites chosen go to another category (PUT /User/Favorites/Move).
import { useState } from 'react';
import { Radio, Typography } from 'antd';
import { api, notify, type FavoriteCategory, type FavoriteItem } from '@app/shared';
import { AppDialog } from '@app/shared/ui';
import { FAVORITE_TEXTS } from './favoriteActions';

export interface MoveFavoritesDialogProps {
  /** the favourites to move; null: closed */
  items: FavoriteItem[] | null;
  categories: FavoriteCategory[];
  onClose: () => void;
  /** after the server moved them */
  onDone: () => void;
}

export function MoveFavoritesDialog({ items, ...rest }: MoveFavoritesDialogProps) {
  // a new choice each time it opens
  return items?.length ? <OpenMoveDialog items={items} {...rest} /> : null;
}

function OpenMoveDialog({ items, categories, onClose, onDone }: MoveFavoritesDialogProps & { items: FavoriteItem[] }) {
  // the category they all share already is not offered as the target
  const current = items.every((i) => i.favoriteCategoryId === items[0].favoriteCategoryId) ? items[0].favoriteCategoryId : undefined;
  const [target, setTarget] = useState<number | undefined>(undefined);

  const submit = async () => {
    if (target === undefined) return;
    try {
      await api.moveFavorites({ fileIds: items.map((i) => i.id), categoryId: target });
    } catch {
      return; // the http client has shown the server's message; the dialog stays open
    }
    notify.success(FAVORITE_TEXTS.moved);
    onDone();
  };

  return (
    <AppDialog open title="移动到" fullscreenable={false} onOk={submit} okButtonProps={{ disabled: target === undefined }} onCancel={onClose}>
      <Typography.Paragraph type="secondary">
        {items.length === 1 ? `将“${items[0].name}”移动到以下分类：` : `将选中的 ${items.length} 项收藏移动到以下分类：`}
      </Typography.Paragraph>
      <Radio.Group
        aria-label="收藏分类"
        value={target}
        onChange={(e) => setTarget(e.target.value as number)}
        style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
        options={categories.map((c) => ({
          value: c.id,
          label: c.id === current ? `${c.name}（当前分类）` : c.name,
          disabled: c.id === current,
        }))}
      />
    </AppDialog>
  );
}
