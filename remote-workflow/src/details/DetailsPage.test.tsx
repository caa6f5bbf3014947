// 流程详情 through the remote's routes: what an approval shows, its seal, and its actions.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, ApiError, WORKFLOW_CHANGED_EVENT, type WorkflowInstanceDetail } from '@app/shared';
import { button, CAN_NONE, detail, lisi, ok, panelOf, renderAt, toasts, where, zhang } from '../__tests__/harness';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(90_000);

afterEach(() => jest.restoreAllMocks());

const open = async (d: WorkflowInstanceDetail) => {
  const get = jest.spyOn(api, 'getWorkflowInstance').mockResolvedValue(d);
  renderAt(`/workflow/informationDetails?id=${d.instanceId}`);
  expect(await screen.findByRole('heading', { name: d.title })).toBeInTheDocument();
  expect(get).toHaveBeenCalledWith(d.instanceId, { errorMode: 'none' });
};

const section = (name: string) => screen.getByLabelText(name, { selector: 'section' });
const actionBar = () => screen.queryByLabelText('审批操作');

describe('流程详情', () => {
  it('shows the approval: its facts, form, files, steps, CC and the timeline; no seal while it is running', async () => {
    await open(detail());
    const facts = screen.getByText('编号').closest('.ant-descriptions') as HTMLElement;
    expect(facts).toHaveTextContent('SP20261124000012');
    expect(facts).toHaveTextContent('发起人张三');
    expect(facts).toHaveTextContent('发起时间2026-11-24 09:30');
    expect(facts).toHaveTextContent('状态审批中');
    expect(facts).toHaveTextContent('当前步骤部门审批（待 李四 处理）');

    const form = section('表单内容');
    expect(within(form).getByText('请假天数').closest('tr')).toHaveTextContent('3');
    expect(within(form).getByText('开始日期').closest('tr')).toHaveTextContent('2026-12-01');
    expect(within(form).getByText('说明').closest('tr')).toHaveTextContent('—');

    const files = section('附件');
    const view = within(files).getByLabelText('查看 病假条.pdf');
    expect(view).toHaveAttribute('href', '/api/Workflow/Instances/i1/Files/12');
    expect(view).toHaveAttribute('target', '_blank');
    expect(within(files).getByText('2 KB')).toBeInTheDocument();
    // a file that can no longer be viewed has no link
    const gone = within(files).getByText('旧附件.docx').closest('li') as HTMLElement;
    expect(within(gone).queryByRole('link')).not.toBeInTheDocument();
    expect(gone).toHaveTextContent('文件已不可查看');

    const first = screen.getByTestId('step-0');
    expect(within(first).getByText('李四').closest('li')).toHaveTextContent('李四待处理');
    expect(within(first).getByText('王五').closest('li')).toHaveTextContent('王五已转交');
    expect(within(first).getByText('赵六').closest('li')).toHaveTextContent('赵六已同意「转交自 王五」');
    expect(section('审批步骤')).toHaveTextContent('依次审批');
    const second = screen.getByTestId('step-1');
    expect(second).toHaveTextContent('无审批人，转流程管理员');
    expect(second).toHaveTextContent('管理员甲等待中');
    expect(section('抄送')).toHaveTextContent('孙八');

    const lines = screen.getAllByTestId('timeline-entry');
    expect(lines.map((l) => l.firstElementChild?.textContent)).toEqual(['张三 发起审批', '王五 转交给 赵六 · 部门审批', '赵六 同意 · 部门审批']);
    expect(lines[0]).toHaveTextContent('2026-11-24 09:30');
    expect(lines[0]).toHaveTextContent('家中有事');

    expect(document.querySelector('svg[role="img"]')).not.toBeInTheDocument();
    // nothing the caller may do: no buttons
    expect(actionBar()).not.toBeInTheDocument();
    expect(button(document.body, '打印')).toBeInTheDocument();
  });

  it.each([
    [2, '已通过', '#389e0d'],
    [3, '已驳回', '#cf1322'],
    [4, '已撤销', '#8c8c8c'],
  ] as const)('an ended approval (status %s) carries the %s seal with its number and decision date', async (status, label, color) => {
    await open(detail({ status, currentStep: '', pending: [], finishedAt: '2026-11-25 16:20:00', updatedAt: '2026-11-25 16:20:00' }));
    const stamp = screen.getByLabelText(`${label} SP20261124000012 2026-11-25`);
    expect(stamp.tagName.toLowerCase()).toBe('svg');
    expect(stamp).toHaveTextContent(label);
    expect(stamp).toHaveTextContent('SP20261124000012');
    expect(stamp).toHaveTextContent('2026-11-25');
    expect(stamp.querySelectorAll('circle')).toHaveLength(2);
    stamp.querySelectorAll('circle').forEach((c) => expect(c.closest('g')).toHaveAttribute('stroke', color));
    expect(stamp.querySelector('g')).toHaveAttribute('transform', 'rotate(-15 80 80)');
    expect(screen.getByText('结束时间').closest('.ant-descriptions')).toHaveTextContent('结束时间2026-11-25 16:20');
  });

  it('offers only what `can` allows: the initiator may revoke but not approve', async () => {
    jest.spyOn(api, 'getWorkflowInstance').mockResolvedValue(detail({ can: { ...CAN_NONE, revoke: true, comment: true } }));
    renderAt('/workflow/informationDetails?id=i1');
    const bar = await screen.findByLabelText('审批操作');
    expect(within(bar).getAllByRole('button').map((b) => b.textContent?.replace(/\s/g, ''))).toEqual(['撤销', '评论']);
  });

  it('同意 sends the comment, shows the approval as the server returns it, and announces the change', async () => {
    const act = jest.spyOn(api, 'actOnWorkflow').mockResolvedValue(
      detail({ status: 2, currentStep: '', pending: [], finishedAt: '2026-11-26 08:00:00', can: CAN_NONE }),
    );
    const changed = jest.fn();
    window.addEventListener(WORKFLOW_CHANGED_EVENT, changed);
    await open(detail({ can: { ...CAN_NONE, approve: true, reject: true, returnTo: [0], transfer: true, addApprover: true, comment: true } }));
    const bar = actionBar() as HTMLElement;
    expect(within(bar).getAllByRole('button').map((b) => b.textContent?.replace(/\s/g, ''))).toEqual(['同意', '驳回', '退回', '转交', '加签', '评论']);
    expect(within(bar).queryByText(/撤\s*销/)).not.toBeInTheDocument();

    fireEvent.click(button(bar, '同意'));
    const dialog = panelOf('同意审批');
    fireEvent.change(within(dialog).getByLabelText('审批意见（选填）'), { target: { value: ' 同意，注意交接 ' } });
    fireEvent.click(button(dialog, '同意'));
    await waitFor(() => expect(act).toHaveBeenCalledWith('i1', 'Approve', { comment: '同意，注意交接' }));
    expect(await screen.findByLabelText('已通过 SP20261124000012 2026-11-26')).toBeInTheDocument();
    expect(actionBar()).not.toBeInTheDocument();
    await waitFor(() => expect(toasts()).toContain('已同意'));
    expect(changed).toHaveBeenCalledTimes(1);
    window.removeEventListener(WORKFLOW_CHANGED_EVENT, changed);
  });

  it('驳回 needs a comment; 退回 goes to a step chosen by name', async () => {
    const act = jest.spyOn(api, 'actOnWorkflow').mockResolvedValue(detail({ currentStep: '部门审批', can: CAN_NONE }));
    const can = { ...CAN_NONE, approve: true, reject: true, returnTo: [0] };
    const second = detail({
      currentStep: '人事审批',
      steps: [{ ...detail().steps[0], state: 'done' }, { ...detail().steps[1], state: 'current' }],
      can,
    });
    await open(second);

    fireEvent.click(button(actionBar() as HTMLElement, '驳回'));
    let dialog = panelOf('驳回审批');
    fireEvent.click(button(dialog, '驳回'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('请填写驳回理由');
    expect(act).not.toHaveBeenCalled();
    fireEvent.click(button(dialog, '取消'));
    await waitFor(() => expect(screen.queryByText('驳回审批')).not.toBeInTheDocument());

    fireEvent.click(button(actionBar() as HTMLElement, '退回'));
    dialog = panelOf('退回到之前的步骤');
    // the only step allowed is already chosen
    expect(within(dialog).getByText('部门审批')).toBeInTheDocument();
    fireEvent.click(button(dialog, '退回'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('请填写退回理由');
    fireEvent.change(within(dialog).getByLabelText('退回理由'), { target: { value: '请补充病假条' } });
    fireEvent.click(button(dialog, '退回'));
    await waitFor(() => expect(act).toHaveBeenCalledWith('i1', 'Return', { comment: '请补充病假条', toStep: 0 }));
    await waitFor(() => expect(toasts()).toContain('已退回'));
    await waitFor(() => expect(actionBar()).not.toBeInTheDocument());

    expect(act).toHaveBeenCalledTimes(1);
  });

  it('驳回 with a comment ends it rejected', async () => {
    const act = jest.spyOn(api, 'actOnWorkflow').mockResolvedValue(detail({ status: 3, currentStep: '', pending: [], finishedAt: '2026-11-26 08:00:00', can: CAN_NONE }));
    await open(detail({ can: { ...CAN_NONE, reject: true } }));
    fireEvent.click(button(actionBar() as HTMLElement, '驳回'));
    const dialog = panelOf('驳回审批');
    fireEvent.change(within(dialog).getByLabelText('驳回理由'), { target: { value: '材料不全' } });
    fireEvent.click(button(dialog, '驳回'));
    await waitFor(() => expect(act).toHaveBeenCalledWith('i1', 'Reject', { comment: '材料不全' }));
    expect(await screen.findByLabelText('已驳回 SP20261124000012 2026-11-26')).toBeInTheDocument();
    await waitFor(() => expect(toasts()).toContain('已驳回'));
  });

  it('转交 picks the person to hand the task to', async () => {
    jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
    jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [{ userId: '8', userName: 'wangwu', nickName: '王五', deptId: null, deptName: '' }], total: 1 });
    const after = detail({
      pending: [{ userId: '8', name: '王五' }],
      steps: [{ ...detail().steps[0], tasks: [{ ...lisi, status: 'transferred', from: null }, { userId: '8', name: '王五', status: 'pending', from: lisi }] }],
      timeline: [...detail().timeline, { id: 'a4', kind: 'transfer', user: lisi, step: 0, stepName: '部门审批', comment: '', target: { userId: '8', name: '王五' }, toStep: null, status: null, createdAt: '2026-11-24 11:00:00' }],
      can: CAN_NONE,
    });
    const act = jest.spyOn(api, 'actOnWorkflow').mockResolvedValue(after);
    await open(detail({ can: { ...CAN_NONE, transfer: true } }));
    fireEvent.click(button(actionBar() as HTMLElement, '转交'));
    const dialog = panelOf('转交给他人审批');
    fireEvent.click(button(dialog, '转交'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('请选择转交给谁');
    fireEvent.click(button(dialog, '选择人员'));
    const picker = panelOf('选择转交给谁');
    fireEvent.click(await within(picker).findByLabelText(/王五/));
    fireEvent.click(ok(picker));
    await waitFor(() => expect(within(dialog).getByText('王五')).toBeInTheDocument());
    fireEvent.click(button(dialog, '转交'));
    await waitFor(() => expect(act).toHaveBeenCalledWith('i1', 'Transfer', { userId: '8' }));
    await waitFor(() => expect(toasts()).toContain('已转交'));
    expect(within(screen.getByTestId('step-0')).getByText('王五').closest('li')).toHaveTextContent('王五待处理「转交自 李四」');
    expect(screen.getAllByTestId('timeline-entry').pop()?.firstElementChild).toHaveTextContent('李四 转交给 王五');
  });

  it('加签 and 撤销 send their actions; the timeline names returns, added approvers, revocation and the end', async () => {
    const ended = detail({
      status: 4,
      currentStep: '',
      pending: [],
      finishedAt: '2026-11-27 09:00:00',
      can: CAN_NONE,
      timeline: [
        ...detail().timeline,
        { id: 'a5', kind: 'return', user: lisi, step: 1, stepName: '人事审批', comment: '', target: null, toStep: 0, status: null, createdAt: '2026-11-24 12:00:00' },
        { id: 'a6', kind: 'addApprover', user: lisi, step: 0, stepName: '部门审批', comment: '', target: { userId: '11', name: '钱七' }, toStep: null, status: null, createdAt: '2026-11-24 12:30:00' },
        { id: 'a7', kind: 'comment', user: zhang, step: 0, stepName: '部门审批', comment: '麻烦尽快', target: null, toStep: null, status: null, createdAt: '2026-11-24 13:00:00' },
        { id: 'a8', kind: 'revoke', user: zhang, step: 0, stepName: '部门审批', comment: '', target: null, toStep: null, status: null, createdAt: '2026-11-27 09:00:00' },
        { id: 'a9', kind: 'finish', user: null, step: 0, stepName: '', comment: '', target: null, toStep: null, status: 4, createdAt: '2026-11-27 09:00:00' },
      ],
    });
    jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
    jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [{ userId: '11', userName: 'qianqi', nickName: '钱七', deptId: null, deptName: '' }], total: 1 });
    const added = detail({
      steps: [{ ...detail().steps[0], tasks: [...detail().steps[0].tasks, { userId: '11', name: '钱七', status: 'waiting', from: lisi }] }, detail().steps[1]],
      timeline: [...detail().timeline, { id: 'a6', kind: 'addApprover', user: lisi, step: 0, stepName: '部门审批', comment: '', target: { userId: '11', name: '钱七' }, toStep: null, status: null, createdAt: '2026-11-24 12:30:00' }],
      can: { ...CAN_NONE, revoke: true },
    });
    const act = jest.spyOn(api, 'actOnWorkflow').mockResolvedValueOnce(added).mockResolvedValueOnce(ended);
    await open(detail({ can: { ...CAN_NONE, addApprover: true, revoke: true } }));

    fireEvent.click(button(actionBar() as HTMLElement, '加签'));
    const adding = panelOf('加签');
    fireEvent.click(button(adding, '选择人员'));
    const picker = panelOf('选择加签人员');
    fireEvent.click(await within(picker).findByLabelText(/钱七/));
    fireEvent.click(ok(picker));
    await waitFor(() => expect(within(adding).getByText('钱七')).toBeInTheDocument());
    fireEvent.change(within(adding).getByLabelText('说明（选填）'), { target: { value: '请钱七把关' } });
    fireEvent.click(button(adding, '加签'));
    await waitFor(() => expect(act).toHaveBeenCalledWith('i1', 'AddApprover', { comment: '请钱七把关', userId: '11' }));
    await waitFor(() => expect(toasts()).toContain('已加签'));
    expect(within(screen.getByTestId('step-0')).getByText('钱七').closest('li')).toHaveTextContent('钱七等待中「加签自 李四」');
    // 加签 is gone (the server no longer offers it); 撤销 stays
    expect(within(actionBar() as HTMLElement).queryByText(/加\s*签/)).not.toBeInTheDocument();

    fireEvent.click(button(actionBar() as HTMLElement, '撤销'));
    const dialog = panelOf('撤销审批');
    expect(within(dialog).getByText('撤销后这条审批即结束，不能恢复。确定撤销吗？')).toBeInTheDocument();
    fireEvent.click(button(dialog, '撤销'));
    await waitFor(() => expect(act).toHaveBeenLastCalledWith('i1', 'Revoke', {}));
    expect(await screen.findByLabelText('已撤销 SP20261124000012 2026-11-27')).toBeInTheDocument();
    const lines = screen.getAllByTestId('timeline-entry').map((l) => l.firstElementChild?.textContent);
    expect(lines.slice(3)).toEqual(['李四 退回到「部门审批」 · 人事审批', '李四 加签 钱七 · 部门审批', '张三 评论 · 部门审批', '张三 撤销 · 部门审批', '流程结束（已撤销）']);
  });

  describe('催办', () => {
    const running = () => detail({ can: { ...CAN_NONE, revoke: true, comment: true, remind: true } });
    const reminded = (comment: string) =>
      detail({
        timeline: [
          ...detail().timeline,
          { id: 'a10', kind: 'comment', user: zhang, step: 0, stepName: '部门审批', comment, target: null, toStep: null, status: null, createdAt: '2026-11-24 14:00:00' },
        ],
        can: { ...CAN_NONE, revoke: true, comment: true, remind: true },
      });

    it('is offered to the initiator while it runs, and to nobody else', async () => {
      const get = jest.spyOn(api, 'getWorkflowInstance').mockResolvedValue(running());
      const { unmount } = renderAt('/workflow/informationDetails?id=i1');
      const bar = await screen.findByLabelText('审批操作');
      expect(within(bar).getAllByRole('button').map((b) => b.textContent?.replace(/\s/g, ''))).toEqual(['催办', '撤销', '评论']);
      unmount();
      // an approver (may approve, not remind) and an ended approval: no 催办
      for (const d of [
        detail({ can: { ...CAN_NONE, approve: true, comment: true } }),
        detail({ status: 2, currentStep: '', pending: [], finishedAt: '2026-11-26 08:00:00', can: { ...CAN_NONE, comment: true } }),
      ]) {
        get.mockResolvedValue(d);
        const view = renderAt('/workflow/informationDetails?id=i1');
        expect(await screen.findByRole('heading', { name: d.title })).toBeInTheDocument();
        expect(screen.queryByText(/^催\s*办$/, { selector: 'button, button *' })).not.toBeInTheDocument();
        view.unmount();
      }
    });

    it('sends the note, names who was reminded, and reads the approval again so 审批记录 shows the line', async () => {
      const get = jest.spyOn(api, 'getWorkflowInstance').mockResolvedValueOnce(running()).mockResolvedValue(reminded('催办：李四。客户在等，请今天处理'));
      const remind = jest.spyOn(api, 'remindWorkflow').mockResolvedValue({ reminded: ['李四'], later: [] });
      renderAt('/workflow/informationDetails?id=i1');
      fireEvent.click(button(await screen.findByLabelText('审批操作'), '催办'));
      const dialog = panelOf('催办');
      expect(dialog).toHaveTextContent('将通过消息中心提醒 李四 尽快审批');
      const note = within(dialog).getByLabelText('附言（选填）');
      expect(note).toHaveAttribute('maxlength', '200');
      fireEvent.change(note, { target: { value: ' 客户在等，请今天处理 ' } });
      // the characters counted, out of 200
      expect(dialog).toHaveTextContent('12 / 200');
      fireEvent.click(button(dialog, '催办'));
      await waitFor(() => expect(remind).toHaveBeenCalledWith('i1', { comment: '客户在等，请今天处理' }, { errorMode: 'none' }));
      await waitFor(() => expect(toasts()).toContain('已催办 李四'));
      await waitFor(() => expect(screen.queryByText('附言（选填）')).not.toBeInTheDocument());
      await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
      const last = await waitFor(() => {
        const lines = screen.getAllByTestId('timeline-entry');
        expect(lines).toHaveLength(4);
        return lines[3];
      });
      expect(last).toHaveTextContent('张三 评论 · 部门审批');
      expect(last).toHaveTextContent('催办：李四。客户在等，请今天处理');
    });

    it('without a note sends none; those reminded within the hour are named', async () => {
      jest.spyOn(api, 'getWorkflowInstance').mockResolvedValue(running());
      const remind = jest.spyOn(api, 'remindWorkflow').mockResolvedValue({ reminded: ['李四'], later: [{ name: '王五', at: '2026-11-24 15:00:00' }] });
      renderAt('/workflow/informationDetails?id=i1');
      fireEvent.click(button(await screen.findByLabelText('审批操作'), '催办'));
      fireEvent.click(button(panelOf('催办'), '催办'));
      await waitFor(() => expect(remind).toHaveBeenCalledWith('i1', {}, { errorMode: 'none' }));
      await waitFor(() => expect(toasts()).toContain('已催办 李四（王五 一小时内已催办过）'));
    });

    it('within the hour: the server’s words, nothing read again', async () => {
      const get = jest.spyOn(api, 'getWorkflowInstance').mockResolvedValue(running());
      jest.spyOn(api, 'remindWorkflow').mockRejectedValue(new ApiError('一小时内已催办过，请于 15:00 之后再催办', 42901, { status: 429 }));
      renderAt('/workflow/informationDetails?id=i1');
      fireEvent.click(button(await screen.findByLabelText('审批操作'), '催办'));
      fireEvent.click(button(panelOf('催办'), '催办'));
      await waitFor(() => expect(toasts()).toContain('一小时内已催办过，请于 15:00 之后再催办'));
      await waitFor(() => expect(screen.queryByText('附言（选填）')).not.toBeInTheDocument());
      expect(get).toHaveBeenCalledTimes(1);
      // still offered: it may be sent later
      expect(button(actionBar() as HTMLElement, '催办')).toBeInTheDocument();
    });

    it.each([
      ['审批已结束，无需催办', 40901, 409],
      ['只有发起人可以催办', 40301, 403],
    ])('refused (%s): the server’s words, and the approval as it now is', async (message, code, status) => {
      const ended = detail({ status: 2, currentStep: '', pending: [], finishedAt: '2026-11-26 08:00:00', can: { ...CAN_NONE, comment: true } });
      const get = jest.spyOn(api, 'getWorkflowInstance').mockResolvedValueOnce(running()).mockResolvedValue(ended);
      jest.spyOn(api, 'remindWorkflow').mockRejectedValue(new ApiError(message, code, { status }));
      renderAt('/workflow/informationDetails?id=i1');
      fireEvent.click(button(await screen.findByLabelText('审批操作'), '催办'));
      fireEvent.click(button(panelOf('催办'), '催办'));
      await waitFor(() => expect(toasts()).toContain(message));
      await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
      await waitFor(() => expect(screen.queryByText(/^催\s*办$/, { selector: 'button, button *' })).not.toBeInTheDocument());
    });

    it('a line the system wrote (自动催办) reads 系统提醒', async () => {
      await open(
        detail({
          timeline: [
            ...detail().timeline,
            { id: 'a11', kind: 'comment', user: null, step: 0, stepName: '部门审批', comment: '系统自动催办：李四', target: null, toStep: null, status: null, createdAt: '2026-11-25 09:30:00' },
          ],
        }),
      );
      const last = screen.getAllByTestId('timeline-entry').pop() as HTMLElement;
      expect(last.firstElementChild).toHaveTextContent('系统提醒 · 部门审批');
      expect(last).toHaveTextContent('系统自动催办：李四');
    });
  });

  it('without an id, or for an approval that does not exist, says so with a way back to the list', async () => {
    const { unmount } = renderAt('/workflow/informationDetails');
    expect(await screen.findByText('请从流程列表中选择一条审批查看')).toBeInTheDocument();
    unmount();
    jest.spyOn(api, 'getWorkflowInstance').mockRejectedValue(new ApiError('审批不存在', 404, { status: 404 }));
    jest.spyOn(api, 'getWorkflowCounts').mockResolvedValue({ todo: 0, done: 0, mine: 0, cc: 0 });
    jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([]);
    jest.spyOn(api, 'getWorkflowInstances').mockResolvedValue({ data: [], total: 0 });
    renderAt('/workflow/informationDetails?id=404404');
    expect(await screen.findByText('审批不存在，或你没有查看它的权限')).toBeInTheDocument();
    fireEvent.click(screen.getByText('返回流程列表', { selector: 'a' }));
    await waitFor(() => expect(where()).toBe('/workflow/list/todo'));
  });

  it('打印 prints the page', async () => {
    const print = jest.spyOn(window, 'print').mockImplementation(() => undefined);
    await open(detail());
    fireEvent.click(button(document.body, '打印'));
    expect(print).toHaveBeenCalled();
  });
});

