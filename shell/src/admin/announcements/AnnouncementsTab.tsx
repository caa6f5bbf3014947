// 系统公告: the 公告 sent, newest first, with whom they went to and how many people they reached;
// 发布公告 opens the form (SendAnnouncementDialog). A 公告 still being delivered says so, and the
// list is read again shortly after.
import { useEffect, useState } from 'react';
import { Button, Modal, Space, Table, Tag, Typography } from 'antd';
import NotificationOutlined from '@ant-design/icons/NotificationOutlined';
import type { Announcement } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { usePagedList } from '../usePagedList';
import { SendAnnouncementDialog } from './SendAnnouncementDialog';

const PAGE_SIZE = 20;
/** A 公告 being delivered: the list is read again after this long. */
const REFRESH_MS = 2000;

export const scopeText = (a: Announcement) => (a.scope === 'all' ? '所有人' : a.departments.map((d) => d.name).join('、') || '所选部门（已删除）');

export function AnnouncementsTab() {
  const [attempt, setAttempt] = useState(0);
  const [sending, setSending] = useState(false);
  const [reading, setReading] = useState<Announcement | null>(null);
  const { page, setPage, rows, total, loading } = usePagedList((p) => adminApi.getAnnouncements({ page: p, pageSize: PAGE_SIZE }), [attempt]);

  const delivering = rows.some((r) => !r.sentAt);
  useEffect(() => {
    if (!delivering) return;
    const timer = setTimeout(() => setAttempt((a) => a + 1), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [delivering, rows]);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">公告会出现在收件人的消息中心，点开可看全文。</Typography.Text>
        <Button type="primary" icon={<NotificationOutlined />} onClick={() => setSending(true)}>
          发布公告
        </Button>
      </Space>
      <Table<Announcement>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={rows}
        locale={{ emptyText: '还没有发布过公告' }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage, showTotal: (n) => `共 ${n} 条` }}
        columns={[
          { title: '发布时间', dataIndex: 'createdAt', width: 170 },
          {
            title: '标题',
            dataIndex: 'title',
            ellipsis: true,
            render: (title: string, a) => (
              <Typography.Link onClick={() => setReading(a)} title="查看全文">
                {title}
              </Typography.Link>
            ),
          },
          { title: '发送给', key: 'scope', ellipsis: true, render: (_, a) => scopeText(a) },
          { title: '发布人', dataIndex: 'senderName', width: 120 },
          {
            title: '收到人数',
            key: 'recipients',
            width: 120,
            render: (_, a) => (a.sentAt ? `${a.recipients} 人` : <Tag color="processing">发送中</Tag>),
          },
        ]}
      />
      <SendAnnouncementDialog
        open={sending}
        onClose={(sent) => {
          setSending(false);
          if (sent) {
            setPage(1);
            setAttempt((a) => a + 1);
          }
        }}
      />
      <Modal open={reading !== null} title={reading?.title} footer={null} onCancel={() => setReading(null)} width={640}>
        {reading ? (
          <>
            <Typography.Paragraph type="secondary">
              {reading.createdAt} · {reading.senderName} · 发送给{scopeText(reading)}
            </Typography.Paragraph>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{reading.body}</Typography.Paragraph>
          </>
        ) : null}
      </Modal>
    </Space>
  );
}
