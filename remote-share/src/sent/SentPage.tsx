// 分享记录 (/file/sharelist): every share the user made, newest first, with whom or how it is
// shared, its permission, expiry, visits and downloads and its state; 复制链接 for a working
// external link, 修改 and 取消分享 (after a confirmation) while it is not cancelled.
import { useCallback, useState } from 'react';
import { App as AntApp, Button, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import {
  api,
  copyText,
  notify,
  SHARE_STATUS_NAMES,
  shareLevelName,
  shareLinkText,
  shareTitle,
  type ShareRecord, useLoad } from '@app/shared';
import { LoadError, RowLink, useRowLinkStyle } from '@app/shared/ui';
import { ShareItemsCell } from '../browse/ShareItemsCell';
import { EditShareDialog } from './EditShareDialog';

export const SENT_TEXTS = {
  copyLink: '复制链接',
  copied: '链接已复制（提取码只在创建时显示，忘记时可在“修改”中更换）',
  copyFailed: '复制失败，请手动复制',
  edit: '修改',
  cancel: '取消分享',
  cancelTitle: '取消分享',
  cancelContent: '取消后，对方将立即无法再访问该分享。确定取消吗？',
  cancelled: '已取消分享',
  empty: '还没有分享过文件',
  external: '外链',
  internal: '内部',
  never: '永久有效',
} as const;

const STATUS_COLORS: Record<number, string> = { 1: 'green', 2: 'default', 3: 'red' };
const PAGE_SIZE = 20;

export function SentPage() {
  useRowLinkStyle();
  const { modal } = AntApp.useApp();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ShareRecord | null>(null);
  const { state, reload } = useLoad(useCallback(() => api.getSentShares({ page, pageSize: PAGE_SIZE }), [page]));

  if (state.status === 'error' && !state.data) return <LoadError message={state.message} onRetry={reload} />;

  const copy = async (record: ShareRecord) => {
    if (await copyText(shareLinkText(record.url))) notify.success(SENT_TEXTS.copied);
    else notify.warning(SENT_TEXTS.copyFailed);
  };

  const cancel = (record: ShareRecord) => {
    modal.confirm({
      title: SENT_TEXTS.cancelTitle,
      content: SENT_TEXTS.cancelContent,
      okText: SENT_TEXTS.cancel,
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        await api.cancelShares([record.shareId]);
        notify.success(SENT_TEXTS.cancelled);
        reload();
      },
    });
  };

  const columns: TableColumnsType<ShareRecord> = [
    {
      title: '分享的文件',
      key: 'items',
      render: (_: unknown, r) => <ShareItemsCell record={r} />,
    },
    {
      title: '分享给',
      key: 'targets',
      render: (_: unknown, r) =>
        r.shareType === 2 ? (
          <Tag icon={<LinkOutlined />}>{SENT_TEXTS.external}</Tag>
        ) : (
          <Tooltip title={r.targets.map((t) => t.name).join('、')}>
            <span>{r.targets.map((t) => t.name || '（已删除）').join('、')}</span>
          </Tooltip>
        ),
    },
    { title: '权限', dataIndex: 'level', width: 110, render: (level: number) => shareLevelName(level) },
    { title: '有效期至', dataIndex: 'expireAt', width: 170, render: (v: string | null) => v ?? SENT_TEXTS.never },
    {
      title: '访问 / 下载',
      key: 'counts',
      width: 120,
      render: (_: unknown, r) => `${r.visitCount} / ${r.downloadCount}${r.downloadLimit !== null ? `（上限 ${r.downloadLimit}）` : ''}`,
    },
    { title: '分享时间', dataIndex: 'createdAt', width: 170 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (status: 1 | 2 | 3) => <Tag color={STATUS_COLORS[status]}>{SHARE_STATUS_NAMES[status]}</Tag>,
    },
    {
      title: '操作',
      key: 'actions',
      width: 220,
      render: (_: unknown, r) => (
        <Space size={12}>
          {r.shareType === 2 && r.status === 1 ? <RowLink onClick={() => copy(r)}>{SENT_TEXTS.copyLink}</RowLink> : null}
          {r.status !== 3 ? <RowLink onClick={() => setEditing(r)}>{SENT_TEXTS.edit}</RowLink> : null}
          {r.status !== 3 ? (
            <RowLink onClick={() => cancel(r)} aria-label={`${SENT_TEXTS.cancel} ${shareTitle(r)}`}>
              {SENT_TEXTS.cancel}
            </RowLink>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <Button onClick={reload}>刷新</Button>
      </div>
      <Table<ShareRecord>
        rowKey="shareId"
        size="middle"
        loading={state.status === 'loading'}
        columns={columns}
        dataSource={state.data?.data ?? []}
        locale={{ emptyText: <Typography.Text type="secondary">{SENT_TEXTS.empty}</Typography.Text> }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: state.data?.total ?? 0, showSizeChanger: false, hideOnSinglePage: true, onChange: setPage }}
        scroll={{ x: 1000 }}
      />
      <EditShareDialog
        record={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          reload();
        }}
      />
    </>
  );
}
