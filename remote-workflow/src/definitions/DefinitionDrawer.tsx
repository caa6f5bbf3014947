// 新建流程 / 编辑流程 (flow admins): the definition's name, category, description, whether it is
// enabled, the revoke rule, whether files may be attached and after how many hours the waiting
// approvers are reminded (自动催办, 0 off); its form fields; its steps (name,
// how they are decided, who approves) and whom it is copied to. 保存 checks it, then creates or
// updates it.
import { useState, type ReactNode } from 'react';
import { Alert, AutoComplete, Button, Card, Checkbox, Drawer, Form, Input, InputNumber, Radio, Select, Space, Switch, Tooltip, Typography } from 'antd';
import ArrowDownOutlined from '@ant-design/icons/ArrowDownOutlined';
import ArrowUpOutlined from '@ant-design/icons/ArrowUpOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import {
  api,
  notify,
  type WorkflowApproverRule,
  type WorkflowDefinition,
  type WorkflowDefinitionBody,
  type WorkflowFieldDef,
  type WorkflowFieldType,
  type WorkflowRevokeRule,
  type WorkflowStepDef,
  type WorkflowStepMode,
} from '@app/shared';
import { FIELD_TYPE_LABELS, MODE_HINTS, MODE_LABELS, REVOKE_LABELS, RULE_TYPES } from '../texts';
import { RuleEditor } from './RuleEditor';
import { definitionErrors } from './validate';

export const DEFINITION_TEXTS = {
  create: '新建流程',
  edit: '编辑流程',
  created: '流程已创建',
  saved: '流程已保存',
  save: '保存',
  fields: '表单字段',
  addField: '添加字段',
  steps: '审批步骤',
  addStep: '添加审批步骤',
  cc: '抄送',
  fix: '请先修改以下问题',
  autoRemind: '自动催办',
  autoRemindHint: '审批人超过这么多小时未处理时，系统通过消息中心提醒；之后每隔同样时长再提醒。0 表示不自动催办',
  autoRemindError: '自动催办时间须为 0–168 之间的整数小时（0 表示不自动催办）',
} as const;

/** 自动催办: at most a week. */
export const AUTO_REMIND_MAX_HOURS = 168;

const AUTO_REMIND_RULES = [
  {
    validator: (_: unknown, v: unknown) =>
      typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= AUTO_REMIND_MAX_HOURS
        ? Promise.resolve()
        : Promise.reject(new Error(DEFINITION_TEXTS.autoRemindError)),
  },
];

/** The body of a stored definition (what create and update take). */
export function bodyOf(d: WorkflowDefinition): WorkflowDefinitionBody {
  return {
    name: d.name,
    category: d.category,
    description: d.description,
    enabled: d.enabled,
    fields: d.fields,
    allowFiles: d.allowFiles,
    steps: d.steps,
    cc: d.cc,
    revoke: d.revoke,
    autoRemindHours: d.autoRemindHours ?? 0,
  };
}

/** A rule as the server takes it: its kind and whom it names (the name is the server's). */
const ruleBody = (r: WorkflowApproverRule): WorkflowApproverRule => ('id' in r ? { type: r.type, id: r.id } : { type: r.type }) as WorkflowApproverRule;

function move<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

function OrderButtons({ what, index, count, onMove, onRemove }: { what: string; index: number; count: number; onMove: (to: number) => void; onRemove: () => void }) {
  return (
    <Space size={0}>
      <Tooltip title="上移">
        <Button type="text" size="small" aria-label={`上移${what}`} icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => onMove(index - 1)} />
      </Tooltip>
      <Tooltip title="下移">
        <Button type="text" size="small" aria-label={`下移${what}`} icon={<ArrowDownOutlined />} disabled={index === count - 1} onClick={() => onMove(index + 1)} />
      </Tooltip>
      <Tooltip title="删除">
        <Button type="text" size="small" danger aria-label={`删除${what}`} icon={<DeleteOutlined />} onClick={onRemove} />
      </Tooltip>
    </Space>
  );
}

function nextKey(fields: WorkflowFieldDef[]): string {
  const used = new Set(fields.map((f) => f.key));
  let n = fields.length + 1;
  while (used.has(`field${n}`)) n += 1;
  return `field${n}`;
}

