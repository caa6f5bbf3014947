// 未送达的通知 of 系统管理 › 通知: the mails and DingTalk messages that failed after their retries
// or that DingTalk reported as not delivered (发送失败), or that were not sent (未发送: no address,
// no DingTalk bound, 通知设置已关闭, account disabled…), newest first, with the person (and where it
// went), the kind, the title, the channel, the reason and when.
import { useState } from 'react';
import { Button, Card, Segmented, Space, Table, Typography } from 'antd';
import { NOTICE_KIND_NAMES, type NoticeDelivery, type NoticeDeliveryStatus } from '@app/shared';
import { noticeSettingsApi } from '@app/shared/admin';
import { usePagedList } from '../usePagedList';

const PAGE_SIZE = 20;
const kindName = (kind: string) => (NOTICE_KIND_NAMES as Record<string, string>)[kind] ?? kind;

export function DeliveriesCard() {
  const [status, setStatus] = useState<NoticeDeliveryStatus>('failed');
  const [attempt, setAttempt] = useState(0);
  const { page, setPage, rows, total, loading } = usePagedList((p) => noticeSettingsApi.getDeliveries({ status, page: p, pageSize: PAGE_SIZE }), [status, attempt]);

  return (
    <Card
      size="small"
      title="未送达的通知"
      extra={
        <Button size="small" onClick={() => setAttempt((a) => a + 1)}>
          刷新
        </Button>
      }
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Segmented<NoticeDeliveryStatus>
          aria-label="未送达的通知"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          options={[
            { value: 'failed', label: '发送失败' },
            { value: 'skipped', label: '未发送' },
          ]}
        />
        <Typography.Text type="secondary">
          {status === 'failed'
            ? '多次重试后仍未能发出的邮件和钉钉消息，以及钉钉回报未送达的消息，请检查邮件服务器设置、钉钉应用设置或收件人。'
            : '没有发送的邮件和钉钉消息，如本人没有邮箱地址、未绑定钉钉、已在通知设置中关闭、账号已停用。'}
        </Typography.Text>
        <Table<NoticeDelivery>
          aria-label="未送达的通知列表"
          size="small"
          rowKey="id"
          loading={loading}
          dataSource={rows}
          pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage, showTotal: (n) => `共 ${n} 条` }}
          columns={[
            { title: '时间', dataIndex: 'updatedAt', width: 170 },
            {
              title: '人员',
              dataIndex: 'nickName',
              width: 180,
              render: (_: string, r) => (
                <span>
                  {r.nickName}（{r.userName}）{r.recipient || r.email ? <Typography.Text type="secondary"> {r.recipient || r.email}</Typography.Text> : null}
                </span>
              ),
            },
            { title: '类型', dataIndex: 'kind', width: 110, render: (k: string) => kindName(k) },
            { title: '标题', dataIndex: 'title', ellipsis: true },
            { title: '渠道', dataIndex: 'channelName', width: 70 },
            { title: '原因', dataIndex: 'reason', ellipsis: true },
          ]}
        />
      </Space>
    </Card>
  );
}
