// 系统管理 › 部门: the tree with people counts; a sub-department created; a department dragged
// under another after confirmation, and under its own sub-department refused; deletion refused
// (disabled with the reason, or the server's reason shown); a person moved by 调整部门 and by
// dragging onto the tree; the default quota saved in bytes and the feature switches with null
// for 继承; the leader picked; what a department administrator sees.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { api, setHttpAdapter, type AdminDepartmentNode, type AdminScope, type AdminUser, type Paged } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { button, panelOf, renderWithProviders, toasts, useInlineStylesOnly } from '@app/shared/test';
import { DepartmentsTab, USER_DRAG_TYPE } from './DepartmentsTab';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

useInlineStylesOnly();

const noPolicy = { personalSpace: null, publicSpace: null, workflow: null, ferrySpaces: null };
const dept = (o: Partial<AdminDepartmentNode> & Pick<AdminDepartmentNode, 'id' | 'name' | 'parentId' | 'path'>): AdminDepartmentNode => ({
  leader: null,
  admins: [],
  userCount: 0,
  quota: null,
  featurePolicy: noPolicy,
  manageable: true,
  children: [],
  ...o,
});

// 总公司 ─┬─ 研发中心 ─┬─ 前端组
//         │           └─ 后端组
//         └─ 市场部
const tree = (manageable = (_id: string) => true): AdminDepartmentNode[] => [
  dept({
    id: '1',
    name: '总公司',
    parentId: null,
    path: '1',
    userCount: 2,
    manageable: manageable('1'),
    children: [
      dept({
        id: '2',
        name: '研发中心',
        parentId: '1',
        path: '1/2',
        userCount: 1,
        featurePolicy: { ...noPolicy, publicSpace: true },
        leader: { userId: 'u7', userName: 'wangwu', nickName: '王五' },
        manageable: manageable('2'),
        children: [
          dept({ id: '3', name: '前端组', parentId: '2', path: '1/2/3', manageable: manageable('3') }),
          dept({ id: '4', name: '后端组', parentId: '2', path: '1/2/4', userCount: 3, manageable: manageable('4') }),
        ],
      }),
      dept({ id: '6', name: '市场部', parentId: '1', path: '1/6', manageable: manageable('6') }),
    ],
  }),
];

const systemScope: AdminScope = { system: true, roles: ['admin'], departments: [] };
const zhang: AdminUser = {
  userId: 'u1', userName: 'zhangsan', nickName: '张三', deptId: '2', deptName: '总公司/研发中心', mobile: '', email: '', employeeNo: '',
  source: 'local', roles: [], adminOf: [], isDocAdmin: false, isFlowAdmin: false, isTagAdmin: false, disabled: false, locked: false,
  totpRequired: false, totpBound: false, mustChangePassword: false, quota: null, effectiveQuota: 0, used: 0, lastLoginAt: null, createdAt: 0,
};

let getDepartments: jest.SpyInstance;
let getUsers: jest.SpyInstance;

function mockApi(scope: AdminScope = systemScope, departments = tree()) {
  jest.spyOn(adminApi, 'getScope').mockResolvedValue(scope);
  getDepartments = jest.spyOn(adminApi, 'getDepartments').mockResolvedValue(departments);
  getUsers = jest.spyOn(adminApi, 'getUsers').mockImplementation(async (q) => {
    const data = q.deptId === '2' ? [zhang] : [];
    return { data, total: data.length } as Paged<AdminUser>;
  });
}

afterEach(() => {
  jest.restoreAllMocks();
  setHttpAdapter(undefined);
});

// role queries walk the whole antd DOM and are slow on a loaded machine: labels and text instead
const treeEl = () => screen.getByLabelText('部门树');
const heading = (name: string) => screen.findByText(name, { selector: 'h4' });
/** The title of a department in the tree (the span that takes dropped people). */
const nodeTitle = (name: string) => within(treeEl()).getByText(name).closest('[data-dept-id]') as HTMLElement;

