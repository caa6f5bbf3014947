import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, decodePreviewData, type FavoriteCategory, type FavoriteItem, type Item } from '@app/shared';
import { renderWithProviders, settled, useInlineStylesOnly } from '@app/shared/test';
import { FavoritePage } from './FavoritePage';
import { docsFolder, report } from '../__tests__/fixtures';

useInlineStylesOnly();

jest.setTimeout(30_000);

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

const renderFavorites = (route = '/file/favorite') =>
  renderWithProviders(
    <>
      <Routes>
        <Route path="/file/favorite" element={<FavoritePage title="我的收藏" />} />
        <Route path="*" element={<span>别处</span>} />
      </Routes>
      <Where />
    </>,
    { route, session: true },
  );

const fav = (base: Item, over: Partial<FavoriteItem> = {}): FavoriteItem => ({
  ...base,
  isFavorite: true,
  favoriteCategoryId: 0,
  favoritedAt: '2026-03-05 08:15:00',
  ...over,
});

const categories: FavoriteCategory[] = [
  { id: 0, name: '默认收藏夹', count: 2 },
  { id: 5, name: '工作资料', count: 1 },
];
const favReport = fav(report, { tags: [{ id: 't1', name: '重要', color: '#f5222d' }] });
const favFolder = fav(docsFolder, { favoriteCategoryId: 5, favoritedAt: '2026-03-04 10:00:00' });

let getCategories: jest.SpyInstance;
let getFavorites: jest.SpyInstance;

beforeEach(() => {
  getCategories = jest.spyOn(api, 'getFavoriteCategories').mockResolvedValue(categories);
  getFavorites = jest.spyOn(api, 'getFavorites').mockImplementation(async (categoryId: number) => {
    const all = [favReport, favFolder];
    const data = categoryId === -1 ? all : all.filter((f) => f.favoriteCategoryId === categoryId);
    return { data, total: data.length };
  });
});
afterEach(() => jest.restoreAllMocks());

const pane = () => screen.getByRole('navigation', { name: '收藏分类' });
const rowOf = (name: string) => screen.getByText(name, { selector: 'td *' }).closest('tr') as HTMLElement;
const user = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });

