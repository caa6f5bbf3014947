// 目录同步 of 系统管理 (system administrators): the LDAP/AD settings and 测试连接; 立即同步,
// which reads the directory and shows the plan (adds, updates, moves, disables, departments to
// create, the people skipped) without writing anything, applied on 应用 after a confirmation
// naming how many people it disables; and the record of runs, manual and scheduled. A plan the
// server refused (an empty answer, too many disables) shows why and cannot be applied.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  App as AntApp,
  Button,
  Card,
  Checkbox,
  Col,
  Collapse,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Skeleton,
  Space,
  Statistic,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import dayjs from 'dayjs';
import { directoryApi, notify, type DirectoryRun, type DirectoryRunStatus, type LdapSettings, type LdapSettingsBody, type LdapTestResult } from '@app/shared';

type FormValues = Omit<LdapSettings, 'hasBindPassword'> & { bindPassword?: string };

const URL_PATTERN = /^ldaps?:\/\/[^\s/]+/i;
const ATTRIBUTE_PATTERN = /^[A-Za-z][A-Za-z0-9-]*$/;
const attributeRules = [
  { required: true, message: '请填写属性名' },
  { pattern: ATTRIBUTE_PATTERN, message: '应为一个 LDAP 属性名' },
];

const ATTRIBUTE_FIELDS: { key: keyof LdapSettings['attributes']; label: string; placeholder: string }[] = [
  { key: 'userName', label: '用户名', placeholder: 'uid / sAMAccountName' },
  { key: 'displayName', label: '显示名', placeholder: 'cn / displayName' },
  { key: 'mail', label: '邮箱', placeholder: 'mail' },
  { key: 'mobile', label: '手机', placeholder: 'mobile' },
  { key: 'employeeNo', label: '工号', placeholder: 'employeeNumber' },
];

const STATUS: Record<DirectoryRunStatus, { text: string; color: string }> = {
  planned: { text: '待应用', color: 'blue' },
  applied: { text: '已应用', color: 'green' },
  refused: { text: '已拒绝', color: 'orange' },
  failed: { text: '失败', color: 'red' },
};

const TRIGGER: Record<DirectoryRun['trigger'], string> = { manual: '手动', schedule: '自动' };

const isLdaps = (url: string | undefined) => (url ?? '').trim().toLowerCase().startsWith('ldaps://');

/** The body of 保存: every setting, and the bind password only when one was typed. */
function toBody(v: FormValues): LdapSettingsBody {
  const url = (v.url ?? '').trim();
  const body: LdapSettingsBody = {
    enabled: Boolean(v.enabled),
    url,
    startTls: isLdaps(url) ? false : Boolean(v.startTls),
    tlsVerify: Boolean(v.tlsVerify),
    bindDn: (v.bindDn ?? '').trim(),
    baseDn: (v.baseDn ?? '').trim(),
    userFilter: (v.userFilter ?? '').trim(),
    attributes: {
      userName: v.attributes.userName.trim(),
      displayName: v.attributes.displayName.trim(),
      mail: v.attributes.mail.trim(),
      mobile: v.attributes.mobile.trim(),
      employeeNo: v.attributes.employeeNo.trim(),
    },
    departmentsFrom: v.departmentsFrom,
    departmentAttribute: (v.departmentAttribute ?? '').trim(),
    intervalMinutes: v.intervalMinutes,
    maxDisablePercent: v.maxDisablePercent,
  };
  if (v.bindPassword) body.bindPassword = v.bindPassword;
  return body;
}

/** The form's values for saved settings: the password box is left empty. */
function toValues(s: LdapSettings): FormValues {
  const { hasBindPassword: _saved, ...rest } = s;
  return { ...rest, attributes: { ...s.attributes }, bindPassword: '' };
}

/** Names joined with “、”, and how many there are when the list is cut short. */
function names(list: string[], count: number): string {
  if (!list.length) return `${count} 人`;
  return list.join('、') + (count > list.length ? ` 等 ${count} 人` : '');
}

