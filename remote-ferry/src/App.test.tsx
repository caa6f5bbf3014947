// 文件摆渡 through the remote's routes, as the shell mounts it at /ferry/* in simple mode.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { api, REMOTE_CONTRACT_VERSION, type FolderItems } from '@app/shared';
import {
  button,
  ferryDetail,
  ferryRow,
  ferryZones,
  folderFile,
  inboxItem,
  panelOf,
  pickOption,
  renderWithProviders,
  settled,
  useInlineStylesOnly,
} from '@app/shared/test';
import App from './App';
import meta from './meta';


useInlineStylesOnly();
configure({ defaultHidden: true });
jest.setTimeout(60_000);

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

function Back() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => navigate(-1)}>
      浏览器后退
    </button>
  );
}

const renderAt = (route: string) =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/ferry/*" element={<App />} />
      </Routes>
      <Where />
      <Back />
    </>,
    { route, session: true },
  );

const where = () => screen.getByTestId('where').textContent ?? '';
const tab = (name: string) => screen.getByRole('tab', { name });

const upload: FolderItems = {
  folder: { ...folderFile('50', '文件摆渡'), type: 'folder' },
  items: { data: [folderFile('51', '季度报告.pdf', 2048)], total: 1 },
};

let zones: jest.SpyInstance;
let tasks: jest.SpyInstance;
let inbox: jest.SpyInstance;
beforeEach(() => {
  zones = jest.spyOn(api, 'getFerryZones').mockResolvedValue(ferryZones());
  jest.spyOn(api, 'getItems').mockResolvedValue(upload);
  tasks = jest.spyOn(api, 'getFerryTasks').mockImplementation(async (q) => ({
    data: [ferryRow({ taskId: `t-${q.status}`, number: `BD-${q.status}` })],
    total: 1,
  }));
  inbox = jest.spyOn(api, 'getFerryInbox').mockResolvedValue({ data: [inboxItem()], total: 1 });
});
afterEach(() => jest.restoreAllMocks());

it('meta has the one file-ferry entry', () => {
  expect(meta.name).toBe('ferry');
  // the shell ↔ remote contract version this remote reports (shared/src/contract.ts)
  expect(meta.contract).toBe(REMOTE_CONTRACT_VERSION);
  expect(meta.menu.map((m) => [m.title, m.path])).toEqual([['文件摆渡', '/ferry/file']]);
});

it('/ferry opens 文件摆渡 on 发送文件: the zones are loaded and files are uploaded, not picked from spaces', async () => {
  renderAt('/ferry');
  expect(await screen.findByRole('heading', { name: '文件摆渡' })).toBeInTheDocument();
  expect(where()).toBe('/ferry/file');
  expect(screen.getByRole('tab', { name: '文件摆渡', selected: true })).toBeInTheDocument();
  expect(tab('发送文件')).toHaveAttribute('aria-selected', 'true');
  expect(await screen.findByText('从「内网」发送')).toBeInTheDocument();
  expect(zones).toHaveBeenCalledWith({ errorMode: 'none' });
  expect(button(document.body, '上传新文件')).toBeInTheDocument();
  expect(screen.queryByText('从空间选择')).not.toBeInTheDocument();
  expect(await screen.findByText('季度报告.pdf')).toBeInTheDocument();
  expect(screen.queryByText(/该功能尚未开放/)).not.toBeInTheDocument();
});

it('keeps the tab and the state of 我的摆渡 in the address; back restores them; the zones load once', async () => {
  renderAt('/ferry/file');
  await screen.findByText('从「内网」发送');

  fireEvent.click(tab('我的摆渡'));
  await waitFor(() => expect(where()).toBe('/ferry/file?tab=tasks'));
  expect(await screen.findByText('BD-processing')).toBeInTheDocument();
  expect(tasks).toHaveBeenLastCalledWith({ status: 'processing', page: 1, pageSize: 20 }, { errorMode: 'none' });
  const states = screen.getByRole('navigation', { name: '摆渡状态' });
  expect(states).toHaveTextContent('审批中已完成已驳回');

  fireEvent.click(within(states).getByText('已完成'));
  await waitFor(() => expect(where()).toBe('/ferry/file?tab=tasks&status=completed'));
  expect(await screen.findByText('BD-completed')).toBeInTheDocument();
  expect(tasks).toHaveBeenLastCalledWith({ status: 'completed', page: 1, pageSize: 20 }, { errorMode: 'none' });

  fireEvent.click(tab('收到的文件'));
  await waitFor(() => expect(where()).toBe('/ferry/file?tab=received'));
  expect(await screen.findByText('投标书.pdf')).toBeInTheDocument();
  expect(inbox).toHaveBeenCalledWith({ page: 1, pageSize: 20 }, { errorMode: 'none' });

  fireEvent.click(button(document.body, '浏览器后退'));
  await waitFor(() => expect(where()).toBe('/ferry/file?tab=tasks&status=completed'));
  expect(tab('我的摆渡')).toHaveAttribute('aria-selected', 'true');
  expect(await screen.findByText('BD-completed')).toBeInTheDocument();
  expect(zones).toHaveBeenCalledTimes(1);
  await settled();
});

it('a reload at ?tab=received opens 收到的文件; an unknown tab falls back to 发送文件', async () => {
  const { unmount } = renderAt('/ferry/file?tab=received');
  expect(await screen.findByText('投标书.pdf')).toBeInTheDocument();
  expect(tab('收到的文件')).toHaveAttribute('aria-selected', 'true');
  unmount();
  renderAt('/ferry/file?tab=nope');
  expect(await screen.findByText('从「内网」发送')).toBeInTheDocument();
  expect(tab('发送文件')).toHaveAttribute('aria-selected', 'true');
});

it('a sent request leads to 我的摆渡, whose drawer does not link to the approval pages (none in simple mode)', async () => {
  const create = jest.spyOn(api, 'createFerryTask').mockResolvedValue({ taskId: 't9', instanceId: 'i9', status: 'pending' });
  jest.spyOn(api, 'getFerryTask').mockResolvedValue(ferryDetail({ taskId: 't-processing', number: 'BD-processing' }));
  renderAt('/ferry/file?tab=send');
  fireEvent.click(await screen.findByLabelText(/季度报告\.pdf/));
  await pickOption(screen.getByLabelText('目标网络区域'), '研发网');
  const recipients = screen.getByLabelText('接收人');
  fireEvent.change(recipients, { target: { value: 'wangwu' } });
  fireEvent.keyDown(recipients, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.change(screen.getByLabelText('摆渡原因'), { target: { value: '提交资料' } });
  fireEvent.click(button(document.body, '提交摆渡申请'));
  await waitFor(() => expect(create).toHaveBeenCalledWith({ fileIds: ['51'], targetZone: '研发网', recipients: ['wangwu'], reason: '提交资料' }));
  await waitFor(() => expect(where()).toBe('/ferry/file?tab=tasks'));

  fireEvent.click(await screen.findByText('BD-processing'));
  const drawer = panelOf('摆渡详情');
  expect(await within(drawer).findByText('文件与检查')).toBeInTheDocument();
  expect(within(drawer).queryByText('查看审批')).not.toBeInTheDocument();
});

it('the zones failing to load offer 重试', async () => {
  zones.mockRejectedValueOnce(new Error('网络错误'));
  renderAt('/ferry/file');
  expect(await screen.findByText('网络错误')).toBeInTheDocument();
  fireEvent.click(button(document.body, '重试'));
  expect(await screen.findByText('从「内网」发送')).toBeInTheDocument();
});

it('an unknown path says 页面不存在', async () => {
  renderAt('/ferry/nope');
  expect(await screen.findByText('页面不存在')).toBeInTheDocument();
});
