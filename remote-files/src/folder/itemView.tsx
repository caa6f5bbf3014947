// How an item of 云文档's file list looks: its icon (a shortcut shows its target's icon with
// an arrow) and whether its name opens it.
import type { Item } from '@app/shared';
import { FileIcon } from '@app/shared/ui';

/** Folders and shortcuts open from their name; files have no screen of their own yet. */
export const opensIn = (item: Item) => item.type === 'folder' || item.type === 'shortcut';

export function ItemIcon({ item, size }: { item: Item; size: number }) {
  if (item.type === 'shortcut') {
    return <FileIcon shortcut folder={item.targetType === 'folder'} extension={item.extension} name={item.name} size={size} />;
  }
  return <FileIcon folder={item.type === 'folder'} extension={item.extension} name={item.name} size={size} />;
}
