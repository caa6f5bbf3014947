import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import {
  api,
  appStore,
  REMOTE_CONTRACT_VERSION,
  runtimeConfigAtom,
  WORKFLOW_CHANGED_EVENT,
  type FolderItems,
  type Item,
  type StartWorkflowBody,
  type WorkflowRouteStep,
} from '@app/shared';
import meta from './meta';
import { button, detail, settled, expense, leave, lisi, ok, panelOf, pickOption, renderAt, row, stopped, toasts, where } from './__tests__/harness';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(90_000);

const counts = { todo: 3, done: 5, mine: 2, cc: 1 };

beforeEach(() => {
  jest.spyOn(api, 'getWorkflowCounts').mockResolvedValue(counts);
  jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([leave, expense, stopped]);
});

afterEach(() => {
  jest.restoreAllMocks();
  appStore.set(runtimeConfigAtom, null);
});

it('meta lists the workflow pages behind the workflow feature', () => {
  expect(meta.name).toBe('workflow');
  // the shell ↔ remote contract version this remote reports (shared/src/contract.ts)
  expect(meta.contract).toBe(REMOTE_CONTRACT_VERSION);
  expect(meta.title).toBe('流程');
  expect(meta.menu.map((m) => [m.title, m.path, m.feature])).toEqual([
    ['流程列表', '/workflow/list', 'workflow'],
    ['流程详情', '/workflow/informationDetails', 'workflow'],
  ]);
});

