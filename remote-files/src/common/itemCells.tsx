// What 我的收藏 and 标签 show of an item and how they lead to it: its name cell (icon, name,
// star and tags; a file's name opens its preview), the folder it sits in, and 打开所在位置
// through the shared jump helper.
import type { TableColumnType } from 'antd';
import { useNavigate } from 'react-router-dom';
import { formatBytes, jumpToFile, useRoles, type Item } from '@app/shared';
import { RowLink, useOpenPreview } from '@app/shared/ui';
import { ItemIcon } from '../folder/itemView';
import { ItemBadges } from '../folder/ItemBadges';

/** The folder an item sits in, from its name path: 个人文件/项目文档/计划.xlsx → 个人文件/项目文档. */
export function locationOf(item: Pick<Item, 'namePath'>): string {
  const parts = (item.namePath ?? '').split('/').filter(Boolean);
  return parts.length > 1 ? parts.slice(0, -1).join('/') : parts.join('/');
}

/**
 * 打开所在位置: a folder opens itself; a file (or a shortcut) opens its folder with it selected
 * (spec sections 2 and 5). Warns and stays when the space is not allowed.
 */
export function useOpenLocation(): (item: Pick<Item, 'idPath' | 'type'>) => void {
  const roles = useRoles();
  const navigate = useNavigate();
  return (item) => {
    jumpToFile({ idPath: item.idPath, type: item.type === 'folder' ? 'folder' : 'file' }, roles, navigate);
  };
}

/** A file's preview, with the files of `rows` (the page shown) as its neighbours. */
export function usePreviewFile(rows: Item[]): (item: Item) => void {
  const openPreview = useOpenPreview();
  return (item) => void openPreview({ fileId: item.id, extension: item.extension, name: item.name, siblings: rows });
}

/** The name cell of a row: icon, the name (a folder's opens it, a file's previews it) and the item's star and tags. */
export function ItemNameCell({ item, onOpen, onPreview }: { item: Item; onOpen?: (item: Item) => void; onPreview?: (item: Item) => void }) {
  const action = item.type === 'folder' ? onOpen : item.type === 'file' ? onPreview : undefined;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
      <ItemIcon item={item} size={24} />
      {action ? <RowLink onClick={() => action(item)}>{item.name}</RowLink> : <span>{item.name}</span>}
      <ItemBadges item={item} />
    </span>
  );
}

/** The columns 我的收藏 and 标签 share: name (a folder opens in place, a file in its preview), 位置 and 大小. */
export function itemColumns<T extends Item>(openLocation: (item: T) => void, preview?: (item: T) => void): TableColumnType<T>[] {
  return [
    {
      key: 'name',
      dataIndex: 'name',
      title: '名称',
      ellipsis: true,
      render: (_: unknown, item) => (
        <ItemNameCell item={item} onOpen={() => openLocation(item)} onPreview={preview ? () => preview(item) : undefined} />
      ),
    },
    {
      key: 'location',
      title: '位置',
      ellipsis: true,
      render: (_: unknown, item) => <span title={item.namePath}>{locationOf(item)}</span>,
    },
    {
      key: 'size',
      dataIndex: 'size',
      title: '大小',
      width: 110,
      render: (_: unknown, item) => (item.type === 'file' ? formatBytes(item.size) : '-'),
    },
  ];
}
