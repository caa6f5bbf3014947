import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { api, setHttpAdapter, resetDownloadState, resetHttpState } from '@app/shared';
import { mockFilesPage, renderFiles, rowOf } from '../__tests__/filesPage';
import { page, personalRoot, report } from '../__tests__/fixtures';
import { DOWNLOAD_TEXTS } from './useDownload';

// each case renders the whole files page in jsdom: on a busy 2-core machine one takes up to
// half a minute
jest.setTimeout(60_000);

mockFilesPage();

type Answer = { status?: number; data: unknown };
/** The answers of the download calls by method and path (without the timestamp). */
let answers: Record<string, Answer | Answer[]>;
let seen: { method: string; url: string; data: unknown }[];

beforeEach(() => {
  answers = {};
  seen = [];
  setHttpAdapter(async (config: InternalAxiosRequestConfig) => {
    const method = (config.method ?? 'get').toUpperCase();
    const key = `${method} ${config.url}`;
    seen.push({ method, url: config.url ?? '', data: config.data });
    const list = answers[key];
    const answer = Array.isArray(list) ? (list.length > 1 ? list.shift() : list[0]) : list;
    if (!answer) throw new Error(`unexpected call ${key}`);
    const response = { data: answer.data, status: answer.status ?? 200, statusText: '', headers: {}, config } as AxiosResponse;
    if (response.status >= 400) throw new AxiosError(`HTTP ${response.status}`, 'ERR_BAD_RESPONSE', config, null, response);
    return response;
  });
});
afterEach(() => {
  setHttpAdapter(undefined);
  resetHttpState();
  resetDownloadState();
  document.querySelectorAll('iframe[data-download-frame]').forEach((f) => f.remove());
  jest.useRealTimers();
});

const ok = (result: unknown): Answer => ({ data: { code: 200, result, message: null } });
const fail = (status: number, code: number, message: string): Answer => ({ status, data: { code, result: null, message } });
const TASK = 'POST /api/User/FileTransfer/DownloadTask';
const STATUS = 'GET /api/User/FileTransfer/DownloadTasks/t1/Status';
const frames = () => Array.from(document.querySelectorAll<HTMLIFrameElement>('iframe[data-download-frame]'));
const checkbox = (name: string) => screen.getByRole('checkbox', { name: `选择 ${name}` });
const toolbarDownload = () => screen.getByRole('button', { name: /下\s*载/ });

/** What the frame shows when the server answers with text instead of the file. */
function answerInFrame(frame: HTMLIFrameElement, text: string) {
  const doc = frame.contentDocument as Document;
  if (!doc.documentElement) doc.appendChild(doc.createElement('html'));
  if (!doc.body) doc.documentElement.appendChild(doc.createElement('body'));
  doc.body.textContent = text;
}

async function selectBoth() {
  await screen.findByText('季度报告.docx');
  fireEvent.click(checkbox('项目文档'));
  fireEvent.click(checkbox('季度报告.docx'));
  await screen.findByText('已选 2 项');
}

describe('下载一个文件', () => {
  it('lets the browser download it straight from the server', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.click(within(rowOf('季度报告.docx')).getByLabelText('下载 季度报告.docx'));
    expect(frames()).toHaveLength(1);
    expect(frames()[0].getAttribute('src')).toBe('/api/User/FileTransfer/Download/12');
    expect(frames()[0]).not.toBeVisible();
    expect(seen).toEqual([]); // no call of its own: the browser fetches it with the cookie
  });

  it('shows the server’s message when the file cannot be downloaded', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.click(within(rowOf('季度报告.docx')).getByLabelText('下载 季度报告.docx'));
    const [frame] = frames();
    // the server answered with its envelope instead of the bytes
    answerInFrame(frame, JSON.stringify({ code: 404, result: null, message: '文件不存在或已被删除' }));
    act(() => {
      frame.dispatchEvent(new Event('load'));
    });
    expect(await screen.findByText('文件不存在或已被删除')).toBeInTheDocument();
    expect(frames()).toHaveLength(0);
  });

  it('shows 文件下载失败 for a reply that is not the file', async () => {
    renderFiles();
    await screen.findByText('季度报告.docx');
    fireEvent.click(within(rowOf('季度报告.docx')).getByLabelText('下载 季度报告.docx'));
    const [frame] = frames();
    answerInFrame(frame, 'Bad Gateway');
    act(() => {
      frame.dispatchEvent(new Event('load'));
    });
    expect(await screen.findByText('文件下载失败')).toBeInTheDocument();
  });

  it('is not offered without the download right', async () => {
    jest.spyOn(api, 'getItems').mockResolvedValue(page({ ...personalRoot, permissions: ['view'] }, [{ ...report, permissions: ['view'] }]));
    renderFiles();
    await screen.findByText('季度报告.docx');
    expect(within(rowOf('季度报告.docx')).queryByLabelText('下载 季度报告.docx')).not.toBeInTheDocument();
  });
});

