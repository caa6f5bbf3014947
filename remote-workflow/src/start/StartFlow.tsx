// 发起审批 on the list page: a dialog to choose one of the enabled definitions (grouped by
// category), then a drawer with the form: 标题, the definition's fields, 附件 (files of the
// user's spaces, when the definition allows them) and the route the approval will take, resolved
// for the user by the server, where the user chooses the approvers of 自选 steps. 提交 starts
// the approval and opens its details.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Drawer, Empty, Form, Input, InputNumber, Modal, Select, Space, Spin, Steps, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useNavigate } from 'react-router-dom';
import {
  announceWorkflowChange,
  api,
  DATE_FORMAT,
  formatBytes,
  Messages,
  notify,
  useRuntimeConfig,
  useUserInfo,
  type Item,
  type OrgUser,
  type StartWorkflowBody,
  type WorkflowDefinition,
  type WorkflowFieldDef,
  type WorkflowRouteStep,
} from '@app/shared';
import { FileIcon, FilePicker, LoadError, RowLink, UserPicker, useRowLinkStyle } from '@app/shared/ui';
import { FALLBACK_NOTE, joinNames, MODE_LABELS, paths } from '../texts';

export const START_TEXTS = {
  choose: '选择要发起的流程',
  noDefinitions: '暂无可以发起的流程',
  noDefinitionsNote: '请联系流程管理员启用流程',
  other: '其他',
  title: '标题',
  files: '附件',
  pickFiles: '选择文件',
  route: '审批流程',
  pickApprovers: '选择审批人',
  needApprovers: '请选择审批人',
  submit: '提交',
  submitted: '已提交审批',
} as const;

/** The default number of files an approval may carry when the runtime configuration says none. */
export const DEFAULT_WORKFLOW_FILE_NUMBER = 20;
const TITLE_MAX = 100;

// ---- choosing the definition -------------------------------------------------------------

export interface DefinitionChooserProps {
  open: boolean;
  /** the enabled definitions */
  definitions: WorkflowDefinition[];
  status: 'loading' | 'ready' | 'error';
  onRetry: () => void;
  onPick: (definition: WorkflowDefinition) => void;
  onCancel: () => void;
}

export function DefinitionChooser({ open, definitions, status, onRetry, onPick, onCancel }: DefinitionChooserProps) {
  const groups = useMemo(() => {
    const map = new Map<string, WorkflowDefinition[]>();
    for (const d of definitions) {
      const key = d.category.trim() || START_TEXTS.other;
      map.set(key, [...(map.get(key) ?? []), d]);
    }
    // named categories first (in their order of appearance), 其他 last
    return [...map.entries()].sort(([a], [b]) => Number(a === START_TEXTS.other) - Number(b === START_TEXTS.other));
  }, [definitions]);

  return (
    <Modal open={open} title={START_TEXTS.choose} footer={null} width={640} onCancel={onCancel} destroyOnHidden>
      {status === 'loading' && !definitions.length ? (
        <Spin />
      ) : status === 'error' && !definitions.length ? (
        <LoadError onRetry={onRetry} />
      ) : groups.length ? (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 16, maxHeight: '60vh', overflow: 'auto' }}>
          {groups.map(([category, list]) => (
            <section key={category} aria-label={category}>
              <Typography.Title level={5} style={{ marginTop: 0 }}>
                {category}
              </Typography.Title>
              <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 8 }}>
                {list.map((d) => (
                  <Button key={d.id} onClick={() => onPick(d)} style={{ height: 'auto', padding: '8px 12px', textAlign: 'left', display: 'block', whiteSpace: 'normal' }}>
                    <div style={{ fontWeight: 600 }}>{d.name}</div>
                    {d.description ? (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {d.description}
                      </Typography.Text>
                    ) : null}
                  </Button>
                ))}
              </div>
            </section>
          ))}
        </div>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<>{START_TEXTS.noDefinitions}<div style={{ color: 'rgba(0,0,0,.45)' }}>{START_TEXTS.noDefinitionsNote}</div></>} />
      )}
    </Modal>
  );
}

// ---- the form ------------------------------------------------------------------------------

/** The form's values as the start body carries them: dates as YYYY-MM-DD, empty as null. */
export function formValuesOf(fields: WorkflowFieldDef[], raw: Record<string, unknown> = {}): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const f of fields) {
    const v = raw[f.key];
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) out[f.key] = null;
    else if (f.type === 'date') out[f.key] = dayjs.isDayjs(v) ? v.format(DATE_FORMAT) : String(v);
    else if (f.type === 'number') out[f.key] = typeof v === 'number' ? v : Number(v);
    else out[f.key] = String(v).trim();
  }
  return out;
}

