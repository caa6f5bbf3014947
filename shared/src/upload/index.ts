export type {
  UploadPath,
  UploadSource,
  UploadItem,
  UploadConflictRequest,
  UploadConflictAnswer,
  CheckAndCreateFileInfoBody,
  CheckAndCreateFileInfoResult,
  UploadRapidBody,
  UploadRapidResult,
  UploadChunkQuery,
  UploadChunkFields,
  UploadMergeBody,
  CreateFoldersBody,
  CreateFoldersResult,
} from './types';
export { CREATE_FOLDERS_BATCH } from './types';
export {
  derivePanelStatus,
  summarizeUploads,
  fileExtension,
  PANEL_TEXT,
  UPLOAD_STATUS_TEXT,
  UPLOAD_TEXT,
  UPLOAD_PANEL_TEXT,
  DRAG_MASK_TEXT,
  type UploadSummary,
} from './status';
export {
  uploads,
  registerUploadService,
  hasUploadService,
  type UploadService,
  type UploadsSettledEvent,
} from './service';
