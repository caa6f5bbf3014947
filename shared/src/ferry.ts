// What the ferry pages of 云文档 (the exchange space, the simple mode's 文件摆渡 and the ferry panel
// of an approval) agree on: the Chinese names of task states, tabs and checks, and
// which states each tab of 我的摆渡 shows.
import type { FerryCheckName, FerryTab, FerryTaskStatus } from './api/types';

export const FERRY_STATUS_TEXT: Record<FerryTaskStatus, string> = {
  scanning: '检查中',
  blocked: '已拦截',
  pending: '审批中',
  approved: '已批准',
  transferring: '传输中',
  delivered: '已送达',
  downloaded: '已下载',
  expired: '已过期',
  removed: '已移除',
  rejected: '已驳回',
  cancelled: '已取消',
  failed: '传输失败',
  refused: '被拒收',
};

/** antd Tag colours per state */
export const FERRY_STATUS_COLOR: Record<FerryTaskStatus, string> = {
  scanning: 'processing',
  blocked: 'error',
  pending: 'processing',
  approved: 'cyan',
  transferring: 'blue',
  delivered: 'success',
  downloaded: 'green',
  expired: 'default',
  removed: 'default',
  rejected: 'error',
  cancelled: 'default',
  failed: 'error',
  refused: 'error',
};

export const FERRY_TAB_STATUSES: Record<FerryTab, FerryTaskStatus[]> = {
  processing: ['scanning', 'pending', 'approved', 'transferring'],
  completed: ['delivered', 'downloaded', 'expired', 'removed'],
  // 被拒收 ends a task without the files arriving, like 传输失败: it sits with the stopped ones
  rejected: ['blocked', 'rejected', 'cancelled', 'failed', 'refused'],
};

export const FERRY_TAB_TEXT: Record<FerryTab, string> = {
  processing: '审批中',
  completed: '已完成',
  rejected: '已驳回',
};

export const FERRY_CHECK_TEXT: Record<FerryCheckName, string> = {
  type: '文件类型',
  size: '文件大小',
  count: '文件数量',
  keyword: '敏感词',
  antivirus: '病毒查杀',
};

export const FERRY_INBOX_STATUS_TEXT: Record<'delivered' | 'downloaded' | 'expired' | 'removed', string> = {
  delivered: '待下载',
  downloaded: '已下载',
  expired: '已过期',
  removed: '已移除',
};

/** Dispatched on `window` after the user sent or cancelled a ferry task (lists refresh). */
export const FERRY_CHANGED_EVENT = 'ferry:changed';

export function announceFerryChange(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(FERRY_CHANGED_EVENT));
}

/** The tabs of 我的摆渡, in the order they are shown. */
export const FERRY_TABS: FerryTab[] = ['processing', 'completed', 'rejected'];

/** antd Tag colours of a received package's state */
export const FERRY_INBOX_STATUS_COLOR: Record<'delivered' | 'downloaded' | 'expired' | 'removed', string> = {
  delivered: 'processing',
  downloaded: 'green',
  expired: 'default',
  removed: 'default',
};

/** The form's limits (the server checks the same). */
export const FERRY_RECIPIENT_MAX_LENGTH = 64;
export const FERRY_REASON_MAX_LENGTH = 500;

/** The page of 流程详情 that shows a ferry task's approval. */
export const ferryApprovalPath = (instanceId: string) => `/workflow/informationDetails?id=${encodeURIComponent(instanceId)}`;
