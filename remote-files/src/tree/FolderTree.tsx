// The folder tree beside 云文档's file list (personal and enterprise files): the space's
// folders, loaded level by level (FolderTree for the first levels, TreeNodes on expand), the
// current folder highlighted with its ancestors expanded, in a pane the user can resize.
import { useEffect, useMemo, useRef, useState, type Key, type KeyboardEvent, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { Button, Spin, Tree, Typography } from 'antd';
import { FolderOpenOutlined, FolderOutlined } from '@ant-design/icons';
import type { TreeDataNode } from 'antd';
import { api, type TreeNode } from '@app/shared';
import type { Space } from '../folder/FolderView';
import {
  clampTreeWidth,
  readTreeSession,
  readTreeWidth,
  saveTreeSession,
  saveTreeWidth,
  TREE_MAX_WIDTH,
  TREE_MIN_WIDTH,
  type TreeRefresh,
} from './treeStore';
import { addNodes, EMPTY_TREE, type TreeState } from '@app/shared/ui';

function fromFolderTree(list: TreeNode[]): TreeState {
  const ids = new Set(list.map((n) => n.id));
  const roots = list.filter((n) => !n.parentId || !ids.has(n.parentId)).map((n) => n.id);
  let next = addNodes(EMPTY_TREE, list);
  next = { ...next, roots };
  // the children FolderTree lists are complete for the folders they belong to
  const parents = new Set(list.map((n) => n.parentId).filter((p): p is string => !!p && ids.has(p)));
  for (const r of roots) parents.add(r);
  for (const p of parents) next = addNodes(next, list, p);
  return next;
}

export interface FolderTreeProps {
  space: Space;
  /**
   * the route segments of the folder shown (its idPath: space type, root id, … , folder id);
   * empty for the space's root
   */
  segments: string[];
  /** a new `seq` reloads the child folders of `ids` */
  refresh: TreeRefresh;
  /** a folder picked in the tree; `isRoot` for the space's root folder */
  onOpen: (node: TreeNode, isRoot: boolean) => void;
}

/** The folder ids of a route, from the root: the space-type segment in front is dropped. */
const folderIdsOf = (segments: string[]) => (segments.length > 1 ? segments.slice(1) : segments);

export function FolderTree({ space, segments, refresh, onOpen }: FolderTreeProps) {
  const stored = useMemo(() => readTreeSession(space), [space]);
  const [tree, setTree] = useState<TreeState>(EMPTY_TREE);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [attempt, setAttempt] = useState(0);
  const [expanded, setExpanded] = useState<string[]>(() => stored?.expandedKeys ?? []);
  const treeRef = useRef(tree);
  treeRef.current = tree;
  const inFlight = useRef(new Set<string>());
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  useEffect(() => {
    let current = true;
    setStatus('loading');
    api
      .getFolderTree(space)
      .then((list) => {
        if (!current) return;
        const next = fromFolderTree(list);
        setTree(next);
        setStatus('ready');
        // a first visit opens the root level
        if (!stored?.expandedKeys.length) setExpanded((e) => Array.from(new Set([...e, ...next.roots])));
      })
      .catch(() => {
        if (current) setStatus('error');
      });
    return () => {
      current = false;
    };
  }, [space, attempt, stored]);

  /** Loads the child folders of `id` (again when `force`). */
  const loadChildren = async (id: string, force = false) => {
    if (!force && (treeRef.current.children[id] || inFlight.current.has(id))) return;
    inFlight.current.add(id);
    try {
      const list = await api.getTreeNodes(id);
      if (live.current) setTree((t) => addNodes(t, list.map((n) => ({ ...n, parentId: n.parentId ?? id })), id));
    } catch {
      /* shown by the http client */
    } finally {
      inFlight.current.delete(id);
    }
  };

  const folderIds = folderIdsOf(segments);
  const rootId = tree.roots[0];
  const currentId = folderIds[folderIds.length - 1] ?? rootId ?? stored?.current ?? null;
  const routeKey = folderIds.join('/');

  // navigating (list, breadcrumb, tree) opens the ancestors of the folder shown
  useEffect(() => {
    const ancestors = folderIds.slice(0, -1);
    if (!ancestors.length) return;
    setExpanded((e) => (ancestors.every((a) => e.includes(a)) ? e : Array.from(new Set([...e, ...ancestors]))));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [routeKey]);

  // expanded folders (restored, or opened for the current folder) get their children
  useEffect(() => {
    for (const id of expanded) {
      const node = tree.nodes[id];
      if (node && node.hasChildren && !tree.children[id]) void loadChildren(id);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [expanded, tree]);

  useEffect(() => {
    saveTreeSession(space, { expandedKeys: expanded, current: currentId });
  }, [space, expanded, currentId]);

  // the list changed folders: reload the affected levels only
  const lastSeq = useRef(refresh.seq);
  useEffect(() => {
    if (refresh.seq === lastSeq.current) return;
    lastSeq.current = refresh.seq;
    for (const id of new Set(refresh.ids)) if (treeRef.current.nodes[id]) void loadChildren(id, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refresh]);

  const treeData = useMemo(() => {
    const build = (id: string): TreeDataNode => {
      const node = tree.nodes[id];
      const kids = tree.children[id];
      return {
        key: id,
        title: node.name,
        isLeaf: kids ? kids.length === 0 : !node.hasChildren,
        children: kids?.map(build),
      };
    };
    return tree.roots.filter((id) => tree.nodes[id]).map(build);
  }, [tree]);

  const height = useViewportHeight(TREE_VERTICAL_OFFSET);
  if (status === 'loading' && !tree.roots.length) return <Spin size="small" style={{ margin: 16 }} />;
  if (status === 'error') {
    return (
      <div style={{ padding: 8 }}>
        <Typography.Text type="danger">文件夹加载失败</Typography.Text>{' '}
        <Button type="link" size="small" onClick={() => setAttempt((a) => a + 1)}>
          重试
        </Button>
      </div>
    );
  }
  return (
    <Tree.DirectoryTree
      // a fixed height makes antd render only the visible nodes: a folder of thousands of
      // subfolders expands as fast as one of ten
      height={height}
      aria-label="文件夹树"
      blockNode
      // every node is a folder, also one without subfolders (DirectoryTree draws leaves as files)
      icon={(props: { expanded?: boolean }) => (props.expanded ? <FolderOpenOutlined /> : <FolderOutlined />)}
      expandAction="doubleClick"
      treeData={treeData}
      expandedKeys={expanded}
      selectedKeys={currentId ? [currentId] : []}
      onExpand={(keys) => setExpanded(keys.map(String))}
      loadData={({ key }: { key: Key }) => loadChildren(String(key))}
      onSelect={(_keys, info) => {
        const id = String(info.node.key);
        const node = tree.nodes[id];
        if (node) onOpen(node, tree.roots.includes(id));
      }}
    />
  );
}

/** What the page keeps above and below the tree pane, in pixels. */
const TREE_VERTICAL_OFFSET = 160;

/** The window's height less `offset`, following resizes. */
function useViewportHeight(offset: number): number {
  const read = () => Math.max(200, (typeof window === 'undefined' ? 800 : window.innerHeight) - offset);
  const [height, setHeight] = useState(read);
  useEffect(() => {
    const onResize = () => setHeight(read());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [offset]);
  return height;
}

export interface FolderTreePaneProps extends FolderTreeProps {
  /** shown under the tree (the personal space's usage) */
  footer?: ReactNode;
}

/** The tree in a left pane with a splitter (180–480 px, the width kept in local storage). */
export function FolderTreePane(props: FolderTreePaneProps) {
  const [width, setWidth] = useState(readTreeWidth);
  const drag = useRef<{ move: (e: MouseEvent) => void; up: () => void } | null>(null);

  const stopDrag = () => {
    if (!drag.current) return;
    window.removeEventListener('mousemove', drag.current.move);
    window.removeEventListener('mouseup', drag.current.up);
    drag.current = null;
  };
  useEffect(() => stopDrag, []);

  const startDrag = (e: ReactMouseEvent) => {
    e.preventDefault();
    stopDrag();
    const startX = e.clientX;
    const startWidth = width;
    let last = startWidth;
    const move = (ev: MouseEvent) => {
      last = clampTreeWidth(startWidth + ev.clientX - startX);
      setWidth(last);
    };
    const up = () => {
      stopDrag();
      saveTreeWidth(last);
    };
    drag.current = { move, up };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowLeft' ? -16 : e.key === 'ArrowRight' ? 16 : 0;
    if (!step) return;
    e.preventDefault();
    const next = clampTreeWidth(width + step);
    setWidth(next);
    saveTreeWidth(next);
  };

  return (
    <>
      <aside
        aria-label="文件夹目录"
        style={{ width, flex: 'none', overflowX: 'auto', overflowY: 'hidden', paddingRight: 4 }}
      >
        <FolderTree {...props} />
        {props.footer}
      </aside>
      <div
        role="separator"
        aria-label="调整目录宽度"
        aria-orientation="vertical"
        aria-valuemin={TREE_MIN_WIDTH}
        aria-valuemax={TREE_MAX_WIDTH}
        aria-valuenow={width}
        tabIndex={0}
        onMouseDown={startDrag}
        onKeyDown={onKeyDown}
        style={{ flex: 'none', width: 6, cursor: 'col-resize', alignSelf: 'stretch', borderLeft: '1px solid rgba(5, 5, 5, 0.06)', marginRight: 12 }}
      />
    </>
  );
}
