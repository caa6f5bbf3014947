import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '@app/shared';
import { file, folder, mockFilesPage, renderFiles, root, rowOf } from '../__tests__/filesPage';
import { page } from '../__tests__/fixtures';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(30_000);

const mocks = mockFilesPage();

/** Opens the row's 更多 menu and returns it. */
const openMore = async (name: string) => {
  fireEvent.click(within(rowOf(name)).getByLabelText(`更多操作 ${name}`));
  return screen.findByRole('menu');
};
const entries = (menu: HTMLElement) => within(menu).getAllByRole('menuitem').map((m) => m.textContent);
/** A button by its text (role queries over the whole page are slow with a table on it). */
const queryToolbarButton = (text: string | RegExp) => screen.queryByText(text, { selector: 'button > span' })?.closest('button') ?? null;
const toolbarButton = (text: string | RegExp) => {
  const found = queryToolbarButton(text);
  if (!found) throw new Error(`no button ${String(text)}`);
  return found;
};
const user = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });

describe('收藏 in the file list', () => {
  it('favourites a file from its row into 默认收藏夹, toasts 收藏成功 and stars the row without reloading', async () => {
    const add = jest.spyOn(api, 'addFavorites').mockResolvedValue({ added: 1 });
    renderFiles();
    await screen.findByText('季度报告.docx');
    expect(within(rowOf('季度报告.docx')).queryByLabelText('已收藏')).toBeNull();

    const menu = await openMore('季度报告.docx');
    expect(entries(menu)).toContain('收藏');
    expect(entries(menu)).not.toContain('取消收藏');
    fireEvent.click(within(menu).getByText('收藏'));

    await waitFor(() => expect(add).toHaveBeenCalledWith({ fileIds: ['12'], categoryId: 0 }));
    expect(await screen.findByText('收藏成功')).toBeInTheDocument();
    expect(await within(rowOf('季度报告.docx')).findByLabelText('已收藏')).toBeInTheDocument();
    expect(within(rowOf('项目文档')).queryByLabelText('已收藏')).toBeNull();
    expect(mocks.getItems).toHaveBeenCalledTimes(1);

    // the row now offers 取消收藏 instead
    const again = await openMore('季度报告.docx');
    await waitFor(() => expect(entries(again)).toContain('取消收藏'));
    expect(entries(again)).not.toContain('收藏');
  });

  it('shows a favourite with a star and unfavourites it only after the confirmation', async () => {
    const u = user();
    mocks.getItems.mockResolvedValue(page(root, [folder, { ...file, isFavorite: true }]));
    const remove = jest.spyOn(api, 'removeFavorites').mockResolvedValue({ removed: 1 });
    renderFiles();
    await screen.findByText('季度报告.docx');
    expect(within(rowOf('季度报告.docx')).getByLabelText('已收藏')).toBeInTheDocument();

    fireEvent.click(within(await openMore('季度报告.docx')).getByText('取消收藏'));
    let confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('取消收藏', { selector: '.ant-modal-confirm-title' })).toBeInTheDocument();
    expect(within(confirm).getByText('确定取消收藏该文件（夹）吗？')).toBeInTheDocument();
    await u.click(within(confirm).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByText('确定取消收藏该文件（夹）吗？')).not.toBeInTheDocument());
    expect(remove).not.toHaveBeenCalled();
    expect(within(rowOf('季度报告.docx')).getByLabelText('已收藏')).toBeInTheDocument();

    fireEvent.click(within(await openMore('季度报告.docx')).getByText('取消收藏'));
    confirm = await screen.findByRole('dialog');
    await u.click(within(confirm).getByRole('button', { name: /确\s*定/ }));

    await waitFor(() => expect(remove).toHaveBeenCalledWith(['12']));
    expect(await screen.findByText('已取消收藏')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf('季度报告.docx')).queryByLabelText('已收藏')).toBeNull());
  });

  it('favourites the selection from the toolbar, sending only the items not yet favourites', async () => {
    mocks.getItems.mockResolvedValue(page(root, [folder, { ...file, isFavorite: true }]));
    const add = jest.spyOn(api, 'addFavorites').mockResolvedValue({ added: 1 });
    renderFiles();
    await screen.findByText('季度报告.docx');

    fireEvent.click(screen.getByRole('checkbox', { name: '选择 项目文档' }));
    // one item, not a favourite: 收藏 only
    expect(toolbarButton(/^收\s*藏$/)).toBeEnabled();
    expect(queryToolbarButton('取消收藏')).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: '选择 季度报告.docx' }));
    // a favourite and another item: both
    expect(toolbarButton('取消收藏')).toBeEnabled();
    fireEvent.click(toolbarButton(/^收\s*藏$/));

    await waitFor(() => expect(add).toHaveBeenCalledWith({ fileIds: ['11'], categoryId: 0 }));
    expect(await within(rowOf('项目文档')).findByLabelText('已收藏')).toBeInTheDocument();
    // every selected item is a favourite now: the toolbar offers 取消收藏 only
    await waitFor(() => expect(queryToolbarButton(/^收\s*藏$/)).toBeNull());
    expect(screen.getByText('已选 2 项')).toBeInTheDocument();
  });

  it('unfavourites from the context menu', async () => {
    mocks.getItems.mockResolvedValue(page(root, [folder, { ...file, isFavorite: true }]));
    const remove = jest.spyOn(api, 'removeFavorites').mockResolvedValue({ removed: 1 });
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.contextMenu(screen.getByText('季度报告.docx'));
    const menu = await screen.findByRole('menu', { name: '文件操作' });
    expect(entries(menu)).toContain('取消收藏');
    expect(entries(menu)).not.toContain('收藏');
    fireEvent.click(within(menu).getByText('取消收藏'));
    const confirm = await screen.findByRole('dialog');
    fireEvent.click(within(confirm).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(['12']));
  });
});
