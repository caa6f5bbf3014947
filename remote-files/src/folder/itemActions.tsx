// Every action of 云文档's file list, described once: the toolbar, the row's links and the
// context menu are all built from these lists and the item's rights (Item.permissions).
// 收藏 / 取消收藏 also depend on the items' state (Item.isFavorite): a row offers one of the two.
import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  CalculatorOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  DragOutlined,
  EditOutlined,
  EyeOutlined,
  FileAddOutlined,
  FolderAddOutlined,
  FolderOpenOutlined,
  FieldTimeOutlined,
  HistoryOutlined,
  LinkOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
  ShareAltOutlined,
  StarFilled,
  StarOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import type { Item, ItemType } from '@app/shared';
import { can, type ItemRight } from '../actions/permissions';

export type ItemActionKey =
  | 'open'
  | 'preview'
  | 'download'
  | 'share'
  | 'rename'
  | 'copy'
  | 'move'
  | 'favorite'
  | 'unfavorite'
  | 'tag'
  | 'shortcut'
  | 'size'
  | 'versions'
  | 'activity'
  | 'permissions'
  | 'delete';

export interface ItemAction {
  key: ItemActionKey;
  label: string;
  icon: ReactNode;
  /** the right every item acted on needs */
  right: ItemRight;
  /** the kinds of item it applies to */
  kinds: ItemType[];
  /** applies to several selected items at once */
  multi?: boolean;
  /** only for items of the enterprise space */
  enterpriseOnly?: boolean;
  /** the state the items must be in (收藏 needs one not yet a favourite); the toolbar hides it otherwise */
  when?: (items: Item[]) => boolean;
  /** a link in the row itself (the others sit under 更多) */
  inline?: boolean;
  /** a button of the toolbar when items are selected */
  toolbar?: boolean;
  danger?: boolean;
}

const ALL: ItemType[] = ['folder', 'file', 'shortcut'];

export const ITEM_ACTIONS: ItemAction[] = [
  { key: 'open', label: '打开', icon: <FolderOpenOutlined />, right: 'view', kinds: ['folder', 'shortcut'] },
  { key: 'preview', label: '预览', icon: <EyeOutlined />, right: 'view', kinds: ['file'] },
  { key: 'download', label: '下载', icon: <DownloadOutlined />, right: 'download', kinds: ['folder', 'file'], multi: true, inline: true, toolbar: true },
  { key: 'share', label: '分享', icon: <ShareAltOutlined />, right: 'view', kinds: ['folder', 'file'], multi: true, inline: true, toolbar: true },
  { key: 'rename', label: '重命名', icon: <EditOutlined />, right: 'rename', kinds: ALL, inline: true, toolbar: true },
  { key: 'copy', label: '复制到', icon: <CopyOutlined />, right: 'copy', kinds: ALL, multi: true, inline: true, toolbar: true },
  { key: 'move', label: '移动到', icon: <DragOutlined />, right: 'move', kinds: ALL, multi: true, inline: true, toolbar: true },
  { key: 'favorite', label: '收藏', icon: <StarOutlined />, right: 'view', kinds: ['folder', 'file'], multi: true, toolbar: true, when: (items) => items.some((i) => !i.isFavorite) },
  { key: 'unfavorite', label: '取消收藏', icon: <StarFilled />, right: 'view', kinds: ['folder', 'file'], multi: true, toolbar: true, when: (items) => items.some((i) => i.isFavorite) },
  { key: 'tag', label: '标签', icon: <TagsOutlined />, right: 'view', kinds: ['folder', 'file'], multi: true, toolbar: true },
  { key: 'shortcut', label: '创建快捷方式', icon: <LinkOutlined />, right: 'view', kinds: ['folder', 'file'] },
  { key: 'size', label: '计算大小', icon: <CalculatorOutlined />, right: 'view', kinds: ['folder'] },
  { key: 'versions', label: '历史版本', icon: <HistoryOutlined />, right: 'view', kinds: ['file'] },
  { key: 'activity', label: '文件动态', icon: <FieldTimeOutlined />, right: 'manage', kinds: ['folder', 'file'] },
  { key: 'permissions', label: '权限设置', icon: <SafetyCertificateOutlined />, right: 'manage', kinds: ['folder', 'file'], enterpriseOnly: true },
  { key: 'delete', label: '删除', icon: <DeleteOutlined />, right: 'delete', kinds: ALL, multi: true, inline: true, toolbar: true, danger: true },
];

export const itemAction = (key: ItemActionKey) => ITEM_ACTIONS.find((a) => a.key === key) as ItemAction;

/** Whether `action` applies to `items` (one item, or a selection for the multi actions). */
export function applies(action: ItemAction, items: Item[]): boolean {
  if (!items.length || (items.length > 1 && !action.multi)) return false;
  return (
    items.every((i) => action.kinds.includes(i.type) && (!action.enterpriseOnly || i.spaceType === 1) && can(i, action.right)) &&
    (!action.when || action.when(items))
  );
}

/** The actions allowed on `items`, in menu order. */
export const allowedActions = (items: Item[]) => ITEM_ACTIONS.filter((a) => applies(a, items));

export type FolderActionKey = 'createFolder' | 'createFile' | 'refresh';

export interface FolderAction {
  key: FolderActionKey;
  label: string;
  icon: ReactNode;
  /** the right needed on the folder shown; none for 刷新 */
  right?: ItemRight;
}

/** What the folder shown offers (the toolbar, and a right click on the list's empty area). */
export const FOLDER_ACTIONS: FolderAction[] = [
  { key: 'createFolder', label: '新建文件夹', icon: <FolderAddOutlined />, right: 'createFolder' },
  { key: 'createFile', label: '新建文件', icon: <FileAddOutlined />, right: 'createFile' },
  { key: 'refresh', label: '刷新', icon: <ReloadOutlined /> },
];

export const allowedFolderActions = (folder: Item | undefined) =>
  FOLDER_ACTIONS.filter((a) => !a.right || (folder ? can(folder, a.right) : false));

/** Menu entries of antd's Menu for these actions. */
export function menuItems(actions: (ItemAction | FolderAction)[]): NonNullable<MenuProps['items']> {
  const out: NonNullable<MenuProps['items']> = [];
  actions.forEach((a) => {
    const danger = 'danger' in a && a.danger;
    if (danger && out.length) out.push({ type: 'divider', key: `divider-${a.key}` });
    out.push({ key: a.key, label: a.label, icon: a.icon, danger });
  });
  return out;
}