/** “新增 a，更新 u，调动 m，停用 d” of a run, or its reason when refused or failed. */
function runResult(r: DirectoryRun): string {
  if (r.status === 'refused' || r.status === 'failed' || !r.summary) return r.error || '—';
  const s = r.summary;
  return `新增 ${s.adds}，更新 ${s.updates}，调动 ${s.moves}，停用 ${s.disables}`;
}

const runColumns: TableColumnsType<DirectoryRun> = [
  { title: '时间', dataIndex: 'startedAt', width: 160, render: (at: number) => dayjs(at).format('YYYY-MM-DD HH:mm') },
  { title: '方式', dataIndex: 'trigger', width: 80, render: (t: DirectoryRun['trigger']) => TRIGGER[t] ?? t },
  {
    title: '状态',
    dataIndex: 'status',
    width: 100,
    render: (s: DirectoryRunStatus) => <Tag color={STATUS[s]?.color}>{STATUS[s]?.text ?? s}</Tag>,
  },
  {
    title: '结果',
    key: 'result',
    ellipsis: { showTitle: false },
    render: (_, r) => {
      const text = runResult(r);
      return r.status === 'refused' || r.status === 'failed' ? (
        <Tooltip title={text} placement="topLeft">
          <span>{text}</span>
        </Tooltip>
      ) : (
        text
      );
    },
  },
];

