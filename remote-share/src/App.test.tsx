import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, ApiError, decodePreviewData, DOWNLOAD_FRAME_ATTR, sessionStore, REMOTE_CONTRACT_VERSION, type FolderItems, type Item, type ShareRecord } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import App from './App';
import SharePage from './SharePage';
import meta from './meta';

useInlineStylesOnly();

jest.setTimeout(60_000);

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

const record = (over: Partial<ShareRecord> = {}): ShareRecord => ({
  shareId: 'S1aaaaaaaaaaaaaaaaaaaa',
  shareType: 2,
  level: 2,
  items: [{ id: '11', name: '项目文档', type: 'folder', extension: '', size: 0 }],
  ownerId: '1',
  ownerName: '张三',
  targets: [],
  expireAt: '2026-12-31 23:59:59',
  createdAt: '2026-11-20 10:00:00',
  visitCount: 4,
  downloadCount: 2,
  downloadLimit: 5,
  status: 1,
  url: '/s/S1aaaaaaaaaaaaaaaaaaaa',
  ...over,
});

const entry = (over: Partial<Item> & Pick<Item, 'id' | 'name'>): Item => ({
  parentId: null,
  type: 'file',
  extension: '',
  size: 0,
  idPath: over.id,
  namePath: over.name,
  spaceType: 2,
  ownerId: '1',
  ownerName: '张三',
  createdAt: '2026-11-20 10:00:00',
  updatedAt: '2026-11-20 10:00:00',
  isFavorite: false,
  tags: [],
  permissions: ['view', 'download', 'copy'],
  ...over,
});

const folderPage = (folder: Item, data: Item[]): FolderItems => ({ folder, items: { data, total: data.length } });
const project = entry({ id: '11', name: '项目文档', type: 'folder', idPath: '11', namePath: '项目文档' });
const sub = entry({ id: '15', parentId: '11', name: '图纸', type: 'folder', idPath: '11/15', namePath: '项目文档/图纸' });
const plan = entry({ id: '12', parentId: '11', name: '计划.xlsx', extension: 'xlsx', size: 2048, idPath: '11/12', namePath: '项目文档/计划.xlsx' });

afterEach(() => {
  jest.restoreAllMocks();
  document.querySelectorAll(`[${DOWNLOAD_FRAME_ATTR}]`).forEach((f) => f.remove());
});

it('meta lists 分享记录 and 与我共享 under /file', () => {
  expect(meta.name).toBe('share');
  // the shell ↔ remote contract version this remote reports (shared/src/contract.ts)
  expect(meta.contract).toBe(REMOTE_CONTRACT_VERSION);
  expect(meta.menu.map((m) => [m.title, m.path])).toEqual([
    ['分享记录', '/file/sharelist'],
    ['与我共享', '/file/shareme'],
  ]);
});

/** window.open, recorded; the target of the preview it was asked to open. */
function watchNewTabs() {
  const windowOpen = jest.fn(() => ({}) as Window);
  window.open = windowOpen as unknown as typeof window.open;
  return {
    windowOpen,
    opened: () => {
      const [url, name] = windowOpen.mock.calls[0] as unknown as [string, string];
      expect(name).toBe('_blank');
      return decodePreviewData(url.replace(/^\/preview\//, ''));
    },
  };
}

function renderLists(route: string) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/file/sharelist" element={<App />} />
        <Route path="/file/shareme" element={<App />} />
      </Routes>
      <Where />
    </>,
    { route, session: true },
  );
}

