// 我的会话: where the account is signed in; any other browser can be signed out from here.
import { Button, Card, Table, Tag } from 'antd';
import { api, logout, notify, type MySession } from '@app/shared';

export function SessionsCard({ sessions, loading, onChanged }: { sessions: MySession[]; loading: boolean; onChanged: () => void }) {
  const end = async (s: MySession) => {
    if (s.current) return void logout();
    try {
      await api.endMySession(s.id);
      notify.success('该处登录已退出');
    } catch {
      /* shown by the http client */
    }
    onChanged();
  };
  return (
    <Card title="我的会话" size="small">
      <Table<MySession>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={sessions}
        pagination={false}
        aria-label="我的会话"
        columns={[
          {
            title: '设备',
            dataIndex: 'device',
            render: (d: string, s) => (
              <>
                {d}
                {s.current ? (
                  <Tag color="blue" style={{ marginLeft: 8 }}>
                    当前
                  </Tag>
                ) : null}
              </>
            ),
          },
          { title: '地址', dataIndex: 'ip', width: 150 },
          { title: '登录时间', dataIndex: 'createdAt', width: 150 },
          { title: '最近使用', dataIndex: 'lastSeenAt', width: 150 },
          {
            title: '操作',
            key: 'action',
            width: 100,
            render: (_: unknown, s) => (
              <Button type="link" size="small" danger onClick={() => void end(s)} aria-label={`退出 ${s.device}${s.current ? '（当前）' : ''}`}>
                {s.current ? '退出登录' : '退出'}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
