// 流程管理 through the remote's routes: only for flow admins; enable, delete, create.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, type WorkflowDefinition, type WorkflowDefinitionBody } from '@app/shared';
import { button, expense, leave, menuItem, ok, panelOf, pickOption, renderAt, toasts, where } from '../__tests__/harness';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(120_000);

const admin = { userInfo: { isFlowAdmin: true } };

beforeEach(() => {
  jest.spyOn(api, 'getWorkflowCounts').mockResolvedValue({ todo: 0, done: 0, mine: 0, cc: 0 });
  jest.spyOn(api, 'getWorkflowInstances').mockResolvedValue({ data: [], total: 0 });
});
afterEach(() => jest.restoreAllMocks());

const rowOf = (name: string) => screen.getByText(name, { selector: 'td div' }).closest('tr') as HTMLElement;

describe('流程管理', () => {
  it('is hidden from users who are not flow admins', async () => {
    const defs = jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([leave]);
    const { unmount } = renderAt('/workflow/list/todo');
    expect(await screen.findByRole('button', { name: /发起审批/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /流程管理/ })).not.toBeInTheDocument();
    unmount();
    defs.mockClear();
    renderAt('/workflow/list/definitions');
    expect(await screen.findByText('页面不存在')).toBeInTheDocument();
    expect(screen.queryByText('新建流程')).not.toBeInTheDocument();
  });

  it('lists every definition for a flow admin; the switch enables or disables one; 删除 asks first', async () => {
    const defs = jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([leave, expense]);
    const update = jest.spyOn(api, 'updateWorkflowDefinition').mockImplementation(async (id, body) => ({ ...leave, ...body, id, version: 4 }));
    const remove = jest.spyOn(api, 'deleteWorkflowDefinition').mockResolvedValue({ id: 'd2' });
    renderAt('/workflow/list/todo', admin);
    fireEvent.click(await screen.findByRole('button', { name: /流程管理/ }));
    await waitFor(() => expect(where()).toBe('/workflow/list/definitions'));
    expect(await screen.findByRole('heading', { name: '流程管理' })).toBeInTheDocument();

    const row = await waitFor(() => rowOf('请假申请'));
    expect(row).toHaveTextContent('人事');
    expect(row).toHaveTextContent('第 3 版');
    expect(row).toHaveTextContent('部门审批（依次审批）');
    const toggle = within(row).getByRole('switch', { name: '启用 请假申请' });
    expect(toggle).toBeChecked();
    fireEvent.click(toggle);
    const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...body } = leave;
    await waitFor(() => expect(update).toHaveBeenCalledWith('d1', { ...body, enabled: false }));
    await waitFor(() => expect(within(rowOf('请假申请')).getByRole('switch')).not.toBeChecked());
    expect(rowOf('请假申请')).toHaveTextContent('第 4 版');
    await waitFor(() => expect(toasts()).toContain('已停用'));

    fireEvent.click(within(rowOf('费用报销')).getByText('删除'));
    const confirm = (await screen.findByText(/确定删除「费用报销」吗/)).closest('.ant-modal') as HTMLElement;
    expect(remove).not.toHaveBeenCalled();
    defs.mockResolvedValue([leave]);
    fireEvent.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith('d2'));
    await waitFor(() => expect(screen.queryByText('费用报销')).not.toBeInTheDocument());
  });

  it('creates a definition with fields, two steps and CC, after saying what is missing', async () => {
    jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([leave]);
    jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
    jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [{ userId: '7', userName: 'lisi', nickName: '李四', deptId: null, deptName: '' }], total: 1 });
    jest.spyOn(api, 'getUserGroups').mockResolvedValue([{ id: 'g1', name: '行政组', memberCount: 4 }]);
    const create = jest.spyOn(api, 'createWorkflowDefinition').mockImplementation(async (b) => ({
      ...b, id: 'd9', version: 1, createdAt: '2026-11-24 10:00:00', updatedAt: '2026-11-24 10:00:00',
    }) as WorkflowDefinition);
    renderAt('/workflow/list/definitions', admin);
    await screen.findByRole('heading', { name: '流程管理' });
    fireEvent.click(button(document.body, '新建流程'));
    const drawer = panelOf('新建流程');
    const save = () => fireEvent.click(button(drawer, '保存'));

    // nothing filled in: each problem is named, nothing is sent
    save();
    const problems = await within(drawer).findByRole('alert');
    expect(problems).toHaveTextContent('第 1 步：请填写步骤名称');
    expect(problems).toHaveTextContent('第 1 步：请至少添加一条审批人规则');
    expect(await within(drawer).findByText('请填写流程名称')).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();

    fireEvent.change(within(drawer).getByLabelText('流程名称'), { target: { value: '出差申请' } });
    fireEvent.change(within(drawer).getByLabelText('分类'), { target: { value: '行政' } });

    // fields: two with the same key are refused, then fixed
    fireEvent.click(button(drawer, '添加字段'));
    fireEvent.click(button(drawer, '添加字段'));
    fireEvent.change(within(drawer).getByLabelText('字段 1 名称'), { target: { value: '目的地' } });
    fireEvent.change(within(drawer).getByLabelText('字段 1 标识'), { target: { value: 'city' } });
    fireEvent.change(within(drawer).getByLabelText('字段 2 名称'), { target: { value: '天数' } });
    fireEvent.change(within(drawer).getByLabelText('字段 2 标识'), { target: { value: 'city' } });
    fireEvent.click(within(within(drawer).getByLabelText('字段 2')).getByLabelText('必填'));
    await pickOption(within(drawer).getByLabelText('字段 2 类型'), '数字');
    // 天数 first: 上移
    fireEvent.click(within(drawer).getByLabelText('上移字段 2'));
    expect(within(drawer).getByLabelText('字段 1 名称')).toHaveValue('天数');

    // step 1: a named approver
    const step1 = within(drawer).getByLabelText('第 1 步');
    fireEvent.change(within(step1).getByLabelText('第 1 步名称'), { target: { value: '部门审批' } });
    fireEvent.click(button(step1, '添加审批人'));
    fireEvent.click(await menuItem('指定成员'));
    const users = panelOf('选择成员');
    fireEvent.click(await within(users).findByLabelText(/李四/));
    fireEvent.click(ok(users));
    expect(await within(step1).findByText('指定成员：李四')).toBeInTheDocument();

    // step 2: 或签 by the initiator's department leader
    fireEvent.click(button(drawer, '添加审批步骤'));
    const step2 = within(drawer).getByLabelText('第 2 步');
    fireEvent.change(within(step2).getByLabelText('第 2 步名称'), { target: { value: '负责人审批' } });
    fireEvent.click(within(step2).getByLabelText('或签'));
    fireEvent.click(button(step2, '添加审批人'));
    fireEvent.click(await menuItem('发起人的部门负责人'));
    expect(await within(step2).findByText('发起人的部门负责人')).toBeInTheDocument();

    // CC: a group
    const cc = within(drawer).getByLabelText('抄送');
    fireEvent.click(button(cc, '添加抄送人'));
    fireEvent.click(await menuItem('用户组成员'));
    const groups = panelOf('选择用户组');
    fireEvent.click(await within(groups).findByLabelText(/行政组/));
    fireEvent.click(ok(groups));
    expect(await within(cc).findByText('用户组成员：行政组')).toBeInTheDocument();
    fireEvent.click(within(drawer).getByLabelText('不可撤销'));

    // 自动催办: off unless set; more than a week is refused
    const hours = within(drawer).getByLabelText('自动催办');
    expect(hours).toHaveValue('0');
    expect(drawer).toHaveTextContent('0 表示不自动催办');
    fireEvent.change(hours, { target: { value: '200' } });
    save();
    expect(await within(drawer).findByText('自动催办时间须为 0–168 之间的整数小时（0 表示不自动催办）')).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();
    fireEvent.change(hours, { target: { value: '24' } });
    await waitFor(() => expect(within(drawer).queryByText('自动催办时间须为 0–168 之间的整数小时（0 表示不自动催办）')).not.toBeInTheDocument());

    save();
    expect(await within(drawer).findByText('字段标识「city」重复了，每个字段的标识必须不同')).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();
    fireEvent.change(within(drawer).getByLabelText('字段 1 标识'), { target: { value: 'days' } });

    save();
    const body: WorkflowDefinitionBody = {
      name: '出差申请',
      category: '行政',
      description: '',
      enabled: true,
      revoke: 'never',
      allowFiles: false,
      fields: [
        { key: 'days', label: '天数', type: 'number', required: true },
        { key: 'city', label: '目的地', type: 'text', required: false },
      ],
      steps: [
        { name: '部门审批', mode: 'sequential', approvers: [{ type: 'user', id: '7' }] },
        { name: '负责人审批', mode: 'any', approvers: [{ type: 'initiatorLeader' }] },
      ],
      cc: [{ type: 'groupMembers', id: 'g1' }],
      autoRemindHours: 24,
    };
    await waitFor(() => expect(create).toHaveBeenCalledWith(body));
    await waitFor(() => expect(toasts()).toContain('流程已创建'));
    expect(await waitFor(() => rowOf('出差申请'))).toHaveTextContent('部门审批（依次审批） → 负责人审批（或签）');
  });

  it('编辑 opens the definition as stored and saves it with update', async () => {
    const stored: WorkflowDefinition = {
      ...leave,
      steps: [{ name: '部门审批', mode: 'all', approvers: [{ type: 'user', id: '7', name: '李四' }, { type: 'deptLeader', id: '3', name: '研发部' }] }],
      cc: [{ type: 'deptMembers', id: '4', name: '人事部' }],
      autoRemindHours: 8,
    };
    jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([stored]);
    const update = jest.spyOn(api, 'updateWorkflowDefinition').mockImplementation(async (id, b) => ({ ...stored, ...b, id, version: 4 }));
    renderAt('/workflow/list/definitions', admin);
    fireEvent.click(await waitFor(() => within(rowOf('请假申请')).getByLabelText('编辑 请假申请')));
    const drawer = panelOf('编辑流程：请假申请');
    expect(within(drawer).getByLabelText('流程名称')).toHaveValue('请假申请');
    expect(within(drawer).getByLabelText('字段 2 名称')).toHaveValue('开始日期');
    const step = within(drawer).getByLabelText('第 1 步');
    expect(step).toHaveTextContent('指定成员：李四');
    expect(step).toHaveTextContent('部门负责人：研发部');
    expect(within(drawer).getByLabelText('抄送')).toHaveTextContent('部门成员：人事部');
    expect(within(drawer).getByLabelText('自动催办')).toHaveValue('8');
    fireEvent.change(within(drawer).getByLabelText('自动催办'), { target: { value: '48' } });
    // a rule removed
    fireEvent.click(within(step).getByLabelText('移除 部门负责人：研发部'));
    fireEvent.change(within(drawer).getByLabelText('流程名称'), { target: { value: '请假申请（新）' } });
    fireEvent.click(button(drawer, '保存'));
    const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...body } = stored;
    await waitFor(() =>
      expect(update).toHaveBeenCalledWith('d1', {
        ...body,
        name: '请假申请（新）',
        steps: [{ name: '部门审批', mode: 'all', approvers: [{ type: 'user', id: '7' }] }],
        cc: [{ type: 'deptMembers', id: '4' }],
        autoRemindHours: 48,
      }),
    );
    await waitFor(() => expect(toasts()).toContain('流程已保存'));
    expect(await waitFor(() => rowOf('请假申请（新）'))).toHaveTextContent('第 4 版');
  });
});
