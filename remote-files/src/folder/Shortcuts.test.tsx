import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api } from '@app/shared';
import { renderWithProviders, type TestSession, useInlineStylesOnly } from '@app/shared/test';
import App from '../App';
import { file, folder, mockFilesPage, ok, root } from '../__tests__/filesPage';
import { docsFolder, item, page, plan, WRITE } from '../__tests__/fixtures';

useInlineStylesOnly();

jest.setTimeout(30_000);

const mocks = mockFilesPage();

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

function renderAt(route: string, session: TestSession | true = true) {
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

const where = () => screen.getByTestId('where');
const checkbox = (name: string) => screen.getByRole('checkbox', { name: `选择 ${name}` });

const folderShortcut = item({
  id: '40', parentId: '10', name: '项目文档', type: 'shortcut', idPath: '2/10/40', permissions: WRITE,
  targetId: '11', targetType: 'folder', targetIdPath: '2/10/11',
});
const fileShortcut = item({
  id: '41', parentId: '10', name: '计划.xlsx', type: 'shortcut', extension: 'xlsx', idPath: '2/10/41', permissions: WRITE,
  targetId: '13', targetType: 'file', targetIdPath: '2/10/11/13',
});
const goneShortcut = item({
  id: '42', parentId: '10', name: '旧资料', type: 'shortcut', idPath: '2/10/42', permissions: WRITE,
  targetId: null, targetType: null, targetIdPath: null,
});
const enterpriseShortcut = item({
  id: '43', parentId: '10', name: '制度汇编.pdf', type: 'shortcut', extension: 'pdf', idPath: '2/10/43', permissions: WRITE,
  targetId: '21', targetType: 'file', targetIdPath: '1/20/21',
});

describe('创建快捷方式', () => {
  it('creates the shortcut in the folder picked and refreshes the list when that folder is shown', async () => {
    jest.spyOn(api, 'getFolderTree').mockImplementation(async (space) =>
      space === 'Personal'
        ? [
            { id: '10', parentId: null, name: '个人文件', idPath: '2/10', namePath: '个人文件', hasChildren: true },
            { id: '11', parentId: '10', name: '项目文档', idPath: '2/10/11', namePath: '个人文件/项目文档', hasChildren: false },
          ]
        : [],
    );
    const create = jest.spyOn(api, 'createShortcut').mockResolvedValue(fileShortcut);
    renderAt('/file/personal');
    await screen.findByText('季度报告.docx');

    fireEvent.contextMenu(screen.getByText('季度报告.docx'));
    fireEvent.click(within(await screen.findByRole('menu', { name: '文件操作' })).getByText('创建快捷方式'));
    const picker = await screen.findByRole('dialog', { name: '创建快捷方式' });
    fireEvent.click(await within(picker).findByText('项目文档'));
    fireEvent.click(ok(picker));

    await waitFor(() => expect(create).toHaveBeenCalledWith({ targetId: '12', parentId: '11' }));
    expect(await screen.findByText('快捷方式已创建')).toBeInTheDocument();
    // 项目文档 is not the folder shown: the list stays as it is
    expect(mocks.getItems).toHaveBeenCalledTimes(1);

    // into the folder shown: the list reloads
    fireEvent.contextMenu(screen.getByText('项目文档', { selector: 'a' }));
    fireEvent.click(within(await screen.findByRole('menu', { name: '文件操作' })).getByText('创建快捷方式'));
    const again = await screen.findByRole('dialog', { name: '创建快捷方式' });
    fireEvent.click(await within(again).findByText('个人文件'));
    fireEvent.click(ok(again));
    await waitFor(() => expect(create).toHaveBeenLastCalledWith({ targetId: '11', parentId: '10' }));
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(2));
  });
});

