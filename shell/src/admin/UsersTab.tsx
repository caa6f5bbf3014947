// 用户动态口令: which users must use TOTP, whether they have bound it, and 重置动态口令 for a
// lost phone (the user binds a new key at the next sign-in).
import { useState } from 'react';
import { App as AntApp, Button, Input, Space, Switch, Table, Tag } from 'antd';
import { api, notify, type AdminUser } from '@app/shared';
import { usePagedList } from './usePagedList';

const PAGE_SIZE = 20;

export function UsersTab() {
  const { modal } = AntApp.useApp();
  const [keyword, setKeyword] = useState('');
  const { page, setPage, rows, setRows, total, loading } = usePagedList(
    (p) => api.getAdminUsers({ keyword: keyword || undefined, page: p, pageSize: PAGE_SIZE }),
    [keyword],
  );
  const [busy, setBusy] = useState<string | null>(null);

  const replace = (u: AdminUser) => setRows((list) => list.map((r) => (r.userId === u.userId ? u : r)));

  const setRequired = async (u: AdminUser, required: boolean) => {
    setBusy(u.userId);
    try {
      replace(await api.setUserTotpRequired(u.userId, required));
      notify.success(required ? `已要求“${u.nickName || u.userName}”使用动态口令` : `已不再要求“${u.nickName || u.userName}”使用动态口令`);
    } catch {
      /* shown by the http client */
    } finally {
      setBusy(null);
    }
  };

  const reset = (u: AdminUser) =>
    modal.confirm({
      title: '重置动态口令',
      content: `“${u.nickName || u.userName}”已绑定的身份验证器将失效；仍须使用动态口令时，下次登录重新扫码绑定。确定重置吗？`,
      okText: '重置',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          replace(await api.resetUserTotp(u.userId));
          notify.success('动态口令已重置');
        } catch {
          /* shown by the http client */
        }
      },
    });

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Input.Search
        placeholder="搜索用户名或昵称"
        allowClear
        style={{ maxWidth: 320 }}
        onSearch={(v) => {
          setPage(1);
          setKeyword(v.trim());
        }}
      />
      <Table<AdminUser>
        size="small"
        rowKey="userId"
        loading={loading}
        dataSource={rows}
        pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage, showTotal: (n) => `共 ${n} 个用户` }}
        columns={[
          { title: '用户名', dataIndex: 'userName' },
          { title: '昵称', dataIndex: 'nickName' },
          {
            title: '状态',
            key: 'state',
            render: (_, u) => (
              <>
                {u.disabled ? <Tag>已停用</Tag> : <Tag color="green">正常</Tag>}
                {u.mustChangePassword ? <Tag color="orange">须修改密码</Tag> : null}
              </>
            ),
          },
          { title: '动态口令', key: 'bound', render: (_, u) => (u.totpBound ? <Tag color="blue">已绑定</Tag> : <Tag>未绑定</Tag>) },
          {
            title: '要求使用动态口令',
            key: 'required',
            render: (_, u) => (
              <Switch
                size="small"
                checked={u.totpRequired}
                loading={busy === u.userId}
                aria-label={`要求${u.userName}使用动态口令`}
                onChange={(v) => void setRequired(u, v)}
              />
            ),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_, u) => (
              <Button type="link" size="small" disabled={!u.totpBound} onClick={() => reset(u)}>
                重置动态口令
              </Button>
            ),
          },
        ]}
      />
    </Space>
  );
}
