// The pickers over the user's spaces (personal and enterprise files). Both browse one lazily
// loaded folder tree that starts from the spaces' roots (FolderTree) and loads deeper folders on
// expand (TreeNodes):
// - FolderPicker picks one folder (移动到 / 复制到 / 创建快捷方式 in remote-files);
// - FilePicker picks files: the folder chosen in the tree lists its files beside it, with a
//   box each, up to `max` of them (an approval's 附件).
import { useEffect, useMemo, useState, type Key } from 'react';
import { Checkbox, Empty, Pagination, Spin, Tag, Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import { api, formatBytes, useRoles, type Item, type TreeNode } from '@app/shared';
import { AppDialog } from '../AppDialog';
import { FileIcon } from './FileIcon';
import { addNodes, EMPTY_TREE, type TreeState } from './folderTree';

type LoadStatus = 'loading' | 'ready' | 'error';

/** The folder tree of the spaces the user's roles allow, loaded while `open`. */
function useSpaceFolderTree(open: boolean, disabledIds: string[] = []) {
  const roles = useRoles();
  const [tree, setTree] = useState<TreeState>(EMPTY_TREE);
  const [status, setStatus] = useState<LoadStatus>('loading');
  const personal = roles?.personalSpace !== false;
  const enterprise = roles?.publicSpace !== false;

  useEffect(() => {
    if (!open) return;
    let live = true;
    setTree(EMPTY_TREE);
    setStatus('loading');
    const spaces = [personal && ('Personal' as const), enterprise && ('Public' as const)].filter(Boolean) as ('Personal' | 'Public')[];
    Promise.all(spaces.map((s) => api.getFolderTree(s)))
      .then((lists) => {
        if (!live) return;
        let next: TreeState = EMPTY_TREE;
        for (const list of lists) {
          const ids = new Set(list.map((n) => n.id));
          const roots = list.filter((n) => !n.parentId || !ids.has(n.parentId));
          next = addNodes(next, list);
          next = { ...next, roots: [...next.roots, ...roots.map((r) => r.id)] };
          for (const r of roots) next = addNodes(next, list, r.id);
        }
        setTree(next);
        setStatus('ready');
      })
      .catch(() => {
        if (live) setStatus('error');
      });
    return () => {
      live = false;
    };
  }, [open, personal, enterprise]);

  const disabledKey = disabledIds.join(',');
  const treeData = useMemo(() => {
    const build = (id: string): TreeDataNode => {
      const node = tree.nodes[id];
      const kids = tree.children[id];
      return {
        key: id,
        title: node.name,
        icon: <FileIcon folder size={16} />,
        isLeaf: kids ? kids.length === 0 : !node.hasChildren,
        disabled: disabledIds.includes(id),
        children: kids?.map(build),
      };
    };
    return tree.roots.map(build);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tree, disabledKey]);

  const loadData = async ({ key }: { key: Key }) => {
    const id = String(key);
    if (tree.children[id]) return;
    try {
      const list = await api.getTreeNodes(id);
      setTree((t) => addNodes(t, list.map((n) => ({ ...n, parentId: n.parentId ?? id })), id));
    } catch {
      /* shown by the http client */
    }
  };

  return { tree, status, treeData, loadData };
}

function TreeStatus({ status }: { status: LoadStatus }) {
  return status === 'loading' ? <Spin /> : <Typography.Text type="danger">文件夹加载失败</Typography.Text>;
}

export interface FolderPickerProps {
  open: boolean;
  title: string;
  /** folders that cannot be the target (the folders being moved) */
  disabledIds?: string[];
  /** a rejection keeps the picker open */
  onOk: (target: TreeNode) => Promise<unknown>;
  onCancel: () => void;
}

/** Picks one folder of the user's spaces. */
export function FolderPicker({ open, title, disabledIds = [], onOk, onCancel }: FolderPickerProps) {
  const { tree, status, treeData, loadData } = useSpaceFolderTree(open, disabledIds);
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => {
    if (open) setSelected(null);
  }, [open]);

  const submit = async () => {
    const target = selected ? tree.nodes[selected] : undefined;
    if (!target) return;
    try {
      await onOk(target);
    } catch {
      /* shown by the http client; the picker stays open */
    }
  };

  return (
    <AppDialog
      open={open}
      title={title}
      fullscreenable={false}
      destroyOnHidden
      onOk={submit}
      onCancel={onCancel}
      okButtonProps={{ disabled: !selected }}
    >
      <Typography.Text type="secondary">请选择目标文件夹</Typography.Text>
      <div style={{ marginTop: 8, minHeight: 240, maxHeight: 420, overflow: 'auto' }}>
        {status !== 'ready' ? (
          <TreeStatus status={status} />
        ) : (
          <Tree
            aria-label="目标文件夹"
            showIcon
            blockNode
            treeData={treeData}
            loadData={loadData}
            defaultExpandedKeys={tree.roots}
            selectedKeys={selected ? [selected] : []}
            onSelect={(keys) => setSelected(keys.length ? String(keys[0]) : null)}
          />
        )}
      </div>
    </AppDialog>
  );
}

export const FILE_PICKER_PAGE_SIZE = 50;

