// 系统管理 › 用户组: the groups with their member counts; a group created (a taken name refused
// before any call), renamed and deleted; its members set with the user picker, which opens with
// every current member (read page by page from the administrators' call), the disabled ones
// marked 已停用 and kept by a save unless removed.
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { api, setHttpAdapter, type AdminGroupMember, type OrgUser, type UserGroup } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { button, panelOf, renderWithProviders, toasts, useInlineStylesOnly } from '@app/shared/test';
import { GroupsTab } from './GroupsTab';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

useInlineStylesOnly();

const admins: UserGroup = { id: 'g1', name: '管理员组', memberCount: 3 };
const editors: UserGroup = { id: 'g2', name: '编辑组', memberCount: 0 };
const person = (userId: string, userName: string, nickName: string): OrgUser => ({ userId, userName, nickName, deptId: '2', deptName: '研发中心' });
const zhang = person('u1', 'zhangsan', '张三');
const li = person('u2', 'lisi', '李四');
const wang = person('u3', 'wangwu', '王五');
const zhao = person('u4', 'zhaoliu', '赵六');
const member = (u: OrgUser, disabled = false): AdminGroupMember => ({ ...u, disabled });

let getGroups: jest.SpyInstance;

beforeEach(() => {
  getGroups = jest.spyOn(api, 'getUserGroups').mockResolvedValue([admins, editors]);
});
afterEach(() => {
  jest.restoreAllMocks();
  setHttpAdapter(undefined);
});

const user = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });
const rowOf = (name: string) => screen.getByText(name, { selector: 'td' }).closest('tr') as HTMLElement;

async function renderTab() {
  renderWithProviders(<GroupsTab />, { session: { userInfo: { isAdmin: true } } });
  await screen.findByText('管理员组', { selector: 'td' });
}

