// One folder reached through a share, for 与我共享 and for the external share page: the share
// path as breadcrumbs (it starts at the shared item; nothing above it shows), the items a page
// at a time, a file's name opening its preview (through the share), and what the share's level
// allows: 下载 and 打包下载 from level 2, 上传 at level 3.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Breadcrumb, Button, Space, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, FileZipOutlined, ReloadOutlined } from '@ant-design/icons';
import { formatBytes, type FolderItems, type Item, type ShareLevel, type UploadPath, useLoad } from '@app/shared';
import { FileIcon, LoadError, RowLink, UploadButton, useOpenPreview, useRowLinkStyle, useUploadDropTarget, useUploadsSettled } from '@app/shared/ui';

export const BROWSE_TEXTS = {
  download: '下载',
  zip: '打包下载',
  refresh: '刷新',
  empty: '文件夹为空',
  selected: (n: number) => `已选 ${n} 项`,
} as const;

export interface SharedFolderProps {
  /** the share browsed: a file's preview goes through it */
  shareId: string;
  /** the folder shown (null: the share's top) */
  folderId: string | null;
  onNavigate(folderId: string | null): void;
  /** loads a page of the folder */
  load(folderId: string | null, page: number, pageSize: number): Promise<FolderItems>;
  level: ShareLevel;
  /** the first crumb (与我共享, or the share's name); null: the folder's own path only */
  rootCrumb?: { label: ReactNode; onClick(): void } | null;
  /** downloads one file, or zips several items and folders */
  download(items: Item[]): void;
  /** where files uploaded into `folder` go (level 3) */
  uploadTarget(folder: Item): UploadPath;
}

const PAGE_SIZE = 50;

/** The crumbs of a share path: `idPath` and `namePath` both start at the shared item. */
export function shareCrumbs(folder: Pick<Item, 'id' | 'idPath' | 'namePath'>): Array<{ id: string; name: string }> {
  if (!folder.id) return [];
  const ids = folder.idPath.split('/').filter(Boolean);
  const names = folder.namePath.split('/');
  return ids.map((id, i) => ({ id, name: names[i] ?? '' }));
}

export function SharedFolder({ shareId, folderId, onNavigate, load, level, rootCrumb, download, uploadTarget }: SharedFolderProps) {
  useRowLinkStyle();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Item[]>([]);
  const { state, reload } = useLoad(useCallback(() => load(folderId, page, PAGE_SIZE), [load, folderId, page]));
  const openPreview = useOpenPreview();

  useEffect(() => {
    setPage(1);
    setSelected([]);
  }, [folderId]);

  const folder = state.data?.folder;
  const [topName, setTopName] = useState<string | null>(null);
  useEffect(() => {
    if (folder && folder.id === '') setTopName(folder.name);
  }, [folder]);
  const canDownload = level >= 2;
  const uploadInto = level >= 3 && folder && folder.id && folder.permissions.includes('upload') ? uploadTarget(folder) : null;
  useUploadDropTarget(uploadInto);
  useUploadsSettled(folder?.id || undefined, reload);

  if (state.status === 'error' && !state.data) return <LoadError message={state.message} onRetry={reload} />;

  // a share of several items (or of a file) has a top of its own: the items together
  const crumbs = !folder ? [] : folder.id === '' ? [{ id: '', name: folder.name }] : [...(topName !== null ? [{ id: '', name: topName }] : []), ...shareCrumbs(folder)];
  const breadcrumb = [
    ...(rootCrumb ? [{ key: 'root', title: <a onClick={rootCrumb.onClick}>{rootCrumb.label}</a> }] : []),
    ...crumbs.map((c, i) => ({
      key: c.id || 'top',
      title: i === crumbs.length - 1 ? <span>{c.name}</span> : <a onClick={() => onNavigate(c.id || null)}>{c.name}</a>,
    })),
  ];

  const rows = state.data?.items.data ?? [];
  /** A folder opens in place; a file opens its preview, the files of the page as its neighbours. */
  const open = (item: Item) => {
    if (item.type === 'folder') onNavigate(item.id);
    else if (item.type === 'file') void openPreview({ fileId: item.id, shareId, extension: item.extension, name: item.name, siblings: rows });
  };

  const columns: TableColumnsType<Item> = [
    {
      title: '名称',
      dataIndex: 'name',
      render: (_: unknown, item) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
          <FileIcon extension={item.extension} name={item.name} folder={item.type === 'folder'} size={24} />
          {item.type === 'folder' || item.type === 'file' ? <RowLink onClick={() => open(item)}>{item.name}</RowLink> : <span>{item.name}</span>}
        </span>
      ),
    },
    { title: '大小', dataIndex: 'size', width: 120, render: (_: unknown, item) => (item.type === 'folder' ? '—' : formatBytes(item.size)) },
    { title: '修改时间', dataIndex: 'updatedAt', width: 180 },
    ...(canDownload
      ? [
          {
            title: '操作',
            key: 'actions',
            width: 100,
            render: (_: unknown, item: Item) =>
              item.permissions.includes('download') ? (
                <RowLink onClick={() => download([item])} aria-label={`${BROWSE_TEXTS.download} ${item.name}`}>
                  {BROWSE_TEXTS.download}
                </RowLink>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Breadcrumb items={breadcrumb} aria-label="分享路径" />
        <Space wrap>
          {selected.length ? <Typography.Text type="secondary">{BROWSE_TEXTS.selected(selected.length)}</Typography.Text> : null}
          {canDownload ? (
            <Button icon={selected.length === 1 && selected[0].type === 'file' ? <DownloadOutlined /> : <FileZipOutlined />} disabled={!selected.length} onClick={() => download(selected)}>
              {selected.length === 1 && selected[0].type === 'file' ? BROWSE_TEXTS.download : BROWSE_TEXTS.zip}
            </Button>
          ) : null}
          {uploadInto ? <UploadButton target={uploadInto} /> : null}
          <Button icon={<ReloadOutlined />} onClick={reload} aria-label={BROWSE_TEXTS.refresh} />
        </Space>
      </div>
      <Table<Item>
        rowKey="id"
        size="middle"
        loading={state.status === 'loading'}
        columns={columns}
        dataSource={rows}
        locale={{ emptyText: BROWSE_TEXTS.empty }}
        rowSelection={
          canDownload
            ? {
                selectedRowKeys: selected.map((s) => s.id),
                onChange: (_keys, rows) => setSelected(rows),
                getCheckboxProps: (item) => ({ 'aria-label': `选择 ${item.name}`, disabled: !item.permissions.includes('download') }),
              }
            : undefined
        }
        onRow={(item) => ({ onDoubleClick: () => open(item) })}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: state.data?.items.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
      />
    </Space>
  );
}
