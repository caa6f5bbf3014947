// 客户端授权: the clients (desktop apps, other systems) that may ask users for authorization
// through /login?authorize=, each with its callback addresses; 停用 ends every token it holds.
import { useEffect, useState } from 'react';
import { App as AntApp, Button, Form, Input, Modal, Space, Table, Typography } from 'antd';
import { api, notify, type OAuthClient } from '@app/shared';

function RegisterDialog({ open, onClose }: { open: boolean; onClose: (created: OAuthClient | null) => void }) {
  const [form] = Form.useForm<{ name: string; redirectUris: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    let values: { name: string; redirectUris: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      const uris = values.redirectUris.split('\n').map((u) => u.trim()).filter(Boolean);
      const created = await api.registerOAuthClient({ name: values.name.trim(), redirectUris: uris });
      form.resetFields();
      onClose(created);
    } catch {
      /* shown by the http client */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open={open} title="登记客户端" okText="登记" cancelText="取消" confirmLoading={saving} onOk={() => void submit()} onCancel={() => onClose(null)} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item label="名称" name="name" extra="授权页上显示给用户" rules={[{ required: true, whitespace: true, message: '请输入客户端名称' }, { max: 64, message: '名称不能超过 64 个字符' }]}>
          <Input placeholder="例如：云文档桌面同步" />
        </Form.Item>
        <Form.Item
          label="回调地址"
          name="redirectUris"
          extra="每行一个，授权时逐字比较；须为 https、本机 http（127.0.0.1、localhost）或客户端自有协议"
          rules={[{ required: true, whitespace: true, message: '请至少填写一个回调地址' }]}
        >
          <Input.TextArea rows={3} placeholder="https://app.example.com/callback" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function ClientsTab() {
  const { modal } = AntApp.useApp();
  const [clients, setClients] = useState<OAuthClient[]>([]);
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const [registering, setRegistering] = useState(false);

  useEffect(() => {
    let live = true;
    setLoading(true);
    api
      .getOAuthClients()
      .then((list) => live && setClients(list))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [attempt]);

  const remove = (c: OAuthClient) =>
    modal.confirm({
      title: '停用客户端',
      content: `停用后“${c.name}”的授权码与令牌全部失效，用户须等重新登记后再授权。确定停用吗？`,
      okText: '停用',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await api.removeOAuthClient(c.clientId);
          notify.success(`已停用“${c.name}”`);
        } catch {
          /* shown by the http client */
        }
        setAttempt((a) => a + 1);
      },
    });

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Button type="primary" onClick={() => setRegistering(true)}>
        登记客户端
      </Button>
      <Table<OAuthClient>
        size="small"
        rowKey="clientId"
        loading={loading}
        dataSource={clients}
        pagination={false}
        locale={{ emptyText: '还没有登记客户端' }}
        columns={[
          { title: '名称', dataIndex: 'name' },
          { title: '客户端 ID', dataIndex: 'clientId', render: (id: string) => <Typography.Text copyable>{id}</Typography.Text> },
          { title: '回调地址', dataIndex: 'redirectUris', render: (uris: string[]) => uris.map((u) => <div key={u}>{u}</div>) },
          { title: '登记时间', dataIndex: 'createdAt', width: 170 },
          {
            title: '操作',
            key: 'actions',
            render: (_, c) => (
              <Button type="link" size="small" danger onClick={() => remove(c)}>
                停用
              </Button>
            ),
          },
        ]}
      />
      <RegisterDialog
        open={registering}
        onClose={(created) => {
          setRegistering(false);
          if (created) {
            notify.success(`已登记“${created.name}”，client_id：${created.clientId}`);
            setAttempt((a) => a + 1);
          }
        }}
      />
    </Space>
  );
}
