// 我的收藏 of 云文档 (/file/favorite): the favourites categories on the left (全部收藏, then
// 默认收藏夹 and the user's own, each with its count; 新建分类, 重命名 and 删除), the chosen
// category's favourites on the right, paged on the server, with 打开所在位置, 移动到 and
// 取消收藏 for one row or the selection. The chosen category is kept in ?categoryId=.
import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Button, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DragOutlined, FolderOutlined, PlusOutlined, ReloadOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router-dom';
import {
  ALL_FAVORITES,
  api,
  DEFAULT_FAVORITE_CATEGORY,
  formatDateTime,
  notify,
  useLoad,
  type FavoriteCategory,
  type FavoriteItem,
} from '@app/shared';
import { LoadError, RemotePage, RowLink, SectionEmpty, useRowLinkStyle } from '@app/shared/ui';
import { SideList, type SideEntry } from '../common/SideList';
import { itemColumns, useOpenLocation, usePreviewFile } from '../common/itemCells';
import { confirmDelete, pagingOf, selectionOf } from '../common/listParts';
import { CategoryDialog } from './CategoryDialog';
import { MoveFavoritesDialog } from './MoveFavoritesDialog';
import { useFavoriteActions } from './favoriteActions';

export const FAVORITE_PAGE_SIZE = 50;
/** The query parameter naming the category shown. */
export const CATEGORY_PARAM = 'categoryId';

export const FAVORITE_PAGE_TEXTS = {
  all: '全部收藏',
  createCategory: '新建分类',
  renameCategory: '重命名',
  deleteCategory: '删除',
  deleteCategoryTitle: '删除分类',
  deleteCategoryContent: '删除分类后，其中的收藏将移到默认收藏夹。',
  created: '新建成功',
  renamed: '重命名成功',
  deleted: '删除成功',
  empty: '暂无收藏',
  emptyAllNote: '在文件列表中点击“收藏”，收藏的文件（夹）会显示在这里',
  emptyCategoryNote: '该分类下还没有收藏',
} as const;

type Dialog = { kind: 'create' } | { kind: 'rename'; category: FavoriteCategory } | { kind: 'move'; items: FavoriteItem[] };

const categoryIdOf = (value: string | null) => {
  const n = value === null || value === '' ? NaN : Number(value);
  return Number.isInteger(n) && n >= ALL_FAVORITES ? n : ALL_FAVORITES;
};

