// Rights on items of 云文档 (Item.permissions, as the server lists them) and the fixed texts
// of the delete confirmation (spec section 8).
import type { Item } from '@app/shared';

export type ItemRight =
  | 'view'
  | 'download'
  | 'copy'
  | 'upload'
  | 'createFolder'
  | 'createFile'
  | 'rename'
  | 'move'
  | 'delete'
  | 'version'
  | 'manage';

export const can = (item: Pick<Item, 'permissions'>, right: ItemRight) => (item.permissions ?? []).includes(right);
export const canAll = (items: Pick<Item, 'permissions'>[], right: ItemRight) => items.length > 0 && items.every((i) => can(i, right));

export const DELETE_CONFIRM = { title: '删除', content: '确定删除该文件（夹）吗？', okText: '删除' } as const;
