import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { file, folder, mockFilesPage, ok, renderFiles, rowOf } from '../__tests__/filesPage';
import { api, ApiError } from '@app/shared';
import { docsFolder, item, page, personalRoot, READ, report } from '../__tests__/fixtures';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(30_000);

const mocks = mockFilesPage();

describe('新建文件夹', () => {
  it('sends the trimmed name to the current folder and refreshes the list', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const create = jest.spyOn(api, 'createFile').mockResolvedValue(item({ id: '30', name: '新资料', type: 'folder' }));
    renderFiles();
    await screen.findByText('季度报告.docx');
    expect(mocks.getItems).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: /新建文件夹/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('文件夹名称'), '  新资料 ');
    await user.click(ok(dialog));

    await waitFor(() => expect(create).toHaveBeenCalledWith({ parentId: '10', name: '新资料', type: 'folder' }));
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(2));
    expect(await screen.findByText('新建成功')).toBeInTheDocument();
  });

  it('shows the name rules and sends nothing while the name is invalid', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const create = jest.spyOn(api, 'createFile');
    renderFiles();
    await screen.findByText('季度报告.docx');
    await user.click(screen.getByRole('button', { name: /新建文件夹/ }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('文件夹名称');

    await user.click(ok(dialog));
    expect(await within(dialog).findByText('请输入名称')).toBeInTheDocument();

    await user.type(input, 'a/b');
    expect(await within(dialog).findByText('名称不能包含 / \\ 或控制字符')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, '..');
    expect(await within(dialog).findByText('名称不能为 . 或 ..')).toBeInTheDocument();

    await user.clear(input);
    await user.click(input);
    await user.paste('很'.repeat(151));
    expect(await within(dialog).findByText('名称不能超过 150 个字符')).toBeInTheDocument();
    expect(within(dialog).getByText(/151\s*\/\s*150/)).toBeInTheDocument();

    await user.click(ok(dialog));
    expect(create).not.toHaveBeenCalled();
  });

  it('keeps the dialog open when the server refuses, without a second message', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    jest.spyOn(api, 'createFile').mockRejectedValue(new ApiError('同名文件夹已存在', 40901));
    renderFiles();
    await screen.findByText('季度报告.docx');
    await user.click(screen.getByRole('button', { name: /新建文件夹/ }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('文件夹名称'), '项目文档');
    await user.click(ok(dialog));
    await waitFor(() => expect(api.createFile).toHaveBeenCalled());
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.queryByText('同名文件夹已存在')).not.toBeInTheDocument(); // the http client toasts it, not the page
    expect(mocks.getItems).toHaveBeenCalledTimes(1);
  });
});

describe('重命名', () => {
  it('pre-fills the name, counts to 150 and sends fileName', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const rename = jest.spyOn(api, 'renameFile').mockResolvedValue({ ...file, name: '年度报告.docx' });
    renderFiles();
    await screen.findByText('季度报告.docx');

    await user.click(within(rowOf('季度报告.docx')).getByText('重命名'));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('名称');
    expect(input).toHaveValue('季度报告.docx');
    expect(within(dialog).getByText(/9\s*\/\s*150/)).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, '年度报告.docx ');
    await user.click(ok(dialog));

    await waitFor(() => expect(rename).toHaveBeenCalledWith('12', '年度报告.docx'));
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(2));
  });

  it('sends the name as a query parameter to PUT Rename/{id}', async () => {
    const put = jest.spyOn(require('@app/shared').http, 'put').mockResolvedValue(file);
    await api.renameFile('12', '年度报告.docx');
    expect(put).toHaveBeenCalledWith('/User/Files/Rename/12', undefined, expect.objectContaining({ params: { fileName: '年度报告.docx' } }));
  });
});

describe('删除', () => {
  it('asks with the exact texts, deletes the selected ids, toasts 删除成功 and refreshes', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const del = jest.spyOn(api, 'deleteFiles').mockResolvedValue({ deleted: 2 });
    renderFiles();
    await screen.findByText('季度报告.docx');

    await user.click(screen.getByRole('checkbox', { name: '选择 项目文档' }));
    await user.click(screen.getByRole('checkbox', { name: '选择 季度报告.docx' }));
    expect(screen.getByText('已选 2 项')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /删\s*除/ }));

    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('删除', { selector: '.ant-modal-confirm-title' })).toBeInTheDocument();
    expect(within(confirm).getByText('确定删除该文件（夹）吗？')).toBeInTheDocument();
    expect(del).not.toHaveBeenCalled();
    await user.click(within(confirm).getByRole('button', { name: /删\s*除/ }));

    await waitFor(() => expect(del).toHaveBeenCalledWith(['11', '12']));
    expect(await screen.findByText('删除成功')).toBeInTheDocument();
    await waitFor(() => expect(mocks.getItems).toHaveBeenCalledTimes(2));
  });

  it('取消 deletes nothing', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const del = jest.spyOn(api, 'deleteFiles');
    renderFiles();
    await screen.findByText('季度报告.docx');
    await user.click(within(rowOf('季度报告.docx')).getByText('删除'));
    const confirm = await screen.findByRole('dialog');
    await user.click(within(confirm).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByText('确定删除该文件（夹）吗？')).not.toBeInTheDocument());
    expect(del).not.toHaveBeenCalled();
  });

  it('sends the ids as the body of DELETE /User/Files', async () => {
    const remove = jest.spyOn(require('@app/shared').http, 'delete').mockResolvedValue({ deleted: 1 });
    await api.deleteFiles(['11', '12']);
    expect(remove).toHaveBeenCalledWith('/User/Files', expect.objectContaining({ data: ['11', '12'] }));
  });
});

describe('permissions', () => {
  it('hides the actions an item does not allow and 新建文件夹 without createFolder', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    mocks.getItems.mockResolvedValue(
      page({ ...personalRoot, permissions: READ }, [
        { ...docsFolder, permissions: READ },
        { ...report, permissions: [...READ, 'rename'] },
      ]),
    );
    renderFiles();
    await screen.findByText('季度报告.docx');

    expect(screen.queryByRole('button', { name: /新建文件夹/ })).not.toBeInTheDocument();
    const folderRow = rowOf('项目文档');
    for (const label of ['重命名', '删除', '移动到', '复制到']) expect(within(folderRow).queryByText(label)).not.toBeInTheDocument();
    const fileRow = rowOf('季度报告.docx');
    expect(within(fileRow).getByText('重命名')).toBeInTheDocument();
    expect(within(fileRow).queryByText('删除')).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: '选择 季度报告.docx' }));
    expect(screen.getByRole('button', { name: /删\s*除/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /移动到/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /复制到/ })).toBeDisabled();
  });
});
