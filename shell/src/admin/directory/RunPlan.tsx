// The plan of a directory sync: why it was refused or failed, or the counts, the departments
// to create, samples of the adds, updates, moves and disables, the people skipped, and 应用.
import type { ReactNode } from 'react';
import { Alert, Button, Col, Collapse, Row, Space, Statistic, Typography } from 'antd';
import type { DirectoryRun } from '@app/shared';
import { sampleNames } from '../sampleNames';

/** The plan of a run: why it was refused or failed, the counts, the samples and 应用. */
export function RunPlan({ run, applying, onApply }: { run: DirectoryRun; applying: boolean; onApply: () => void }) {
  const s = run.summary;
  const changes = s ? s.adds + s.updates + s.moves + s.disables + s.departmentsToCreate.length : 0;

  let head: ReactNode;
  if (run.status === 'refused') head = <Alert type="error" showIcon title="同步计划未应用" description={run.error} />;
  else if (run.status === 'failed') head = <Alert type="error" showIcon title="同步失败" description={run.error || '读取目录失败'} />;
  else if (run.status === 'applied') head = <Alert type="success" showIcon title="同步已应用" />;
  else if (!changes) head = <Alert type="info" showIcon title="目录与现有账号一致，没有需要应用的修改。" />;
  else head = <Alert type="info" showIcon title="以下为同步计划，尚未修改任何账号；确认无误后点击“应用”。" />;

  if (!s) return head;

  const samples = s.samples;
  type Panel = { key: string; label: string; children: ReactNode };
  const panels = ([
    s.adds > 0 && { key: 'adds', label: `新增（${s.adds}）`, children: sampleNames(samples.adds, s.adds, `${s.adds} 人`) },
    s.updates > 0 && {
      key: 'updates',
      label: `更新（${s.updates}）`,
      children: (
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {samples.updates.map((u) => (
            <li key={u.userName}>
              {u.userName}：{u.changes.join('；')}
            </li>
          ))}
          {s.updates > samples.updates.length ? <li>等 {s.updates} 人</li> : null}
        </ul>
      ),
    },
    s.moves > 0 && {
      key: 'moves',
      label: `调动部门（${s.moves}）`,
      children: (
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {samples.moves.map((m) => (
            <li key={m.userName}>
              {m.userName}：{m.from || '无部门'} → {m.to}
            </li>
          ))}
          {s.moves > samples.moves.length ? <li>等 {s.moves} 人</li> : null}
        </ul>
      ),
    },
    s.disables > 0 && { key: 'disables', label: `停用（${s.disables}）`, children: sampleNames(samples.disables, s.disables, `${s.disables} 人`) },
  ] as (Panel | false)[]).filter((p): p is Panel => Boolean(p));

  const stats: { title: string; value: number; danger?: boolean }[] = [
    { title: '目录中的用户', value: s.total },
    { title: '新增', value: s.adds },
    { title: '更新', value: s.updates },
    { title: '调动部门', value: s.moves },
    { title: '停用', value: s.disables, danger: s.disables > 0 },
    { title: '无变化', value: s.unchanged },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {head}
      <Row gutter={16}>
        {stats.map((x) => (
          <Col key={x.title} xs={12} md={4}>
            <Statistic title={x.title} value={x.value} suffix="人" styles={x.danger ? { content: { color: '#cf1322' } } : undefined} />
          </Col>
        ))}
      </Row>
      {s.departmentsToCreate.length ? (
        <div>
          <Typography.Text strong>新建部门（{s.departmentsToCreate.length}）</Typography.Text>
          <ul style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
            {s.departmentsToCreate.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {panels.length ? <Collapse size="small" items={panels} /> : null}
      {s.conflicts.length ? (
        <Alert
          type="warning"
          showIcon
          title="以下用户未同步："
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {s.conflicts.map((c, i) => (
                <li key={`${c.userName}-${i}`}>
                  {c.userName}：{c.reason}
                </li>
              ))}
            </ul>
          }
        />
      ) : null}
      {run.status === 'planned' && changes > 0 ? (
        <div>
          <Button type="primary" loading={applying} onClick={onApply}>
            应用
          </Button>
        </div>
      ) : null}
    </Space>
  );
}
