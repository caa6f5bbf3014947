// 创建快捷方式 in 云文档: pick the folder that receives the shortcut, then create it there.
import { api, notify, type Item, type TreeNode } from '@app/shared';
import { FolderPicker } from '@app/shared/ui';

export interface ShortcutFlowProps {
  item: Item;
  /** called after the shortcut was created, with the folder that holds it */
  onDone: (parentId: string, shortcut: Item) => void;
  onClose: () => void;
}

export function ShortcutFlow({ item, onDone, onClose }: ShortcutFlowProps) {
  return (
    <FolderPicker
      open
      title="创建快捷方式"
      // a shortcut cannot sit in the folder it leads to
      disabledIds={item.type === 'folder' ? [item.id] : []}
      onOk={async (target: TreeNode) => {
        const shortcut = await api.createShortcut({ targetId: item.id, parentId: target.id });
        notify.success('快捷方式已创建');
        onDone(target.id, shortcut);
      }}
      onCancel={onClose}
    />
  );
}