async function renderTab(select?: string) {
  const onShowUsers = jest.fn();
  renderWithProviders(<DepartmentsTab onShowUsers={onShowUsers} />, { session: { userInfo: { isAdmin: true } } });
  await within(await screen.findByLabelText('部门树')).findByText('研发中心');
  if (select) {
    fireEvent.click(within(treeEl()).getByText(select));
    await heading(select);
  }
  return { onShowUsers };
}

/** Picks an option of a Select opened for the first time (a closed dropdown lingers in jsdom, so the newest one is used). */
async function choose(select: HTMLElement, label: string) {
  const before = document.querySelectorAll('.ant-select-dropdown').length;
  fireEvent.mouseDown(select);
  const dropdown = await waitFor(() => {
    const all = document.querySelectorAll<HTMLElement>('.ant-select-dropdown');
    if (all.length <= before) throw new Error('the options did not open');
    return all[all.length - 1];
  });
  fireEvent.click(dropdown.querySelector(`.ant-select-item-option[title="${label}"]`) as HTMLElement);
}

/** A fake DataTransfer carrying one dragged person. */
const personDrag = (userId: string, name: string) => ({
  types: [USER_DRAG_TYPE, 'text/plain'],
  getData: (type: string) => (type === USER_DRAG_TYPE ? userId : type === 'text/plain' ? name : ''),
  setData: () => undefined,
  dropEffect: 'none',
  effectAllowed: 'all',
});

