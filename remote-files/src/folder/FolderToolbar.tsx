// The toolbar of 云文档's file list: what the selection allows, what the folder shown allows,
// 上传, the search in the folder, 刷新, the sort order and the list or grid mode.
import { Button, Dropdown, Input, Segmented, Typography } from 'antd';
import { AppstoreOutlined, BarsOutlined, ReloadOutlined, SortAscendingOutlined } from '@ant-design/icons';
import type { Item } from '@app/shared';
import { allowedFolderActions, applies, ITEM_ACTIONS, type FolderActionKey, type ItemActionKey } from './itemActions';
import type { ListMode, ListSort, SortField } from './listMode';
import { canUploadInto, UploadButton } from '../upload';

const SORT_LABELS: Record<SortField, string> = { name: '名称', size: '大小', updatedAt: '修改时间', manual: '手动排序' };

export interface FolderToolbarProps {
  selected: Item[];
  /** the folder shown (undefined while it loads) */
  folder?: Item;
  onItemAction: (key: ItemActionKey, items: Item[]) => void;
  onFolderAction: (key: FolderActionKey) => void;
  searchText: string;
  onSearchText: (text: string) => void;
  onSearch: (text: string) => void;
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  mode: ListMode;
  onMode: (mode: ListMode) => void;
}

export function FolderToolbar(props: FolderToolbarProps) {
  const { selected, folder, onItemAction, onFolderAction, sort, onSort } = props;
  return (
    <>
      {selected.length ? (
        <>
          <Typography.Text type="secondary">已选 {selected.length} 项</Typography.Text>
          {ITEM_ACTIONS.filter((a) => a.toolbar).map((a) => {
            const allowed = applies(a, selected);
            // single-item actions and those of the items' state (收藏 / 取消收藏) show only when
            // they apply; the others show disabled
            if ((!a.multi || a.when) && !allowed) return null;
            return (
              <Button key={a.key} icon={a.icon} danger={a.danger} disabled={!allowed} onClick={() => onItemAction(a.key, selected)}>
                {a.label}
              </Button>
            );
          })}
        </>
      ) : null}
      {canUploadInto(folder) ? <UploadButton folder={folder} /> : null}
      {allowedFolderActions(folder)
        .filter((a) => a.key !== 'refresh')
        .map((a) => (
          <Button key={a.key} icon={a.icon} onClick={() => onFolderAction(a.key)}>
            {a.label}
          </Button>
        ))}
      <Input.Search
        allowClear
        placeholder="搜索当前文件夹"
        aria-label="搜索当前文件夹"
        style={{ width: 240 }}
        value={props.searchText}
        onChange={(e) => props.onSearchText(e.target.value)}
        onSearch={props.onSearch}
      />
      <Button icon={<ReloadOutlined />} onClick={() => onFolderAction('refresh')}>
        刷新
      </Button>
      <Dropdown
        trigger={['click']}
        menu={{
          'aria-label': '排序方式',
          selectable: true,
          selectedKeys: [sort.sortField ?? 'default'],
          items: [
            { key: 'default', label: '默认排序' },
            ...(['name', 'size', 'updatedAt', 'manual'] as SortField[]).map((f) => ({ key: f, label: SORT_LABELS[f] })),
          ],
          onClick: ({ key }) => {
            if (key === 'default') onSort({});
            else if (key === 'manual') onSort({ sortField: 'manual' });
            else onSort({ sortField: key as SortField, sortOrder: sort.sortField === key ? sort.sortOrder : 'asc' });
          },
        }}
      >
        <Button icon={<SortAscendingOutlined />}>{sort.sortField ? `排序：${SORT_LABELS[sort.sortField]}` : '排序'}</Button>
      </Dropdown>
      <Segmented<ListMode>
        aria-label="显示方式"
        value={props.mode}
        onChange={props.onMode}
        options={[
          { value: 'list', icon: <BarsOutlined />, label: '列表' },
          { value: 'grid', icon: <AppstoreOutlined />, label: '宫格' },
        ]}
      />
    </>
  );
}
