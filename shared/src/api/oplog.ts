// The operation log: 系统管理 → 操作日志 (system, audit and department administrators), 登录记录
// in 个人设置 (one's own), and 文件动态 of an item (people who manage it).
import { http, type HttpConfig } from '@app/shared';

export interface OplogRecord {
  id: string;
  /** its position in the hash chain (null for a few seconds, until it is sealed) */
  seq: number | null;
  at: number;
  time: string;
  userId: string | null;
  userName: string;
  deptPath: string;
  onBehalfName: string;
  ip: string;
  userAgent: string;
  /** the browser and system, read from the user agent */
  device: string;
  action: string;
  actionName: string;
  objectType: string;
  objectId: string;
  objectName: string;
  objectPath: string;
  result: 'ok' | 'fail';
  reason: string;
  requestId: string;
  detail: Record<string, unknown>;
}

export interface OplogPage {
  data: OplogRecord[];
  /** counted up to 10,000 */
  total: number;
  /** more than `total` match */
  more: boolean;
}

export interface OplogFilters {
  from?: string;
  to?: string;
  userId?: string;
  deptId?: string;
  /** a code (file.download) or a group ending in '.' (file.) */
  action?: string;
  object?: string;
  ip?: string;
  result?: 'ok' | 'fail';
}

export interface OplogCatalog {
  actions: { code: string; name: string }[];
  groups: { code: string; name: string }[];
}

export interface OplogChainCheck {
  ok: boolean;
  checked: number;
  pending: number;
  brokenAt: number | null;
  message: string;
}

const present = (query: object) => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string>;

export const oplogApi = {
  getOperationLogs: (query: OplogFilters & { page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<OplogPage>('/Admin/OperationLogs', { ...config, params: { ...present(query), ...config?.params } }),
  getOperationLogCatalog: (config?: HttpConfig) => http.get<OplogCatalog>('/Admin/OperationLogs/Actions', config),
  verifyOperationLogs: (config?: HttpConfig) => http.get<OplogChainCheck>('/Admin/OperationLogs/Verify', config),
  /** the export's path (CSV or XLSX) for the same filters, relative to the API prefix */
  operationLogExportPath: (format: 'csv' | 'xlsx', filters: OplogFilters) =>
    `/Admin/OperationLogs/Export?${new URLSearchParams({ format, ...present(filters) }).toString()}`,
  getMySignIns: (query: { page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<OplogPage>('/Account/SignIns', { ...config, params: { ...query, ...config?.params } }),
  getItemActivity: (itemId: string, query: { page: number; pageSize: number }, config?: HttpConfig) =>
    http.get<OplogPage>(`/User/Files/${encodeURIComponent(itemId)}/Activity`, { ...config, params: { ...query, ...config?.params } }),
};

export type OplogApi = typeof oplogApi;