describe('分享记录', () => {
  it('lists the shares with their state, counts and actions; 取消分享 asks first, then cancels and reloads', async () => {
    const internal = record({
      shareId: 'S2bbbbbbbbbbbbbbbbbbbb', shareType: 1, level: 1, url: '', downloadLimit: null, status: 2,
      items: [{ id: '12', name: '计划.xlsx', type: 'file', extension: 'xlsx', size: 2048 }, { id: '13', name: '附件', type: 'folder', extension: '', size: 0 }],
      targets: [{ type: 1, id: '7', name: '李四' }, { type: 2, id: '3', name: '研发部' }],
    });
    const sent = jest.spyOn(api, 'getSentShares').mockResolvedValue({ data: [record(), internal], total: 2 });
    const cancel = jest.spyOn(api, 'cancelShares').mockResolvedValue({ cancelled: 1 });
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderLists('/file/sharelist');

    expect(await screen.findByRole('heading', { name: '分享记录' })).toBeInTheDocument();
    const first = (await screen.findByText('项目文档')).closest('tr') as HTMLElement;
    expect(within(first).getByText('外链')).toBeInTheDocument();
    expect(within(first).getByText('预览和下载')).toBeInTheDocument();
    expect(within(first).getByText('4 / 2（上限 5）')).toBeInTheDocument();
    expect(within(first).getByText('有效')).toBeInTheDocument();
    const second = screen.getByText('计划.xlsx 等 2 个文件').closest('tr') as HTMLElement;
    expect(within(second).getByText('李四、研发部')).toBeInTheDocument();
    expect(within(second).getByText('已失效')).toBeInTheDocument();
    expect(within(second).getByText('仅预览')).toBeInTheDocument();
    // an internal share has no link to copy
    expect(within(second).queryByText('复制链接')).not.toBeInTheDocument();

    fireEvent.click(within(first).getByText('复制链接'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`链接：${location.origin}/s/S1aaaaaaaaaaaaaaaaaaaa`));

    fireEvent.click(within(first).getByText('取消分享'));
    expect(await screen.findByText('取消后，对方将立即无法再访问该分享。确定取消吗？')).toBeInTheDocument();
    expect(cancel).not.toHaveBeenCalled();
    const confirm = screen.getByText('取消后，对方将立即无法再访问该分享。确定取消吗？').closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(confirm).getByRole('button', { name: /取消分享/ }));
    await waitFor(() => expect(cancel).toHaveBeenCalledWith(['S1aaaaaaaaaaaaaaaaaaaa']));
    await waitFor(() => expect(sent).toHaveBeenCalledTimes(2));
  });

  it('修改 of an external link: a new random key is sent and shown once', async () => {
    jest.spyOn(api, 'getSentShares').mockResolvedValue({ data: [record()], total: 1 });
    const update = jest.spyOn(api, 'updateShare').mockResolvedValue({ ...record(), level: 1, accessKey: 'n3wk3y' });
    renderLists('/file/sharelist');
    fireEvent.click(await screen.findByText('修改'));
    const dialog = (await screen.findByText('修改分享')).closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(dialog).getByRole('radio', { name: '仅预览' }));
    fireEvent.click(within(dialog).getByRole('radio', { name: '系统随机生成' }));
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(update).toHaveBeenCalledWith('S1aaaaaaaaaaaaaaaaaaaa', { level: 1, downloadLimit: 5, accessKey: '' }));
    expect(await screen.findByTestId('new-access-key')).toHaveTextContent('n3wk3y');
  });
});

