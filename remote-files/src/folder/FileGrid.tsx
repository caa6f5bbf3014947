// The grid mode of 云文档's folder view: one tile per item with its icon (a picture's
// thumbnail), name (and its star and tags) and a selection checkbox; the toolbar and the context menu act on the selection.
import type { HTMLAttributes, ReactNode } from 'react';
import { Checkbox, Pagination, Spin, Typography } from 'antd';
import { formatBytes, formatDateTime, type Item } from '@app/shared';
import { opensIn } from './itemView';
import { TileVisual } from './TileVisual';
import { ItemBadges } from './ItemBadges';

export interface FileGridProps {
  items: Item[];
  loading: boolean;
  selectedKeys: string[];
  onSelect: (keys: string[]) => void;
  onOpen: (item: Item) => void;
  empty: ReactNode;
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** extra props of a tile (drag and drop of the manual order, the focus highlight) */
  tileProps?: (item: Item) => HTMLAttributes<HTMLElement>;
}

export function FileGrid({ items, loading, selectedKeys, onSelect, onOpen, empty, page, pageSize, total, onPage, tileProps }: FileGridProps) {
  const toggle = (id: string, on: boolean) => onSelect(on ? [...selectedKeys.filter((k) => k !== id), id] : selectedKeys.filter((k) => k !== id));
  return (
    <Spin spinning={loading}>
      {items.length === 0 ? (
        loading ? <div style={{ minHeight: 120 }} /> : empty
      ) : (
        <div
          role="list"
          aria-label="文件宫格"
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))', gap: 12 }}
        >
          {items.map((item) => {
            const checked = selectedKeys.includes(item.id);
            const extra = tileProps?.(item) ?? {};
            return (
              <div
                key={item.id}
                role="listitem"
                aria-label={item.name}
                data-item-id={item.id}
                {...extra}
                style={{
                  ...extra.style,
                  position: 'relative',
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  gap: 6,
                  padding: '16px 8px 10px',
                  borderRadius: 8,
                  border: `1px solid ${checked ? '#1f6feb' : '#f0f0f0'}`,
                  background: checked ? '#f0f6ff' : undefined,
                }}
              >
                <Checkbox
                  aria-label={`选择 ${item.name}`}
                  checked={checked}
                  onChange={(e) => toggle(item.id, e.target.checked)}
                  style={{ position: 'absolute', top: 6, left: 8 }}
                />
                <TileVisual item={item} size={48} />
                {opensIn(item) ? (
                  <Typography.Link onClick={() => onOpen(item)} ellipsis style={{ maxWidth: '100%' }}>
                    {item.name}
                  </Typography.Link>
                ) : (
                  <Typography.Text ellipsis={{ tooltip: item.name }} style={{ maxWidth: '100%' }}>
                    {item.name}
                  </Typography.Text>
                )}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {item.type === 'file' ? formatBytes(item.size) : formatDateTime(item.updatedAt)}
                </Typography.Text>
                <ItemBadges item={item} max={2} />
              </div>
            );
          })}
        </div>
      )}
      {total > pageSize ? (
        <Pagination
          style={{ marginTop: 16, justifyContent: 'flex-end' }}
          current={page}
          pageSize={pageSize}
          total={total}
          showSizeChanger={false}
          showTotal={(t) => `共 ${t} 项`}
          onChange={onPage}
        />
      ) : null}
    </Spin>
  );
}
