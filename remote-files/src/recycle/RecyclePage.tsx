// The recycle bin of 云文档 (/file/recycle): deleted items, newest first, paged on the
// server; restore them to their original folder or purge them for good.
import { useEffect, useState } from 'react';
import { App as AntApp, Button, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DeleteOutlined, ReloadOutlined, UndoOutlined } from '@ant-design/icons';
import { api, formatBytes, formatDateTime, Messages, notify, type Paged, type RecycleItem } from '@app/shared';
import { FileIcon, LoadError, RemotePage, SectionEmpty } from '@app/shared/ui';

export const RECYCLE_PAGE_SIZE = 50;
export const PURGE_CONFIRM = {
  title: '彻底删除',
  content: '确定彻底删除选中的文件（夹）吗？此操作不可恢复。',
  okText: '彻底删除',
} as const;

interface LoadState {
  status: 'loading' | 'ready' | 'error';
  data?: Paged<RecycleItem>;
  message?: string;
}

const errorMessage = (e: unknown) => (e instanceof Error && e.message ? e.message : Messages.requestError);

export function RecyclePage({ title = '回收站' }: { title?: string }) {
  const { modal } = AntApp.useApp();
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const reload = () => setAttempt((a) => a + 1);

  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, status: 'loading', message: undefined }));
    api
      .getRecycle({ page, pageSize: RECYCLE_PAGE_SIZE })
      .then((data) => {
        if (!live) return;
        // a page emptied by the last restore or purge: go back one
        if (!data.data.length && page > 1 && data.total > 0) {
          setPage((p) => p - 1);
          return;
        }
        setState({ status: 'ready', data });
        setSelectedKeys([]);
      })
      .catch((e: unknown) => {
        if (live) setState((s) => ({ ...s, status: 'error', message: errorMessage(e) }));
      });
    return () => {
      live = false;
    };
  }, [page, attempt]);

  const restore = async () => {
    if (!selectedKeys.length) return;
    setBusy(true);
    try {
      await api.restoreRecycle(selectedKeys);
      notify.success('还原成功');
      reload();
    } catch {
      /* the http client has shown the server's message */
    } finally {
      setBusy(false);
    }
  };

  const purge = () => {
    const ids = selectedKeys;
    if (!ids.length) return;
    modal.confirm({
      ...PURGE_CONFIRM,
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await api.purgeRecycle(ids);
        } catch {
          return; // shown by the http client
        }
        notify.success('彻底删除成功');
        reload();
      },
    });
  };

  const columns: TableColumnsType<RecycleItem> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: '名称',
      ellipsis: true,
      render: (_: unknown, item) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
          <FileIcon folder={item.type === 'folder'} extension={item.extension} name={item.name} size={24} />
          <span>{item.name}</span>
        </span>
      ),
    },
    {
      key: 'size',
      dataIndex: 'size',
      title: '大小',
      width: 110,
      render: (_: unknown, item) => (item.type === 'folder' ? '-' : formatBytes(item.size)),
    },
    { key: 'originalPath', dataIndex: 'originalPath', title: '原位置', ellipsis: true },
    { key: 'deletedAt', dataIndex: 'deletedAt', title: '删除时间', width: 170, render: (v: string) => formatDateTime(v) },
    { key: 'expiresAt', dataIndex: 'expiresAt', title: '过期时间', width: 170, render: (v: string) => formatDateTime(v) },
  ];

  const toolbar = (
    <>
      {selectedKeys.length ? <Typography.Text type="secondary">已选 {selectedKeys.length} 项</Typography.Text> : null}
      <Button icon={<UndoOutlined />} disabled={!selectedKeys.length} loading={busy} onClick={() => void restore()}>
        还原
      </Button>
      <Button danger icon={<DeleteOutlined />} disabled={!selectedKeys.length || busy} onClick={purge}>
        彻底删除
      </Button>
      <Button icon={<ReloadOutlined />} onClick={reload}>
        刷新
      </Button>
    </>
  );

  return (
    <RemotePage title={title} extra={toolbar}>
      {state.status === 'error' ? (
        <LoadError message={state.message} onRetry={reload} />
      ) : (
        <>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            删除的文件（夹）在回收站保留至过期时间，过期后将被自动彻底删除。
          </Typography.Paragraph>
          <Table<RecycleItem>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={state.data?.data ?? []}
            loading={state.status === 'loading'}
            rowSelection={{
              selectedRowKeys: selectedKeys,
              onChange: (keys) => setSelectedKeys(keys.map(String)),
              getTitleCheckboxProps: () => ({ 'aria-label': '全选' }),
              getCheckboxProps: (item) => ({ 'aria-label': `选择 ${item.name}` }),
            }}
            locale={{ emptyText: state.status === 'loading' ? <span /> : <SectionEmpty description="回收站为空" /> }}
            pagination={{
              current: page,
              pageSize: RECYCLE_PAGE_SIZE,
              total: state.data?.total ?? 0,
              showSizeChanger: false,
              showTotal: (total) => `共 ${total} 项`,
              onChange: (p) => setPage(p),
            }}
          />
        </>
      )}
    </RemotePage>
  );
}
