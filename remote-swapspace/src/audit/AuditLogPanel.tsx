// 审计日志 (the second tab of 统计审计 in 云文档's exchange space): the hash-chained ferry audit log,
// paged by the server, filtered by date, event and keyword; 校验完整性 asks the server to walk the
// chain and names the first record that was altered, removed or inserted; 导出 CSV / 导出 Excel
// download the records that match the same filters.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Input, Select, Space, Table, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import SafetyCertificateOutlined from '@ant-design/icons/SafetyCertificateOutlined';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import dayjs from 'dayjs';
import {
  api,
  apiUrl,
  DATE_FORMAT,
  downloadByFrame,
  notify,
  useLoad,
  type FerryAuditQuery,
  type FerryAuditRecord,
  type FerryAuditVerify,
} from '@app/shared';
import { LoadError, SectionEmpty } from '@app/shared/ui';
import { forbiddenMessage, isForbidden } from '../adminAccess';
import { rangePresets } from './ranges';

export const AUDIT_TEXTS = {
  verify: '校验完整性',
  exportCsv: '导出 CSV',
  exportXlsx: '导出 Excel',
  clear: '清除筛选',
  empty: '暂无审计记录',
  filtered: '没有符合条件的审计记录',
  verifyFailed: '完整性校验未完成',
  note: '审计记录只追加、不可修改；每条记录的哈希包含前一条记录的哈希，任何篡改、删除或插入都能被校验发现。',
} as const;

/**
 * The events the ferry server of 云文档 records, with the names its records carry (eventText);
 * the filter also offers any other event seen in the list.
 */
export const AUDIT_EVENTS: Array<{ event: string; text: string }> = [
  { event: 'task.created', text: '提交摆渡申请' },
  { event: 'check.passed', text: '检查通过' },
  { event: 'check.blocked', text: '检查未通过' },
  { event: 'approval.started', text: '进入审批' },
  { event: 'approval.approved', text: '审批通过' },
  { event: 'task.rejected', text: '审批驳回' },
  { event: 'task.cancelled', text: '取消摆渡' },
  { event: 'task.failed', text: '传输失败' },
  { event: 'task.refused', text: '被拒收' },
  { event: 'package.sent', text: '发出摆渡包' },
  { event: 'package.delivered', text: '对端已接收' },
  { event: 'package.received', text: '收到摆渡包' },
  { event: 'package.rejected', text: '拒收摆渡包' },
  { event: 'file.downloaded', text: '下载收到的文件' },
  { event: 'task.expired', text: '文件已过期' },
  { event: 'settings.changed', text: '修改摆渡设置' },
  { event: 'audit.pruned', text: '清理超期审计记录' },
];

export const DEFAULT_AUDIT_PAGE_SIZE = 20;

type Filters = Omit<FerryAuditQuery, 'page' | 'pageSize'>;

/** The hash as people compare it: its first 8 and last 8 characters. */
export const shortHash = (hash: string) => (hash.length > 20 ? `${hash.slice(0, 8)}…${hash.slice(-8)}` : hash);

/** What a verification says, in one sentence. */
export function verifyTitle(v: FerryAuditVerify): string {
  if (v.ok) return `审计日志完整，共 ${v.count} 条记录，哈希链校验通过`;
  return v.brokenAt === null ? '审计日志完整性校验未通过' : `审计日志完整性校验未通过：第 ${v.brokenAt} 条记录被篡改、删除或插入`;
}

const clean = (f: Filters): Filters => Object.fromEntries(Object.entries(f).filter(([, v]) => v)) as Filters;

