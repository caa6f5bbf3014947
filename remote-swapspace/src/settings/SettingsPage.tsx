// 摆渡设置 (/swapSpace/setFerry), administrators only (the server refuses anyone else with a
// Chinese sentence, shown here): what this 云文档 deployment has (its zone, the peer zones and
// their channel, the antivirus engine), the allowed-direction matrix with each direction's
// approval flow, the checks a file must pass (each switched on and off on its own: type
// whitelist, size, count, sensitive words, antivirus), how long received files stay and how long
// audit records are kept. 保存 sends the settings (never the read-only facts); the server records
// the change in the audit log.
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Select, Space, Spin, Switch, Table, Typography } from 'antd';
import type { FormRule as Rule, TableColumnsType } from 'antd';
import { api, notify, useLoad, type FerryDirection, type FerrySettings, type FerrySettingsView, type WorkflowDefinition } from '@app/shared';
import { RemotePage } from '@app/shared/ui';
import { LoadFailure } from '../adminAccess';

export const SETTINGS_TEXTS = {
  title: '摆渡设置',
  saved: '摆渡设置已保存（修改已记入审计日志）',
  save: '保存',
  reset: '重置',
  noAntivirus: '未安装 ClamAV，病毒查杀无法进行',
  antivirusCannotRun: '病毒查杀无法进行',
  defaultFlow: '默认（文件摆渡审批）',
  noDirections: '尚未配置对端区域，暂无可设置的摆渡方向',
  noPeers: '未配置',
  noSecret: '未设置摆渡密钥（环境变量 FERRY_SECRET），不能收发摆渡包',
  fix: '请先修改标红的设置项',
} as const;

/** The messages of the client-side checks (the server checks the same limits). */
export const SETTINGS_ERRORS = {
  allowedTypes: '开启文件类型白名单时请至少选择一种允许的类型',
  maxFileSize: '请填写单个文件的大小上限（大于 0 MB）',
  maxTotalSize: '请填写单次摆渡的总大小上限（大于 0 MB）',
  maxFileCount: '单次摆渡的文件数量上限须为 1–500 之间的整数',
  keywords: '开启敏感词检查时请至少填写一个敏感词',
  keywordTooLong: '每个敏感词不能超过 50 个字符',
  tooManyKeywords: '敏感词最多 1000 个',
  expiryDays: '过期天数须为 1–365 之间的整数',
  auditRetentionRequired: '请填写审计保留天数',
  auditRetentionMin: '审计保留天数不能少于 180 天（网络安全法要求网络日志至少保存六个月）',
  auditRetentionInteger: '审计保留天数须为整数',
  auditRetentionMax: '审计保留天数不能超过 36500 天',
} as const;

export const CHANNEL_TEXT: Record<FerrySettingsView['peers'][number]['channel'], string> = {
  spool: '摆渡目录',
  https: 'HTTPS 直连',
};

// the limits the server holds the settings to
export const MIN_AUDIT_RETENTION_DAYS = 180;
export const MAX_AUDIT_RETENTION_DAYS = 36500;
export const MAX_EXPIRY_DAYS = 365;
export const MAX_FILE_COUNT = 500;
export const MAX_KEYWORDS = 1000;
export const MAX_KEYWORD_LENGTH = 50;
const MB = 1024 * 1024;

/** The form's values: sizes in MB, keywords as one line each. */
interface SettingsForm {
  directions: Array<Pick<FerryDirection, 'enabled' | 'definitionId'>>;
  typeCheck: boolean;
  allowedTypes: string[];
  sizeCheck: boolean;
  maxFileSizeMb: number | null;
  maxTotalSizeMb: number | null;
  countCheck: boolean;
  maxFileCount: number | null;
  keywordCheck: boolean;
  keywordsText: string;
  antivirus: boolean;
  expiryDays: number | null;
  auditRetentionDays: number | null;
}

