// The filters above the 用户 list: keyword, department (its sub-departments included unless
// 仅本部门), status, role and source; and the query they make.
import { useMemo } from 'react';
import { Checkbox, Input, Select, Space, TreeSelect } from 'antd';
import type { AdminDepartmentNode, AdminRole, AdminUserStatus, AdminUsersQuery, UserSource } from '@app/shared';
import { ADMIN_ROLE_LABELS, ADMIN_ROLES, USER_SOURCE_LABELS } from '@app/shared/admin';
import { toTreeSelectData, topDepartmentIds } from '../departmentTree';

export interface Filters {
  keyword: string;
  deptId?: string;
  directOnly: boolean;
  status?: AdminUserStatus;
  role?: AdminRole | 'deptAdmin';
  source?: UserSource;
}

const STATUS_OPTIONS: { value: AdminUserStatus; label: string }[] = [
  { value: 'enabled', label: '正常' },
  { value: 'disabled', label: '已停用' },
  { value: 'locked', label: '已锁定' },
];
const ROLE_OPTIONS = [
  ...ADMIN_ROLES.map((r) => ({ value: r as AdminRole | 'deptAdmin', label: ADMIN_ROLE_LABELS[r] })),
  { value: 'deptAdmin' as const, label: '部门管理员' },
];
const SOURCE_OPTIONS = (Object.keys(USER_SOURCE_LABELS) as UserSource[]).map((s) => ({ value: s, label: USER_SOURCE_LABELS[s] }));

export function toQuery(f: Filters, page: number, pageSize: number): AdminUsersQuery {
  const q: AdminUsersQuery = { page, pageSize };
  if (f.keyword) q.keyword = f.keyword;
  if (f.deptId) {
    q.deptId = f.deptId;
    if (f.directOnly) q.directOnly = true;
  }
  if (f.status) q.status = f.status;
  if (f.role) q.role = f.role;
  if (f.source) q.source = f.source;
  return q;
}

/** `filter` applies a change (the list goes back to page 1). */
export function UserFilters({
  filters,
  departments,
  filter,
}: {
  filters: Filters;
  departments: AdminDepartmentNode[];
  filter: (patch: Partial<Filters>) => void;
}) {
  // a bare department id is not shown while the tree loads
  const deptValue = departments.length > 0 ? filters.deptId : undefined;
  const treeData = useMemo(() => toTreeSelectData(departments), [departments]);
  const expanded = useMemo(() => topDepartmentIds(departments), [departments]);
  return (
    <Space wrap>
      <Input.Search
        placeholder="搜索用户名或昵称"
        title="可按用户名、昵称、工号、手机或邮箱搜索"
        aria-label="搜索用户（用户名、昵称、工号、手机或邮箱）"
        allowClear
        style={{ width: 240 }}
        onSearch={(v) => filter({ keyword: v.trim() })}
      />
      <TreeSelect
        aria-label="按部门筛选"
        allowClear
        showSearch
        treeNodeFilterProp="title"
        treeDefaultExpandedKeys={expanded}
        placeholder="全部部门"
        style={{ width: 200 }}
        value={deptValue}
        onChange={(v?: string) => filter({ deptId: v || undefined, ...(v ? {} : { directOnly: false }) })}
        treeData={treeData}
      />
      <Checkbox checked={filters.directOnly} disabled={!filters.deptId} onChange={(e) => filter({ directOnly: e.target.checked })}>
        仅本部门
      </Checkbox>
      <Select
        aria-label="按状态筛选"
        allowClear
        placeholder="全部状态"
        style={{ width: 120 }}
        value={filters.status}
        onChange={(v?: AdminUserStatus) => filter({ status: v })}
        options={STATUS_OPTIONS}
      />
      <Select
        aria-label="按角色筛选"
        allowClear
        placeholder="全部角色"
        style={{ width: 130 }}
        value={filters.role}
        onChange={(v?: AdminRole | 'deptAdmin') => filter({ role: v })}
        options={ROLE_OPTIONS}
      />
      <Select
        aria-label="按来源筛选"
        allowClear
        placeholder="全部来源"
        style={{ width: 120 }}
        value={filters.source}
        onChange={(v?: UserSource) => filter({ source: v })}
        options={SOURCE_OPTIONS}
      />
    </Space>
  );
}