function FieldsEditor({ fields, onChange }: { fields: WorkflowFieldDef[]; onChange: (next: WorkflowFieldDef[]) => void }) {
  const patch = (i: number, p: Partial<WorkflowFieldDef>) => onChange(fields.map((f, j) => (j === i ? { ...f, ...p } : f)));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {fields.length ? null : <Typography.Text type="secondary">没有表单字段：发起时只填写标题</Typography.Text>}
      {fields.map((f, i) => {
        const n = i + 1;
        return (
          <div key={i} role="group" aria-label={`字段 ${n}`} style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}>
            <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
              <Input aria-label={`字段 ${n} 名称`} placeholder="字段名称，如：请假天数" maxLength={50} value={f.label} onChange={(e) => patch(i, { label: e.target.value })} style={{ width: 180 }} />
              <Input aria-label={`字段 ${n} 标识`} placeholder="标识，如 days" maxLength={32} value={f.key} onChange={(e) => patch(i, { key: e.target.value.trim() })} style={{ width: 130 }} />
              <Select<WorkflowFieldType>
                aria-label={`字段 ${n} 类型`}
                value={f.type}
                style={{ width: 120 }}
                options={(Object.keys(FIELD_TYPE_LABELS) as WorkflowFieldType[]).map((t) => ({ value: t, label: FIELD_TYPE_LABELS[t] }))}
                onChange={(type) => patch(i, { type, options: type === 'select' ? f.options ?? [] : undefined })}
              />
              <Checkbox checked={f.required} onChange={(e) => patch(i, { required: e.target.checked })}>
                必填
              </Checkbox>
              <span style={{ marginInlineStart: 'auto' }}>
                <OrderButtons what={`字段 ${n}`} index={i} count={fields.length} onMove={(to) => onChange(move(fields, i, to))} onRemove={() => onChange(fields.filter((_, j) => j !== i))} />
              </span>
            </div>
            {f.type === 'select' ? (
              <Select
                mode="tags"
                aria-label={`字段 ${n} 选项`}
                placeholder="输入选项后按回车"
                value={f.options ?? []}
                onChange={(options: string[]) => patch(i, { options })}
                open={false}
                style={{ width: '100%', marginTop: 8 }}
                tokenSeparators={[',', '，']}
              />
            ) : null}
          </div>
        );
      })}
      <div>
        <Button icon={<PlusOutlined />} onClick={() => onChange([...fields, { key: nextKey(fields), label: '', type: 'text', required: false }])}>
          {DEFINITION_TEXTS.addField}
        </Button>
      </div>
    </div>
  );
}

function StepsEditor({ steps, onChange }: { steps: WorkflowStepDef[]; onChange: (next: WorkflowStepDef[]) => void }) {
  const patch = (i: number, p: Partial<WorkflowStepDef>) => onChange(steps.map((s, j) => (j === i ? { ...s, ...p } : s)));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {steps.map((s, i) => {
        const n = i + 1;
        return (
          <Card
            key={i}
            size="small"
            role="group"
            aria-label={`第 ${n} 步`}
            title={`第 ${n} 步`}
            extra={<OrderButtons what={`第 ${n} 步`} index={i} count={steps.length} onMove={(to) => onChange(move(steps, i, to))} onRemove={() => onChange(steps.filter((_, j) => j !== i))} />}
          >
            <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
              <Input aria-label={`第 ${n} 步名称`} placeholder="步骤名称，如：部门负责人审批" maxLength={50} value={s.name} onChange={(e) => patch(i, { name: e.target.value })} />
              <Radio.Group
                aria-label={`第 ${n} 步审批方式`}
                value={s.mode}
                onChange={(e) => patch(i, { mode: e.target.value as WorkflowStepMode })}
                options={(Object.keys(MODE_LABELS) as WorkflowStepMode[]).map((m) => ({ value: m, label: <Tooltip title={MODE_HINTS[m]}>{MODE_LABELS[m]}</Tooltip> }))}
              />
              <RuleEditor rules={s.approvers} onChange={(approvers) => patch(i, { approvers })} addLabel="添加审批人" emptyText="尚未添加审批人" />
            </div>
          </Card>
        );
      })}
      <div>
        <Button icon={<PlusOutlined />} onClick={() => onChange([...steps, { name: '', mode: 'sequential', approvers: [] }])}>
          {DEFINITION_TEXTS.addStep}
        </Button>
      </div>
    </div>
  );
}

function Block({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <section aria-label={title} style={{ marginTop: 16 }}>
      <Typography.Title level={5}>
        {title}
        {extra ? (
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal', marginInlineStart: 8 }}>
            {extra}
          </Typography.Text>
        ) : null}
      </Typography.Title>
      {children}
    </section>
  );
}

interface Basics {
  name: string;
  category?: string;
  description?: string;
  enabled: boolean;
  revoke: WorkflowRevokeRule;
  allowFiles: boolean;
  /** 自动催办 after this many hours (0 off) */
  autoRemindHours: number | null;
}

export interface DefinitionDrawerProps {
  /** the definition edited; null for a new one */
  definition: WorkflowDefinition | null;
  categories: string[];
  onClose: () => void;
  onSaved: (saved: WorkflowDefinition) => void;
}

