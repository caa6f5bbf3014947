import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { summarizeUploads, UploadStatus, uploads, type UploadConflictRequest, type UploadItem } from '@app/shared';
import { renderWithProviders } from '@app/shared/test';
import type { UploadController } from './controller';
import { DEFAULT_UPLOAD_OPTIONS, UploadEngine, type UploadSnapshot } from './engine/engine';
import { FakeServer, STRATEGIES } from './engine/fakeServer';
import { createHasher } from './engine/hasher';
import { createTaskStore } from './engine/taskStore';
import UploadHost from './UploadHost';

jest.setTimeout(30_000);

function item(id: string, status: UploadItem['status'], extra: Partial<UploadItem> = {}): UploadItem {
  return {
    id,
    name: `${id}.docx`,
    fileName: `${id}.docx`,
    size: 2048,
    type: 2,
    fileType: 'docx',
    relativePath: `${id}.docx`,
    path: { wjFileId: '42', idPath: '2/42' },
    folderId: '42',
    taskId: `t-${id}`,
    strategy: null,
    fileId: null,
    uniqueIdentifier: null,
    batchNumber: null,
    shareId: null,
    namePath: '',
    idPath: '2/42',
    status,
    speed: 0,
    mathPro: 0,
    uploadedSize: 0,
    md5verify: 0,
    isMD5Compute: false,
    uploadTime: null,
    msg: '',
    error: status === UploadStatus.Error,
    completed: status === UploadStatus.Success,
    isFolder: false,
    ...extra,
  };
}

type Fake = jest.Mocked<UploadController> & { set(items: UploadItem[], conflict?: UploadConflictRequest | null): void };

function fakeController(initial: UploadItem[] = []): Fake {
  let snapshot: UploadSnapshot;
  const listeners = new Set<() => void>();
  const make = (items: UploadItem[], conflict: UploadConflictRequest | null = null) => {
    snapshot = { items, conflict, paused: false, summary: summarizeUploads(items) };
  };
  make(initial);
  const fake = {
    subscribe: jest.fn((l: () => void) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    }),
    getSnapshot: jest.fn(() => snapshot),
    add: jest.fn(async () => []),
    addFolders: jest.fn(async () => undefined),
    loadOptions: jest.fn(async () => ({ ...DEFAULT_UPLOAD_OPTIONS })),
    pauseAll: jest.fn(),
    resumeAll: jest.fn(),
    retryAll: jest.fn(),
    pause: jest.fn(),
    resume: jest.fn(),
    retry: jest.fn(),
    cancel: jest.fn(),
    close: jest.fn(async (confirm: () => boolean | Promise<boolean>) => confirm()),
    reattach: jest.fn(() => true),
    restore: jest.fn(() => 0),
    suspend: jest.fn(),
    resolveConflict: jest.fn(),
    set(items: UploadItem[], conflict: UploadConflictRequest | null = null) {
      act(() => {
        make(items, conflict);
        for (const l of [...listeners]) l();
      });
    },
  };
  return fake as unknown as Fake;
}

const now = () => Promise.resolve();

function renderHost(controller: UploadController, route = '/file/personal') {
  return renderWithProviders(<UploadHost controller={controller} yieldToUi={now} />, { route, session: true });
}

const status = () => screen.getByTestId('upload-panel-status').textContent;
const header = { pauseAll: 'upload-pause-all', continueAll: 'upload-continue-all', retryAll: 'upload-retry-all' } as const;
const button = (key: keyof typeof header) => screen.queryByTestId(header[key]);

afterEach(() => uploads.setDropTarget(null));