export function AuditLogPanel({ onForbidden }: { onForbidden: (message: string) => void }) {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_AUDIT_PAGE_SIZE);
  const [keyword, setKeyword] = useState('');
  const [verifying, setVerifying] = useState(false);
  const [verified, setVerified] = useState<FerryAuditVerify | null>(null);
  const filtersKey = JSON.stringify(filters);
  const presets = useMemo(rangePresets, []);

  const load = useCallback(
    () => api.getFerryAudit({ ...(JSON.parse(filtersKey) as Filters), page, pageSize }, { errorMode: 'none' }),
    [filtersKey, page, pageSize],
  );
  const { state, reload } = useLoad(load);
  useEffect(() => {
    if (state.status === 'error' && isForbidden(state.error)) onForbidden(forbiddenMessage(state.error));
  }, [state, onForbidden]);

  const records = state.data?.data ?? [];
  const filtered = Object.keys(filters).length > 0;

  const eventOptions = useMemo(() => {
    const seen = new Map(AUDIT_EVENTS.map((e) => [e.event, e.text]));
    for (const r of records) if (r.event && !seen.has(r.event)) seen.set(r.event, r.eventText || r.event);
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [records]);

  /** A filter change goes back to the first page. */
  const apply = (patch: Filters) => {
    setFilters((f) => clean({ ...f, ...patch }));
    setPage(1);
  };

  const verify = async () => {
    setVerifying(true);
    setVerified(null);
    try {
      setVerified(await api.verifyFerryAudit({ errorMode: 'none' }));
    } catch (e) {
      if (isForbidden(e)) onForbidden(forbiddenMessage(e));
      else notify.error(`${AUDIT_TEXTS.verifyFailed}：${e instanceof Error ? e.message : ''}`);
    } finally {
      setVerifying(false);
    }
  };

  const exportAs = (format: 'csv' | 'xlsx') => downloadByFrame(apiUrl(api.ferryAuditExportPath(format, filters)));

  const columns: TableColumnsType<FerryAuditRecord> = [
    { title: '序号', dataIndex: 'seq', width: 80 },
    { title: '时间', dataIndex: 'at', width: 170 },
    { title: '操作人', dataIndex: 'actorName', width: 110, render: (n: string) => n || <Typography.Text type="secondary">系统</Typography.Text> },
    { title: '事件', dataIndex: 'eventText', width: 130, render: (t: string, r) => t || r.event },
    { title: '摆渡任务', dataIndex: 'taskId', width: 170, render: (t: string) => t || <Typography.Text type="secondary">—</Typography.Text> },
    { title: '内容', dataIndex: 'summary', render: (s: string) => <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{s}</span> },
    {
      title: '哈希',
      dataIndex: 'hash',
      width: 200,
      render: (hash: string) => (
        <Tooltip title={hash}>
          <Typography.Text code copyable={{ text: hash, tooltips: ['复制完整哈希', '已复制'] }} aria-label={`哈希 ${hash}`} style={{ fontFamily: 'monospace' }}>
            {shortHash(hash)}
          </Typography.Text>
        </Tooltip>
      ),
    },
  ];

  const range: [dayjs.Dayjs, dayjs.Dayjs] | null = filters.from && filters.to ? [dayjs(filters.from), dayjs(filters.to)] : null;

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'space-between' }}>
        <Space wrap role="search" aria-label="筛选审计日志">
          <DatePicker.RangePicker
            aria-label="时间"
            placeholder={['开始日期', '结束日期']}
            value={range}
            presets={presets}
            onChange={(dates) =>
              apply({
                from: dates?.[0] ? dates[0].format(DATE_FORMAT) : undefined,
                to: dates?.[1] ? dates[1].format(DATE_FORMAT) : undefined,
              })
            }
          />
          <Select<string>
            aria-label="事件"
            placeholder="全部事件"
            allowClear
            style={{ width: 160 }}
            value={filters.event}
            options={eventOptions}
            onChange={(v) => apply({ event: v ?? undefined })}
          />
          <Input.Search
            aria-label="关键字"
            placeholder="操作人、摆渡任务或内容"
            allowClear
            maxLength={100}
            style={{ width: 220 }}
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            onSearch={(v) => apply({ keyword: v.trim() || undefined })}
          />
          {filtered ? (
            <Button
              onClick={() => {
                setKeyword('');
                setFilters({});
                setPage(1);
              }}
            >
              {AUDIT_TEXTS.clear}
            </Button>
          ) : null}
        </Space>
        <Space wrap>
          <Button icon={<SafetyCertificateOutlined />} loading={verifying} onClick={() => void verify()}>
            {AUDIT_TEXTS.verify}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => exportAs('csv')}>
            {AUDIT_TEXTS.exportCsv}
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => exportAs('xlsx')}>
            {AUDIT_TEXTS.exportXlsx}
          </Button>
        </Space>
      </div>
      {verified ? (
        <Alert
          type={verified.ok ? 'success' : 'error'}
          showIcon
          closable={{ onClose: () => setVerified(null), 'aria-label': '关闭' }}
          title={verifyTitle(verified)}
          description={!verified.ok && verified.message ? verified.message : undefined}
        />
      ) : null}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {AUDIT_TEXTS.note}
      </Typography.Text>
      {state.status === 'error' && !state.data ? (
        isForbidden(state.error) ? null : <LoadError message={state.message} onRetry={reload} />
      ) : (
        <Table<FerryAuditRecord>
          rowKey="seq"
          size="middle"
          loading={state.status === 'loading'}
          columns={columns}
          dataSource={records}
          locale={{ emptyText: <SectionEmpty description={filtered ? AUDIT_TEXTS.filtered : AUDIT_TEXTS.empty} /> }}
          pagination={{
            current: page,
            pageSize,
            total: state.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            showTotal: (total) => `共 ${total} 条`,
            onChange: (p, size) => {
              setPage(size !== pageSize ? 1 : p);
              setPageSize(size);
            },
          }}
          scroll={{ x: 1100 }}
        />
      )}
    </Space>
  );
}
