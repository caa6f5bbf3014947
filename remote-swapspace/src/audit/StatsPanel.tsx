// 统计 (the first tab of 统计审计 in 云文档's exchange space): for a date range and a bucket (day,
// week, month), how many ferry tasks, files and bytes crossed, the median time to an approval
// decision, columns over time, bars by direction, by state and by blocking reason, and tables by
// user and by department.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Card, DatePicker, Segmented, Space, Spin, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import {
  api,
  DATE_FORMAT,
  FERRY_STATUS_COLOR,
  FERRY_STATUS_TEXT,
  formatBytes,
  useLoad,
  type FerryStats,
  type FerryStatsBucket,
  type FerryTaskStatus,
} from '@app/shared';
import { LoadError } from '@app/shared/ui';
import { forbiddenMessage, isForbidden } from '../adminAccess';
import { BarChart, ColumnChart, type ChartItem } from './charts';
import { lastDays, rangePresets } from './ranges';

export const BUCKET_TEXT: Record<FerryStatsBucket, string> = { day: '按日', week: '按周', month: '按月' };
const BUCKETS: FerryStatsBucket[] = ['day', 'week', 'month'];

/** antd Tag colour names of the states, as bar colours. */
const TAG_HEX: Record<string, string> = {
  processing: '#1677ff',
  blue: '#1677ff',
  cyan: '#13c2c2',
  success: '#52c41a',
  green: '#389e0d',
  error: '#ff4d4f',
  default: '#bfbfbf',
};
const statusColor = (s: FerryTaskStatus) => TAG_HEX[FERRY_STATUS_COLOR[s]] ?? TAG_HEX.default;

/** A duration in 天/小时/分钟, e.g. 2 小时 5 分钟; '—' when there is none. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return '不足 1 分钟';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days) return hours ? `${days} 天 ${hours} 小时` : `${days} 天`;
  if (hours) return mins ? `${hours} 小时 ${mins} 分钟` : `${hours} 小时`;
  return `${mins} 分钟`;
}

const amounts = (r: { tasks: number; files: number; bytes: number }) => `摆渡 ${r.tasks} 次，文件 ${r.files} 个，共 ${formatBytes(r.bytes)}`;

/** A day or week bucket (2026-11-24, 2026-11-23 周) shows without its year under its column; the name keeps it. */
const shortBucket = (b: string) => (/^\d{4}-\d{2}-\d{2}/.test(b) ? b.slice(5) : b);

type Range = [Dayjs, Dayjs] | null;

export const defaultStatsRange = (): [Dayjs, Dayjs] => lastDays(30);

function Figure({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <Card size="small" style={{ minWidth: 0 }}>
      <div role="group" aria-label={label}>
        <Typography.Text type="secondary">{label}</Typography.Text>
        <div style={{ fontSize: 24, fontWeight: 600, fontVariantNumeric: 'tabular-nums', marginTop: 4 }}>{value}</div>
        {note ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {note}
          </Typography.Text>
        ) : null}
      </div>
    </Card>
  );
}

interface AmountRow {
  name: string;
  tasks: number;
  files: number;
  bytes: number;
}

function AmountTable({ title, nameTitle, rows }: { title: string; nameTitle: string; rows: AmountRow[] }) {
  const columns: TableColumnsType<AmountRow> = [
    { title: nameTitle, dataIndex: 'name', render: (n: string) => n || <Typography.Text type="secondary">（未填写）</Typography.Text> },
    { title: '摆渡次数', dataIndex: 'tasks', width: 100, align: 'right', sorter: (a, b) => a.tasks - b.tasks, defaultSortOrder: 'descend' },
    { title: '文件数', dataIndex: 'files', width: 100, align: 'right', sorter: (a, b) => a.files - b.files },
    { title: '总大小', dataIndex: 'bytes', width: 120, align: 'right', sorter: (a, b) => a.bytes - b.bytes, render: (b: number) => formatBytes(b) },
  ];
  return (
    <Card size="small" title={title}>
      <section aria-label={title}>
        <Table<AmountRow>
          rowKey="name"
          size="small"
          columns={columns}
          dataSource={rows}
          pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
          locale={{ emptyText: '暂无数据' }}
        />
      </section>
    </Card>
  );
}

