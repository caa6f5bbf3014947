// A windowed list of fixed-height rows: only the rows in view (plus a 200 px buffer above and
// below) are rendered, so thousands of uploads scroll without freezing the page.
import { useState, type ReactNode } from 'react';
import { LIST_SCROLL_BUFFER_PX } from '@app/shared';

export interface VirtualListProps<T> {
  items: readonly T[];
  height: number;
  rowHeight: number;
  itemKey: (item: T) => string;
  renderRow: (item: T, index: number) => ReactNode;
  buffer?: number;
  'data-testid'?: string;
  'aria-label'?: string;
}

export function VirtualList<T>({ items, height, rowHeight, itemKey, renderRow, buffer = LIST_SCROLL_BUFFER_PX, ...rest }: VirtualListProps<T>) {
  const [scrollTop, setScrollTop] = useState(0);
  const total = items.length * rowHeight;
  const top = Math.min(scrollTop, Math.max(0, total - height));
  const start = Math.max(0, Math.floor((top - buffer) / rowHeight));
  const end = Math.min(items.length, Math.ceil((top + height + buffer) / rowHeight));
  const rows: ReactNode[] = [];
  for (let i = start; i < end; i += 1) {
    const item = items[i];
    rows.push(
      <div key={itemKey(item)} role="listitem" style={{ position: 'absolute', top: i * rowHeight, left: 0, right: 0, height: rowHeight }}>
        {renderRow(item, i)}
      </div>,
    );
  }
  return (
    <div
      role="list"
      data-testid={rest['data-testid']}
      aria-label={rest['aria-label']}
      style={{ height, overflowY: 'auto', position: 'relative' }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: total, position: 'relative' }}>{rows}</div>
    </div>
  );
}