describe('我的收藏', () => {
  it('lists 全部收藏 and each category with its count, and every favourite with its location and time', async () => {
    renderFavorites();
    expect(await screen.findByRole('heading', { name: '我的收藏' })).toBeInTheDocument();
    await screen.findByText('季度报告.docx');
    expect(getFavorites).toHaveBeenCalledWith(-1, { page: 1, pageSize: 50 });

    expect(await within(pane()).findByRole('button', { name: '全部收藏 3' })).toHaveAttribute('aria-current', 'true');
    expect(within(pane()).getByRole('button', { name: '默认收藏夹 2' })).toBeInTheDocument();
    expect(within(pane()).getByRole('button', { name: '工作资料 1' })).toBeInTheDocument();
    // 默认收藏夹 cannot be renamed or deleted
    expect(within(pane()).queryByRole('button', { name: '更多操作 默认收藏夹' })).toBeNull();
    expect(within(pane()).getByRole('button', { name: '更多操作 工作资料' })).toBeInTheDocument();

    const row = rowOf('季度报告.docx');
    expect(within(row).getByText('个人文件')).toBeInTheDocument(); // the folder it sits in
    expect(within(row).getByText('2026-03-05 08:15')).toBeInTheDocument();
    expect(within(row).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(row).getByText('默认收藏夹')).toBeInTheDocument(); // 全部收藏 names the category
    expect(within(row).getByLabelText('已收藏')).toBeInTheDocument();
    expect(within(row).getByText('重要')).toBeInTheDocument();
    expect(within(rowOf('项目文档')).getByText('工作资料')).toBeInTheDocument();
    expect(screen.getByText('共 2 项')).toBeInTheDocument();
  });

  it('shows the chosen category and keeps it in the URL', async () => {
    renderFavorites();
    await screen.findByText('季度报告.docx');
    fireEvent.click(await within(pane()).findByRole('button', { name: '工作资料 1' }));

    await waitFor(() => expect(getFavorites).toHaveBeenLastCalledWith(5, { page: 1, pageSize: 50 }));
    await waitFor(() => expect(screen.queryByText('季度报告.docx')).not.toBeInTheDocument());
    expect(screen.getByText('项目文档')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/file/favorite?categoryId=5');
    expect(within(pane()).getByRole('button', { name: '工作资料 1' })).toHaveAttribute('aria-current', 'true');
  });

  it('opens the category named in the URL', async () => {
    renderFavorites('/file/favorite?categoryId=0');
    expect(await screen.findByText('季度报告.docx')).toBeInTheDocument();
    expect(getFavorites).toHaveBeenCalledWith(0, { page: 1, pageSize: 50 });
    expect(getFavorites).not.toHaveBeenCalledWith(-1, expect.anything());
    expect(screen.queryByText('项目文档')).not.toBeInTheDocument();
  });

  it('says so when there is no favourite', async () => {
    getFavorites.mockResolvedValue({ data: [], total: 0 });
    renderFavorites();
    expect(await screen.findByText('暂无收藏')).toBeInTheDocument();
    expect(screen.getByText('在文件列表中点击“收藏”，收藏的文件（夹）会显示在这里')).toBeInTheDocument();
  });

  it('creates a category after checking its name, and shows it', async () => {
    const u = user();
    const save = jest.spyOn(api, 'saveFavoriteCategory').mockResolvedValue({ id: 7, name: '合同', count: 0 });
    renderFavorites();
    await screen.findByText('季度报告.docx');

    await u.click(screen.getByRole('button', { name: /新建分类/ }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('分类名称');
    await u.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入分类名称')).toBeInTheDocument();
    await u.type(input, '工作资料');
    expect(await within(dialog).findByText('已存在同名分类')).toBeInTheDocument();
    await u.clear(input);
    await u.type(input, '很'.repeat(21));
    expect(await within(dialog).findByText('分类名称不能超过 20 个字符')).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(save).not.toHaveBeenCalled();

    await u.clear(input);
    await u.type(input, ' 合同 ');
    await u.click(within(dialog).getByRole('button', { name: /确\s*定/ }));

    await waitFor(() => expect(save).toHaveBeenCalledWith({ name: '合同' }));
    expect(await screen.findByText('新建成功')).toBeInTheDocument();
    // the new category is listed and shown
    await within(pane()).findByRole('button', { name: '合同 0' });
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/file/favorite?categoryId=7'));
    expect(within(pane()).getByRole('button', { name: '合同 0' })).toHaveAttribute('aria-current', 'true');
    await waitFor(() => expect(getFavorites).toHaveBeenLastCalledWith(7, { page: 1, pageSize: 50 }));
  });

  it('renames a category', async () => {
    const u = user();
    const save = jest.spyOn(api, 'saveFavoriteCategory').mockResolvedValue({ id: 5, name: '项目资料', count: 1 });
    renderFavorites();
    await screen.findByText('季度报告.docx');
    await u.click(await within(pane()).findByRole('button', { name: '更多操作 工作资料' }));
    await u.click(await screen.findByRole('menuitem', { name: '重命名' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('分类名称');
    expect(input).toHaveValue('工作资料');
    await u.clear(input);
    await u.type(input, '项目资料');
    await u.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ id: 5, name: '项目资料' }));
    expect(await within(pane()).findByRole('button', { name: '项目资料 1' })).toBeInTheDocument();
  });

  it('deletes a category only after the confirmation and reloads the counts', async () => {
    const u = user();
    const del = jest.spyOn(api, 'deleteFavoriteCategory').mockResolvedValue({ moved: 1 });
    renderFavorites('/file/favorite?categoryId=5');
    await screen.findByText('项目文档');
    await u.click(await within(pane()).findByRole('button', { name: '更多操作 工作资料' }));
    await u.click(await screen.findByRole('menuitem', { name: '删除' }));

    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('删除分类', { selector: '.ant-modal-confirm-title' })).toBeInTheDocument();
    expect(within(confirm).getByText('删除分类后，其中的收藏将移到默认收藏夹。')).toBeInTheDocument();
    expect(del).not.toHaveBeenCalled();
    getCategories.mockResolvedValue([{ id: 0, name: '默认收藏夹', count: 3 }]);
    await u.click(within(confirm).getByRole('button', { name: /删\s*除/ }));

    await waitFor(() => expect(del).toHaveBeenCalledWith(5));
    expect(await screen.findByText('删除成功')).toBeInTheDocument();
    expect(await within(pane()).findByRole('button', { name: '默认收藏夹 3' })).toBeInTheDocument();
    expect(within(pane()).queryByText('工作资料')).toBeNull();
    // the deleted category was shown: back to 全部收藏
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/file\/favorite$/));
    expect(getFavorites).toHaveBeenLastCalledWith(-1, { page: 1, pageSize: 50 });
  });

  it('moves a favourite to the category chosen', async () => {
    const u = user();
    const move = jest.spyOn(api, 'moveFavorites').mockResolvedValue({ moved: 1 });
    renderFavorites();
    await screen.findByText('季度报告.docx');
    await waitFor(() => expect(getCategories).toHaveBeenCalled());
    await within(pane()).findByRole('button', { name: '工作资料 1' });

    await u.click(within(rowOf('季度报告.docx')).getByLabelText('移动到 季度报告.docx'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('radio', { name: '默认收藏夹（当前分类）' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: /确\s*定/ })).toBeDisabled();
    await u.click(within(dialog).getByRole('radio', { name: '工作资料' }));
    await u.click(within(dialog).getByRole('button', { name: /确\s*定/ }));

    await waitFor(() => expect(move).toHaveBeenCalledWith({ fileIds: ['12'], categoryId: 5 }));
    expect(await screen.findByText('移动成功')).toBeInTheDocument();
    await waitFor(() => expect(getFavorites).toHaveBeenCalledTimes(2));
    expect(getCategories).toHaveBeenCalledTimes(2);
  });

  it('moves the selection from the toolbar', async () => {
    const u = user();
    const move = jest.spyOn(api, 'moveFavorites').mockResolvedValue({ moved: 2 });
    renderFavorites();
    await screen.findByText('季度报告.docx');
    await within(pane()).findByRole('button', { name: '工作资料 1' });

    await u.click(screen.getByRole('checkbox', { name: '全选' }));
    expect(screen.getByText('已选 2 项')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: /移动到/ }));
    const dialog = await screen.findByRole('dialog');
    // from two categories: none is the current one
    expect(within(dialog).getByRole('radio', { name: '工作资料' })).toBeEnabled();
    await u.click(within(dialog).getByRole('radio', { name: '默认收藏夹' }));
    await u.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(move).toHaveBeenCalledWith({ fileIds: ['12', '11'], categoryId: 0 }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(getFavorites).toHaveBeenCalledTimes(2));
    await settled();
    expect(screen.queryByText('已选 2 项')).toBeNull();
  });

  it('unfavourites the selection from the toolbar after the confirmation', async () => {
    const u = user();
    const remove = jest.spyOn(api, 'removeFavorites').mockResolvedValue({ removed: 2 });
    renderFavorites();
    await screen.findByText('季度报告.docx');
    await u.click(screen.getByRole('checkbox', { name: '全选' }));
    await u.click(screen.getByRole('button', { name: /取消收藏/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('取消收藏', { selector: '.ant-modal-confirm-title' })).toBeInTheDocument();
    expect(within(dialog).getByText('确定取消收藏该文件（夹）吗？')).toBeInTheDocument();
    expect(remove).not.toHaveBeenCalled();
    await u.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(['12', '11']));
    expect(await screen.findByText('已取消收藏')).toBeInTheDocument();
    await waitFor(() => expect(getFavorites).toHaveBeenCalledTimes(2));
    expect(getCategories).toHaveBeenCalledTimes(2);
  });

  it('取消 of the confirmation keeps the favourite', async () => {
    const u = user();
    const remove = jest.spyOn(api, 'removeFavorites');
    renderFavorites();
    await screen.findByText('季度报告.docx');
    await u.click(within(rowOf('季度报告.docx')).getByLabelText('取消收藏 季度报告.docx'));
    const dialog = await screen.findByRole('dialog');
    await u.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByText('确定取消收藏该文件（夹）吗？')).not.toBeInTheDocument());
    expect(remove).not.toHaveBeenCalled();
  });

  it('打开所在位置 opens a file’s folder with the file selected', async () => {
    const u = user();
    renderFavorites();
    await screen.findByText('季度报告.docx');
    await u.click(within(rowOf('季度报告.docx')).getByLabelText('打开所在位置 季度报告.docx'));
    expect(screen.getByTestId('where')).toHaveTextContent('/file/personal/2/10?focus=12');
  });

  it('a file’s name opens its preview in a new tab; a folder’s name opens the folder', async () => {
    const windowOpen = jest.fn(() => ({}) as Window);
    window.open = windowOpen as unknown as typeof window.open;
    jest.spyOn(api, 'getFileActions').mockResolvedValue({ previewable: true, editable: true, actions: [] });
    const u = user();
    renderFavorites();
    await u.click(await screen.findByText('季度报告.docx', { selector: 'a' }));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledTimes(1));
    const [url] = windowOpen.mock.calls[0] as unknown as [string];
    expect(decodePreviewData(url.replace(/^\/preview\//, ''))).toEqual({ fileId: '12', name: '季度报告.docx' });
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/file\/favorite$/);

    await u.click(screen.getByText('项目文档', { selector: 'a' }));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/file\/personal\/2\/10\/11$/);
    expect(windowOpen).toHaveBeenCalledTimes(1);
  });

  it('打开所在位置 of a folder opens that folder', async () => {
    const u = user();
    renderFavorites();
    await screen.findByText('项目文档');
    await u.click(within(rowOf('项目文档')).getByLabelText('打开所在位置 项目文档'));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/file\/personal\/2\/10\/11$/);
  });
});
