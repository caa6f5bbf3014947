import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, ApiError, decodePreviewData, type FileVersion } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { item, WRITE } from '../__tests__/fixtures';
import { VersionsDrawer } from './VersionsDrawer';

useInlineStylesOnly();

jest.setTimeout(30_000);

const file = item({ id: '12', name: '季度报告.docx', extension: 'docx', size: 3072, permissions: [...WRITE, 'version'] });

const version = (n: number, over: Partial<FileVersion> = {}): FileVersion => ({
  id: `v${n}`,
  fileId: '12',
  version: n,
  size: n * 1024,
  md5: null,
  isMaster: false,
  creatorId: '1',
  creatorName: n === 1 ? '李四' : '张三',
  createdAt: `2026-03-0${n} 10:00:00`,
  ...over,
});

const three = [version(3, { isMaster: true }), version(2), version(1)];

let getVersions: jest.SpyInstance;

beforeEach(() => {
  getVersions = jest.spyOn(api, 'getVersions').mockResolvedValue(three);
});
afterEach(() => jest.restoreAllMocks());

function renderDrawer(target = file) {
  const onClose = jest.fn();
  const onChanged = jest.fn();
  renderWithProviders(<VersionsDrawer item={target} onClose={onClose} onChanged={onChanged} />, { session: true });
  return { onClose, onChanged };
}

const rowOf = (n: number) => {
  const row = document.querySelector<HTMLElement>(`tr[aria-label="版本 V${n}"]`);
  if (!row) throw new Error(`no row for V${n}`);
  return row;
};
const versionRows = () => Array.from(document.querySelectorAll<HTMLElement>('tr[aria-label^="版本 V"]'));
const button = (scope: HTMLElement, name: string | RegExp) => within(scope).getByRole('button', { name });
/** The confirmation showing `text` (the drawer is a dialog as well). */
const confirmDialog = async (text: string | RegExp) => (await screen.findByText(text)).closest('[role="dialog"]') as HTMLElement;

