import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, localStore, sessionStore, type TreeNode } from '@app/shared';
import { renderWithProviders } from '@app/shared/test';
import App from '../App';
import { docsFolder, item, page, personalRoot, report, WRITE } from '../__tests__/fixtures';
import { TREE_WIDTH_KEY, treeSessionKey } from './treeStore';

jest.setTimeout(30_000);

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

const renderFiles = (route = '/file/personal', keepState = false) =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/file/*" element={<App section="file" />} />
      </Routes>
      <Where />
    </>,
    { route, session: true, keepState },
  );

const node = (id: string, parentId: string | null, name: string, idPath: string, hasChildren: boolean): TreeNode => ({
  id,
  parentId,
  name,
  idPath,
  namePath: name,
  hasChildren,
});

const rootNode = node('10', null, '个人文件', '2/10', true);
const docsNode = node('11', '10', '项目文档', '2/10/11', true);
const designNode = node('15', '10', '设计稿', '2/10/15', false);
const archiveNode = node('16', '11', '归档', '2/10/11/16', false);
const archive = item({ id: '16', parentId: '11', name: '归档', type: 'folder', idPath: '2/10/11/16', namePath: '个人文件/项目文档/归档' });

const pane = () => screen.getByRole('complementary', { name: '文件夹目录' });
const treeNodeOf = (name: string) => within(pane()).getByText(name).closest('.ant-tree-treenode') as HTMLElement;
const switcherOf = (name: string) => treeNodeOf(name).querySelector('.ant-tree-switcher') as HTMLElement;

let folderTree: jest.SpyInstance;
let treeNodes: jest.SpyInstance;
let getItems: jest.SpyInstance;

beforeEach(() => {
  const root = { ...personalRoot, permissions: WRITE };
  jest.spyOn(api, 'getRootFolders').mockResolvedValue([root]);
  getItems = jest.spyOn(api, 'getItems').mockImplementation(async (id: string) => {
    if (id === '11') return page({ ...docsFolder, permissions: WRITE }, []);
    if (id === '16') return page({ ...archive, permissions: WRITE }, []);
    return page(root, [{ ...docsFolder, permissions: WRITE }, { ...report, permissions: WRITE }]);
  });
  folderTree = jest.spyOn(api, 'getFolderTree').mockResolvedValue([rootNode, docsNode, designNode]);
  treeNodes = jest.spyOn(api, 'getTreeNodes').mockImplementation(async (id: string) => (id === '11' ? [archiveNode] : []));
});

afterEach(() => jest.restoreAllMocks());

describe('文件夹树', () => {
  it('loads the first levels from FolderTree and deeper folders only on expand', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderFiles();
    expect(await within(pane()).findByText('项目文档')).toBeInTheDocument();
    expect(within(pane()).getByText('设计稿')).toBeInTheDocument();
    expect(folderTree).toHaveBeenCalledWith('Personal');
    await screen.findByText('季度报告.docx');
    expect(treeNodes).not.toHaveBeenCalled();
    expect(within(pane()).queryByText('归档')).not.toBeInTheDocument();

    await user.click(switcherOf('项目文档'));
    expect(await within(pane()).findByText('归档')).toBeInTheDocument();
    expect(treeNodes).toHaveBeenCalledTimes(1);
    expect(treeNodes).toHaveBeenCalledWith('11');
  });

  it('opens the folder clicked in the tree, and the root at the space path', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    renderFiles();
    await user.click(await within(pane()).findByText('项目文档'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/file/personal/2/10/11'));
    await waitFor(() => expect(getItems).toHaveBeenLastCalledWith('11', { page: 1, pageSize: 100 }));
    expect(treeNodeOf('项目文档')).toHaveAttribute('aria-selected', 'true');

    await user.click(within(pane()).getByText('个人文件'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/file\/personal$/));
    expect(treeNodeOf('个人文件')).toHaveAttribute('aria-selected', 'true');
  });

  it('highlights the current folder and expands its ancestors (deep link and list)', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { unmount } = renderFiles('/file/personal/2/10/11/16');
    expect(await within(pane()).findByText('归档')).toBeInTheDocument();
    expect(treeNodes).toHaveBeenCalledWith('11');
    expect(treeNodeOf('归档')).toHaveAttribute('aria-selected', 'true');
    expect(treeNodeOf('项目文档')).toHaveAttribute('aria-expanded', 'true');
    expect(treeNodeOf('个人文件')).toHaveAttribute('aria-expanded', 'true');
    expect(treeNodeOf('项目文档')).toHaveAttribute('aria-selected', 'false');
    unmount();

    // opening a folder from the list selects it in the tree
    renderFiles();
    await screen.findByText('季度报告.docx');
    const row = screen.getAllByText('项目文档').find((el) => el.closest('tr')) as HTMLElement;
    await user.click(row);
    await waitFor(() => expect(treeNodeOf('项目文档')).toHaveAttribute('aria-selected', 'true'));
    expect(treeNodeOf('个人文件')).toHaveAttribute('aria-selected', 'false');
  });

  it('resizes the pane by dragging the splitter between 180 and 480 px and keeps the width', async () => {
    const { unmount } = renderFiles();
    await within(pane()).findByText('项目文档');
    await screen.findByText('季度报告.docx');
    expect(pane()).toHaveStyle({ width: '240px' });
    const splitter = screen.getByRole('separator', { name: '调整目录宽度' });

    fireEvent.mouseDown(splitter, { clientX: 300 });
    fireEvent.mouseMove(window, { clientX: 400 });
    fireEvent.mouseUp(window);
    expect(pane()).toHaveStyle({ width: '340px' });
    expect(localStore.get(TREE_WIDTH_KEY)).toBe(340);

    fireEvent.mouseDown(splitter, { clientX: 400 });
    fireEvent.mouseMove(window, { clientX: 900 });
    fireEvent.mouseUp(window);
    expect(pane()).toHaveStyle({ width: '480px' });
    fireEvent.mouseDown(splitter, { clientX: 900 });
    fireEvent.mouseMove(window, { clientX: 0 });
    fireEvent.mouseUp(window);
    expect(pane()).toHaveStyle({ width: '180px' });
    expect(localStore.get(TREE_WIDTH_KEY)).toBe(180);
    expect(splitter).toHaveAttribute('aria-valuenow', '180');

    unmount();
    renderFiles('/file/personal', true);
    expect(pane()).toHaveStyle({ width: '180px' });
    await screen.findByText('季度报告.docx');
  });

  it('keeps the expanded folders and the current folder in session storage and restores them', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { unmount } = renderFiles();
    await within(pane()).findByText('项目文档');
    await user.click(switcherOf('项目文档'));
    await within(pane()).findByText('归档');
    expect(sessionStore.get(treeSessionKey('Personal'))).toEqual({ expandedKeys: ['10', '11'], current: '10' });
    unmount();

    treeNodes.mockClear();
    renderFiles('/file/personal', true);
    expect(await within(pane()).findByText('归档')).toBeInTheDocument();
    expect(treeNodes).toHaveBeenCalledWith('11');
    expect(treeNodeOf('项目文档')).toHaveAttribute('aria-expanded', 'true');
    expect(treeNodeOf('个人文件')).toHaveAttribute('aria-selected', 'true');
  });

  it('shows a new folder after 新建文件夹 by reloading only the current folder', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    jest.spyOn(api, 'createFile').mockResolvedValue(item({ id: '30', name: '新资料', type: 'folder' }));
    renderFiles();
    await within(pane()).findByText('项目文档');
    await screen.findByText('季度报告.docx');
    treeNodes.mockImplementation(async (id: string) =>
      id === '10' ? [docsNode, designNode, node('30', '10', '新资料', '2/10/30', false)] : [],
    );

    await user.click(screen.getByRole('button', { name: /新建文件夹/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('文件夹名称'), '新资料');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));

    expect(await within(pane()).findByText('新资料')).toBeInTheDocument();
    expect(treeNodes).toHaveBeenCalledTimes(1);
    expect(treeNodes).toHaveBeenCalledWith('10');
    expect(folderTree).toHaveBeenCalledTimes(1);
  });
});