describe('the upload panel', () => {
  it('is hidden with an empty list and shows up when files are added', async () => {
    const c = fakeController();
    renderHost(c);
    expect(screen.queryByTestId('upload-panel')).toBeNull();
    c.set([item('a', UploadStatus.Waiting)]);
    expect(await screen.findByTestId('upload-panel')).toHaveStyle({ position: 'fixed', height: '398px' });
  });

  it('waiting and uploading: 上传中 n / total and 全部暂停, which pauses everything', async () => {
    const c = fakeController([
      item('a', UploadStatus.Success),
      item('b', UploadStatus.Uploading, { mathPro: 40 }),
      item('c', UploadStatus.Waiting),
    ]);
    renderHost(c);
    expect(status()).toBe('上传中 1 / 3');
    expect(screen.getByTestId('upload-panel')).toHaveAttribute('data-status', 'uploading');
    expect(button('continueAll')).toBeNull();
    expect(button('pauseAll')).toHaveTextContent('全部暂停');
    await userEvent.click(button('pauseAll')!);
    expect(c.pauseAll).toHaveBeenCalledTimes(1);
    const rows = screen.getAllByTestId('upload-row');
    expect(rows.map((r) => within(r).getByTestId('upload-row-status').textContent)).toEqual(['上传成功', '上传中 40%', '等待上传']);
    // each row's line shows its progress, and never eases (no transition, no shimmer)
    const lines = rows.map((r) => within(r).getByRole('progressbar'));
    expect(lines.map((l) => l.getAttribute('aria-valuenow'))).toEqual(['100', '40', '0']);
    expect((lines[1].firstChild as HTMLElement).style.width).toBe('40%');
    for (const l of lines) expect(l.innerHTML).not.toMatch(/transition|animation/);
    expect(document.querySelector('.ant-progress')).toBeNull();
  });

  it('paused: 全部暂停 as the text and 继续, which continues', async () => {
    const c = fakeController([item('a', UploadStatus.Paused), item('b', UploadStatus.Success)]);
    renderHost(c);
    expect(status()).toBe('全部暂停');
    expect(button('pauseAll')).toBeNull();
    expect(button('continueAll')!.textContent?.replace(/\s/g, '')).toBe('继续');
    await userEvent.click(button('continueAll')!);
    expect(c.resumeAll).toHaveBeenCalledTimes(1);
  });

  it('error: 部分文件上传失败 and 全部重试; a refused file offers no retry', async () => {
    const c = fakeController([
      item('a', UploadStatus.Error, { msg: '服务器繁忙' }),
      item('b', UploadStatus.Error, { refused: true, msg: '该文件超过允许的最大值（5 GB），无法上传' }),
      item('c', UploadStatus.Success),
    ]);
    renderHost(c);
    expect(status()).toBe('部分文件上传失败');
    expect(button('retryAll')).toHaveTextContent('全部重试');
    await userEvent.click(button('retryAll')!);
    expect(c.retryAll).toHaveBeenCalledTimes(1);
    const [a, b] = screen.getAllByTestId('upload-row');
    expect(within(a).getByTestId('upload-row-status')).toHaveTextContent('服务器繁忙');
    await userEvent.click(within(a).getByRole('button', { name: '重试' }));
    expect(c.retry).toHaveBeenCalledWith('a');
    expect(within(b).queryByRole('button', { name: '重试' })).toBeNull();
  });

  it('all done: 全部上传成功, no control buttons, closes without asking', async () => {
    const c = fakeController([item('a', UploadStatus.Success), item('b', UploadStatus.Success, { msg: '秒传成功' })]);
    renderHost(c);
    expect(status()).toBe('全部上传成功');
    expect([button('pauseAll'), button('continueAll'), button('retryAll')]).toEqual([null, null, null]);
    expect(within(screen.getAllByTestId('upload-row')[1]).getByTestId('upload-row-status')).toHaveTextContent('秒传成功');
  });

  it('row actions reach the engine: pause, continue, cancel', async () => {
    const c = fakeController([item('a', UploadStatus.Uploading), item('b', UploadStatus.Paused)]);
    renderHost(c);
    const [a, b] = screen.getAllByTestId('upload-row');
    await userEvent.click(within(a).getByRole('button', { name: '暂停' }));
    await userEvent.click(within(b).getByRole('button', { name: '继续' }));
    await userEvent.click(within(b).getByRole('button', { name: '取消上传' }));
    expect(c.pause).toHaveBeenCalledWith('a');
    expect(c.resume).toHaveBeenCalledWith('b');
    expect(c.cancel).toHaveBeenCalledWith('b');
  });

  it('folds to 68 px and unfolds', async () => {
    const c = fakeController([item('a', UploadStatus.Waiting)]);
    renderHost(c);
    await userEvent.click(screen.getByRole('button', { name: '收起' }));
    expect(screen.getByTestId('upload-panel')).toHaveStyle({ height: '68px' });
    expect(screen.queryByTestId('upload-list')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '展开' }));
    expect(screen.getByTestId('upload-list')).toBeInTheDocument();
  });

  it('close with unfinished files asks 取消上传: 继续上传 keeps the list, 取消上传 closes it', async () => {
    const c = fakeController([item('a', UploadStatus.Uploading)]);
    renderHost(c);
    await userEvent.click(screen.getByRole('button', { name: '关闭' }));
    expect(await screen.findByText('列表中还有未完成的文件，确定取消上传吗？')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '继续上传' }));
    await expect(c.close.mock.results[0].value).resolves.toBe(false);

    await userEvent.click(screen.getByRole('button', { name: '关闭' }));
    const dialogs = await screen.findAllByRole('dialog');
    await userEvent.click(within(dialogs[dialogs.length - 1]).getByRole('button', { name: '取消上传' }));
    await expect(c.close.mock.results[1].value).resolves.toBe(true);
  });

  it('a row remembered from before a reload says so and picks its file again', async () => {
    const c = fakeController([item('a', UploadStatus.Paused, { needsFile: true, msg: '页面已刷新，请重新选择该文件以继续上传' })]);
    renderHost(c);
    expect(c.restore).toHaveBeenCalled();
    const row = screen.getByTestId('upload-row');
    expect(row).toHaveAttribute('data-needs-file', 'true');
    expect(within(row).queryByRole('button', { name: '继续' })).toBeNull();
    expect(within(row).getByRole('button', { name: '重新选择文件' })).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: '重新选择文件' }));
    const file = new File(['x'], 'a.docx');
    await userEvent.upload(screen.getByTestId('upload-repick-input'), file);
    expect(c.reattach).toHaveBeenCalledWith('a', file);
  });

  it('shows only on /file, /s/, /swapSpace/, /ai/, /preview/ and the simple mode\'s /ferry/', () => {
    for (const [route, shown] of [
      ['/file/personal', true],
      ['/ferry/file', true],
      ['/swapSpace/myFerry/processing', true],
      ['/s/abc', true],
      ['/preview/x', true],
      ['/ai/chat', true],
      ['/workflow/list', false],
      ['/setting/tag', false],
    ] as const) {
      const c = fakeController([item('a', UploadStatus.Uploading)]);
      const { unmount } = renderHost(c, route);
      expect([route, screen.queryByTestId('upload-panel') !== null]).toEqual([route, shown]);
      unmount();
    }
  });

  it('renders only a window of rows for 5,000 files and follows the scroll', () => {
    const many = Array.from({ length: 5000 }, (_, i) => item(`f${i}`, UploadStatus.Waiting));
    const c = fakeController(many);
    renderHost(c);
    expect(screen.getAllByTestId('upload-row').length).toBeLessThan(20);
    const list = screen.getByTestId('upload-list');
    fireEvent.scroll(list, { target: { scrollTop: 50 * 4000 } });
    const names = screen.getAllByTestId('upload-row-name').map((n) => n.textContent);
    expect(names).toContain('f4000.docx');
    expect(names.length).toBeLessThan(20);
  });
});

