// 用户: the organisation's people, paged by the server and filtered by keyword, department
// (with or without its sub-departments), status, role and source; 新建用户, 编辑 (details,
// roles, quota, feature switches), 停用/启用, 重置密码, 解锁, 注销全部会话, and dynamic-password
// (TOTP) duty and 重置动态口令 for a lost phone, and 离职交接 (the work handed to a successor).
import { useEffect, useState } from 'react';
import { App as AntApp, Button, Dropdown, Space, Switch, Table, Tag, Tooltip, type MenuProps } from 'antd';
import { DownOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { api, notify, type AdminDepartmentNode, type AdminScope, type AdminUser } from '@app/shared';
import { USER_SOURCE_LABELS, adminApi } from '@app/shared/admin';
import { usePagedList } from './usePagedList';
import { INITIAL_PASSWORD_NOTE, PasswordOnceModal, ResetPasswordModal, type RevealedPassword } from './users/passwordOnce';
import { UserDrawer } from './users/UserDrawer';
import { UserFilters, toQuery, type Filters } from './users/UserFilters';
import { UserFormModal, type CreatedUser } from './users/UserFormModal';
import { LeaverDialog } from './users/LeaverDialog';
import { RoleTags, SpaceUsage, StatusTags } from './users/userCells';
import { ExportMenu } from './import/ExportMenu';
import { ImportDialog } from './import/ImportDialog';

const PAGE_SIZE = 20;

const nameOf = (u: AdminUser) => u.nickName || u.userName;

/** The list's filter without its page: what 导出 exports. */
function exportFilter(f: Filters) {
  const { page: _page, pageSize: _size, ...rest } = toQuery(f, 1, PAGE_SIZE);
  return rest;
}

/** initialDeptId: the list opens filtered to this department (from 部门's 查看成员). */
export function UsersTab({ initialDeptId }: { initialDeptId?: string } = {}) {
  const { modal } = AntApp.useApp();
  const [filters, setFilters] = useState<Filters>({ keyword: '', deptId: initialDeptId, directOnly: false });
  const [attempt, setAttempt] = useState(0);
  const { page, setPage, rows, setRows, total, loading } = usePagedList((p) => adminApi.getUsers(toQuery(filters, p, PAGE_SIZE)), [filters, attempt]);
  const [sentDeptId, setSentDeptId] = useState(initialDeptId);
  if (initialDeptId !== sentDeptId) {
    // sent here again from another department
    setSentDeptId(initialDeptId);
    setFilters((f) => ({ ...f, deptId: initialDeptId, directOnly: false }));
    setPage(1);
  }
  const [scope, setScope] = useState<AdminScope | null>(null);
  const [departments, setDepartments] = useState<AdminDepartmentNode[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [resetting, setResetting] = useState<AdminUser | null>(null);
  const [revealed, setRevealed] = useState<RevealedPassword | null>(null);
  const [leaving, setLeaving] = useState<AdminUser | null>(null);

  useEffect(() => {
    let live = true;
    adminApi
      .getScope()
      .then((s) => live && setScope(s))
      .catch(() => undefined);
    adminApi
      .getDepartments()
      .then((d) => live && setDepartments(d))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const filter = (patch: Partial<Filters>) => {
    setPage(1);
    setFilters((f) => ({ ...f, ...patch }));
  };
  const replace = (u: AdminUser) => setRows((list) => list.map((r) => (r.userId === u.userId ? u : r)));
  const patch = (u: AdminUser, change: Partial<AdminUser>) => replace({ ...u, ...change });

  const setRequired = async (u: AdminUser, required: boolean) => {
    setBusy(u.userId);
    try {
      replace(await api.setUserTotpRequired(u.userId, required));
      notify.success(required ? `已要求“${nameOf(u)}”使用动态口令` : `已不再要求“${nameOf(u)}”使用动态口令`);
    } catch {
      /* shown by the http client */
    } finally {
      setBusy(null);
    }
  };

  const resetTotp = (u: AdminUser) =>
    modal.confirm({
      title: '重置动态口令',
      content: `“${nameOf(u)}”已绑定的身份验证器将失效；仍须使用动态口令时，下次登录重新扫码绑定。确定重置吗？`,
      okText: '重置',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          replace(await api.resetUserTotp(u.userId));
          notify.success('动态口令已重置');
        } catch {
          /* shown by the http client */
        }
      },
    });

  const disable = (u: AdminUser) =>
    modal.confirm({
      title: `停用“${nameOf(u)}”？`,
      content: '停用后此人不能再登录，其所有会话和客户端令牌立即失效。账号和文件都会保留，可随时重新启用。',
      okText: '停用',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.disableUser(u.userId);
          patch(u, { disabled: true });
          notify.success(`已停用“${nameOf(u)}”`);
        } catch {
          /* shown by the http client */
        }
      },
    });

  const enable = (u: AdminUser) =>
    modal.confirm({
      title: `启用“${nameOf(u)}”？`,
      content: '启用后此人可以重新登录。',
      okText: '启用',
      cancelText: '取消',
      onOk: async () => {
        try {
          await adminApi.enableUser(u.userId);
          patch(u, { disabled: false });
          notify.success(`已启用“${nameOf(u)}”`);
        } catch {
          /* shown by the http client */
        }
      },
    });

  const unlock = async (u: AdminUser) => {
    try {
      await adminApi.unlockUser(u.userId);
      patch(u, { locked: false });
      notify.success(`已解锁“${nameOf(u)}”，可以重新登录了`);
    } catch {
      /* shown by the http client */
    }
  };

  const revokeSessions = (u: AdminUser) =>
    modal.confirm({
      title: `注销“${nameOf(u)}”的全部会话？`,
      content: '此人将在所有浏览器和客户端上退出登录，须重新登录。',
      okText: '注销',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          const r = await adminApi.revokeSessions(u.userId);
          notify.success(`已注销 ${r.revoked} 个会话`);
        } catch {
          /* shown by the http client */
        }
      },
    });

  const onCreated = (c: CreatedUser) => {
    setCreating(false);
    notify.success(`已创建用户“${c.userName}”`);
    if (c.initialPassword) setRevealed({ title: '初始密码', userName: c.userName, password: c.initialPassword, note: INITIAL_PASSWORD_NOTE });
    setAttempt((n) => n + 1);
  };

  const moreItems = (u: AdminUser): MenuProps['items'] => [
    u.disabled ? { key: 'enable', label: '启用' } : { key: 'disable', label: '停用', danger: true },
    { key: 'resetPassword', label: '重置密码' },
    ...(u.locked ? [{ key: 'unlock', label: '解锁' }] : []),
    { key: 'revokeSessions', label: '注销全部会话' },
    { type: 'divider' },
    { key: 'handover', label: '离职交接', danger: true },
  ];
  const onMore = (u: AdminUser, key: string) => {
    if (key === 'disable') disable(u);
    else if (key === 'enable') enable(u);
    else if (key === 'resetPassword') setResetting(u);
    else if (key === 'unlock') void unlock(u);
    else if (key === 'revokeSessions') revokeSessions(u);
    else if (key === 'handover') setLeaving(u);
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <UserFilters filters={filters} departments={departments} filter={filter} />
        <Space>
          {scope?.system ? (
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              批量导入
            </Button>
          ) : null}
          <ExportMenu filter={exportFilter(filters)} />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            新建用户
          </Button>
        </Space>
      </Space>
      <ImportDialog open={importing} onClose={() => setImporting(false)} onApplied={() => setAttempt((n) => n + 1)} />
      <Table<AdminUser>
        size="small"
        rowKey="userId"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage, showTotal: (n) => `共 ${n} 个用户` }}
        columns={[
          { title: '用户名', dataIndex: 'userName' },
          { title: '昵称', dataIndex: 'nickName' },
          { title: '部门', dataIndex: 'deptName', ellipsis: true, width: 180 },
          { title: '工号', dataIndex: 'employeeNo' },
          { title: '手机', dataIndex: 'mobile' },
          { title: '邮箱', dataIndex: 'email', responsive: ['xl'] },
          { title: '来源', key: 'source', render: (_, u) => USER_SOURCE_LABELS[u.source] ?? u.source },
          { title: '角色', key: 'roles', render: (_, u) => <RoleTags u={u} /> },
          { title: '状态', key: 'state', render: (_, u) => <StatusTags u={u} /> },
          { title: '空间', key: 'space', render: (_, u) => <SpaceUsage u={u} /> },
          {
            title: '动态口令',
            key: 'totp',
            render: (_, u) => (
              <Space size={4} style={{ whiteSpace: 'nowrap' }}>
                {u.totpBound ? <Tag color="blue">已绑定</Tag> : <Tag>未绑定</Tag>}
                <Tooltip title="要求使用动态口令">
                  <Switch
                    size="small"
                    checked={u.totpRequired}
                    loading={busy === u.userId}
                    aria-label={`要求${u.userName}使用动态口令`}
                    onChange={(v) => void setRequired(u, v)}
                  />
                </Tooltip>
                <Button type="link" size="small" aria-label="重置动态口令" disabled={!u.totpBound} onClick={() => resetTotp(u)}>
                  重置
                </Button>
              </Space>
            ),
          },
          {
            title: '操作',
            key: 'actions',
            render: (_, u) => (
              <Space size={0} style={{ whiteSpace: 'nowrap' }}>
                <Button type="link" size="small" onClick={() => setEditing(u)}>
                  编辑
                </Button>
                <Dropdown trigger={['click']} menu={{ items: moreItems(u), onClick: ({ key }) => onMore(u, key) }}>
                  <Button type="link" size="small" aria-label={`更多操作 ${u.userName}`}>
                    更多 <DownOutlined />
                  </Button>
                </Dropdown>
              </Space>
            ),
          },
        ]}
      />
      <UserFormModal
        open={creating}
        scope={scope}
        departments={departments}
        defaultDeptId={filters.deptId ?? (scope && !scope.system && scope.departments.length === 1 ? scope.departments[0].id : undefined)}
        onClose={() => setCreating(false)}
        onCreated={onCreated}
      />
      <UserDrawer
        user={editing}
        scope={scope}
        departments={departments}
        onClose={() => setEditing(null)}
        onSaved={(u) => {
          replace(u);
          setEditing(null);
        }}
      />
      <ResetPasswordModal
        target={resetting}
        onClose={() => setResetting(null)}
        onDone={(r) => {
          setResetting(null);
          setRevealed(r);
        }}
      />
      <PasswordOnceModal shown={revealed} onClose={() => setRevealed(null)} />
      <LeaverDialog
        user={leaving}
        open={leaving !== null}
        onClose={() => setLeaving(null)}
        onDone={() => {
          setLeaving(null);
          setAttempt((n) => n + 1);
        }}
      />
    </Space>
  );
}