export function DirectoryTab() {
  const { modal } = AntApp.useApp();
  const [form] = Form.useForm<FormValues>();
  const [loaded, setLoaded] = useState(false);
  const [hasBindPassword, setHasBindPassword] = useState(false);
  const [enabledSaved, setEnabledSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<LdapTestResult | null>(null);
  const [syncing, setSyncing] = useState(false);
  const [run, setRun] = useState<DirectoryRun | null>(null);
  const [applying, setApplying] = useState(false);
  const [runs, setRuns] = useState<DirectoryRun[]>([]);
  const [runsLoading, setRunsLoading] = useState(true);
  const [runsAttempt, setRunsAttempt] = useState(0);

  const url = Form.useWatch('url', form);
  const startTls = Form.useWatch('startTls', form);
  const departmentsFrom = Form.useWatch('departmentsFrom', form);
  const ldaps = isLdaps(url);

  const show = useCallback(
    (s: LdapSettings) => {
      form.setFieldsValue(toValues(s));
      setHasBindPassword(s.hasBindPassword);
      setEnabledSaved(s.enabled);
    },
    [form],
  );

  useEffect(() => {
    let live = true;
    directoryApi
      .getLdap()
      .then((s) => {
        if (!live) return;
        show(s);
        setLoaded(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [show]);

  useEffect(() => {
    let live = true;
    setRunsLoading(true);
    directoryApi
      .getRuns('ldap')
      .then((list) => live && setRuns(list))
      .catch(() => undefined)
      .finally(() => live && setRunsLoading(false));
    return () => {
      live = false;
    };
  }, [runsAttempt]);

  const reloadRuns = () => setRunsAttempt((a) => a + 1);

  /** Saves the form; false when it is not valid or the server refused it. */
  const save = async (quiet = false): Promise<boolean> => {
    try {
      await form.validateFields();
    } catch {
      return false;
    }
    setSaving(true);
    try {
      show(await directoryApi.setLdap(toBody(form.getFieldsValue(true) as FormValues)));
      if (!quiet) notify.success('LDAP 设置已保存');
      return true;
    } catch {
      /* shown by the http client */
      return false;
    } finally {
      setSaving(false);
    }
  };

  const test = async () => {
    setTested(null);
    if (!(await save(true))) return;
    setTesting(true);
    try {
      setTested(await directoryApi.testLdap());
    } catch {
      /* shown by the http client */
    } finally {
      setTesting(false);
    }
  };

  const sync = async () => {
    setSyncing(true);
    setRun(null);
    try {
      setRun(await directoryApi.syncLdap());
    } catch {
      /* shown by the http client */
    } finally {
      setSyncing(false);
      reloadRuns();
    }
  };

  const apply = async (planned: DirectoryRun) => {
    setApplying(true);
    try {
      const done = await directoryApi.applyRun(planned.id);
      setRun(done);
      if (done.status === 'applied') notify.success('同步已应用');
      else if (done.error) notify.warning(done.error);
    } catch {
      /* shown by the http client */
    } finally {
      setApplying(false);
      reloadRuns();
    }
  };

  const confirmApply = (planned: DirectoryRun) => {
    const disables = planned.summary?.disables ?? 0;
    if (disables > 0) {
      modal.confirm({
        title: `确认停用 ${disables} 个用户？`,
        content: '离开目录的用户将被停用（账号保留，会话立即结束）。',
        okText: '停用并应用',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: () => apply(planned),
      });
      return;
    }
    void apply(planned);
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title="LDAP / AD 设置">
        {loaded ? (
          <Form<FormValues> form={form} layout="horizontal" labelCol={{ flex: '160px' }} labelWrap style={{ maxWidth: 820 }} onFinish={() => void save()}>
            <Form.Item label="启用 LDAP 同步与目录登录" name="enabled" valuePropName="checked" extra="启用后按下方间隔自动同步，目录用户用目录中的密码登录">
              <Switch />
            </Form.Item>
            <Form.Item
              label="服务器地址"
              name="url"
              dependencies={['enabled']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, value: string | undefined) => {
                    const v = (value ?? '').trim();
                    if (!v) return getFieldValue('enabled') ? Promise.reject(new Error('请填写服务器地址')) : Promise.resolve();
                    return URL_PATTERN.test(v) ? Promise.resolve() : Promise.reject(new Error('地址应以 ldap:// 或 ldaps:// 开头，如 ldap://ldap.example.com:389'));
                  },
                }),
              ]}
            >
              <Input placeholder="ldap://ldap.example.com:389 或 ldaps://ldap.example.com:636" autoComplete="off" />
            </Form.Item>
            <Form.Item
              label="连接加密"
              extra={ldaps ? '地址为 ldaps://，连接全程使用 LDAPS 加密' : 'LDAPS 由地址决定（ldaps://）；StartTLS 仅用于 ldap:// 地址'}
            >
              <Space wrap size={16}>
                <Form.Item name="startTls" noStyle>
                  <Radio.Group
                    aria-label="连接加密"
                    disabled={ldaps}
                    options={[
                      { value: false, label: '无' },
                      { value: true, label: 'StartTLS' },
                    ]}
                  />
                </Form.Item>
                <Form.Item name="tlsVerify" valuePropName="checked" noStyle>
                  <Checkbox disabled={!ldaps && !startTls}>校验服务器证书</Checkbox>
                </Form.Item>
              </Space>
            </Form.Item>
            <Form.Item label="绑定 DN" name="bindDn" extra="用于查询目录的服务账号">
              <Input placeholder="cn=admin,dc=example,dc=com" autoComplete="off" />
            </Form.Item>
            <Form.Item label="绑定密码" name="bindPassword">
              <Input.Password placeholder={hasBindPassword ? '已保存，留空则不修改' : '服务账号的密码'} autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              label="基准 DN"
              name="baseDn"
              dependencies={['enabled']}
              extra="在其下查找用户"
              rules={[({ getFieldValue }) => ({ required: Boolean(getFieldValue('enabled')), whitespace: true, message: '请填写基准 DN' })]}
            >
              <Input placeholder="dc=example,dc=com" autoComplete="off" />
            </Form.Item>
            <Form.Item
              label="用户筛选条件"
              name="userFilter"
              rules={[{ pattern: /^\s*(\(.*\))?\s*$/, message: '应为一个用括号括起来的 LDAP 过滤器，如 (objectClass=inetOrgPerson)' }]}
            >
              <Input placeholder="(objectClass=inetOrgPerson)" autoComplete="off" />
            </Form.Item>
            <Form.Item label="属性映射" extra="目录中对应各项的属性名" style={{ marginBottom: 0 }}>
              <Row gutter={12}>
                {ATTRIBUTE_FIELDS.map((f) => (
                  <Col key={f.key} xs={24} md={12}>
                    <Form.Item label={f.label} name={['attributes', f.key]} labelCol={{ flex: '64px' }} rules={attributeRules}>
                      <Input placeholder={f.placeholder} autoComplete="off" />
                    </Form.Item>
                  </Col>
                ))}
              </Row>
            </Form.Item>
            <Form.Item label="部门来源" name="departmentsFrom">
              <Radio.Group
                aria-label="部门来源"
                options={[
                  { value: 'ou', label: '按 OU 层级' },
                  { value: 'attribute', label: '按属性' },
                ]}
              />
            </Form.Item>
            {departmentsFrom === 'attribute' ? (
              <Form.Item label="部门属性" name="departmentAttribute" extra="属性值为部门路径，如 研发中心/前端组" rules={attributeRules}>
                <Input placeholder="departmentNumber" autoComplete="off" style={{ maxWidth: 320 }} />
              </Form.Item>
            ) : null}
            <Form.Item label="自动同步间隔" name="intervalMinutes" extra="0 为不自动同步" rules={[{ required: true, message: '请填写同步间隔' }]}>
              <InputNumber min={0} max={10080} precision={0} suffix="分钟" style={{ width: 180 }} />
            </Form.Item>
            <Form.Item
              label="停用比例上限"
              name="maxDisablePercent"
              extra="一次同步将停用的人数超过已同步用户的这个比例时，不应用并提示，防止目录配置错误时误停用所有人"
              rules={[{ required: true, message: '请填写停用比例上限' }]}
            >
              <InputNumber min={0} max={100} suffix="%" style={{ width: 180 }} />
            </Form.Item>
            <Form.Item label=" " colon={false} style={{ marginBottom: tested ? 16 : 0 }}>
              <Space>
                <Button type="primary" htmlType="submit" loading={saving && !testing}>
                  保存
                </Button>
                <Button loading={testing} disabled={saving} onClick={() => void test()}>
                  测试连接
                </Button>
              </Space>
            </Form.Item>
            {tested ? (
              <Alert
                type={tested.ok ? 'success' : 'error'}
                showIcon
                closable={{ onClose: () => setTested(null) }}
                title={tested.message}
                description={tested.ok && tested.sample.length ? `示例用户：${tested.sample.join('、')}` : undefined}
              />
            ) : null}
          </Form>
        ) : (
          <Skeleton active />
        )}
      </Card>

      <Card size="small" title="同步计划">
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Space wrap>
            <Button type="primary" loading={syncing} disabled={applying} onClick={() => void sync()}>
              立即同步
            </Button>
            <Typography.Text type="secondary">
              {loaded && !enabledSaved ? 'LDAP 同步尚未启用：可以先预览同步计划，目录用户在启用后才能登录。' : '先读取目录并列出将做的修改，确认后再应用。'}
            </Typography.Text>
          </Space>
          {run ? <RunPlan run={run} applying={applying} onApply={() => confirmApply(run)} /> : null}
        </Space>
      </Card>

      <Card
        size="small"
        title="同步记录"
        extra={
          <Button type="link" size="small" onClick={reloadRuns}>
            刷新
          </Button>
        }
      >
        <Table<DirectoryRun>
          size="small"
          rowKey="id"
          loading={runsLoading}
          dataSource={runs}
          columns={runColumns}
          pagination={false}
          tableLayout="fixed"
          locale={{ emptyText: '还没有同步记录' }}
        />
      </Card>
    </Space>
  );
}

/** The plan of a run: why it was refused or failed, the counts, the samples and 应用. */
function RunPlan({ run, applying, onApply }: { run: DirectoryRun; applying: boolean; onApply: () => void }) {
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
    s.adds > 0 && { key: 'adds', label: `新增（${s.adds}）`, children: names(samples.adds, s.adds) },
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
    s.disables > 0 && { key: 'disables', label: `停用（${s.disables}）`, children: names(samples.disables, s.disables) },
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
