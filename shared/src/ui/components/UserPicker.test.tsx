import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, type DepartmentNode, type OrgUser, type UserGroup } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { UserPicker, USER_PICKER_PAGE_SIZE, type UserPickerProps } from './UserPicker';

useInlineStylesOnly();

jest.setTimeout(30_000);

const departments: DepartmentNode[] = [
  {
    id: 'd1',
    name: '总公司',
    parentId: null,
    children: [
      { id: 'd2', name: '研发部', parentId: 'd1', children: [] },
      { id: 'd3', name: '市场部', parentId: 'd1', children: [] },
    ],
  },
];
const zhang: OrgUser = { userId: 'u1', userName: 'zhangsan', nickName: '张三', deptId: 'd2', deptName: '研发部' };
const li: OrgUser = { userId: 'u2', userName: 'lisi', nickName: '李四', deptId: 'd3', deptName: '市场部' };
const admins: UserGroup = { id: 'g1', name: '管理员组', memberCount: 3 };
const editors: UserGroup = { id: 'g2', name: '编辑组', memberCount: 5 };

let getUsers: jest.SpyInstance;

beforeEach(() => {
  jest.spyOn(api, 'getDepartmentTree').mockResolvedValue(departments);
  jest.spyOn(api, 'getUserGroups').mockResolvedValue([admins, editors]);
  getUsers = jest.spyOn(api, 'getOrgUsers').mockImplementation(async (q) => {
    const all = [zhang, li].filter((u) => (!q.deptId || u.deptId === q.deptId) && (!q.keyword || u.nickName.includes(q.keyword)));
    return { data: all, total: all.length };
  });
});

afterEach(() => jest.restoreAllMocks());

function renderPicker(props: Partial<UserPickerProps> = {}) {
  const onOk = jest.fn();
  const onCancel = jest.fn();
  renderWithProviders(<UserPicker open onOk={onOk} onCancel={onCancel} {...props} />, { session: true });
  return { onOk, onCancel };
}

const dialog = () => screen.getByRole('dialog');
const ok = () => within(dialog()).getByRole('button', { name: /确\s*定/ });
const userList = () => screen.getByRole('list', { name: '用户列表' });

describe('UserPicker', () => {
  it('lists users and sends the keyword of the search box', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderPicker();
    expect(await within(userList()).findByText(/张三/)).toBeInTheDocument();
    expect(getUsers).toHaveBeenCalledWith({ keyword: '', deptId: '', page: 1, pageSize: USER_PICKER_PAGE_SIZE });
    expect(screen.getByRole('tab', { name: '用户' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '部门' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '用户组' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('搜索用户'), ' 李 {Enter}');
    await waitFor(() => expect(getUsers).toHaveBeenLastCalledWith({ keyword: '李', deptId: '', page: 1, pageSize: USER_PICKER_PAGE_SIZE }));
    await waitFor(() => expect(within(userList()).queryByText(/张三/)).not.toBeInTheDocument());
    expect(within(userList()).getByText(/李四/)).toBeInTheDocument();
  });

  it('filters the users by the department chosen in the tree', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderPicker();
    await within(userList()).findByText(/李四/);
    const tree = screen.getByRole('tree', { name: '按部门筛选' });
    await user.click(within(tree).getByText('研发部'));
    await waitFor(() => expect(getUsers).toHaveBeenLastCalledWith({ keyword: '', deptId: 'd2', page: 1, pageSize: USER_PICKER_PAGE_SIZE }));
    await waitFor(() => expect(within(userList()).queryByText(/李四/)).not.toBeInTheDocument());
    expect(within(userList()).getByText(/张三/)).toBeInTheDocument();
  });

  it('returns the users, departments and groups picked in every tab', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { onOk } = renderPicker();
    await user.click(await within(userList()).findByRole('checkbox', { name: /张三/ }));

    await user.click(screen.getByRole('tab', { name: '部门' }));
    const deptTree = await screen.findByRole('tree', { name: '选择部门' });
    await user.click(within(deptTree).getByText('市场部'));

    await user.click(screen.getByRole('tab', { name: '用户组' }));
    await user.click(await screen.findByRole('checkbox', { name: /管理员组/ }));

    const picked = screen.getByRole('group', { name: '已选择' });
    expect(within(picked).getByText('已选择 3 项')).toBeInTheDocument();
    expect(within(picked).getByText('张三（zhangsan）')).toBeInTheDocument();
    expect(within(picked).getByText('市场部')).toBeInTheDocument();
    expect(within(picked).getByText('管理员组')).toBeInTheDocument();

    await user.click(ok());
    expect(onOk).toHaveBeenCalledWith({
      users: [zhang],
      departments: [{ id: 'd3', name: '市场部', parentId: 'd1' }],
      groups: [admins],
    });
  });

  it('removing a tag deselects the entry', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { onOk } = renderPicker();
    const box = await within(userList()).findByRole('checkbox', { name: /张三/ });
    await user.click(box);
    await user.click(within(userList()).getByRole('checkbox', { name: /李四/ }));
    expect(box).toBeChecked();

    await user.click(screen.getByLabelText('移除 张三（zhangsan）'));
    expect(box).not.toBeChecked();
    const picked = screen.getByRole('group', { name: '已选择' });
    expect(within(picked).queryByText('张三（zhangsan）')).not.toBeInTheDocument();
    expect(within(picked).getByText('李四（lisi）')).toBeInTheDocument();

    await user.click(ok());
    expect(onOk).toHaveBeenCalledWith({ users: [li], departments: [], groups: [] });
  });

  it('offers only the allowed tabs and keeps one entry when multiple is off', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { onOk } = renderPicker({ limitTypes: ['group'], multiple: false });
    await user.click(await screen.findByRole('checkbox', { name: /管理员组/ }));
    await user.click(screen.getByRole('checkbox', { name: /编辑组/ }));
    expect(screen.getByRole('checkbox', { name: /管理员组/ })).not.toBeChecked();
    expect(screen.queryByRole('tab', { name: '用户' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: '部门' })).not.toBeInTheDocument();
    expect(getUsers).not.toHaveBeenCalled();
    expect(api.getDepartmentTree).not.toHaveBeenCalled();

    await user.click(ok());
    expect(onOk).toHaveBeenCalledWith({ users: [], departments: [], groups: [editors] });
  });
});
