// The five upload calls (api-contract "Upload") and CreateFolders (the empty folders of a
// dropped folder), for a folder of a space (bearer token) or for an external share (accessKey
// header, `/External/...` paths).
import {
  http,
  type CheckAndCreateFileInfoBody,
  type CheckAndCreateFileInfoResult,
  type CreateFoldersBody,
  type CreateFoldersResult,
  type FileUploadOptions,
  type HttpConfig,
  type UploadChunkFields,
  type UploadChunkQuery,
  type UploadMergeBody,
  type UploadRapidBody,
  type UploadRapidResult,
} from '@app/shared';

/** Whose upload a call belongs to: external share uploads carry shareId and accessKey. */
export interface TransportTarget {
  shareId: string | null;
  accessKey: string | null;
  /** external chunk uploads: the batch (defaults to shareId) */
  batchNumber: string | null;
}

export interface ChunkUpload {
  query: UploadChunkQuery;
  fields: UploadChunkFields;
  blob: Blob;
  target: TransportTarget;
  signal: AbortSignal;
  /** bytes of this chunk sent so far */
  onProgress?: (loaded: number) => void;
}

export interface UploadTransport {
  getOptions(): Promise<FileUploadOptions>;
  createTask(body: CheckAndCreateFileInfoBody, target: TransportTarget, signal: AbortSignal): Promise<CheckAndCreateFileInfoResult>;
  checkRapid(body: UploadRapidBody, target: TransportTarget, signal: AbortSignal): Promise<UploadRapidResult>;
  uploadChunk(chunk: ChunkUpload): Promise<unknown>;
  /** resolves with the finished file (an Item) */
  merge(body: UploadMergeBody, target: TransportTarget, signal: AbortSignal): Promise<unknown>;
  /** the empty folders of a dropped folder */
  createFolders(body: CreateFoldersBody, target: TransportTarget): Promise<CreateFoldersResult>;
  /** the user gave an unfinished upload up: its staged chunks and its quota reservation go at once */
  abandon(fileId: string, target: TransportTarget): Promise<unknown>;
}

const BASE = '/User/FileTransfer';
/** A chunk may take long on a slow line; a stalled one still ends. */
export const CHUNK_TIMEOUT_MS = 10 * 60_000;

export const isExternal = (t: TransportTarget) => Boolean(t.accessKey && t.shareId);
const seg = encodeURIComponent;

/** Failures show on the row, not as toasts; an expired session still opens its dialog. */
function config(target: TransportTarget, signal?: AbortSignal, headerName = 'accessKey'): HttpConfig {
  const base: HttpConfig = { errorMode: 'none', signal };
  // a recipient of an internal share uploads with their own session, the share named
  if (!isExternal(target)) return target.shareId ? { ...base, params: { shareId: target.shareId } } : base;
  return { ...base, withToken: false, silentLogout: true, headers: { [headerName]: target.accessKey as string } };
}

function path(target: TransportTarget, call: string): string {
  return isExternal(target) ? `${BASE}/External/${seg(target.shareId as string)}/${call}` : `${BASE}/${call}`;
}

export function toFormData(fields: UploadChunkFields, blob: Blob): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  form.append('file', blob, fields.filename);
  return form;
}

export function createHttpTransport(): UploadTransport {
  return {
    getOptions: () =>
      http.get<FileUploadOptions>(`${BASE}/FileUploadOptions`, { errorMode: 'none', silentLogout: true }),
    createTask: (body, target, signal) =>
      http.post<CheckAndCreateFileInfoResult>(path(target, 'CheckAndCreateFileInfo'), body, config(target, signal)),
    checkRapid: (body, target, signal) => http.post<UploadRapidResult>(path(target, 'UploadRapid2'), body, config(target, signal)),
    uploadChunk: ({ query, fields, blob, target, signal, onProgress }) => {
      const url = isExternal(target)
        ? `${BASE}/External/${seg((target.batchNumber || target.shareId) as string)}/UploadChunk2`
        : `${BASE}/UploadChunk2`;
      const base = config(target, signal, 'Accesskey');
      return http.post<unknown>(url, toFormData(fields, blob), {
        ...base,
        // the client's default JSON type would make axios turn the form into JSON; in the
        // browser axios then drops this type so that the boundary is added
        headers: { ...(base.headers as Record<string, string> | undefined), 'Content-Type': 'multipart/form-data' },
        params: { ...(base.params as Record<string, string> | undefined), ...query },
        timeout: CHUNK_TIMEOUT_MS,
        onUploadProgress: (event) => onProgress?.(event.loaded),
      });
    },
    merge: (body, target, signal) => http.post<unknown>(path(target, 'UploadMerge2'), body, config(target, signal)),
    createFolders: (body, target) => http.post<CreateFoldersResult>(path(target, 'CreateFolders'), body, config(target)),
    abandon: (fileId, target) => http.delete<unknown>(path(target, `UploadSessions/${seg(fileId)}`), config(target)),
  };
}
