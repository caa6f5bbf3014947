import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, decodePreviewData, SEARCH_INFO_KEY, sessionStore, type SearchItem, type SearchResult } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { item } from '../__tests__/fixtures';
import { AdvancedSearchPage } from './AdvancedSearchPage';

// the form is heavy to draw in jsdom: some tests draw it twice or open the user picker
jest.setTimeout(60_000);
useInlineStylesOnly();

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

function renderPage(route = '/file/advancedSearch', keepState = false) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/file/advancedSearch" element={<AdvancedSearchPage title="高级搜索" />} />
        <Route path="*" element={<span />} />
      </Routes>
      <Where />
    </>,
    { route, session: true, keepState },
  );
}

const where = () => screen.getByTestId('where');
/** A result's row, found by its name (the name is split by the <mark> of the keyword). */
const rowOf = (name: string) => screen.getByTitle(name).closest('tr') as HTMLElement;
// the results come after the form is drawn again, which takes a while on a busy machine
const SLOW = { timeout: 10_000 };
const findRow = async (name: string) => (await screen.findByTitle(name, {}, SLOW)).closest('tr') as HTMLElement;
const marks = (scope: HTMLElement) => Array.from(scope.querySelectorAll('mark')).map((m) => m.textContent);
const keywordBox = () => screen.getByLabelText('关键字');
const searchButton = () => screen.getByRole('button', { name: /搜\s*索/ });

const typeKeyword = (text: string) => fireEvent.change(keywordBox(), { target: { value: text } });

const enterprisePlan = item({
  id: '13', parentId: '11', name: '年度报告.docx', extension: 'docx', size: 2048, idPath: '1/20/11/13', spaceType: 1,
  namePath: '企业文件/项目文档/年度报告.docx', ownerName: '王五', updatedAt: '2026-02-01 10:00:00',
  isFavorite: true, tags: [{ id: 't1', name: '重要', color: '#f5222d' }],
});
const reportFolder = item({
  id: '21', parentId: '20', name: '报告汇总', type: 'folder', idPath: '1/20/21', spaceType: 1, namePath: '企业文件/报告汇总',
});

const result = (data: SearchItem[], over: Partial<SearchResult> = {}): SearchResult => ({ data, total: data.length, ...over });

let searchFiles: jest.SpyInstance;
let searchContent: jest.SpyInstance;

beforeEach(() => {
  searchFiles = jest.spyOn(api, 'searchFiles').mockResolvedValue(result([enterprisePlan, reportFolder]));
  searchContent = jest.spyOn(api, 'searchContent').mockResolvedValue(result([]));
  jest.spyOn(api, 'getTags').mockResolvedValue([
    { id: 't1', name: '重要', color: '#f5222d', isPublic: false, count: 3, editable: true },
    { id: 't2', name: '合同', color: '#1677ff', isPublic: true, count: 1, editable: false },
  ]);
});
afterEach(() => jest.restoreAllMocks());

