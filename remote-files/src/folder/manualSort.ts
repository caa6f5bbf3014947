// 手动排序 in 云文档's file list: with the manual order shown, a row (or grid tile) dragged onto
// another row of the same kind goes just before it (upper half) or after it (lower half).
// Folders always list before files, so a folder cannot be dropped among files nor the reverse.
import { useRef, useState, type DragEvent, type HTMLAttributes } from 'react';
import type { Item } from '@app/shared';

export type DropPosition = 'before' | 'after';

export interface DropHint {
  id: string;
  position: DropPosition;
}

/** folders among folders; files and shortcuts among the rest */
const group = (item: Item) => (item.type === 'folder' ? 'folder' : 'file');

const positionOf = (e: DragEvent<HTMLElement>): DropPosition => {
  const rect = e.currentTarget.getBoundingClientRect();
  return e.clientY < rect.top + rect.height / 2 ? 'before' : 'after';
};

/** The marker of the drop place: a line above or below the row. */
export const dropStyle = (position: DropPosition) => ({
  boxShadow: position === 'before' ? 'inset 0 2px 0 0 #1677ff' : 'inset 0 -2px 0 0 #1677ff',
});

/**
 * Drag-and-drop props for the rows of the manual order. `onDrop` receives the item dragged,
 * the item it was dropped on and the side; nothing is offered while `enabled` is false.
 */
export function useManualSort(enabled: boolean, onDrop: (item: Item, target: Item, position: DropPosition) => void) {
  const dragged = useRef<Item | null>(null);
  const [hint, setHint] = useState<DropHint | null>(null);

  const accepts = (target: Item) => {
    const source = dragged.current;
    return !!source && source.id !== target.id && group(source) === group(target);
  };

  const rowProps = (item: Item): HTMLAttributes<HTMLElement> & { 'data-drop-position'?: DropPosition } => {
    if (!enabled) return {};
    const shown = hint?.id === item.id ? hint.position : undefined;
    return {
      draggable: true,
      'data-drop-position': shown,
      style: shown ? { ...dropStyle(shown), cursor: 'move' } : { cursor: 'move' },
      onDragStart: (e) => {
        dragged.current = item;
        if (e.dataTransfer) {
          e.dataTransfer.effectAllowed = 'move';
          e.dataTransfer.setData?.('text/plain', item.id);
        }
      },
      onDragOver: (e) => {
        if (!accepts(item)) {
          // not calling preventDefault leaves the browser's "not allowed" cursor
          if (e.dataTransfer) e.dataTransfer.dropEffect = 'none';
          if (hint) setHint(null);
          return;
        }
        e.preventDefault();
        if (e.dataTransfer) e.dataTransfer.dropEffect = 'move';
        const position = positionOf(e);
        if (hint?.id !== item.id || hint.position !== position) setHint({ id: item.id, position });
      },
      onDragLeave: (e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setHint((h) => (h?.id === item.id ? null : h));
      },
      onDrop: (e) => {
        const source = dragged.current;
        if (!source || !accepts(item)) return;
        e.preventDefault();
        const position = positionOf(e);
        dragged.current = null;
        setHint(null);
        onDrop(source, item, position);
      },
      onDragEnd: () => {
        dragged.current = null;
        setHint(null);
      },
    };
  };

  return { rowProps };
}
