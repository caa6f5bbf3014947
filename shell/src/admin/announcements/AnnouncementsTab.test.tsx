// 系统管理 › 系统公告: the 公告 sent are listed with whom they went to and how many people got
// them (one still being delivered says so); the full text opens from the title; 发布公告 checks
// the title and body, sends to everyone or to departments picked in the department tree, and
// the list is read again.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminDepartmentNode, Announcement } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { button, panelOf, renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { AnnouncementsTab } from './AnnouncementsTab';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

useInlineStylesOnly();

const policyOverride = { personalSpace: null, publicSpace: null, workflow: null, ferrySpaces: null };
const dept = (id: string, name: string, o: Partial<AdminDepartmentNode> = {}): AdminDepartmentNode => ({
  id, parentId: null, name, path: id, leader: null, admins: [], userCount: 0, quota: null,
  featurePolicy: policyOverride, manageable: true, children: [], ...o,
});
const departments = [dept('d1', '集团', { children: [dept('d2', '研发中心', { parentId: 'd1' }), dept('d3', '财务部', { parentId: 'd1' })] })];

const announcement = (o: Partial<Announcement> = {}): Announcement => ({
  id: '1',
  title: '机房停电通知',
  body: '各位同事：\n本周六机房停电检修。',
  scope: 'departments',
  departments: [{ id: 'd2', name: '研发中心' }],
  senderName: '系统管理员',
  recipients: 12,
  createdAt: '2026-11-27 10:00:00',
  sentAt: '2026-11-27 10:00:01',
  ...o,
});

afterEach(() => jest.restoreAllMocks());

const user = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });
const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr') as HTMLElement;

it('lists the 公告 sent: when, title, to whom, by whom, how many; the full text opens from the title', async () => {
  const list = jest.spyOn(adminApi, 'getAnnouncements').mockResolvedValue({
    data: [announcement(), announcement({ id: '2', title: '年会通知', scope: 'all', departments: [], recipients: 10016, body: '年会将于下周五举行。' })],
    total: 2,
  });
  renderWithProviders(<AnnouncementsTab />, { session: true });
  const first = await rowOf('机房停电通知');
  expect(list).toHaveBeenCalledWith({ page: 1, pageSize: 20 });
  expect(within(first).getByText('研发中心')).toBeInTheDocument();
  expect(within(first).getByText('12 人')).toBeInTheDocument();
  expect(within(first).getByText('系统管理员')).toBeInTheDocument();
  const second = await rowOf('年会通知');
  expect(within(second).getByText('所有人')).toBeInTheDocument();
  expect(within(second).getByText('10016 人')).toBeInTheDocument();
  expect(screen.getByText('共 2 条')).toBeInTheDocument();

  fireEvent.click(within(first).getByText('机房停电通知'));
  const dialog = await waitFor(() => panelOf('机房停电通知'));
  expect(dialog.textContent).toContain('各位同事：\n本周六机房停电检修。');
  expect(dialog.textContent).toContain('发送给研发中心');
});

it('a 公告 being delivered says 发送中 and the list is read again until it is sent', async () => {
  const list = jest
    .spyOn(adminApi, 'getAnnouncements')
    .mockResolvedValueOnce({ data: [announcement({ sentAt: '' })], total: 1 })
    .mockResolvedValue({ data: [announcement()], total: 1 });
  renderWithProviders(<AnnouncementsTab />, { session: true });
  expect(within(await rowOf('机房停电通知')).getByText('发送中')).toBeInTheDocument();
  await waitFor(() => expect(list).toHaveBeenCalledTimes(2), { timeout: 5000 });
  expect(await screen.findByText('12 人')).toBeInTheDocument();
});

it('发布公告: the title and body are required; sent to everyone, then to departments picked in the tree; the list is read again', async () => {
  const list = jest.spyOn(adminApi, 'getAnnouncements').mockResolvedValue({ data: [], total: 0 });
  jest.spyOn(adminApi, 'getDepartments').mockResolvedValue(departments);
  const send = jest.spyOn(adminApi, 'sendAnnouncement').mockImplementation(async (body) =>
    announcement({ title: body.title, body: body.body, scope: body.scope, recipients: body.scope === 'all' ? 10016 : 5, sentAt: '' }),
  );
  const u = user();
  renderWithProviders(<AnnouncementsTab />, { session: true });
  expect(await screen.findByText('还没有发布过公告')).toBeInTheDocument();

  fireEvent.click(button(document.body, /发布公告/));
  let dialog = await waitFor(() => panelOf('发布公告'));
  fireEvent.click(button(dialog, '发 送'));
  expect(await within(dialog).findByText('请填写公告标题')).toBeInTheDocument();
  expect(within(dialog).getByText('请填写公告内容')).toBeInTheDocument();
  expect(send).not.toHaveBeenCalled();

  fireEvent.change(within(dialog).getByLabelText('公告标题'), { target: { value: ' 年会通知 ' } });
  fireEvent.change(within(dialog).getByLabelText('公告内容'), { target: { value: '年会将于下周五举行。\n请准时参加。' } });
  fireEvent.click(button(dialog, '发 送'));
  await waitFor(() => expect(send).toHaveBeenCalledWith({ title: '年会通知', body: '年会将于下周五举行。\n请准时参加。', scope: 'all' }));
  await waitFor(() => expect(list.mock.calls.length).toBeGreaterThanOrEqual(2));

  // to departments: one is required; picked in the tree
  fireEvent.click(button(document.body, /发布公告/));
  dialog = await waitFor(() => panelOf('发布公告'));
  fireEvent.change(within(dialog).getByLabelText('公告标题'), { target: { value: '研发例会' } });
  fireEvent.change(within(dialog).getByLabelText('公告内容'), { target: { value: '周一上午十点。' } });
  await u.click(within(dialog).getByLabelText('指定部门'));
  fireEvent.click(button(dialog, '发 送'));
  expect(await within(dialog).findByText('请选择接收公告的部门')).toBeInTheDocument();
  await u.click(within(dialog).getByLabelText('接收公告的部门'));
  await u.click(await screen.findByTitle('研发中心'));
  fireEvent.click(button(dialog, '发 送'));
  await waitFor(() => expect(send).toHaveBeenLastCalledWith({ title: '研发例会', body: '周一上午十点。', scope: 'departments', departmentIds: ['d2'] }));
});
