// 收到的文件: the received packages, their download links, the rows with nothing left to
// download, and the server's paging.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, DOWNLOAD_FRAME_ATTR } from '@app/shared';
import { inboxItem, renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { FerryInboxTable } from './FerryInboxTable';

useInlineStylesOnly();

configure({ defaultHidden: true });
jest.setTimeout(60_000);

afterEach(() => {
  jest.restoreAllMocks();
  document.querySelectorAll(`[${DOWNLOAD_FRAME_ATTR}]`).forEach((f) => f.remove());
});

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('FerryInboxTable', () => {
  it('lists the packages with a link per file and 全部下载, and none for an expired or removed package', async () => {
    const inbox = jest.spyOn(api, 'getFerryInbox').mockResolvedValue({
      data: [
        inboxItem(),
        inboxItem({ id: 'p2', number: 'BD2', reason: '旧资料', status: 'expired', files: [{ index: 0, name: '过期文件.pdf', size: 10, sha256: 'd'.repeat(64) }] }),
        inboxItem({ id: 'p3', number: 'BD3', reason: '撤下的资料', status: 'removed', files: [{ index: 0, name: '移除文件.pdf', size: 10, sha256: 'e'.repeat(64) }] }),
      ],
      total: 3,
    });
    renderWithProviders(<FerryInboxTable />, { session: true });
    const row = await waitFor(() => rowOf('发来投标文件'));
    expect(inbox).toHaveBeenCalledWith({ page: 1, pageSize: 20 }, { errorMode: 'none' });
    expect(Array.from(document.querySelectorAll('.ant-table-thead th')).map((th) => th.textContent).filter(Boolean)).toEqual([
      '来自区域', '发送人', '原因', '文件', '大小', '状态', '收到时间', '过期时间', '操作',
    ]);
    expect(within(row).getByText('外网')).toBeInTheDocument();
    expect(within(row).getByText('李雷')).toBeInTheDocument();
    expect(within(row).getByText('3 KB')).toBeInTheDocument();
    expect(within(row).getByText('待下载')).toBeInTheDocument();
    expect(within(row).getByText('2026-11-23 15:00')).toBeInTheDocument();
    expect(within(row).getByText('2026-11-30 15:00')).toBeInTheDocument();
    expect(within(row).getByText('投标书.pdf').closest('a')).toHaveAttribute('href', '/api/Ferry/Inbox/p1/Download?index=0');
    expect(within(row).getByText('报价单.xlsx').closest('a')).toHaveAttribute('href', '/api/Ferry/Inbox/p1/Download?index=1');
    expect(within(row).getByText('全部下载').closest('a')).toHaveAttribute('href', '/api/Ferry/Inbox/p1/Download');

    const expired = rowOf('旧资料');
    expect(within(expired).queryByRole('link')).not.toBeInTheDocument();
    expect(within(expired).getByText('过期文件.pdf').closest('a')).toBeNull();
    expect(expired).toHaveTextContent('已过期，文件已删除');
    const removed = rowOf('撤下的资料');
    expect(within(removed).queryByRole('link')).not.toBeInTheDocument();
    expect(removed).toHaveTextContent('已移除，文件已删除');
  });

  it('a download goes through the browser (a hidden frame) and the row state is asked again', async () => {
    const inbox = jest
      .spyOn(api, 'getFerryInbox')
      .mockResolvedValueOnce({ data: [inboxItem()], total: 1 })
      .mockResolvedValue({ data: [inboxItem({ status: 'downloaded', downloadedAt: '2026-11-24 10:00:00' })], total: 1 });
    renderWithProviders(<FerryInboxTable />, { session: true });
    const link = await screen.findByText('投标书.pdf');
    fireEvent.click(link);
    const frame = document.querySelector(`iframe[${DOWNLOAD_FRAME_ATTR}]`) as HTMLIFrameElement;
    expect(frame.src).toBe('http://localhost/api/Ferry/Inbox/p1/Download?index=0');
    expect(await screen.findByText('已下载')).toBeInTheDocument();
    expect(inbox).toHaveBeenCalledTimes(2);

    fireEvent.click(screen.getByText('全部下载'));
    const frames = document.querySelectorAll(`iframe[${DOWNLOAD_FRAME_ATTR}]`);
    expect((frames[frames.length - 1] as HTMLIFrameElement).src).toBe('http://localhost/api/Ferry/Inbox/p1/Download');
  });

  it('移除 asks first, then removes the files and reloads the row', async () => {
    const inbox = jest
      .spyOn(api, 'getFerryInbox')
      .mockResolvedValueOnce({ data: [inboxItem()], total: 1 })
      .mockResolvedValue({ data: [inboxItem({ status: 'removed' })], total: 1 });
    const remove = jest.spyOn(api, 'removeFerryInbox').mockResolvedValue({ id: 'p1' });
    renderWithProviders(<FerryInboxTable />, { session: true });
    fireEvent.click(await screen.findByText('移除'));
    expect(await screen.findByText(/移除后文件从本区域删除/)).toBeInTheDocument();
    expect(remove).not.toHaveBeenCalled();
    const confirm = document.querySelector('.ant-popconfirm-buttons .ant-btn-primary') as HTMLElement;
    fireEvent.click(confirm);
    await waitFor(() => expect(remove).toHaveBeenCalledWith('p1'));
    expect(await screen.findByText('已移除，文件已删除')).toBeInTheDocument();
    expect(inbox).toHaveBeenCalledTimes(2);
  });

  it('pages through the server', async () => {
    const inbox = jest.spyOn(api, 'getFerryInbox').mockImplementation(async (q) => ({
      data: [inboxItem({ id: `p${q.page}`, reason: `第 ${q.page} 页的包` })],
      total: 30,
    }));
    renderWithProviders(<FerryInboxTable />, { session: true });
    await screen.findByText('第 1 页的包');
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('第 2 页的包')).toBeInTheDocument();
    expect(inbox).toHaveBeenLastCalledWith({ page: 2, pageSize: 20 }, { errorMode: 'none' });
  });

  it('an empty inbox says so', async () => {
    jest.spyOn(api, 'getFerryInbox').mockResolvedValue({ data: [], total: 0 });
    renderWithProviders(<FerryInboxTable />, { session: true });
    expect(await screen.findByText('暂时没有收到的文件')).toBeInTheDocument();
  });
});
