// The administrators' department tree as antd TreeSelect data: departments a department
// administrator may only pass through (manageable=false) are shown but cannot be picked.
import type { AdminDepartmentNode } from '@app/shared';

export interface DepartmentTreeOption {
  value: string;
  key: string;
  title: string;
  disabled: boolean;
  children: DepartmentTreeOption[];
}

export function toTreeSelectData(nodes: readonly AdminDepartmentNode[]): DepartmentTreeOption[] {
  return nodes.map((n) => ({
    value: n.id,
    key: n.id,
    title: n.name,
    disabled: !n.manageable,
    children: toTreeSelectData(n.children ?? []),
  }));
}

/** The ids of the top departments: a large tree opens with only its first level shown. */
export const topDepartmentIds = (nodes: readonly AdminDepartmentNode[]): string[] => nodes.map((n) => n.id);