/** Types a date into one of the range picker's inputs and confirms it. */
function pickDate(placeholder: string, value: string) {
  const input = screen.getByPlaceholderText(placeholder);
  fireEvent.mouseDown(input);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

describe('高级搜索', () => {
  it('shows its heading and asks for nothing before a keyword is given', async () => {
    renderPage();
    expect(screen.getByRole('heading', { name: '高级搜索' })).toBeInTheDocument();
    expect(screen.getByText('输入关键字，按条件搜索文件和文件夹')).toBeInTheDocument();

    fireEvent.click(searchButton());
    expect(await screen.findByText('请输入搜索关键字', {}, SLOW)).toBeInTheDocument();
    typeKeyword('   ');
    fireEvent.click(searchButton());
    await act(async () => {});
    expect(searchFiles).not.toHaveBeenCalled();
    expect(searchContent).not.toHaveBeenCalled();
  });

  it('searches the names with the filters the user set, and lists the results with where they live', async () => {
    renderPage();
    typeKeyword(' 报告 ');
    fireEvent.click(screen.getByRole('radio', { name: '企业空间' }));
    const extension = screen.getByLabelText('扩展名');
    fireEvent.change(extension, { target: { value: '.DOCX' } });
    fireEvent.keyDown(extension, { key: 'Enter', code: 'Enter', keyCode: 13 });
    pickDate('开始日期', '2026-01-01');
    pickDate('结束日期', '2026-03-31');
    fireEvent.click(searchButton());

    await waitFor(() =>
      expect(searchFiles).toHaveBeenCalledWith({
        keyword: '报告',
        page: 1,
        pageSize: 50,
        spaceType: 1,
        extension: 'docx',
        updatedFrom: '2026-01-01',
        updatedTo: '2026-03-31',
        sortField: 'updatedAt',
        sortOrder: 'desc',
      }),
    );
    expect(searchFiles).toHaveBeenCalledTimes(1);
    expect(searchContent).not.toHaveBeenCalled();

    const fileRow = await findRow('年度报告.docx');
    expect(marks(fileRow)).toEqual(['报告']);
    expect(within(fileRow).getByText('企业文件/项目文档')).toBeInTheDocument(); // 位置: the folder it lives in
    expect(within(fileRow).getByText('2 KB')).toBeInTheDocument();
    expect(within(fileRow).getByText('2026-02-01 10:00')).toBeInTheDocument();
    expect(within(fileRow).getByText('王五')).toBeInTheDocument();
    expect(within(fileRow).getByLabelText('已收藏')).toBeInTheDocument();
    expect(within(fileRow).getByText('重要')).toBeInTheDocument();
    const folderRow = rowOf('报告汇总');
    expect(within(folderRow).getByText('—')).toBeInTheDocument(); // a folder has no size
    expect(marks(folderRow)).toEqual(['报告']);
    expect(screen.getByText('共 2 项')).toBeInTheDocument();
  });

  it('sends the size in bytes, the owner, the tags, the kind and the order', async () => {
    jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
    jest.spyOn(api, 'getOrgUsers').mockResolvedValue({
      data: [{ userId: '7', userName: 'lisi', nickName: '李四', deptId: null, deptName: '' }],
      total: 1,
    });
    renderPage();
    typeKeyword('计划');
    fireEvent.click(screen.getByRole('radio', { name: '文件' }));
    fireEvent.change(screen.getByLabelText('最小大小'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('最大大小'), { target: { value: '2' } });

    fireEvent.click(screen.getByRole('button', { name: /选\s*择/ }));
    const picker = await screen.findByRole('dialog', { name: '选择所有者' });
    fireEvent.click(await within(picker).findByRole('checkbox', { name: /李四/ }));
    fireEvent.click(within(picker).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(screen.getByLabelText('所有者')).toHaveValue('李四'));

    fireEvent.mouseDown(screen.getByLabelText('标签'));
    fireEvent.click(await screen.findByTitle('合同'));

    fireEvent.mouseDown(screen.getByLabelText('排序方式'));
    fireEvent.click(await screen.findByTitle('名称'));
    fireEvent.mouseDown(screen.getByLabelText('排序方向'));
    fireEvent.click(await screen.findByTitle('升序'));

    fireEvent.click(searchButton());
    await waitFor(() =>
      expect(searchFiles).toHaveBeenCalledWith({
        keyword: '计划',
        page: 1,
        pageSize: 50,
        type: 'file',
        sizeMin: 1024 * 1024,
        sizeMax: 2 * 1024 * 1024,
        ownerId: '7',
        tagIds: 't2',
        sortField: 'name',
        sortOrder: 'asc',
      }),
    );
  });

  it('searches the documents’ text in 全文 mode and marks the keyword in the snippet', async () => {
    searchContent.mockResolvedValue(
      result([{ ...enterprisePlan, name: '年终总结.docx', highlight: '……本季度的财务报告显示收入增长……' }]),
    );
    renderPage();
    typeKeyword('报告');
    fireEvent.click(searchButton());
    await findRow('年度报告.docx');
    expect(searchFiles).toHaveBeenCalledTimes(1);

    // switching the mode searches again at once
    fireEvent.click(screen.getByRole('radio', { name: '全文' }));
    await waitFor(() =>
      expect(searchContent).toHaveBeenCalledWith({ keyword: '报告', page: 1, pageSize: 50, sortField: 'updatedAt', sortOrder: 'desc' }),
    );
    const row = await findRow('年终总结.docx');
    const snippet = row.querySelector('[data-snippet]') as HTMLElement;
    expect(snippet).toHaveTextContent('……本季度的财务报告显示收入增长……');
    expect(marks(snippet)).toEqual(['报告']);
    expect(marks(row)).toEqual(['报告']); // the name has no hit: only the snippet is marked
    expect(screen.queryByTitle('年度报告.docx')).not.toBeInTheDocument();
  });

  it('marks the keyword case-insensitively and never renders the text as HTML', async () => {
    const name = 'Report <img src=x onerror=alert(1)> REPORT.pdf';
    searchFiles.mockResolvedValue(result([item({ id: '5', name, extension: 'pdf', namePath: `个人文件/${name}` })]));
    renderPage();
    typeKeyword('report');
    fireEvent.click(searchButton());
    const row = await findRow(name);
    expect(marks(row)).toEqual(['Report', 'REPORT']);
    expect(row.querySelector('img')).toBeNull();
    expect(within(row).getByText('个人文件')).toBeInTheDocument();
  });

  it('says so when nothing matched', async () => {
    searchFiles.mockResolvedValue(result([]));
    renderPage();
    typeKeyword('不存在的文件');
    fireEvent.click(searchButton());
    expect(await screen.findByText('没有找到与“不存在的文件”相关的文件', {}, SLOW)).toBeInTheDocument();
  });

  it('tells the user to narrow the search when more than 10000 matched', async () => {
    searchFiles.mockResolvedValue(result([enterprisePlan], { total: 10000, limited: true }));
    renderPage();
    typeKeyword('报告');
    fireEvent.click(searchButton());
    expect(await screen.findByText('结果超过 10000 条，仅显示前 10000 条，请缩小搜索范围', {}, SLOW)).toBeInTheDocument();
    expect(screen.getByText('共 10000 项')).toBeInTheDocument();
  });

  it('asks the server for the next page', async () => {
    searchFiles.mockResolvedValue(result([enterprisePlan], { total: 120 }));
    renderPage();
    typeKeyword('报告');
    fireEvent.click(searchButton());
    await findRow('年度报告.docx');

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(searchFiles).toHaveBeenLastCalledWith(expect.objectContaining({ keyword: '报告', page: 2, pageSize: 50 })));
  });

  it('keeps the form, the mode and the page in session storage: coming back shows and runs the same search', async () => {
    searchContent.mockResolvedValue(result([enterprisePlan], { total: 120 }));
    const first = renderPage();
    typeKeyword('报告');
    fireEvent.click(screen.getByRole('radio', { name: '企业空间' }));
    fireEvent.click(screen.getByRole('radio', { name: '全文' }));
    fireEvent.click(searchButton());
    await findRow('年度报告.docx');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(searchContent).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2 })));
    expect(sessionStore.get(SEARCH_INFO_KEY)).toMatchObject({ applied: { keyword: '报告', mode: 'content', spaceType: 1 }, page: 2 });
    first.unmount();

    searchContent.mockClear();
    renderPage('/file/advancedSearch', true);
    expect(keywordBox()).toHaveValue('报告');
    expect(screen.getByRole('radio', { name: '全文' })).toBeChecked();
    expect(screen.getByRole('radio', { name: '企业空间' })).toBeChecked();
    await waitFor(() =>
      expect(searchContent).toHaveBeenCalledWith({ keyword: '报告', page: 2, pageSize: 50, spaceType: 1, sortField: 'updatedAt', sortOrder: 'desc' }),
    );
    expect(await findRow('年度报告.docx')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: '2' })).toHaveClass('ant-pagination-item-active');
  });

  it('searches the keyword of the URL rather than the stored one, then drops it from the URL', async () => {
    const first = renderPage();
    typeKeyword('旧关键字');
    fireEvent.click(screen.getByRole('radio', { name: '企业空间' }));
    fireEvent.click(searchButton());
    await waitFor(() => expect(searchFiles).toHaveBeenCalledWith(expect.objectContaining({ keyword: '旧关键字' })));
    first.unmount();
    searchFiles.mockClear();

    renderPage('/file/advancedSearch?keyword=%E5%90%88%E5%90%8C&mode=content', true);
    await waitFor(() => expect(searchContent).toHaveBeenCalledWith(expect.objectContaining({ keyword: '合同', page: 1, spaceType: 1 })));
    expect(searchFiles).not.toHaveBeenCalled();
    expect(keywordBox()).toHaveValue('合同');
    expect(screen.getByRole('radio', { name: '全文' })).toBeChecked();
    await waitFor(() => expect(where()).toHaveTextContent(/^\/file\/advancedSearch$/));
    expect(sessionStore.get(SEARCH_INFO_KEY)).toMatchObject({ applied: { keyword: '合同', mode: 'content' } });
  });

  it('a file result opens its preview in a new tab; 打开所在位置 opens its folder with the file focused', async () => {
    const windowOpen = jest.fn(() => ({}) as Window);
    window.open = windowOpen as unknown as typeof window.open;
    const ask = jest.spyOn(api, 'getFileActions').mockResolvedValue({ previewable: true, editable: false, actions: [] });
    renderPage();
    typeKeyword('报告');
    fireEvent.click(searchButton());

    fireEvent.click(within(await findRow('年度报告.docx')).getByTitle('年度报告.docx'));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledTimes(1));
    expect(ask).toHaveBeenCalledWith('docx', expect.anything());
    const [url] = windowOpen.mock.calls[0] as unknown as [string];
    // the folder among the results is no neighbour of the file
    expect(decodePreviewData(url.replace('/preview/', ''))).toEqual({ fileId: '13', name: '年度报告.docx' });
    expect(where()).toHaveTextContent(/^\/file\/advancedSearch$/);

    fireEvent.click(within(rowOf('年度报告.docx')).getByLabelText('打开所在位置 年度报告.docx'));
    expect(where()).toHaveTextContent('/file/public/1/20/11?focus=13');
  });

  it('opens a folder result as the folder shown, and 打开所在位置 selects it in its parent', async () => {
    const view = renderPage();
    typeKeyword('报告');
    fireEvent.click(searchButton());
    fireEvent.click(within(await findRow('报告汇总')).getByTitle('报告汇总'));
    expect(where()).toHaveTextContent(/^\/file\/public\/1\/20\/21$/);
    view.unmount();

    renderPage('/file/advancedSearch', true);
    fireEvent.click(within(await findRow('报告汇总')).getByLabelText('打开所在位置 报告汇总'));
    expect(where()).toHaveTextContent('/file/public/1/20?focus=21');
  });

  it('重置 empties the form and the results', async () => {
    renderPage();
    typeKeyword('报告');
    fireEvent.click(screen.getByRole('radio', { name: '文件夹' }));
    fireEvent.click(searchButton());
    await findRow('年度报告.docx');

    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    expect(keywordBox()).toHaveValue('');
    expect(screen.getAllByRole('radio', { name: '全部' }).map((r) => (r as HTMLInputElement).checked)).toEqual([true, true]);
    expect(screen.getByRole('radio', { name: '文件夹' })).not.toBeChecked();
    expect(screen.queryByTitle('年度报告.docx')).not.toBeInTheDocument();
    expect(screen.getByText('输入关键字，按条件搜索文件和文件夹')).toBeInTheDocument();
    expect(sessionStore.get(SEARCH_INFO_KEY)).toMatchObject({ applied: null, filters: { keyword: '', type: 'all' } });
  });
});
