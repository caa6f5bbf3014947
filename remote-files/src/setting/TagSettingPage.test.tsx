import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { api, type Tag } from '@app/shared';
import { renderWithProviders } from '@app/shared/test';
import { TagSettingPage } from './TagSettingPage';

jest.setTimeout(30_000);

const todo: Tag = { id: 't2', name: '待办', color: '#1677ff', isPublic: false, count: 3, editable: true };
const important: Tag = { id: 't1', name: '重要', color: '#f5222d', isPublic: true, count: 12, editable: false };

let getTags: jest.SpyInstance;
beforeEach(() => {
  getTags = jest.spyOn(api, 'getTags').mockResolvedValue([important, todo]);
});
afterEach(() => jest.restoreAllMocks());

const renderSettings = (isTagAdmin = false) =>
  renderWithProviders(
    <Routes>
      <Route path="/setting/tag" element={<TagSettingPage />} />
    </Routes>,
    { route: '/setting/tag', session: { userInfo: { isTagAdmin } } },
  );

const rowOf = (name: string) => screen.getByText(name, { selector: 'td *' }).closest('tr') as HTMLElement;
const ok = (scope: HTMLElement) => within(scope).getByRole('button', { name: /确\s*定/ });
const user = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });
const openCreate = async () => {
  fireEvent.click(screen.getByText('新建标签', { selector: 'button *' }));
  return screen.findByRole('dialog');
};