function StatsView({ stats, bucket }: { stats: FerryStats; bucket: FerryStatsBucket }) {
  const byBucket: ChartItem[] = stats.byBucket.map((b) => ({
    key: b.bucket,
    label: shortBucket(b.bucket),
    value: b.tasks,
    text: `${b.bucket}：${amounts(b)}`,
  }));
  const byDirection: ChartItem[] = stats.byDirection.map((d) => ({
    key: `${d.from}>${d.to}`,
    label: `${d.from} → ${d.to}`,
    value: d.tasks,
    text: `${d.from} → ${d.to}：${amounts(d)}`,
  }));
  const byStatus: ChartItem[] = stats.byStatus.map((s) => ({
    key: s.status,
    label: FERRY_STATUS_TEXT[s.status] ?? s.status,
    value: s.tasks,
    text: `${FERRY_STATUS_TEXT[s.status] ?? s.status}：${s.tasks} 次`,
    color: statusColor(s.status),
  }));
  const blocked: ChartItem[] = stats.blockedByReason.map((r) => ({
    key: r.reason,
    label: r.reason,
    value: r.count,
    text: `${r.reason}：${r.count} 次`,
    color: TAG_HEX.error,
  }));
  const grid = { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))', gap: 12 } as const;

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <div style={{ ...grid, gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))' }}>
        <Figure label="摆渡次数" value={stats.tasks} />
        <Figure label="文件数" value={stats.files} />
        <Figure label="总大小" value={formatBytes(stats.bytes)} />
        <Figure label="审批用时中位数" value={formatDuration(stats.medianApprovalMs)} note={stats.medianApprovalMs === null ? '期间没有已审批的摆渡' : '从提交到审批决定'} />
      </div>
      <Card size="small">
        <ColumnChart title={`${BUCKET_TEXT[bucket]}摆渡次数`} items={byBucket} />
      </Card>
      <div style={grid}>
        <Card size="small">
          <BarChart title="按方向" items={byDirection} />
        </Card>
        <Card size="small">
          <BarChart title="按状态" items={byStatus} />
        </Card>
        <Card size="small">
          <BarChart title="拦截原因" items={blocked} />
        </Card>
      </div>
      <div style={{ ...grid, gridTemplateColumns: 'repeat(auto-fit, minmax(380px, 1fr))' }}>
        <AmountTable title="按用户" nameTitle="用户" rows={stats.byUser} />
        <AmountTable title="按部门" nameTitle="部门" rows={stats.byDepartment} />
      </div>
    </Space>
  );
}

export function StatsPanel({ onForbidden }: { onForbidden: (message: string) => void }) {
  const [range, setRange] = useState<Range>(defaultStatsRange);
  const [bucket, setBucket] = useState<FerryStatsBucket>('day');
  const from = range ? range[0].format(DATE_FORMAT) : '';
  const to = range ? range[1].format(DATE_FORMAT) : '';

  const load = useCallback(() => api.getFerryStats({ ...(from ? { from } : {}), ...(to ? { to } : {}), bucket }, { errorMode: 'none' }), [from, to, bucket]);
  const { state, reload } = useLoad(load);
  useEffect(() => {
    if (state.status === 'error' && isForbidden(state.error)) onForbidden(forbiddenMessage(state.error));
  }, [state, onForbidden]);

  const presets = useMemo(rangePresets, []);

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Space wrap role="search" aria-label="统计范围">
        <DatePicker.RangePicker
          aria-label="统计时间"
          placeholder={['开始日期', '结束日期']}
          value={range}
          presets={presets}
          onChange={(dates) => setRange(dates?.[0] && dates[1] ? [dates[0], dates[1]] : null)}
        />
        <Segmented<FerryStatsBucket>
          aria-label="统计粒度"
          value={bucket}
          options={BUCKETS.map((b) => ({ value: b, label: BUCKET_TEXT[b] }))}
          onChange={(b) => setBucket(b)}
        />
        {range ? null : <Typography.Text type="secondary">全部时间</Typography.Text>}
      </Space>
      {state.status === 'error' && !state.data ? (
        isForbidden(state.error) ? null : <LoadError message={state.message} onRetry={reload} />
      ) : state.data ? (
        <Spin spinning={state.status === 'loading'}>
          <StatsView stats={state.data} bucket={bucket} />
        </Spin>
      ) : (
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin />
        </div>
      )}
    </Space>
  );
}
