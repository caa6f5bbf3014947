// 邮件服务器 of 系统管理 › 通知: whether notices are mailed, the SMTP server (address, port, 加密方式
// none / STARTTLS / TLS, certificate check), the account and its password (never shown: its box
// says one is saved), the sender's address and name, and the product's external address that
// links in mails start with; 保存, and 发送测试邮件, which saves first and shows the server's
// answer (or why the mail server refused) under the button.
import { useCallback, useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, Input, InputNumber, Radio, Skeleton, Space, Switch } from 'antd';
import { isApiError, notify, type MailSecurity, type MailSettings, type MailSettingsBody } from '@app/shared';
import { noticeSettingsApi } from '@app/shared/admin';
import { useSettingsForm } from '../useSettingsForm';

type MailFormValues = Omit<MailSettings, 'hasPassword'> & { password?: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The usual port of each kind of encryption. */
const USUAL_PORT: Record<MailSecurity, number> = { none: 25, starttls: 587, tls: 465 };

const toValues = (s: MailSettings): MailFormValues => ({
  enabled: s.enabled,
  host: s.host,
  port: s.port,
  security: s.security,
  tlsVerify: s.tlsVerify,
  user: s.user,
  from: s.from,
  fromName: s.fromName,
  externalUrl: s.externalUrl,
  password: '',
});

function toBody(v: MailFormValues): MailSettingsBody {
  const { password, ...rest } = v;
  return { ...rest, enabled: Boolean(rest.enabled), tlsVerify: Boolean(rest.tlsVerify), ...(password ? { password } : {}) };
}

export function MailSettingsCard() {
  const [form] = Form.useForm<MailFormValues>();
  const [hasPassword, setHasPassword] = useState(false);
  const [testing, setTesting] = useState(false);
  const [to, setTo] = useState('');
  const [tested, setTested] = useState<{ ok: boolean; message: string } | null>(null);
  const security = Form.useWatch('security', form) as MailSecurity | undefined;

  const show = useCallback(
    (s: MailSettings) => {
      form.setFieldsValue(toValues(s));
      setHasPassword(s.hasPassword);
    },
    [form],
  );


  const { loaded, saving, save } = useSettingsForm(form, { load: noticeSettingsApi.getMail, store: noticeSettingsApi.saveMail, toBody, show, saved: '邮件服务器设置已保存' });

  const test = async () => {
    setTested(null);
    if (!EMAIL.test(to.trim())) {
      setTested({ ok: false, message: '请填写有效的收件邮箱地址' });
      return;
    }
    if (!(await save(true))) return;
    setTesting(true);
    try {
      const r = await noticeSettingsApi.testMail(to.trim(), { errorMode: 'none' });
      setTested({ ok: true, message: r.message });
    } catch (err) {
      setTested({ ok: false, message: isApiError(err) ? (err.serverMessage ?? err.message) : '测试邮件发送失败' });
    } finally {
      setTesting(false);
    }
  };

  const onSecurity = (next: MailSecurity) => {
    // the port follows when it was the usual one of the previous choice
    const port = form.getFieldValue('port') as number | undefined;
    if (port === undefined || Object.values(USUAL_PORT).includes(port)) form.setFieldValue('port', USUAL_PORT[next]);
  };

  const requiredWhenEnabled = (message: string) => ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: (_: unknown, value: string | undefined) => (getFieldValue('enabled') && !(value ?? '').trim() ? Promise.reject(new Error(message)) : Promise.resolve()),
  });

  return (
    <Card size="small" title="邮件服务器">
      {loaded ? (
        <Form<MailFormValues> form={form} layout="horizontal" labelCol={{ flex: '140px' }} labelWrap style={{ maxWidth: 820 }} onFinish={() => void save()}>
          <Form.Item label="启用邮件通知" name="enabled" valuePropName="checked" extra="启用后按各人的通知设置发送邮件：待审批等立即发送，其他按每小时或每天汇总">
            <Switch />
          </Form.Item>
          <Form.Item
            label="服务器地址"
            name="host"
            dependencies={['enabled']}
            rules={[requiredWhenEnabled('请填写邮件服务器地址'), { pattern: /^\s*[A-Za-z0-9.\-:[\]]*\s*$/, message: '应为主机名或 IP 地址，如 smtp.example.com' }]}
          >
            <Input placeholder="smtp.example.com" autoComplete="off" />
          </Form.Item>
          <Form.Item label="加密方式" name="security">
            <Radio.Group
              aria-label="加密方式"
              onChange={(e) => onSecurity(e.target.value as MailSecurity)}
              options={[
                { value: 'none', label: '无' },
                { value: 'starttls', label: 'STARTTLS' },
                { value: 'tls', label: 'TLS' },
              ]}
            />
          </Form.Item>
          <Form.Item label="端口" name="port" extra="通常：无加密 25，STARTTLS 587，TLS 465" rules={[{ required: true, message: '请填写端口' }]}>
            <InputNumber min={1} max={65535} precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item label=" " colon={false} name="tlsVerify" valuePropName="checked">
            <Checkbox disabled={security === 'none'}>校验服务器证书</Checkbox>
          </Form.Item>
          <Form.Item label="账号" name="user" extra="为空时不登录邮件服务器">
            <Input placeholder="noreply@example.com" autoComplete="off" />
          </Form.Item>
          <Form.Item label="密码" name="password">
            <Input.Password placeholder={hasPassword ? '已保存，留空则不修改' : '邮件账号的密码或授权码'} autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="发件人地址"
            name="from"
            dependencies={['enabled']}
            rules={[requiredWhenEnabled('请填写发件人地址'), { pattern: /^\s*([^\s@]+@[^\s@]+\.[^\s@]+)?\s*$/, message: '不是有效的邮箱地址' }]}
          >
            <Input placeholder="noreply@example.com" autoComplete="off" />
          </Form.Item>
          <Form.Item label="发件人名称" name="fromName" extra="为空时使用系统名称">
            <Input placeholder="云文档" autoComplete="off" maxLength={100} />
          </Form.Item>
          <Form.Item
            label="外部访问地址"
            name="externalUrl"
            dependencies={['enabled']}
            extra="用户访问本系统的地址，邮件中的链接由它组成"
            rules={[requiredWhenEnabled('请填写外部访问地址'), { pattern: /^\s*(https?:\/\/\S+)?\s*$/i, message: '应以 http:// 或 https:// 开头' }]}
          >
            <Input placeholder="https://docs.example.com" autoComplete="off" />
          </Form.Item>
          <Form.Item label=" " colon={false} style={{ marginBottom: tested ? 16 : 0 }}>
            <Space wrap>
              <Button type="primary" htmlType="submit" loading={saving && !testing}>
                保存
              </Button>
              <Space.Compact>
                <Input aria-label="测试收件地址" placeholder="收件邮箱" value={to} onChange={(e) => setTo(e.target.value)} style={{ width: 220 }} />
                <Button loading={testing} disabled={saving} onClick={() => void test()}>
                  发送测试邮件
                </Button>
              </Space.Compact>
            </Space>
          </Form.Item>
          {tested ? <Alert type={tested.ok ? 'success' : 'error'} showIcon closable={{ onClose: () => setTested(null) }} title={tested.message} /> : null}
        </Form>
      ) : (
        <Skeleton active />
      )}
    </Card>
  );
}