function FieldInput({ field, ...rest }: { field: WorkflowFieldDef }) {
  switch (field.type) {
    case 'textarea':
      return <Input.TextArea rows={3} maxLength={2000} {...rest} />;
    case 'number':
      return <InputNumber style={{ width: '100%' }} {...rest} />;
    case 'date':
      return <DatePicker style={{ width: '100%' }} {...rest} />;
    case 'select':
      return <Select allowClear options={(field.options ?? []).map((o) => ({ value: o, label: o }))} placeholder="请选择" {...rest} />;
    default:
      return <Input maxLength={2000} {...rest} />;
  }
}

const pickVerb = (f: WorkflowFieldDef) => (f.type === 'date' || f.type === 'select' ? '请选择' : '请填写');

type RouteState = { status: 'loading' | 'ready' | 'error'; steps: WorkflowRouteStep[]; message?: string };

function useRoute(definitionId: string) {
  const [attempt, setAttempt] = useState(0);
  const [route, setRoute] = useState<RouteState>({ status: 'loading', steps: [] });
  useEffect(() => {
    let live = true;
    setRoute({ status: 'loading', steps: [] });
    api.getWorkflowRoute(definitionId, { errorMode: 'none' }).then(
      (steps) => live && setRoute({ status: 'ready', steps }),
      (e: unknown) => live && setRoute({ status: 'error', steps: [], message: e instanceof Error ? e.message : Messages.requestError }),
    );
    return () => {
      live = false;
    };
  }, [definitionId, attempt]);
  return { route, retry: () => setAttempt((n) => n + 1) };
}

/** The route of a new approval: each step, how it is decided, and who decides it. */
function RoutePreview({
  steps,
  chosen,
  missing,
  onChoose,
}: {
  steps: WorkflowRouteStep[];
  chosen: Record<number, OrgUser[]>;
  missing: number[];
  onChoose: (index: number) => void;
}) {
  return (
    <section aria-label={START_TEXTS.route}>
    <Steps
      orientation="vertical"
      size="small"
      items={steps.map((s, i) => ({
        key: i,
        status: 'wait' as const,
        title: (
          <span>
            {s.name}
            <Tag style={{ marginInlineStart: 8 }}>{MODE_LABELS[s.mode]}</Tag>
          </span>
        ),
        content: (
          <div data-testid={`route-step-${i}`} style={{ paddingBottom: 8 }}>
            {s.fallback ? (
              <div>
                <Typography.Text type="warning">{FALLBACK_NOTE}</Typography.Text>
                {s.approvers.length ? <Typography.Text type="secondary">（流程管理员：{joinNames(s.approvers)}）</Typography.Text> : null}
              </div>
            ) : s.approvers.length ? (
              <div>审批人：{joinNames(s.approvers)}</div>
            ) : null}
            {s.choose ? (
              <div style={{ marginTop: 4 }}>
                <Space wrap size={4}>
                  <Typography.Text type="secondary">由你选择：</Typography.Text>
                  {(chosen[i] ?? []).map((u) => (
                    <Tag key={u.userId} color="blue">
                      {u.nickName || u.userName}
                    </Tag>
                  ))}
                  <Button size="small" onClick={() => onChoose(i)} aria-label={`${START_TEXTS.pickApprovers}：${s.name}`}>
                    {START_TEXTS.pickApprovers}
                  </Button>
                </Space>
                {missing.includes(i) ? (
                  <div role="alert">
                    <Typography.Text type="danger">{START_TEXTS.needApprovers}</Typography.Text>
                  </div>
                ) : null}
              </div>
            ) : null}
          </div>
        ),
      }))}
    />
    </section>
  );
}

export interface StartDrawerProps {
  /** the definition being started; null: closed */
  definition: WorkflowDefinition | null;
  onClose: () => void;
}

export function StartDrawer({ definition, onClose }: StartDrawerProps) {
  return definition ? <StartForm key={definition.id} definition={definition} onClose={onClose} /> : null;
}

