// 历史版本 of a file in 云文档: every version, newest first, with its size, creator and time;
// the master version (the file's content) is tagged. With the `version` right the user may
// make another version the master, roll back to a version (which adds a new master with its
// content) or delete a version that is not the master. Any version can be previewed (预览 opens
// it in a new tab); with the `download` right any version may be downloaded.
import { useEffect, useRef, useState } from 'react';
import { App as AntApp, Button, Drawer, Space, Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import { api, downloadFile, formatBytes, formatDateTime, Messages, notify, type FileVersion, type Item } from '@app/shared';
import { LoadError, SectionEmpty, useOpenPreview } from '@app/shared/ui';

export interface VersionsDrawerProps {
  /** the file whose versions are shown; the drawer is open while it is set */
  item: Item | null;
  onClose(): void;
  /** runs after a version change (the file's size and time follow its master version) */
  onChanged?(): void;
}

export const VERSION_TEXTS = {
  setMaster: '设为主版本',
  rollback: '回滚到此版本',
  delete: '删除',
  master: '主版本',
  preview: '预览',
  download: '下载',
  rollbackConfirm: (n: number) => `确定将文件回滚到版本 V${n} 吗？回滚会生成一个新的主版本。`,
  deleteConfirm: (n: number) => `确定删除版本 V${n} 吗？删除后无法恢复。`,
} as const;

interface LoadState {
  status: 'loading' | 'ready' | 'error';
  versions: FileVersion[];
  message?: string;
}

const errorMessage = (e: unknown) => (e instanceof Error && e.message ? e.message : Messages.requestError);
const newestFirst = (list: FileVersion[]) => [...list].sort((a, b) => b.version - a.version);

export function VersionsDrawer({ item, onClose, onChanged }: VersionsDrawerProps) {
  const { modal } = AntApp.useApp();
  // the drawer keeps showing the last file while it slides away
  const last = useRef<Item | null>(item);
  if (item) last.current = item;
  const shown = item ?? last.current;

  const [state, setState] = useState<LoadState>({ status: 'loading', versions: [] });
  const [attempt, setAttempt] = useState(0);
  /** the version an action is running on */
  const [busyId, setBusyId] = useState<string | null>(null);
  const fileId = item?.id;
  const openPreview = useOpenPreview();
  const editable = (shown?.permissions ?? []).includes('version');
  const downloadable = (shown?.permissions ?? []).includes('download');

  useEffect(() => {
    if (!fileId) return;
    let live = true;
    setState({ status: 'loading', versions: [] });
    setBusyId(null);
    api
      .getVersions(fileId)
      .then((list) => {
        if (live) setState({ status: 'ready', versions: newestFirst(list) });
      })
      .catch((e: unknown) => {
        if (live) setState({ status: 'error', versions: [], message: errorMessage(e) });
      });
    return () => {
      live = false;
    };
  }, [fileId, attempt]);

  /** Runs one change; the list then shows the versions the server answered with. */
  const change = async (version: FileVersion, call: () => Promise<FileVersion[]>, done: string) => {
    setBusyId(version.id);
    try {
      const list = await call();
      // the drawer may show another file by now
      if (last.current?.id === version.fileId) setState({ status: 'ready', versions: newestFirst(list) });
      notify.success(done);
      onChanged?.();
    } catch {
      /* the http client has shown the server's message */
    } finally {
      setBusyId(null);
    }
  };

  const setMaster = (v: FileVersion) => void change(v, () => api.setMasterVersion(v.id), `已将版本 V${v.version} 设为主版本`);

  const rollback = (v: FileVersion) => {
    modal.confirm({
      title: '回滚版本',
      content: VERSION_TEXTS.rollbackConfirm(v.version),
      okText: '确定',
      cancelText: '取消',
      onOk: () => change(v, () => api.rollbackVersion(v.fileId, v.id), `已回滚到版本 V${v.version}`),
    });
  };

  const remove = (v: FileVersion) => {
    modal.confirm({
      title: '删除版本',
      content: VERSION_TEXTS.deleteConfirm(v.version),
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: () => change(v, () => api.deleteVersion(v.id), `已删除版本 V${v.version}`),
    });
  };

  const columns: TableColumnsType<FileVersion> = [
    {
      key: 'version',
      title: '版本',
      width: 130,
      render: (_: unknown, v) => (
        <Space size={6}>
          <span>V{v.version}</span>
          {v.isMaster ? <Tag color="blue">{VERSION_TEXTS.master}</Tag> : null}
        </Space>
      ),
    },
    { key: 'size', dataIndex: 'size', title: '大小', width: 100, render: (size: number) => formatBytes(size) },
    { key: 'creator', dataIndex: 'creatorName', title: '创建者', ellipsis: true },
    { key: 'createdAt', dataIndex: 'createdAt', title: '时间', width: 150, render: (v: string) => formatDateTime(v) },
  ];
  const preview = (v: FileVersion) => {
    if (!shown) return;
    void openPreview({ fileId: v.fileId, versionId: v.id, extension: shown.extension, name: `${shown.name}（V${v.version}）` });
  };

  columns.push({
    key: 'actions',
    title: '操作',
    width: editable ? (downloadable ? 320 : 280) : downloadable ? 130 : 80,
    render: (_: unknown, v) => {
      const disabled = busyId !== null;
      return (
        <Space size={0} wrap>
          <Button type="link" size="small" aria-label={`预览版本 V${v.version}`} onClick={() => preview(v)}>
            {VERSION_TEXTS.preview}
          </Button>
          {downloadable ? (
            <Button type="link" size="small" aria-label={`下载版本 V${v.version}`} onClick={() => downloadFile(v.fileId, { versionId: v.id })}>
              {VERSION_TEXTS.download}
            </Button>
          ) : null}
          {editable && !v.isMaster ? (
            <Button type="link" size="small" disabled={disabled} loading={busyId === v.id} onClick={() => setMaster(v)}>
              {VERSION_TEXTS.setMaster}
            </Button>
          ) : null}
          {editable && !v.isMaster ? (
            <Button type="link" size="small" disabled={disabled} onClick={() => rollback(v)}>
              {VERSION_TEXTS.rollback}
            </Button>
          ) : null}
          {editable && !v.isMaster ? (
            <Button type="link" size="small" danger disabled={disabled} onClick={() => remove(v)}>
              {VERSION_TEXTS.delete}
            </Button>
          ) : null}
        </Space>
      );
    },
  });

  return (
    <Drawer open={!!item} title={`历史版本 - ${shown?.name ?? ''}`} size={780} destroyOnHidden onClose={onClose}>
      {state.status === 'error' ? (
        <LoadError message={state.message} onRetry={() => setAttempt((a) => a + 1)} />
      ) : (
        <Table<FileVersion>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={state.versions}
          loading={state.status === 'loading'}
          pagination={false}
          onRow={(v) => ({ 'aria-label': `版本 V${v.version}` })}
          locale={{ emptyText: state.status === 'loading' ? <span /> : <SectionEmpty description="暂无历史版本" /> }}
        />
      )}
    </Drawer>
  );
}