describe('标签管理', () => {
  it('lists the tags with their kind and use count; others’ public tags cannot be changed', async () => {
    renderSettings();
    expect(await screen.findByRole('heading', { name: '标签管理' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '关于' })).toBeInTheDocument();
    await screen.findByText('待办');
    const [first, second] = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    // personal tags first
    expect(within(first).getByText('待办')).toHaveStyle({ color: '#1677ff' });
    expect(within(first).getByText('个人')).toBeInTheDocument();
    expect(within(first).getByText('3')).toBeInTheDocument();
    expect(within(first).getByLabelText('编辑 待办')).toBeInTheDocument();
    expect(within(first).getByLabelText('删除 待办')).toBeInTheDocument();
    expect(within(second).getByText('重要')).toBeInTheDocument();
    expect(within(second).getByText('公共')).toBeInTheDocument();
    expect(within(second).getByText('12')).toBeInTheDocument();
    expect(within(second).queryByLabelText('编辑 重要')).toBeNull();
    expect(within(second).queryByLabelText('删除 重要')).toBeNull();
  });

  it('creates a personal tag in the colour chosen, after checking the name', async () => {
    const u = user();
    const create = jest.spyOn(api, 'createTag').mockResolvedValue({ id: 't3', name: '周报', color: '#52c41a', isPublic: false, count: 0, editable: true });
    renderSettings();
    await screen.findByText('待办');
    const dialog = await openCreate();
    // not a tag admin: no 公共标签 switch
    expect(within(dialog).queryByRole('switch')).toBeNull();
    expect(within(dialog).getByText('个人标签（仅自己可见）')).toBeInTheDocument();
    const input = within(dialog).getByLabelText('标签名称');

    await u.click(ok(dialog));
    expect(await within(dialog).findByText('请输入标签名称')).toBeInTheDocument();
    await u.type(input, '待办');
    expect(await within(dialog).findByText('已存在同名标签')).toBeInTheDocument();
    await u.clear(input);
    await u.click(input);
    await u.paste('很'.repeat(21));
    expect(await within(dialog).findByText('标签名称不能超过 20 个字符')).toBeInTheDocument();
    await u.click(ok(dialog));
    expect(create).not.toHaveBeenCalled();

    await u.clear(input);
    await u.type(input, ' 周报 ');
    const swatches = within(dialog).getByRole('radiogroup', { name: '标签颜色' });
    expect(within(swatches).getAllByRole('radio')).toHaveLength(9);
    expect(within(swatches).getByRole('radio', { name: '蓝色' })).toHaveAttribute('aria-checked', 'true');
    await u.click(within(swatches).getByRole('radio', { name: '绿色' }));
    expect(within(swatches).getByRole('radio', { name: '绿色' })).toHaveAttribute('aria-checked', 'true');
    await u.click(ok(dialog));

    await waitFor(() => expect(create).toHaveBeenCalledWith({ name: '周报', color: '#52c41a', isPublic: false }));
    expect(await screen.findByText('新建成功')).toBeInTheDocument();
    await waitFor(() => expect(getTags).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('lets a tag admin make a public tag and change the public ones', async () => {
    const u = user();
    getTags.mockResolvedValue([{ ...important, editable: true }, todo]);
    const create = jest.spyOn(api, 'createTag').mockResolvedValue({ id: 't4', name: '制度', color: '#1677ff', isPublic: true, count: 0, editable: true });
    renderSettings(true);
    await screen.findByText('重要');
    expect(within(rowOf('重要')).getByLabelText('编辑 重要')).toBeInTheDocument();
    expect(within(rowOf('重要')).getByLabelText('删除 重要')).toBeInTheDocument();

    const dialog = await openCreate();
    const pub = within(dialog).getByRole('switch', { name: '公共标签' });
    expect(pub).not.toBeChecked();
    await u.type(within(dialog).getByLabelText('标签名称'), '制度');
    await u.click(pub);
    await u.click(ok(dialog));
    await waitFor(() => expect(create).toHaveBeenCalledWith({ name: '制度', color: '#1677ff', isPublic: true }));
  });

  it('edits a tag: its name and colour come filled in', async () => {
    const u = user();
    const update = jest.spyOn(api, 'updateTag').mockResolvedValue({ ...todo, name: '待处理' });
    renderSettings();
    await screen.findByText('待办');
    fireEvent.click(within(rowOf('待办')).getByLabelText('编辑 待办'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('编辑标签')).toBeInTheDocument();
    const input = within(dialog).getByLabelText('标签名称');
    expect(input).toHaveValue('待办');
    expect(within(dialog).getByRole('radio', { name: '蓝色' })).toHaveAttribute('aria-checked', 'true');
    await u.clear(input);
    await u.type(input, '待处理');
    await u.click(within(dialog).getByRole('radio', { name: '红色' }));
    await u.click(ok(dialog));
    await waitFor(() => expect(update).toHaveBeenCalledWith('t2', { name: '待处理', color: '#f5222d', isPublic: false }));
    expect(await screen.findByText('保存成功')).toBeInTheDocument();
  });

  it('deletes a tag only after the confirmation', async () => {
    const u = user();
    const del = jest.spyOn(api, 'deleteTag').mockResolvedValue({ id: 't2' });
    renderSettings();
    await screen.findByText('待办');

    fireEvent.click(within(rowOf('待办')).getByLabelText('删除 待办'));
    let confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('删除标签', { selector: '.ant-modal-confirm-title' })).toBeInTheDocument();
    expect(within(confirm).getByText('删除标签后，所有文件上的该标签都会被移除。')).toBeInTheDocument();
    await u.click(within(confirm).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByText('删除标签后，所有文件上的该标签都会被移除。')).not.toBeInTheDocument());
    expect(del).not.toHaveBeenCalled();

    fireEvent.click(within(rowOf('待办')).getByLabelText('删除 待办'));
    confirm = await screen.findByRole('dialog');
    await u.click(within(confirm).getByRole('button', { name: /删\s*除/ }));
    await waitFor(() => expect(del).toHaveBeenCalledWith('t2'));
    expect(await screen.findByText('删除成功')).toBeInTheDocument();
    await waitFor(() => expect(getTags).toHaveBeenCalledTimes(2));
  });

  it('says so when there is no tag', async () => {
    getTags.mockResolvedValue([]);
    renderSettings();
    expect(await screen.findByText('还没有标签')).toBeInTheDocument();
  });
});
