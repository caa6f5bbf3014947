// How an item of 云文档's file list looks: its icon (a shortcut shows its target's icon with
// an arrow) and whether its name opens it.
import type { Item } from '@app/shared';
import { FileIcon } from '@app/shared/ui';

/** Every item opens from its name: a folder in the list, a shortcut its target, a file its preview. */
export const opensIn = (item: Item) => item.type === 'folder' || item.type === 'shortcut' || item.type === 'file';

export function ItemIcon({ item, size }: { item: Item; size: number }) {
  if (item.type === 'shortcut') {
    return <FileIcon shortcut folder={item.targetType === 'folder'} extension={item.extension} name={item.name} size={size} />;
  }
  return <FileIcon folder={item.type === 'folder'} extension={item.extension} name={item.name} size={size} />;
}
