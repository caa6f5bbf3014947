// 系统管理 › 用户: the filters an administrator sets reach the server (back to page 1); a new
// account is made with the fields filled in and its generated password shown once; roles the
// administrator lacks cannot be granted; a malformed mobile number is refused; 停用 is
// confirmed; 重置密码 shows the new password; 解锁 is offered for locked accounts only; 编辑
// sends only what changed and the person's feature switches, next to what applies and why;
// 离职交接 opens the handover dialog and the list is read again after it.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, type AdminDepartmentNode, type AdminScope, type AdminUser, type EffectiveFeaturePolicy } from '@app/shared';
import { adminApi, leaverApi } from '@app/shared/admin';
import { button, panelOf, pickOption, renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { UsersTab } from './UsersTab';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

useInlineStylesOnly();

const GB = 1024 ** 3;
const policyOverride = { personalSpace: null, publicSpace: null, workflow: null, ferrySpaces: null };
const dept = (id: string, name: string, o: Partial<AdminDepartmentNode> = {}): AdminDepartmentNode => ({
  id, parentId: null, name, path: id, leader: null, admins: [], userCount: 0, quota: null,
  featurePolicy: policyOverride, manageable: true, children: [], ...o,
});
const departments = [
  dept('d1', '集团', { children: [dept('d2', '研发中心', { parentId: 'd1' }), dept('d3', '财务部', { parentId: 'd1', manageable: false })] }),
];
const person = (o: Partial<AdminUser>): AdminUser => ({
  userId: '5', userName: 'lisi', nickName: '李四', deptId: 'd2', deptName: '集团/研发中心', mobile: '13800000005',
  email: 'lisi@example.com', employeeNo: 'E005', source: 'local', roles: ['docAdmin'], adminOf: [{ id: 'd2', name: '研发中心' }],
  isDocAdmin: true, isFlowAdmin: false, isTagAdmin: false, disabled: false, locked: false, totpRequired: false, totpBound: true,
  mustChangePassword: false, quota: null, effectiveQuota: 10 * GB, used: 512 * 1024 ** 2, lastLoginAt: null, createdAt: 0, ...o,
});
const lisi = person({});
const wangwu = person({
  userId: '6', userName: 'wangwu', nickName: '王五', deptId: 'd3', deptName: '集团/财务部', mobile: '', email: '', employeeNo: 'E006',
  source: 'ldap', roles: [], adminOf: [], isDocAdmin: false, locked: true, totpBound: false, effectiveQuota: 0, used: 0,
});
const systemScope: AdminScope = { system: true, roles: ['admin', 'docAdmin', 'tagAdmin', 'flowAdmin'], departments: [] };

let getUsers: jest.SpyInstance;

function setup(scope: AdminScope = systemScope, total = 2, initialDeptId?: string) {
  jest.spyOn(adminApi, 'getScope').mockResolvedValue(scope);
  jest.spyOn(adminApi, 'getDepartments').mockResolvedValue(departments);
  getUsers = jest.spyOn(adminApi, 'getUsers').mockResolvedValue({ data: [lisi, wangwu], total });
  renderWithProviders(<UsersTab initialDeptId={initialDeptId} />, { session: true });
}

afterEach(() => jest.restoreAllMocks());

const user = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });
/** Sets a text box at once (role queries and typing are slow with antd's styles in jsdom). */
const fill = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const lastQuery = () => getUsers.mock.calls[getUsers.mock.calls.length - 1][0];

/** The confirmation titled `title`. */
const confirmOf = (title: string) =>
  waitFor(() => {
    const found = Array.from(document.querySelectorAll('.ant-modal-confirm-title')).find((t) => t.textContent === title);
    if (!found) throw new Error(`no confirmation ${title}`);
    return found.closest('.ant-modal') as HTMLElement;
  });

/** Opens a row's 更多 menu and returns it. */
async function openMore(userName: string) {
  // pointer events: the mousedown closes a menu left open on another row
  await user().click(within(await rowOf(userName)).getByLabelText(`更多操作 ${userName}`));
  return waitFor(() => {
    const menus = Array.from(document.querySelectorAll<HTMLElement>('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]'));
    if (menus.length === 0) throw new Error(`no menu open for ${userName}`);
    return menus[menus.length - 1];
  });
}
const entries = (menu: HTMLElement) => Array.from(menu.querySelectorAll('[role="menuitem"]')).map((m) => m.textContent);