export interface FilePickerProps {
  open: boolean;
  /** default 选择文件 */
  title?: string;
  /** at most this many files in all (default: no limit) */
  max?: number;
  /** the files picked when the dialog opens */
  initialFiles?: Item[];
  /** may return a promise: the dialog then waits (and stays open on a rejection) */
  onOk: (files: Item[]) => unknown;
  onCancel: () => void;
}

/** Picks files of the user's spaces: a folder in the tree, then files of that folder. */
export function FilePicker({ open, title = '选择文件', max, initialFiles, onOk, onCancel }: FilePickerProps) {
  const { tree, status, treeData, loadData } = useSpaceFolderTree(open);
  const [folderId, setFolderId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [files, setFiles] = useState<{ status: LoadStatus; data: Item[]; total: number }>({ status: 'loading', data: [], total: 0 });
  const [picked, setPicked] = useState<Item[]>([]);

  // a fresh start every time the dialog opens
  useEffect(() => {
    if (!open) return;
    setFolderId(null);
    setPage(1);
    setPicked(initialFiles ?? []);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // the first space's root is shown until another folder is chosen
  useEffect(() => {
    if (open && status === 'ready' && !folderId && tree.roots.length) setFolderId(tree.roots[0]);
  }, [open, status, folderId, tree.roots]);

  useEffect(() => {
    if (!open || !folderId) return;
    let live = true;
    setFiles((f) => ({ ...f, status: 'loading' }));
    api
      .getItems(folderId, { page, pageSize: FILE_PICKER_PAGE_SIZE })
      .then((result) => {
        if (live) setFiles({ status: 'ready', data: result.items.data.filter((i) => i.type === 'file'), total: result.items.total });
      })
      .catch(() => {
        if (live) setFiles({ status: 'error', data: [], total: 0 });
      });
    return () => {
      live = false;
    };
  }, [open, folderId, page]);

  const pickedIds = new Set(picked.map((f) => f.id));
  const full = max !== undefined && picked.length >= max;
  const toggle = (file: Item, on: boolean) =>
    setPicked((list) => (on ? (list.some((f) => f.id === file.id) ? list : [...list, file]) : list.filter((f) => f.id !== file.id)));

  const folder = folderId ? tree.nodes[folderId] : undefined;

  return (
    <AppDialog open={open} title={title} width={820} fullscreenable={false} destroyOnHidden onOk={() => onOk(picked)} onCancel={onCancel}>
      <div style={{ display: 'flex', gap: 12, height: 380 }}>
        <div style={{ width: 240, flex: 'none', overflow: 'auto', borderRight: '1px solid rgba(5, 5, 5, 0.06)' }}>
          {status !== 'ready' ? (
            <TreeStatus status={status} />
          ) : tree.roots.length ? (
            <Tree
              aria-label="文件夹"
              showIcon
              blockNode
              treeData={treeData}
              loadData={loadData}
              defaultExpandedKeys={tree.roots}
              selectedKeys={folderId ? [folderId] : []}
              onSelect={(keys) => {
                if (!keys.length) return;
                setFolderId(String(keys[0]));
                setPage(1);
              }}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有可以选择的空间" />
          )}
        </div>
        <div style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
          <Typography.Text type="secondary" ellipsis>
            {folder ? folder.namePath : '请在左侧选择文件夹'}
          </Typography.Text>
          <div role="list" aria-label="文件列表" style={{ flex: 1, overflow: 'auto' }}>
            {!folderId ? null : files.status === 'loading' ? (
              <Spin size="small" />
            ) : files.status === 'error' ? (
              <Typography.Text type="danger">文件加载失败</Typography.Text>
            ) : files.data.length ? (
              files.data.map((f) => {
                const checked = pickedIds.has(f.id);
                return (
                  <div role="listitem" key={f.id} style={{ padding: '4px 0' }}>
                    <Checkbox checked={checked} disabled={!checked && full} onChange={(e) => toggle(f, e.target.checked)}>
                      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                        <FileIcon name={f.name} extension={f.extension} size={16} />
                        {f.name}
                        <Typography.Text type="secondary">{formatBytes(f.size)}</Typography.Text>
                      </span>
                    </Checkbox>
                  </div>
                );
              })
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="此文件夹中没有文件" />
            )}
          </div>
          {files.total > FILE_PICKER_PAGE_SIZE ? (
            <Pagination size="small" current={page} pageSize={FILE_PICKER_PAGE_SIZE} total={files.total} showSizeChanger={false} onChange={setPage} />
          ) : null}
        </div>
      </div>
      <div aria-label="已选择的文件" role="group" style={{ marginTop: 8 }}>
        <Typography.Text type={full ? 'warning' : 'secondary'}>
          已选择 {picked.length} 个文件{max !== undefined ? `，最多 ${max} 个` : ''}
        </Typography.Text>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, marginTop: 4 }}>
          {picked.map((f) => (
            <Tag
              key={f.id}
              closable
              closeIcon={<CloseOutlined aria-label={`移除 ${f.name}`} />}
              onClose={(e) => {
                e.preventDefault();
                toggle(f, false);
              }}
            >
              {f.name}
            </Tag>
          ))}
        </div>
      </div>
    </AppDialog>
  );
}