describe('the conflict dialog', () => {
  const conflict: UploadConflictRequest = {
    itemId: 'a',
    taskId: 't-a',
    conflictInfo: { fileName: '报告.docx' },
    conflictStrategies: STRATEGIES,
    fileInfo: { fileName: '报告.docx' },
  };

  it('offers the server strategies; the answer with apply-to-all goes back to the engine', async () => {
    const c = fakeController([item('a', UploadStatus.Paused)]);
    renderHost(c);
    c.set(c.getSnapshot().items as UploadItem[], conflict);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('文件名重复')).toBeInTheDocument();
    expect(within(dialog).getByText('报告.docx')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['新版本', '覆盖', '重命名', '跳过']);
    await userEvent.click(within(dialog).getByLabelText('覆盖'));
    await userEvent.click(within(dialog).getByText('后续上传冲突均执行此策略'));
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    expect(c.resolveConflict).toHaveBeenCalledWith({ operation: 1, operationAll: true, newFileName: undefined, fileExtension: undefined });
  });

  it('rename proposes the name with （1） and sends the whole new name; cancel leaves the queue waiting', async () => {
    const c = fakeController([item('a', UploadStatus.Paused)]);
    renderHost(c);
    c.set(c.getSnapshot().items as UploadItem[], conflict);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByLabelText('重命名'));
    expect(within(dialog).getByLabelText('重命名为')).toHaveValue('报告（1）');
    expect(within(dialog).queryByText('后续上传冲突均执行此策略')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    expect(c.resolveConflict).toHaveBeenLastCalledWith({ operation: 2, operationAll: false, newFileName: '报告（1）.docx', fileExtension: '.docx' });

    c.set(c.getSnapshot().items as UploadItem[], { ...conflict });
    const again = await screen.findByRole('dialog');
    await userEvent.click(within(again).getByRole('button', { name: /取\s?消/ }));
    expect(c.resolveConflict).toHaveBeenLastCalledWith(null);
  });

  it('with the real engine: skip for all answers both conflicts and the queue goes on', async () => {
    const server = new FakeServer();
    server.existing = new Set(['一.txt', '二.txt']);
    const engine = new UploadEngine({
      transport: server,
      hasher: createHasher({ createWorker: null, between: () => Promise.resolve() }),
      tasks: createTaskStore(),
      notify: { error: jest.fn(), warning: jest.fn() },
      yieldToUi: () => Promise.resolve(),
    });
    renderHost(engine);
    await act(async () => {
      await engine.add([new File(['1'], '一.txt'), new File(['2'], '二.txt'), new File(['3'], '三.txt')], { wjFileId: '42' });
    });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('一.txt')).toBeInTheDocument();
    expect(status()).toBe('全部暂停');
    await userEvent.click(within(dialog).getByLabelText('跳过'));
    await userEvent.click(within(dialog).getByText('后续上传冲突均执行此策略'));
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s?定/ }));
    await waitFor(() => expect(status()).toBe('全部上传成功'));
    expect(screen.getAllByTestId('upload-row-status').map((s) => s.textContent)).toEqual(['已跳过', '已跳过', '上传成功']);
    expect(server.of('merge')).toHaveLength(1);
  });
});