it('lists people with their roles, status and space, and sends every filter, back to page 1', async () => {
  setup(systemScope, 45);
  const row = await rowOf('lisi');
  expect(within(row).getByText('集团/研发中心')).toBeInTheDocument();
  expect(within(row).getByText('文档管理员')).toBeInTheDocument();
  expect(within(row).getByText('部门管理员')).toBeInTheDocument();
  expect(within(row).getByText('正常')).toBeInTheDocument();
  expect(within(row).getByText('512 MB / 10 GB')).toBeInTheDocument();
  const other = await rowOf('wangwu');
  expect(within(other).getByText('已锁定')).toBeInTheDocument();
  expect(within(other).getByText('LDAP')).toBeInTheDocument();
  expect(within(other).getByText('0 B / 不限')).toBeInTheDocument();
  expect(screen.getByText('共 45 个用户')).toBeInTheDocument();
  expect(getUsers).toHaveBeenLastCalledWith({ page: 1, pageSize: 20 });

  fireEvent.click(screen.getByTitle('2'));
  await waitFor(() => expect(lastQuery()).toEqual({ page: 2, pageSize: 20 }));

  const search = screen.getByPlaceholderText('搜索用户名或昵称');
  fireEvent.change(search, { target: { value: ' 李 ' } });
  fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
  await waitFor(() => expect(lastQuery()).toEqual({ keyword: '李', page: 1, pageSize: 20 }));

  fireEvent.click(screen.getByTitle('2'));
  await waitFor(() => expect(lastQuery()).toEqual({ keyword: '李', page: 2, pageSize: 20 }));
  const u = user();
  expect(screen.getByLabelText('仅本部门')).toBeDisabled();
  await u.click(screen.getByLabelText('按部门筛选'));
  const locked = (await screen.findByTitle('财务部')).closest('.ant-select-tree-treenode');
  expect(locked).toHaveClass('ant-select-tree-treenode-disabled');
  await u.click(screen.getByTitle('研发中心'));
  await waitFor(() => expect(lastQuery()).toEqual({ keyword: '李', deptId: 'd2', page: 1, pageSize: 20 }));

  await u.click(screen.getByLabelText('仅本部门'));
  await pickOption(screen.getByLabelText('按状态筛选'), '已锁定');
  await pickOption(screen.getByLabelText('按角色筛选'), '部门管理员');
  await pickOption(screen.getByLabelText('按来源筛选'), 'LDAP');
  await waitFor(() =>
    expect(lastQuery()).toEqual({ keyword: '李', deptId: 'd2', directOnly: true, status: 'locked', role: 'deptAdmin', source: 'ldap', page: 1, pageSize: 20 }),
  );
});

it('creates a user with the fields filled in and shows the generated password once; roles the administrator lacks are disabled', async () => {
  setup();
  const create = jest.spyOn(adminApi, 'createUser').mockResolvedValue({ userId: '9', initialPassword: 'Xy7#pQ2m' });
  const u = user();
  await rowOf('lisi');
  fireEvent.click(button(document.body, /新建用户/));
  const dialog = await waitFor(() => panelOf('新建用户'));
  expect(within(dialog).getByLabelText('审计管理员')).toBeDisabled();
  expect(within(dialog).getByLabelText('文档管理员')).toBeEnabled();
  fireEvent.mouseEnter(within(dialog).getByText('审计管理员'));
  expect(await screen.findByText('只能授予自己拥有的角色')).toBeInTheDocument();

  fill(within(dialog).getByLabelText('用户名'), 'zhaoliu');
  fill(within(dialog).getByLabelText('昵称'), '赵六');
  await u.click(within(dialog).getByLabelText('部门'));
  await u.click(await screen.findByTitle('研发中心'));
  fill(within(dialog).getByLabelText('工号'), 'E1024');
  fill(within(dialog).getByLabelText('手机'), '13800001234');
  fill(within(dialog).getByLabelText('邮箱'), 'zhaoliu@example.com');
  fireEvent.click(within(dialog).getByLabelText('文档管理员'));
  fill(within(dialog).getByLabelText('个人空间配额'), '20');
  expect(within(dialog).getByLabelText('自动生成')).toBeChecked();
  fireEvent.click(button(dialog, '创建'));

  await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
  expect(create).toHaveBeenCalledWith({
    userName: 'zhaoliu', nickName: '赵六', deptId: 'd2', employeeNo: 'E1024', mobile: '13800001234',
    email: 'zhaoliu@example.com', roles: ['docAdmin'], quota: 20 * GB, mustChangePassword: true,
  });
  expect(await screen.findByText('已创建用户“zhaoliu”')).toBeInTheDocument();
  const shown = await waitFor(() => panelOf('初始密码'));
  expect(shown).toHaveTextContent('初始密码仅显示这一次，请妥善转交本人；首次登录须修改密码。');
  expect(within(shown).getByText('Xy7#pQ2m')).toBeInTheDocument();
  await u.click(button(shown, /复制/));
  expect(await screen.findByText('密码已复制')).toBeInTheDocument();
  expect(await navigator.clipboard.readText()).toBe('Xy7#pQ2m');
  await waitFor(() => expect(getUsers).toHaveBeenCalledTimes(2));
  fireEvent.click(button(shown, '我已记下'));
  await waitFor(() => expect(screen.queryByText('Xy7#pQ2m')).not.toBeInTheDocument());
});

