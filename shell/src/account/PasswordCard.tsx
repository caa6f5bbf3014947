// 修改密码: the old password, then a new one under the policy (the checklist ticks while the
// user types). The other sessions end; this one stays. A directory account changes it in the
// directory: the card says so instead.
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { api, isApiError, notify, passwordChecks, type AccountSecurity, type PasswordPolicy } from '@app/shared';
import { PasswordChecklist } from '../pages/login/PasswordChecklist';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

export function PasswordCard({ security, onChanged }: { security: AccountSecurity | null; onChanged: () => void }) {
  const [form] = Form.useForm<Values>();
  const [policy, setPolicy] = useState<PasswordPolicy | null>(null);
  const [busy, setBusy] = useState(false);
  const typed = Form.useWatch('newPassword', form) ?? '';

  useEffect(() => {
    api.getPasswordPolicy({ errorMode: 'none' }).then(setPolicy, () => undefined);
  }, []);

  const submit = async (v: Values) => {
    setBusy(true);
    try {
      const { revoked } = await api.changePassword({ oldPassword: v.oldPassword, newPassword: v.newPassword }, { errorMode: 'none' });
      form.resetFields();
      onChanged();
      notify.success(revoked > 0 ? `密码已修改，其他 ${revoked} 处登录已退出` : '密码已修改');
    } catch (err) {
      const message = isApiError(err) ? err.serverMessage || err.message : '修改失败，请稍后重试';
      const field = /原密码/.test(message) ? 'oldPassword' : 'newPassword';
      form.setFields([{ name: field, errors: [message] }]);
    } finally {
      setBusy(false);
    }
  };

  if (security?.passwordElsewhere) {
    return (
      <Card title="修改密码" size="small">
        <Alert type="info" showIcon title={security.passwordElsewhere} />
      </Card>
    );
  }

  return (
    <Card title="修改密码" size="small">
      {security ? (
        <Typography.Paragraph type="secondary">
          上次修改：{security.passwordChangedAt}
          {security.passwordExpiresAt ? `，将于 ${security.passwordExpiresAt} 到期` : ''}
        </Typography.Paragraph>
      ) : null}
      <Form<Values> form={form} layout="vertical" style={{ maxWidth: 400 }} onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label="新密码"
          rules={[
            { required: true, message: '请输入新密码' },
            {
              validator: async (_, value: string) => {
                if (value && policy && passwordChecks(policy, value).some((c) => !c.met)) throw new Error('新密码不符合密码要求');
              },
            },
          ]}
          extra={policy ? <PasswordChecklist policy={policy} password={typed} /> : null}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label="确认新密码"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: '请再次输入新密码' },
            ({ getFieldValue }) => ({
              validator: async (_, value: string) => {
                if (value && value !== getFieldValue('newPassword')) throw new Error('两次输入的密码不一致');
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          修改密码
        </Button>
      </Form>
    </Card>
  );
}
