// 移动到 / 复制到 in 云文档: pick a target folder, call Move or Copy; on a name conflict
// (conflictType 1, nothing done yet) ask for a strategy and call again with it.
import { useState } from 'react';
import { api, notify, type Item, type MoveCopyBody, type OperationResult, type TreeNode } from '@app/shared';
import { ConflictDialog, FolderPicker, type ConflictDialogResult } from '@app/shared/ui';

export type TransferMode = 'move' | 'copy';

export const TRANSFER_TITLES: Record<TransferMode, string> = { move: '移动到', copy: '复制到' };
const DONE: Record<TransferMode, string> = { move: '移动成功', copy: '复制成功' };

export interface TransferFlowProps {
  mode: TransferMode;
  items: Item[];
  /** called after the items were moved or copied, with the target folder's id */
  onDone: (targetId: string) => void;
  onClose: () => void;
}

export function TransferFlow({ mode, items, onDone, onClose }: TransferFlowProps) {
  const [step, setStep] = useState<'pick' | 'conflict'>('pick');
  const [targetId, setTargetId] = useState<string | null>(null);
  const [conflict, setConflict] = useState<OperationResult | null>(null);

  const run = async (target: string, choice?: ConflictDialogResult) => {
    const body: MoveCopyBody = { ids: items.map((i) => i.id), targetId: target };
    if (choice) {
      body.strategy = choice.operation;
      // the server takes a new name only when the batch has a single conflict
      if (choice.newFileName && items.length === 1) body.newFileName = choice.newFileName;
    }
    const result = await (mode === 'move' ? api.moveFiles(body) : api.copyFiles(body));
    if (result.conflictType === 1) {
      setTargetId(target);
      setConflict(result);
      setStep('conflict');
      return;
    }
    notify.success(DONE[mode]);
    onDone(target);
  };

  const conflictName = conflict?.conflictInfo?.fileName;
  const conflicting = items.find((i) => i.name === conflictName);

  return (
    <>
      <FolderPicker
        open={step === 'pick'}
        title={TRANSFER_TITLES[mode]}
        disabledIds={items.filter((i) => i.type === 'folder').map((i) => i.id)}
        onOk={(target: TreeNode) => run(target.id)}
        onCancel={onClose}
      />
      <ConflictDialog
        open={step === 'conflict'}
        conflictInfo={conflict?.conflictInfo ?? null}
        conflictStrategies={conflict?.conflictStrategies ?? []}
        isFolder={conflicting?.type === 'folder'}
        onCancel={onClose}
        onOk={async (choice) => {
          if (!targetId) return;
          try {
            await run(targetId, choice);
          } catch {
            /* the http client has shown the server's message */
          }
        }}
      />
    </>
  );
}
