import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, REMOTE_CONTRACT_VERSION, type FolderItems } from '@app/shared';
import { button, ferryDetail, ferryRow, ferryZones, folderFile, inboxItem, panelOf, renderWithProviders, settled, toasts, useInlineStylesOnly } from '@app/shared/test';
import App from './App';
import { settingsView, stats } from './__tests__/adminHarness';
import meta, { MY_FERRY_STATES } from './meta';

useInlineStylesOnly();

configure({ defaultHidden: true });
jest.setTimeout(60_000);

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

const renderAt = (route: string) =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/swapSpace/*" element={<App />} />
      </Routes>
      <Where />
    </>,
    { route, session: true },
  );

const where = () => screen.getByTestId('where').textContent ?? '';

let tasks: jest.SpyInstance;
let inbox: jest.SpyInstance;
beforeEach(() => {
  tasks = jest.spyOn(api, 'getFerryTasks').mockImplementation(async (q) => ({
    data: [ferryRow({ taskId: `t-${q.status}`, number: `BD-${q.status}` })],
    total: 1,
  }));
  inbox = jest.spyOn(api, 'getFerryInbox').mockResolvedValue({ data: [inboxItem()], total: 1 });
});
afterEach(() => jest.restoreAllMocks());

it('meta lists the exchange-space pages behind the ferrySpaces feature', () => {
  expect(meta.name).toBe('swapspace');
  // the shell ↔ remote contract version this remote reports (shared/src/contract.ts)
  expect(meta.contract).toBe(REMOTE_CONTRACT_VERSION);
  expect(meta.title).toBe('交换空间');
  expect(meta.menu.map((m) => [m.title, m.path, m.feature])).toEqual([
    ['我的摆渡', '/swapSpace/myFerry/processing', 'ferrySpaces'],
    ['摆渡设置', '/swapSpace/setFerry', 'ferrySpaces'],
    ['统计审计', '/swapSpace/audit', 'ferrySpaces'],
  ]);
  expect(MY_FERRY_STATES.map((s) => [s.title, s.path])).toEqual([
    ['审批中', '/swapSpace/myFerry/processing'],
    ['已完成', '/swapSpace/myFerry/completed'],
    ['已驳回', '/swapSpace/myFerry/rejected'],
    ['收到的文件', '/swapSpace/myFerry/received'],
  ]);
});

it('/swapSpace goes to 我的摆渡 · 审批中 with both navigations and the tasks in approval', async () => {
  renderAt('/swapSpace');
  expect(await screen.findByRole('heading', { name: '我的摆渡' })).toBeInTheDocument();
  expect(where()).toBe('/swapSpace/myFerry/processing');
  expect(screen.getByRole('tab', { name: '我的摆渡', selected: true })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: '摆渡设置' })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: '统计审计' })).toBeInTheDocument();
  const states = screen.getByRole('navigation', { name: '摆渡状态' });
  expect(states).toHaveTextContent('审批中已完成已驳回收到的文件');
  expect(await screen.findByText('BD-processing')).toBeInTheDocument();
  expect(tasks).toHaveBeenCalledWith({ status: 'processing', page: 1, pageSize: 20 }, { errorMode: 'none' });
  expect(screen.queryByText(/该功能尚未开放/)).not.toBeInTheDocument();
});

it.each([
  ['/swapSpace/myFerry/completed', 'completed'],
  ['/swapSpace/myFerry/rejected', 'rejected'],
] as const)('%s shows the tasks of that tab', async (route, status) => {
  renderAt(route);
  expect(await screen.findByText(`BD-${status}`)).toBeInTheDocument();
  expect(tasks).toHaveBeenCalledWith({ status, page: 1, pageSize: 20 }, { errorMode: 'none' });
  expect(tasks).toHaveBeenCalledTimes(1);
});

it('the segmented control switches to 已驳回 and to 收到的文件', async () => {
  renderAt('/swapSpace/myFerry/processing');
  await screen.findByText('BD-processing');
  const states = screen.getByRole('navigation', { name: '摆渡状态' });
  fireEvent.click(within(states).getByText('已驳回'));
  await waitFor(() => expect(where()).toBe('/swapSpace/myFerry/rejected'));
  expect(await screen.findByText('BD-rejected')).toBeInTheDocument();

  fireEvent.click(within(states).getByText('收到的文件'));
  await waitFor(() => expect(where()).toBe('/swapSpace/myFerry/received'));
  expect(await screen.findByText('投标书.pdf')).toBeInTheDocument();
  expect(inbox).toHaveBeenCalledWith({ page: 1, pageSize: 20 }, { errorMode: 'none' });
  expect(screen.getByText('全部下载').closest('a')).toHaveAttribute('href', '/api/Ferry/Inbox/p1/Download');
  await settled();
});

it('a task opens in the drawer with the link to its approval', async () => {
  jest.spyOn(api, 'getFerryTask').mockResolvedValue(ferryDetail({ taskId: 't-processing', number: 'BD-processing' }));
  renderAt('/swapSpace/myFerry/processing');
  fireEvent.click(await screen.findByText('BD-processing'));
  const drawer = panelOf('摆渡详情');
  const link = await within(drawer).findByText('查看审批');
  expect(link.closest('a')).toHaveAttribute('href', '/workflow/informationDetails?id=i9');
});

it('发起摆渡 opens the form in a drawer, with files from the spaces; a sent request closes it and refreshes the list', async () => {
  const zones = jest.spyOn(api, 'getFerryZones').mockResolvedValue(ferryZones({ targets: ['外网'] }));
  jest.spyOn(api, 'getFolderTree').mockImplementation(async (space) =>
    space === 'Personal' ? [{ id: '10', parentId: null, name: '个人文件', idPath: '2/10', namePath: '个人文件', hasChildren: false }] : [],
  );
  const page = (files: ReturnType<typeof folderFile>[]): FolderItems => ({
    folder: { ...folderFile('10', '个人文件'), type: 'folder' },
    items: { data: files, total: files.length },
  });
  jest.spyOn(api, 'getItems').mockImplementation(async (id: string) => (id === '10' ? page([folderFile('12', '季度报告.pdf', 2048, { parentId: '10' })]) : page([])));
  const create = jest.spyOn(api, 'createFerryTask').mockResolvedValue({ taskId: 't9', instanceId: 'i9', status: 'pending' });

  renderAt('/swapSpace/myFerry/processing');
  await screen.findByText('BD-processing');
  fireEvent.click(button(document.body, '发起摆渡'));
  const drawer = panelOf('发起摆渡');
  await within(drawer).findByText('从「内网」发送');
  expect(zones).toHaveBeenCalledTimes(1);

  fireEvent.click(button(drawer, '从空间选择'));
  const picker = panelOf('选择要摆渡的文件');
  fireEvent.click(await within(await within(picker).findByLabelText('文件列表')).findByLabelText(/季度报告\.pdf/));
  fireEvent.click(button(picker, '确定'));
  expect(await within(drawer).findByLabelText('已选文件', { selector: 'ul' })).toHaveTextContent('季度报告.pdf');
  const recipients = within(drawer).getByLabelText('接收人');
  fireEvent.change(recipients, { target: { value: 'wangwu' } });
  fireEvent.keyDown(recipients, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.change(within(drawer).getByLabelText('摆渡原因'), { target: { value: '提交季度报告' } });
  const before = tasks.mock.calls.length;
  fireEvent.click(button(drawer, '提交摆渡申请'));

  await waitFor(() => expect(create).toHaveBeenCalledWith({ fileIds: ['12'], targetZone: '外网', recipients: ['wangwu'], reason: '提交季度报告' }));
  await waitFor(() => expect(screen.queryByText('提交摆渡申请')).not.toBeInTheDocument());
  await waitFor(() => expect(tasks.mock.calls.length).toBeGreaterThan(before));
  expect(toasts()).toContain('已提交摆渡申请，等待审批');
  await settled();
});

it('/swapSpace/setFerry shows the settings of this deployment', async () => {
  jest.spyOn(api, 'getFerrySettings').mockResolvedValue(settingsView());
  jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([]);
  renderAt('/swapSpace/setFerry');
  expect(await screen.findByRole('heading', { name: '摆渡设置' })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: '摆渡设置', selected: true })).toBeInTheDocument();
  expect(await screen.findByText('摆渡方向')).toBeInTheDocument();
  expect(screen.queryByText(/该功能尚未开放/)).not.toBeInTheDocument();
  await settled();
});

it('/swapSpace/audit shows the statistics page', async () => {
  jest.spyOn(api, 'getFerryStats').mockResolvedValue(stats({ tasks: 7 }));
  renderAt('/swapSpace/audit');
  expect(await screen.findByRole('heading', { name: '统计审计' })).toBeInTheDocument();
  expect(screen.getByRole('tab', { name: '统计审计', selected: true })).toBeInTheDocument();
  expect(screen.queryByText(/该功能尚未开放/)).not.toBeInTheDocument();
  await settled();
});

it('the tabs lead to 统计审计', async () => {
  jest.spyOn(api, 'getFerrySettings').mockResolvedValue(settingsView());
  jest.spyOn(api, 'getWorkflowDefinitions').mockResolvedValue([]);
  jest.spyOn(api, 'getFerryStats').mockResolvedValue(stats());
  renderAt('/swapSpace/setFerry');
  fireEvent.click(await screen.findByRole('tab', { name: '统计审计' }));
  expect(await screen.findByRole('heading', { name: '统计审计' })).toBeInTheDocument();
  expect(where()).toBe('/swapSpace/audit');
});
