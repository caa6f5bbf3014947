// The bell in 云文档's top bar and its 消息中心 drawer: the unread count (pushed, see
// useNoticeFeed), the notices newest first with 全部 / 未读 and a filter by kind, 全部已读,
// delete, and a click that marks a notice read and opens what it is about (a 系统公告, which
// has no page, opens its whole text in a dialog).
import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, Drawer, Empty, List, Modal, Popconfirm, Segmented, Select, Space, Tag, Typography } from 'antd';
import BellOutlined from '@ant-design/icons/BellOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import { api, NOTICE_KIND_NAMES, type Notice, type NoticeKind } from '@app/shared';
import { useNoticeFeed } from './useNoticeFeed';

const PAGE_SIZE = 20;

interface Props {
  /** opens a notice's link inside the app */
  onOpen(link: string): void;
}

export function NoticeBell({ onOpen }: Props) {
  const { unread, latest, refresh } = useNoticeFeed();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Badge count={unread} size="small" overflowCount={99} offset={[-6, 6]}>
        <Button
          type="text"
          shape="circle"
          icon={<BellOutlined style={{ fontSize: 18 }} />}
          aria-label={unread ? `消息中心（${unread} 条未读）` : '消息中心'}
          data-testid="notice-bell"
          onClick={() => setOpen(true)}
        />
      </Badge>
      <NoticeDrawer
        open={open}
        onClose={() => setOpen(false)}
        latestId={latest?.id ?? null}
        onChanged={refresh}
        onOpen={(link) => {
          setOpen(false);
          onOpen(link);
        }}
      />
    </>
  );
}

interface DrawerProps {
  open: boolean;
  onClose(): void;
  /** a new notice arrived: the open list is read again */
  latestId: string | null;
  /** notices were read or deleted: the count is asked again */
  onChanged(): void;
  onOpen(link: string): void;
}

export function NoticeDrawer({ open, onClose, latestId, onChanged, onOpen }: DrawerProps) {
  const [which, setWhich] = useState<'all' | 'unread'>('all');
  const [kind, setKind] = useState<NoticeKind | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Notice[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  /** the 公告 open in its dialog */
  const [reading, setReading] = useState<Notice | null>(null);

  const load = useCallback(() => {
    setLoading(true);
    api
      .getNotices({ page, pageSize: PAGE_SIZE, ...(kind ? { kind } : {}), ...(which === 'unread' ? { unread: true } : {}) })
      .then(
        (r) => {
          setData(r.data);
          setTotal(r.total);
        },
        () => undefined,
      )
      .finally(() => setLoading(false));
  }, [page, kind, which]);

  useEffect(() => {
    if (open) load();
  }, [open, load, latestId]);

  const changed = () => {
    onChanged();
    load();
  };

  const openNotice = (n: Notice) => {
    const go = () => (n.kind === 'announcement' ? setReading(n) : n.link ? onOpen(n.link) : undefined);
    if (n.read) return go();
    api.readNotices([n.id]).then(() => onChanged(), () => undefined);
    setData((rows) => rows.map((r) => (r.id === n.id ? { ...r, read: true } : r)));
    go();
  };
  const opens = (n: Notice) => !!n.link || n.kind === 'announcement';

  return (
    <Drawer
      title="消息中心"
      open={open}
      onClose={onClose}
      width={440}
      extra={
        <Button
          size="small"
          onClick={() => {
            api.readAllNotices(kind).then(changed, () => undefined);
          }}
        >
          全部已读
        </Button>
      }
    >
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Segmented
          value={which}
          options={[
            { label: '全部', value: 'all' },
            { label: '未读', value: 'unread' },
          ]}
          onChange={(v) => {
            setWhich(v as 'all' | 'unread');
            setPage(1);
          }}
        />
        <Select
          allowClear
          placeholder="全部类型"
          aria-label="消息类型"
          style={{ width: 150 }}
          // a short list: every kind rendered (and found) without the virtual list
          virtual={false}
          value={kind}
          options={(Object.keys(NOTICE_KIND_NAMES) as NoticeKind[]).map((k) => ({ value: k, label: NOTICE_KIND_NAMES[k] }))}
          onChange={(v) => {
            setKind(v);
            setPage(1);
          }}
        />
      </Space>
      <List
        loading={loading}
        dataSource={data}
        locale={{ emptyText: <Empty description={which === 'unread' ? '没有未读消息' : '暂无消息'} /> }}
        pagination={total > PAGE_SIZE ? { current: page, pageSize: PAGE_SIZE, total, size: 'small', onChange: setPage } : false}
        renderItem={(n) => (
          <List.Item
            key={n.id}
            style={{ cursor: opens(n) ? 'pointer' : 'default', alignItems: 'flex-start' }}
            onClick={() => openNotice(n)}
            actions={[
              <Popconfirm
                key="delete"
                title="删除这条消息？"
                okText="删除"
                cancelText="取消"
                onConfirm={(e) => {
                  e?.stopPropagation();
                  api.deleteNotices([n.id]).then(changed, () => undefined);
                }}
                onCancel={(e) => e?.stopPropagation()}
              >
                <Button type="text" size="small" icon={<DeleteOutlined />} aria-label="删除" onClick={(e) => e.stopPropagation()} />
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space size={6} wrap>
                  {!n.read && <Badge status="processing" aria-label="未读" />}
                  <Typography.Text strong={!n.read}>{n.title}</Typography.Text>
                  {n.resolved && <Tag color="default">{n.resolution || '已处理'}</Tag>}
                </Space>
              }
              description={
                <>
                  {n.kind === 'announcement' ? (
                    <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 0, color: 'inherit' }}>
                      {n.body}
                    </Typography.Paragraph>
                  ) : (
                    <div>{n.body}</div>
                  )}
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {NOTICE_KIND_NAMES[n.kind] ?? n.kind} · {n.createdAt}
                  </Typography.Text>
                </>
              }
            />
          </List.Item>
        )}
      />
      <Modal open={reading !== null} title={reading?.title.replace(/^系统公告：/, '')} onCancel={() => setReading(null)} footer={null} width={600}>
        {reading ? (
          <>
            <Typography.Paragraph type="secondary">系统公告 · {reading.createdAt}</Typography.Paragraph>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="announcement-body">
              {reading.body}
            </Typography.Paragraph>
          </>
        ) : null}
      </Modal>
    </Drawer>
  );
}
