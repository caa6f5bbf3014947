// 管理日志: what system and department administrators did (accounts made, roles granted,
// departments moved, policies changed), newest first; for system and audit administrators.
import { Table, Typography } from 'antd';
import dayjs from 'dayjs';
import type { AdminAction } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { usePagedList } from '../usePagedList';

const PAGE_SIZE = 20;

export function ActionsTab() {
  const { page, setPage, rows, total, loading } = usePagedList((p) => adminApi.getActions({ page: p, pageSize: PAGE_SIZE }), []);
  return (
    <>
      <Typography.Paragraph type="secondary">记录系统管理员和部门管理员的每一次管理操作，包括操作人、时间、对象和变化；密码不会被记录。</Typography.Paragraph>
      <Table<AdminAction>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={rows}
        pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage, showTotal: (n) => `共 ${n} 条` }}
        columns={[
          { title: '时间', dataIndex: 'at', width: 170, render: (at: number) => dayjs(at).format('YYYY-MM-DD HH:mm:ss') },
          { title: '操作人', dataIndex: 'actorName', width: 140 },
          { title: '操作', dataIndex: 'action', width: 150 },
          { title: '对象', dataIndex: 'targetName', width: 180 },
          { title: '详情', dataIndex: 'detail', ellipsis: true },
        ]}
      />
    </>
  );
}
