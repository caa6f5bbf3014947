// 登录记录: my own sign-ins, failed attempts, lockouts and sign-outs, with the address and the
// device, newest first (from the operation log), so that a stranger's attempt is noticed.
import { Card, Table, Tag } from 'antd';
import type { OplogRecord } from '@app/shared';
import { oplogApi } from '@app/shared/admin';
import { usePagedList } from '../admin/usePagedList';

const PAGE_SIZE = 10;
const RESULT_COLOR: Record<string, string> = { 'auth.login': 'green', 'auth.login.fail': 'red', 'auth.lockout': 'red' };

export function SignInsCard() {
  const { page, setPage, rows, total, loading } = usePagedList((p) => oplogApi.getMySignIns({ page: p, pageSize: PAGE_SIZE }), []);
  return (
    <Card title="登录记录" size="small">
      <Table<OplogRecord>
        size="small"
        rowKey="id"
        aria-label="登录记录"
        loading={loading}
        dataSource={rows}
        pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage, showTotal: (n) => `共 ${n} 条` }}
        columns={[
          { title: '时间', dataIndex: 'time', width: 170 },
          {
            title: '事件',
            dataIndex: 'actionName',
            width: 140,
            render: (name: string, r) => <Tag color={RESULT_COLOR[r.action]} title={r.reason || undefined}>{name}</Tag>,
          },
          { title: '地址', dataIndex: 'ip', width: 140 },
          { title: '设备', dataIndex: 'device', render: (d: string) => d || '—' },
          { title: '说明', dataIndex: 'reason', render: (v: string, r) => v || String((r.detail as { how?: string }).how ?? '') },
        ]}
      />
    </Card>
  );
}
