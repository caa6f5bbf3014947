// 同步计划 of 目录同步: 立即同步 reads the directory (LDAP, or the DingTalk contacts) and shows the
// plan without writing anything; 应用 writes it, after a confirmation naming how many people it
// disables. `SyncPlan` is the part each source's card shows; `SyncPlanCard` is LDAP's card.
import { useState, type ReactNode } from 'react';
import { App as AntApp, Button, Card, Space, Typography } from 'antd';
import { notify, type DirectoryRun, type DirectorySource } from '@app/shared';
import { directoryApi } from '@app/shared/admin';
import { RunPlan } from './RunPlan';

const READ: Record<DirectorySource, () => Promise<DirectoryRun>> = {
  ldap: () => directoryApi.syncLdap(),
  dingtalk: () => directoryApi.syncDingtalk(),
};

const LEAVERS: Record<DirectorySource, string> = {
  ldap: '离开目录的用户将被停用（账号保留，会话立即结束）。',
  dingtalk: '已不在钉钉通讯录中的用户将被停用（账号保留，会话立即结束）。',
};

/** 立即同步 of one source, its plan, and 应用. */
export function SyncPlan({
  source,
  hint,
  onRun,
}: {
  source: DirectorySource;
  /** the words beside 立即同步 */
  hint: ReactNode;
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
      setRun(await READ[source]());
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
        content: LEAVERS[source],
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
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap>
        <Button type="primary" loading={syncing} disabled={applying} onClick={() => void sync()}>
          立即同步
        </Button>
        <Typography.Text type="secondary">{hint}</Typography.Text>
      </Space>
      {run ? <RunPlan run={run} applying={applying} onApply={() => confirmApply(run)} /> : null}
    </Space>
  );
}

/** LDAP's 同步计划 card. */
export function SyncPlanCard({
  notEnabled,
  onRun,
}: {
  /** the saved settings leave LDAP sync off */
  notEnabled: boolean;
  /** a run was planned or applied: the record of runs is read again */
  onRun: () => void;
}) {
  return (
    <Card size="small" title="同步计划">
      <SyncPlan
        source="ldap"
        hint={notEnabled ? 'LDAP 同步尚未启用：可以先预览同步计划，目录用户在启用后才能登录。' : '先读取目录并列出将做的修改，确认后再应用。'}
        onRun={onRun}
      />
    </Card>
  );
}
