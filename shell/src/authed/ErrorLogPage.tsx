// /error-log/list: every error of this tab, newest first.
import { useAtomValue } from 'jotai';
import { Button, Space, Table, Tag, Typography } from 'antd';
import { clearErrorLog, errorLogAtom, type ErrorLogEntry } from '@app/shared';

const TYPE_LABELS: Record<ErrorLogEntry['type'], { text: string; color: string }> = {
  ajax: { text: '接口', color: 'blue' },
  script: { text: '脚本', color: 'red' },
  promise: { text: '异步', color: 'orange' },
  resource: { text: '资源', color: 'purple' },
  remote: { text: '模块', color: 'magenta' },
};

export function ErrorLogPage() {
  const entries = useAtomValue(errorLogAtom);
  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          错误日志
        </Typography.Title>
        <Button onClick={clearErrorLog} disabled={entries.length === 0}>
          清空
        </Button>
      </Space>
      <Table<ErrorLogEntry & { index: number }>
        size="middle"
        rowKey="index"
        dataSource={entries.map((e, index) => ({ ...e, index }))}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '时间', dataIndex: 'time', width: 150 },
          {
            title: '类型',
            dataIndex: 'type',
            width: 80,
            render: (t: ErrorLogEntry['type']) => <Tag color={TYPE_LABELS[t]?.color}>{TYPE_LABELS[t]?.text ?? t}</Tag>,
          },
          { title: '信息', dataIndex: 'message', ellipsis: true },
          {
            title: '地址',
            dataIndex: 'url',
            ellipsis: true,
            render: (url: string | undefined, e) => (url ? `${e.method ? `${e.method} ` : ''}${url}` : '-'),
          },
          { title: '状态', dataIndex: 'code', width: 90, render: (c: number | undefined, e) => c ?? e.status ?? '-' },
        ]}
      />
    </div>
  );
}
