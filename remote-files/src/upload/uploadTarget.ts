// Where files picked or dropped on 云文档's folder page go: the folder shown, while the user may
// upload into it. The page also follows the upload queue: when files land in the folder shown
// (or folders were uploaded anywhere) it reloads the list, and the tree for folders.
import type { Item, UploadPath } from '@app/shared';
import { useUploadDropTarget, useUploadsSettled } from '@app/shared/ui';
import { can } from '../actions/permissions';

/** The upload target for a folder of a space (type: 1 enterprise, 2 personal). */
export function uploadPathOf(folder: Item): UploadPath {
  return { wjFileId: folder.id, type: folder.spaceType, namePath: folder.namePath, idPath: folder.idPath };
}

/** Whether files may be uploaded into the folder shown. */
export const canUploadInto = (folder: Item | undefined): folder is Item => !!folder && folder.type === 'folder' && can(folder, 'upload');

/**
 * Makes the folder shown the target of files dropped anywhere on the page while the user may
 * upload into it; none otherwise, and none once the page is left.
 */
export function useDropTarget(folder: Item | undefined): void {
  useUploadDropTarget(canUploadInto(folder) ? uploadPathOf(folder) : null);
}

export { useUploadsSettled };
