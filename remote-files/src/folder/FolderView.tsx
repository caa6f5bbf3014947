import { useEffect, useRef, useState } from 'react';
import { App as AntApp, Breadcrumb, Button, Input, Segmented, Space as AntSpace, Table, Typography } from 'antd';
import type { TableColumnsType, TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { AppstoreOutlined, BarsOutlined, CopyOutlined, DeleteOutlined, DragOutlined, EditOutlined, FolderAddOutlined, ReloadOutlined } from '@ant-design/icons';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { api, formatBytes, formatDateTime, Messages, notify } from '@app/shared';
import type { FolderItems, Item, ItemsQuery } from '@app/shared';
import { FileIcon, LoadError, RemotePage, SectionEmpty } from '@app/shared/ui';
import { crumbsOf, routeSegments } from './paths';
import { FileGrid } from './FileGrid';
import { readListMode, saveListMode, type ListMode } from './listMode';
import { NameDialog } from '../actions/NameDialog';
import { TRANSFER_TITLES, TransferFlow, type TransferMode } from '../actions/TransferFlow';
import { can, canAll, DELETE_CONFIRM } from '../actions/permissions';
import { FolderTreePane } from '../tree/FolderTree';
import type { TreeRefresh } from '../tree/treeStore';

export type Space = 'Personal' | 'Public';

/** One page of a folder: the spec's client renders at most 100 rows at a time here. */
export const PAGE_SIZE = 100;

type SortField = 'name' | 'size' | 'updatedAt';

interface QueryState {
  /** the folder the query belongs to: a new folder starts from page 1, unsorted */
  folderKey: string;
  page: number;
  sortField?: SortField;
  sortOrder?: 'asc' | 'desc';
  keyword: string;
}

/** `key`: the folder (path segment, '' for the root) that `data` was loaded for. */
interface LoadState {
  status: 'loading' | 'ready' | 'error';
  key?: string;
  data?: FolderItems;
  message?: string;
}

const errorMessage = (e: unknown) => (e instanceof Error && e.message ? e.message : Messages.requestError);

/**
 * The folder view of personal or enterprise files: the folder whose id is the last segment
 * of the path after the space's base path, or the space's root folder.
 */
export function FolderView({ space, title }: { space: Space; title: string }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const splat = useParams()['*'] ?? '';
  const segments = splat.split('/').filter(Boolean);
  // the space's own path (/file/personal), whatever the route that mounts this view
  const basePath = pathname.slice(0, pathname.length - splat.length).replace(/\/+$/, '');
  const folderKey = segments[segments.length - 1] ?? '';

  const [query, setQuery] = useState<QueryState>({ folderKey, page: 1, keyword: '' });
  const q: QueryState = query.folderKey === folderKey ? query : { folderKey, page: 1, keyword: '' };
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const root = useRef<{ space: Space; item: Item } | null>(null);
  const { modal } = AntApp.useApp();
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'rename'; item: Item } | null>(null);
  const [transfer, setTransfer] = useState<{ mode: TransferMode; items: Item[] } | null>(null);
  const reload = () => setAttempt((a) => a + 1);
  const [mode, setMode] = useState<ListMode>(readListMode);
  // the folder tree reloads only the folders whose child folders an action changed
  const [treeRefresh, setTreeRefresh] = useState<TreeRefresh>({ seq: 0, ids: [] });
  const refreshTree = (...ids: (string | undefined | null)[]) => {
    const list = ids.filter((id): id is string => !!id);
    if (list.length) setTreeRefresh((r) => ({ seq: r.seq + 1, ids: list }));
  };
  const hasFolder = (items: Item[]) => items.some((i) => i.type === 'folder');

  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, status: 'loading', message: undefined }));
    (async () => {
      if (root.current?.space !== space) {
        const roots = await api.getRootFolders(space);
        if (!roots.length) throw new Error('未找到根文件夹');
        root.current = { space, item: roots[0] };
      }
      const parentId = folderKey || root.current.item.id;
      const params: ItemsQuery = { page: q.page, pageSize: PAGE_SIZE };
      if (q.sortField && q.sortOrder) Object.assign(params, { sortField: q.sortField, sortOrder: q.sortOrder });
      if (q.keyword) params.keyword = q.keyword;
      const data = await api.getItems(parentId, params);
      if (live) {
        setState({ status: 'ready', key: folderKey, data });
        setSelectedKeys([]);
      }
    })().catch((e: unknown) => {
      if (live) setState((s) => ({ ...s, status: 'error', message: errorMessage(e) }));
    });
    return () => {
      live = false;
    };
  }, [space, folderKey, q.page, q.sortField, q.sortOrder, q.keyword, attempt]);

  // rows of an earlier folder are not shown while another one loads
  const shown = state.key === folderKey ? state.data : undefined;
  const rows = shown?.items.data ?? [];
  const pathTo = (segs: string[]) => (segs.length ? `${basePath}/${segs.join('/')}` : basePath);
  const open = (item: Item) => navigate(pathTo(routeSegments(item)));

  const selected = rows.filter((r) => selectedKeys.includes(r.id));
  const folder = shown?.folder;

  const confirmDelete = (items: Item[]) => {
    if (!items.length) return;
    modal.confirm({
      ...DELETE_CONFIRM,
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await api.deleteFiles(items.map((i) => i.id));
        } catch {
          return; // the http client has shown the server's message
        }
        notify.success('删除成功');
        reload();
        if (hasFolder(items)) refreshTree(folder?.id);
      },
    });
  };

  const rowActions = (item: Item) => {
    const links: { key: string; label: string; onClick: () => void }[] = [];
    if (can(item, 'rename')) links.push({ key: 'rename', label: '重命名', onClick: () => setDialog({ kind: 'rename', item }) });
    if (can(item, 'move')) links.push({ key: 'move', label: '移动到', onClick: () => setTransfer({ mode: 'move', items: [item] }) });
    if (can(item, 'copy')) links.push({ key: 'copy', label: '复制到', onClick: () => setTransfer({ mode: 'copy', items: [item] }) });
    if (can(item, 'delete')) links.push({ key: 'delete', label: '删除', onClick: () => confirmDelete([item]) });
    return links;
  };

  const sortOrderOf = (field: SortField) =>
    q.sortField === field ? (q.sortOrder === 'asc' ? 'ascend' : 'descend') : null;

  const columns: TableColumnsType<Item> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: '名称',
      sorter: true,
      sortOrder: sortOrderOf('name'),
      ellipsis: true,
      render: (_: unknown, item) => {
        const isFolder = item.type === 'folder';
        return (
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
            <FileIcon folder={isFolder} extension={item.extension} name={item.name} size={24} />
            {isFolder ? (
              <Typography.Link onClick={() => open(item)}>{item.name}</Typography.Link>
            ) : (
              <span>{item.name}</span>
            )}
          </span>
        );
      },
    },
    {
      key: 'size',
      dataIndex: 'size',
      title: '大小',
      width: 120,
      sorter: true,
      sortOrder: sortOrderOf('size'),
      render: (_: unknown, item) => (item.type === 'folder' ? '-' : formatBytes(item.size)),
    },
    {
      key: 'updatedAt',
      dataIndex: 'updatedAt',
      title: '修改时间',
      width: 180,
      sorter: true,
      sortOrder: sortOrderOf('updatedAt'),
      render: (value: string) => formatDateTime(value),
    },
    { key: 'ownerName', dataIndex: 'ownerName', title: '所有者', width: 160, ellipsis: true },
    {
      key: 'actions',
      title: '操作',
      width: 240,
      render: (_: unknown, item) => (
        <AntSpace size={12} wrap>
          {rowActions(item).map((a) => (
            <Typography.Link key={a.key} onClick={a.onClick} aria-label={`${a.label} ${item.name}`}>
              {a.label}
            </Typography.Link>
          ))}
        </AntSpace>
      ),
    },
  ];

  const onTableChange = (
    pagination: TablePaginationConfig,
    _filters: unknown,
    sorter: SorterResult<Item> | SorterResult<Item>[],
    extra: { action: string },
  ) => {
    if (extra.action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const field = (s?.order ? (s.columnKey ?? s.field) : undefined) as SortField | undefined;
      setQuery({
        ...q,
        page: 1,
        sortField: field,
        sortOrder: field ? (s.order === 'ascend' ? 'asc' : 'desc') : undefined,
      });
    } else if (extra.action === 'paginate') {
      setQuery({ ...q, page: pagination.current ?? 1 });
    }
  };

  const crumbs = shown ? crumbsOf(shown.folder) : [];
  const emptyNode = (
    <SectionEmpty description={Messages.noData} note={q.keyword ? `没有名称包含“${q.keyword}”的文件或文件夹` : undefined} />
  );
  const toolbar = (
    <>
      {selected.length ? (
        <>
          <Typography.Text type="secondary">已选 {selected.length} 项</Typography.Text>
          <Button icon={<DragOutlined />} disabled={!canAll(selected, 'move')} onClick={() => setTransfer({ mode: 'move', items: selected })}>
            {TRANSFER_TITLES.move}
          </Button>
          <Button icon={<CopyOutlined />} disabled={!canAll(selected, 'copy')} onClick={() => setTransfer({ mode: 'copy', items: selected })}>
            {TRANSFER_TITLES.copy}
          </Button>
          {selected.length === 1 && can(selected[0], 'rename') ? (
            <Button icon={<EditOutlined />} onClick={() => setDialog({ kind: 'rename', item: selected[0] })}>
              重命名
            </Button>
          ) : null}
          <Button danger icon={<DeleteOutlined />} disabled={!canAll(selected, 'delete')} onClick={() => confirmDelete(selected)}>
            删除
          </Button>
        </>
      ) : null}
      {folder && can(folder, 'createFolder') ? (
        <Button type="primary" icon={<FolderAddOutlined />} onClick={() => setDialog({ kind: 'create' })}>
          新建文件夹
        </Button>
      ) : null}
      <Input.Search
        key={folderKey}
        allowClear
        placeholder="搜索当前文件夹"
        aria-label="搜索当前文件夹"
        style={{ width: 240 }}
        onSearch={(value) => setQuery({ ...q, page: 1, keyword: value.trim() })}
      />
      <Button
        icon={<ReloadOutlined />}
        onClick={() => {
          reload();
          refreshTree(folder?.id);
        }}
      >
        刷新
      </Button>
      <Segmented<ListMode>
        aria-label="显示方式"
        value={mode}
        onChange={(next) => {
          setMode(next);
          saveListMode(next);
        }}
        options={[
          { value: 'list', icon: <BarsOutlined />, label: '列表' },
          { value: 'grid', icon: <AppstoreOutlined />, label: '宫格' },
        ]}
      />
    </>
  );

  return (
    <RemotePage
      title={title}
      extra={toolbar}
      nav={
        crumbs.length ? (
          <Breadcrumb
            aria-label="当前位置"
            items={crumbs.map((c, i) => ({
              key: c.id,
              title: i === crumbs.length - 1 ? <span aria-current="page">{c.name}</span> : <Link to={pathTo(c.segments)}>{c.name}</Link>,
            }))}
          />
        ) : null
      }
    >
      <div style={{ display: 'flex', alignItems: 'stretch', minWidth: 0 }}>
        <FolderTreePane
          space={space}
          segments={segments}
          refresh={treeRefresh}
          onOpen={(node, isRoot) => navigate(isRoot ? basePath : pathTo(routeSegments(node)))}
        />
        <div style={{ flex: 1, minWidth: 0 }}>
          {state.status === 'error' ? (
            <LoadError message={state.message} onRetry={() => setAttempt((a) => a + 1)} />
          ) : mode === 'grid' ? (
            <FileGrid
              items={rows}
              loading={state.status === 'loading'}
              selectedKeys={selectedKeys}
              onSelect={setSelectedKeys}
              onOpen={open}
              empty={emptyNode}
              page={q.page}
              pageSize={PAGE_SIZE}
              total={shown?.items.total ?? 0}
              onPage={(p) => setQuery({ ...q, page: p })}
            />
          ) : (
            <Table<Item>
              rowKey="id"
              rowSelection={{
                selectedRowKeys: selectedKeys,
                onChange: (keys) => setSelectedKeys(keys.map(String)),
                getTitleCheckboxProps: () => ({ 'aria-label': '全选' }),
                getCheckboxProps: (item) => ({ 'aria-label': `选择 ${item.name}` }),
              }}
              size="middle"
              columns={columns}
              dataSource={rows}
              loading={state.status === 'loading'}
              onChange={onTableChange}
              locale={{
                emptyText: state.status === 'loading' ? <span /> : emptyNode,
              }}
              pagination={{
                current: q.page,
                pageSize: PAGE_SIZE,
                total: shown?.items.total ?? 0,
                showSizeChanger: false,
                showTotal: (total) => `共 ${total} 项`,
              }}
            />
          )}
        </div>
      </div>
      <NameDialog
        open={dialog?.kind === 'create'}
        title="新建文件夹"
        label="文件夹名称"
        onCancel={() => setDialog(null)}
        onSubmit={async (name) => {
          if (!folder) return;
          await api.createFile({ parentId: folder.id, name, type: 'folder' });
          notify.success('新建成功');
          setDialog(null);
          reload();
          refreshTree(folder.id);
        }}
      />
      <NameDialog
        open={dialog?.kind === 'rename'}
        title="重命名"
        label="名称"
        initialValue={dialog?.kind === 'rename' ? dialog.item.name : ''}
        onCancel={() => setDialog(null)}
        onSubmit={async (name) => {
          if (dialog?.kind !== 'rename') return;
          if (name !== dialog.item.name) {
            await api.renameFile(dialog.item.id, name);
            notify.success('重命名成功');
            reload();
            if (dialog.item.type === 'folder') refreshTree(folder?.id);
          }
          setDialog(null);
        }}
      />
      {transfer ? (
        <TransferFlow
          mode={transfer.mode}
          items={transfer.items}
          onClose={() => setTransfer(null)}
          onDone={(targetId) => {
            setTransfer(null);
            reload();
            if (hasFolder(transfer.items)) refreshTree(transfer.mode === 'move' ? folder?.id : undefined, targetId);
          }}
        />
      ) : null}
    </RemotePage>
  );
}
