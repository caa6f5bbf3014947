// 动态口令 in 个人设置: bind (scan the QR code or type the key, then the first code), change the
// phone (bind again), or remove it with a current code unless an administrator requires it.
import { useState } from 'react';
import { Alert, Button, Card, Input, Modal, QRCode, Space, Tag, Typography } from 'antd';
import { api, isApiError, notify, type AccountSecurity, type TotpSetup } from '@app/shared';
import { groupedKey } from '../pages/login/TotpBindStep';

const codeOk = (code: string) => /^\d{6}$/.test(code);
const messageOf = (err: unknown) => (isApiError(err) ? err.serverMessage || err.message : '操作失败，请稍后重试');

export function TotpCard({ security, onChanged }: { security: AccountSecurity | null; onChanged: () => void }) {
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [removing, setRemoving] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const begin = async () => {
    setBusy(true);
    try {
      setSetup(await api.beginTotp());
      setCode('');
      setError('');
    } catch {
      /* shown by the http client */
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setSetup(null);
    setRemoving(false);
    setCode('');
    setError('');
  };
  const submit = async () => {
    if (!codeOk(code)) return setError('请输入 6 位动态口令');
    setBusy(true);
    try {
      if (setup) await api.confirmTotp({ actionToken: setup.actionToken, code }, { errorMode: 'none' });
      else await api.removeTotp(code, { errorMode: 'none' });
      notify.success(setup ? '动态口令已绑定，以后登录时须输入' : '动态口令已解除');
      close();
      onChanged();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const bound = security?.totpBound ?? false;
  return (
    <Card title="动态口令（两步验证）" size="small">
      <Space orientation="vertical" size={12}>
        <Space>
          <span>状态：</span>
          {bound ? <Tag color="green">已绑定</Tag> : <Tag>未绑定</Tag>}
          {security?.totpRequired ? <Tag color="blue">管理员要求使用</Tag> : null}
        </Space>
        <Typography.Text type="secondary">绑定后，登录时除密码外还须输入手机身份验证器上的 6 位动态口令。</Typography.Text>
        <Space>
          <Button type={bound ? 'default' : 'primary'} loading={busy && !setup && !removing} onClick={() => void begin()}>
            {bound ? '更换手机' : '绑定动态口令'}
          </Button>
          {bound && !security?.totpRequired ? (
            <Button danger onClick={() => setRemoving(true)}>
              解除绑定
            </Button>
          ) : null}
        </Space>
      </Space>
      <Modal
        open={Boolean(setup) || removing}
        title={setup ? '绑定动态口令' : '解除动态口令'}
        okText={setup ? '确认绑定' : '解除绑定'}
        okButtonProps={{ danger: !setup, loading: busy }}
        cancelText="取消"
        onOk={() => void submit()}
        onCancel={close}
        destroyOnHidden
      >
        {setup ? (
          <Space orientation="vertical" align="center" style={{ width: '100%' }}>
            <Typography.Paragraph>用身份验证器扫描二维码，或手动输入密钥，然后输入它显示的 6 位动态口令。</Typography.Paragraph>
            <QRCode value={setup.totpUri} size={176} bordered={false} aria-label="绑定动态口令的二维码" />
            <Typography.Text copyable={{ text: setup.totpSecret }} code aria-label="密钥">
              {groupedKey(setup.totpSecret)}
            </Typography.Text>
          </Space>
        ) : (
          <Typography.Paragraph>请输入身份验证器当前显示的动态口令，以确认解除。</Typography.Paragraph>
        )}
        <Input
          aria-label="动态口令"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder="6 位数字"
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          onPressEnter={() => void submit()}
          style={{ marginTop: 12 }}
        />
        {error ? <Alert type="error" showIcon title={error} style={{ marginTop: 12 }} /> : null}
      </Modal>
    </Card>
  );
}