describe('流程列表', () => {
  it('/workflow opens 待我审批: the boxes with their counts, the rows of the box, and another box on its tab', async () => {
    const list = jest.spyOn(api, 'getWorkflowInstances').mockImplementation(async (q) =>
      q.box === 'todo'
        ? { data: [row(), row({ instanceId: 'i2', number: 'SP20261120000003', title: '年假', status: 2, currentStep: '', pending: [], finishedAt: '2026-11-21 10:00:00' })], total: 2 }
        : { data: [], total: 0 },
    );
    renderAt('/workflow');
    expect(await screen.findByRole('heading', { name: '流程列表' })).toBeInTheDocument();
    expect(where()).toBe('/workflow/list/todo');
    expect(screen.getByRole('tab', { name: '流程列表', selected: true })).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: '待我审批 3', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '我已审批 5' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '我发起的 2' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '抄送我的 1' })).toBeInTheDocument();
    expect(list).toHaveBeenCalledWith({ box: 'todo', page: 1, pageSize: 20 });

    const first = (await screen.findByText('SP20261124000012')).closest('tr') as HTMLElement;
    expect(within(first).getByText('请假申请-张三-2026-11-24').closest('a')).toHaveAttribute('href', '/workflow/informationDetails?id=i1');
    expect(within(first).getByText('请假申请')).toBeInTheDocument();
    expect(within(first).getByText('张三')).toBeInTheDocument();
    expect(within(first).getByText('部门审批')).toBeInTheDocument();
    expect(within(first).getByText('（李四）')).toBeInTheDocument();
    expect(within(first).getByText('审批中')).toHaveClass('ant-tag-processing');
    expect(within(first).getByText('2026-11-24 09:30')).toBeInTheDocument();
    const second = screen.getByText('SP20261120000003').closest('tr') as HTMLElement;
    expect(within(second).getByText('已通过')).toHaveClass('ant-tag-green');
    expect(within(second).getByText('—')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: '我发起的 2' }));
    await waitFor(() => expect(where()).toBe('/workflow/list/mine'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ box: 'mine', page: 1, pageSize: 20 }));
    expect(await screen.findByText('你还没有发起过审批')).toBeInTheDocument();
    expect(screen.queryByText('SP20261124000012')).not.toBeInTheDocument();
  });

  it('the filters and the page live in the address: reload keeps them, back restores them', async () => {
    const list = jest.spyOn(api, 'getWorkflowInstances').mockResolvedValue({ data: [row()], total: 45 });
    renderAt('/workflow/list/done?keyword=请假&page=2');
    await waitFor(() => expect(list).toHaveBeenCalledWith({ box: 'done', keyword: '请假', page: 2, pageSize: 20 }));
    expect(screen.getByLabelText('搜索标题或编号')).toHaveValue('请假');

    await pickOption(screen.getByLabelText('状态'), '已驳回');
    await waitFor(() => expect(where()).toBe('/workflow/list/done?status=3&keyword=%E8%AF%B7%E5%81%87'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ box: 'done', status: 3, keyword: '请假', page: 1, pageSize: 20 }));

    await pickOption(screen.getByLabelText('流程'), '请假申请');
    await waitFor(() => expect(where()).toContain('definitionId=d1'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ box: 'done', status: 3, definitionId: 'd1', keyword: '请假', page: 1, pageSize: 20 }));
    // the definitions offered are the ones the server lists
    expect(screen.getByLabelText('流程').closest('.ant-select')).toHaveTextContent('请假申请');

    const search = screen.getByLabelText('搜索标题或编号');
    fireEvent.change(search, { target: { value: ' SP2026 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ box: 'done', status: 3, definitionId: 'd1', keyword: 'SP2026', page: 1, pageSize: 20 }));

    // the next page of 45 rows
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(where()).toContain('page=2'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2, status: 3 })));

    // back: the page before, with the same filters
    fireEvent.click(button(document.body, '浏览器后退'));
    await waitFor(() => expect(where()).not.toContain('page=2'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ box: 'done', status: 3, definitionId: 'd1', keyword: 'SP2026', page: 1, pageSize: 20 }));
    fireEvent.click(button(document.body, '浏览器后退'));
    await waitFor(() => expect(where()).not.toContain('SP2026'));
    await settled();
    expect(screen.getByLabelText('搜索标题或编号')).toHaveValue('请假');

    fireEvent.click(button(document.body, '清除筛选'));
    await waitFor(() => expect(where()).toBe('/workflow/list/done'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ box: 'done', page: 1, pageSize: 20 }));
    await settled();
  });

  it('a filtered empty box says nothing matched; list/{path...} leads to 待我审批; an unknown path says 页面不存在', async () => {
    jest.spyOn(api, 'getWorkflowInstances').mockResolvedValue({ data: [], total: 0 });
    const { unmount } = renderAt('/workflow/list/cc?status=1');
    expect(await screen.findByText('没有符合条件的审批')).toBeInTheDocument();
    unmount();
    const second = renderAt('/workflow/list/a/b?status=2');
    await waitFor(() => expect(where()).toBe('/workflow/list/todo?status=2'));
    expect(await screen.findByText('没有符合条件的审批')).toBeInTheDocument();
    second.unmount();
    renderAt('/workflow/nope');
    expect(await screen.findByText('页面不存在')).toBeInTheDocument();
  });
});

