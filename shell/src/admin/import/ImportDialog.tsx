// 批量导入 of 系统管理 › 用户, in three steps: 选择文件 (templates, the columns, the mode and the
// file), 检查结果 (the server checks the whole file and writes nothing: the refused rows, or what
// the import would add, update, disable and create) and 完成 (what was written, and the
// generated initial passwords, shown this once and exportable as CSV). 全量同步 disables the
// people the file leaves out, after a confirmation naming how many.
import { useState, type ReactNode } from 'react';
import {
  Alert,
  App as AntApp,
  Button,
  Col,
  Descriptions,
  Modal,
  Radio,
  Result,
  Row,
  Space,
  Statistic,
  Steps,
  Table,
  Typography,
  Upload,
  type TableColumnsType,
  type UploadFile,
} from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import {
  IMPORT_COLUMNS,
  adminApi,
  apiUrl,
  downloadByFrame,
  notify,
  type ImportMode,
  type ImportPlan,
  type ImportResult,
  type ImportRowError,
} from '@app/shared';
import { PASSWORDS_CSV_NAME, passwordsCsv, type PasswordRow } from './passwordsCsv';

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** after an import was written: the list of people should be loaded again */
  onApplied: () => void;
}

type Step = 0 | 1 | 2;

const ACCEPTED = ['.xlsx', '.csv'];

const MODES: { value: ImportMode; label: string; note: string }[] = [
  { value: 'upsert', label: '追加和更新', note: '按用户名或工号匹配已有用户，同一文件导入两次不会产生变化' },
  { value: 'sync', label: '全量同步', note: '文件中没有的用户将被停用（不会删除）' },
];

const errorColumns: TableColumnsType<ImportRowError & { key: number }> = [
  { title: '行号', dataIndex: 'line', width: 80 },
  { title: '用户名', dataIndex: 'userName', width: 160, render: (v: string) => v || '—' },
  { title: '列', dataIndex: 'column', width: 160, render: (v: string) => v || '—' },
  { title: '原因', dataIndex: 'reason' },
];

const passwordColumns: TableColumnsType<PasswordRow> = [
  { title: '用户名', dataIndex: 'userName' },
  { title: '昵称', dataIndex: 'nickName' },
  {
    title: '初始密码',
    dataIndex: 'initialPassword',
    render: (v: string) => (
      <Typography.Text style={{ fontFamily: 'SFMono-Regular, Consolas, "Liberation Mono", Menlo, monospace', userSelect: 'all' }}>{v}</Typography.Text>
    ),
  },
];

/** Saves text as a file through a temporary link; false where the browser cannot. */
function saveText(text: string, fileName: string, type: string): boolean {
  if (typeof URL === 'undefined' || typeof URL.createObjectURL !== 'function') return false;
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL?.(url), 60_000);
  return true;
}

/** Names joined with “、”, and how many more there are when the list is cut short. */
function names(list: string[], count: number): string {
  if (!list.length) return '无';
  const more = count > list.length ? ` 等 ${count} 人` : '';
  return list.join('、') + more;
}

