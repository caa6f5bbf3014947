// 我的摆渡 of 云文档: the user's ferry tasks of one tab (审批中, 已完成, 已驳回), paged by the
// server, with a keyword search. The list follows the user's own sends and cancels (the
// ferry-changed event); a row opens the task's drawer.
import { useCallback, useState } from 'react';
import { Input, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { api, formatBytes, formatDateTime, useLoad, type FerryTab, type FerryTaskRow, type FerryTasksQuery } from '@app/shared';
import { RowLink, useRowLinkStyle } from '../RowLink';
import { SectionEmpty } from '../SectionEmpty';
import { LoadError } from '../StatusSections';
import {
  DEFAULT_FERRY_PAGE_SIZE,
  FERRY_PAGE_SIZES,
  FERRY_TAB_EMPTY,
  FERRY_TEXTS as T,
  FerryStatusCell,
  joinNames,
  orDash,
  useFerryChanged,
} from './common';
import { FerryTaskDrawer } from './FerryTaskDrawer';

export interface FerryTaskTableProps {
  tab: FerryTab;
  /** the drawer links to the task's approval (full mode, where the approval pages exist) */
  showApprovalLink?: boolean;
}

interface Query {
  tab: FerryTab;
  keyword: string;
  page: number;
  pageSize: number;
}

/** The user's ferry tasks of one tab. */
export function FerryTaskTable({ tab, showApprovalLink = false }: FerryTaskTableProps) {
  useRowLinkStyle();
  const [query, setQuery] = useState<Query>({ tab, keyword: '', page: 1, pageSize: DEFAULT_FERRY_PAGE_SIZE });
  const [text, setText] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  // another tab starts over: first page, no keyword
  if (query.tab !== tab) {
    setQuery({ tab, keyword: '', page: 1, pageSize: query.pageSize });
    setText('');
  }

  const load = useCallback(() => {
    const q: FerryTasksQuery = { status: query.tab, page: query.page, pageSize: query.pageSize };
    if (query.keyword) q.keyword = query.keyword;
    return api.getFerryTasks(q, { errorMode: 'none' });
  }, [query]);
  const { state, reload } = useLoad(load);
  useFerryChanged(reload);

  const columns: TableColumnsType<FerryTaskRow> = [
    {
      title: '编号',
      dataIndex: 'number',
      width: 180,
      render: (number: string, r) => (
        <RowLink aria-label={`查看摆渡 ${number}`} onClick={() => setOpenId(r.taskId)}>
          {number}
        </RowLink>
      ),
    },
    {
      title: '文件',
      key: 'files',
      width: 150,
      render: (_: unknown, r) => (
        <span>
          {r.fileCount} 个文件
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
            {formatBytes(r.totalSize)}
          </Typography.Text>
        </span>
      ),
    },
    { title: '目标区域', dataIndex: 'targetZone', width: 110 },
    { title: '接收人', key: 'recipients', width: 150, ellipsis: true, render: (_: unknown, r) => joinNames(r.recipients) },
    { title: '原因', dataIndex: 'reason', ellipsis: true },
    { title: '状态', key: 'status', width: 170, render: (_: unknown, r) => <FerryStatusCell status={r.status} reason={r.statusReason} /> },
    { title: '提交时间', dataIndex: 'createdAt', width: 150, render: (v: string) => formatDateTime(v) },
  ];
  if (query.tab === 'completed') {
    columns.push(
      { title: '下载时间', dataIndex: 'downloadedAt', width: 150, render: (v: string) => orDash(formatDateTime(v)) },
      { title: '过期时间', dataIndex: 'expiresAt', width: 150, render: (v: string) => orDash(formatDateTime(v)) },
    );
  }

  return (
    <div>
      <Space wrap style={{ marginBottom: 12 }} role="search" aria-label="筛选">
        <Input.Search
          aria-label={T.search}
          placeholder={T.searchPlaceholder}
          allowClear
          style={{ width: 260 }}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onSearch={(v) => setQuery((q) => ({ ...q, keyword: v.trim(), page: 1 }))}
        />
      </Space>
      {state.status === 'error' && !state.data ? (
        <LoadError message={state.message} onRetry={reload} />
      ) : (
        <Table<FerryTaskRow>
          rowKey="taskId"
          size="middle"
          loading={state.status === 'loading'}
          columns={columns}
          dataSource={state.data?.data ?? []}
          onRow={(r) => ({ onClick: () => setOpenId(r.taskId), style: { cursor: 'pointer' } })}
          locale={{ emptyText: <SectionEmpty description={query.keyword ? T.filtered : FERRY_TAB_EMPTY[query.tab]} /> }}
          pagination={{
            current: query.page,
            pageSize: query.pageSize,
            total: state.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: FERRY_PAGE_SIZES,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page, pageSize) => setQuery((q) => ({ ...q, page: pageSize !== q.pageSize ? 1 : page, pageSize })),
          }}
          scroll={{ x: 1100 }}
        />
      )}
      <FerryTaskDrawer taskId={openId} onClose={() => setOpenId(null)} showApprovalLink={showApprovalLink} />
    </div>
  );
}