describe('部门', () => {
  it('shows the tree with people counts, creates a sub-department under the chosen one and filters by name', async () => {
    mockApi();
    const create = jest.spyOn(adminApi, 'createDepartment').mockResolvedValue({ id: '9' });
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { onShowUsers } = await renderTab();
    // the root is chosen at first; every node shows its direct people
    expect(await heading('总公司')).toBeInTheDocument();
    expect(within(nodeTitle('后端组')).getByLabelText('3 人')).toBeInTheDocument();

    await user.click(within(treeEl()).getByText('研发中心'));
    expect(await heading('研发中心')).toBeInTheDocument();
    expect(screen.getByText('王五（wangwu）')).toBeInTheDocument();
    await user.click(screen.getByText('查看成员'));
    expect(onShowUsers).toHaveBeenCalledWith('2');

    await user.click(button(document.body, '新建下级部门'));
    const dialog = await waitFor(() => panelOf('在“研发中心”下新建部门'));
    await user.click(button(dialog, '新建'));
    expect(await within(dialog).findByText('请输入部门名称')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('部门名称'), ' 测试组 ');
    await user.click(button(dialog, '新建'));
    await waitFor(() => expect(create).toHaveBeenCalledWith({ name: '测试组', parentId: '2' }));
    await waitFor(() => expect(getDepartments).toHaveBeenCalledTimes(2));

    // the search keeps the way to the departments whose name matches
    await user.type(screen.getByLabelText('搜索部门'), '前端');
    await waitFor(() => expect(within(treeEl()).queryByText('市场部')).not.toBeInTheDocument());
    expect(within(treeEl()).getByText('前端组')).toBeInTheDocument();
    expect(within(treeEl()).getByText('研发中心')).toBeInTheDocument();
    expect(within(treeEl()).queryByText('后端组')).not.toBeInTheDocument();
  });

  it('a department dragged onto another moves under it after confirmation; under its own sub-department it is refused', async () => {
    mockApi();
    const update = jest.spyOn(adminApi, 'updateDepartment').mockResolvedValue({ id: '3' });
    await renderTab();
    const drag = (from: string, to: string) => {
      const source = nodeTitle(from);
      const target = nodeTitle(to);
      fireEvent.dragStart(source, { clientX: 0, clientY: 0 });
      fireEvent.dragEnter(target, { clientX: 200, clientY: 0 });
      fireEvent.dragOver(target, { clientX: 200, clientY: 0 });
      fireEvent.drop(target, { clientX: 200, clientY: 0 });
      fireEvent.dragEnd(source);
    };

    drag('研发中心', '前端组');
    await waitFor(() => expect(toasts()).toContain('不能把部门移到它自己或它的下级部门下'));
    drag('研发中心', '研发中心');
    await waitFor(() => expect(toasts().filter((t) => t === '不能把部门移到它自己或它的下级部门下')).toHaveLength(2));
    expect(screen.queryByText(/移动到/)).not.toBeInTheDocument();

    drag('前端组', '市场部');
    const confirm = await screen.findByText('将“前端组”移动到“市场部”下？其下级部门和人员随之移动。');
    const dialog = confirm.closest('.ant-modal') as HTMLElement;
    await userEvent.setup({ delay: null, pointerEventsCheck: 0 }).click(button(dialog, '移动'));
    await waitFor(() => expect(update).toHaveBeenCalledWith('3', { parentId: '6' }));
    expect(update).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(getDepartments).toHaveBeenCalledTimes(2));
  });

  it('a department with people or sub-departments cannot be deleted and says why; the server’s refusal is shown', async () => {
    mockApi();
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    await renderTab('研发中心');
    const remove = screen.getByLabelText('删除部门');
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription('该部门下还有 1 名用户，不能删除');
    fireEvent.pointerEnter(remove);
    fireEvent.mouseEnter(remove);
    await waitFor(() => expect(document.querySelector('.ant-tooltip-container')).toHaveTextContent('该部门下还有 1 名用户，不能删除'));

    // a department that looks empty: the server still refuses (someone was added meanwhile)
    const calls: string[] = [];
    setHttpAdapter((async (config: InternalAxiosRequestConfig) => {
      calls.push(`${config.method?.toUpperCase()} ${config.url}`);
      const { AxiosError } = await import('axios');
      const response = { data: { code: 40902, message: '该部门下还有用户，不能删除', result: null }, status: 409, statusText: '', headers: {}, config } as AxiosResponse;
      throw new AxiosError('HTTP 409', 'ERR_BAD_REQUEST', config, null, response);
    }) as AxiosAdapter);
    await user.click(within(treeEl()).getByText('前端组'));
    await heading('前端组');
    await user.click(screen.getByLabelText('删除部门'));
    const confirm = await screen.findByText('确定删除“前端组”吗？');
    await user.click(button(confirm.closest('.ant-modal') as HTMLElement, '删除'));
    await waitFor(() => expect(toasts()).toContain('该部门下还有用户，不能删除'));
    expect(calls).toEqual(['DELETE /api/Admin/Departments/3']);
    expect(screen.getByText('前端组', { selector: 'h4' })).toBeInTheDocument();
  });

  it('moves a person by dragging onto the tree (after confirmation) and through 调整部门', async () => {
    mockApi();
    const update = jest.spyOn(adminApi, 'updateUser').mockResolvedValue({ ...zhang, deptId: '3' });
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    await renderTab('研发中心');
    expect(getUsers).toHaveBeenLastCalledWith({ deptId: '2', directOnly: true, pageSize: 50 });
    const row = (await screen.findByLabelText('调整部门 张三')).closest('[role="listitem"]') as HTMLElement;
    expect(row).toHaveAttribute('draggable', 'true');

    const dataTransfer = personDrag('u1', '张三');
    fireEvent.dragOver(nodeTitle('前端组'), { dataTransfer });
    fireEvent.drop(nodeTitle('前端组'), { dataTransfer });
    const confirm = await screen.findByText('将“张三”调到“前端组”？');
    await user.click(button(confirm.closest('.ant-modal') as HTMLElement, '调整'));
    await waitFor(() => expect(update).toHaveBeenCalledWith('u1', { deptId: '3' }));
    await waitFor(() => expect(getDepartments).toHaveBeenCalledTimes(2));

    // without dragging: a department picked in a dialog
    await user.click(await screen.findByLabelText('调整部门 张三'));
    const dialog = await waitFor(() => panelOf('调整“张三”的部门'));
    expect(button(dialog, '调整')).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox'));
    const dropdown = await waitFor(() => document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)') as HTMLElement);
    await user.click(await within(dropdown).findByTitle('市场部'));
    await user.click(button(dialog, '调整'));
    await waitFor(() => expect(update).toHaveBeenLastCalledWith('u1', { deptId: '6' }));
    await waitFor(() => expect(getDepartments).toHaveBeenCalledTimes(3));
  });

  it('saves the default quota in bytes and the feature switches with null for 继承', async () => {
    mockApi();
    const update = jest.spyOn(adminApi, 'updateDepartment').mockResolvedValue({ id: '2' });
    const setPolicy = jest.spyOn(adminApi, 'setDepartmentFeaturePolicy').mockResolvedValue({ id: '2' });
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    await renderTab('研发中心');

    const quota = screen.getByLabelText('默认配额（GB）');
    expect(quota).toHaveValue('');
    expect(quota).toHaveAttribute('placeholder', '继承上级');
    await user.type(quota, '10');
    await user.click(button(document.body, '保存配额'));
    await waitFor(() => expect(update).toHaveBeenCalledWith('2', { quota: 10737418240 }));

    const policy = screen.getByLabelText('功能策略');
    await choose(within(policy).getByLabelText('个人空间'), '关闭');
    await choose(within(policy).getByLabelText('企业空间'), '继承');
    await choose(within(policy).getByLabelText('摆渡'), '开启');
    expect(policy).toHaveTextContent('个人空间关闭企业空间继承审批流程继承摆渡开启');
    await user.click(button(policy, '保存功能策略'));
    await waitFor(() =>
      expect(setPolicy).toHaveBeenCalledWith('2', { personalSpace: false, publicSpace: null, workflow: null, ferrySpaces: true }),
    );
  });

  it('picks and clears the leader', async () => {
    mockApi();
    jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
    jest.spyOn(api, 'getOrgUsers').mockResolvedValue({
      data: [{ userId: 'u1', userName: 'zhangsan', nickName: '张三', deptId: '2', deptName: '研发中心' }],
      total: 1,
    });
    const update = jest.spyOn(adminApi, 'updateDepartment').mockResolvedValue({ id: '2' });
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    await renderTab('研发中心');

    await user.click(button(document.body, '选择负责人'));
    const picker = panelOf('选择负责人');
    await user.click(await within(picker).findByRole('checkbox', { name: /张三/ }));
    await user.click(button(picker, '确定'));
    await waitFor(() => expect(update).toHaveBeenCalledWith('2', { leaderId: 'u1' }));

    await user.click(button(document.body, '清除负责人'));
    await waitFor(() => expect(update).toHaveBeenLastCalledWith('2', { leaderId: null }));
  });

  it('a department administrator manages only their subtree, without quota, switches or administrators', async () => {
    mockApi(
      { system: false, roles: [], departments: [{ id: '2', name: '研发中心', path: '1/2' }] },
      tree((id) => ['2', '3', '4'].includes(id)),
    );
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    await renderTab();
    // the first department they manage is chosen
    expect(await heading('研发中心')).toBeInTheDocument();
    expect(button(document.body, '新建下级部门')).toBeEnabled();
    expect(screen.getByLabelText('删除部门')).toHaveAccessibleDescription('不能删除你所管理的最上级部门');
    expect(screen.queryByLabelText('功能策略')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('个人空间默认配额')).not.toBeInTheDocument();
    expect(screen.queryByText('设置部门管理员')).not.toBeInTheDocument();

    await user.click(within(treeEl()).getByText('市场部'));
    expect(await screen.findByText('你只能看到该部门在组织中的位置，无权管理。')).toBeInTheDocument();
    expect(screen.queryByLabelText('删除部门')).not.toBeInTheDocument();
  });
});
