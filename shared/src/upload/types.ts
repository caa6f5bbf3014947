// Upload items, upload paths and the wire shapes of the upload calls (spec section 3,
// api-contract "Upload"). Type-only, so the server may `import type` it as well.
import type { ConflictStrategyOption } from '../api/types';
import type { UploadStatus } from '../constants';

/** Where files go: a folder of a space, or a folder of an external share (accessKey). */
export interface UploadPath {
  /** id of the target folder */
  wjFileId: string;
  /** type of the target (space 1 enterprise, 2 personal; other values for shares) */
  type?: number | string | null;
  /** external share uploads: the share id used by the External calls */
  shareId?: string | null;
  /** external share uploads: sent as the accessKey header instead of a bearer token */
  accessKey?: string | null;
  /** external share uploads: the batch the chunks belong to (defaults to shareId) */
  batchNumber?: string | null;
  namePath?: string;
  idPath?: string;
}

/** What a picker or a drop hands over: a file, or a file inside a dropped folder. */
export type UploadSource = File | { file: File; relativePath?: string };

/** One row of the upload list (spec section 3). Plain data: the File stays in the engine. */
export interface UploadItem {
  id: string;
  /** the local file's name */
  name: string;
  /** the name the file gets in the target (differs after a rename) */
  fileName: string;
  size: number;
  /** the target's type (UploadPath.type), sent with the create call */
  type: number | string | null;
  /** lower-case extension without the dot ('' for none) */
  fileType: string;
  /** path inside a dropped folder including the file name; the file name otherwise */
  relativePath: string;
  path: UploadPath;
  folderId: string;
  /** client-made id of the upload session; the same file re-added resumes it */
  taskId: string;
  /** conflict strategy sent with the next create call (null: none chosen) */
  strategy: 0 | 1 | 2 | null;
  /** the upload session, then the finished file */
  fileId: string | null;
  /** hex MD5 of the whole file, once computed */
  uniqueIdentifier: string | null;
  batchNumber: string | null;
  shareId: string | null;
  namePath: string;
  idPath: string;
  svgIcon?: string;
  status: UploadStatus;
  /** bytes per second while chunks are sent */
  speed: number;
  /** upload percent 0–100 */
  mathPro: number;
  uploadedSize: number;
  /** hashing percent 0–100 */
  md5verify: number;
  isMD5Compute: boolean;
  isHovered?: boolean;
  /** epoch ms of success */
  uploadTime: number | null;
  /** what the row says under the name: an error, or a note such as 秒传 / 已跳过 */
  msg: string;
  error: boolean;
  completed: boolean;
  /** the file came inside a dropped folder */
  isFolder: boolean;
  /** refused when added (no name, too large): retry cannot help */
  refused?: boolean;
  /** an unfinished upload remembered from before a reload: the file must be picked again */
  needsFile?: boolean;
}

/** A name conflict waiting for the user's answer (the conflict dialog's input). */
export interface UploadConflictRequest {
  itemId: string;
  taskId: string;
  conflictInfo: { fileName: string };
  conflictStrategies: ConflictStrategyOption[];
  fileInfo: { fileName: string };
}

/** The conflict dialog's answer. */
export interface UploadConflictAnswer {
  /** 0 新版本, 1 覆盖, 2 重命名, 3 跳过 */
  operation: ConflictStrategyOption['value'];
  /** apply the strategy to every later conflict of this upload (ignored for rename) */
  operationAll?: boolean;
  /** rename: the whole new name, extension included */
  newFileName?: string;
  fileExtension?: string;
}

// ---- wire shapes (api-contract "Upload") ----------------------------------------------

/** POST /api/User/FileTransfer/CheckAndCreateFileInfo (and its External form) body. */
export interface CheckAndCreateFileInfoBody {
  folderId: string;
  fileName: string;
  size: number;
  type: number | string | null;
  /** null on the first try and for skip; 0 new version, 1 overwrite, 2 rename */
  strategy: 0 | 1 | 2 | null;
  relativePath: string;
  taskId: string;
  shareId: string | null;
  /** the chunk size wished for (large files: LARGE_CHUNK_SIZE); the result says what the server grants */
  chunkSize?: number | null;
}

export interface CheckAndCreateFileInfoResult {
  /** 0: no conflict, a session exists; otherwise a same-named item exists */
  conflictType: number;
  conflictStrategies?: ConflictStrategyOption[];
  fileInfo: { fileId: string; fileName: string } | null;
  /** chunk numbers (from 1) the session already holds */
  uploadedChunks?: number[];
  /** external shares: the batch for the chunk calls, when the server names one */
  batchNumber?: string | null;
  /**
   * false when no file the caller could use for an instant upload has this size: the client
   * then sends chunks while it hashes. Absent or true: hash first, then ask for an instant upload.
   */
  rapidPossible?: boolean;
  /** with a session: its chunk size (absent from an older server: the upload options' chunkSize) */
  chunkSize?: number;
}

/** POST …/CreateFolders (and its External form): the empty folders of a dropped folder. */
export interface CreateFoldersBody {
  folderId: string;
  /** paths below folderId, the dropped folder's name first, parts separated by / */
  paths: string[];
}
export interface CreateFoldersResult {
  created: number;
  /** the paths that could not be made, with the server's reason */
  failed: { path: string; message: string }[];
}
/** Paths in one CreateFolders call, at most. */
export const CREATE_FOLDERS_BATCH = 1000;

/** POST …/UploadRapid2 body; result { success }. */
export interface UploadRapidBody {
  fileId: string;
  fileHash: string;
}
export interface UploadRapidResult {
  success: boolean;
}

/** Query of POST …/UploadChunk2. */
export interface UploadChunkQuery {
  fileId: string;
  /** the chunk's hex MD5, sent only when FileUploadOptions.chunkCheck is on */
  ChunkHash?: string;
  RelativePath: string;
}

/** Form fields of POST …/UploadChunk2, sent beside the part `file`. */
export interface UploadChunkFields {
  /** from 1 */
  chunkNumber: number;
  totalChunks: number;
  chunkSize: number;
  currentChunkSize: number;
  totalSize: number;
  /** hex MD5 of the whole file */
  identifier: string;
  filename: string;
  relativePath: string;
}

/** POST …/UploadMerge2 body. */
export interface UploadMergeBody {
  fileId: string;
  relativePath: string;
  fileHash: string;
}