describe('与我共享', () => {
  it('opens a shared folder in place with the share path as breadcrumbs, and downloads through the share', async () => {
    const shared = record({ shareType: 1, url: '', ownerName: '王五' });
    jest.spyOn(api, 'getReceivedShares').mockResolvedValue({ data: [shared], total: 1 });
    const items = jest.spyOn(api, 'getSharedItems').mockImplementation(async (_share, folderId) =>
      folderId === '15' ? folderPage(sub, []) : folderPage(project, [sub, plan]),
    );
    renderLists('/file/shareme');
    const row = (await screen.findByText('项目文档')).closest('tr') as HTMLElement;
    expect(within(row).getByText('王五')).toBeInTheDocument();
    fireEvent.click(within(row).getByText('项目文档'));

    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    expect(items).toHaveBeenCalledWith('S1aaaaaaaaaaaaaaaaaaaa', '11', { page: 1, pageSize: 50 });
    expect(screen.getByTestId('where')).toHaveTextContent('/file/shareme?share=S1aaaaaaaaaaaaaaaaaaaa&folder=11');
    expect(screen.getByText('王五 分享 · 权限：预览和下载 · 有效期至 2026-12-31 23:59:59')).toBeInTheDocument();
    // level 2: download, no upload
    expect(screen.queryByRole('button', { name: /上传/ })).not.toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('下载 计划.xlsx'));
    const frame = document.querySelector(`[${DOWNLOAD_FRAME_ATTR}]`) as HTMLIFrameElement;
    expect(frame.src).toContain('/User/FileTransfer/Download/12?shareId=S1aaaaaaaaaaaaaaaaaaaa');

    fireEvent.click(screen.getByText('图纸'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('folder=15'));
    const crumbs = screen.getByRole('navigation', { name: '分享路径' });
    expect(within(crumbs).getByText('与我共享')).toBeInTheDocument();
    expect(within(crumbs).getByText('项目文档')).toBeInTheDocument();
    expect(within(crumbs).getByText('图纸')).toBeInTheDocument();
    fireEvent.click(within(crumbs).getByText('与我共享'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/file\/shareme$/));
  });

  it('a file name opens its preview through the share, in a new tab', async () => {
    const tabs = watchNewTabs();
    const shared = record({ shareType: 1, url: '', ownerName: '王五' });
    jest.spyOn(api, 'getReceivedShares').mockResolvedValue({ data: [shared], total: 1 });
    jest.spyOn(api, 'getSharedItems').mockResolvedValue(folderPage(project, [sub, plan]));
    jest.spyOn(api, 'getFileActions').mockResolvedValue({ previewable: true, editable: true, actions: [] });
    renderLists('/file/shareme?share=S1aaaaaaaaaaaaaaaaaaaa&folder=11');
    fireEvent.click(await screen.findByText('计划.xlsx'));
    await waitFor(() => expect(tabs.windowOpen).toHaveBeenCalledTimes(1));
    expect(tabs.opened()).toEqual({ fileId: '12', shareId: 'S1aaaaaaaaaaaaaaaaaaaa', name: '计划.xlsx' });
    // the folder opens in place as before
    fireEvent.click(screen.getByText('图纸'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('folder=15'));
    expect(tabs.windowOpen).toHaveBeenCalledTimes(1);
  });

  it('offers 上传 at level 3', async () => {
    jest.spyOn(api, 'getReceivedShares').mockResolvedValue({ data: [record({ shareType: 1, level: 3, url: '' })], total: 1 });
    jest.spyOn(api, 'getSharedItems').mockResolvedValue(folderPage({ ...project, permissions: ['view', 'download', 'upload'] }, [plan]));
    renderLists('/file/shareme?share=S1aaaaaaaaaaaaaaaaaaaa&folder=11');
    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /上传/ })).toBeInTheDocument();
  });
});

