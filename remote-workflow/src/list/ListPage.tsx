// 流程列表 (/workflow/list/{box}): the four boxes (待我审批, 我已审批, 我发起的, 抄送我的) as tabs
// with their counts, filters (状态, 流程, 发起日期, keyword) and the page in the address, a
// table of the approvals, and 发起审批 (choose a definition, then fill the form in a drawer).
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, DatePicker, Input, Select, Space, Table, Tabs, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import SettingOutlined from '@ant-design/icons/SettingOutlined';
import dayjs from 'dayjs';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  api,
  DATE_FORMAT,
  formatDateTime,
  useUserInfo,
  type WorkflowBox,
  type WorkflowCounts,
  type WorkflowDefinition,
  type WorkflowInstanceRow,
  type WorkflowInstancesQuery,
  type WorkflowStatus, useLoad } from '@app/shared';
import { LoadError, RemotePage, SectionEmpty } from '@app/shared/ui';
import { StatusTag, useWorkflowChanged } from '../common';
import { DefinitionChooser, StartDrawer } from '../start/StartFlow';
import { BOX_EMPTY, BOX_LABELS, BOXES, joinNames, paths, STATUS_META, STATUSES } from '../texts';
import { isFiltered, PAGE_SIZES, paramsOf, queryOf } from './listQuery';

export const LIST_TEXTS = {
  title: '流程列表',
  start: '发起审批',
  manage: '流程管理',
  filtered: '没有符合条件的审批',
  clear: '清除筛选',
} as const;

