// 操作日志: what everyone did (sign-ins, files, shares, approvals, administration, the ferry),
// with time, person, address, object and result. Filters by time range, person, department (its
// sub-departments included), action or kind of action, object, address and result; export of
// everything the filters match as CSV or XLSX; 校验完整性 recomputes the hash chain. System and
// audit administrators see everyone, department administrators the people of their subtrees.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Descriptions, Drawer, Input, Select, Space, Table, Tag, TreeSelect, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { apiUrl, downloadByFrame, notify, useUserInfo, type AdminDepartmentNode, type OplogCatalog, type OplogChainCheck, type OplogFilters, type OplogRecord, type OrgUser } from '@app/shared';
import { adminApi, oplogApi } from '@app/shared/admin';
import { UserPicker } from '@app/shared/ui';
import { toTreeSelectData, topDepartmentIds } from '../departmentTree';
import { personLabel } from '../personLabel';
import { usePagedList } from '../usePagedList';

const PAGE_SIZE = 20;
const RESULT_OPTIONS = [
  { value: 'ok', label: '成功' },
  { value: 'fail', label: '失败' },
];

export function OperationLogTab() {
  const user = useUserInfo();
  const mayVerify = !!(user?.isAdmin || user?.isAuditAdmin);
  const [filters, setFilters] = useState<OplogFilters>({});
  const [person, setPerson] = useState<OrgUser | null>(null);
  const [picking, setPicking] = useState(false);
  const [catalog, setCatalog] = useState<OplogCatalog | null>(null);
  const [departments, setDepartments] = useState<AdminDepartmentNode[]>([]);
  const [shown, setShown] = useState<OplogRecord | null>(null);
  const [check, setCheck] = useState<OplogChainCheck | null>(null);
  const [checking, setChecking] = useState(false);
  const [more, setMore] = useState(false);

  useEffect(() => {
    let live = true;
    oplogApi
      .getOperationLogCatalog()
      .then((c) => live && setCatalog(c))
      .catch(() => undefined);
    adminApi
      .getDepartments()
      .then((d) => live && setDepartments(d))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const { page, setPage, rows, total, loading } = usePagedList(
    (p) =>
      oplogApi.getOperationLogs({ ...filters, page: p, pageSize: PAGE_SIZE }).then((r) => {
        setMore(r.more);
        return r;
      }),
    [filters],
  );
  const filter = (patch: Partial<OplogFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const actionOptions = useMemo(
    () =>
      catalog
        ? [
            { label: '分类', options: catalog.groups.map((g) => ({ value: g.code, label: `全部${g.name}` })) },
            { label: '操作', options: catalog.actions.map((a) => ({ value: a.code, label: a.name })) },
          ]
        : [],
    [catalog],
  );
  const treeData = useMemo(() => toTreeSelectData(departments), [departments]);
  const expanded = useMemo(() => topDepartmentIds(departments), [departments]);

  const setRange = (range: [Dayjs | null, Dayjs | null] | null) =>
    filter({ from: range?.[0]?.format('YYYY-MM-DD') ?? undefined, to: range?.[1]?.format('YYYY-MM-DD') ?? undefined });

  const exportAs = (format: 'csv' | 'xlsx') => {
    downloadByFrame(apiUrl(oplogApi.operationLogExportPath(format, filters)));
    notify.info('正在导出符合筛选条件的全部记录，浏览器将开始下载');
  };

  const verify = async () => {
    setChecking(true);
    try {
      setCheck(await oplogApi.verifyOperationLogs());
    } catch {
      /* the message was shown */
    } finally {
      setChecking(false);
    }
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        记录每个人的登录、文件操作、分享、审批、系统管理与文件摆渡，包括时间、地址、设备、对象与结果；记录只增不改，以哈希链防篡改，至少保留 180 天。
      </Typography.Paragraph>
      <Space wrap>
        <DatePicker.RangePicker aria-label="时间范围" onChange={(r) => setRange(r as [Dayjs | null, Dayjs | null] | null)} />
        <Button onClick={() => setPicking(true)}>{person ? `人员：${personLabel(person)}` : '选择人员'}</Button>
        {person ? (
          <Button
            type="link"
            onClick={() => {
              setPerson(null);
              filter({ userId: undefined });
            }}
          >
            清除人员
          </Button>
        ) : null}
        <TreeSelect
          aria-label="按部门筛选"
          allowClear
          showSearch
          treeNodeFilterProp="title"
          treeDefaultExpandedKeys={expanded}
          placeholder="全部部门"
          style={{ width: 200 }}
          treeData={treeData}
          value={departments.length ? filters.deptId : undefined}
          onChange={(v?: string) => filter({ deptId: v || undefined })}
        />
        <Select
          aria-label="按操作筛选"
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="全部操作"
          style={{ width: 180 }}
          options={actionOptions}
          value={filters.action}
          onChange={(v?: string) => filter({ action: v || undefined })}
        />
        <Input.Search aria-label="按对象筛选" placeholder="对象名称或位置" allowClear style={{ width: 200 }} onSearch={(v) => filter({ object: v.trim() || undefined })} />
        <Input.Search aria-label="按地址筛选" placeholder="IP 地址" allowClear style={{ width: 160 }} onSearch={(v) => filter({ ip: v.trim() || undefined })} />
        <Select
          aria-label="按结果筛选"
          allowClear
          placeholder="全部结果"
          style={{ width: 110 }}
          options={RESULT_OPTIONS}
          value={filters.result}
          onChange={(v?: 'ok' | 'fail') => filter({ result: v })}
        />
      </Space>
      <Space wrap>
        <Button onClick={() => exportAs('xlsx')}>导出 Excel</Button>
        <Button onClick={() => exportAs('csv')}>导出 CSV</Button>
        {mayVerify ? (
          <Button loading={checking} onClick={() => void verify()}>
            校验完整性
          </Button>
        ) : null}
      </Space>
      {check ? <Alert type={check.ok ? 'success' : 'error'} showIcon title={check.message} closable onClose={() => setCheck(null)} /> : null}
      <Table<OplogRecord>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={rows}
        onRow={(r) => ({ onClick: () => setShown(r), style: { cursor: 'pointer' } })}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total,
          showSizeChanger: false,
          onChange: setPage,
          showTotal: (n) => (more ? `超过 ${n} 条，请缩小筛选范围` : `共 ${n} 条`),
        }}
        columns={[
          { title: '时间', dataIndex: 'time', width: 170 },
          { title: '操作人', dataIndex: 'userName', width: 120, render: (v: string, r: OplogRecord) => (v || '（访客）') + (r.onBehalfName ? `（代表 ${r.onBehalfName}）` : '') },
          { title: '地址', dataIndex: 'ip', width: 130 },
          { title: '操作', dataIndex: 'actionName', width: 120 },
          {
            title: '对象',
            key: 'object',
            ellipsis: true,
            render: (_: unknown, r: OplogRecord) => (r.objectPath ? <span title={r.objectPath}>{r.objectName || r.objectPath}</span> : r.objectName),
          },
          {
            title: '结果',
            dataIndex: 'result',
            width: 90,
            render: (v: OplogRecord['result'], r: OplogRecord) => (v === 'ok' ? <Tag color="green">成功</Tag> : <Tag color="red" title={r.reason}>失败</Tag>),
          },
        ]}
      />
      <Drawer open={!!shown} title="操作详情" size={520} onClose={() => setShown(null)}>
        {shown ? (
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="时间">{shown.time}</Descriptions.Item>
            <Descriptions.Item label="操作人">
              {shown.userName || '（访客）'}
              {shown.onBehalfName ? `（代表 ${shown.onBehalfName}）` : ''}
            </Descriptions.Item>
            <Descriptions.Item label="部门">{shown.deptPath || '—'}</Descriptions.Item>
            <Descriptions.Item label="地址">{shown.ip}</Descriptions.Item>
            <Descriptions.Item label="设备">{shown.userAgent || '—'}</Descriptions.Item>
            <Descriptions.Item label="操作">{shown.actionName}</Descriptions.Item>
            <Descriptions.Item label="对象">{shown.objectName || '—'}</Descriptions.Item>
            <Descriptions.Item label="位置">{shown.objectPath || '—'}</Descriptions.Item>
            <Descriptions.Item label="结果">{shown.result === 'ok' ? '成功' : `失败：${shown.reason}`}</Descriptions.Item>
            <Descriptions.Item label="详情">
              <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                {JSON.stringify(shown.detail, null, 2)}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="请求编号">{shown.requestId || '—'}</Descriptions.Item>
            <Descriptions.Item label="链上位置">{shown.seq ?? '等待封存'}</Descriptions.Item>
          </Descriptions>
        ) : null}
      </Drawer>
      <UserPicker
        open={picking}
        title="选择人员"
        limitTypes={['user']}
        multiple={false}
        initialSelection={person ? { users: [person] } : undefined}
        onOk={(s) => {
          const chosen = s.users[0];
          if (!chosen) {
            notify.warning('请选择一个人');
            return;
          }
          setPicking(false);
          setPerson(chosen);
          filter({ userId: chosen.userId });
        }}
        onCancel={() => setPicking(false)}
      />
    </Space>
  );
}
