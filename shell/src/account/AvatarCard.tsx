// 头像: pick a picture; the server re-encodes it, and the new one shows in the user menu at once.
import { useRef, useState } from 'react';
import { Avatar, Button, Card, Space, Typography } from 'antd';
import UserOutlined from '@ant-design/icons/UserOutlined';
import { api, appStore, notify, userInfoAtom, useUserInfo } from '@app/shared';

const TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
const MAX_BYTES = 5 * 1024 * 1024;

export function AvatarCard() {
  const user = useUserInfo();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (!TYPES.includes(file.type)) return notify.warning('头像只能是 JPG、PNG、WebP 或 GIF 图片');
    if (file.size > MAX_BYTES) return notify.warning('头像图片不能超过 5 MB');
    setBusy(true);
    try {
      const { avatar } = await api.setAvatar(file);
      const current = appStore.get(userInfoAtom);
      if (current) appStore.set(userInfoAtom, { ...current, avatar });
      notify.success('头像已更新');
    } catch {
      /* the http client has shown the server's message */
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Card title="头像" size="small">
      <Space size={24} align="center">
        <Avatar size={72} src={user?.avatar || undefined} icon={<UserOutlined />} alt="当前头像" />
        <Space orientation="vertical" size={4}>
          <Typography.Text strong>{user?.nickName || user?.userName}</Typography.Text>
          <Typography.Text type="secondary">
            {user?.userName}
            {user?.deptName ? ` · ${user.deptName}` : ''}
          </Typography.Text>
          <Button loading={busy} onClick={() => input.current?.click()}>
            更换头像
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            JPG、PNG、WebP 或 GIF，不超过 5 MB，将裁成正方形
          </Typography.Text>
        </Space>
      </Space>
      <input ref={input} type="file" accept={TYPES.join(',')} hidden aria-label="选择头像图片" onChange={(e) => void upload(e.target.files?.[0])} />
    </Card>
  );
}
