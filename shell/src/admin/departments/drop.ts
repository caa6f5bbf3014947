// Where a department dragged in the 部门 tree ends up: under the node it was dropped on, or,
// dropped into the gap beside a node, under that node's parent. Refused before any call when
// the move makes no sense (into itself or its own sub-department, to the top level, already
// there, the root) or the administrator may not manage one of the two departments (nor move
// the topmost department they manage).
import type { AdminDepartmentNode } from '@app/shared';

export type DepartmentDropPlan = { parentId: string } | { error: string };

/** Every department of the tree by id. */
export function indexDepartments(
  tree: readonly AdminDepartmentNode[],
  into: Map<string, AdminDepartmentNode> = new Map(),
): Map<string, AdminDepartmentNode> {
  for (const node of tree) {
    into.set(node.id, node);
    if (node.children?.length) indexDepartments(node.children, into);
  }
  return into;
}

/** True when `id` is `node` itself or one of its sub-departments, however deep. */
export function isInSubtree(node: AdminDepartmentNode, id: string): boolean {
  if (node.id === id) return true;
  return (node.children ?? []).some((child) => isInSubtree(child, id));
}

/** Why a department cannot go under itself or one of its sub-departments. */
export const SELF_DROP_ERROR = '不能把部门移到它自己或它的下级部门下';

/** The question asked before a department is moved. */
export const departmentMoveText = (name: string, parentName: string) =>
  `将“${name}”移动到“${parentName}”下？其下级部门和人员随之移动。`;

export function planDepartmentDrop(
  tree: readonly AdminDepartmentNode[],
  dragId: string,
  dropId: string,
  dropToGap: boolean,
): DepartmentDropPlan {
  const index = indexDepartments(tree);
  const drag = index.get(dragId);
  const drop = index.get(dropId);
  if (!drag || !drop) return { error: '找不到该部门，请刷新后重试' };
  if (!drag.manageable) return { error: `你无权移动“${drag.name}”` };
  if (drag.parentId === null) return { error: '根部门不能移动' };
  const currentParent = index.get(drag.parentId);
  // a department administrator's topmost department stays where the system administrator put it
  if (currentParent && !currentParent.manageable) return { error: '不能移动你所管理的最上级部门' };

  const parentId = dropToGap ? drop.parentId : drop.id;
  if (parentId === null) return { error: '不能把部门移到最顶层' };
  const parent = index.get(parentId);
  if (!parent) return { error: '找不到目标部门，请刷新后重试' };
  if (isInSubtree(drag, parentId)) return { error: SELF_DROP_ERROR };
  if (parentId === drag.parentId) return { error: `“${drag.name}”已在“${parent.name}”下` };
  if (!parent.manageable) return { error: `你无权管理“${parent.name}”，不能移入` };
  return { parentId };
}
