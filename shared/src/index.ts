// @app/shared: the antd-free core of 云文档 shared by the shell and every remote.
// Nothing here may import antd: the sign-in page loads this module. The calls of 系统管理 and
// 个人设置 are in '@app/shared/admin' (their types are here too).
export type * from './api/types';
export { api, type Api, type WorkflowActionName } from './api';
export type * from './api/admin';
export type { OplogApi, OplogRecord, OplogPage, OplogFilters, OplogCatalog, OplogChainCheck } from './api/oplog';
export type * from './api/directory';
export type { LeaverApi, HandoverPreview, HandoverBody, HandoverDepartmentPost, HandoverResult, HandoverSharesChoice } from './api/leavers';
export type * from './api/noticeSettings';
export type * from './api/appPasswords';
export * from './http';
export * from './state';
export * from './constants';
export * from './format';
export { notify, setNotifier, getNotifier, type Notifier } from './notify';
export { appendErrorLog, getErrorLog, clearErrorLog } from './errorLog';
export { setNavigate, navigateTo, type NavigateFn } from './navigation';
export { localStore, sessionStore, createStorage, setCookie, getCookie, removeCookie, type ExpiringStorage } from './storage';
export * from './routes';
export { REMOTE_MENUS, remoteMeta } from './menus';
export { REMOTE_CONTRACT_VERSION, REMOTE_CONTRACT_MIN, REMOTE_CONTRACT_MAX, UNVERSIONED_REMOTE_CONTRACT } from './contract';
export * from './upload';
export * from './download';
export * from './share';
export { encodePreviewData, decodePreviewData, previewListAround, PREVIEW_LIST_LIMIT, type PreviewTarget } from './previewData';
export { passwordChecks, passwordPolicyNotes, type PasswordCheck } from './passwordPolicy';
export { WORKFLOW_CHANGED_EVENT, announceWorkflowChange } from './workflow';
export { NOTICE_KIND_NAMES, type Notice, type NoticeKind, type NoticePage, type NoticesQuery, type NoticeStreamHandlers } from './notices';
export {
  FERRY_STATUS_TEXT,
  FERRY_STATUS_COLOR,
  FERRY_TAB_STATUSES,
  FERRY_TAB_TEXT,
  FERRY_CHECK_TEXT,
  FERRY_INBOX_STATUS_TEXT,
  FERRY_INBOX_STATUS_COLOR,
  FERRY_TABS,
  FERRY_RECIPIENT_MAX_LENGTH,
  FERRY_REASON_MAX_LENGTH,
  FERRY_CHANGED_EVENT,
  announceFerryChange,
  ferryApprovalPath,
} from './ferry';
