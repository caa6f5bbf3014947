// 密码与动态口令: the password policy (length, character classes, history, expiry, lockout),
// whether everyone must use TOTP, and whether WebDAV takes the account password of people
// without TOTP.
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Form, InputNumber, Skeleton, Switch } from 'antd';
import { api, notify, type PasswordPolicy } from '@app/shared';

export function PasswordPolicyTab() {
  const [form] = Form.useForm<PasswordPolicy>();
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    api
      .getPasswordPolicy()
      .then((p) => {
        if (!live) return;
        form.setFieldsValue(p);
        setLoaded(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [form]);

  const save = async (values: PasswordPolicy) => {
    setSaving(true);
    try {
      form.setFieldsValue(await api.setPasswordPolicy(values));
      notify.success('密码策略已保存');
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  if (!loaded) return <Skeleton active />;
  return (
    <Form form={form} layout="horizontal" labelCol={{ flex: '200px' }} onFinish={(v) => void save(v)} style={{ maxWidth: 640 }}>
      <Card size="small" title="密码要求" style={{ marginBottom: 16 }}>
        <Form.Item label="最短长度" name="minLength" rules={[{ required: true, message: '请输入最短长度' }]}>
          <InputNumber min={6} max={64} precision={0} suffix="位" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="必须包含" style={{ marginBottom: 0 }}>
          <Form.Item name="requireLetter" valuePropName="checked" noStyle>
            <Checkbox>字母</Checkbox>
          </Form.Item>
          <Form.Item name="requireDigit" valuePropName="checked" noStyle>
            <Checkbox>数字</Checkbox>
          </Form.Item>
          <Form.Item name="requireSymbol" valuePropName="checked" noStyle>
            <Checkbox>符号</Checkbox>
          </Form.Item>
          <Form.Item name="requireMixedCase" valuePropName="checked" noStyle>
            <Checkbox>大小写字母</Checkbox>
          </Form.Item>
        </Form.Item>
        <Form.Item label="不能重复最近用过的密码" name="historyCount" extra="0 为不限制" style={{ marginTop: 24 }}>
          <InputNumber min={0} max={24} precision={0} suffix="个" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="密码有效期" name="expiryDays" extra="过期后登录须先设置新密码；0 为永不过期">
          <InputNumber min={0} max={3650} precision={0} suffix="天" style={{ width: 160 }} />
        </Form.Item>
      </Card>
      <Card size="small" title="登录保护" style={{ marginBottom: 16 }}>
        <Form.Item label="连续输错锁定" name="lockoutThreshold" extra="连续输错这么多次后暂时锁定账号；0 为不锁定">
          <InputNumber min={0} max={100} precision={0} suffix="次" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="锁定时长" name="lockoutMinutes">
          <InputNumber min={1} max={1440} precision={0} suffix="分钟" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="所有人都须使用动态口令" name="totpRequired" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Switch />
        </Form.Item>
        <Alert type="info" showIcon title="开启后，尚未绑定动态口令的用户在下次登录时须先用身份验证器扫码绑定。也可以在“用户动态口令”中只要求部分用户。" />
      </Card>
      <Card size="small" title="WebDAV" style={{ marginBottom: 16 }}>
        <Form.Item
          label="允许以登录密码连接"
          name="webdavAccountPassword"
          valuePropName="checked"
          extra="只对未使用动态口令的用户有效。关闭时（默认）WebDAV 只接受用户在个人设置中创建的应用密码：它们可以设为只读、可以单独撤销，也不会暴露登录密码。"
          style={{ marginBottom: 0 }}
        >
          <Switch />
        </Form.Item>
      </Card>
      <Button type="primary" htmlType="submit" loading={saving}>
        保存
      </Button>
    </Form>
  );
}