/** Bytes as MB for the form (two decimals at most). */
export const bytesToMb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;
export const mbToBytes = (mb: number) => Math.round(mb * MB);

/** The lines of the text area, trimmed, without blanks or repeats. */
export function keywordsOf(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((k) => k.trim()).filter(Boolean))];
}

function formOf(view: FerrySettingsView): SettingsForm {
  return {
    directions: view.directions.map((d) => ({ enabled: d.enabled, definitionId: d.definitionId })),
    typeCheck: view.typeCheck,
    allowedTypes: view.allowedTypes,
    sizeCheck: view.sizeCheck,
    maxFileSizeMb: bytesToMb(view.maxFileSize),
    maxTotalSizeMb: bytesToMb(view.maxTotalSize),
    countCheck: view.countCheck,
    maxFileCount: view.maxFileCount,
    keywordCheck: view.keywordCheck,
    keywordsText: view.keywords.join('\n'),
    antivirus: view.antivirus,
    expiryDays: view.expiryDays,
    auditRetentionDays: view.auditRetentionDays,
  };
}

const countOr = (value: number | null | undefined, fallback: number) => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback);

/** MB from the form as bytes; the stored bytes when the figure shown was not changed (no rounding drift). */
function bytesOr(mb: number | null | undefined, stored: number): number {
  if (typeof mb !== 'number' || !Number.isFinite(mb) || mb <= 0) return stored;
  return mb === bytesToMb(stored) ? stored : mbToBytes(mb);
}

/**
 * Exactly the FerrySettings fields, from the form. A limit left blank while its check is off
 * keeps the value the server had.
 */
export function bodyOf(values: SettingsForm, view: FerrySettingsView): FerrySettings {
  return {
    directions: view.directions.map((d, i) => ({
      from: d.from,
      to: d.to,
      enabled: Boolean(values.directions[i]?.enabled),
      definitionId: values.directions[i]?.definitionId ?? '',
    })),
    typeCheck: values.typeCheck,
    allowedTypes: values.allowedTypes,
    sizeCheck: values.sizeCheck,
    maxFileSize: bytesOr(values.maxFileSizeMb, view.maxFileSize),
    maxTotalSize: bytesOr(values.maxTotalSizeMb, view.maxTotalSize),
    countCheck: values.countCheck,
    maxFileCount: countOr(values.maxFileCount, view.maxFileCount),
    keywordCheck: values.keywordCheck,
    keywords: keywordsOf(values.keywordsText),
    antivirus: values.antivirus,
    expiryDays: countOr(values.expiryDays, view.expiryDays),
    auditRetentionDays: countOr(values.auditRetentionDays, view.auditRetentionDays),
  };
}

