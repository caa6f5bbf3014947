// 流程详情 (/workflow/informationDetails?id=): an approval as the caller may see it: its title,
// number, initiator, state and the seal once it ended; the form as it was filled in, the
// attached files, the steps with each person's part, the CC list, and the timeline of every
// action. The actions the server allows the caller (`can`) are offered as buttons; 打印 prints
// the record with its seal.
import { useCallback, useState, type ReactNode } from 'react';
import { Button, Card, Descriptions, Divider, Space, Spin, Steps, Tag, Timeline, Typography } from 'antd';
import PrinterOutlined from '@ant-design/icons/PrinterOutlined';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  api,
  apiUrl,
  formatBytes,
  formatDate,
  formatDateTime,
  isApiError,
  type WorkflowAction,
  type WorkflowInstanceDetail,
  type WorkflowStepView,
  type WorkflowUser, useLoad } from '@app/shared';
import { FileIcon, LoadError, RemotePage, SectionEmpty } from '@app/shared/ui';
import { StatusTag } from '../common';
import { FALLBACK_NOTE, joinNames, MODE_LABELS, paths, STATUS_META, TASK_STATUS_COLORS, TASK_STATUS_LABELS } from '../texts';
import { ACTION_ORDER, ACTIONS, ActionDialog, canDo, type ActionKey } from './ActionDialog';
import { FerryPanel } from './FerryPanel';
import { REMIND_TEXTS, RemindDialog } from './RemindDialog';
import { Stamp, type StampStatus } from './Stamp';

export const DETAILS_TEXTS = {
  title: '流程详情',
  noId: '请从流程列表中选择一条审批查看',
  notFound: '审批不存在，或你没有查看它的权限',
  back: '返回流程列表',
  print: '打印',
  noFiles: '无附件',
  noFields: '无表单内容',
  noCc: '无',
  fileGone: '文件已不可查看',
} as const;

