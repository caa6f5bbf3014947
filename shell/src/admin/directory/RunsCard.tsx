// 同步记录 of 目录同步: every run of every source (LDAP, 钉钉; one of them when chosen), manual
// or scheduled, with its status and what it changed, or why it was refused or failed.
import { useEffect, useState } from 'react';
import { Button, Card, Segmented, Space, Table, Tag, Tooltip, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import type { DirectoryRun, DirectoryRunStatus, DirectorySource } from '@app/shared';
import { directoryApi } from '@app/shared/admin';

const STATUS: Record<DirectoryRunStatus, { text: string; color: string }> = {
  planned: { text: '待应用', color: 'blue' },
  applied: { text: '已应用', color: 'green' },
  refused: { text: '已拒绝', color: 'orange' },
  failed: { text: '失败', color: 'red' },
};

const TRIGGER: Record<DirectoryRun['trigger'], string> = { manual: '手动', schedule: '自动' };

const SOURCE: Record<DirectorySource, string> = { ldap: 'LDAP', dingtalk: '钉钉' };

type Shown = DirectorySource | 'all';
const SHOWN_OPTIONS: { value: Shown; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'ldap', label: 'LDAP' },
  { value: 'dingtalk', label: '钉钉' },
];

/** “新增 a，更新 u，调动 m，停用 d” of a run, or its reason when refused or failed. */
function runResult(r: DirectoryRun): string {
  if (r.status === 'refused' || r.status === 'failed' || !r.summary) return r.error || '—';
  const s = r.summary;
  return `新增 ${s.adds}，更新 ${s.updates}，调动 ${s.moves}，停用 ${s.disables}`;
}

const runColumns: TableColumnsType<DirectoryRun> = [
  { title: '时间', dataIndex: 'startedAt', width: 160, render: (at: number) => dayjs(at).format('YYYY-MM-DD HH:mm') },
  { title: '来源', dataIndex: 'source', width: 80, render: (s: DirectorySource) => SOURCE[s] ?? s },
  { title: '方式', dataIndex: 'trigger', width: 80, render: (t: DirectoryRun['trigger']) => TRIGGER[t] ?? t },
  {
    title: '状态',
    dataIndex: 'status',
    width: 100,
    render: (s: DirectoryRunStatus) => <Tag color={STATUS[s]?.color}>{STATUS[s]?.text ?? s}</Tag>,
  },
  {
    title: '结果',
    key: 'result',
    ellipsis: { showTitle: false },
    render: (_, r) => {
      const text = runResult(r);
      return r.status === 'refused' || r.status === 'failed' ? (
        <Tooltip title={text} placement="topLeft">
          <span>{text}</span>
        </Tooltip>
      ) : (
        text
      );
    },
  },
];

export function RunsCard({
  version,
  onRefresh,
}: {
  /** changes whenever the record should be read again */
  version: number;
  /** 刷新 */
  onRefresh: () => void;
}) {
  const [runs, setRuns] = useState<DirectoryRun[]>([]);
  const [loading, setLoading] = useState(true);
  const [shown, setShown] = useState<Shown>('all');

  useEffect(() => {
    let live = true;
    setLoading(true);
    directoryApi
      .getRuns(shown)
      .then((list) => live && setRuns(list))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [version, shown]);

  return (
    <Card
      size="small"
      title="同步记录"
      extra={
        <Space size={8}>
          <Segmented<Shown> size="small" aria-label="来源" options={SHOWN_OPTIONS} value={shown} onChange={setShown} />
          <Button type="link" size="small" onClick={onRefresh}>
            刷新
          </Button>
        </Space>
      }
    >
      <Table<DirectoryRun>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={runs}
        columns={runColumns}
        pagination={false}
        tableLayout="fixed"
        locale={{ emptyText: '还没有同步记录' }}
      />
    </Card>
  );
}
