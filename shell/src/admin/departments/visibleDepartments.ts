// What the department tree shows and opens: the departments matching a search (with the way to
// them), and at first the top two levels and the way to every managed subtree.
import type { TreeDataNode } from 'antd';
import type { AdminDepartmentNode } from '@app/shared';

/** The departments whose name contains `keyword`, with the way to them. */
export function filterDepartments(list: AdminDepartmentNode[], keyword: string): AdminDepartmentNode[] {
  if (!keyword) return list;
  const needle = keyword.toLowerCase();
  const out: AdminDepartmentNode[] = [];
  for (const node of list) {
    const children = filterDepartments(node.children ?? [], keyword);
    if (node.name.toLowerCase().includes(needle) || children.length) out.push({ ...node, children });
  }
  return out;
}

/** The ids of every department of the list, however deep. */
export const allIds = (list: AdminDepartmentNode[]): string[] => list.flatMap((n) => [n.id, ...allIds(n.children ?? [])]);

/** The departments as antd Tree data. */
export const toTreeData = (list: AdminDepartmentNode[]): TreeDataNode[] =>
  list.map((n) => ({ key: n.id, title: n.name, children: n.children?.length ? toTreeData(n.children) : undefined }));

/** The departments opened at first: the top two levels and the way to every managed subtree. */
export function initialExpanded(tree: AdminDepartmentNode[]): string[] {
  const keys = new Set<string>();
  const walk = (list: AdminDepartmentNode[], depth: number, parentManaged: boolean) => {
    for (const n of list) {
      if (depth < 2 && n.children?.length) keys.add(n.id);
      if (n.manageable && !parentManaged) n.path.split('/').filter((id) => id && id !== n.id).forEach((id) => keys.add(id));
      walk(n.children ?? [], depth + 1, n.manageable);
    }
  };
  walk(tree, 0, false);
  return [...keys];
}