describe('打开快捷方式', () => {
  afterEach(() => {
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  beforeEach(() => {
    mocks.getItems.mockImplementation(async (id: string) =>
      id === '11'
        ? page({ ...docsFolder, permissions: WRITE }, [{ ...plan, permissions: WRITE }])
        : page(root, [folder, file, folderShortcut, fileShortcut, goneShortcut, enterpriseShortcut]),
    );
  });

  it('shows the target icon with the shortcut arrow', async () => {
    renderAt('/file/personal');
    await screen.findByText('旧资料');
    const row = screen.getByText('计划.xlsx').closest('tr') as HTMLElement;
    expect(row.querySelector('[data-file-type="spreadsheet"][data-shortcut]')).not.toBeNull();
    expect(within(row).getByRole('img', { name: '快捷方式' })).toBeInTheDocument();
    const folderRow = screen.getAllByText('项目文档')[1].closest('tr') as HTMLElement;
    expect(folderRow.querySelector('[data-file-type="folder"][data-shortcut]')).not.toBeNull();
  });

  it('a folder shortcut opens the target folder', async () => {
    renderAt('/file/personal');
    await screen.findByText('旧资料');
    const link = within(screen.getAllByText('项目文档')[1].closest('tr') as HTMLElement).getByText('项目文档');
    fireEvent.click(link);
    await waitFor(() => expect(where()).toHaveTextContent('/file/personal/2/10/11'));
    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
  });

  it('a file shortcut opens the file’s folder with the file selected and scrolled into view', async () => {
    const scroll = jest.fn();
    Element.prototype.scrollIntoView = scroll;
    renderAt('/file/personal');
    await screen.findByText('旧资料');
    fireEvent.contextMenu(screen.getByText('计划.xlsx'));
    fireEvent.click(within(await screen.findByRole('menu', { name: '文件操作' })).getByText('打开'));

    await waitFor(() => expect(where()).toHaveTextContent('/file/personal/2/10/11?focus=13'));
    await waitFor(() => expect(checkbox('计划.xlsx')).toBeChecked());
    expect(screen.getByText('计划.xlsx').closest('tr')).toHaveAttribute('data-focused', 'true');
    expect(scroll).toHaveBeenCalled();
  });

  it('warns when the target is gone', async () => {
    renderAt('/file/personal');
    fireEvent.click(await screen.findByText('旧资料'));
    expect(await screen.findByText('快捷方式指向的文件或文件夹已不存在或无权访问')).toBeInTheDocument();
    expect(where()).toHaveTextContent(/^\/file\/personal$/);
  });

  it('warns when the feature policy blocks the target’s space', async () => {
    renderAt('/file/personal', { roles: { personalSpace: true, publicSpace: false } });
    fireEvent.click(await screen.findByText('制度汇编.pdf'));
    expect(await screen.findByText('当前功能策略无法访问企业文件')).toBeInTheDocument();
    expect(where()).toHaveTextContent(/^\/file\/personal$/);
  });
});

describe('跳转到文件', () => {
  it('finds a file beyond the page loaded through a visible filter by its name', async () => {
    const far = item({ id: '99', parentId: '10', name: '远处的文件.txt', extension: 'txt', idPath: '2/10/99', permissions: WRITE });
    mocks.getItems.mockResolvedValue(page(root, [folder, file], 301));
    const searchFiles = jest.spyOn(api, 'searchFiles').mockResolvedValue({ data: [far], total: 1 });
    const info = jest.spyOn(api, 'getFile').mockResolvedValue(far);
    renderAt('/file/personal/2/10?focus=99');

    const row = (await screen.findByText('远处的文件.txt', {}, { timeout: 5000 })).closest('tr') as HTMLElement;
    await waitFor(() => expect(row).toHaveAttribute('data-focused', 'true'));
    expect(within(row).getByRole('checkbox')).toBeChecked();
    expect(info).toHaveBeenCalledWith('99', expect.anything());
    expect(searchFiles).toHaveBeenLastCalledWith({ keyword: '远处的文件.txt', folderId: '10', page: 1, pageSize: 50 });
    expect(screen.getByPlaceholderText('搜索当前文件夹')).toHaveValue('远处的文件.txt');
  });
});
