import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, type Tag } from '@app/shared';
import { renderWithProviders } from '@app/shared/test';
import App from '../App';
import { file, folder, mockFilesPage, renderFiles, root, rowOf } from '../__tests__/filesPage';
import { page } from '../__tests__/fixtures';

jest.setTimeout(30_000);

const mocks = mockFilesPage();

const important: Tag = { id: 't1', name: '重要', color: '#f5222d', isPublic: true, count: 4, editable: false };
const todo: Tag = { id: 't2', name: '待办', color: '#1677ff', isPublic: false, count: 1, editable: true };
const ref = ({ id, name, color }: Tag) => ({ id, name, color });

let getTags: jest.SpyInstance;
beforeEach(() => {
  getTags = jest.spyOn(api, 'getTags').mockResolvedValue([todo, important]);
});

const openMore = async (name: string) => {
  fireEvent.click(within(rowOf(name)).getByLabelText(`更多操作 ${name}`));
  return screen.findByRole('menu');
};
const chip = (scope: HTMLElement, name: string) => within(scope).getByRole('checkbox', { name });
const ok = (scope: HTMLElement) => within(scope).getByRole('button', { name: /确\s*定/ });

describe('标签 in the file list', () => {
  it('shows each row’s tags as chips in their colours', async () => {
    mocks.getItems.mockResolvedValue(page(root, [folder, { ...file, tags: [ref(important), ref(todo)] }]));
    renderFiles();
    await screen.findByText('季度报告.docx');
    const tags = within(rowOf('季度报告.docx')).getByRole('list', { name: '标签' });
    expect(within(tags).getAllByRole('listitem').map((t) => t.textContent)).toEqual(['重要', '待办']);
    expect(within(tags).getByText('重要')).toHaveStyle({ color: '#f5222d' });
    expect(within(rowOf('项目文档')).queryByRole('list', { name: '标签' })).toBeNull();
  });

  it('adds a tag to a file: its tags come checked, the new one is sent and shown on the row', async () => {
    mocks.getItems.mockResolvedValue(page(root, [folder, { ...file, tags: [ref(important)] }]));
    const add = jest.spyOn(api, 'addTagsToFiles').mockResolvedValue({ added: 1 });
    const remove = jest.spyOn(api, 'removeTagsFromFiles');
    renderFiles();
    await screen.findByText('季度报告.docx');

    fireEvent.click(within(await openMore('季度报告.docx')).getByText('标签'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('为“季度报告.docx”选择标签')).toBeInTheDocument();
    await within(dialog).findByRole('checkbox', { name: '待办' });
    expect(getTags).toHaveBeenCalledTimes(1);
    expect(within(within(dialog).getByRole('group', { name: '个人标签' })).getByRole('checkbox', { name: '待办' })).not.toBeChecked();
    expect(within(within(dialog).getByRole('group', { name: '公共标签' })).getByRole('checkbox', { name: '重要' })).toBeChecked();
    expect(within(dialog).getByRole('link', { name: '标签管理' })).toHaveAttribute('href', '/setting/tag');

    fireEvent.click(chip(dialog, '待办'));
    expect(chip(dialog, '待办')).toBeChecked();
    fireEvent.click(ok(dialog));

    await waitFor(() => expect(add).toHaveBeenCalledWith({ fileIds: ['12'], tagIds: ['t2'] }));
    expect(remove).not.toHaveBeenCalled();
    expect(await screen.findByText('标签已更新')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const tags = within(rowOf('季度报告.docx')).getByRole('list', { name: '标签' });
    expect(within(tags).getAllByRole('listitem').map((t) => t.textContent)).toEqual(['重要', '待办']);
    expect(mocks.getItems).toHaveBeenCalledTimes(1);
  });

  it('removes an unchecked tag from the file', async () => {
    mocks.getItems.mockResolvedValue(page(root, [folder, { ...file, tags: [ref(important), ref(todo)] }]));
    const add = jest.spyOn(api, 'addTagsToFiles');
    const remove = jest.spyOn(api, 'removeTagsFromFiles').mockResolvedValue({ removed: 1 });
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.click(within(await openMore('季度报告.docx')).getByText('标签'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: '重要' }));
    fireEvent.click(ok(dialog));

    await waitFor(() => expect(remove).toHaveBeenCalledWith({ fileIds: ['12'], tagIds: ['t1'] }));
    expect(add).not.toHaveBeenCalled();
    await waitFor(() => expect(within(rowOf('季度报告.docx')).queryByText('重要')).toBeNull());
    expect(within(rowOf('季度报告.docx')).getByText('待办')).toBeInTheDocument();
  });

  it('tags the selection from the toolbar: only the tags all of them carry come checked', async () => {
    mocks.getItems.mockResolvedValue(page(root, [{ ...folder, tags: [ref(important)] }, { ...file, tags: [ref(important), ref(todo)] }]));
    const add = jest.spyOn(api, 'addTagsToFiles').mockResolvedValue({ added: 1 });
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.click(screen.getByRole('checkbox', { name: '全选' }));
    fireEvent.click(screen.getByText(/^标\s*签$/, { selector: 'button > span' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('为选中的 2 项选择标签')).toBeInTheDocument();
    expect(await within(dialog).findByRole('checkbox', { name: '重要' })).toBeChecked();
    expect(chip(dialog, '待办')).not.toBeChecked();
    fireEvent.click(chip(dialog, '待办'));
    fireEvent.click(ok(dialog));

    await waitFor(() => expect(add).toHaveBeenCalledWith({ fileIds: ['11', '12'], tagIds: ['t2'] }));
    await waitFor(() => expect(within(rowOf('项目文档')).getByText('待办')).toBeInTheDocument());
    // the file had it already: shown once
    expect(within(rowOf('季度报告.docx')).getAllByText('待办')).toHaveLength(1);
  });

  it('says so when the user has no tag, and sends nothing for an unchanged choice', async () => {
    getTags.mockResolvedValue([]);
    const add = jest.spyOn(api, 'addTagsToFiles');
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.click(within(await openMore('季度报告.docx')).getByText('标签'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('还没有标签')).toBeInTheDocument();
    fireEvent.click(ok(dialog));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(add).not.toHaveBeenCalled();
  });
});

describe('标签管理 link', () => {
  function Where() {
    return <output data-testid="where">{useLocation().pathname}</output>;
  }

  it('leads to /setting/tag', async () => {
    renderWithProviders(
      <>
        <Routes>
          <Route path="/file/*" element={<App section="file" />} />
          <Route path="/setting/*" element={<span>设置</span>} />
        </Routes>
        <Where />
      </>,
      { route: '/file/personal', session: true },
    );
    await screen.findByText('季度报告.docx');
    fireEvent.click(within(await openMore('季度报告.docx')).getByText('标签'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('link', { name: '标签管理' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/setting/tag'));
  });
});
