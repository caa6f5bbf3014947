// The upload's name-conflict dialog: the engine waits (everything paused) until it answers.
import { DRAG_MASK_TEXT, type UploadConflictRequest } from '@app/shared';
import { ConflictDialog } from '@app/shared/ui';
import type { UploadController } from './controller';

export function UploadConflict({ conflict, controller }: { conflict: UploadConflictRequest | null; controller: UploadController }) {
  return (
    <ConflictDialog
      open={conflict !== null}
      conflictInfo={conflict?.conflictInfo ?? null}
      conflictStrategies={conflict?.conflictStrategies ?? []}
      applyAllLabel={DRAG_MASK_TEXT.applyAll}
      onOk={(answer) =>
        controller.resolveConflict({
          operation: answer.operation,
          operationAll: answer.operationAll,
          newFileName: answer.newFileName,
          fileExtension: answer.fileExtension,
        })
      }
      onCancel={() => controller.resolveConflict(null)}
    />
  );
}