export function ListPage({ box, nav }: { box: WorkflowBox; nav: ReactNode }) {
  const navigate = useNavigate();
  const user = useUserInfo();
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => queryOf(box, params), [box, params]);
  const queryKey = JSON.stringify(query);

  // a change announced by this page or another part of the page reloads the list and counts
  const [changes, setChanges] = useState(0);
  useWorkflowChanged(useCallback(() => setChanges((n) => n + 1), []));

  const [counts, setCounts] = useState<WorkflowCounts | null>(null);
  useEffect(() => {
    let live = true;
    api.getWorkflowCounts({ errorMode: 'none' }).then(
      (c) => live && setCounts(c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [changes, box]);

  const load = useCallback(
    () => api.getWorkflowInstances(JSON.parse(queryKey) as WorkflowInstancesQuery),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryKey, changes],
  );
  const { state, reload } = useLoad(load);
  const defs = useLoad(useCallback(() => api.getWorkflowDefinitions(), []));
  const definitions = defs.state.data ?? [];

  const [keyword, setKeyword] = useState(query.keyword ?? '');
  useEffect(() => setKeyword(query.keyword ?? ''), [query.keyword]);

  const [choosing, setChoosing] = useState(false);
  const [starting, setStarting] = useState<WorkflowDefinition | null>(null);

  const apply = (patch: Partial<Omit<WorkflowInstancesQuery, 'box'>>) => setParams(paramsOf(query, patch));

  const columns: TableColumnsType<WorkflowInstanceRow> = [
    { title: '编号', dataIndex: 'number', width: 180 },
    {
      title: '标题',
      dataIndex: 'title',
      ellipsis: true,
      render: (title: string, r) => <Link to={paths.details(r.instanceId)}>{title}</Link>,
    },
    { title: '流程', dataIndex: 'definitionName', width: 150, ellipsis: true },
    { title: '发起人', key: 'initiator', width: 110, render: (_: unknown, r) => r.initiator.name },
    {
      title: '当前步骤 / 待处理人',
      key: 'current',
      width: 220,
      render: (_: unknown, r) =>
        r.status === 1 && r.currentStep ? (
          <span>
            {r.currentStep}
            {r.pending.length ? <Typography.Text type="secondary">（{joinNames(r.pending)}）</Typography.Text> : null}
          </span>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    { title: '状态', dataIndex: 'status', width: 100, render: (status: WorkflowStatus) => <StatusTag status={status} /> },
    { title: '发起时间', dataIndex: 'createdAt', width: 160, render: (v: string) => formatDateTime(v) },
  ];

  const range: [dayjs.Dayjs, dayjs.Dayjs] | null = query.from && query.to ? [dayjs(query.from), dayjs(query.to)] : null;

  const extra = (
    <>
      {user?.isFlowAdmin ? (
        <Button icon={<SettingOutlined />} onClick={() => navigate(paths.definitions)}>
          {LIST_TEXTS.manage}
        </Button>
      ) : null}
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setChoosing(true)}>
        {LIST_TEXTS.start}
      </Button>
    </>
  );

  return (
    <RemotePage title={LIST_TEXTS.title} extra={extra} nav={nav}>
      <Tabs
        activeKey={box}
        onChange={(key) => navigate({ pathname: paths.list(key as WorkflowBox), search: paramsOf(query, { page: 1 }).toString() })}
        items={BOXES.map((b) => ({
          key: b,
          label: (
            <span>
              {BOX_LABELS[b]}
              {counts ? <span style={{ marginInlineStart: 4, color: 'rgba(0, 0, 0, 0.45)' }}> {counts[b]}</span> : null}
            </span>
          ),
        }))}
      />
      <Space wrap style={{ marginBottom: 12 }} role="search" aria-label="筛选">
        <Select<WorkflowStatus>
          aria-label="状态"
          placeholder="全部状态"
          allowClear
          style={{ width: 130 }}
          value={query.status}
          options={STATUSES.map((s) => ({ value: s, label: STATUS_META[s].label }))}
          onChange={(v) => apply({ status: v ?? undefined })}
        />
        <Select<string>
          aria-label="流程"
          placeholder="全部流程"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 200 }}
          value={query.definitionId}
          loading={defs.state.status === 'loading'}
          options={definitions.map((d) => ({ value: d.id, label: d.name }))}
          onChange={(v) => apply({ definitionId: v ?? undefined })}
        />
        <DatePicker.RangePicker
          aria-label="发起日期"
          placeholder={['发起日期从', '发起日期至']}
          value={range}
          onChange={(dates) =>
            apply({
              from: dates?.[0] ? dates[0].format(DATE_FORMAT) : undefined,
              to: dates?.[1] ? dates[1].format(DATE_FORMAT) : undefined,
            })
          }
        />
        <Input.Search
          aria-label="搜索标题或编号"
          placeholder="搜索标题或编号"
          allowClear
          style={{ width: 220 }}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => apply({ keyword: v.trim() || undefined })}
        />
        {isFiltered(query) ? <Button onClick={() => setParams(new URLSearchParams())}>{LIST_TEXTS.clear}</Button> : null}
      </Space>
      {state.status === 'error' && !state.data ? (
        <LoadError message={state.message} onRetry={reload} />
      ) : (
        <Table<WorkflowInstanceRow>
          rowKey="instanceId"
          size="middle"
          loading={state.status === 'loading'}
          columns={columns}
          dataSource={state.data?.data ?? []}
          locale={{ emptyText: <SectionEmpty description={isFiltered(query) ? LIST_TEXTS.filtered : BOX_EMPTY[box]} /> }}
          pagination={{
            current: query.page,
            pageSize: query.pageSize,
            total: state.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (page, pageSize) => apply({ page, pageSize }),
          }}
          scroll={{ x: 1100 }}
        />
      )}
      <DefinitionChooser
        open={choosing}
        definitions={definitions.filter((d) => d.enabled)}
        status={defs.state.status}
        onRetry={defs.reload}
        onPick={(d) => {
          setChoosing(false);
          setStarting(d);
        }}
        onCancel={() => setChoosing(false)}
      />
      <StartDrawer definition={starting} onClose={() => setStarting(null)} />
    </RemotePage>
  );
}