describe('the share page /s/:shareId', () => {
  const renderPage = (route: string) =>
    renderWithProviders(
      <Routes>
        <Route path="/s/:shareId" element={<SharePage />} />
      </Routes>,
      { route },
    );
  const info = { shareId: 'S1aaaaaaaaaaaaaaaaaaaa', ownerName: '张三', name: '', needKey: true, expireAt: null, level: 2 as const };
  beforeEach(() => sessionStore.remove('share-key:S1aaaaaaaaaaaaaaaaaaaa'));

  it('an unknown or expired share shows the message and nothing else', async () => {
    jest.spyOn(api, 'getOutsource').mockRejectedValue(new ApiError('指定的分享不存在或已过期。', 401));
    renderPage('/s/S1aaaaaaaaaaaaaaaaaaaa');
    expect(await screen.findByText('指定的分享不存在或已过期。')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByText('张三')).not.toBeInTheDocument();
  });

  it('asks for the key, says when it is wrong, then lists the share and downloads with the key', async () => {
    const outsource = jest.spyOn(api, 'getOutsource').mockImplementation(async (_id, key) => {
      if (!key) return info;
      if (key === 'good12') return { ...info, name: '项目文档', needKey: false };
      throw new ApiError('提取码错误', 40302);
    });
    const list = jest.spyOn(api, 'getOutsourceItems').mockResolvedValue(folderPage(project, [plan]));
    renderPage('/s/S1aaaaaaaaaaaaaaaaaaaa');
    expect(await screen.findByText('张三 给你分享了文件，请输入提取码查看。')).toBeInTheDocument();
    expect(screen.getByText('永久有效')).toBeInTheDocument();
    expect(list).not.toHaveBeenCalled();

    fireEvent.change(screen.getByRole('textbox', { name: '提取码' }), { target: { value: 'bad' } });
    fireEvent.click(screen.getByRole('button', { name: '提取文件' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('提取码错误');
    expect(list).not.toHaveBeenCalled();

    fireEvent.change(screen.getByRole('textbox', { name: '提取码' }), { target: { value: 'good12' } });
    fireEvent.click(screen.getByRole('button', { name: '提取文件' }));
    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    expect(list).toHaveBeenCalledWith('S1aaaaaaaaaaaaaaaaaaaa', 'good12', { page: 1, pageSize: 50 });
    expect(outsource).toHaveBeenLastCalledWith('S1aaaaaaaaaaaaaaaaaaaa', 'good12', { errorMode: 'none' });
    fireEvent.click(screen.getByLabelText('下载 计划.xlsx'));
    const frame = document.querySelector(`[${DOWNLOAD_FRAME_ATTR}]`) as HTMLIFrameElement;
    expect(frame.src).toContain('/User/FileTransfer/ExternalDownload/12?urlKey=S1aaaaaaaaaaaaaaaaaaaa&accessKey=good12');
  });

  it('a visitor opens a file’s preview with the share’s id; the key stays in session storage for the new tab', async () => {
    const tabs = watchNewTabs();
    const ask = jest.spyOn(api, 'getFileActions').mockResolvedValue({ previewable: true, editable: false, actions: ['download', 'preview'] });
    const other = entry({ id: '13', parentId: '11', name: '说明.txt', extension: 'txt', idPath: '11/13', namePath: '项目文档/说明.txt' });
    jest.spyOn(api, 'getOutsource').mockResolvedValue({ ...info, name: '项目文档', needKey: false });
    jest.spyOn(api, 'getOutsourceItems').mockResolvedValue(folderPage(project, [sub, plan, other]));
    renderPage('/s/S1aaaaaaaaaaaaaaaaaaaa?key=good12');
    fireEvent.click(await screen.findByText('说明.txt'));
    await waitFor(() => expect(tabs.windowOpen).toHaveBeenCalledTimes(1));
    expect(tabs.opened()).toEqual({ fileId: '13', shareId: 'S1aaaaaaaaaaaaaaaaaaaa', name: '说明.txt', list: ['12', '13'] });
    expect(sessionStore.get('share-key:S1aaaaaaaaaaaaaaaaaaaa')).toBe('good12');
    // Actions needs no session: the visitor is asked about the type like everyone else
    expect(ask).toHaveBeenCalledWith('txt', expect.anything());
  });

  it('a link with ?key= opens at once; a preview-only share offers no download', async () => {
    jest.spyOn(api, 'getOutsource').mockResolvedValue({ ...info, name: '项目文档', needKey: false, level: 1 });
    jest.spyOn(api, 'getOutsourceItems').mockResolvedValue(folderPage({ ...project, permissions: ['view'] }, [{ ...plan, permissions: ['view'] }]));
    renderPage('/s/S1aaaaaaaaaaaaaaaaaaaa?key=good12');
    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    expect(screen.getByText('仅预览')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /下载/ })).not.toBeInTheDocument();
    expect(screen.queryByText('打包下载')).not.toBeInTheDocument();
  });
});