export function DefinitionDrawer({ definition, categories, onClose, onSaved }: DefinitionDrawerProps) {
  const [form] = Form.useForm<Basics>();
  const [fields, setFields] = useState<WorkflowFieldDef[]>(definition?.fields ?? []);
  const [steps, setSteps] = useState<WorkflowStepDef[]>(definition?.steps ?? [{ name: '', mode: 'sequential', approvers: [] }]);
  const [cc, setCc] = useState<WorkflowApproverRule[]>(definition?.cc ?? []);
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    let basics: Basics | null = null;
    try {
      basics = await form.validateFields();
    } catch {
      basics = null;
    }
    const values = basics ?? form.getFieldsValue(true);
    const body: WorkflowDefinitionBody = {
      name: (values.name ?? '').trim(),
      category: (values.category ?? '').trim(),
      description: (values.description ?? '').trim(),
      enabled: Boolean(values.enabled),
      revoke: values.revoke ?? 'untouched',
      allowFiles: Boolean(values.allowFiles),
      autoRemindHours: values.autoRemindHours ?? 0,
      fields: fields.map((f) => {
        const field: WorkflowFieldDef = { key: f.key.trim(), label: f.label.trim(), type: f.type, required: f.required };
        if (f.type === 'select') field.options = (f.options ?? []).map((o) => o.trim()).filter(Boolean);
        return field;
      }),
      steps: steps.map((s) => ({ name: s.name.trim(), mode: s.mode, approvers: s.approvers.map(ruleBody) })),
      cc: cc.map(ruleBody),
    };
    const problems = definitionErrors(body).filter((p) => basics || p !== '请填写流程名称');
    setErrors(problems);
    if (!basics || problems.length) return;
    setSaving(true);
    let saved: WorkflowDefinition;
    try {
      saved = definition ? await api.updateWorkflowDefinition(definition.id, body) : await api.createWorkflowDefinition(body);
    } catch {
      return; // the http client has shown why
    } finally {
      setSaving(false);
    }
    notify.success(definition ? DEFINITION_TEXTS.saved : DEFINITION_TEXTS.created);
    onSaved(saved);
    onClose();
  };

  return (
    <Drawer
      open
      title={definition ? `${DEFINITION_TEXTS.edit}：${definition.name}` : DEFINITION_TEXTS.create}
      size={760}
      onClose={onClose}
      footer={
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8 }}>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void save()}>
            {DEFINITION_TEXTS.save}
          </Button>
        </div>
      }
    >
      <Form<Basics>
        form={form}
        layout="vertical"
        initialValues={{
          name: definition?.name ?? '',
          category: definition?.category ?? '',
          description: definition?.description ?? '',
          enabled: definition?.enabled ?? true,
          revoke: definition?.revoke ?? 'untouched',
          allowFiles: definition?.allowFiles ?? false,
          autoRemindHours: definition?.autoRemindHours ?? 0,
        }}
      >
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item label="流程名称" name="name" rules={[{ required: true, whitespace: true, message: '请填写流程名称' }, { max: 50, message: '流程名称不能超过 50 个字' }]} style={{ flex: 2 }}>
            <Input placeholder="如：请假申请" maxLength={50} />
          </Form.Item>
          <Form.Item label="分类" name="category" style={{ flex: 1 }}>
            <AutoComplete
              placeholder="如：人事"
              maxLength={50}
              options={categories.map((c) => ({ value: c }))}
              showSearch={{ filterOption: (input, option) => String(option?.value ?? '').includes(input) }}
            />
          </Form.Item>
        </div>
        <Form.Item label="说明" name="description">
          <Input.TextArea rows={2} maxLength={500} placeholder="发起人选择流程时看到的说明（选填）" />
        </Form.Item>
        <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
          <Form.Item label="启用" name="enabled" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="允许附加文件" name="allowFiles" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="撤销" name="revoke">
            <Radio.Group options={(Object.keys(REVOKE_LABELS) as WorkflowRevokeRule[]).map((r) => ({ value: r, label: REVOKE_LABELS[r] }))} />
          </Form.Item>
        </div>
        <Form.Item label={DEFINITION_TEXTS.autoRemind} name="autoRemindHours" rules={AUTO_REMIND_RULES} extra={DEFINITION_TEXTS.autoRemindHint}>
          <InputNumber suffix="小时" precision={0} style={{ width: 180 }} />
        </Form.Item>
      </Form>

      <Block title={DEFINITION_TEXTS.fields} extra="发起人填写的内容">
        <FieldsEditor fields={fields} onChange={setFields} />
      </Block>
      <Block title={DEFINITION_TEXTS.steps} extra="按顺序进行；没有审批人的步骤会转给流程管理员">
        <StepsEditor steps={steps} onChange={setSteps} />
      </Block>
      <Block title={DEFINITION_TEXTS.cc} extra="审批结束后通知，不参与审批">
        <RuleEditor rules={cc} onChange={setCc} addLabel="添加抄送人" emptyText="不抄送" types={RULE_TYPES.filter((t) => t !== 'initiatorChoice')} />
      </Block>

      {errors.length ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 16 }}
          title={DEFINITION_TEXTS.fix}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          }
        />
      ) : null}
    </Drawer>
  );
}
