// 与我共享 (/file/shareme): the internal shares to the user, their department or one of their
// groups that work now. Opening one shows it in place (spec: Sendfile), the share path as
// breadcrumbs, with what the share's level allows; the share and folder shown are kept in the
// address, so that a refresh stays where the user is.
import { useCallback, useMemo, useState } from 'react';
import { Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useSearchParams } from 'react-router-dom';
import {
  api,
  downloadApi,
  downloadFile,
  Messages,
  shareLevelName,
  type FolderItems,
  type Item,
  type ShareRecord, useLoad } from '@app/shared';
import { LoadError, RowLink, useDownload, useRowLinkStyle } from '@app/shared/ui';
import { SharedFolder } from '../browse/SharedFolder';
import { itemsOfRecord, topOf } from '../browse/shareTop';
import { ShareItemsCell } from '../browse/ShareItemsCell';

export const RECEIVED_TEXTS = {
  root: '与我共享',
  empty: '暂时没有共享给你的文件',
  never: '永久有效',
} as const;

const PAGE_SIZE = 20;

export function ReceivedPage() {
  useRowLinkStyle();
  const [params, setParams] = useSearchParams();
  const shareId = params.get('share');
  const folderId = params.get('folder');
  const [page, setPage] = useState(1);
  const { state, reload } = useLoad(useCallback(() => api.getReceivedShares({ page, pageSize: PAGE_SIZE }), [page]));

  const record = state.data?.data.find((r) => r.shareId === shareId) ?? null;
  const go = useCallback(
    (share: string | null, folder: string | null) => {
      const next = new URLSearchParams();
      if (share) next.set('share', share);
      if (share && folder) next.set('folder', folder);
      setParams(next);
    },
    [setParams],
  );

  const open = (r: ShareRecord) => go(r.shareId, topOf(r));

  const load = useCallback(
    async (folder: string | null, p: number, pageSize: number): Promise<FolderItems> => {
      if (!record) throw new Error(Messages.shareExpired);
      if (folder === null) return itemsOfRecord(record);
      return api.getSharedItems(record.shareId, folder, { page: p, pageSize });
    },
    [record],
  );

  const shareKey = record?.shareId ?? '';
  const source = useMemo(
    () => ({
      file: (item: Item) => downloadFile(item.id, { shareId: shareKey }),
      createTask: (ids: string[]) => downloadApi.createSharedTask(shareKey, ids),
    }),
    [shareKey],
  );
  const download = useDownload(source);

  if (state.status === 'error' && !state.data) return <LoadError message={state.message} onRetry={reload} />;

  if (shareId) {
    if (state.status === 'loading' && !record) return <Typography.Text type="secondary">加载中…</Typography.Text>;
    if (!record) {
      return (
        <div>
          <Typography.Paragraph>{Messages.shareExpired}</Typography.Paragraph>
          <RowLink onClick={() => go(null, null)}>返回与我共享</RowLink>
        </div>
      );
    }
    return (
      <div data-testid="shared-folder">
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {record.ownerName} 分享 · 权限：{shareLevelName(record.level)}
          {record.expireAt ? ` · 有效期至 ${record.expireAt}` : ''}
        </Typography.Paragraph>
        <SharedFolder
          key={record.shareId}
          shareId={record.shareId}
          folderId={folderId ?? topOf(record)}
          onNavigate={(id) => go(record.shareId, id)}
          load={load}
          level={record.level}
          rootCrumb={{ label: RECEIVED_TEXTS.root, onClick: () => go(null, null) }}
          download={download}
          uploadTarget={(folder) => ({ wjFileId: folder.id, shareId: record.shareId, namePath: folder.namePath, idPath: folder.idPath })}
        />
      </div>
    );
  }

  const columns: TableColumnsType<ShareRecord> = [
    {
      title: '名称',
      key: 'name',
      render: (_: unknown, r) => <ShareItemsCell record={r} onOpen={() => open(r)} />,
    },
    { title: '分享人', dataIndex: 'ownerName', width: 140 },
    { title: '权限', dataIndex: 'level', width: 110, render: (level: number) => shareLevelName(level) },
    { title: '有效期至', dataIndex: 'expireAt', width: 170, render: (v: string | null) => v ?? RECEIVED_TEXTS.never },
    { title: '分享时间', dataIndex: 'createdAt', width: 170 },
  ];

  return (
    <Table<ShareRecord>
      rowKey="shareId"
      size="middle"
      loading={state.status === 'loading'}
      columns={columns}
      dataSource={state.data?.data ?? []}
      locale={{ emptyText: <Typography.Text type="secondary">{RECEIVED_TEXTS.empty}</Typography.Text> }}
      pagination={{ current: page, pageSize: PAGE_SIZE, total: state.data?.total ?? 0, showSizeChanger: false, hideOnSinglePage: true, onChange: setPage }}
    />
  );
}
