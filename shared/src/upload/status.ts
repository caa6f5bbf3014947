// Panel status and texts of the upload list (spec section 4).
import { PanelStatus, UploadStatus } from '../constants';
import type { UploadItem } from './types';

type StatusOnly = Pick<UploadItem, 'status'>;

/** idle (empty); uploading (any uploading or waiting); success (all done); error (some failed, none in progress); else paused. */
export function derivePanelStatus(items: readonly StatusOnly[]): PanelStatus {
  if (items.length === 0) return PanelStatus.Idle;
  let done = 0;
  let failed = 0;
  for (const { status } of items) {
    if (status === UploadStatus.Uploading || status === UploadStatus.Waiting) return PanelStatus.Uploading;
    if (status === UploadStatus.Success || status === UploadStatus.Complete) done += 1;
    else if (status === UploadStatus.Error) failed += 1;
  }
  if (done === items.length) return PanelStatus.Success;
  if (failed > 0) return PanelStatus.Error;
  return PanelStatus.Paused;
}

export interface UploadSummary {
  status: PanelStatus;
  /** items finished successfully */
  done: number;
  total: number;
  /** the header chip: 上传中 n / total, 全部暂停, 部分文件上传失败, 全部上传成功 ('' when idle) */
  text: string;
}

export const PANEL_TEXT = {
  uploading: (done: number, total: number) => `上传中 ${done} / ${total}`,
  paused: '全部暂停',
  error: '部分文件上传失败',
  success: '全部上传成功',
} as const;

export function summarizeUploads(items: readonly StatusOnly[]): UploadSummary {
  const status = derivePanelStatus(items);
  const total = items.length;
  const done = items.filter((i) => i.status === UploadStatus.Success || i.status === UploadStatus.Complete).length;
  let text = '';
  if (status === PanelStatus.Uploading) text = PANEL_TEXT.uploading(done, total);
  else if (status === PanelStatus.Paused) text = PANEL_TEXT.paused;
  else if (status === PanelStatus.Error) text = PANEL_TEXT.error;
  else if (status === PanelStatus.Success) text = PANEL_TEXT.success;
  return { status, done, total, text };
}

/** Short row texts for each item status. */
export const UPLOAD_STATUS_TEXT: Record<UploadStatus, string> = {
  waiting: '等待上传',
  uploading: '上传中',
  paused: '已暂停',
  success: '上传成功',
  error: '上传失败',
  complete: '上传成功',
};

/** Row texts beyond the status. */
export const UPLOAD_TEXT = {
  hashing: '正在校验文件',
  rapid: '秒传成功',
  skipped: '已跳过',
  conflict: '文件名重复，等待处理',
  closeTitle: '取消上传',
  closeContent: '列表中还有未完成的文件，确定取消上传吗？',
  closeContinue: '继续上传',
  closeCancel: '取消上传',
  leaveConfirm: '文件正在上传，离开页面将中断上传，确定离开吗？',
  /** a row remembered from before a reload whose file is no longer at hand */
  repick: '页面已刷新，请重新选择该文件以继续上传',
  repickMismatch: '所选文件与原文件不一致，请选择同一个文件',
  repickAction: '重新选择文件',
  /** empty folders of a dropped folder that could not be made: how many, and the first reason */
  foldersFailed: (count: number, first: string, reason: string) =>
    count === 1 ? `空文件夹“${first}”未能创建：${reason}` : `${count} 个空文件夹未能创建，如“${first}”：${reason}`,
} as const;

/** The panel header, its buttons and the row actions. */
export const UPLOAD_PANEL_TEXT = {
  title: '上传列表',
  pauseAll: '全部暂停',
  continueAll: '继续',
  retryAll: '全部重试',
  expand: '展开',
  collapse: '收起',
  close: '关闭',
  pause: '暂停',
  resume: '继续',
  retry: '重试',
  cancel: '取消上传',
  remove: '移出列表',
  openFolder: '打开所在文件夹',
  empty: '暂无上传任务',
} as const;

/** The drag mask (spec section 2) and the conflict dialog's checkbox. */
export const DRAG_MASK_TEXT = {
  title: '松开鼠标，将文件或文件夹上传到当前文件夹',
  hiddenFiles: '文件夹中以“.”开头的隐藏文件也会一并上传',
  tooMany: (max: number) => `一次上传超过 ${max} 个文件时，页面可能会出现卡顿`,
  applyAll: '后续上传冲突均执行此策略',
} as const;

/** Lower-case extension without the dot ('' when the name has none). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}
