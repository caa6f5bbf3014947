// 我的摆渡's table and a task's drawer: the columns, the server's paging and search, the
// refresh after a change, and what the drawer shows and lets the user do.
import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { api, announceFerryChange, FERRY_CHANGED_EVENT, FERRY_TAB_STATUSES, type FerryTab, type FerryTaskDetail } from '@app/shared';
import { button, ferryDetail, ferryFile, ferryRow, HASH, panelOf, renderWithProviders, settled, toasts, useInlineStylesOnly } from '@app/shared/test';
import { FerryTaskTable, type FerryTaskTableProps } from './FerryTaskTable';

useInlineStylesOnly();

configure({ defaultHidden: true });
jest.setTimeout(60_000);

afterEach(() => jest.restoreAllMocks());

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

/** The table with buttons that switch its tab, as the pages' segmented controls do. */
function Switcher({ tab: first = 'processing', ...props }: Partial<FerryTaskTableProps>) {
  const [tab, setTab] = useState<FerryTab>(first);
  return (
    <>
      {(['processing', 'completed', 'rejected'] as const).map((t) => (
        <button key={t} type="button" onClick={() => setTab(t)}>
          {`切换到 ${t}`}
        </button>
      ))}
      <FerryTaskTable tab={tab} {...props} />
    </>
  );
}

function renderTable(props: Partial<FerryTaskTableProps> = {}) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="*" element={<Switcher {...props} />} />
      </Routes>
      <Where />
    </>,
    { route: '/swapSpace/myFerry/processing', session: true },
  );
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const headers = () => Array.from(document.querySelectorAll('.ant-table-thead th')).map((th) => th.textContent ?? '').filter(Boolean);