describe('the drag mask and drops', () => {
  const dragData = (extra: object = {}) => ({ dataTransfer: { types: ['Files'], dropEffect: 'none', items: [], files: [], ...extra } });

  it('no drop target: no mask, but the browser is kept from opening the file', () => {
    renderHost(fakeController());
    const prepare = jest.spyOn(uploads, 'prepare');
    fireEvent.dragEnter(window, dragData());
    expect(screen.queryByTestId('upload-drag-mask')).toBeNull();
    expect(prepare).not.toHaveBeenCalled();
    prepare.mockRestore();
    expect(fireEvent.dragOver(window, dragData())).toBe(false);
    expect(fireEvent.drop(window, dragData())).toBe(false);
  });

  it('with a drop target: the mask with its texts while files are over the window', async () => {
    renderHost(fakeController());
    act(() => uploads.setDropTarget({ wjFileId: '42', namePath: '/个人文件/资料' }));
    const prepare = jest.spyOn(uploads, 'prepare');
    fireEvent.dragEnter(window, dragData());
    // files on their way: the engine gets ready for them (once, however deep the drag goes)
    fireEvent.dragEnter(window, dragData());
    expect(prepare).toHaveBeenCalledTimes(1);
    prepare.mockRestore();
    fireEvent.dragLeave(window, dragData());
    const mask = await screen.findByTestId('upload-drag-mask');
    expect(mask).toHaveTextContent('松开鼠标，将文件或文件夹上传到当前文件夹');
    expect(mask).toHaveTextContent('文件夹中以“.”开头的隐藏文件也会一并上传');
    expect(mask).toHaveTextContent('一次上传超过 500 个文件时，页面可能会出现卡顿');
    fireEvent.dragLeave(window, dragData());
    expect(screen.queryByTestId('upload-drag-mask')).toBeNull();
    // dragging something that is not files (a row being reordered) shows nothing
    fireEvent.dragEnter(window, { dataTransfer: { types: ['text/plain'] } });
    expect(screen.queryByTestId('upload-drag-mask')).toBeNull();
  });

  it('elsewhere (/workflow) neither mask nor interference', () => {
    renderHost(fakeController(), '/workflow/list');
    act(() => uploads.setDropTarget({ wjFileId: '42' }));
    fireEvent.dragEnter(window, dragData());
    expect(screen.queryByTestId('upload-drag-mask')).toBeNull();
    expect(fireEvent.dragOver(window, dragData())).toBe(true);
  });

  it('a dropped folder goes to the drop target with relative paths, 50 files at a time, its empty folders after', async () => {
    const c = fakeController();
    renderHost(c);
    const target = { wjFileId: '42', idPath: '2/42' };
    act(() => uploads.setDropTarget(target));
    const files: object[] = Array.from({ length: 60 }, (_, i) => ({
      isFile: true,
      isDirectory: false,
      name: `${i}.txt`,
      file: (ok: (f: File) => void) => ok(new File(['x'], `${i}.txt`)),
    }));
    files.push({ isFile: false, isDirectory: true, name: '空', createReader: () => ({ readEntries: (ok: (e: unknown[]) => void) => ok([]) }) });
    let read = 0;
    const folder = {
      isFile: false,
      isDirectory: true,
      name: '项目',
      createReader: () => ({
        readEntries: (ok: (e: unknown[]) => void) => {
          const batch = files.slice(read, read + 25);
          read += 25;
          ok(batch);
        },
      }),
    };
    fireEvent.dragEnter(window, dragData());
    fireEvent.drop(window, dragData({ items: [{ kind: 'file', webkitGetAsEntry: () => folder }] }));
    expect(screen.queryByTestId('upload-drag-mask')).toBeNull();
    await waitFor(() => expect(c.add).toHaveBeenCalledTimes(2));
    const [first, second] = c.add.mock.calls as unknown as Array<[Array<{ relativePath: string }>, unknown, unknown]>;
    expect(first[0]).toHaveLength(50);
    expect(second[0]).toHaveLength(10);
    expect(first[0][0].relativePath).toBe('项目/0.txt');
    expect(second[0][9].relativePath).toBe('项目/59.txt');
    expect(first[1]).toEqual(target);
    expect(first[2]).toEqual({ quiet: true });
    await waitFor(() => expect(c.addFolders).toHaveBeenCalledWith(['项目/空'], target));
  });
});

describe('the leave-page guard', () => {
  const leave = () => window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

  it('asks only while files wait or are being sent', () => {
    const c = fakeController([item('a', UploadStatus.Uploading)]);
    renderHost(c);
    expect(leave()).toBe(false);
    c.set([item('a', UploadStatus.Paused)]);
    expect(leave()).toBe(true);
    c.set([item('a', UploadStatus.Waiting)]);
    expect(leave()).toBe(false);
    c.set([item('a', UploadStatus.Success)]);
    expect(leave()).toBe(true);
  });
});
