// The context menu of 云文档's file list (list and grid): a right click on an item selects it
// (a selection that already holds it stays) and offers what that item or selection allows; a
// right click on the empty area offers what the folder shown allows.
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { Dropdown } from 'antd';
import type { Item } from '@app/shared';
import {
  allowedActions,
  allowedFolderActions,
  menuItems,
  type FolderActionKey,
  type ItemActionKey,
} from './itemActions';

export interface ListContextMenuProps {
  rows: Item[];
  selectedKeys: string[];
  onSelect: (keys: string[]) => void;
  /** the folder shown (its rights decide the empty area's menu) */
  folder?: Item;
  onItemAction: (key: ItemActionKey, items: Item[]) => void;
  onFolderAction: (key: FolderActionKey) => void;
  children: ReactNode;
}

/** The item under a right click: table rows carry data-row-key, grid tiles data-item-id. */
const itemIdAt = (target: EventTarget | null) => {
  const el = target instanceof Element ? target.closest('[data-row-key],[data-item-id]') : null;
  return el?.getAttribute('data-row-key') ?? el?.getAttribute('data-item-id') ?? null;
};

export function ListContextMenu({ rows, selectedKeys, onSelect, folder, onItemAction, onFolderAction, children }: ListContextMenuProps) {
  const [open, setOpen] = useState(false);
  // the items the menu acts on; [] for the empty area
  const [items, setItems] = useState<Item[]>([]);

  const onContextMenuCapture = (e: MouseEvent) => {
    const id = itemIdAt(e.target);
    const item = id ? rows.find((r) => r.id === id) : undefined;
    if (!item) {
      setItems([]);
      return;
    }
    if (selectedKeys.includes(item.id)) {
      setItems(rows.filter((r) => selectedKeys.includes(r.id)));
    } else {
      onSelect([item.id]);
      setItems([item]);
    }
  };

  const entries = items.length ? menuItems(allowedActions(items)) : menuItems(allowedFolderActions(folder));

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <Dropdown
      trigger={['contextMenu']}
      open={open && entries.length > 0}
      onOpenChange={setOpen}
      menu={{
        'aria-label': items.length ? '文件操作' : '文件夹操作',
        items: entries,
        onClick: ({ key }) => {
          setOpen(false);
          if (items.length) onItemAction(key as ItemActionKey, items);
          else onFolderAction(key as FolderActionKey);
        },
      }}
    >
      <div data-testid="file-list-area" onContextMenuCapture={onContextMenuCapture} style={{ minHeight: 320 }}>
        {children}
      </div>
    </Dropdown>
  );
}