describe('历史版本', () => {
  it('lists the versions newest first with size, creator, time and the master tag', async () => {
    getVersions.mockResolvedValue([version(1), version(3, { isMaster: true }), version(2)]);
    renderDrawer();
    expect(await screen.findByText('历史版本 - 季度报告.docx')).toBeInTheDocument();
    await screen.findByText('V3');
    expect(getVersions).toHaveBeenCalledWith('12');

    const rows = versionRows();
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['版本 V3', '版本 V2', '版本 V1']);
    const master = rowOf(3);
    expect(within(master).getByText('主版本')).toBeInTheDocument();
    expect(within(master).getByText('3 KB')).toBeInTheDocument();
    expect(within(master).getByText('张三')).toBeInTheDocument();
    expect(within(master).getByText('2026-03-03 10:00')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('李四')).toBeInTheDocument();
    expect(within(rowOf(1)).queryByText('主版本')).not.toBeInTheDocument();
  });

  it('offers no change on the master version: it cannot be deleted', async () => {
    renderDrawer();
    await screen.findByText('V3');
    const master = rowOf(3);
    expect(within(master).queryByRole('button', { name: /删\s*除/ })).not.toBeInTheDocument();
    expect(within(master).queryByRole('button', { name: '设为主版本' })).not.toBeInTheDocument();
    expect(button(rowOf(2), /删\s*除/)).toBeInTheDocument();
    expect(button(rowOf(2), '设为主版本')).toBeInTheDocument();
    expect(button(rowOf(2), '回滚到此版本')).toBeInTheDocument();
  });

  it('rolls back only after the confirmation, then shows the new list and reports the change', async () => {
    const after = [version(4, { isMaster: true, size: 1024 }), version(3), version(2), version(1)];
    const rollback = jest.spyOn(api, 'rollbackVersion').mockResolvedValue(after);
    const { onChanged } = renderDrawer();
    await screen.findByText('V3');

    fireEvent.click(button(rowOf(1), '回滚到此版本'));
    const confirm = await confirmDialog('确定将文件回滚到版本 V1 吗？回滚会生成一个新的主版本。');
    expect(rollback).not.toHaveBeenCalled();

    fireEvent.click(button(confirm, /^确\s*定$/));
    await waitFor(() => expect(rollback).toHaveBeenCalledWith('12', 'v1'));
    expect(await screen.findByText('V4')).toBeInTheDocument();
    expect(within(rowOf(4)).getByText('主版本')).toBeInTheDocument();
    expect(within(rowOf(3)).queryByText('主版本')).not.toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('已回滚到版本 V1')).toBeInTheDocument();
  });

  it('取消 in the rollback confirmation changes nothing', async () => {
    const rollback = jest.spyOn(api, 'rollbackVersion');
    const { onChanged } = renderDrawer();
    await screen.findByText('V3');
    fireEvent.click(button(rowOf(2), '回滚到此版本'));
    fireEvent.click(button(await confirmDialog(/确定将文件回滚到版本 V2/), /取\s*消/));
    await waitFor(() => expect(screen.queryByText(/确定将文件回滚到版本 V2/)).not.toBeInTheDocument());
    expect(rollback).not.toHaveBeenCalled();
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('makes another version the master', async () => {
    const setMaster = jest.spyOn(api, 'setMasterVersion').mockResolvedValue([version(3), version(2, { isMaster: true }), version(1)]);
    const { onChanged } = renderDrawer();
    await screen.findByText('V3');

    fireEvent.click(button(rowOf(2), '设为主版本'));
    await waitFor(() => expect(setMaster).toHaveBeenCalledWith('v2'));
    await waitFor(() => expect(within(rowOf(2)).getByText('主版本')).toBeInTheDocument());
    expect(within(rowOf(3)).queryByText('主版本')).not.toBeInTheDocument();
    expect(button(rowOf(3), '设为主版本')).toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('deletes a version after the confirmation', async () => {
    const remove = jest.spyOn(api, 'deleteVersion').mockResolvedValue([version(3, { isMaster: true }), version(1)]);
    const { onChanged } = renderDrawer();
    await screen.findByText('V3');

    fireEvent.click(button(rowOf(2), /删\s*除/));
    const confirm = await confirmDialog('确定删除版本 V2 吗？删除后无法恢复。');
    fireEvent.click(button(confirm, /^确\s*定$/));

    await waitFor(() => expect(remove).toHaveBeenCalledWith('v2'));
    await waitFor(() => expect(screen.queryByText('V2')).not.toBeInTheDocument());
    expect(screen.getByText('V1')).toBeInTheDocument();
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('keeps the list as it was when the server refuses', async () => {
    const setMaster = jest.spyOn(api, 'setMasterVersion').mockRejectedValue(new ApiError('没有权限', 40301));
    const { onChanged } = renderDrawer();
    await screen.findByText('V3');
    fireEvent.click(button(rowOf(2), '设为主版本'));
    await waitFor(() => expect(setMaster).toHaveBeenCalledWith('v2'));
    await waitFor(() => expect(button(rowOf(2), '设为主版本')).toBeEnabled());
    expect(within(rowOf(3)).getByText('主版本')).toBeInTheDocument();
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('shows the list read-only to a user without the version right', async () => {
    renderDrawer({ ...file, permissions: ['view', 'download', 'copy'] });
    await screen.findByText('V3');
    expect(versionRows()).toHaveLength(3);
    // 下载 only
    expect(screen.getAllByRole('button', { name: /^下载版本 V\d$/ })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: '设为主版本' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '回滚到此版本' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /删\s*除/ })).not.toBeInTheDocument();
  });

  it('offers a user who may only preview 预览 of each version and nothing else', async () => {
    renderDrawer({ ...file, permissions: ['view'] });
    await screen.findByText('V3');
    expect(within(rowOf(2)).getAllByRole('button').map((b) => b.textContent)).toEqual(['预览']);
    expect(screen.queryByRole('button', { name: /下载/ })).not.toBeInTheDocument();
  });

  it('预览 opens the version in a new tab', async () => {
    const windowOpen = jest.fn(() => ({}) as Window);
    window.open = windowOpen as unknown as typeof window.open;
    jest.spyOn(api, 'getFileActions').mockResolvedValue({ previewable: true, editable: true, actions: [] });
    renderDrawer();
    await screen.findByText('V3');
    fireEvent.click(screen.getByRole('button', { name: '预览版本 V2' }));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledTimes(1));
    const [url, name] = windowOpen.mock.calls[0] as unknown as [string, string];
    expect(name).toBe('_blank');
    expect(decodePreviewData(url.replace('/preview/', ''))).toEqual({ fileId: '12', versionId: 'v2', name: '季度报告.docx（V2）' });
  });

  it('downloads a version straight from the server with its versionId', async () => {
    renderDrawer({ ...file, permissions: ['view', 'download'] });
    await screen.findByText('V3');
    fireEvent.click(screen.getByRole('button', { name: '下载版本 V2' }));
    const frame = document.querySelector('iframe[data-download-frame]') as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe('/api/User/FileTransfer/Download/12?versionId=v2');
    frame.remove();
    expect(screen.queryByRole('button', { name: '设为主版本' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '回滚到此版本' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /删\s*除/ })).not.toBeInTheDocument();
  });

  it('shows an empty list and a failed load with 重试', async () => {
    getVersions.mockRejectedValueOnce(new ApiError('服务器开小差了', 500)).mockResolvedValueOnce([]);
    renderDrawer();
    expect(await screen.findByText('服务器开小差了')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByText('暂无历史版本')).toBeInTheDocument();
    expect(getVersions).toHaveBeenCalledTimes(2);
  });

  it('stays closed without a file', () => {
    renderWithProviders(<VersionsDrawer item={null} onClose={jest.fn()} />, { session: true });
    expect(screen.queryByText(/历史版本/)).not.toBeInTheDocument();
    expect(getVersions).not.toHaveBeenCalled();
  });

  it('calls onClose from its close button', async () => {
    const { onClose } = renderDrawer();
    await screen.findByText('V3');
    fireEvent.click(document.querySelector('.ant-drawer-close') as HTMLElement);
    expect(onClose).toHaveBeenCalled();
  });
});
