import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, ApiError, decodePreviewData } from '@app/shared';
import { renderWithProviders, type TestSession, useInlineStylesOnly } from '@app/shared/test';
import App from '../App';
import { docsFolder, item, page, personalRoot, plan, publicRoot, report } from '../__tests__/fixtures';

useInlineStylesOnly();

function Where() {
  const { pathname } = useLocation();
  return <output data-testid="where">{pathname}</output>;
}

function renderFiles(route: string, session: TestSession | true = true) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/file/*" element={<App section="file" />} />
      </Routes>
      <Where />
    </>,
    { route, session },
  );
}

const rows = () => screen.getAllByRole('row').slice(1); // without the header row

jest.setTimeout(30_000);

let rootFolders: jest.SpyInstance;
let getItems: jest.SpyInstance;

beforeEach(() => {
  rootFolders = jest.spyOn(api, 'getRootFolders').mockImplementation(async (space) => [space === 'Personal' ? personalRoot : publicRoot]);
  getItems = jest.spyOn(api, 'getItems');
  // the folder tree beside the list (its own tests are in tree/FolderTree.test.tsx)
  jest.spyOn(api, 'getFolderTree').mockResolvedValue([]);
  jest.spyOn(api, 'getTreeNodes').mockResolvedValue([]);
  // the personal space's usage under the tree (its own tests are in folder/FolderView.test.tsx)
  jest.spyOn(api, 'getPersonalUsage').mockResolvedValue({ used: 0, recycleBin: 0, uploading: 0 });
  jest.spyOn(api, 'getPersonalPolicy').mockResolvedValue({ quota: 0, unlimited: true });
});

afterEach(() => jest.restoreAllMocks());

describe('个人文件', () => {
  it('shows the items of the root folder with name, size and date (no owner column in the personal space)', async () => {
    getItems.mockResolvedValue(page(personalRoot, [docsFolder, report]));
    renderFiles('/file/personal');

    expect(await screen.findByText('季度报告.docx')).toBeInTheDocument();
    expect(rootFolders).toHaveBeenCalledWith('Personal');
    expect(getItems).toHaveBeenCalledWith('10', { page: 1, pageSize: 100 });
    expect(screen.getByRole('heading', { name: '个人文件' })).toBeInTheDocument();

    const [folderRow, fileRow] = rows();
    expect(within(folderRow).getByText('项目文档')).toBeInTheDocument();
    expect(within(folderRow).getByText('-')).toBeInTheDocument(); // a folder has no size
    expect(within(folderRow).getByText('2026-02-14 18:05')).toBeInTheDocument();
    expect(within(fileRow).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(fileRow).getByText('2026-03-01 09:30')).toBeInTheDocument();
    expect(within(fileRow).queryByText('李四')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: '所有者' })).toBeNull();
    expect(fileRow.querySelector('[data-file-type="document"]')).not.toBeNull();
    expect(folderRow.querySelector('[data-file-type="folder"]')).not.toBeNull();
  });

  it("shows the personal space's use against its quota under the tree, recycle bin and uploads included", async () => {
    getItems.mockResolvedValue(page(personalRoot, [report]));
    jest.spyOn(api, 'getPersonalUsage').mockResolvedValue({ used: 9.5 * 1024 ** 3, recycleBin: 512 * 1024 ** 2, uploading: 100 * 1024 ** 2 });
    jest.spyOn(api, 'getPersonalPolicy').mockResolvedValue({ quota: 10 * 1024 ** 3, unlimited: false });
    renderFiles('/file/personal');
    const usage = await screen.findByRole('region', { name: '个人空间用量' });
    expect(within(usage).getByText('已用 9.5 GB / 10 GB')).toBeInTheDocument();
    expect(within(usage).getByText('回收站 512 MB，上传中 100 MB')).toBeInTheDocument();
    expect(within(usage).getByRole('progressbar', { name: '个人空间已用 95%' })).toBeInTheDocument();
  });

  it('without a quota, says how much is used and that the space is unlimited; the enterprise space shows no usage', async () => {
    getItems.mockResolvedValue(page(personalRoot, [report]));
    jest.spyOn(api, 'getPersonalUsage').mockResolvedValue({ used: 1536, recycleBin: 0, uploading: 0 });
    jest.spyOn(api, 'getPersonalPolicy').mockResolvedValue({ quota: 0, unlimited: true });
    const { unmount } = renderFiles('/file/personal');
    const usage = await screen.findByRole('region', { name: '个人空间用量' });
    expect(within(usage).getByText('已用 1.5 KB（不限容量）')).toBeInTheDocument();
    expect(within(usage).queryByRole('progressbar')).toBeNull();
    unmount();
    getItems.mockResolvedValue(page(publicRoot, []));
    renderFiles('/file/public');
    await screen.findByRole('heading', { name: '企业文件' });
    expect(screen.queryByRole('region', { name: '个人空间用量' })).toBeNull();
  });

  it('shows who owns each item in the enterprise space', async () => {
    getItems.mockResolvedValue(page(publicRoot, [item({ id: '21', name: '制度汇编.pdf', extension: 'pdf', idPath: '1/20/21', spaceType: 1, ownerName: '王五' })]));
    renderFiles('/file/public');
    const name = await screen.findByText('制度汇编.pdf');
    expect(screen.getByRole('columnheader', { name: '所有者' })).toBeInTheDocument();
    expect(within(name.closest('tr') as HTMLElement).getByText('王五')).toBeInTheDocument();
  });

  it('draws a full page of 100 rows: the first screen at once, the rest right after', async () => {
    const many = Array.from({ length: 100 }, (_, i) => item({ id: `g${i}`, name: `文件${String(i).padStart(3, '0')}.txt`, extension: 'txt', size: 10 }));
    getItems.mockResolvedValue(page(personalRoot, many, 100));
    renderFiles('/file/personal');
    await screen.findByText('文件000.txt');
    // the rest comes as a transition: rendering 100 antd rows in jsdom takes a while on a busy machine
    expect(await screen.findByText('文件099.txt', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(rows()).toHaveLength(100);
  });

  it('opens a folder: loads its items, puts its id path in the URL and updates the breadcrumb', async () => {
    getItems.mockImplementation(async (id: string) => (id === '11' ? page(docsFolder, [plan]) : page(personalRoot, [docsFolder, report])));
    renderFiles('/file/personal');

    fireEvent.click(await screen.findByText('项目文档'));

    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    expect(getItems).toHaveBeenLastCalledWith('11', { page: 1, pageSize: 100 });
    expect(screen.getByTestId('where')).toHaveTextContent('/file/personal/2/10/11');
    expect(screen.queryByText('季度报告.docx')).not.toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: '当前位置' });
    expect(within(crumbs).getByRole('link', { name: '个人文件' })).toBeInTheDocument();
    expect(within(crumbs).getByText('项目文档')).toHaveAttribute('aria-current', 'page');

    // back to the root through the breadcrumb
    fireEvent.click(within(crumbs).getByRole('link', { name: '个人文件' }));
    expect(await screen.findByText('季度报告.docx')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/file\/personal$/);
  });

  it('a file name opens its preview in a new tab, the previewable files of the page as its neighbours', async () => {
    const windowOpen = jest.fn(() => ({}) as Window);
    window.open = windowOpen as unknown as typeof window.open;
    jest.spyOn(api, 'getFileActions').mockImplementation(async (ext: string) => ({ previewable: ext !== 'zip', editable: false, actions: [] }));
    const photo = item({ id: '14', parentId: '10', name: '现场照片.jpg', extension: 'jpg', idPath: '2/10/14' });
    const archive = item({ id: '15', parentId: '10', name: '资料.zip', extension: 'zip', idPath: '2/10/15' });
    getItems.mockResolvedValue(page(personalRoot, [docsFolder, report, archive, photo]));
    renderFiles('/file/personal');

    fireEvent.click(await screen.findByText('现场照片.jpg'));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledTimes(1));
    const [url, target] = windowOpen.mock.calls[0] as unknown as [string, string];
    expect(target).toBe('_blank');
    expect(decodePreviewData(url.replace(/^\/preview\//, ''))).toEqual({ fileId: '14', name: '现场照片.jpg', list: ['12', '14'] });
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/file\/personal$/);

    // a type the server cannot show: the user is told so and nothing opens
    fireEvent.click(screen.getByText('资料.zip'));
    expect(await screen.findByText('该文件暂不支持预览')).toBeInTheDocument();
    expect(windowOpen).toHaveBeenCalledTimes(1);
  });

  it('loads the folder named by the last segment of a deep link', async () => {
    getItems.mockResolvedValue(page(docsFolder, [plan]));
    renderFiles('/file/personal/2/10/11');
    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    expect(getItems).toHaveBeenCalledWith('11', { page: 1, pageSize: 100 });
    expect(getItems).not.toHaveBeenCalledWith('10', expect.anything());
  });

  it('shows 暂无数据 for an empty folder', async () => {
    getItems.mockResolvedValue(page(personalRoot, []));
    renderFiles('/file/personal');
    expect(await screen.findByText('暂无数据', { ignore: 'script, style, title' })).toBeInTheDocument();
    expect(rows().some((r) => r.textContent?.includes('.docx'))).toBe(false);
  });

  it('requests page 2 from the server', async () => {
    const many = Array.from({ length: 100 }, (_, i) => item({ id: `f${i}`, name: `文件${i}.txt`, extension: 'txt', size: 10 }));
    getItems.mockImplementation(async (_id: string, q: { page: number }) =>
      q.page === 2 ? page(personalRoot, [item({ id: 'last', name: '第二页的文件.txt' })], 101) : page(personalRoot, many, 101),
    );
    renderFiles('/file/personal');
    await screen.findByText('文件0.txt');
    expect(screen.getByText('共 101 项')).toBeInTheDocument();

    fireEvent.click(screen.getByTitle('2'));

    expect(await screen.findByText('第二页的文件.txt')).toBeInTheDocument();
    expect(getItems).toHaveBeenLastCalledWith('10', { page: 2, pageSize: 100 });
  });

  it('sorts on the server: sends sortField and sortOrder', async () => {
    getItems.mockResolvedValue(page(personalRoot, [docsFolder, report]));
    renderFiles('/file/personal');
    await screen.findByText('季度报告.docx');

    fireEvent.click(screen.getByRole('columnheader', { name: /大小/ }));
    await waitFor(() => expect(getItems).toHaveBeenLastCalledWith('10', { page: 1, pageSize: 100, sortField: 'size', sortOrder: 'asc' }));

    fireEvent.click(screen.getByRole('columnheader', { name: /大小/ }));
    await waitFor(() => expect(getItems).toHaveBeenLastCalledWith('10', { page: 1, pageSize: 100, sortField: 'size', sortOrder: 'desc' }));
  });

  it('searches the folder and its subfolders by keyword on the server', async () => {
    getItems.mockResolvedValue(page(personalRoot, [report]));
    const searchFiles = jest.spyOn(api, 'searchFiles').mockResolvedValue({ data: [report], total: 1 });
    renderFiles('/file/personal');
    await screen.findByText('季度报告.docx');

    const search = screen.getByPlaceholderText('搜索当前文件夹');
    fireEvent.change(search, { target: { value: ' 报告 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });

    await waitFor(() => expect(searchFiles).toHaveBeenLastCalledWith({ keyword: '报告', folderId: '10', page: 1, pageSize: 50 }));
    // the listing itself is not filtered any more
    expect(getItems).not.toHaveBeenCalledWith('10', expect.objectContaining({ keyword: expect.anything() }));
  });

  it('shows the error and 重试 loads again', async () => {
    getItems.mockRejectedValueOnce(new ApiError('服务器开小差了', 500)).mockResolvedValue(page(personalRoot, [report]));
    renderFiles('/file/personal');

    expect(await screen.findByText('服务器开小差了')).toBeInTheDocument();
    expect(screen.queryByText('季度报告.docx')).not.toBeInTheDocument();
    expect(getItems).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));

    expect(await screen.findByText('季度报告.docx')).toBeInTheDocument();
    expect(getItems).toHaveBeenCalledTimes(2);
  });

  it('retries the root folder too when that failed', async () => {
    rootFolders.mockRejectedValueOnce(new ApiError('接口请求超时，请刷新页面重试', 0));
    getItems.mockResolvedValue(page(personalRoot, [report]));
    renderFiles('/file/personal');

    expect(await screen.findByText('接口请求超时，请刷新页面重试')).toBeInTheDocument();
    expect(getItems).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByText('季度报告.docx')).toBeInTheDocument();
    expect(rootFolders).toHaveBeenCalledTimes(2);
  });

  it('takes the space titles from EnvironmentConfig', async () => {
    getItems.mockResolvedValue(page(personalRoot, []));
    renderFiles('/file/personal', { envConfig: { personalFolderName: '我的网盘', publicFolderName: '公司资料' } });
    expect(await screen.findByRole('heading', { name: '我的网盘' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: '个人文件' })).not.toBeInTheDocument();
  });
});

describe('企业文件', () => {
  it('loads the enterprise root folder under its configured title', async () => {
    getItems.mockResolvedValue(page(publicRoot, [item({ id: '21', name: '制度汇编.pdf', extension: 'pdf', idPath: '1/20/21', spaceType: 1 })]));
    renderFiles('/file/public', { envConfig: { personalFolderName: '我的网盘', publicFolderName: '公司资料' } });
    expect(await screen.findByText('制度汇编.pdf')).toBeInTheDocument();
    expect(rootFolders).toHaveBeenCalledWith('Public');
    expect(getItems).toHaveBeenCalledWith('20', { page: 1, pageSize: 100 });
    expect(screen.getByRole('heading', { name: '公司资料' })).toBeInTheDocument();
  });

  it('warns and loads nothing when the roles lack publicSpace', async () => {
    renderFiles('/file/public', { roles: { personalSpace: true, publicSpace: false } });
    expect(await screen.findByText('当前功能策略无法访问企业文件')).toBeInTheDocument();
    await act(async () => {});
    expect(rootFolders).not.toHaveBeenCalled();
    expect(getItems).not.toHaveBeenCalled();
  });

  it('warns when the roles lack personalSpace', async () => {
    renderFiles('/file/personal', { roles: { personalSpace: false, publicSpace: true } });
    expect(await screen.findByText('当前功能策略无法访问个人文件')).toBeInTheDocument();
    expect(rootFolders).not.toHaveBeenCalled();
  });
});
