// What the panel, the mask and the conflict dialog need of the upload engine (the engine
// itself in the app; a fake in tests).
import type { UploadEngine } from './engine';

export type UploadController = Pick<
  UploadEngine,
  | 'subscribe'
  | 'getSnapshot'
  | 'add'
  | 'addFolders'
  | 'loadOptions'
  | 'pauseAll'
  | 'resumeAll'
  | 'retryAll'
  | 'pause'
  | 'resume'
  | 'retry'
  | 'cancel'
  | 'close'
  | 'reattach'
  | 'restore'
  | 'suspend'
  | 'resolveConflict'
>;
