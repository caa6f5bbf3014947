// How remotes and the share page add files to the one upload queue without importing the
// shell: the shell registers its engine here at start-up. Calls made before that are kept
// and handed over once the engine is registered.
import type { UploadPath, UploadSource } from './types';

export interface UploadsSettledEvent {
  /** target folder ids (UploadPath.wjFileId) that received at least one file */
  folderIds: string[];
  /** some of the files came inside dropped folders (the folder tree changed too) */
  withFolders: boolean;
}

export interface UploadService {
  enqueue(files: readonly UploadSource[], target: UploadPath): Promise<void> | void;
  /** called each time the queue drains after at least one file succeeded */
  onSettled(listener: (event: UploadsSettledEvent) => void): () => void;
  /** files are about to be picked: whatever the first one needs is made ready ahead */
  prepare?(): void;
}

let service: UploadService | null = null;
let held: Array<{ files: readonly UploadSource[]; target: UploadPath; done: () => void; fail: (e: unknown) => void }> = [];
const settledListeners = new Set<(event: UploadsSettledEvent) => void>();
let dropTarget: UploadPath | null = null;
const dropTargetListeners = new Set<(target: UploadPath | null) => void>();
let detach: (() => void) | null = null;

/** The shell's engine (null clears it, for tests). Held calls are handed over. */
export function registerUploadService(next: UploadService | null): void {
  detach?.();
  detach = null;
  service = next;
  if (!next) return;
  detach = next.onSettled((event) => {
    for (const listener of [...settledListeners]) listener(event);
  });
  const pending = held;
  held = [];
  for (const call of pending) {
    Promise.resolve(next.enqueue(call.files, call.target)).then(call.done, call.fail);
  }
}

export function hasUploadService(): boolean {
  return service !== null;
}

export const uploads = {
  /** Adds files to the upload queue for `target`; resolves once they are listed. */
  enqueue(files: readonly UploadSource[], target: UploadPath): Promise<void> {
    if (service) return Promise.resolve(service.enqueue(files, target));
    return new Promise<void>((done, fail) => held.push({ files, target, done, fail }));
  },
  /**
   * Files are about to be picked (an upload menu opened, files dragged over a page): the engine
   * gets ready for them (its options, its hashing worker). Nothing happens before it is registered.
   */
  prepare(): void {
    service?.prepare?.();
  },
  /** Listens for the queue draining (refresh the file list, and the tree if withFolders). */
  onSettled(listener: (event: UploadsSettledEvent) => void): () => void {
    settledListeners.add(listener);
    return () => settledListeners.delete(listener);
  },
  /**
   * The folder that files dropped anywhere on the page go to (the shell's drag mask), set by the
   * page that shows it; null when the page takes no drops (no upload right, a search result...).
   */
  setDropTarget(target: UploadPath | null): void {
    dropTarget = target;
    for (const listener of [...dropTargetListeners]) listener(target);
  },
  getDropTarget(): UploadPath | null {
    return dropTarget;
  },
  onDropTargetChange(listener: (target: UploadPath | null) => void): () => void {
    dropTargetListeners.add(listener);
    return () => dropTargetListeners.delete(listener);
  },
};