it('refuses a malformed mobile number in Chinese and sends nothing', async () => {
  setup();
  const create = jest.spyOn(adminApi, 'createUser');
  await rowOf('lisi');
  fireEvent.click(button(document.body, /新建用户/));
  const dialog = await waitFor(() => panelOf('新建用户'));
  fill(within(dialog).getByLabelText('用户名'), 'zhaoliu');
  fill(within(dialog).getByLabelText('手机'), '1380000');
  fireEvent.click(button(dialog, '创建'));
  expect(await within(dialog).findByText('请输入正确的 11 位手机号码')).toBeInTheDocument();
  expect(create).not.toHaveBeenCalled();
});

it('disables a person after a confirmation that every session ends', async () => {
  setup();
  const disable = jest.spyOn(adminApi, 'disableUser').mockResolvedValue({ userId: '5' });
  const menu = await openMore('lisi');
  fireEvent.click(within(menu).getByText('停用'));
  const confirm = await confirmOf('停用“李四”？');
  expect(confirm).toHaveTextContent('所有会话和客户端令牌立即失效');
  expect(disable).not.toHaveBeenCalled();
  fireEvent.click(button(confirm, '停用'));
  await waitFor(() => expect(disable).toHaveBeenCalledWith('5'));
  expect(await screen.findByText('已停用“李四”')).toBeInTheDocument();
  expect(await within(await rowOf('lisi')).findByText('已停用')).toBeInTheDocument();
  expect(entries(await openMore('lisi'))).toContain('启用');
});

it('离职交接 in 更多 opens the handover dialog for the person, and the list is read again after it', async () => {
  setup();
  const getHandover = jest.spyOn(leaverApi, 'getHandover').mockResolvedValue({
    userId: '5', userName: 'lisi', nickName: '李四', disabled: false, leftAt: null,
    files: { count: 1, bytes: 10 }, pendingTasks: 0, runningFlows: 0, shares: { count: 0 }, ferryTasks: { count: 0 }, leaderOf: [], adminOf: [],
  });
  const handover = jest.spyOn(leaverApi, 'handover').mockResolvedValue({
    userId: '5', successorId: '8', leftAt: 1, folder: null, files: { count: 1, bytes: 10 },
    pendingTasks: 0, runningFlows: 0, shares: { mode: 'keep', count: 0 }, ferryTasks: { count: 0 }, leaderOf: [], adminOf: [],
  });
  jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
  jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [{ userId: '8', userName: 'zhaoliu', nickName: '赵六', deptId: null, deptName: '' }], total: 1 });
  fireEvent.click(within(await openMore('lisi')).getByText('离职交接'));
  const dialog = await waitFor(() => panelOf('离职交接：李四（lisi）'));
  expect(getHandover).toHaveBeenCalledWith('5');
  expect(await within(dialog).findByText('个人文件 1 个（10 B）')).toBeInTheDocument();
  fireEvent.click(button(dialog, '选择接任者'));
  const picker = panelOf('选择接任者');
  fireEvent.click(await within(picker).findByLabelText(/赵六/));
  fireEvent.click(button(picker, '确定'));
  await waitFor(() => expect(within(dialog).getByText('赵六（zhaoliu）')).toBeInTheDocument());
  const calls = getUsers.mock.calls.length;
  fireEvent.click(button(dialog, '确认交接'));
  fireEvent.click(button(await confirmOf('确认为“李四”办理离职交接？'), '确认交接'));
  await waitFor(() => expect(handover).toHaveBeenCalledWith('5', { successorId: '8', shares: 'keep' }));
  await waitFor(() => expect(getUsers.mock.calls.length).toBeGreaterThan(calls));
});

it('resets a password and shows the new one once', async () => {
  setup();
  const reset = jest.spyOn(adminApi, 'resetPassword').mockResolvedValue({ userId: '5', revoked: 2, initialPassword: 'N3w#pass' });
  const menu = await openMore('lisi');
  fireEvent.click(within(menu).getByText('重置密码'));
  const dialog = await waitFor(() => panelOf('重置密码：李四'));
  expect(within(dialog).getByLabelText('自动生成')).toBeChecked();
  fireEvent.click(button(dialog, '重置'));
  await waitFor(() => expect(reset).toHaveBeenCalledWith('5', { mustChangePassword: true }));
  expect(await screen.findByText('密码已重置，已注销 2 个会话')).toBeInTheDocument();
  const shown = await waitFor(() => panelOf('新密码'));
  expect(within(shown).getByText('N3w#pass')).toBeInTheDocument();
  expect(shown).toHaveTextContent('新密码仅显示这一次');
});