describe('打包下载', () => {
  it('compresses a folder and a file, shows the progress, then downloads the zip', async () => {
    jest.useFakeTimers();
    answers[TASK] = ok({ taskId: 't1' });
    answers[STATUS] = [ok({ percent: 40, downloadUrl: '' }), ok({ percent: 100, downloadUrl: '/api/User/FileTransfer/DownloadTasks/t1/File' })];
    renderFiles();
    await selectBoth();

    fireEvent.click(toolbarDownload());
    expect(await screen.findByText(DOWNLOAD_TEXTS.compressing)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40'));
    expect(seen.find((c) => c.method === 'POST')?.data).toBe(JSON.stringify(['11', '12']));
    expect(frames()).toHaveLength(0);

    // polled again 3 s later: the zip is ready
    await act(async () => {
      await jest.advanceTimersByTimeAsync(3_000);
    });
    expect(await screen.findByText(DOWNLOAD_TEXTS.ready)).toBeInTheDocument();
    expect(frames()).toHaveLength(1);
    expect(frames()[0].getAttribute('src')).toBe('/api/User/FileTransfer/DownloadTasks/t1/File');
    expect(seen.filter((c) => c.method === 'GET' && c.url.endsWith('/Status'))).toHaveLength(2);
  });

  it('compresses a single folder as well', async () => {
    answers[TASK] = ok({ taskId: 't1' });
    answers[STATUS] = ok({ percent: 100, downloadUrl: '/api/User/FileTransfer/DownloadTasks/t1/File' });
    renderFiles();
    await screen.findByText('项目文档');
    fireEvent.click(within(rowOf('项目文档')).getByLabelText('下载 项目文档'));
    expect(await screen.findByText(DOWNLOAD_TEXTS.ready)).toBeInTheDocument();
    expect(seen[0].data).toBe(JSON.stringify(['11']));
    expect(frames()[0].getAttribute('src')).toBe('/api/User/FileTransfer/DownloadTasks/t1/File');
  });

  it('refuses a second compression while one runs', async () => {
    jest.useFakeTimers();
    answers[TASK] = ok({ taskId: 't1' });
    answers[STATUS] = ok({ percent: 10, downloadUrl: '' });
    renderFiles();
    await selectBoth();
    fireEvent.click(toolbarDownload());
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10'));

    fireEvent.click(within(rowOf('项目文档')).getByLabelText('下载 项目文档'));
    expect(await screen.findByText('该文件正在压缩中，请稍后再试')).toBeInTheDocument();
    expect(seen.filter((c) => c.method === 'POST')).toHaveLength(1);
    // the first one goes on
    expect(screen.getByText(DOWNLOAD_TEXTS.compressing)).toBeInTheDocument();
  });

  it('shows the refusal of the server and lets another download start', async () => {
    answers[TASK] = fail(403, 40301, '没有下载该文件夹的权限');
    renderFiles();
    await selectBoth();
    fireEvent.click(toolbarDownload());
    expect(await screen.findByText('没有下载该文件夹的权限')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(DOWNLOAD_TEXTS.compressing)).not.toBeInTheDocument());
    expect(frames()).toHaveLength(0);

    answers[TASK] = ok({ taskId: 't1' });
    answers[STATUS] = ok({ percent: 100, downloadUrl: '/api/User/FileTransfer/DownloadTasks/t1/File' });
    fireEvent.click(toolbarDownload());
    expect(await screen.findByText(DOWNLOAD_TEXTS.ready)).toBeInTheDocument();
    expect(screen.queryByText('该文件正在压缩中，请稍后再试')).not.toBeInTheDocument();
  });

  it('stops when the task is gone', async () => {
    answers[TASK] = ok({ taskId: 't1' });
    answers[STATUS] = fail(404, 404, '下载任务不存在或已过期');
    renderFiles();
    await selectBoth();
    fireEvent.click(toolbarDownload());
    expect(await screen.findByText('下载任务不存在或已过期')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(DOWNLOAD_TEXTS.compressing)).not.toBeInTheDocument());
    expect(frames()).toHaveLength(0);
  });
});