describe('发起审批', () => {
  const route: WorkflowRouteStep[] = [
    { name: '部门审批', mode: 'sequential', approvers: [lisi], choose: false, fallback: false },
    { name: '人事审批', mode: 'any', approvers: [{ userId: '90', name: '管理员甲' }], choose: false, fallback: true },
    { name: '项目负责人审批', mode: 'all', approvers: [], choose: true, fallback: false },
  ];
  const root: Item = {
    id: '10', parentId: null, name: '个人文件', type: 'folder', extension: '', size: 0, idPath: '2/10', namePath: '个人文件', spaceType: 2,
    ownerId: '1', ownerName: '张三', createdAt: '', updatedAt: '', isFavorite: false, tags: [], permissions: ['view', 'download'],
  };
  const file = (id: string, name: string, size: number): Item => ({ ...root, id, parentId: '10', name, type: 'file', extension: name.split('.').pop() ?? '', size, idPath: `2/10/${id}`, namePath: `个人文件/${name}` });
  const folderItems: FolderItems = {
    folder: root,
    items: { data: [{ ...root, id: '11', parentId: '10', name: '项目文档', idPath: '2/10/11', namePath: '个人文件/项目文档' }, file('12', '病假条.pdf', 2048), file('14', '体检报告.pdf', 4096)], total: 3 },
  };

  it('chooses an enabled definition, shows the resolved route, checks the form, and starts the approval with the right body', async () => {
    appStore.set(runtimeConfigAtom, { mode: 'full', appTitle: '云文档', apiUrl: '', apiUrlPrefix: '/api', fileUrl: '', workflowFileNumber: 1, remotes: [] });
    jest.spyOn(api, 'getWorkflowInstances').mockResolvedValue({ data: [], total: 0 });
    const getRoute = jest.spyOn(api, 'getWorkflowRoute').mockResolvedValue(route);
    jest.spyOn(api, 'getFolderTree').mockImplementation(async (space) =>
      space === 'Personal' ? [{ id: '10', parentId: null, name: '个人文件', idPath: '2/10', namePath: '个人文件', hasChildren: true }] : [],
    );
    jest.spyOn(api, 'getTreeNodes').mockResolvedValue([]);
    const items = jest.spyOn(api, 'getItems').mockResolvedValue(folderItems);
    jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
    jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [{ userId: '8', userName: 'wangwu', nickName: '王五', deptId: null, deptName: '' }], total: 1 });
    const start = jest.spyOn(api, 'startWorkflow').mockResolvedValue({ instanceId: 'new1' });
    jest.spyOn(api, 'getWorkflowInstance').mockResolvedValue(detail({ instanceId: 'new1' }));
    const changed = jest.fn();
    window.addEventListener(WORKFLOW_CHANGED_EVENT, changed);

    renderAt('/workflow/list/mine');
    fireEvent.click(await waitFor(() => button(document.body, '发起审批')));
    const chooser = panelOf('选择要发起的流程');
    // grouped by category; a disabled definition is not offered
    expect(await within(chooser).findByLabelText('人事')).toHaveTextContent('请假申请');
    expect(within(chooser).getByLabelText('财务')).toHaveTextContent('费用报销');
    expect(within(chooser).queryByText('已停用的流程')).not.toBeInTheDocument();
    fireEvent.click(button(chooser, '请假申请'));

    const drawer = panelOf('发起审批：请假申请');
    await waitFor(() => expect(getRoute).toHaveBeenCalledWith('d1', { errorMode: 'none' }));
    const today = dayjs().format('YYYY-MM-DD');
    expect(within(drawer).getByLabelText('标题')).toHaveValue(`请假申请-张三-${today}`);

    // the route as the server resolved it for the initiator
    const routeBox = await within(drawer).findByLabelText('审批流程');
    const step0 = within(routeBox).getByTestId('route-step-0');
    expect(step0).toHaveTextContent('审批人：李四');
    expect(within(routeBox).getByText('依次审批')).toBeInTheDocument();
    expect(within(routeBox).getByTestId('route-step-1')).toHaveTextContent('无审批人，转流程管理员（流程管理员：管理员甲）');
    expect(within(routeBox).getByText('或签')).toBeInTheDocument();
    expect(within(routeBox).getByText('会签')).toBeInTheDocument();

    // 提交 with nothing filled in: the required field and the chosen approvers are asked for
    fireEvent.click(button(drawer, '提交'));
    expect(await within(drawer).findByText('请填写请假天数')).toBeInTheDocument();
    expect(within(drawer).getByText('请选择开始日期')).toBeInTheDocument();
    expect(within(routeBox).getByRole('alert')).toHaveTextContent('请选择审批人');
    expect(start).not.toHaveBeenCalled();

    fireEvent.change(within(drawer).getByLabelText('请假天数'), { target: { value: '3' } });
    const date = within(drawer).getByLabelText('开始日期');
    fireEvent.mouseDown(date);
    fireEvent.change(date, { target: { value: '2026-12-01' } });
    fireEvent.keyDown(date, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await pickOption(within(drawer).getByLabelText('请假类型'), '病假');

    // 附件: files from the user's spaces, at most workflowFileNumber (1 here)
    fireEvent.click(button(drawer, '选择文件'));
    const picker = panelOf('选择附件');
    const fileList = await within(picker).findByLabelText('文件列表');
    await waitFor(() => expect(items).toHaveBeenCalledWith('10', { page: 1, pageSize: 50 }));
    expect(within(fileList).queryByText('项目文档')).not.toBeInTheDocument();
    fireEvent.click(await within(fileList).findByLabelText(/病假条\.pdf/));
    expect(within(fileList).getByLabelText(/体检报告\.pdf/)).toBeDisabled();
    expect(within(picker).getByText('已选择 1 个文件，最多 1 个')).toBeInTheDocument();
    fireEvent.click(ok(picker));
    expect(await within(drawer).findByLabelText('已选附件')).toHaveTextContent('病假条.pdf');

    // the approvers of the 自选 step
    fireEvent.click(within(routeBox).getByLabelText('选择审批人：项目负责人审批'));
    const users = panelOf('选择「项目负责人审批」的审批人');
    fireEvent.click(await within(users).findByLabelText(/王五/));
    fireEvent.click(ok(users));
    await waitFor(() => expect(within(routeBox).queryByRole('alert')).not.toBeInTheDocument());
    expect(within(routeBox).getByTestId('route-step-2')).toHaveTextContent('王五');

    fireEvent.click(button(drawer, '提交'));
    await waitFor(() => expect(start).toHaveBeenCalledTimes(1));
    const body: StartWorkflowBody = {
      definitionId: 'd1',
      title: `请假申请-张三-${today}`,
      form: { days: 3, start: '2026-12-01', kind: '病假', note: null },
      fileIds: ['12'],
      chosen: { '2': ['8'] },
    };
    expect(start).toHaveBeenCalledWith(body);
    await waitFor(() => expect(where()).toBe('/workflow/informationDetails?id=new1'));
    await waitFor(() => expect(toasts()).toContain('已提交审批'));
    expect(changed).toHaveBeenCalled();
    expect(await screen.findByRole('heading', { name: '流程详情' })).toBeInTheDocument();
    window.removeEventListener(WORKFLOW_CHANGED_EVENT, changed);
  });

  it('a definition without fields, files or chosen steps sends only the title; no enabled definition says so', async () => {
    jest.spyOn(api, 'getWorkflowInstances').mockResolvedValue({ data: [], total: 0 });
    jest.spyOn(api, 'getWorkflowRoute').mockResolvedValue([route[0]]);
    const start = jest.spyOn(api, 'startWorkflow').mockResolvedValue({ instanceId: 'new2' });
    jest.spyOn(api, 'getWorkflowInstance').mockResolvedValue(detail({ instanceId: 'new2' }));
    renderAt('/workflow/list/todo');
    fireEvent.click(await waitFor(() => button(document.body, '发起审批')));
    fireEvent.click(await waitFor(() => button(panelOf('选择要发起的流程'), '费用报销')));
    const drawer = panelOf('发起审批：费用报销');
    expect(within(drawer).queryByText('选择文件')).not.toBeInTheDocument();
    const title = within(drawer).getByLabelText('标题');
    fireEvent.change(title, { target: { value: '  十一月差旅报销  ' } });
    await within(drawer).findByTestId('route-step-0');
    fireEvent.click(button(drawer, '提交'));
    await waitFor(() => expect(start).toHaveBeenCalledWith({ definitionId: 'd2', title: '十一月差旅报销', form: {}, fileIds: [] }));
  });

  it('says when there is no definition to start', async () => {
    jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([stopped]);
    jest.spyOn(api, 'getWorkflowInstances').mockResolvedValue({ data: [], total: 0 });
    renderAt('/workflow/list/todo');
    fireEvent.click(await waitFor(() => button(document.body, '发起审批')));
    expect(await screen.findByText('暂无可以发起的流程')).toBeInTheDocument();
  });
});