describe('用户组', () => {
  it('lists the groups and creates one, refusing a name already taken', async () => {
    const create = jest.spyOn(adminApi, 'createGroup').mockResolvedValue({ id: 'g3', name: '评审组', memberCount: 0 });
    const u = user();
    await renderTab();
    expect(within(rowOf('管理员组')).getByText('3')).toBeInTheDocument();
    expect(within(rowOf('编辑组')).getByText('0')).toBeInTheDocument();

    await u.click(button(document.body, '新建用户组'));
    const dialog = await waitFor(() => panelOf('新建用户组'));
    const name = within(dialog).getByLabelText('用户组名称');
    await u.type(name, '编辑组');
    await u.click(button(dialog, '新建'));
    expect(await within(dialog).findByText('已有同名的用户组')).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();

    await u.clear(name);
    await u.type(name, ' 评审组 ');
    await u.click(button(dialog, '新建'));
    await waitFor(() => expect(create).toHaveBeenCalledWith('评审组'));
    await waitFor(() => expect(getGroups).toHaveBeenCalledTimes(2));
  });

  it('renames a group and deletes another after confirmation', async () => {
    const rename = jest.spyOn(adminApi, 'renameGroup').mockResolvedValue({ id: 'g2', name: '编辑二组', memberCount: 0 });
    const remove = jest.spyOn(adminApi, 'deleteGroup').mockResolvedValue({ id: 'g1' });
    const u = user();
    await renderTab();

    await u.click(within(rowOf('编辑组')).getByLabelText('重命名 编辑组'));
    const dialog = await waitFor(() => panelOf('重命名用户组'));
    const name = within(dialog).getByLabelText('用户组名称');
    expect(name).toHaveValue('编辑组');
    await u.clear(name);
    await u.type(name, '编辑二组');
    await u.click(button(dialog, '保存'));
    await waitFor(() => expect(rename).toHaveBeenCalledWith('g2', '编辑二组'));
    await waitFor(() => expect(getGroups).toHaveBeenCalledTimes(2));

    await u.click(within(rowOf('管理员组')).getByLabelText('删除 管理员组'));
    const confirm = await screen.findByText(/确定删除“管理员组”吗？/);
    await u.click(button(confirm.closest('.ant-modal') as HTMLElement, '删除'));
    await waitFor(() => expect(remove).toHaveBeenCalledWith('g1'));
    expect(rename).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(getGroups).toHaveBeenCalledTimes(3));
    await waitFor(() => expect(toasts()).toContain('已删除“管理员组”'));
  });

  it('sets the members with the picker, starting from every current member', async () => {
    // the server hands out two members a page, whatever the size asked for
    const asked: unknown[] = [];
    setHttpAdapter((async (config: InternalAxiosRequestConfig) => {
      const { page, pageSize } = config.params as { page: number; pageSize: number };
      asked.push({ url: config.url, page, pageSize });
      const all = [zhang, li, wang].map((u) => member(u));
      const data = config.url === '/api/Admin/Groups/g1/Members' ? all.slice((page - 1) * 2, page * 2) : [];
      return { data: { code: 200, message: null, result: { data, total: all.length } }, status: 200, statusText: '', headers: {}, config } as AxiosResponse;
    }) as AxiosAdapter);
    jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
    jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [zhang, li, wang, zhao], total: 4 });
    const setMembers = jest.spyOn(adminApi, 'setGroupMembers').mockResolvedValue({ id: 'g1', name: '管理员组', memberCount: 3 });
    const u = user();
    await renderTab();

    await u.click(within(rowOf('管理员组')).getByLabelText('成员 管理员组'));
    const picker = await waitFor(() => panelOf('设置“管理员组”的成员'));
    expect(asked).toEqual([
      { url: '/api/Admin/Groups/g1/Members', page: 1, pageSize: 1000 },
      { url: '/api/Admin/Groups/g1/Members', page: 2, pageSize: 1000 },
    ]);
    // no disabled member: nothing marked, no notice
    expect(within(picker).queryByText('已停用')).not.toBeInTheDocument();
    expect(within(picker).queryByRole('alert')).not.toBeInTheDocument();
    // only people: no department or group tabs
    expect(within(picker).queryByText('用户组', { selector: '[role="tab"], [role="tab"] *' })).not.toBeInTheDocument();
    const picked = within(picker).getByLabelText('已选择');
    expect(within(picked).getByText('已选择 3 项')).toBeInTheDocument();

    await u.click(within(picker).getByLabelText('移除 李四（lisi）'));
    await u.click(await within(picker).findByRole('checkbox', { name: /赵六/ }));
    expect(within(picked).getByText('已选择 3 项')).toBeInTheDocument();
    await u.click(button(picker, '确定'));
    await waitFor(() => expect(setMembers).toHaveBeenCalledWith('g1', ['u1', 'u3', 'u4']));
    await waitFor(() => expect(getGroups).toHaveBeenCalledTimes(2));
  });

  it('shows a disabled member as 已停用 and keeps them in the saved list unless removed', async () => {
    const getMembers = jest.spyOn(adminApi, 'getGroupMembers').mockResolvedValue({ data: [member(zhang), member(wang, true)], total: 2 });
    jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
    // the user search lists enabled people only: 王五 is not among them
    jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [zhang, li, zhao], total: 3 });
    const setMembers = jest.spyOn(adminApi, 'setGroupMembers').mockResolvedValue({ id: 'g1', name: '管理员组', memberCount: 2 });
    const u = user();
    await renderTab();

    await u.click(within(rowOf('管理员组')).getByLabelText('成员 管理员组'));
    let picker = await waitFor(() => panelOf('设置“管理员组”的成员'));
    expect(getMembers).toHaveBeenCalledWith('g1', { page: 1, pageSize: 1000 });
    const picked = within(picker).getByLabelText('已选择');
    expect(within(picked).getByText('已选择 2 项')).toBeInTheDocument();
    const wangTag = within(picked).getByText('王五（wangwu）').closest('.ant-tag') as HTMLElement;
    expect(within(wangTag).getByText('已停用')).toBeInTheDocument();
    const zhangTag = within(picked).getByText('张三（zhangsan）').closest('.ant-tag') as HTMLElement;
    expect(within(zhangTag).queryByText('已停用')).not.toBeInTheDocument();
    expect(within(picker).getByText(/该用户组有 1 名已停用的成员.*保存时会保留他们/)).toBeInTheDocument();

    // adding someone keeps the disabled member in the PUT body
    await u.click(await within(picker).findByRole('checkbox', { name: /赵六/ }));
    expect(within(picked).getByText('已选择 3 项')).toBeInTheDocument();
    await u.click(button(picker, '确定'));
    await waitFor(() => expect(setMembers).toHaveBeenCalledWith('g1', ['u1', 'u3', 'u4']));
    await waitFor(() => expect(toasts()).toContain('“管理员组”的成员已保存：已启用 2 人，另保留已停用的成员 1 人'));
    await waitFor(() => expect(getGroups).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByText('设置“管理员组”的成员')).not.toBeInTheDocument());

    // removed explicitly, the disabled member is left out
    setMembers.mockClear();
    await u.click(within(rowOf('管理员组')).getByLabelText('成员 管理员组'));
    picker = await waitFor(() => panelOf('设置“管理员组”的成员'));
    await u.click(within(picker).getByLabelText('移除 王五（wangwu）'));
    await u.click(button(picker, '确定'));
    await waitFor(() => expect(setMembers).toHaveBeenCalledWith('g1', ['u1']));
  });
});
