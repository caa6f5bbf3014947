import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { api, type RecycleItem } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import App from '../App';
import { docsFolder, report } from '../__tests__/fixtures';

useInlineStylesOnly();

jest.setTimeout(30_000);

const recycled = (over: Partial<RecycleItem> & Pick<RecycleItem, 'id' | 'name'>, base = report): RecycleItem => ({
  ...base,
  deletedAt: '2026-03-02 10:00:00',
  expiresAt: '2026-04-01 10:00:00',
  originalPath: '个人文件/项目文档',
  ...over,
});

const deletedFile = recycled({ id: '12', name: '季度报告.docx' });
const deletedFolder = recycled({ id: '11', name: '旧资料', type: 'folder', extension: '', originalPath: '个人文件' }, docsFolder);

let getRecycle: jest.SpyInstance;

const renderRecycle = () =>
  renderWithProviders(
    <Routes>
      <Route path="/file/*" element={<App section="file" />} />
    </Routes>,
    { route: '/file/recycle', session: true },
  );

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

beforeEach(() => {
  getRecycle = jest.spyOn(api, 'getRecycle').mockResolvedValue({ data: [deletedFile, deletedFolder], total: 2 });
});
afterEach(() => jest.restoreAllMocks());

describe('回收站', () => {
  it('lists the deleted items with icon, original location, deleted and expiry times', async () => {
    renderRecycle();
    expect(await screen.findByRole('heading', { name: '回收站' })).toBeInTheDocument();
    await screen.findByText('季度报告.docx');
    expect(getRecycle).toHaveBeenCalledWith({ page: 1, pageSize: 50 });
    const row = rowOf('季度报告.docx');
    expect(within(row).getByText('个人文件/项目文档')).toBeInTheDocument();
    expect(within(row).getByText('2026-03-02 10:00')).toBeInTheDocument();
    expect(within(row).getByText('2026-04-01 10:00')).toBeInTheDocument();
    expect(row.querySelector('[data-file-type="document"]')).not.toBeNull();
    expect(rowOf('旧资料').querySelector('[data-file-type="folder"]')).not.toBeNull();
    expect(screen.getByText('共 2 项')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /还\s*原/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /彻底删除/ })).toBeDisabled();
  });

  it('shows 回收站为空 when nothing is deleted', async () => {
    getRecycle.mockResolvedValue({ data: [], total: 0 });
    renderRecycle();
    expect(await screen.findByText('回收站为空')).toBeInTheDocument();
  });

  it('restores the selected items and reloads', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const restore = jest.spyOn(api, 'restoreRecycle').mockResolvedValue({ restored: [report] });
    renderRecycle();
    await screen.findByText('季度报告.docx');

    await user.click(screen.getByRole('checkbox', { name: '选择 季度报告.docx' }));
    await user.click(screen.getByRole('button', { name: /还\s*原/ }));

    await waitFor(() => expect(restore).toHaveBeenCalledWith(['12']));
    expect(await screen.findByText('还原成功')).toBeInTheDocument();
    await waitFor(() => expect(getRecycle).toHaveBeenCalledTimes(2));
  });

  it('purges for good only after the confirmation', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const purge = jest.spyOn(api, 'purgeRecycle').mockResolvedValue({ purged: 2 });
    renderRecycle();
    await screen.findByText('季度报告.docx');

    await user.click(screen.getByRole('checkbox', { name: '全选' }));
    await user.click(screen.getByRole('button', { name: /彻底删除/ }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('确定彻底删除选中的文件（夹）吗？此操作不可恢复。')).toBeInTheDocument();
    expect(purge).not.toHaveBeenCalled();

    await user.click(within(confirm).getByRole('button', { name: /彻底删除/ }));
    await waitFor(() => expect(purge).toHaveBeenCalledWith(['12', '11']));
    await waitFor(() => expect(getRecycle).toHaveBeenCalledTimes(2));
  });

  it('取消 purges nothing', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const purge = jest.spyOn(api, 'purgeRecycle');
    renderRecycle();
    await screen.findByText('季度报告.docx');
    await user.click(screen.getByRole('checkbox', { name: '选择 旧资料' }));
    await user.click(screen.getByRole('button', { name: /彻底删除/ }));
    const confirm = await screen.findByRole('dialog');
    await user.click(within(confirm).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(screen.queryByText('确定彻底删除选中的文件（夹）吗？此操作不可恢复。')).not.toBeInTheDocument());
    expect(purge).not.toHaveBeenCalled();
  });

  it('asks the server for page 2', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    getRecycle.mockImplementation(async ({ page }: { page: number }) =>
      page === 2 ? { data: [recycled({ id: '99', name: '第二页.txt' })], total: 51 } : { data: [deletedFile], total: 51 },
    );
    renderRecycle();
    await screen.findByText('季度报告.docx');
    await user.click(screen.getByTitle('2'));
    expect(await screen.findByText('第二页.txt')).toBeInTheDocument();
    expect(getRecycle).toHaveBeenLastCalledWith({ page: 2, pageSize: 50 });
  });
});
