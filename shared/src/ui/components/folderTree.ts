// The state of a lazily loaded folder tree (the tree beside the file list in remote-files, and
// the folder and file pickers): the folders known so far and the loaded children of each.
import type { TreeNode } from '@app/shared';

export interface TreeState {
  nodes: Record<string, TreeNode>;
  /** loaded child folders, by parent id */
  children: Record<string, string[]>;
  roots: string[];
}

export const EMPTY_TREE: TreeState = { nodes: {}, children: {}, roots: [] };

/** Adds `list`; with `parentId`, the list is that folder's complete set of child folders. */
export function addNodes(state: TreeState, list: TreeNode[], parentId?: string): TreeState {
  const nodes = { ...state.nodes };
  for (const n of list) nodes[n.id] = { ...nodes[n.id], ...n };
  const children = { ...state.children };
  if (parentId !== undefined) {
    children[parentId] = list.filter((n) => n.parentId === parentId).map((n) => n.id);
    if (nodes[parentId]) nodes[parentId] = { ...nodes[parentId], hasChildren: children[parentId].length > 0 };
  }
  return { ...state, nodes, children };
}