export function FavoritePage({ title = '我的收藏' }: { title?: string }) {
  useRowLinkStyle();
  const { modal } = AntApp.useApp();
  const [params, setParams] = useSearchParams();
  const categoryId = categoryIdOf(params.get(CATEGORY_PARAM));
  const [paging, setPaging] = useState({ categoryId, page: 1 });
  // another category starts from its first page
  const page = paging.categoryId === categoryId ? paging.page : 1;
  const setPage = (p: number) => setPaging({ categoryId, page: p });
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const openLocation = useOpenLocation();

  const categories = useLoad(useCallback(() => api.getFavoriteCategories(), []));
  const favorites = useLoad(
    useCallback(() => api.getFavorites(categoryId, { page, pageSize: FAVORITE_PAGE_SIZE }), [categoryId, page]),
  );
  const list = categories.state.data ?? [];
  const data = favorites.state.data;
  const reloadAll = () => {
    categories.reload();
    favorites.reload();
  };

  const choose = (id: number) => {
    const next = new URLSearchParams(params);
    if (id === ALL_FAVORITES) next.delete(CATEGORY_PARAM);
    else next.set(CATEGORY_PARAM, String(id));
    setParams(next);
    setSelectedKeys([]);
  };

  // a category named in the URL that is gone (deleted, or another user's link): 全部收藏
  const known = categoryId === ALL_FAVORITES || list.some((c) => c.id === categoryId);
  useEffect(() => {
    if (categories.state.status === 'ready' && !known) choose(ALL_FAVORITES);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [categories.state.status, known]);

  useEffect(() => {
    setSelectedKeys([]);
    // a page emptied by the last 取消收藏 or 移动到: back one
    if (data && !data.data.length && page > 1 && data.total > 0) setPage(page - 1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data]);

  const { unfavorite } = useFavoriteActions(reloadAll);
  const rows = data?.data ?? [];
  const selected = rows.filter((r) => selectedKeys.includes(r.id));
  const categoryName = (id: number) => list.find((c) => c.id === id)?.name ?? '';

  const deleteCategory = (category: FavoriteCategory) =>
    confirmDelete(modal, {
      title: FAVORITE_PAGE_TEXTS.deleteCategoryTitle,
      what: '分类',
      name: category.name,
      note: FAVORITE_PAGE_TEXTS.deleteCategoryContent,
      remove: () => api.deleteFavoriteCategory(category.id),
      done: FAVORITE_PAGE_TEXTS.deleted,
      after: () => {
        if (categoryId === category.id) choose(ALL_FAVORITES);
        reloadAll();
      },
    });

  const total = list.reduce((sum, c) => sum + c.count, 0);
  const entries: SideEntry[] = [
    { key: String(ALL_FAVORITES), name: FAVORITE_PAGE_TEXTS.all, icon: <StarOutlined />, count: categories.state.data ? total : undefined },
    ...list.map((c) => ({
      key: String(c.id),
      name: c.name,
      icon: <FolderOutlined />,
      count: c.count,
      // 默认收藏夹 is always there, under its own name
      actions:
        c.id === DEFAULT_FAVORITE_CATEGORY
          ? undefined
          : [
              { key: 'rename', label: FAVORITE_PAGE_TEXTS.renameCategory },
              { key: 'delete', label: FAVORITE_PAGE_TEXTS.deleteCategory, danger: true },
            ],
    })),
  ];

  const preview = usePreviewFile(rows);
  const shared = itemColumns<FavoriteItem>(openLocation, preview);
  const columns: TableColumnsType<FavoriteItem> = [
    ...shared.slice(0, 2),
    // 全部收藏 says which category each favourite is in
    ...(categoryId === ALL_FAVORITES
      ? [{ key: 'category', title: '分类', width: 130, ellipsis: true, render: (_: unknown, item: FavoriteItem) => categoryName(item.favoriteCategoryId) }]
      : []),
    shared[2],
    { key: 'favoritedAt', dataIndex: 'favoritedAt', title: '收藏时间', width: 170, render: (v: string) => formatDateTime(v) },
    {
      key: 'actions',
      title: '操作',
      width: 250,
      render: (_: unknown, item) => (
        <span style={{ display: 'inline-flex', flexWrap: 'wrap', columnGap: 12, rowGap: 4 }}>
          <RowLink aria-label={`打开所在位置 ${item.name}`} onClick={() => openLocation(item)}>
            打开所在位置
          </RowLink>
          <RowLink aria-label={`移动到 ${item.name}`} onClick={() => setDialog({ kind: 'move', items: [item] })}>
            移动到
          </RowLink>
          <RowLink aria-label={`取消收藏 ${item.name}`} onClick={() => unfavorite([item])}>
            取消收藏
          </RowLink>
        </span>
      ),
    },
  ];

  const toolbar = (
    <>
      {selected.length ? (
        <>
          <Typography.Text type="secondary">已选 {selected.length} 项</Typography.Text>
          <Button icon={<DragOutlined />} onClick={() => setDialog({ kind: 'move', items: selected })}>
            移动到
          </Button>
          <Button icon={<StarFilled />} onClick={() => unfavorite(selected)}>
            取消收藏
          </Button>
        </>
      ) : null}
      <Button icon={<ReloadOutlined />} onClick={reloadAll}>
        刷新
      </Button>
    </>
  );

  const closeDialog = () => setDialog(null);
  const current = categoryId === ALL_FAVORITES ? undefined : list.find((c) => c.id === categoryId);

  return (
    <RemotePage title={title} extra={toolbar}>
      <div style={{ display: 'flex', alignItems: 'stretch', minWidth: 0 }}>
        <SideList
          label="收藏分类"
          groups={[{ entries }]}
          selectedKey={String(categoryId)}
          onSelect={(key) => choose(Number(key))}
          onAction={(key, action) => {
            const category = list.find((c) => String(c.id) === key);
            if (!category) return;
            if (action === 'rename') setDialog({ kind: 'rename', category });
            else deleteCategory(category);
          }}
          header={
            <Button icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'create' })}>
              {FAVORITE_PAGE_TEXTS.createCategory}
            </Button>
          }
          footer={
            categories.state.status === 'error' && !categories.state.data ? (
              <Typography.Text type="secondary">
                分类加载失败，<RowLink onClick={categories.reload}>重试</RowLink>
              </Typography.Text>
            ) : null
          }
        />
        <div style={{ flex: 1, minWidth: 0 }}>
          {favorites.state.status === 'error' && !data ? (
            <LoadError message={favorites.state.message} onRetry={favorites.reload} />
          ) : (
            <Table<FavoriteItem>
              aria-label={current ? `${current.name}的收藏` : FAVORITE_PAGE_TEXTS.all}
              rowKey="id"
              size="middle"
              scroll={{ x: 900 }}
              columns={columns}
              dataSource={rows}
              loading={favorites.state.status === 'loading'}
              rowSelection={selectionOf(selectedKeys, setSelectedKeys)}
              locale={{
                emptyText:
                  favorites.state.status === 'loading' ? (
                    <span />
                  ) : (
                    <SectionEmpty
                      description={FAVORITE_PAGE_TEXTS.empty}
                      note={categoryId === ALL_FAVORITES ? FAVORITE_PAGE_TEXTS.emptyAllNote : FAVORITE_PAGE_TEXTS.emptyCategoryNote}
                    />
                  ),
              }}
              pagination={pagingOf(page, FAVORITE_PAGE_SIZE, data?.total ?? 0, setPage)}
            />
          )}
        </div>
      </div>
      <CategoryDialog
        open={dialog?.kind === 'create' || dialog?.kind === 'rename'}
        title={dialog?.kind === 'rename' ? '重命名分类' : FAVORITE_PAGE_TEXTS.createCategory}
        initialValue={dialog?.kind === 'rename' ? dialog.category.name : ''}
        taken={list.filter((c) => dialog?.kind !== 'rename' || c.id !== dialog.category.id).map((c) => c.name)}
        onCancel={closeDialog}
        onSubmit={async (name) => {
          if (dialog?.kind === 'rename') {
            const { id } = dialog.category;
            if (name !== dialog.category.name) {
              await api.saveFavoriteCategory({ id, name });
              notify.success(FAVORITE_PAGE_TEXTS.renamed);
              categories.setData(list.map((c) => (c.id === id ? { ...c, name } : c)));
            }
          } else {
            const created = await api.saveFavoriteCategory({ name });
            notify.success(FAVORITE_PAGE_TEXTS.created);
            // the new category is listed (and shown) at once
            categories.setData([...list, { ...created, name: created.name || name, count: created.count ?? 0 }]);
            choose(created.id);
          }
          closeDialog();
        }}
      />
      <MoveFavoritesDialog
        items={dialog?.kind === 'move' ? dialog.items : null}
        categories={list}
        onClose={closeDialog}
        onDone={() => {
          closeDialog();
          reloadAll();
        }}
      />
    </RemotePage>
  );
}
