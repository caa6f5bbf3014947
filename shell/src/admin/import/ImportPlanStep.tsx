// 检查结果, the second step of 批量导入: the server checked the whole file and wrote nothing; the
// refused rows, or what the import would add, update, disable and create.
import { Alert, Col, Descriptions, Row, Space, Statistic, Table, type TableColumnsType } from 'antd';
import type { ImportPlan, ImportRowError } from '@app/shared';
import { sampleNames } from '../sampleNames';

const errorColumns: TableColumnsType<ImportRowError & { key: number }> = [
  { title: '行号', dataIndex: 'line', width: 80 },
  { title: '用户名', dataIndex: 'userName', width: 160, render: (v: string) => v || '—' },
  { title: '列', dataIndex: 'column', width: 160, render: (v: string) => v || '—' },
  { title: '原因', dataIndex: 'reason' },
];

export function ImportPlanStep({ plan, hasErrors, nothingToDo }: { plan: ImportPlan; hasErrors: boolean; nothingToDo: boolean }) {
  return hasErrors ? <PlanErrors plan={plan} /> : <PlanSummary plan={plan} nothingToDo={nothingToDo} />;
}

function PlanErrors({ plan }: { plan: ImportPlan }) {
  const lines = new Set(plan.errors.map((e) => e.line)).size;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Alert type="error" showIcon title={`共 ${lines} 行有问题，未写入任何数据。请修改文件后重新上传。`} />
      <Table
        size="small"
        columns={errorColumns}
        dataSource={plan.errors.map((e, key) => ({ ...e, key }))}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
      />
    </Space>
  );
}

function PlanSummary({ plan, nothingToDo }: { plan: ImportPlan; nothingToDo: boolean }) {
  const sync = plan.mode === 'sync';
  const { samples } = plan;
  const items = [
    { key: 'total', label: '读取行数', children: `${plan.total} 行` },
    {
      key: 'depts',
      label: '将新建的部门',
      children: plan.departmentsToCreate.length ? (
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {plan.departmentsToCreate.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      ) : (
        '无'
      ),
    },
    {
      key: 'adds',
      label: samples.adds.length < plan.adds ? `新增用户（前 ${samples.adds.length} 个）` : '新增用户',
      children: sampleNames(samples.adds, plan.adds, '无'),
    },
    {
      key: 'updates',
      label: samples.updates.length < plan.updates ? `更新内容（前 ${samples.updates.length} 个）` : '更新内容',
      children: samples.updates.length ? (
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {samples.updates.map((u) => (
            <li key={u.userName}>
              {u.userName}：{u.changes.join('；')}
            </li>
          ))}
        </ul>
      ) : (
        '无'
      ),
    },
    ...(sync
      ? [
          {
            key: 'disables',
            label: samples.disables.length < plan.disables ? `将停用的用户（前 ${samples.disables.length} 个）` : '将停用的用户',
            children: sampleNames(samples.disables, plan.disables, '无'),
          },
        ]
      : []),
  ];
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {nothingToDo ? (
        <Alert type="info" showIcon title="文件与现有数据一致，导入不会产生变化。" />
      ) : (
        <Alert type="success" showIcon title="检查通过，尚未写入任何数据。确认以下变更后点击“应用导入”。" />
      )}
      {sync && plan.disables > 0 ? (
        <Alert type="warning" showIcon title={`全量同步将停用 ${plan.disables} 个不在文件中的用户（账号保留，可随时启用）。`} />
      ) : null}
      <Row gutter={16}>
        <Col span={6}>
          <Statistic title="新增" value={plan.adds} suffix="人" />
        </Col>
        <Col span={6}>
          <Statistic title="更新" value={plan.updates} suffix="人" />
        </Col>
        <Col span={6}>
          <Statistic title="无变化" value={plan.unchanged} suffix="人" />
        </Col>
        {sync ? (
          <Col span={6}>
            <Statistic title="停用" value={plan.disables} suffix="人" styles={plan.disables > 0 ? { content: { color: '#cf1322' } } : undefined} />
          </Col>
        ) : null}
      </Row>
      <Descriptions size="small" bordered column={1} items={items} />
    </Space>
  );
}
