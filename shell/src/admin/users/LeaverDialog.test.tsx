// 系统管理 › 用户 › 离职交接: the dialog shows what the leaver holds, asks for a successor (the
// user picker, one user), offers to keep or cancel the shares, warns that the account is
// disabled and kept, and sends the handover only after a confirmation; a person already
// handed over cannot be handed over again. The posts (部门负责人, 部门管理员) are listed by full path
// and named in the confirmation; a department administrator is told that only a system
// administrator may hand over a 部门管理员's post.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, type AdminUser, type HandoverPreview, type HandoverResult } from '@app/shared';
import { leaverApi } from '@app/shared/admin';
import { button, panelOf, renderWithProviders, toasts, useInlineStylesOnly, type TestSession } from '@app/shared/test';
import { LeaverDialog } from './LeaverDialog';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

useInlineStylesOnly();
afterEach(() => jest.restoreAllMocks());

const lisi: AdminUser = {
  userId: '5', userName: 'lisi', nickName: '李四', deptId: 'd2', deptName: '集团/研发中心', mobile: '', email: '', employeeNo: '',
  source: 'local', roles: [], adminOf: [], isDocAdmin: false, isFlowAdmin: false, isTagAdmin: false, disabled: false, locked: false,
  totpRequired: false, totpBound: false, mustChangePassword: false, quota: null, effectiveQuota: 0, used: 0, lastLoginAt: null, createdAt: 0,
};
const held = (o: Partial<HandoverPreview> = {}): HandoverPreview => ({
  userId: '5', userName: 'lisi', nickName: '李四', disabled: false, leftAt: null,
  files: { count: 12, bytes: 3 * 1024 * 1024 }, pendingTasks: 2, runningFlows: 1, shares: { count: 4 }, ferryTasks: { count: 3 }, leaderOf: [], adminOf: [], ...o,
});
const result: HandoverResult = {
  userId: '5', successorId: '8', leftAt: 1, folder: { id: '900', name: '离职交接-李四-20261201' }, files: { count: 12, bytes: 3 * 1024 * 1024 },
  pendingTasks: 2, runningFlows: 1, shares: { mode: 'cancel', count: 4 }, ferryTasks: { count: 3 }, leaderOf: [], adminOf: [],
};
const wangwu = { userId: '8', userName: 'wangwu', nickName: '王五', deptId: null, deptName: '研发中心' };

const posts = {
  leaderOf: [{ id: 'd2', name: '总部/研发中心' }, { id: 'd7', name: '总部/研发中心/前端组' }],
  adminOf: [{ id: 'd3', name: '总部/市场部' }],
};

function setup(preview: HandoverPreview = held(), session: TestSession | true = true) {
  const getHandover = jest.spyOn(leaverApi, 'getHandover').mockResolvedValue(preview);
  const handover = jest.spyOn(leaverApi, 'handover').mockResolvedValue(result);
  jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
  jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [wangwu], total: 1 });
  const onDone = jest.fn();
  const onClose = jest.fn();
  renderWithProviders(<LeaverDialog user={lisi} open onClose={onClose} onDone={onDone} />, { session });
  return { getHandover, handover, onDone, onClose };
}

const dialog = () => panelOf('离职交接：李四（lisi）');
/** The confirmation titled `title`. */
const confirmOf = (title: string) =>
  waitFor(() => {
    const found = Array.from(document.querySelectorAll('.ant-modal-confirm-title')).find((t) => t.textContent === title);
    if (!found) throw new Error(`no confirmation ${title}`);
    return found.closest('.ant-modal') as HTMLElement;
  });

it('shows what the leaver holds and the warning; the successor is required', async () => {
  const { getHandover, handover } = setup();
  const held = await screen.findByRole('list', { name: '此人持有' });
  expect(getHandover).toHaveBeenCalledWith('5');
  const lines = within(held)
    .getAllByRole('listitem')
    .map((li) => li.firstElementChild?.textContent);
  expect(lines).toEqual(['个人文件 12 个（3 MB）', '待审批 2 项', '进行中的流程 1 个', '分享 4 个', '摆渡任务 3 个']);
  expect(within(dialog()).getByText('账号将被停用并标记为离职，不会删除；全部会话立即结束。')).toBeInTheDocument();
  expect(within(dialog()).getByLabelText('保留（转给接任者）')).toBeChecked();
  expect(within(dialog()).getByLabelText('取消分享')).not.toBeChecked();

  fireEvent.click(button(dialog(), '确认交接'));
  expect(await within(dialog()).findByText('请选择接任者')).toBeInTheDocument();
  expect(document.querySelector('.ant-modal-confirm')).toBeNull();
  expect(handover).not.toHaveBeenCalled();
});

