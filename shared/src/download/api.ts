// The download calls of 云文档 (api-contract "Download", spec section 7): the URL of a file's
// bytes (fetched by the browser itself, authenticated by the token cookie) and the
// compression task for folders and several items.
import { apiAddress, http, type HttpConfig } from '../http/client';

const seg = encodeURIComponent;

/**
 * GET …/DownloadTasks/{taskId}/Status: downloadUrl is empty until percent is 100. A build that
 * failed says so in `state` and `error` (docs/integration.md, "Download").
 */
export interface DownloadTaskStatus {
  percent: number;
  downloadUrl: string | null;
  state?: 'queued' | 'running' | 'ready' | 'failed';
  error?: string | null;
}

export interface DownloadTask {
  taskId: string;
}

/** The full address of an API path (`apiAddress`), with `query` added. */
export function apiUrl(path: string, query?: Record<string, string | number | null | undefined>): string {
  const url = apiAddress(path);
  const params = Object.entries(query ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (!params.length) return url;
  const qs = params.map(([k, v]) => `${seg(k)}=${seg(String(v))}`).join('&');
  return `${url}${url.includes('?') ? '&' : '?'}${qs}`;
}

export const downloadApi = {
  /** The bytes of a file (its master version, or `versionId`), with Range support. */
  fileUrl: (fileId: string, options: { versionId?: string | null; shareId?: string | null } = {}) =>
    apiUrl(`/User/FileTransfer/Download/${seg(fileId)}`, { versionId: options.versionId, shareId: options.shareId }),
  /** The bytes of a file of an external share. */
  externalFileUrl: (fileId: string, urlKey: string, accessKey: string) =>
    apiUrl(`/User/FileTransfer/ExternalDownload/${seg(fileId)}`, { urlKey, accessKey }),
  /** Starts compressing the items (files and folders) into one zip. */
  createTask: (ids: string[], config?: HttpConfig) => http.post<DownloadTask>('/User/FileTransfer/DownloadTask', ids, config),
  /** The same for the items of an external share (accessKey header instead of a bearer). */
  createExternalTask: (urlKey: string, ids: string[], accessKey: string, config?: HttpConfig) =>
    http.post<DownloadTask>(`/User/FileTransfer/External/${seg(urlKey)}/DownloadTask`, ids, {
      withToken: false,
      ...config,
      headers: { ...(config?.headers as Record<string, string> | undefined), accessKey },
    }),
  taskStatus: (taskId: string, config?: HttpConfig) =>
    http.get<DownloadTaskStatus>(`/User/FileTransfer/DownloadTasks/${seg(taskId)}/Status`, config),
  /** The signed-in user's zip of items reached through 与我共享. */
  createSharedTask: (shareId: string, ids: string[], config?: HttpConfig) =>
    http.post<DownloadTask>('/User/FileTransfer/DownloadTask', ids, { ...config, params: { ...config?.params, shareId } }),
  /** An external share's zip task; its downloadUrl carries the key, for the browser fetches it by itself. */
  externalTaskStatus: async (urlKey: string, taskId: string, accessKey: string, config?: HttpConfig): Promise<DownloadTaskStatus> => {
    const status = await http.get<DownloadTaskStatus>(`/User/FileTransfer/External/${seg(urlKey)}/DownloadTasks/${seg(taskId)}/Status`, {
      withToken: false,
      silentLogout: true,
      ...config,
      headers: { ...(config?.headers as Record<string, string> | undefined), accessKey },
    });
    return status.downloadUrl ? { ...status, downloadUrl: apiUrl(status.downloadUrl, { accessKey }) } : status;
  },
};
