// The folder picker of 云文档's 移动到 / 复制到: a lazily loaded tree that starts from the
// personal and enterprise roots (FolderTree) and loads deeper folders on expand (TreeNodes).
import { useEffect, useMemo, useState, type Key } from 'react';
import { Spin, Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import { api, useRoles, type TreeNode } from '@app/shared';
import { AppDialog, FileIcon } from '@app/shared/ui';
import { addNodes, EMPTY_TREE, type TreeState } from '../tree/treeState';

export interface FolderPickerProps {
  open: boolean;
  title: string;
  /** folders that cannot be the target (the folders being moved) */
  disabledIds?: string[];
  /** a rejection keeps the picker open */
  onOk: (target: TreeNode) => Promise<unknown>;
  onCancel: () => void;
}

export function FolderPicker({ open, title, disabledIds = [], onOk, onCancel }: FolderPickerProps) {
  const roles = useRoles();
  const [tree, setTree] = useState<TreeState>(EMPTY_TREE);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [selected, setSelected] = useState<string | null>(null);
  const personal = roles?.personalSpace !== false;
  const enterprise = roles?.publicSpace !== false;

  useEffect(() => {
    if (!open) return;
    let live = true;
    setTree(EMPTY_TREE);
    setSelected(null);
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
  }, [tree, disabledIds]);

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
        {status === 'loading' ? (
          <Spin />
        ) : status === 'error' ? (
          <Typography.Text type="danger">文件夹加载失败</Typography.Text>
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
