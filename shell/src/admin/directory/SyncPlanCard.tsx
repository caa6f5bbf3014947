// 同步计划 of 目录同步: 立即同步 reads the directory and shows the plan without writing anything;
// 应用 writes it, after a confirmation naming how many people it disables.
import { useState } from 'react';
import { App as AntApp, Button, Card, Space, Typography } from 'antd';
import { directoryApi, notify, type DirectoryRun } from '@app/shared';
import { RunPlan } from './RunPlan';

export function SyncPlanCard({
  notEnabled,
  onRun,
}: {
  /** the saved settings leave LDAP sync off */
  notEnabled: boolean;
  /** a run was planned or applied: the record of runs is read again */
  onRun: () => void;
}) {
  const { modal } = AntApp.useApp();
  const [syncing, setSyncing] = useState(false);
  const [run, setRun] = useState<DirectoryRun | null>(null);
  const [applying, setApplying] = useState(false);

  const sync = async () => {
    setSyncing(true);
    setRun(null);
    try {
      setRun(await directoryApi.syncLdap());
    } catch {
      /* shown by the http client */
    } finally {
      setSyncing(false);
      onRun();
    }
  };

  const apply = async (planned: DirectoryRun) => {
    setApplying(true);
    try {
      const done = await directoryApi.applyRun(planned.id);
      setRun(done);
      if (done.status === 'applied') notify.success('同步已应用');
      else if (done.error) notify.warning(done.error);
    } catch {
      /* shown by the http client */
    } finally {
      setApplying(false);
      onRun();
    }
  };

  const confirmApply = (planned: DirectoryRun) => {
    const disables = planned.summary?.disables ?? 0;
    if (disables > 0) {
      modal.confirm({
        title: `确认停用 ${disables} 个用户？`,
        content: '离开目录的用户将被停用（账号保留，会话立即结束）。',
        okText: '停用并应用',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: () => apply(planned),
      });
      return;
    }
    void apply(planned);
  };

  return (
    <Card size="small" title="同步计划">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Space wrap>
          <Button type="primary" loading={syncing} disabled={applying} onClick={() => void sync()}>
            立即同步
          </Button>
          <Typography.Text type="secondary">
            {notEnabled ? 'LDAP 同步尚未启用：可以先预览同步计划，目录用户在启用后才能登录。' : '先读取目录并列出将做的修改，确认后再应用。'}
          </Typography.Text>
        </Space>
        {run ? <RunPlan run={run} applying={applying} onApply={() => confirmApply(run)} /> : null}
      </Space>
    </Card>
  );
}
