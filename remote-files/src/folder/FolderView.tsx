import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { App as AntApp, Breadcrumb, Table, Typography } from 'antd';
import type { TableColumnsType, TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { api, formatBytes, formatDateTime, jumpToFile, LIST_MAX_RENDERED_ITEMS, Messages, notify, useRoles } from '@app/shared';
import type { FolderItems, Item, ItemsQuery, SearchItem } from '@app/shared';
import { LoadError, RemotePage, RowLink, SectionEmpty, useOpenPreview, useRowLinkStyle } from '@app/shared/ui';
import { crumbsOf, routeSegments } from './paths';
import { FileGrid } from './FileGrid';
import { useFirstScreenFirst } from './firstScreen';
import { readListMode, readListSort, saveListMode, saveListSort, type ListMode, type ListSort, type SortField } from './listMode';
import type { FolderActionKey, ItemActionKey } from './itemActions';
import { FolderToolbar } from './FolderToolbar';
import { RowActions } from './RowActions';
import { ItemIcon, opensIn } from './itemView';
import { ListContextMenu } from './ListContextMenu';
import { ItemBadges } from './ItemBadges';
import { useRowPatches } from './rowPatches';
import { useManualSort } from './manualSort';
import { useFocusItem } from './focusItem';
import { FolderSearchResults, useFolderSearch } from '../search/FolderSearch';
import { NameDialog } from '../actions/NameDialog';
import { TransferFlow, type TransferMode } from '../actions/TransferFlow';
import { ShortcutFlow } from '../actions/ShortcutFlow';
import { FolderSizeDialog } from '../actions/FolderSizeDialog';
import { can, DELETE_CONFIRM } from '../actions/permissions';
import { VersionsDrawer } from '../versions';
import { ActivityDrawer } from '../activity/ActivityDrawer';
import { PermissionsDialog } from '../permissions';
import { ShareDialog } from '../share/ShareDialog';
import { SpaceUsage } from './SpaceUsage';
import { FolderTreePane } from '../tree/FolderTree';
import type { TreeRefresh } from '../tree/treeStore';
import { useDropTarget, useUploadsSettled } from '../upload';
import { useDownload } from '../download';
import { useFavoriteActions } from '../favorite/favoriteActions';
import { TagFilesDialog } from '../tag/TagFilesDialog';

export type Space = 'Personal' | 'Public';

/** The list's least width: the fixed columns plus room for the name (a narrower window scrolls it sideways). */
const TABLE_MIN_WIDTH = 800;

/** One page of a folder: the spec's client renders at most 100 rows at a time here. */
export const PAGE_SIZE = 100;

/** Shown for a shortcut whose target is gone or out of the user's reach. */
export const SHORTCUT_GONE = '快捷方式指向的文件或文件夹已不存在或无权访问';

interface QueryState {
  /** the folder the query belongs to: a new folder starts from page 1, unfiltered */
  folderKey: string;
  page: number;
  keyword: string;
}

/** The dialogs and panels an action opens. */
type Panel =
  | { kind: 'create'; type: 'folder' | 'file' }
  | { kind: 'rename'; item: Item }
  | { kind: 'transfer'; mode: TransferMode; items: Item[] }
  | { kind: 'share'; items: Item[] }
  | { kind: 'tags'; items: Item[] }
  | { kind: 'shortcut' | 'size' | 'versions' | 'activity' | 'permissions'; item: Item };

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
  const roles = useRoles();
  const splat = useParams()['*'] ?? '';
  const segments = splat.split('/').filter(Boolean);
  // the space's own path (/file/personal), whatever the route that mounts this view
  const basePath = pathname.slice(0, pathname.length - splat.length).replace(/\/+$/, '');
  const folderKey = segments[segments.length - 1] ?? '';

  const [query, setQuery] = useState<QueryState>({ folderKey, page: 1, keyword: '' });
  const q: QueryState = query.folderKey === folderKey ? query : { folderKey, page: 1, keyword: '' };
  // the text in the search box, which a jump to a file may fill in
  const [search, setSearch] = useState({ folderKey, text: '' });
  const searchText = search.folderKey === folderKey ? search.text : '';
  const [sort, setSort] = useState<ListSort>(readListSort);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const root = useRef<{ space: Space; item: Item } | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const { modal } = AntApp.useApp();
  const [selectedKeys, setSelectedKeys] = useState<string[]>([]);
  const [panel, setPanel] = useState<Panel | null>(null);
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
      if (sort.sortField === 'manual') params.sortField = 'manual';
      else if (sort.sortField && sort.sortOrder) Object.assign(params, { sortField: sort.sortField, sortOrder: sort.sortOrder });
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
  }, [space, folderKey, q.page, sort.sortField, sort.sortOrder, attempt]);

  // rows of an earlier folder are not shown while another one loads
  const shown = state.key === folderKey ? state.data : undefined;
  // 收藏 and 标签 change the rows in place, without loading the page again
  const patches = useRowPatches(shown);
  // the list never renders more than the spec's limit of rows
  const rows = patches.apply((shown?.items.data ?? []).slice(0, LIST_MAX_RENDERED_ITEMS));
  // the first screen's rows first, the rest of the page right after they are painted
  const drawn = useFirstScreenFirst(rows, shown);
  const pathTo = (segs: string[]) => (segs.length ? `${basePath}/${segs.join('/')}` : basePath);

  // a keyword searches the folder's whole subtree; its hits replace the listing (kept on its page)
  const filterBy = (text: string) => {
    setSearch({ folderKey, text });
    setQuery({ ...q, keyword: text.trim() });
    setSelectedKeys([]);
  };
  const found = useFolderSearch(q.keyword, shown?.folder, attempt, () => setSelectedKeys([]));
  const hits = q.keyword ? (patches.apply(found.items) as SearchItem[]) : null;
  const highlightId = useFocusItem({
    folderKey,
    rows: q.keyword ? found.rows : shown?.items.data,
    select: (id) => setSelectedKeys([id]),
    filterBy,
    container: listRef,
    drawn: drawn.length,
  });

  const openPreview = useOpenPreview();
  /** A file's preview, with the files shown around it (the folder's page, or the search hits) for 上一个/下一个. */
  const preview = (item: Item) =>
    void openPreview({ fileId: item.id, extension: item.extension, name: item.name, siblings: hits ?? rows });

  /** Folders open in the list; a file opens its preview; a shortcut opens its target (a file: selected in its folder). */
  const open = (item: Item) => {
    if (item.type === 'file') {
      preview(item);
    } else if (item.type === 'folder') {
      navigate(pathTo(routeSegments(item)));
    } else if (item.type === 'shortcut') {
      if (!item.targetIdPath) {
        notify.warning(SHORTCUT_GONE);
        return;
      }
      jumpToFile({ idPath: item.targetIdPath, type: item.targetType === 'file' ? 'file' : 'folder' }, roles, navigate);
    }
  };

  const selected = (hits ?? rows).filter((r) => selectedKeys.includes(r.id));
  const folder = shown?.folder;
  const download = useDownload();
  useRowLinkStyle();

  // files dropped on the page go to the folder shown, while the user may upload into it
  useDropTarget(folder);
  // uploads that land here (or bring folders) show up once the queue drains
  useUploadsSettled(folder?.id, (event) => {
    reload();
    if (event.withFolders) refreshTree(...event.folderIds);
  });

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

  const favorites = useFavoriteActions((ids, isFavorite) => patches.patch(ids, { isFavorite }));

  const runItemAction = (key: ItemActionKey, items: Item[]) => {
    const [item] = items;
    if (!item) return;
    switch (key) {
      case 'open':
        open(item);
        break;
      case 'preview':
        preview(item);
        break;
      case 'download':
        download(items);
        break;
      case 'share':
        setPanel({ kind: 'share', items });
        break;
      case 'rename':
        setPanel({ kind: 'rename', item });
        break;
      case 'copy':
      case 'move':
        setPanel({ kind: 'transfer', mode: key, items });
        break;
      case 'delete':
        confirmDelete(items);
        break;
      case 'favorite':
        void favorites.favorite(items);
        break;
      case 'unfavorite':
        favorites.unfavorite(items);
        break;
      case 'tag':
        setPanel({ kind: 'tags', items });
        break;
      case 'shortcut':
      case 'size':
      case 'versions':
      case 'activity':
      case 'permissions':
        setPanel({ kind: key, item });
        break;
    }
  };

  const runFolderAction = (key: FolderActionKey) => {
    if (key === 'refresh') {
      reload();
      refreshTree(folder?.id);
    } else {
      setPanel({ kind: 'create', type: key === 'createFolder' ? 'folder' : 'file' });
    }
  };

  // 手动排序: the user may reorder the folder's items when allowed to change the folder (not search hits)
  const arranging = sort.sortField === 'manual' && !!folder && can(folder, 'upload') && !hits;
  const manual = useManualSort(arranging, async (item, target, position) => {
    try {
      await api.setSort(item.id, target.id, position);
    } catch {
      return; // the http client has shown the server's message
    }
    reload();
  });

  const changeSort = (next: ListSort) => {
    setSort(next);
    saveListSort(next);
    setQuery({ ...q, page: 1 });
  };

  const sortOrderOf = (field: SortField) =>
    sort.sortField === field ? (sort.sortOrder === 'asc' ? 'ascend' : 'descend') : null;

  const columns: TableColumnsType<Item> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: '名称',
      sorter: true,
      sortOrder: sortOrderOf('name'),
      ellipsis: true,
      render: (_: unknown, item) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
          <ItemIcon item={item} size={24} />
          {opensIn(item) ? <RowLink onClick={() => open(item)}>{item.name}</RowLink> : <span>{item.name}</span>}
          <ItemBadges item={item} />
        </span>
      ),
    },
    {
      key: 'size',
      dataIndex: 'size',
      title: '大小',
      width: 110,
      sorter: true,
      sortOrder: sortOrderOf('size'),
      render: (_: unknown, item) => (item.type === 'file' ? formatBytes(item.size) : '-'),
    },
    {
      key: 'updatedAt',
      dataIndex: 'updatedAt',
      title: '修改时间',
      width: 170,
      sorter: true,
      sortOrder: sortOrderOf('updatedAt'),
      render: (value: string) => formatDateTime(value),
    },
    // in the personal space every item is the user's own: no 所有者 column
    ...(space === 'Public' ? [{ key: 'ownerName', dataIndex: 'ownerName', title: '所有者', width: 120, ellipsis: true }] : []),
    { key: 'actions', title: '操作', width: 240, render: (_: unknown, item) => <RowActions item={item} onAction={runItemAction} /> },
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
      changeSort(field ? { sortField: field, sortOrder: s.order === 'ascend' ? 'asc' : 'desc' } : {});
    } else if (extra.action === 'paginate') {
      setQuery({ ...q, page: pagination.current ?? 1 });
    }
  };

  /** the props of a row or tile: drag and drop of the manual order, the jump's highlight */
  const itemProps = (item: Item) => {
    const onDoubleClick = (e: MouseEvent<HTMLElement>) => {
      // not on the row's own controls (checkbox, links)
      if (opensIn(item) && !(e.target as Element).closest('a, button, input, label')) open(item);
    };
    const props = { ...manual.rowProps(item), onDoubleClick };
    if (item.id !== highlightId) return props;
    return { ...props, 'data-focused': true, style: { ...props.style, outline: '2px solid #1677ff', outlineOffset: -2 } };
  };

  const crumbs = shown ? crumbsOf(shown.folder) : [];
  const emptyNode = (
    <SectionEmpty description={Messages.noData} note={q.keyword ? `没有名称包含“${q.keyword}”的文件或文件夹` : undefined} />
  );
  const toolbar = (
    <FolderToolbar
      selected={selected}
      folder={folder}
      onItemAction={runItemAction}
      onFolderAction={runFolderAction}
      searchText={searchText}
      onSearchText={(text) => {
        setSearch({ folderKey, text });
        // an emptied box goes back to the folder's listing
        if (!text.trim() && q.keyword) filterBy('');
      }}
      onSearch={filterBy}
      sort={sort}
      onSort={changeSort}
      mode={mode}
      onMode={(next) => {
        setMode(next);
        saveListMode(next);
      }}
    />
  );

  const closePanel = () => setPanel(null);
  const createType = panel?.kind === 'create' ? panel.type : 'folder';

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
          footer={space === 'Personal' ? <SpaceUsage refresh={attempt} /> : null}
        />
        <div ref={listRef} style={{ flex: 1, minWidth: 0 }}>
          {arranging ? (
            <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
              拖动可调整顺序
            </Typography.Text>
          ) : null}
          {state.status === 'error' ? (
            <LoadError message={state.message} onRetry={() => setAttempt((a) => a + 1)} />
          ) : (
            <ListContextMenu
              rows={hits ?? rows}
              selectedKeys={selectedKeys}
              onSelect={setSelectedKeys}
              folder={folder}
              onItemAction={runItemAction}
              onFolderAction={runFolderAction}
            >
              {hits ? (
                <FolderSearchResults
                  found={found}
                  rows={hits}
                  rowSelection={{
                    selectedRowKeys: selectedKeys,
                    onChange: (keys) => setSelectedKeys(keys.map(String)),
                    getTitleCheckboxProps: () => ({ 'aria-label': '全选' }),
                    getCheckboxProps: (item) => ({ 'aria-label': `选择 ${item.name}` }),
                  }}
                  onRow={itemProps}
                  renderActions={(item) => <RowActions item={item} onAction={runItemAction} />}
                  onOpened={() => filterBy('')}
                />
              ) : mode === 'grid' ? (
                <FileGrid
                  items={drawn}
                  loading={state.status === 'loading'}
                  selectedKeys={selectedKeys}
                  onSelect={setSelectedKeys}
                  onOpen={open}
                  empty={emptyNode}
                  page={q.page}
                  pageSize={PAGE_SIZE}
                  total={shown?.items.total ?? 0}
                  onPage={(p) => setQuery({ ...q, page: p })}
                  tileProps={itemProps}
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
                  onRow={itemProps}
                  // the name keeps a readable width: a narrow window scrolls the table sideways
                  scroll={{ x: TABLE_MIN_WIDTH }}
                  size="middle"
                  columns={columns}
                  dataSource={drawn}
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
            </ListContextMenu>
          )}
        </div>
      </div>
      <NameDialog
        open={panel?.kind === 'create'}
        title={createType === 'folder' ? '新建文件夹' : '新建文件'}
        label={createType === 'folder' ? '文件夹名称' : '文件名称'}
        onCancel={closePanel}
        onSubmit={async (name) => {
          if (!folder) return;
          await api.createFile({ parentId: folder.id, name, type: createType });
          notify.success('新建成功');
          closePanel();
          reload();
          if (createType === 'folder') refreshTree(folder.id);
        }}
      />
      <NameDialog
        open={panel?.kind === 'rename'}
        title="重命名"
        label="名称"
        initialValue={panel?.kind === 'rename' ? panel.item.name : ''}
        onCancel={closePanel}
        onSubmit={async (name) => {
          if (panel?.kind !== 'rename') return;
          if (name !== panel.item.name) {
            await api.renameFile(panel.item.id, name);
            notify.success('重命名成功');
            reload();
            if (panel.item.type === 'folder') refreshTree(folder?.id);
          }
          closePanel();
        }}
      />
      {panel?.kind === 'transfer' ? (
        <TransferFlow
          mode={panel.mode}
          items={panel.items}
          onClose={closePanel}
          onDone={(targetId) => {
            closePanel();
            reload();
            if (hasFolder(panel.items)) refreshTree(panel.mode === 'move' ? folder?.id : undefined, targetId);
          }}
        />
      ) : null}
      {panel?.kind === 'shortcut' ? (
        <ShortcutFlow
          item={panel.item}
          onClose={closePanel}
          onDone={(parentId) => {
            closePanel();
            if (parentId === folder?.id) reload();
          }}
        />
      ) : null}
      {panel?.kind === 'size' ? <FolderSizeDialog folder={panel.item} onClose={closePanel} /> : null}
      <VersionsDrawer item={panel?.kind === 'versions' ? panel.item : null} onClose={closePanel} onChanged={reload} />
      <ActivityDrawer item={panel?.kind === 'activity' ? panel.item : null} onClose={closePanel} />
      <PermissionsDialog item={panel?.kind === 'permissions' ? panel.item : null} onClose={closePanel} onSaved={reload} />
      <ShareDialog items={panel?.kind === 'share' ? panel.items : null} onClose={closePanel} />
      <TagFilesDialog
        items={panel?.kind === 'tags' ? panel.items : null}
        onClose={closePanel}
        onDone={(added, removedIds) =>
          patches.patch(
            (panel?.kind === 'tags' ? panel.items : []).map((i) => i.id),
            (i) => ({ tags: [...(i.tags ?? []).filter((t) => !removedIds.includes(t.id) && !added.some((a) => a.id === t.id)), ...added] }),
          )
        }
      />
    </RemotePage>
  );
}
