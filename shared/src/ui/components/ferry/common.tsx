// Small pieces the ferry components of 云文档 share: the words of the pages, the state tag,
// the change listener, and the frame that shows a load's progress or failure.
import { useEffect, type ReactNode } from 'react';
import { Spin, Tag, Typography } from 'antd';
import { FERRY_CHANGED_EVENT, FERRY_STATUS_COLOR, FERRY_STATUS_TEXT, type FerryTaskStatus, type LoadState } from '@app/shared';
import { LoadError } from '../StatusSections';

export const FERRY_TEXTS = {
  // the send form
  targetZone: '目标网络区域',
  pickTargetZone: '请选择目标网络区域',
  noTargets: '暂无可发送的网络区域，请联系管理员在摆渡设置中开启方向',
  recipients: '接收人',
  recipientsPlaceholder: '输入对方网络中的用户名，按回车添加',
  needRecipients: '请填写接收人',
  reason: '摆渡原因',
  reasonPlaceholder: '请说明文件的用途和摆渡的原因',
  needReason: '请填写摆渡原因',
  files: '摆渡文件',
  needFiles: '请选择要摆渡的文件',
  pickFiles: '从空间选择',
  pickFilesTitle: '选择要摆渡的文件',
  uploadFiles: '上传新文件',
  uploadInput: '选择要上传的文件',
  uploading: '上传的文件完成后自动加入摆渡文件，进度见上传面板',
  noUploadFolder: '没有可用的上传文件夹，无法添加文件，请联系管理员',
  noFiles: '尚未选择文件',
  recent: '上传文件夹中的最近文件',
  recentNote: '勾选即加入摆渡文件',
  recentEmpty: '上传文件夹中还没有文件',
  recentError: '文件列表加载失败',
  refresh: '刷新',
  submit: '提交摆渡申请',
  submitted: '已提交摆渡申请，等待审批',
  blocked: '摆渡申请已被拦截',
  blockedNote: '以下文件未通过检查，申请未进入审批。可移除被拦截的文件后重新提交。',
  blockedUnknown: '文件未通过检查，申请未进入审批',
  removeBlocked: '移除被拦截的文件',
  // the lists
  search: '搜索摆渡',
  searchPlaceholder: '输入编号、原因等关键词',
  filtered: '没有符合条件的摆渡',
  inboxEmpty: '暂时没有收到的文件',
  downloadAll: '全部下载',
  remove: '移除',
  removeConfirm: '移除后文件从本区域删除，不能再下载，并告知发送方。确定移除？',
  removed: '已移除',
  gone: '文件已删除',
  // the drawer
  details: '摆渡详情',
  notFound: '摆渡任务不存在，或你没有查看它的权限',
  cancel: '取消摆渡',
  cancelConfirm: '确定取消这次摆渡？',
  cancelled: '已取消摆渡',
  preview: '预览',
  approval: '查看审批',
} as const;

/** Empty texts of the tabs of 我的摆渡. */
export const FERRY_TAB_EMPTY = {
  processing: '暂时没有审批中的摆渡',
  completed: '暂时没有已完成的摆渡',
  rejected: '暂时没有已驳回的摆渡',
} as const;

export const DEFAULT_FERRY_PAGE_SIZE = 20;
export const FERRY_PAGE_SIZES = [10, 20, 50, 100];

/** A dash for a time or text not there yet. */
export const orDash = (text: string) => text || '—';

/** Names joined the Chinese way. */
export const joinNames = (names: string[]) => names.join('、');

export function FerryStatusTag({ status }: { status: FerryTaskStatus }) {
  return <Tag color={FERRY_STATUS_COLOR[status] ?? 'default'}>{FERRY_STATUS_TEXT[status] ?? '未知'}</Tag>;
}

/** The state tag with, under it, why the task stopped (when the server says). */
export function FerryStatusCell({ status, reason }: { status: FerryTaskStatus; reason: string }) {
  return (
    <div>
      <FerryStatusTag status={status} />
      {reason ? (
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginTop: 2 }}>
          {reason}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/** Calls `onChange` whenever the user's ferry tasks changed (sent or cancelled anywhere on the page). */
export function useFerryChanged(onChange: () => void): void {
  useEffect(() => {
    window.addEventListener(FERRY_CHANGED_EVENT, onChange);
    return () => window.removeEventListener(FERRY_CHANGED_EVENT, onChange);
  }, [onChange]);
}

export interface FerryLoadProps<T> {
  state: LoadState<T>;
  onRetry: () => void;
  children: (data: T) => ReactNode;
}

/** What a load shows: a spinner first, the error with 重试 when nothing came, else the data. */
export function FerryLoad<T>({ state, onRetry, children }: FerryLoadProps<T>) {
  if (state.data !== undefined) return <>{children(state.data)}</>;
  if (state.status === 'error') return <LoadError message={state.message} onRetry={onRetry} />;
  return (
    <div style={{ padding: 48, textAlign: 'center' }}>
      <Spin />
    </div>
  );
}
