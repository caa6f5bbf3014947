import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, ApiError } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import App from '../App';
import { file, folder, mockFilesPage, root } from '../__tests__/filesPage';
import { item, page, plan, WRITE } from '../__tests__/fixtures';

useInlineStylesOnly();

jest.setTimeout(30_000);

const mocks = mockFilesPage();

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

const renderAt = (route: string) =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/file/*" element={<App section="file" />} />
      </Routes>
      <Where />
    </>,
    { route, session: true },
  );

const where = () => screen.getByTestId('where');
const box = () => screen.getByPlaceholderText('搜索当前文件夹');
const searchFor = (text: string) => {
  fireEvent.change(box(), { target: { value: text } });
  fireEvent.keyDown(box(), { key: 'Enter', code: 'Enter', keyCode: 13 });
};

// a file two levels down and one at the top, both with 计划 in their names
const deepPlan = { ...plan, permissions: WRITE };
const topPlan = item({ id: '14', parentId: '10', name: '年度计划.pptx', extension: 'pptx', idPath: '2/10/14', namePath: '个人文件/年度计划.pptx', permissions: WRITE });

let searchFiles: jest.SpyInstance;
beforeEach(() => {
  searchFiles = jest.spyOn(api, 'searchFiles').mockResolvedValue({ data: [deepPlan, topPlan], total: 2 });
});

describe('文件页的搜索框', () => {
  it('searches the folder and its subfolders, shows where each hit lives, and clearing the box brings back the listing', async () => {
    renderAt('/file/personal');
    await screen.findByText('季度报告.docx');

    searchFor('计划');
    await waitFor(() => expect(searchFiles).toHaveBeenCalledWith({ keyword: '计划', folderId: '10', page: 1, pageSize: 50 }));
    expect(await screen.findByText('在“个人文件”及其子文件夹中搜索“计划”，共 2 项')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '位置' })).toBeInTheDocument();
    const deep = screen.getByTitle('计划.xlsx').closest('tr') as HTMLElement;
    expect(within(deep).getByText('个人文件/项目文档')).toBeInTheDocument();
    expect(Array.from(deep.querySelectorAll('mark')).map((m) => m.textContent)).toEqual(['计划']);
    expect(within(screen.getByTitle('年度计划.pptx').closest('tr') as HTMLElement).getByText('个人文件')).toBeInTheDocument();
    // the folder's own items are not listed while searching
    expect(screen.queryByText('季度报告.docx')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '高级搜索' })).toHaveAttribute('href', '/file/advancedSearch?keyword=%E8%AE%A1%E5%88%92');
    // the hits keep the list's actions
    expect(within(deep).getByLabelText('下载 计划.xlsx')).toBeInTheDocument();

    fireEvent.change(box(), { target: { value: '' } });
    expect(await screen.findByText('季度报告.docx')).toBeInTheDocument();
    expect(screen.getByText('项目文档')).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: '位置' })).not.toBeInTheDocument();
    expect(screen.queryByText(/及其子文件夹中搜索/)).not.toBeInTheDocument();
    // the listing was kept: not loaded again, never filtered
    expect(mocks.getItems).toHaveBeenCalledTimes(1);
    expect(mocks.getItems).toHaveBeenCalledWith('10', { page: 1, pageSize: 100 });
  });

  it('searches the subtree of the folder shown, not of the root', async () => {
    mocks.getItems.mockResolvedValue(page(folder, [deepPlan]));
    searchFiles.mockResolvedValue({ data: [], total: 0 });
    renderAt('/file/personal/2/10/11');
    await screen.findByText('计划.xlsx');

    searchFor('预算');
    await waitFor(() => expect(searchFiles).toHaveBeenCalledWith({ keyword: '预算', folderId: '11', page: 1, pageSize: 50 }));
    expect(await screen.findByText('没有找到与“预算”相关的文件')).toBeInTheDocument();
    expect(screen.getByText('在“项目文档”及其子文件夹中搜索“预算”，共 0 项')).toBeInTheDocument();
  });

  it('opens a hit in its own folder with the hit selected and highlighted', async () => {
    mocks.getItems.mockImplementation(async (id: string) => (id === '11' ? page(folder, [deepPlan]) : page(root, [folder, file])));
    renderAt('/file/personal');
    await screen.findByText('季度报告.docx');
    searchFor('计划');

    fireEvent.click(await screen.findByLabelText('打开所在位置 计划.xlsx'));
    await waitFor(() => expect(where()).toHaveTextContent('/file/personal/2/10/11?focus=13'));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: '选择 计划.xlsx' })).toBeChecked());
    expect(screen.getByText('计划.xlsx').closest('tr')).toHaveAttribute('data-focused', 'true');
    expect(mocks.getItems).toHaveBeenLastCalledWith('11', { page: 1, pageSize: 100 });
    expect(box()).toHaveValue('');
  });

  it('shows the error of a failed search with 重试', async () => {
    searchFiles.mockRejectedValueOnce(new ApiError('搜索服务暂不可用', 500));
    renderAt('/file/personal');
    await screen.findByText('季度报告.docx');
    searchFor('计划');

    expect(await screen.findByText('搜索服务暂不可用')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByTitle('计划.xlsx')).toBeInTheDocument();
    expect(searchFiles).toHaveBeenCalledTimes(2);
  });
});