// Printing shows only the record: the shell's menus, tabs and every button are left out.
const PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  .wf-print-area, .wf-print-area * { visibility: visible !important; }
  .wf-print-area { position: absolute; left: 0; top: 0; width: 100%; }
  .wf-no-print { display: none !important; }
}`;

const isNotFound = (e: unknown) => isApiError(e) && (e.code === 404 || e.status === 404 || String(e.code).startsWith('404'));

function stepName(detail: WorkflowInstanceDetail, index: number | null): string {
  if (index === null) return '';
  return detail.steps[index]?.name ?? `第 ${index + 1} 步`;
}

/** What one line of the timeline says (without the person). */
export function actionText(detail: WorkflowInstanceDetail, a: WorkflowAction): string {
  switch (a.kind) {
    case 'start':
      return '发起审批';
    case 'approve':
      return '同意';
    case 'reject':
      return '驳回';
    case 'return':
      return `退回到「${stepName(detail, a.toStep)}」`;
    case 'transfer':
      return `转交给 ${a.target?.name ?? ''}`.trim();
    case 'addApprover':
      return `加签 ${a.target?.name ?? ''}`.trim();
    case 'revoke':
      return '撤销';
    case 'comment':
      // a line the system wrote (自动催办)
      return a.user ? '评论' : '系统提醒';
    case 'finish':
      return `流程结束${a.status && a.status !== 1 ? `（${STATUS_META[a.status].label}）` : ''}`;
    default:
      return '';
  }
}

const ACTION_COLORS: Partial<Record<WorkflowAction['kind'], string>> = {
  start: 'blue',
  approve: 'green',
  reject: 'red',
  return: 'orange',
  revoke: 'gray',
};

function finishColor(a: WorkflowAction) {
  if (a.kind !== 'finish') return ACTION_COLORS[a.kind] ?? 'blue';
  return a.status === 2 ? 'green' : a.status === 3 ? 'red' : 'gray';
}

/** 转交自 or 加签自: from the timeline entry that gave the task, else from the step's tasks. */
function originOf(detail: WorkflowInstanceDetail, step: WorkflowStepView, task: WorkflowUser, from: WorkflowUser): string {
  const entry = [...detail.timeline]
    .reverse()
    .find((a) => (a.kind === 'transfer' || a.kind === 'addApprover') && a.user?.userId === from.userId && a.target?.userId === task.userId);
  const transferred = entry ? entry.kind === 'transfer' : step.tasks.some((t) => t.userId === from.userId && t.status === 'transferred');
  return `${transferred ? '转交自' : '加签自'} ${from.name}`;
}

function stepStatus(step: WorkflowStepView): 'wait' | 'process' | 'finish' | 'error' {
  if (step.tasks.some((t) => t.status === 'rejected')) return 'error';
  if (step.state === 'done') return 'finish';
  if (step.state === 'current') return 'process';
  return 'wait';
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <Divider titlePlacement="start" style={{ marginTop: 24 }}>
        {title}
      </Divider>
      {children}
    </section>
  );
}

function fieldValue(value: string | number | null): ReactNode {
  if (value === null || value === '') return <Typography.Text type="secondary">—</Typography.Text>;
  return <span style={{ whiteSpace: 'pre-wrap' }}>{String(value)}</span>;
}

function DetailsView({
  detail,
  onChanged,
  onReload,
}: {
  detail: WorkflowInstanceDetail;
  onChanged: (next: WorkflowInstanceDetail) => void;
  onReload: () => void;
}) {
  const [acting, setActing] = useState<ActionKey | null>(null);
  const [reminding, setReminding] = useState(false);
  const actions = ACTION_ORDER.filter((a) => canDo(detail, a));
  const canRemind = Boolean(detail.can.remind);
  const ended = detail.status !== 1;
  const decided = formatDate(detail.finishedAt ?? detail.updatedAt);

  return (
    <div className="wf-print-area">
      <style>{PRINT_CSS}</style>
      {actions.length || canRemind ? (
        <Space wrap className="wf-no-print" style={{ marginBottom: 12 }} role="toolbar" aria-label="审批操作">
          {canRemind ? (
            <Button onClick={() => setReminding(true)}>
              {REMIND_TEXTS.button}
            </Button>
          ) : null}
          {actions.map((a) => (
            <Button key={a} type={a === 'approve' ? 'primary' : 'default'} danger={ACTIONS[a].danger} onClick={() => setActing(a)}>
              {ACTIONS[a].label}
            </Button>
          ))}
        </Space>
      ) : null}
      <Card style={{ position: 'relative' }}>
        {ended ? (
          <div style={{ position: 'absolute', top: 4, right: 24, pointerEvents: 'none', zIndex: 1 }}>
            <Stamp status={detail.status as StampStatus} number={detail.number} date={decided} />
          </div>
        ) : null}
        <Space align="center" wrap style={{ paddingRight: ended ? 150 : 0 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {detail.title}
          </Typography.Title>
          <StatusTag status={detail.status} />
        </Space>
        <Descriptions
          size="small"
          style={{ marginTop: 16, paddingRight: ended ? 150 : 0 }}
          column={{ xs: 1, sm: 2, lg: 3 }}
          items={[
            { key: 'number', label: '编号', children: detail.number },
            { key: 'definition', label: '流程', children: detail.definitionName },
            { key: 'initiator', label: '发起人', children: detail.initiator.name },
            { key: 'createdAt', label: '发起时间', children: formatDateTime(detail.createdAt) },
            { key: 'status', label: '状态', children: STATUS_META[detail.status]?.label },
            ended
              ? { key: 'finishedAt', label: '结束时间', children: formatDateTime(detail.finishedAt) || '—' }
              : {
                  key: 'current',
                  label: '当前步骤',
                  children: `${detail.currentStep || '—'}${detail.pending.length ? `（待 ${joinNames(detail.pending)} 处理）` : ''}`,
                },
          ]}
        />

        {detail.source === 'ferry' && detail.sourceId ? <FerryPanel taskId={detail.sourceId} /> : null}

        <Section title="表单内容">
          {detail.fields.length ? (
            <Descriptions
              bordered
              size="small"
              column={1}
              items={detail.fields.map((f) => ({ key: f.key, label: f.label, children: fieldValue(f.value) }))}
            />
          ) : (
            <Typography.Text type="secondary">{DETAILS_TEXTS.noFields}</Typography.Text>
          )}
        </Section>

        <Section title="附件">
          {detail.files.length ? (
            <ul aria-label="附件列表" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {detail.files.map((f) => (
                <li key={`${f.fileId}:${f.versionId}`} style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 0' }}>
                  <FileIcon name={f.name} extension={f.extension} size={20} />
                  <span>{f.name}</span>
                  <Typography.Text type="secondary">{formatBytes(f.size)}</Typography.Text>
                  {f.url ? (
                    <a className="wf-no-print" href={apiUrl(f.url)} target="_blank" rel="noopener noreferrer" aria-label={`查看 ${f.name}`}>
                      查看
                    </a>
                  ) : (
                    <Typography.Text type="secondary">（{DETAILS_TEXTS.fileGone}）</Typography.Text>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <Typography.Text type="secondary">{DETAILS_TEXTS.noFiles}</Typography.Text>
          )}
        </Section>

        <Section title="审批步骤">
          <Steps
            orientation="vertical"
            size="small"
            items={detail.steps.map((s, i) => ({
              key: i,
              status: stepStatus(s),
              title: (
                <span>
                  {s.name}
                  <Tag style={{ marginInlineStart: 8 }}>{MODE_LABELS[s.mode]}</Tag>
                </span>
              ),
              content: (
                <div data-testid={`step-${i}`} style={{ paddingBottom: 8 }}>
                  {s.fallback ? <Typography.Text type="warning">{FALLBACK_NOTE}</Typography.Text> : null}
                  <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                    {s.tasks.map((t, j) => (
                      <li key={`${t.userId}:${j}`} style={{ padding: '2px 0' }}>
                        <span>{t.name}</span>
                        <Tag color={TASK_STATUS_COLORS[t.status]} style={{ marginInlineStart: 8 }}>
                          {TASK_STATUS_LABELS[t.status]}
                        </Tag>
                        {t.from ? <Typography.Text type="secondary">「{originOf(detail, s, t, t.from)}」</Typography.Text> : null}
                      </li>
                    ))}
                  </ul>
                </div>
              ),
            }))}
          />
        </Section>

        <Section title="抄送">
          {detail.cc.length ? <span>{joinNames(detail.cc)}</span> : <Typography.Text type="secondary">{DETAILS_TEXTS.noCc}</Typography.Text>}
        </Section>

        <Section title="审批记录">
          {detail.timeline.length ? (
            <Timeline
              items={detail.timeline.map((a) => ({
                key: a.id,
                color: finishColor(a),
                content: (
                  <div data-testid="timeline-entry">
                    <div>
                      <span>{a.user ? `${a.user.name} ${actionText(detail, a)}` : actionText(detail, a)}</span>
                      {a.stepName && a.kind !== 'start' && a.kind !== 'finish' ? (
                        <Typography.Text type="secondary"> · {a.stepName}</Typography.Text>
                      ) : null}
                    </div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatDateTime(a.createdAt)}
                    </Typography.Text>
                    {a.comment ? (
                      <div style={{ marginTop: 4, padding: '4px 8px', background: '#f6f7f9', borderRadius: 4, whiteSpace: 'pre-wrap' }}>{a.comment}</div>
                    ) : null}
                  </div>
                ),
              }))}
            />
          ) : (
            <Typography.Text type="secondary">暂无记录</Typography.Text>
          )}
        </Section>
      </Card>
      {acting ? <ActionDialog key={acting} action={acting} detail={detail} onDone={onChanged} onClose={() => setActing(null)} /> : null}
      {reminding ? <RemindDialog detail={detail} onClose={() => setReminding(false)} onReload={onReload} /> : null}
    </div>
  );
}

export function DetailsPage({ nav }: { nav: ReactNode }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const load = useCallback(() => (id ? api.getWorkflowInstance(id, { errorMode: 'none' }) : Promise.resolve(null)), [id]);
  const { state, reload, setData } = useLoad<WorkflowInstanceDetail | null>(load);
  const detail = state.data && state.data.instanceId === id ? state.data : null;

  const back = <Link to={paths.list()}>{DETAILS_TEXTS.back}</Link>;

  let body: ReactNode;
  if (!id) {
    body = <SectionEmpty description={DETAILS_TEXTS.noId}>{back}</SectionEmpty>;
  } else if (detail) {
    body = <DetailsView detail={detail} onChanged={setData} onReload={reload} />;
  } else if (state.status === 'error') {
    body = isNotFound(state.error) ? (
      <SectionEmpty description={DETAILS_TEXTS.notFound}>{back}</SectionEmpty>
    ) : (
      <LoadError message={state.message} onRetry={reload} />
    );
  } else {
    body = (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }

  return (
    <RemotePage
      title={DETAILS_TEXTS.title}
      nav={<div className="wf-no-print">{nav}</div>}
      extra={
        detail ? (
          <span className="wf-no-print" style={{ display: 'inline-flex', gap: 8 }}>
            <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
              {DETAILS_TEXTS.print}
            </Button>
            <Button onClick={() => navigate(paths.list())}>{DETAILS_TEXTS.back}</Button>
          </span>
        ) : undefined
      }
    >
      {body}
    </RemotePage>
  );
}