export function ImportDialog({ open, onClose, onApplied }: ImportDialogProps) {
  const { modal } = AntApp.useApp();
  const [step, setStep] = useState<Step>(0);
  const [mode, setMode] = useState<ImportMode>('upsert');
  const [fileList, setFileList] = useState<UploadFile[]>([]);
  const [checking, setChecking] = useState(false);
  const [plan, setPlan] = useState<ImportPlan | null>(null);
  const [applying, setApplying] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [exported, setExported] = useState(false);

  // every opening starts from the first step; the content stays while the dialog closes
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setStep(0);
      setMode('upsert');
      setFileList([]);
      setChecking(false);
      setPlan(null);
      setApplying(false);
      setResult(null);
      setExported(false);
    }
  }

  const file = fileList[0]?.originFileObj;

  const check = async () => {
    if (!file) return;
    setChecking(true);
    try {
      const p = await adminApi.checkImport(file, file.name, mode);
      setPlan(p);
      setStep(1);
    } catch {
      /* shown by the http client */
    } finally {
      setChecking(false);
    }
  };

  const chooseAgain = () => {
    setFileList([]);
    setPlan(null);
    setStep(0);
  };

  const apply = async () => {
    if (!plan) return;
    setApplying(true);
    try {
      const r = await adminApi.applyImport(plan.importId, plan.disables);
      setResult(r);
      setStep(2);
      onApplied();
    } catch {
      /* shown by the http client */
    } finally {
      setApplying(false);
    }
  };

  const confirmApply = () => {
    if (!plan) return;
    if (plan.mode === 'sync' && plan.disables > 0) {
      modal.confirm({
        title: `确认停用 ${plan.disables} 个用户？`,
        content: '这些用户不在导入文件中，将被停用（账号保留，可随时启用）。',
        okText: '停用并导入',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: () => apply(),
      });
      return;
    }
    void apply();
  };

  const exportPasswords = () => {
    if (!result) return;
    if (saveText(passwordsCsv(result.passwords), PASSWORDS_CSV_NAME, 'text/csv;charset=utf-8')) {
      setExported(true);
    } else {
      notify.warning('当前浏览器无法导出文件，请从表格中复制初始密码');
    }
  };

  const close = () => {
    if (checking || applying) return;
    if (step === 2 && result?.passwords.length && !exported) {
      modal.confirm({
        title: '初始密码尚未导出',
        content: '关闭后将无法再次查看这些初始密码。确定关闭吗？',
        okText: '仍然关闭',
        cancelText: '返回',
        onOk: onClose,
      });
      return;
    }
    onClose();
  };

  const template = (format: 'xlsx' | 'csv') => downloadByFrame(apiUrl(adminApi.importTemplatePath(format)));

  const hasErrors = Boolean(plan && plan.errors.length > 0);
  const nothingToDo = Boolean(plan && !hasErrors && plan.adds + plan.updates + plan.disables + plan.departmentsToCreate.length === 0);

  let footer: ReactNode[];
  if (step === 0) {
    footer = [
      <Button key="cancel" onClick={close} disabled={checking}>
        取消
      </Button>,
      <Button key="check" type="primary" disabled={!file} loading={checking} onClick={() => void check()}>
        检查
      </Button>,
    ];
  } else if (step === 1) {
    footer = [
      <Button key="again" onClick={chooseAgain} disabled={applying}>
        重新选择文件
      </Button>,
      ...(hasErrors
        ? []
        : [
            <Button key="apply" type="primary" disabled={nothingToDo} loading={applying} onClick={confirmApply}>
              应用导入
            </Button>,
          ]),
    ];
  } else {
    footer = [
      <Button key="done" type="primary" onClick={close}>
        完成
      </Button>,
    ];
  }

  return (
    <Modal
      open={open}
      title="批量导入用户"
      width={860}
      onCancel={close}
      closable={!checking && !applying}
      mask={{ closable: false }}
      keyboard={!checking && !applying}
      footer={footer}
    >
      <Steps
        current={step}
        status={step === 2 ? 'finish' : hasErrors ? 'error' : 'process'}
        size="small"
        style={{ marginBottom: 24 }}
        items={[{ title: '选择文件' }, { title: '检查结果' }, { title: '完成' }]}
      />

      {step === 0 ? (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Space wrap>
            <Button type="link" icon={<DownloadOutlined />} onClick={() => template('xlsx')}>
              下载 Excel 模板
            </Button>
            <Button type="link" icon={<DownloadOutlined />} onClick={() => template('csv')}>
              下载 CSV 模板
            </Button>
          </Space>
          <div>
            <Typography.Paragraph style={{ marginBottom: 4 }}>文件第一行为列名，依次为：{IMPORT_COLUMNS.join('、')}。</Typography.Paragraph>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                <li>用户名 必填；</li>
                <li>部门 写成路径，如“总部/研发中心/前端组”，不存在的部门会自动创建；</li>
                <li>角色 用“、”分隔，如“文档管理员、流程管理员”；</li>
                <li>个人空间配额 单位为 GB，留空为沿用部门或默认配额；</li>
                <li>状态 填“正常”或“停用”；</li>
                <li>新增用户的初始密码由系统生成，导入完成后只显示一次。</li>
              </ul>
            </Typography.Paragraph>
          </div>
          <div>
            <Typography.Text strong>导入方式</Typography.Text>
            <Radio.Group
              aria-label="导入方式"
              value={mode}
              disabled={checking}
              onChange={(e) => setMode(e.target.value as ImportMode)}
              style={{ display: 'flex', flexDirection: 'column', gap: 8, marginTop: 8 }}
            >
              {MODES.map((m) => (
                <Radio key={m.value} value={m.value}>
                  {m.label}
                  <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                    {m.note}
                  </Typography.Text>
                </Radio>
              ))}
            </Radio.Group>
          </div>
          <Upload.Dragger
            accept={ACCEPTED.join(',')}
            maxCount={1}
            disabled={checking}
            fileList={fileList}
            beforeUpload={(f) => {
              if (!ACCEPTED.some((ext) => f.name.toLowerCase().endsWith(ext))) {
                notify.error('只能导入 .xlsx 或 .csv 文件');
                return Upload.LIST_IGNORE;
              }
              return false;
            }}
            onChange={({ fileList: list }) => setFileList(list.slice(-1))}
            onRemove={() => {
              setFileList([]);
              return true;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">点击或将文件拖到此处</p>
            <p className="ant-upload-hint">支持 .xlsx 和 .csv 文件，一次导入一个文件</p>
          </Upload.Dragger>
        </Space>
      ) : null}

      {step === 1 && plan ? hasErrors ? <PlanErrors plan={plan} /> : <PlanSummary plan={plan} nothingToDo={nothingToDo} /> : null}

      {step === 2 && result ? (
        <>
          <Result
            status="success"
            title="导入完成"
            subTitle={`新增 ${result.added} 人，更新 ${result.updated} 人，停用 ${result.disabled} 人，新建部门 ${result.departmentsCreated} 个`}
            style={{ paddingBlock: 16 }}
          />
          {result.passwords.length > 0 ? (
            <Space orientation="vertical" size={12} style={{ width: '100%' }}>
              <Alert type="warning" showIcon title="初始密码只显示这一次，请立即导出并通过安全渠道转交本人；首次登录须修改密码。" />
              <div>
                <Button icon={<DownloadOutlined />} type={exported ? 'default' : 'primary'} onClick={exportPasswords}>
                  导出初始密码 (CSV)
                </Button>
              </div>
              <Table
                size="small"
                rowKey="userName"
                columns={passwordColumns}
                dataSource={result.passwords}
                pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
              />
            </Space>
          ) : null}
        </>
      ) : null}
    </Modal>
  );
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
      children: names(samples.adds, plan.adds),
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
            children: names(samples.disables, plan.disables),
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
