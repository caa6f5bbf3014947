// 统计审计: the figures and charts of the statistics, the server-paged audit log, its filters,
// the integrity check and the export; what someone who is not an administrator sees.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { api, ApiError, DOWNLOAD_FRAME_ATTR, type FerryAuditQuery } from '@app/shared';
import { auditRecord, button, pickOption, renderPage, settled, stats } from '../__tests__/adminHarness';
import AuditPage from './AuditPage';
import { formatDuration } from './StatsPanel';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.setTimeout(90_000);

afterEach(() => {
  jest.restoreAllMocks();
  document.querySelectorAll(`[${DOWNLOAD_FRAME_ATTR}]`).forEach((f) => f.remove());
});

/** A figure of the statistics (the table headers carry the same words). */
const figure = (name: string) => screen.getByLabelText(name, { selector: '[role="group"]' });
const day = (d: dayjs.Dayjs) => d.format('YYYY-MM-DD');
const refused = () => new ApiError('仅管理员可以查看统计与审计', 40301, { status: 403, serverMessage: '仅管理员可以查看统计与审计' });

/** The records of `page` out of `total`, newest first. */
const pageOf = (q: FerryAuditQuery, total: number) => {
  const size = q.pageSize ?? 20;
  const first = total - ((q.page ?? 1) - 1) * size;
  return { data: Array.from({ length: Math.max(0, Math.min(size, first)) }, (_, i) => auditRecord(first - i)), total };
};

describe('统计', () => {
  it('shows the figures, the charts with their numbers and the tables for the last 30 days by day', async () => {
    const get = jest.spyOn(api, 'getFerryStats').mockResolvedValue(stats());
    renderPage(<AuditPage />, '/swapSpace/audit');
    expect(await screen.findByRole('heading', { name: '统计审计' })).toBeInTheDocument();
    await waitFor(() => expect(figure('摆渡次数')).toHaveTextContent('12'));
    expect(get).toHaveBeenCalledWith({ from: day(dayjs().subtract(29, 'day')), to: day(dayjs()), bucket: 'day' }, { errorMode: 'none' });

    expect(figure('文件数')).toHaveTextContent('30');
    expect(figure('总大小')).toHaveTextContent('5 MB');
    expect(figure('审批用时中位数')).toHaveTextContent('2 小时 5 分钟');

    // every bar names its numbers
    const overTime = screen.getByLabelText('按日摆渡次数', { selector: 'figure' });
    expect(within(overTime).getByLabelText('2026-11-23：摆渡 5 次，文件 12 个，共 2 MB')).toHaveAttribute('title', '2026-11-23：摆渡 5 次，文件 12 个，共 2 MB');
    expect(within(overTime).getByLabelText('2026-11-24：摆渡 7 次，文件 18 个，共 3 MB')).toBeInTheDocument();
    const direction = screen.getByLabelText('按方向', { selector: 'figure' });
    expect(within(direction).getByLabelText('内网 → 外网：摆渡 10 次，文件 26 个，共 4 MB')).toBeInTheDocument();
    expect(within(direction).getByLabelText('内网 → 研发网：摆渡 2 次，文件 4 个，共 1 MB')).toBeInTheDocument();
    const states = screen.getByLabelText('按状态', { selector: 'figure' });
    expect(within(states).getByLabelText('已送达：9 次')).toBeInTheDocument();
    expect(within(states).getByLabelText('已拦截：2 次')).toBeInTheDocument();
    expect(within(states).getByLabelText('已驳回：1 次')).toBeInTheDocument();
    const reasons = screen.getByLabelText('拦截原因', { selector: 'figure' });
    expect(within(reasons).getByLabelText('文件类型不在白名单中：1 次')).toBeInTheDocument();
    expect(within(reasons).getByLabelText('命中敏感词：1 次')).toBeInTheDocument();
    // the longest bar is the largest number
    const bars = within(direction).getAllByRole('listitem').map((li) => (li.querySelector('[data-bar]') as HTMLElement).style.width);
    expect(bars).toEqual(['100%', '20%']);

    const users = screen.getByLabelText('按用户', { selector: 'section' });
    expect(within(users).getByText('张三').closest('tr')).toHaveTextContent('张三8203 MB');
    expect(within(users).getByText('李四').closest('tr')).toHaveTextContent('李四4102 MB');
    const depts = screen.getByLabelText('按部门', { selector: 'section' });
    expect(within(depts).getByText('研发部').closest('tr')).toHaveTextContent('研发部9244 MB');
  });

  it('asks again by month, and for a chosen range', async () => {
    const get = jest.spyOn(api, 'getFerryStats').mockResolvedValue(stats());
    renderPage(<AuditPage />);
    await waitFor(() => expect(figure('摆渡次数')).toHaveTextContent('12'));

    get.mockResolvedValue(stats({ tasks: 40, byBucket: [{ bucket: '2026-11', tasks: 40, files: 90, bytes: 0 }] }));
    fireEvent.click(screen.getByText('按月'));
    await waitFor(() => expect(get).toHaveBeenLastCalledWith(expect.objectContaining({ bucket: 'month' }), { errorMode: 'none' }));
    await waitFor(() => expect(figure('摆渡次数')).toHaveTextContent('40'));
    expect(screen.getByLabelText('按月摆渡次数', { selector: 'figure' })).toContainElement(screen.getByLabelText('2026-11：摆渡 40 次，文件 90 个，共 0 B'));

    // a preset range
    const start = screen.getAllByPlaceholderText('开始日期')[0];
    fireEvent.mouseDown(start);
    fireEvent.focus(start);
    fireEvent.click(start);
    fireEvent.click(await screen.findByText('最近 7 天'));
    await waitFor(() =>
      expect(get).toHaveBeenLastCalledWith({ from: day(dayjs().subtract(6, 'day')), to: day(dayjs()), bucket: 'month' }, { errorMode: 'none' }),
    );
  });

  it('says when nothing was approved and when a breakdown is empty', async () => {
    jest.spyOn(api, 'getFerryStats').mockResolvedValue(stats({ medianApprovalMs: null, blockedByReason: [] }));
    renderPage(<AuditPage />);
    await waitFor(() => expect(figure('审批用时中位数')).toHaveTextContent('—'));
    expect(figure('审批用时中位数')).toHaveTextContent('期间没有已审批的摆渡');
    expect(screen.getByLabelText('拦截原因', { selector: 'figure' })).toHaveTextContent('暂无数据');
  });

  it('formats durations in days, hours and minutes', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(20_000)).toBe('不足 1 分钟');
    expect(formatDuration(45 * 60_000)).toBe('45 分钟');
    expect(formatDuration(3 * 3_600_000)).toBe('3 小时');
    expect(formatDuration(26 * 3_600_000 + 60_000)).toBe('1 天 2 小时');
  });

  it('shows the server’s sentence to someone who is not an administrator', async () => {
    jest.spyOn(api, 'getFerryStats').mockRejectedValue(refused());
    renderPage(<AuditPage />);
    expect(await screen.findByText('仅管理员可以查看统计与审计')).toBeInTheDocument();
    expect(screen.getByText('无权访问')).toBeInTheDocument();
    expect(screen.queryByText('审计日志')).not.toBeInTheDocument();
  });
});

