// 收到的文件 of 云文档's file ferry: the packages other zones sent to the user, paged by the
// server. Each file downloads on its own and 全部下载 fetches the package as a zip, through the
// browser's own downloads (a hidden frame, as every download of 云文档); the row's state is
// asked again shortly after, for the server marks the package downloaded. 移除 deletes the files
// before they expire (the sender is told). Expired and removed packages keep their row but have
// nothing left to download.
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  api,
  apiUrl,
  downloadByFrame,
  FERRY_INBOX_STATUS_COLOR,
  FERRY_INBOX_STATUS_TEXT,
  formatBytes,
  formatDateTime,
  notify,
  useLoad,
  type FerryInboxItem,
} from '@app/shared';
import { SectionEmpty } from '../SectionEmpty';
import { LoadError } from '../StatusSections';
import { DEFAULT_FERRY_PAGE_SIZE, FERRY_PAGE_SIZES, FERRY_TEXTS as T, orDash } from './common';

/** How long after a download the list asks for the rows' states again. */
export const FERRY_INBOX_RELOAD_DELAY_MS = 1500;

const canDownload = (item: FerryInboxItem) => item.status === 'delivered' || item.status === 'downloaded';

/** The address of a received file (index) or, without one, of the whole package as a zip. */
export const ferryInboxUrl = (id: string, index?: number) => apiUrl(api.ferryInboxDownloadPath(id, index));

/** The packages received from other zones, with their downloads. */
export function FerryInboxTable() {
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_FERRY_PAGE_SIZE });
  const load = useCallback(() => api.getFerryInbox(paging, { errorMode: 'none' }), [paging]);
  const { state, reload } = useLoad(load);

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const download = (url: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    downloadByFrame(url);
    clearTimeout(timer.current);
    timer.current = setTimeout(reload, FERRY_INBOX_RELOAD_DELAY_MS);
  };

  const remove = async (item: FerryInboxItem) => {
    try {
      await api.removeFerryInbox(item.id);
    } catch {
      return; // the http client has shown why
    }
    notify.success(T.removed);
    reload();
  };

  const columns: TableColumnsType<FerryInboxItem> = [
    { title: '来自区域', dataIndex: 'fromZone', width: 100 },
    { title: '发送人', dataIndex: 'senderName', width: 100 },
    { title: '原因', dataIndex: 'reason', ellipsis: true },
    {
      title: '文件',
      key: 'files',
      width: 260,
      render: (_: unknown, r) => (
        <ul aria-label={`${r.number} 的文件`} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {r.files.map((f) => (
            <li key={f.index} title={`SHA-256：${f.sha256}`}>
              {canDownload(r) ? (
                <a href={ferryInboxUrl(r.id, f.index)} aria-label={`下载 ${f.name}`} onClick={download(ferryInboxUrl(r.id, f.index))}>
                  {f.name}
                </a>
              ) : (
                <Typography.Text type="secondary">{f.name}</Typography.Text>
              )}
              <Typography.Text type="secondary" style={{ marginInlineStart: 6, fontSize: 12 }}>
                {formatBytes(f.size)}
              </Typography.Text>
            </li>
          ))}
        </ul>
      ),
    },
    { title: '大小', dataIndex: 'totalSize', width: 100, render: (size: number) => formatBytes(size) },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (status: FerryInboxItem['status']) => <Tag color={FERRY_INBOX_STATUS_COLOR[status]}>{FERRY_INBOX_STATUS_TEXT[status]}</Tag>,
    },
    { title: '收到时间', dataIndex: 'receivedAt', width: 150, render: (v: string) => formatDateTime(v) },
    { title: '过期时间', dataIndex: 'expiresAt', width: 150, render: (v: string) => orDash(formatDateTime(v)) },
    {
      title: '操作',
      key: 'actions',
      width: 150,
      fixed: 'end',
      render: (_: unknown, r) =>
        canDownload(r) ? (
          <Space size="middle">
            <a href={ferryInboxUrl(r.id)} aria-label={`全部下载 ${r.number}`} onClick={download(ferryInboxUrl(r.id))}>
              {T.downloadAll}
            </a>
            <Popconfirm title={T.removeConfirm} okText={T.remove} cancelText="取消" onConfirm={() => remove(r)}>
              <Typography.Link type="danger" aria-label={`移除 ${r.number}`}>
                {T.remove}
              </Typography.Link>
            </Popconfirm>
          </Space>
        ) : (
          <Typography.Text type="secondary">
            {FERRY_INBOX_STATUS_TEXT[r.status]}，{T.gone}
          </Typography.Text>
        ),
    },
  ];

  if (state.status === 'error' && !state.data) return <LoadError message={state.message} onRetry={reload} />;
  return (
    <Table<FerryInboxItem>
      rowKey="id"
      size="middle"
      loading={state.status === 'loading'}
      columns={columns}
      dataSource={state.data?.data ?? []}
      locale={{ emptyText: <SectionEmpty description={T.inboxEmpty} /> }}
      pagination={{
        current: paging.page,
        pageSize: paging.pageSize,
        total: state.data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: FERRY_PAGE_SIZES,
        showTotal: (total) => `共 ${total} 条`,
        onChange: (page, pageSize) => setPaging((p) => ({ page: pageSize !== p.pageSize ? 1 : page, pageSize })),
      }}
      scroll={{ x: 1200 }}
    />
  );
}
