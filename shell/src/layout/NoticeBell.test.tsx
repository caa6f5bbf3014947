import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { api, type Notice, type NoticeStreamHandlers } from '@app/shared';
import { button, panelOf, pickOption, settled, useInlineStylesOnly } from '@app/shared/test';
import { NoticeBell } from './NoticeBell';

useInlineStylesOnly();

afterEach(() => jest.restoreAllMocks());

const notice = (over: Partial<Notice> = {}): Notice => ({
  id: '1',
  kind: 'approval.waiting',
  title: '待审批：北京出差报销',
  body: '张三 的申请等待你审批',
  link: '/workflow/informationDetails?id=7',
  createdAt: '2026-11-27 10:00:00',
  read: false,
  resolved: false,
  resolution: '',
  ...over,
});

/** The stream: the test pushes through the handlers it was given; it stays open until aborted. */
function fakeStream() {
  const opened: NoticeStreamHandlers[] = [];
  const spy = jest.spyOn(api, 'openNoticeStream').mockImplementation(
    (handlers, signal) =>
      new Promise<void>((resolve) => {
        opened.push(handlers);
        signal.addEventListener('abort', () => resolve());
      }),
  );
  return { opened, spy };
}

describe('NoticeBell', () => {
  it('shows the pushed unread count, lists the notices, and opens one: marked read, its page opened', async () => {
    const stream = fakeStream();
    jest.spyOn(api, 'getNoticeUnread').mockResolvedValue({ unread: 0 });
    const list = jest.spyOn(api, 'getNotices').mockResolvedValue({
      data: [notice(), notice({ id: '2', kind: 'approval.cc', title: '抄送：采购申请', body: '李四 的申请抄送给你', read: true, resolved: true, resolution: '已由王五处理' })],
      total: 2,
      unread: 1,
    });
    const read = jest.spyOn(api, 'readNotices').mockResolvedValue({ changed: 1 });
    const opened: string[] = [];
    render(<NoticeBell onOpen={(link) => opened.push(link)} />);
    await waitFor(() => expect(stream.opened).toHaveLength(1));
    expect(screen.getByRole('button', { name: '消息中心' })).toBeInTheDocument();

    // a notice pushed by the server: the count shows at once
    act(() => stream.opened[0].onNotice(notice(), 1));
    expect(await screen.findByRole('button', { name: '消息中心（1 条未读）' })).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('notice-bell'));
    const drawer = panelOf('消息中心');
    await settled();
    expect(list).toHaveBeenCalledWith({ page: 1, pageSize: 20 });
    expect(within(drawer).getByText('待审批：北京出差报销')).toBeInTheDocument();
    expect(within(drawer).getByText('已由王五处理')).toBeInTheDocument();
    expect(within(drawer).getByText('抄送我的 · 2026-11-27 10:00:00')).toBeInTheDocument();

    fireEvent.click(within(drawer).getByText('待审批：北京出差报销'));
    expect(read).toHaveBeenCalledWith(['1']);
    expect(opened).toEqual(['/workflow/informationDetails?id=7']);
  });

  it('filters by 未读 and by kind, marks all read, deletes one, and asks for the count again after each', async () => {
    fakeStream();
    const unread = jest.spyOn(api, 'getNoticeUnread').mockResolvedValue({ unread: 2 });
    const list = jest.spyOn(api, 'getNotices').mockResolvedValue({ data: [notice()], total: 1, unread: 2 });
    const readAll = jest.spyOn(api, 'readAllNotices').mockResolvedValue({ changed: 2 });
    const remove = jest.spyOn(api, 'deleteNotices').mockResolvedValue({ changed: 1 });
    render(<NoticeBell onOpen={() => undefined} />);
    expect(await screen.findByRole('button', { name: '消息中心（2 条未读）' })).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('notice-bell'));
    const drawer = panelOf('消息中心');
    await settled();

    fireEvent.click(within(drawer).getByText('未读'));
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ page: 1, pageSize: 20, unread: true }));
    await pickOption(within(drawer).getByLabelText('消息类型'), '待我审批');
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ page: 1, pageSize: 20, kind: 'approval.waiting', unread: true }));

    const asked = unread.mock.calls.length;
    fireEvent.click(button(drawer, '全部已读'));
    await waitFor(() => expect(readAll).toHaveBeenCalledWith('approval.waiting'));
    await waitFor(() => expect(unread.mock.calls.length).toBe(asked + 1));

    fireEvent.click(within(drawer).getByRole('button', { name: '删除' }));
    fireEvent.click(button(document.body, '删除'));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(['1']));
    await waitFor(() => expect(unread.mock.calls.length).toBe(asked + 2));
  });

  it('a 系统公告 opens its whole text in a dialog (it has no page), marked read; the kind filter offers the new kinds', async () => {
    fakeStream();
    jest.spyOn(api, 'getNoticeUnread').mockResolvedValue({ unread: 1 });
    const text = '各位同事：\n本周六 9:00–12:00 机房停电检修，期间云文档暂停服务。\n' + '请提前保存工作。'.repeat(40);
    const list = jest.spyOn(api, 'getNotices').mockResolvedValue({
      data: [notice({ id: '9', kind: 'announcement', title: '系统公告：机房停电通知', body: text, link: '' })],
      total: 1,
      unread: 1,
    });
    const read = jest.spyOn(api, 'readNotices').mockResolvedValue({ changed: 1 });
    const opened: string[] = [];
    render(<NoticeBell onOpen={(link) => opened.push(link)} />);
    fireEvent.click(screen.getByTestId('notice-bell'));
    const drawer = panelOf('消息中心');
    await settled();
    expect(within(drawer).getByText('系统公告 · 2026-11-27 10:00:00')).toBeInTheDocument();

    fireEvent.click(within(drawer).getByText('系统公告：机房停电通知'));
    expect(read).toHaveBeenCalledWith(['9']);
    // the whole body, line breaks kept, under the 公告's own title
    const shown = await screen.findByTestId('announcement-body');
    expect(shown.textContent).toBe(text);
    expect(within(shown.closest('.ant-modal') as HTMLElement).getByText('机房停电通知')).toBeInTheDocument();
    expect(opened).toEqual([]);

    await pickOption(within(drawer).getByLabelText('消息类型'), '收到摆渡文件');
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ page: 1, pageSize: 20, kind: 'ferry.arrived' }));
  });

  it('opens the stream again after it ends', async () => {
    jest.useFakeTimers();
    try {
      let ends: Array<() => void> = [];
      const spy = jest.spyOn(api, 'openNoticeStream').mockImplementation(() => new Promise<void>((resolve) => ends.push(resolve)));
      jest.spyOn(api, 'getNoticeUnread').mockResolvedValue({ unread: 0 });
      render(<NoticeBell onOpen={() => undefined} />);
      expect(spy).toHaveBeenCalledTimes(1);
      await act(async () => ends[0]());
      ends = [];
      await act(async () => jest.advanceTimersByTime(2_000));
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