it('offers 解锁 only for locked accounts, and ends every session of a person', async () => {
  setup();
  const unlock = jest.spyOn(adminApi, 'unlockUser').mockResolvedValue({ userId: '6' });
  const revoke = jest.spyOn(adminApi, 'revokeSessions').mockResolvedValue({ revoked: 3 });
  expect(entries(await openMore('lisi'))).not.toContain('解锁');
  const menu = await openMore('wangwu');
  expect(entries(menu)).toContain('解锁');
  fireEvent.click(within(menu).getByText('解锁'));
  await waitFor(() => expect(unlock).toHaveBeenCalledWith('6'));
  expect(await screen.findByText('已解锁“王五”，可以重新登录了')).toBeInTheDocument();
  const row = await rowOf('wangwu');
  await waitFor(() => expect(within(row).queryByText('已锁定')).not.toBeInTheDocument());
  expect(within(row).getByText('正常')).toBeInTheDocument();

  fireEvent.click(within(await openMore('lisi')).getByText('注销全部会话'));
  const confirm = await confirmOf('注销“李四”的全部会话？');
  fireEvent.click(button(confirm, '注销'));
  await waitFor(() => expect(revoke).toHaveBeenCalledWith('5'));
  expect(await screen.findByText('已注销 3 个会话')).toBeInTheDocument();
});

it('edits only what changed and the feature switches, showing what applies and where it comes from', async () => {
  setup();
  const policy: EffectiveFeaturePolicy = {
    own: { personalSpace: null, publicSpace: null, workflow: false, ferrySpaces: null },
    effective: { personalSpace: true, publicSpace: true, workflow: false, ferrySpaces: false },
    source: { personalSpace: '部门：研发中心', publicSpace: '全局', workflow: '个人', ferrySpaces: '全局' },
  };
  jest.spyOn(adminApi, 'getUserFeaturePolicy').mockResolvedValue(policy);
  const update = jest.spyOn(adminApi, 'updateUser').mockResolvedValue({ ...lisi, mobile: '13900002222' });
  const setPolicy = jest.spyOn(adminApi, 'setUserFeaturePolicy').mockResolvedValue(policy);
  fireEvent.click(button(await rowOf('lisi'), '编辑'));
  const drawer = await waitFor(() => panelOf('编辑用户：李四'));
  expect(within(drawer).getByText('lisi')).toBeInTheDocument();
  expect(within(drawer).queryByLabelText('用户名')).toBeNull();
  expect(await within(drawer).findByText('生效：开启（部门：研发中心）')).toBeInTheDocument();
  expect(within(drawer).getByText('生效：关闭（个人）')).toBeInTheDocument();
  expect(within(drawer).getByLabelText('手机')).toHaveValue('13800000005');

  fill(within(drawer).getByLabelText('手机'), '13900002222');
  await pickOption(within(drawer).getByLabelText('摆渡'), '开启');
  expect(within(drawer).getByText('保存后：开启（个人）')).toBeInTheDocument();
  fireEvent.click(button(drawer, '保存'));

  await waitFor(() => expect(setPolicy).toHaveBeenCalledTimes(1));
  expect(update).toHaveBeenCalledWith('5', { mobile: '13900002222' });
  expect(setPolicy).toHaveBeenCalledWith('5', { personalSpace: null, publicSpace: null, workflow: false, ferrySpaces: true });
  expect(await screen.findByText('已保存“李四”的修改')).toBeInTheDocument();
  expect(await within(await rowOf('lisi')).findByText('13900002222')).toBeInTheDocument();
});

it('shows no feature switches to a department administrator', async () => {
  setup({ system: false, roles: [], departments: [{ id: 'd2', name: '研发中心', path: 'd1/d2' }] });
  const getPolicy = jest.spyOn(adminApi, 'getUserFeaturePolicy');
  fireEvent.click(button(await rowOf('lisi'), '编辑'));
  const drawer = await waitFor(() => panelOf('编辑用户：李四'));
  expect(within(drawer).getByLabelText('系统管理员')).toBeDisabled();
  expect(within(drawer).queryByText('功能开关')).toBeNull();
  expect(getPolicy).not.toHaveBeenCalled();
});

it('opens filtered to the department it was sent from, sub-departments included', async () => {
  setup(systemScope, 2, 'd2');
  await rowOf('lisi');
  expect(getUsers).toHaveBeenCalledTimes(1);
  expect(getUsers).toHaveBeenCalledWith({ deptId: 'd2', page: 1, pageSize: 20 });
  expect(await screen.findByTitle('研发中心')).toBeInTheDocument();
  expect(screen.getByLabelText('仅本部门')).toBeEnabled();
});
