import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { api, localStore } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import App from '../App';
import { docsFolder, page, personalRoot, plan, report, WRITE } from '../__tests__/fixtures';
import { LIST_MODE_KEY } from './listMode';

useInlineStylesOnly();

jest.setTimeout(30_000);

const renderFiles = (keepState = false) =>
  renderWithProviders(
    <Routes>
      <Route path="/file/*" element={<App section="file" />} />
    </Routes>,
    { route: '/file/personal', session: true, keepState },
  );

beforeEach(() => {
  jest.spyOn(api, 'getRootFolders').mockResolvedValue([{ ...personalRoot, permissions: WRITE }]);
  jest
    .spyOn(api, 'getItems')
    .mockImplementation(async (id: string) =>
      id === '11' ? page(docsFolder, [plan]) : page(personalRoot, [{ ...docsFolder, permissions: WRITE }, { ...report, permissions: WRITE }]),
    );
  // the folder tree beside the list (its own tests are in tree/FolderTree.test.tsx)
  jest.spyOn(api, 'getFolderTree').mockResolvedValue([]);
  jest.spyOn(api, 'getTreeNodes').mockResolvedValue([]);
  // the personal space's usage under the tree (its own tests are in folder/FolderView.test.tsx)
  jest.spyOn(api, 'getPersonalUsage').mockResolvedValue({ used: 0, recycleBin: 0, uploading: 0 });
  jest.spyOn(api, 'getPersonalPolicy').mockResolvedValue({ quota: 0, unlimited: true });
});
afterEach(() => jest.restoreAllMocks());

describe('列表 / 宫格', () => {
  it('switches to the grid, keeps the choice in local storage and opens folders from a tile', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { unmount } = renderFiles();
    await screen.findByText('季度报告.docx');
    expect(screen.getByRole('table')).toBeInTheDocument();

    await user.click(screen.getByText('宫格'));
    const grid = await screen.findByRole('list', { name: '文件宫格' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(grid).getAllByRole('listitem').map((t) => t.getAttribute('aria-label'))).toEqual(['项目文档', '季度报告.docx']);
    expect(localStore.get(LIST_MODE_KEY)).toBe('grid');

    // selecting a tile offers the toolbar actions, 重命名 for a single item
    await user.click(within(grid).getByRole('checkbox', { name: '选择 季度报告.docx' }));
    expect(screen.getByText('已选 1 项')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /重命名/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /删\s*除/ })).toBeEnabled();

    unmount();
    renderFiles(true);
    expect(await screen.findByRole('list', { name: '文件宫格' })).toBeInTheDocument();
    await user.click(screen.getByText('项目文档'));
    expect(await screen.findByText('计划.xlsx')).toBeInTheDocument();
    await waitFor(() => expect(api.getItems).toHaveBeenLastCalledWith('11', { page: 1, pageSize: 100 }));
  });

  it('starts as a list', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(localStore.get(LIST_MODE_KEY)).toBeNull();
  });
});
