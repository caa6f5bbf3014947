// A password the server generated (new account or 重置密码) is shown once, selectable and with
// a copy button; and the 重置密码 dialog: generated or set by hand, all sessions end.
import { useEffect, useState } from 'react';
import { Button, Checkbox, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { notify, type AdminUser } from '@app/shared';
import { adminApi } from '@app/shared/admin';

export interface RevealedPassword {
  title: string;
  userName: string;
  password: string;
  note: string;
}

/** What a dialog or drawer shows: the current value, or while it closes, the last one. */
export function useLastShown<T>(current: T | null): T | null {
  const [last, setLast] = useState(current);
  if (current !== null && current !== last) setLast(current);
  return current ?? last;
}

export const INITIAL_PASSWORD_NOTE = '初始密码仅显示这一次，请妥善转交本人；首次登录须修改密码。';

async function copy(text: string) {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    notify.success('密码已复制');
  } catch {
    notify.warning('无法访问剪贴板，请选中密码后手动复制');
  }
}

export function PasswordOnceModal({ shown: current, onClose }: { shown: RevealedPassword | null; onClose: () => void }) {
  const shown = useLastShown(current);
  return (
    <Modal
      open={current !== null}
      title={shown?.title}
      mask={{ closable: false }}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          我已记下
        </Button>
      }
      destroyOnHidden
    >
      {shown ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Typography.Text type="warning">{shown.note}</Typography.Text>
          <div>账号：{shown.userName}</div>
          <Space>
            <Typography.Text code style={{ fontSize: 18, userSelect: 'all' }}>
              {shown.password}
            </Typography.Text>
            <Button icon={<CopyOutlined />} onClick={() => void copy(shown.password)}>
              复制
            </Button>
          </Space>
        </Space>
      ) : null}
    </Modal>
  );
}

type Mode = 'auto' | 'manual';

/** 重置密码: resolves through onDone with the generated password, if the server made one. */
export function ResetPasswordModal({
  target,
  onClose,
  onDone,
}: {
  target: AdminUser | null;
  onClose: () => void;
  onDone: (revealed: RevealedPassword | null) => void;
}) {
  const [mode, setMode] = useState<Mode>('auto');
  const [password, setPassword] = useState('');
  const [mustChange, setMustChange] = useState(true);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const shown = useLastShown(target);

  useEffect(() => {
    if (!target) return;
    setMode('auto');
    setPassword('');
    setMustChange(true);
    setError('');
  }, [target]);

  const submit = async () => {
    if (!target) return;
    if (mode === 'manual' && !password) {
      setError('请输入新密码');
      return;
    }
    setSaving(true);
    try {
      const r = await adminApi.resetPassword(target.userId, mode === 'manual' ? { password, mustChangePassword: mustChange } : { mustChangePassword: mustChange });
      notify.success(r.revoked > 0 ? `密码已重置，已注销 ${r.revoked} 个会话` : '密码已重置');
      onDone(
        r.initialPassword
          ? {
              title: '新密码',
              userName: target.userName,
              password: r.initialPassword,
              note: mustChange ? '新密码仅显示这一次，请妥善转交本人；下次登录须修改密码。' : '新密码仅显示这一次，请妥善转交本人。',
            }
          : null,
      );
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={`重置密码：${shown ? shown.nickName || shown.userName : ''}`}
      okText="重置"
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Typography.Paragraph type="secondary">重置后，此人的所有会话和客户端令牌立即失效，须用新密码重新登录。</Typography.Paragraph>
        <Form.Item label="新密码">
          <Radio.Group aria-label="新密码的设置方式" value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
            <Radio value="auto">自动生成</Radio>
            <Radio value="manual">手动设置</Radio>
          </Radio.Group>
        </Form.Item>
        {mode === 'manual' ? (
          <Form.Item validateStatus={error ? 'error' : undefined} help={error || undefined}>
            <Input.Password
              aria-label="新密码"
              placeholder="请输入新密码"
              autoComplete="new-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                setError('');
              }}
            />
          </Form.Item>
        ) : null}
        <Checkbox checked={mustChange} onChange={(e) => setMustChange(e.target.checked)}>
          下次登录须修改密码
        </Checkbox>
      </Form>
    </Modal>
  );
}