/** A rule that applies only while the check named `flag` is on. */
const whenOn =
  (flag: keyof SettingsForm, test: (value: unknown) => string | null): Rule =>
  (form) => ({
    validator: (_: unknown, value: unknown) => {
      if (!form.getFieldValue(flag)) return Promise.resolve();
      const problem = test(value);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  });

const positive = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;

const RULES: Record<string, Rule[]> = {
  allowedTypes: [whenOn('typeCheck', (v) => (Array.isArray(v) && v.length ? null : SETTINGS_ERRORS.allowedTypes))],
  maxFileSizeMb: [whenOn('sizeCheck', (v) => (positive(v) ? null : SETTINGS_ERRORS.maxFileSize))],
  maxTotalSizeMb: [whenOn('sizeCheck', (v) => (positive(v) ? null : SETTINGS_ERRORS.maxTotalSize))],
  maxFileCount: [
    whenOn('countCheck', (v) => (positive(v) && Number.isInteger(v) && (v as number) <= MAX_FILE_COUNT ? null : SETTINGS_ERRORS.maxFileCount)),
  ],
  keywordsText: [
    // the list is sent whether or not the check is on, so its length limits always apply
    {
      validator: (_: unknown, v: unknown) => {
        const list = keywordsOf(String(v ?? ''));
        if (list.some((k) => [...k].length > MAX_KEYWORD_LENGTH)) return Promise.reject(new Error(SETTINGS_ERRORS.keywordTooLong));
        if (list.length > MAX_KEYWORDS) return Promise.reject(new Error(SETTINGS_ERRORS.tooManyKeywords));
        return Promise.resolve();
      },
    },
    whenOn('keywordCheck', (v) => (keywordsOf(String(v ?? '')).length ? null : SETTINGS_ERRORS.keywords)),
  ],
  expiryDays: [
    {
      validator: (_: unknown, v: unknown) =>
        typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_EXPIRY_DAYS ? Promise.resolve() : Promise.reject(new Error(SETTINGS_ERRORS.expiryDays)),
    },
  ],
  auditRetentionDays: [
    {
      validator: (_: unknown, v: unknown) => {
        if (typeof v !== 'number' || !Number.isFinite(v)) return Promise.reject(new Error(SETTINGS_ERRORS.auditRetentionRequired));
        if (!Number.isInteger(v)) return Promise.reject(new Error(SETTINGS_ERRORS.auditRetentionInteger));
        if (v < MIN_AUDIT_RETENTION_DAYS) return Promise.reject(new Error(SETTINGS_ERRORS.auditRetentionMin));
        if (v > MAX_AUDIT_RETENTION_DAYS) return Promise.reject(new Error(SETTINGS_ERRORS.auditRetentionMax));
        return Promise.resolve();
      },
    },
  ],
};

/** One check: its own switch, what it does, and its limits (greyed out while it is off). */
function CheckBlock({ title, flag, note, children }: { title: string; flag: keyof SettingsForm; note: ReactNode; children?: (on: boolean) => ReactNode }) {
  const on = Boolean(Form.useWatch(flag));
  return (
    <section aria-label={title} style={{ padding: '12px 0', borderBottom: '1px solid #f0f0f0' }}>
      <Space align="start" size={12}>
        <Form.Item name={flag} valuePropName="checked" noStyle>
          <Switch aria-label={title} />
        </Form.Item>
        <div>
          <Typography.Text strong>{title}</Typography.Text>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {note}
            </Typography.Text>
          </div>
        </div>
      </Space>
      {children ? <div style={{ marginTop: 12, paddingInlineStart: 56 }}>{children(on)}</div> : null}
    </section>
  );
}

function Facts({ view }: { view: FerrySettingsView }) {
  return (
    <Descriptions
      size="small"
      column={1}
      items={[
        { key: 'zone', label: '本区域', children: view.zone || '—' },
        {
          key: 'peers',
          label: '对端区域',
          children: view.peers.length ? (
            <span>{view.peers.map((p) => `${p.zone}（${CHANNEL_TEXT[p.channel] ?? p.channel}）`).join('、')}</span>
          ) : (
            <Typography.Text type="secondary">{SETTINGS_TEXTS.noPeers}</Typography.Text>
          ),
        },
        ...(view.secretConfigured ? [] : [{ key: 'secret', label: '摆渡密钥', children: <Alert type="error" showIcon title={SETTINGS_TEXTS.noSecret} /> }]),
        {
          key: 'antivirus',
          label: '病毒查杀引擎',
          children: view.antivirusEngine ? (
            <span>{view.antivirusEngine}</span>
          ) : view.antivirusMissing ? (
            <Alert type="warning" showIcon title={SETTINGS_TEXTS.antivirusCannotRun} description={view.antivirusMissing} />
          ) : (
            <Alert type="warning" showIcon title={SETTINGS_TEXTS.noAntivirus} />
          ),
        },
      ]}
    />
  );
}

function DirectionsTable({ view, definitions, loadingDefinitions }: { view: FerrySettingsView; definitions: WorkflowDefinition[]; loadingDefinitions: boolean }) {
  const options = useMemo(() => {
    const known = new Set(definitions.map((d) => d.id));
    // a flow set earlier but no longer listed still shows as what it is
    const missing = [...new Set(view.directions.map((d) => d.definitionId).filter((id) => id && !known.has(id)))];
    return [
      { value: '', label: SETTINGS_TEXTS.defaultFlow },
      ...definitions.map((d) => ({ value: d.id, label: d.enabled ? d.name : `${d.name}（已停用）` })),
      ...missing.map((id) => ({ value: id, label: `流程 ${id}（不可用）` })),
    ];
  }, [definitions, view.directions]);

  const columns: TableColumnsType<FerryDirection & { index: number }> = [
    { title: '方向', key: 'direction', render: (_: unknown, d) => `${d.from} → ${d.to}` },
    {
      title: '启用',
      key: 'enabled',
      width: 90,
      render: (_: unknown, d) => (
        <Form.Item name={['directions', d.index, 'enabled']} valuePropName="checked" noStyle>
          <Switch size="small" aria-label={`启用 ${d.from} → ${d.to}`} />
        </Form.Item>
      ),
    },
    {
      title: '审批流程',
      key: 'definitionId',
      width: 280,
      render: (_: unknown, d) => (
        <Form.Item name={['directions', d.index, 'definitionId']} noStyle>
          <Select aria-label={`审批流程 ${d.from} → ${d.to}`} style={{ width: 260 }} loading={loadingDefinitions} options={options} />
        </Form.Item>
      ),
    },
  ];

  return (
    <Table
      rowKey={(d) => `${d.from}>${d.to}`}
      size="small"
      pagination={false}
      columns={columns}
      dataSource={view.directions.map((d, index) => ({ ...d, index }))}
      locale={{ emptyText: SETTINGS_TEXTS.noDirections }}
    />
  );
}

function SettingsForm({ view, onSaved }: { view: FerrySettingsView; onSaved: (next: FerrySettingsView) => void }) {
  const [form] = Form.useForm<SettingsForm>();
  const [saving, setSaving] = useState(false);
  const defs = useLoad(useCallback(() => api.getWorkflowDefinitions({ errorMode: 'none' }), []));
  const initial = useMemo(() => formOf(view), [view]);

  useEffect(() => form.setFieldsValue(initial), [form, initial]);

  const save = async () => {
    const values = form.getFieldsValue(true) as SettingsForm;
    setSaving(true);
    try {
      const next = await api.saveFerrySettings(bodyOf(values, view));
      onSaved(next);
      notify.success(SETTINGS_TEXTS.saved);
    } catch {
      /* the http client has shown why */
    } finally {
      setSaving(false);
    }
  };

  const typeOptions = [...new Set([...view.knownTypes, ...view.allowedTypes])].map((t) => ({ value: t, label: t }));

  return (
    <Form<SettingsForm>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={() => void save()}
      onFinishFailed={() => notify.warning(SETTINGS_TEXTS.fix)}
      scrollToFirstError
      style={{ maxWidth: 900 }}
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card size="small" title="部署信息">
          <Facts view={view} />
        </Card>

        <Card size="small" title="摆渡方向">
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            只有启用的方向可以发起摆渡；每个方向可以指定自己的审批流程，未指定时使用“文件摆渡审批”。
          </Typography.Paragraph>
          <DirectionsTable view={view} definitions={defs.state.data ?? []} loadingDefinitions={defs.state.status === 'loading'} />
        </Card>

        <Card size="small" title="检查项">
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 0 }}>
            每项检查可单独开启或关闭；未通过任一项检查的文件会被拦截，不进入审批。
          </Typography.Paragraph>
          <CheckBlock title="文件类型白名单" flag="typeCheck" note="按文件内容识别实际类型（不看扩展名），不在名单中的类型会被拦截">
            {(on) => (
              <Form.Item name="allowedTypes" label="允许的类型" rules={RULES.allowedTypes} dependencies={['typeCheck']}>
                <Select mode="multiple" allowClear disabled={!on} placeholder="选择允许摆渡的文件类型" options={typeOptions} style={{ maxWidth: 600 }} />
              </Form.Item>
            )}
          </CheckBlock>
          <CheckBlock title="大小限制" flag="sizeCheck" note="超过上限的文件或摆渡任务会被拦截">
            {(on) => (
              <Space wrap size={24}>
                <Form.Item name="maxFileSizeMb" label="单个文件上限" rules={RULES.maxFileSizeMb} dependencies={['sizeCheck']}>
                  <InputNumber disabled={!on} suffix="MB" style={{ width: 180 }} />
                </Form.Item>
                <Form.Item name="maxTotalSizeMb" label="单次摆渡总大小上限" rules={RULES.maxTotalSizeMb} dependencies={['sizeCheck']}>
                  <InputNumber disabled={!on} suffix="MB" style={{ width: 180 }} />
                </Form.Item>
              </Space>
            )}
          </CheckBlock>
          <CheckBlock title="数量限制" flag="countCheck" note="单次摆渡的文件超过上限时整个任务会被拦截">
            {(on) => (
              <Form.Item name="maxFileCount" label="单次摆渡文件数上限" rules={RULES.maxFileCount} dependencies={['countCheck']}>
                <InputNumber disabled={!on} suffix="个" style={{ width: 180 }} />
              </Form.Item>
            )}
          </CheckBlock>
          <CheckBlock title="敏感词" flag="keywordCheck" note="在文件的文字内容中查找敏感词，命中的文件会被拦截，审批人可看到命中位置">
            {(on) => (
              <Form.Item name="keywordsText" label="敏感词（每行一个）" rules={RULES.keywordsText} dependencies={['keywordCheck']}>
                <Input.TextArea disabled={!on} rows={5} style={{ maxWidth: 600 }} />
              </Form.Item>
            )}
          </CheckBlock>
          <CheckBlock
            title="病毒查杀"
            flag="antivirus"
            note={view.antivirusEngine ? `使用 ${view.antivirusEngine} 扫描每个文件，发现病毒即拦截` : '当前没有扫描引擎：开启后该项检查记为“已跳过”'}
          />
        </Card>

        <Card size="small" title="保留期限">
          <Space wrap size={24} align="start">
            <Form.Item name="expiryDays" label="过期天数" rules={RULES.expiryDays} extra="对方收到的文件在这么多天后过期（1–365 天）">
              <InputNumber suffix="天" style={{ width: 180 }} />
            </Form.Item>
            <Form.Item
              name="auditRetentionDays"
              label="审计保留天数"
              rules={RULES.auditRetentionDays}
              extra="不少于 180 天：网络安全法要求网络日志至少保存六个月"
            >
              <InputNumber suffix="天" style={{ width: 180 }} />
            </Form.Item>
          </Space>
        </Card>

        <Space>
          <Button type="primary" htmlType="submit" loading={saving}>
            {SETTINGS_TEXTS.save}
          </Button>
          <Button
            disabled={saving}
            onClick={() => {
              form.resetFields();
              form.setFieldsValue(initial);
            }}
          >
            {SETTINGS_TEXTS.reset}
          </Button>
        </Space>
      </Space>
    </Form>
  );
}

export default function SettingsPage({ nav }: { nav?: ReactNode }) {
  const { state, reload, setData } = useLoad(useCallback(() => api.getFerrySettings({ errorMode: 'none' }), []));
  let body: ReactNode;
  if (state.data) body = <SettingsForm view={state.data} onSaved={setData} />;
  else if (state.status === 'error') body = <LoadFailure error={state.error} message={state.message} onRetry={reload} />;
  else
    body = (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  return (
    <RemotePage title={SETTINGS_TEXTS.title} nav={nav}>
      {body}
    </RemotePage>
  );
}
