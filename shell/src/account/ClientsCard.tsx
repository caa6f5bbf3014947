// 已授权的客户端: the clients holding a token of the user, and 撤销授权 (their tokens end at once).
import { useEffect, useState } from 'react';
import { App as AntApp, Button, Card, Table } from 'antd';
import { api, notify, type AuthorizedClient } from '@app/shared';

export function ClientsCard({ attempt }: { attempt: number }) {
  const { modal } = AntApp.useApp();
  const [clients, setClients] = useState<AuthorizedClient[]>([]);
  const [loading, setLoading] = useState(true);
  const [again, setAgain] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    api
      .getMyClients()
      .then((list) => live && setClients(list))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [attempt, again]);

  const revoke = (c: AuthorizedClient) =>
    modal.confirm({
      title: '撤销授权',
      content: `撤销后“${c.name}”将无法再以你的身份访问云文档，需要重新授权。确定撤销吗？`,
      okText: '撤销',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await api.revokeMyClient(c.clientId);
          notify.success(`已撤销“${c.name}”的授权`);
        } catch {
          /* shown by the http client */
        }
        setAgain((a) => a + 1);
      },
    });

  return (
    <Card title="已授权的客户端" size="small">
      <Table<AuthorizedClient>
        size="small"
        rowKey="clientId"
        loading={loading}
        dataSource={clients}
        pagination={false}
        locale={{ emptyText: '没有授权过任何客户端' }}
        aria-label="已授权的客户端"
        columns={[
          { title: '客户端', dataIndex: 'name' },
          { title: '授权范围', dataIndex: 'scopes', render: (scopes: string[]) => scopes.join('；') },
          { title: '授权时间', dataIndex: 'authorizedAt', width: 150 },
          { title: '最近使用', dataIndex: 'lastUsedAt', width: 150 },
          {
            title: '操作',
            key: 'action',
            width: 100,
            render: (_: unknown, c) => (
              <Button type="link" size="small" danger aria-label={`撤销 ${c.name} 的授权`} onClick={() => revoke(c)}>
                撤销授权
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
