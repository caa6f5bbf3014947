// WebDAV 与应用密码 in 个人设置 (issue 29): the WebDAV address with short instructions per system,
// the person's application passwords (name, 只读/读写, created, last used), 新建 (the password
// shown once, with a copy button) and 撤销 (after a confirmation). The account password works
// over WebDAV only where the administrator allows it (密码策略) and the person has no TOTP;
// changing it, or the account being disabled, ends every application password.
import { useEffect, useState } from 'react';
import { Alert, App as AntApp, Button, Card, Collapse, Form, Input, Modal, Radio, Space, Table, Tag, Typography } from 'antd';
import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import { api, copyText, isApiError, notify, useUserInfo, type AccountSecurity, type AppPassword, type AppPasswordScope, type NewAppPassword } from '@app/shared';
import { APP_PASSWORD_NAME_MAX, APP_PASSWORD_SCOPE_LABELS, appPasswordsApi, webdavAddress } from '@app/shared/admin';

const messageOf = (err: unknown) => (isApiError(err) ? err.serverMessage || err.message : '操作失败，请稍后重试');

/** davs://host/dav/ (dav:// for an http address): what Linux file managers take. */
export function davsAddress(address: string): string {
  return address.replace(/^https:\/\//, 'davs://').replace(/^http:\/\//, 'dav://');
}

async function copy(text: string, what: string) {
  if (await copyText(text)) notify.success(`${what}已复制`);
  else notify.warning(`无法访问剪贴板，请选中${what}后手动复制`);
}

function Instructions({ address, userName }: { address: string; userName: string }) {
  const code = (text: string) => (
    <Typography.Text code copyable={{ text }}>
      {text}
    </Typography.Text>
  );
  const plainHttp = address.startsWith('http://');
  return (
    <Collapse
      size="small"
      items={[
        {
          key: 'windows',
          label: 'Windows：映射网络驱动器',
          children: (
            <Typography.Paragraph style={{ marginBottom: 0 }}>
              打开“此电脑”，点击“映射网络驱动器”，文件夹填写 {code(address)}，勾选“使用其他凭据连接”，用户名填写 {code(userName)}，密码填写应用密码。
              {plainHttp ? 'Windows 默认只在 https 地址上发送密码，请通过 https 访问云文档后再连接。' : ''}
            </Typography.Paragraph>
          ),
        },
        {
          key: 'macos',
          label: 'macOS：连接服务器',
          children: (
            <Typography.Paragraph style={{ marginBottom: 0 }}>
              在访达中选择“前往 → 连接服务器”（⌘K），输入 {code(address)}，点击“连接”，再输入用户名和应用密码。目前以只读方式挂载。
            </Typography.Paragraph>
          ),
        },
        {
          key: 'linux',
          label: 'Linux：文件管理器',
          children: (
            <Typography.Paragraph style={{ marginBottom: 0 }}>
              在“文件”（Nautilus）、Dolphin 等文件管理器的地址栏输入 {code(davsAddress(address))}，按提示输入用户名和应用密码。
            </Typography.Paragraph>
          ),
        },
        {
          key: 'rclone',
          label: 'rclone',
          children: (
            <Typography.Paragraph style={{ marginBottom: 0 }}>
              {code(`rclone config create yunwendang webdav url=${address} vendor=other user=${userName} pass=应用密码 --obscure`)}
              ，之后即可使用 {code('rclone ls yunwendang:')}、{code('rclone copy yunwendang:个人文件 ./备份')} 等命令。
            </Typography.Paragraph>
          ),
        },
      ]}
    />
  );
}

export function AppPasswordsCard({ security }: { security: AccountSecurity | null }) {
  const { modal } = AntApp.useApp();
  const userName = useUserInfo()?.userName ?? '';
  const address = webdavAddress();
  const [list, setList] = useState<AppPassword[]>([]);
  const [loading, setLoading] = useState(true);
  const [again, setAgain] = useState(0);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<AppPasswordScope>('readOnly');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<NewAppPassword | null>(null);
  const [accountPasswordAllowed, setAccountPasswordAllowed] = useState(false);

  useEffect(() => {
    let live = true;
    api.getPasswordPolicy({ errorMode: 'none' }).then((p) => live && setAccountPasswordAllowed(p.webdavAccountPassword === true), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  const hasTotp = security !== null && (security.totpBound || security.totpRequired);
  const accountPasswordNote =
    accountPasswordAllowed && !hasTotp
      ? '（管理员也允许使用登录密码，但应用密码更安全：可设为只读，也可单独撤销）'
      : accountPasswordAllowed
        ? '（你已启用动态口令，登录密码不能用于 WebDAV）'
        : '（登录密码不能用于 WebDAV）';

  useEffect(() => {
    let live = true;
    setLoading(true);
    appPasswordsApi
      .list()
      .then((l) => live && setList(l))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [again]);

  const open = () => {
    setName('');
    setScope('readOnly');
    setError('');
    setShown(null);
    setCreating(true);
  };
  const close = () => {
    setCreating(false);
    setShown(null);
  };
  const submit = async () => {
    const trimmed = name.trim();
    if (!trimmed) return setError('请填写名称，例如“家里的电脑”');
    if ([...trimmed].length > APP_PASSWORD_NAME_MAX) return setError(`名称不能超过 ${APP_PASSWORD_NAME_MAX} 个字符`);
    setBusy(true);
    try {
      setShown(await appPasswordsApi.create({ name: trimmed, scope }, { errorMode: 'none' }));
      setAgain((a) => a + 1);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const revoke = (p: AppPassword) =>
    modal.confirm({
      title: '撤销应用密码',
      content: `撤销后，使用“${p.name}”的设备和程序将无法再连接 WebDAV。确定撤销吗？`,
      okText: '撤销',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await appPasswordsApi.revoke(p.id);
          notify.success(`已撤销“${p.name}”`);
        } catch {
          /* shown by the http client */
        }
        setAgain((a) => a + 1);
      },
    });

  return (
    <Card
      title="WebDAV 与应用密码"
      size="small"
      extra={
        <Button size="small" icon={<PlusOutlined />} onClick={open}>
          新建应用密码
        </Button>
      }
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          用文件管理器或同步工具连接云文档：地址{' '}
          <Typography.Text code copyable={{ text: address }} aria-label="WebDAV 地址">
            {address}
          </Typography.Text>
          ，用户名为 <Typography.Text code>{userName}</Typography.Text>，密码使用下面新建的应用密码{accountPasswordNote}。
          可以浏览、下载、上传（覆盖已有文件时保留历史版本）、新建文件夹、复制、移动和删除（删除的进入回收站），Office 等程序可以直接打开和保存。修改密码或账号被停用后，全部应用密码随即失效。
        </Typography.Paragraph>
        <Instructions address={address} userName={userName} />
        <Table<AppPassword>
          size="small"
          rowKey="id"
          loading={loading}
          dataSource={list}
          pagination={false}
          aria-label="应用密码"
          locale={{ emptyText: '还没有应用密码' }}
          columns={[
            { title: '名称', dataIndex: 'name' },
            {
              title: '权限',
              dataIndex: 'scope',
              width: 80,
              render: (s: AppPasswordScope) => <Tag color={s === 'readWrite' ? 'orange' : 'blue'}>{APP_PASSWORD_SCOPE_LABELS[s] ?? s}</Tag>,
            },
            { title: '创建时间', dataIndex: 'createdAt', width: 150 },
            {
              title: '最近使用',
              key: 'lastUsed',
              width: 220,
              render: (_: unknown, p) => (p.lastUsedAt ? `${p.lastUsedAt}${p.lastUsedIp ? ` · ${p.lastUsedIp}` : ''}` : '从未使用'),
            },
            {
              title: '操作',
              key: 'action',
              width: 80,
              render: (_: unknown, p) => (
                <Button type="link" size="small" danger aria-label={`撤销 ${p.name}`} onClick={() => revoke(p)}>
                  撤销
                </Button>
              ),
            },
          ]}
        />
      </Space>
      <Modal
        open={creating}
        title={shown ? '应用密码已创建' : '新建应用密码'}
        onCancel={close}
        mask={{ closable: !shown }}
        destroyOnHidden
        footer={
          shown ? (
            <Button type="primary" onClick={close}>
              我已记下
            </Button>
          ) : (
            <Space>
              <Button onClick={close}>取消</Button>
              <Button type="primary" loading={busy} onClick={() => void submit()}>
                创建
              </Button>
            </Space>
          )
        }
      >
        {shown ? (
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <Alert type="warning" showIcon title="应用密码只显示这一次，关闭后无法再查看；请立即填入 WebDAV 客户端。" />
            <div>
              用户名：<Typography.Text code>{shown.userName}</Typography.Text>
            </div>
            <Space>
              <Typography.Text code style={{ fontSize: 18, userSelect: 'all' }} aria-label="新的应用密码">
                {shown.password}
              </Typography.Text>
              <Button icon={<CopyOutlined />} onClick={() => void copy(shown.password, '应用密码')}>
                复制
              </Button>
            </Space>
            <Typography.Text type="secondary">
              “{shown.name}”，{APP_PASSWORD_SCOPE_LABELS[shown.scope]}。WebDAV 地址：{address}
            </Typography.Text>
          </Space>
        ) : (
          <Form layout="vertical" onFinish={() => void submit()}>
            <Form.Item label="名称" validateStatus={error ? 'error' : undefined} help={error || '用来认出使用它的设备或程序，例如“家里的电脑”“rclone 备份”'}>
              <Input
                aria-label="名称"
                value={name}
                maxLength={APP_PASSWORD_NAME_MAX}
                onChange={(e) => {
                  setName(e.target.value);
                  setError('');
                }}
                onPressEnter={() => void submit()}
              />
            </Form.Item>
            <Form.Item label="权限">
              <Radio.Group aria-label="权限" value={scope} onChange={(e) => setScope(e.target.value as AppPasswordScope)}>
                <Radio value="readOnly">只读</Radio>
                <Radio value="readWrite">读写</Radio>
              </Radio.Group>
            </Form.Item>
            <Typography.Text type="secondary">读写的应用密码也只能做你在网页上有权限做的事。</Typography.Text>
          </Form>
        )}
      </Modal>
    </Card>
  );
}
