// 文件动态 of a file or folder in 云文档: who uploaded, changed, shared, downloaded or previewed
// it (for a folder, everything inside it too), newest first, from the operation log. Offered to
// people who manage the item; the server refuses the others.
import { Drawer, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Messages, type Item, type OplogRecord } from '@app/shared';
import { oplogApi } from '@app/shared/admin';
import { LoadError } from '@app/shared/ui';

const PAGE_SIZE = 20;

interface LoadState {
  status: 'loading' | 'ready' | 'error';
  rows: OplogRecord[];
  total: number;
  message?: string;
}

export function ActivityDrawer({ item, onClose }: { item: Item | null; onClose(): void }) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<LoadState>({ status: 'loading', rows: [], total: 0 });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => setPage(1), [item?.id]);
  useEffect(() => {
    if (!item) return;
    let live = true;
    setState((s) => ({ ...s, status: 'loading' }));
    oplogApi
      .getItemActivity(item.id, { page, pageSize: PAGE_SIZE }, { errorMode: 'none' })
      .then((r) => live && setState({ status: 'ready', rows: r.data, total: r.total }))
      .catch((e: unknown) => live && setState({ status: 'error', rows: [], total: 0, message: e instanceof Error && e.message ? e.message : Messages.requestError }));
    return () => {
      live = false;
    };
  }, [item, page, attempt]);

  return (
    <Drawer open={!!item} title={item ? `文件动态：${item.name}` : '文件动态'} size={640} onClose={onClose} destroyOnHidden>
      {state.status === 'error' ? (
        <LoadError message={state.message} onRetry={() => setAttempt((n) => n + 1)} />
      ) : (
        <>
          {item?.type === 'folder' ? <Typography.Paragraph type="secondary">包括文件夹中所有文件和子文件夹的动态。</Typography.Paragraph> : null}
          <Table<OplogRecord>
            size="small"
            rowKey="id"
            aria-label="文件动态"
            loading={state.status === 'loading'}
            dataSource={state.rows}
            locale={{ emptyText: '还没有动态' }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: state.total, showSizeChanger: false, onChange: setPage, showTotal: (n) => `共 ${n} 条` }}
            columns={[
              { title: '时间', dataIndex: 'time', width: 160 },
              { title: '人员', dataIndex: 'userName', width: 110, render: (v: string) => v || '外链访客' },
              {
                title: '操作',
                dataIndex: 'actionName',
                width: 110,
                render: (v: string, r) => (r.result === 'ok' ? v : <Tag color="red" title={r.reason}>{`${v}（失败）`}</Tag>),
              },
              { title: '对象', dataIndex: 'objectName', ellipsis: true, render: (v: string, r) => <span title={r.objectPath}>{v}</span> },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