it('picks the successor, sends the shares choice only after the confirmation, and reports the result', async () => {
  const { handover, onDone } = setup();
  await screen.findByRole('list', { name: '此人持有' });
  fireEvent.click(button(dialog(), '选择接任者'));
  const picker = panelOf('选择接任者');
  fireEvent.click(await within(picker).findByLabelText(/王五/));
  fireEvent.click(button(picker, '确定'));
  await waitFor(() => expect(within(dialog()).getByText('王五（wangwu）')).toBeInTheDocument());
  fireEvent.click(within(dialog()).getByLabelText('取消分享'));

  fireEvent.click(button(dialog(), '确认交接'));
  const confirm = await confirmOf('确认为“李四”办理离职交接？');
  expect(confirm).toHaveTextContent('将交给“王五”，分享全部取消');
  expect(confirm).toHaveTextContent('账号将被停用并标记为离职');
  expect(handover).not.toHaveBeenCalled();

  // 取消 sends nothing
  fireEvent.click(button(confirm, '取消'));
  await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).toBeNull());
  expect(handover).not.toHaveBeenCalled();

  fireEvent.click(button(dialog(), '确认交接'));
  fireEvent.click(button(await confirmOf('确认为“李四”办理离职交接？'), '确认交接'));
  await waitFor(() => expect(handover).toHaveBeenCalledWith('5', { successorId: '8', shares: 'cancel' }));
  await waitFor(() => expect(onDone).toHaveBeenCalledWith(result));
  await waitFor(() => expect(toasts().join('')).toContain('离职交接-李四-20261201'));
});

it('a person already handed over cannot be handed over again', async () => {
  const { handover } = setup(held({ leftAt: 1_700_000_000_000, disabled: true, files: { count: 0, bytes: 0 }, pendingTasks: 0, runningFlows: 0, shares: { count: 0 }, ferryTasks: { count: 0 } }));
  expect(await screen.findByText('此人已办理离职交接，不能重复办理。')).toBeInTheDocument();
  expect(button(dialog(), '确认交接')).toBeDisabled();
  expect(button(dialog(), '选择接任者')).toBeDisabled();
  expect(handover).not.toHaveBeenCalled();
});

it('lists the departments the leaver leads and administers by full path, and names them in the confirmation', async () => {
  const { handover } = setup(held(posts), { userInfo: { isAdmin: true } });
  const list = await screen.findByRole('list', { name: '此人持有' });
  const lines = within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
  expect(lines.slice(5)).toEqual(['部门负责人：总部/研发中心、总部/研发中心/前端组：改由接任者担任', '部门管理员：总部/市场部：改由接任者担任']);
  expect(within(dialog()).queryByText('此人担任部门管理员，只有系统管理员可以为其办理离职交接。')).toBeNull();

  fireEvent.click(button(dialog(), '选择接任者'));
  const picker = panelOf('选择接任者');
  fireEvent.click(await within(picker).findByLabelText(/王五/));
  fireEvent.click(button(picker, '确定'));
  await waitFor(() => expect(within(dialog()).getByText('王五（wangwu）')).toBeInTheDocument());
  fireEvent.click(button(dialog(), '确认交接'));
  const confirm = await confirmOf('确认为“李四”办理离职交接？');
  expect(confirm).toHaveTextContent('其担任的部门负责人（总部/研发中心、总部/研发中心/前端组）和部门管理员（总部/市场部）由“王五”接任。');
  fireEvent.click(button(confirm, '确认交接'));
  await waitFor(() => expect(handover).toHaveBeenCalledWith('5', { successorId: '8', shares: 'keep' }));
});

it('a department administrator sees the posts but is told only a system administrator may hand over a 部门管理员', async () => {
  const { handover } = setup(held(posts), { userInfo: { isAdmin: false } });
  const list = await screen.findByRole('list', { name: '此人持有' });
  expect(within(list).getByText('部门管理员：总部/市场部')).toBeInTheDocument();
  expect(within(dialog()).getByText('此人担任部门管理员，只有系统管理员可以为其办理离职交接。')).toBeInTheDocument();
  expect(button(dialog(), '确认交接')).toBeDisabled();
  expect(button(dialog(), '选择接任者')).toBeDisabled();
  expect(handover).not.toHaveBeenCalled();
});

it('a leader alone (no 部门管理员 post) is handed over by a department administrator as usual', async () => {
  setup(held({ leaderOf: [{ id: 'd2', name: '总部/研发中心' }] }));
  const list = await screen.findByRole('list', { name: '此人持有' });
  expect(within(list).getByText('部门负责人：总部/研发中心')).toBeInTheDocument();
  expect(within(list).queryByText(/部门管理员/)).toBeNull();
  expect(button(dialog(), '确认交接')).not.toBeDisabled();
});