describe('审计日志', () => {
  const openLog = async (total = 45) => {
    jest.spyOn(api, 'getFerryStats').mockResolvedValue(stats());
    const get = jest.spyOn(api, 'getFerryAudit').mockImplementation(async (q) => pageOf(q, total));
    renderPage(<AuditPage />, '/swapSpace/audit?tab=log');
    await waitFor(() => expect(get).toHaveBeenCalled());
    await settled();
    return get;
  };
  const rowOf = (seq: number) => screen.getByText(`t${seq}`).closest('tr') as HTMLElement;

  it('lists the records page by page as the server pages them', async () => {
    const get = await openLog();
    expect(get).toHaveBeenCalledWith({ page: 1, pageSize: 20 }, { errorMode: 'none' });
    const first = await waitFor(() => rowOf(45));
    expect(first).toHaveTextContent('2026-11-24 09:45:00');
    expect(first).toHaveTextContent('张三');
    expect(first).toHaveTextContent('提交摆渡申请');
    expect(first).toHaveTextContent('报告45.pdf（2 MB，SHA-256 ab12…）内网 → 外网');
    // the hash is shortened, the whole one is a hover away
    expect(within(first).getByText('0045aaaa…aaaabeef')).toBeInTheDocument();
    expect(within(first).getByLabelText(`哈希 0045${'a'.repeat(56)}beef`)).toBeInTheDocument();
    expect(screen.getByText('共 45 条')).toBeInTheDocument();

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(get).toHaveBeenLastCalledWith({ page: 2, pageSize: 20 }, { errorMode: 'none' }));
    expect(await screen.findByText('t25')).toBeInTheDocument();
    expect(screen.queryByText('t45')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(get).toHaveBeenLastCalledWith({ page: 3, pageSize: 20 }, { errorMode: 'none' }));
    expect(await screen.findByText('t1')).toBeInTheDocument();
  });

  it('filters by event and keyword from the first page, and exports with the same filters', async () => {
    const get = await openLog();
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(get).toHaveBeenLastCalledWith({ page: 2, pageSize: 20 }, { errorMode: 'none' }));

    await pickOption(screen.getByLabelText('事件'), '检查未通过');
    await waitFor(() => expect(get).toHaveBeenLastCalledWith({ event: 'check.blocked', page: 1, pageSize: 20 }, { errorMode: 'none' }));
    const search = screen.getByLabelText('关键字');
    fireEvent.change(search, { target: { value: ' 机密 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(get).toHaveBeenLastCalledWith({ event: 'check.blocked', keyword: '机密', page: 1, pageSize: 20 }, { errorMode: 'none' }),
    );

    // the last 7 days
    const start = screen.getAllByPlaceholderText('开始日期')[0];
    fireEvent.mouseDown(start);
    fireEvent.focus(start);
    fireEvent.click(start);
    fireEvent.click(await screen.findByText('最近 7 天'));
    const from = day(dayjs().subtract(6, 'day'));
    const to = day(dayjs());
    await waitFor(() =>
      expect(get).toHaveBeenLastCalledWith({ event: 'check.blocked', keyword: '机密', from, to, page: 1, pageSize: 20 }, { errorMode: 'none' }),
    );

    fireEvent.click(button(document.body, '导出 CSV'));
    fireEvent.click(button(document.body, '导出 Excel'));
    const frames = Array.from(document.querySelectorAll<HTMLIFrameElement>(`[${DOWNLOAD_FRAME_ATTR}]`)).map((f) => new URL(f.getAttribute('src') ?? '', 'http://x'));
    expect(frames.map((u) => u.pathname)).toEqual(['/api/Ferry/Audit/Export', '/api/Ferry/Audit/Export']);
    expect(frames.map((u) => Object.fromEntries(u.searchParams))).toEqual([
      { format: 'csv', event: 'check.blocked', keyword: '机密', from, to },
      { format: 'xlsx', event: 'check.blocked', keyword: '机密', from, to },
    ]);

    // 清除筛选 lists everything again
    fireEvent.click(button(document.body, '清除筛选'));
    await waitFor(() => expect(get).toHaveBeenLastCalledWith({ page: 1, pageSize: 20 }, { errorMode: 'none' }));
    expect(screen.getByLabelText('关键字')).toHaveValue('');
  });

  it('exports everything when nothing is filtered', async () => {
    await openLog();
    fireEvent.click(button(document.body, '导出 CSV'));
    expect(document.querySelector(`[${DOWNLOAD_FRAME_ATTR}]`)).toHaveAttribute('src', '/api/Ferry/Audit/Export?format=csv');
  });

  it('校验完整性 says the chain holds, or names the first record that was tampered with', async () => {
    await openLog();
    const verify = jest.spyOn(api, 'verifyFerryAudit').mockResolvedValue({ ok: true, count: 45, brokenAt: null, message: '' });
    fireEvent.click(button(document.body, '校验完整性'));
    expect(await screen.findByText('审计日志完整，共 45 条记录，哈希链校验通过')).toBeInTheDocument();
    expect(screen.getByText('审计日志完整，共 45 条记录，哈希链校验通过').closest('.ant-alert')).toHaveClass('ant-alert-success');

    verify.mockResolvedValue({ ok: false, count: 45, brokenAt: 17, message: '第 17 条记录的哈希与内容不符' });
    await act(async () => {
      fireEvent.click(button(document.body, '校验完整性'));
    });
    const alert = (await screen.findByText(/第 17 条记录被篡改、删除或插入/)).closest('.ant-alert') as HTMLElement;
    expect(alert).toHaveClass('ant-alert-error');
    expect(alert).toHaveTextContent('审计日志完整性校验未通过：第 17 条记录被篡改、删除或插入');
    expect(alert).toHaveTextContent('第 17 条记录的哈希与内容不符');
    expect(screen.queryByText(/哈希链校验通过/)).not.toBeInTheDocument();
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('shows the server’s sentence when the log is refused', async () => {
    jest.spyOn(api, 'getFerryStats').mockResolvedValue(stats());
    jest.spyOn(api, 'getFerryAudit').mockRejectedValue(refused());
    renderPage(<AuditPage />, '/swapSpace/audit?tab=log');
    expect(await screen.findByText('仅管理员可以查看统计与审计')).toBeInTheDocument();
    expect(screen.queryByText('校验完整性')).not.toBeInTheDocument();
  });
});
