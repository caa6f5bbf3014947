// A warning to system administrators, above every page, while the data volume runs short of
// room: asked when the layout mounts and every 10 minutes; said once more when uploads are
// already refused. Anyone else never asks. A failure says nothing.
import { Alert } from 'antd';
import { useEffect, useState } from 'react';
import { api, formatBytes, type DiskStatus } from '@app/shared';

export const DISK_CHECK_INTERVAL_MS = 10 * 60_000;

export function DiskWarning({ isAdmin }: { isAdmin: boolean }) {
  const [status, setStatus] = useState<DiskStatus | null>(null);

  useEffect(() => {
    if (!isAdmin) return;
    let live = true;
    const check = () =>
      api.getDiskStatus({ errorMode: 'none', silentLogout: true }).then(
        (s) => live && setStatus(s),
        () => undefined,
      );
    void check();
    const timer = window.setInterval(() => void check(), DISK_CHECK_INTERVAL_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, [isAdmin]);

  if (!isAdmin || !status || status.level === 'ok') return null;
  const free = `${formatBytes(status.free)}（共 ${formatBytes(status.total)}）`;
  return (
    <Alert
      banner
      showIcon
      type={status.level === 'full' ? 'error' : 'warning'}
      title={status.level === 'full' ? '服务器存储空间已满，新的上传已被拒绝' : '服务器存储空间不足'}
      description={
        status.level === 'full'
          ? `数据目录所在磁盘仅剩 ${free}，已到保留空间 ${formatBytes(status.minFree)}。请立即清理回收站、过期文件或扩容。`
          : `数据目录所在磁盘仅剩 ${free}。剩余不足 ${formatBytes(status.minFree)} 时将拒绝新的上传，请尽快清理或扩容。`
      }
    />
  );
}