describe('FerryTaskTable', () => {
  it('shows the tasks of the tab with their files, zone, recipients, reason, state and time', async () => {
    const list = jest.spyOn(api, 'getFerryTasks').mockResolvedValue({
      data: [
        ferryRow(),
        ferryRow({ taskId: 't2', number: 'BD20261124000020', status: 'scanning', fileCount: 1, totalSize: 1536, recipients: ['lilei'] }),
      ],
      total: 2,
    });
    renderTable();
    const first = await waitFor(() => rowOf('BD20261124000012'));
    expect(list).toHaveBeenCalledWith({ status: 'processing', page: 1, pageSize: 20 }, { errorMode: 'none' });
    expect(headers()).toEqual(['编号', '文件', '目标区域', '接收人', '原因', '状态', '提交时间']);
    expect(first).toHaveTextContent('2 个文件3 MB');
    expect(within(first).getByText('外网')).toBeInTheDocument();
    expect(within(first).getByText('wangwu、zhaoliu')).toBeInTheDocument();
    expect(within(first).getByText('向合作方提交季度报告')).toBeInTheDocument();
    expect(within(first).getByText('审批中')).toHaveClass('ant-tag-processing');
    expect(within(first).getByText('2026-11-24 09:30')).toBeInTheDocument();
    expect(rowOf('BD20261124000020')).toHaveTextContent('1 个文件1.5 KB');
    expect(within(rowOf('BD20261124000020')).getByText('检查中')).toBeInTheDocument();
    expect(screen.getByText('共 2 条')).toBeInTheDocument();
  });

  it('completed tasks add the download and expiry times; stopped ones say why under their state', async () => {
    const list = jest.spyOn(api, 'getFerryTasks').mockImplementation(async (q) =>
      q.status === 'completed'
        ? { data: [ferryRow({ status: 'downloaded', deliveredAt: '2026-11-24 11:00:00', downloadedAt: '2026-11-24 12:00:00', expiresAt: '2026-12-01 11:00:00' }), ferryRow({ taskId: 't3', number: 'BD3', status: 'delivered', expiresAt: '2026-12-01 11:00:00' })], total: 2 }
        : { data: [ferryRow({ status: 'rejected', statusReason: '文件涉及客户隐私，不予外发' })], total: 1 },
    );
    renderTable({ tab: 'completed' });
    const row = await waitFor(() => rowOf('BD20261124000012'));
    expect(headers()).toEqual(['编号', '文件', '目标区域', '接收人', '原因', '状态', '提交时间', '下载时间', '过期时间']);
    expect(within(row).getByText('已下载')).toBeInTheDocument();
    expect(within(row).getByText('2026-11-24 12:00')).toBeInTheDocument();
    expect(within(row).getByText('2026-12-01 11:00')).toBeInTheDocument();
    expect(within(rowOf('BD3')).getByText('—')).toBeInTheDocument();

    fireEvent.click(button(document.body, '切换到 rejected'));
    const rejected = await screen.findByText('已驳回');
    expect(rejected).toHaveClass('ant-tag-error');
    expect(rejected.parentElement).toHaveTextContent('已驳回文件涉及客户隐私，不予外发');
    expect(headers()).not.toContain('下载时间');
    expect(list).toHaveBeenLastCalledWith({ status: 'rejected', page: 1, pageSize: 20 }, { errorMode: 'none' });
  });

  it('a package the other zone refused shows 被拒收 in red with the zone and the reason, among the stopped tasks', async () => {
    const list = jest.spyOn(api, 'getFerryTasks').mockResolvedValue({ data: [ferryRow({ status: 'refused', statusReason: '外网拒收：文件哈希不符（季度报告.pdf）' })], total: 1 });
    renderTable({ tab: 'rejected' });
    const tag = await screen.findByText('被拒收');
    expect(tag).toHaveClass('ant-tag-error');
    expect(tag.parentElement).toHaveTextContent('被拒收外网拒收：文件哈希不符（季度报告.pdf）');
    expect(list).toHaveBeenCalledWith({ status: 'rejected', page: 1, pageSize: 20 }, { errorMode: 'none' });
    expect(FERRY_TAB_STATUSES.rejected).toContain('refused');
  });

  it('pages through the server, searches by keyword from the first page, and reloads on a ferry change', async () => {
    const list = jest.spyOn(api, 'getFerryTasks').mockImplementation(async (q) => ({
      data: [ferryRow({ taskId: `p${q.page}`, number: `BD-PAGE-${q.page}` })],
      total: 45,
    }));
    renderTable();
    await screen.findByText('BD-PAGE-1');
    fireEvent.click(screen.getByTitle('3'));
    expect(await screen.findByText('BD-PAGE-3')).toBeInTheDocument();
    expect(list).toHaveBeenLastCalledWith({ status: 'processing', page: 3, pageSize: 20 }, { errorMode: 'none' });

    const search = screen.getByLabelText('搜索摆渡');
    fireEvent.change(search, { target: { value: ' 季度 ' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(list).toHaveBeenLastCalledWith({ status: 'processing', keyword: '季度', page: 1, pageSize: 20 }, { errorMode: 'none' }));
    await screen.findByText('BD-PAGE-1');

    const calls = list.mock.calls.length;
    act(() => announceFerryChange());
    await waitFor(() => expect(list).toHaveBeenCalledTimes(calls + 1));
    expect(list).toHaveBeenLastCalledWith({ status: 'processing', keyword: '季度', page: 1, pageSize: 20 }, { errorMode: 'none' });
    await settled();
  });

  it('an empty tab says so; a search that finds nothing says that instead', async () => {
    jest.spyOn(api, 'getFerryTasks').mockResolvedValue({ data: [], total: 0 });
    renderTable({ tab: 'rejected' });
    expect(await screen.findByText('暂时没有已驳回的摆渡')).toBeInTheDocument();
    const search = screen.getByLabelText('搜索摆渡');
    fireEvent.change(search, { target: { value: '没有' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(await screen.findByText('没有符合条件的摆渡')).toBeInTheDocument();
  });
});

describe('FerryTaskDrawer', () => {
  const open = async (detail: FerryTaskDetail, props: Partial<FerryTaskTableProps> = {}) => {
    jest.spyOn(api, 'getFerryTasks').mockResolvedValue({ data: [ferryRow()], total: 1 });
    const get = jest.spyOn(api, 'getFerryTask').mockResolvedValue(detail);
    renderTable(props);
    fireEvent.click(await screen.findByText('向合作方提交季度报告'));
    const drawer = panelOf('摆渡详情');
    await within(drawer).findByText('文件与检查');
    expect(get).toHaveBeenCalledWith('t1', { errorMode: 'none' });
    return { drawer, get };
  };

  it('shows the facts, the files with hash, real type, checks and keyword hits, and the timeline', async () => {
    const { drawer } = await open(ferryDetail());
    const facts = within(drawer).getByText('编号').closest('.ant-descriptions') as HTMLElement;
    expect(facts).toHaveTextContent('BD20261124000012');
    expect(facts).toHaveTextContent('摆渡方向内网 → 外网');
    expect(facts).toHaveTextContent('申请人张三');
    expect(facts).toHaveTextContent('接收人wangwu、zhaoliu');
    expect(facts).toHaveTextContent('提交时间2026-11-24 09:30');
    expect(facts).toHaveTextContent('送达时间—');
    expect(facts).toHaveTextContent('摆渡原因向合作方提交季度报告');

    const pdf = within(drawer).getByText('季度报告.pdf').closest('tr') as HTMLElement;
    expect(pdf).toHaveTextContent('2 MB');
    // the hash is shortened, in monospace, with the whole value copyable
    const hash = within(pdf).getByText('a3f1c2d4e5…23456789');
    expect(hash.closest('code')).toBeInTheDocument();
    expect(hash.closest('[title]')).toHaveAttribute('title', HASH);
    expect(within(pdf).getByLabelText('复制 SHA-256')).toBeInTheDocument();
    expect(within(pdf).getByText('pdf')).toBeInTheDocument();
    expect(within(pdf).getByText('文件类型 通过')).toHaveClass('ant-tag-green');
    expect(within(pdf).getByText('病毒查杀 未检查')).not.toHaveClass('ant-tag-green');
    expect(within(pdf).getByText('病毒查杀 未检查')).toHaveAttribute('aria-label', '病毒查杀：未检查。未安装 ClamAV，未进行病毒查杀');
    fireEvent.mouseEnter(within(pdf).getByText('病毒查杀 未检查'));
    expect(await screen.findByText('未安装 ClamAV，未进行病毒查杀', { selector: '.ant-tooltip-container, .ant-tooltip-container *' })).toBeInTheDocument();

    const docx = within(drawer).getByText('合同.docx').closest('tr') as HTMLElement;
    const hits = within(docx).getByLabelText('敏感词命中');
    expect(hits).toHaveTextContent('机密 ×2');
    expect(hits).toHaveTextContent('“本合同属于机密文件，请勿外传”');
    expect(within(hits).getAllByText('机密', { selector: 'mark' })).toHaveLength(1);

    const events = within(drawer).getAllByTestId('ferry-event');
    expect(events.map((e) => e.textContent)).toEqual(['已提交，开始检查（张三）2026-11-24 09:30', '检查通过，等待审批2026-11-24 09:30']);
    // nothing the caller may do
    expect(within(drawer).queryByText('取消摆渡')).not.toBeInTheDocument();
    expect(within(drawer).queryByText('预览')).not.toBeInTheDocument();
    expect(within(drawer).queryByText('查看审批')).not.toBeInTheDocument();
  });

  it('a refused task says 被拒收 with the zone and the reason, and its timeline ends with the refusal', async () => {
    const { drawer } = await open(
      ferryDetail({
        status: 'refused',
        statusReason: '外网拒收：签名校验失败',
        events: [
          { at: '2026-11-24 09:30:00', text: '已打包发出（摆渡目录）', actorName: '系统' },
          { at: '2026-11-24 09:40:00', text: '外网拒收：签名校验失败', actorName: '系统' },
        ],
      }),
    );
    const facts = within(drawer).getByText('编号').closest('.ant-descriptions') as HTMLElement;
    expect(within(facts).getByText('被拒收')).toHaveClass('ant-tag-error');
    expect(facts).toHaveTextContent('状态被拒收外网拒收：签名校验失败');
    const events = within(drawer).getAllByTestId('ferry-event');
    expect(events[events.length - 1]).toHaveTextContent('外网拒收：签名校验失败');
    expect(within(drawer).queryByText('取消摆渡')).not.toBeInTheDocument();
  });

  it('a failed check is red and says why', async () => {
    const { drawer } = await open(
      ferryDetail({
        status: 'blocked',
        statusReason: '1 个文件未通过检查',
        files: [ferryFile({ blocked: true, detectedType: 'exe', checks: [{ name: 'type', result: 'failed', message: '实际类型为 exe，不在允许的类型中' }] })],
      }),
    );
    const row = within(drawer).getByText('季度报告.pdf').closest('tr') as HTMLElement;
    expect(within(row).getByText('已拦截')).toBeInTheDocument();
    expect(within(row).getByText('exe')).toBeInTheDocument();
    const tag = within(row).getByText('文件类型 未通过');
    expect(tag).toHaveClass('ant-tag-red');
    expect(tag).toHaveAttribute('aria-label', '文件类型：未通过。实际类型为 exe，不在允许的类型中');
    expect(within(drawer).getByText('1 个文件未通过检查')).toBeInTheDocument();
  });

  it('取消摆渡 asks first, then cancels, reloads and announces the change', async () => {
    const cancel = jest.spyOn(api, 'cancelFerryTask').mockResolvedValue(ferryDetail({ status: 'cancelled' }));
    const changed = jest.fn();
    window.addEventListener(FERRY_CHANGED_EVENT, changed);
    const { drawer, get } = await open(ferryDetail({ can: { cancel: true, preview: false } }));
    get.mockResolvedValue(ferryDetail({ status: 'cancelled', statusReason: '申请人已取消', can: { cancel: false, preview: false } }));

    fireEvent.click(button(drawer, '取消摆渡'));
    const confirm = (await screen.findByText('确定取消这次摆渡？')).closest('.ant-popover') as HTMLElement;
    expect(cancel).not.toHaveBeenCalled();
    fireEvent.click(button(confirm, '确定'));
    await waitFor(() => expect(cancel).toHaveBeenCalledWith('t1'));
    expect(await within(drawer).findByText('申请人已取消')).toBeInTheDocument();
    expect(get).toHaveBeenCalledTimes(2);
    expect(within(drawer).queryByText('取消摆渡')).not.toBeInTheDocument();
    await waitFor(() => expect(toasts()).toContain('已取消摆渡'));
    expect(changed).toHaveBeenCalled();
    window.removeEventListener(FERRY_CHANGED_EVENT, changed);
  });

  it('预览 opens the preview address of the submitted version; 查看审批 leads to the approval when asked for', async () => {
    const preview = jest.spyOn(api, 'previewFerryFile').mockResolvedValue({ url: '/Ferry/FerryFiles/Preview/abc', name: '季度报告.pdf', detectedType: 'pdf' });
    const windowOpen = jest.spyOn(window, 'open').mockImplementation(() => null);
    const { drawer } = await open(ferryDetail({ can: { cancel: false, preview: true } }), { showApprovalLink: true });
    fireEvent.click(within(drawer).getByLabelText('预览 合同.docx'));
    await waitFor(() => expect(preview).toHaveBeenCalledWith({ taskId: 't1', fileId: '13' }));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledWith('/api/Ferry/FerryFiles/Preview/abc', '_blank'));

    const link = within(drawer).getByText('查看审批');
    expect(link.closest('a')).toHaveAttribute('href', '/workflow/informationDetails?id=i9');
    fireEvent.click(link);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/workflow/informationDetails?id=i9'));
  });

  it('no approval link for a task blocked before its approval started', async () => {
    const { drawer } = await open(ferryDetail({ instanceId: '', status: 'blocked' }), { showApprovalLink: true });
    expect(within(drawer).queryByText('查看审批')).not.toBeInTheDocument();
  });
});