function StartForm({ definition, onClose }: { definition: WorkflowDefinition; onClose: () => void }) {
  useRowLinkStyle();
  const navigate = useNavigate();
  const user = useUserInfo();
  const runtime = useRuntimeConfig();
  const maxFiles = runtime?.workflowFileNumber ?? DEFAULT_WORKFLOW_FILE_NUMBER;
  const [form] = Form.useForm();
  const { route, retry } = useRoute(definition.id);
  const [files, setFiles] = useState<Item[]>([]);
  const [pickingFiles, setPickingFiles] = useState(false);
  const [chosen, setChosen] = useState<Record<number, OrgUser[]>>({});
  const [choosing, setChoosing] = useState<number | null>(null);
  const [missing, setMissing] = useState<number[]>([]);
  const [submitting, setSubmitting] = useState(false);

  const initialTitle = `${definition.name}-${user?.nickName || user?.userName || ''}-${dayjs().format(DATE_FORMAT)}`;

  const submit = async () => {
    const need = route.steps.map((s, i) => (s.choose && !chosen[i]?.length ? i : -1)).filter((i) => i >= 0);
    setMissing(need);
    let values: { title: string; form?: Record<string, unknown> };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (need.length) return;
    const body: StartWorkflowBody = {
      definitionId: definition.id,
      title: values.title.trim(),
      form: formValuesOf(definition.fields, values.form),
      fileIds: files.map((f) => f.id),
    };
    const chooseSteps = route.steps.map((s, i) => (s.choose ? i : -1)).filter((i) => i >= 0);
    if (chooseSteps.length) body.chosen = Object.fromEntries(chooseSteps.map((i) => [String(i), chosen[i].map((u) => u.userId)]));
    setSubmitting(true);
    let instanceId: string;
    try {
      ({ instanceId } = await api.startWorkflow(body));
    } catch {
      return; // the http client has shown why
    } finally {
      setSubmitting(false);
    }
    notify.success(START_TEXTS.submitted);
    announceWorkflowChange();
    onClose();
    navigate(paths.details(instanceId));
  };

  const choosingStep = choosing !== null ? route.steps[choosing] : undefined;

  return (
    <Drawer
      open
      title={`发起审批：${definition.name}`}
      size={640}
      onClose={onClose}
      footer={
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8 }}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={submitting} disabled={route.status !== 'ready'} onClick={() => void submit()}>
            {START_TEXTS.submit}
          </Button>
        </div>
      }
    >
      {definition.description ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
          {definition.description}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} layout="vertical" initialValues={{ title: initialTitle }} requiredMark>
        <Form.Item
          label={START_TEXTS.title}
          name="title"
          rules={[
            { required: true, whitespace: true, message: '请输入标题' },
            { max: TITLE_MAX, message: `标题不能超过 ${TITLE_MAX} 个字` },
          ]}
        >
          <Input maxLength={TITLE_MAX} showCount />
        </Form.Item>
        {definition.fields.map((f) => (
          <Form.Item key={f.key} label={f.label} name={['form', f.key]} rules={f.required ? [{ required: true, message: `${pickVerb(f)}${f.label}` }] : []}>
            <FieldInput field={f} />
          </Form.Item>
        ))}
        {definition.allowFiles ? (
          <Form.Item label={START_TEXTS.files} extra={`最多 ${maxFiles} 个文件，从个人文件或企业文件中选择`}>
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Button onClick={() => setPickingFiles(true)}>{START_TEXTS.pickFiles}</Button>
              {files.length ? (
                <ul aria-label="已选附件" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                  {files.map((f) => (
                    <li key={f.id} style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '2px 0' }}>
                      <FileIcon name={f.name} extension={f.extension} size={16} />
                      <span>{f.name}</span>
                      <Typography.Text type="secondary">{formatBytes(f.size)}</Typography.Text>
                      <RowLink aria-label={`移除附件 ${f.name}`} onClick={() => setFiles((list) => list.filter((x) => x.id !== f.id))}>
                        移除
                      </RowLink>
                    </li>
                  ))}
                </ul>
              ) : null}
            </Space>
          </Form.Item>
        ) : null}
      </Form>

      <Typography.Title level={5}>{START_TEXTS.route}</Typography.Title>
      {route.status === 'loading' ? (
        <Spin />
      ) : route.status === 'error' ? (
        <Alert
          type="error"
          showIcon
          title="审批流程加载失败"
          description={route.message}
          action={
            <Button size="small" onClick={retry}>
              重试
            </Button>
          }
        />
      ) : (
        <RoutePreview steps={route.steps} chosen={chosen} missing={missing} onChoose={setChoosing} />
      )}

      <FilePicker
        open={pickingFiles}
        title="选择附件"
        max={maxFiles}
        initialFiles={files}
        onOk={(picked) => {
          setFiles(picked);
          setPickingFiles(false);
        }}
        onCancel={() => setPickingFiles(false)}
      />
      <UserPicker
        open={choosing !== null}
        title={choosingStep ? `选择「${choosingStep.name}」的审批人` : START_TEXTS.pickApprovers}
        limitTypes={['user']}
        initialSelection={{ users: choosing !== null ? chosen[choosing] ?? [] : [] }}
        onOk={(selection) => {
          if (choosing === null) return;
          const index = choosing;
          setChosen((c) => ({ ...c, [index]: selection.users }));
          if (selection.users.length) setMissing((m) => m.filter((i) => i !== index));
          setChoosing(null);
        }}
        onCancel={() => setChoosing(null)}
      />
    </Drawer>
  );
}
