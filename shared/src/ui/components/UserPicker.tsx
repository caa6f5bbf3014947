// The user-selection dialog of 云文档 (spec section 1, "user selection"): users (searched
// by keyword, filtered by the department tree), departments and user groups, in three tabs;
// the picks of every tab show as removable tags and are returned together.
import { useEffect, useMemo, useState, type Key, type ReactElement, type ReactNode } from 'react';
import { Checkbox, Empty, Input, Pagination, Spin, Tabs, Tag, Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import { api, type DepartmentNode, type OrgUser, type UserGroup } from '@app/shared';
import { AppDialog } from '../AppDialog';

export type UserPickerType = 'user' | 'department' | 'group';

/** A picked department (without its sub-departments). */
export type PickedDepartment = Pick<DepartmentNode, 'id' | 'name' | 'parentId'>;

export interface UserPickerSelection {
  /** a user carrying `disabled: true` (e.g. an AdminGroupMember) shows as 已停用 among the picks */
  users: OrgUser[];
  departments: PickedDepartment[];
  groups: UserGroup[];
}

export interface UserPickerProps {
  open: boolean;
  /** default 选择用户 */
  title?: string;
  /** the tabs offered (default: all three) */
  limitTypes?: UserPickerType[];
  /** several entries may be picked (default true); otherwise one entry in all */
  multiple?: boolean;
  /** the entries picked when the dialog opens */
  initialSelection?: Partial<UserPickerSelection>;
  /** shown above the tabs, e.g. how disabled picks are treated */
  notice?: ReactNode;
  /** may return a promise: the dialog then waits (and stays open on a rejection) */
  onOk: (selection: UserPickerSelection) => unknown;
  onCancel: () => void;
}

export const USER_PICKER_PAGE_SIZE = 20;
const ALL_TYPES: UserPickerType[] = ['user', 'department', 'group'];
const TAB_LABELS: Record<UserPickerType, string> = { user: '用户', department: '部门', group: '用户组' };
const EMPTY_SELECTION: UserPickerSelection = { users: [], departments: [], groups: [] };

const toTreeData = (list: DepartmentNode[]): TreeDataNode[] =>
  list.map((d) => ({ key: d.id, title: d.name, children: d.children?.length ? toTreeData(d.children) : undefined }));

function indexDepartments(list: DepartmentNode[], into: Record<string, PickedDepartment> = {}) {
  for (const d of list) {
    into[d.id] = { id: d.id, name: d.name, parentId: d.parentId };
    if (d.children?.length) indexDepartments(d.children, into);
  }
  return into;
}

/** A pick marked disabled by an administrators' call (search results never are). */
const isDisabledUser = (u: OrgUser) => 'disabled' in u && u.disabled === true;

const userLabel = (u: OrgUser) => (u.nickName && u.nickName !== u.userName ? `${u.nickName}（${u.userName}）` : u.userName);

export function UserPicker({
  open,
  title = '选择用户',
  limitTypes,
  multiple = true,
  initialSelection,
  notice,
  onOk,
  onCancel,
}: UserPickerProps) {
  const types = useMemo(() => ALL_TYPES.filter((t) => !limitTypes?.length || limitTypes.includes(t)), [limitTypes]);
  const typesKey = types.join(',');
  const [tab, setTab] = useState<UserPickerType>(types[0] ?? 'user');
  const [selection, setSelection] = useState<UserPickerSelection>(EMPTY_SELECTION);

  const [departments, setDepartments] = useState<DepartmentNode[]>([]);
  const [deptStatus, setDeptStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [groups, setGroups] = useState<UserGroup[]>([]);
  const [groupStatus, setGroupStatus] = useState<'loading' | 'ready' | 'error'>('loading');

  const [keyword, setKeyword] = useState('');
  const [deptId, setDeptId] = useState('');
  const [page, setPage] = useState(1);
  const [users, setUsers] = useState<{ data: OrgUser[]; total: number }>({ data: [], total: 0 });
  const [userStatus, setUserStatus] = useState<'loading' | 'ready' | 'error'>('loading');

  const needsDepartments = types.includes('user') || types.includes('department');

  // a fresh start every time the dialog opens
  useEffect(() => {
    if (!open) return;
    setTab(types[0] ?? 'user');
    setSelection({ ...EMPTY_SELECTION, ...initialSelection });
    setKeyword('');
    setDeptId('');
    setPage(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  useEffect(() => {
    if (!open || !needsDepartments) return;
    let live = true;
    setDeptStatus('loading');
    api
      .getDepartmentTree()
      .then((list) => {
        if (!live) return;
        setDepartments(list);
        setDeptStatus('ready');
      })
      .catch(() => {
        if (live) setDeptStatus('error');
      });
    return () => {
      live = false;
    };
  }, [open, needsDepartments]);

  useEffect(() => {
    if (!open || !types.includes('group')) return;
    let live = true;
    setGroupStatus('loading');
    api
      .getUserGroups()
      .then((list) => {
        if (!live) return;
        setGroups(list);
        setGroupStatus('ready');
      })
      .catch(() => {
        if (live) setGroupStatus('error');
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, typesKey]);

  useEffect(() => {
    if (!open || !types.includes('user')) return;
    let live = true;
    setUserStatus('loading');
    api
      .getOrgUsers({ keyword, deptId, page, pageSize: USER_PICKER_PAGE_SIZE })
      .then((result) => {
        if (!live) return;
        setUsers(result);
        setUserStatus('ready');
      })
      .catch(() => {
        if (live) setUserStatus('error');
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, typesKey, keyword, deptId, page]);

  const deptIndex = useMemo(() => indexDepartments(departments), [departments]);
  const deptTreeData = useMemo(() => toTreeData(departments), [departments]);

  /** Adds or removes one entry; with `multiple` off, an added entry replaces everything. */
  function toggle<K extends keyof UserPickerSelection>(kind: K, entry: UserPickerSelection[K][number], on: boolean) {
    const idOf = (e: OrgUser | PickedDepartment | UserGroup) => ('userId' in e ? e.userId : e.id);
    const id = idOf(entry);
    setSelection((s) => {
      const list = s[kind] as (OrgUser | PickedDepartment | UserGroup)[];
      const rest = list.filter((e) => idOf(e) !== id);
      if (!on) return { ...s, [kind]: rest };
      if (!multiple) return { ...EMPTY_SELECTION, [kind]: [entry] };
      return { ...s, [kind]: [...rest, entry] };
    });
  }

  const selectedUserIds = new Set(selection.users.map((u) => u.userId));
  const selectedDeptIds = selection.departments.map((d) => d.id);
  const selectedGroupIds = new Set(selection.groups.map((g) => g.id));
  const count = selection.users.length + selection.departments.length + selection.groups.length;

  const loadingOrError = (status: 'loading' | 'ready' | 'error', what: string) =>
    status === 'loading' ? (
      <Spin size="small" />
    ) : status === 'error' ? (
      <Typography.Text type="danger">{what}加载失败</Typography.Text>
    ) : null;

  const departmentTree = (label: string, checkable: boolean) =>
    deptStatus !== 'ready' ? (
      loadingOrError(deptStatus, '部门')
    ) : deptTreeData.length ? (
      checkable ? (
        <Tree
          aria-label={label}
          checkable
          checkStrictly
          selectable={false}
          defaultExpandAll
          treeData={deptTreeData}
          checkedKeys={{ checked: selectedDeptIds, halfChecked: [] }}
          onCheck={(_keys, info) => {
            const dept = deptIndex[String(info.node.key)];
            if (dept) toggle('departments', dept, info.checked);
          }}
        />
      ) : (
        <Tree
          aria-label={label}
          defaultExpandAll
          blockNode
          treeData={deptTreeData}
          selectedKeys={deptId ? [deptId] : []}
          onSelect={(keys: Key[]) => {
            setDeptId(keys.length ? String(keys[0]) : '');
            setPage(1);
          }}
        />
      )
    ) : (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无部门" />
    );

  const userTab = (
    <div style={{ display: 'flex', gap: 12, height: 360 }}>
      <div style={{ width: 200, flex: 'none', overflow: 'auto', borderRight: '1px solid rgba(5, 5, 5, 0.06)' }}>
        {departmentTree('按部门筛选', false)}
      </div>
      <div style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
        <Input.Search
          allowClear
          aria-label="搜索用户"
          placeholder="搜索用户名或姓名"
          onSearch={(value) => {
            setKeyword(value.trim());
            setPage(1);
          }}
        />
        <div role="list" aria-label="用户列表" style={{ flex: 1, overflow: 'auto' }}>
          {userStatus !== 'ready' ? (
            loadingOrError(userStatus, '用户')
          ) : users.data.length ? (
            users.data.map((u) => (
              <div role="listitem" key={u.userId} style={{ padding: '4px 0' }}>
                <Checkbox checked={selectedUserIds.has(u.userId)} onChange={(e) => toggle('users', u, e.target.checked)}>
                  {userLabel(u)}
                  {u.deptName ? <Typography.Text type="secondary"> · {u.deptName}</Typography.Text> : null}
                </Checkbox>
              </div>
            ))
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无用户" />
          )}
        </div>
        {users.total > USER_PICKER_PAGE_SIZE ? (
          <Pagination
            size="small"
            current={page}
            pageSize={USER_PICKER_PAGE_SIZE}
            total={users.total}
            showSizeChanger={false}
            onChange={setPage}
          />
        ) : null}
      </div>
    </div>
  );

  const departmentTab = <div style={{ height: 360, overflow: 'auto' }}>{departmentTree('选择部门', true)}</div>;

  const groupTab = (
    <div role="list" aria-label="用户组列表" style={{ height: 360, overflow: 'auto' }}>
      {groupStatus !== 'ready' ? (
        loadingOrError(groupStatus, '用户组')
      ) : groups.length ? (
        groups.map((g) => (
          <div role="listitem" key={g.id} style={{ padding: '4px 0' }}>
            <Checkbox checked={selectedGroupIds.has(g.id)} onChange={(e) => toggle('groups', g, e.target.checked)}>
              {g.name}
              <Typography.Text type="secondary">（{g.memberCount} 人）</Typography.Text>
            </Checkbox>
          </div>
        ))
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无用户组" />
      )}
    </div>
  );

  const panes: Record<UserPickerType, ReactElement> = { user: userTab, department: departmentTab, group: groupTab };

  const tags = [
    ...selection.users.map((u) => {
      const disabled = isDisabledUser(u);
      return { key: `u:${u.userId}`, label: userLabel(u), color: disabled ? 'default' : 'blue', disabled, remove: () => toggle('users', u, false) };
    }),
    ...selection.departments.map((d) => ({ key: `d:${d.id}`, label: d.name, color: 'green', disabled: false, remove: () => toggle('departments', d, false) })),
    ...selection.groups.map((g) => ({ key: `g:${g.id}`, label: g.name, color: 'purple', disabled: false, remove: () => toggle('groups', g, false) })),
  ];

  return (
    <AppDialog
      open={open}
      title={title}
      width={760}
      fullscreenable={false}
      destroyOnHidden
      onOk={() => onOk(selection)}
      onCancel={onCancel}
    >
      {notice ? <div style={{ marginBottom: 8 }}>{notice}</div> : null}
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as UserPickerType)}
        items={types.map((t) => ({ key: t, label: TAB_LABELS[t], children: panes[t] }))}
      />
      <div aria-label="已选择" role="group" style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">已选择 {count} 项</Typography.Text>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, marginTop: 4 }}>
          {tags.map((t) => (
            <Tag
              key={t.key}
              color={t.color}
              closable
              closeIcon={<CloseOutlined aria-label={`移除 ${t.label}`} />}
              onClose={(e) => {
                e.preventDefault();
                t.remove();
              }}
            >
              {t.label}
              {t.disabled ? (
                <Tag color="orange" variant="filled" style={{ marginInlineStart: 4, marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', paddingInline: 4 }}>
                  已停用
                </Tag>
              ) : null}
            </Tag>
          ))}
        </div>
      </div>
    </AppDialog>
  );
}
