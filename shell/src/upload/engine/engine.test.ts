import SparkMD5 from 'spark-md5';
import { ApiError, PanelStatus, UPLOAD_TEXT, UploadStatus, type UploadPath } from '@app/shared';
import { UploadEngine, type UploadEngineDeps } from './engine';
import { FakeServer } from './fakeServer';
import { createHasher, type Hasher, type HashWorker } from './hasher';
import { handleHashRequest, readArrayBuffer, resetMd5Choice, type HashMessage, type HashRequest } from './md5';
import { meterMd5 } from './meteredMd5';
import { createTaskStore } from './taskStore';
import { memoryStorage } from './memoryStorage';

const folder: UploadPath = { wjFileId: '42', type: 2, namePath: '/个人文件/资料', idPath: '2/42' };

function fileOf(content: string, name: string, lastModified = 1_700_000_000_000): File {
  return new File([content], name, { lastModified });
}

/** hex MD5 of each `chunkSize` slice of an ASCII string */
function chunkHashesOf(content: string, chunkSize: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < content.length; i += chunkSize) out.push(SparkMD5.hash(content.slice(i, i + chunkSize)));
  return out;
}

function setup(overrides: Partial<UploadEngineDeps> = {}) {
  const server = new FakeServer();
  const notify = { error: jest.fn(), warning: jest.fn() };
  let id = 0;
  const tasks = overrides.tasks ?? createTaskStore(memoryStorage());
  const engine = new UploadEngine({
    transport: server,
    hasher: createHasher({ createWorker: null, between: () => Promise.resolve() }),
    tasks,
    notify,
    createId: () => `id${(id += 1)}`,
    yieldToUi: () => Promise.resolve(),
    ...overrides,
  });
  return { engine, server, notify, tasks };
}

/** Waits (a few ms at a time) until `cond` holds: hashing reads the file asynchronously. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i += 1) await new Promise((r) => setTimeout(r, 1));
  expect(cond()).toBe(true);
}

const statuses = (engine: UploadEngine) => engine.getSnapshot().items.map((i) => i.status);

describe('one file', () => {
  it('creates the task, hashes, checks for an instant upload, sends every chunk with its ChunkHash, then merges', async () => {
    const { engine, server } = setup();
    const content = 'abcdefghij'; // chunkSize 4 → chunks of 4, 4, 2
    const [item] = await engine.add([fileOf(content, '报告.txt')], folder);
    await engine.whenIdle();

    expect(server.calls.map((c) => c.kind)).toEqual(['options', 'create', 'rapid', 'chunk', 'chunk', 'chunk', 'merge']);
    const [create] = server.of('create');
    expect(create.body).toEqual({
      folderId: '42',
      fileName: '报告.txt',
      size: 10,
      type: 2,
      strategy: null,
      relativePath: '报告.txt',
      taskId: item.taskId,
      shareId: null,
    });
    const fileHash = SparkMD5.hash(content);
    expect(server.of('rapid')).toEqual([{ kind: 'rapid', fileId: 's1', fileHash }]);
    const chunks = server.of('chunk');
    expect(chunks.map((c) => c.n)).toEqual([1, 2, 3]);
    expect(chunks.map((c) => c.hash)).toEqual(chunkHashesOf(content, 4));
    expect(chunks.map((c) => c.size)).toEqual([4, 4, 2]);
    expect(chunks[2].fields).toEqual({
      chunkNumber: 3,
      totalChunks: 3,
      chunkSize: 4,
      currentChunkSize: 2,
      totalSize: 10,
      identifier: fileHash,
      filename: '报告.txt',
      relativePath: '报告.txt',
    });
    expect(server.of('merge')).toEqual([{ kind: 'merge', fileId: 's1', fileHash, relativePath: '报告.txt' }]);
    expect(await server.wrongChunkHashes()).toEqual([]);

    const done = engine.getItem(item.id)!;
    expect(done).toMatchObject({
      status: UploadStatus.Success,
      completed: true,
      mathPro: 100,
      md5verify: 100,
      uploadedSize: 10,
      uniqueIdentifier: fileHash,
      fileId: 'item-s1',
      isMD5Compute: false,
      fileType: 'txt',
      error: false,
    });
  });

  it('is an instant upload when the server already has the content: no chunk is sent', async () => {
    const { engine, server } = setup();
    server.known.add(SparkMD5.hash('same bytes'));
    const [item] = await engine.add([fileOf('same bytes', 'a.txt')], folder);
    await engine.whenIdle();
    expect(server.of('chunk')).toHaveLength(0);
    expect(server.of('merge')).toHaveLength(0);
    expect(engine.getItem(item.id)).toMatchObject({ status: UploadStatus.Success, mathPro: 100, msg: '秒传成功' });
  });

  it('sends one empty chunk for an empty file', async () => {
    const { engine, server } = setup();
    await engine.add([fileOf('', 'empty.txt')], folder);
    await engine.whenIdle();
    expect(server.of('chunk').map((c) => [c.n, c.size, c.hash, c.fields.totalChunks])).toEqual([[1, 0, SparkMD5.hash(''), 1]]);
    expect(statuses(engine)).toEqual([UploadStatus.Success]);
  });

  it('keeps the path inside a dropped folder and marks the item as from a folder', async () => {
    const { engine, server } = setup();
    const [item] = await engine.add([{ file: fileOf('xyz', 'b.txt'), relativePath: '项目/图纸/b.txt' }], folder);
    await engine.whenIdle();
    expect(item.isFolder).toBe(true);
    expect(server.of('create')[0].body.relativePath).toBe('项目/图纸/b.txt');
    expect(server.of('merge')[0].relativePath).toBe('项目/图纸/b.txt');
  });

  it('never has more than 3 chunks in flight', async () => {
    const { engine, server } = setup();
    server.hold = true;
    await engine.add([fileOf('x'.repeat(40), 'big.bin')], folder); // 10 chunks
    await until(() => server.inFlight === 3);
    await new Promise((r) => setTimeout(r, 20));
    expect(server.inFlight).toBe(3);
    server.hold = false;
    server.release();
    await engine.whenIdle();
    expect(server.chunkNumbers().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(server.maxInFlight).toBe(3);
  });

  it('reports hashing progress as md5verify and upload progress as mathPro and uploadedSize', async () => {
    let clock = 0;
    const { engine, server } = setup({
      hasher: createHasher({ createWorker: null, sliceSize: 2, between: () => Promise.resolve() }),
      // 300 ms pass between two readings of the clock: every progress step may be shown
      now: () => (clock += 300),
    });
    const seen: Array<{ md5verify: number; mathPro: number; isMD5Compute: boolean }> = [];
    engine.subscribe(() => {
      const item = engine.getSnapshot().items[0];
      if (item) seen.push({ md5verify: item.md5verify, mathPro: item.mathPro, isMD5Compute: item.isMD5Compute });
    });
    server.options.chunkSize = 4;
    await engine.add([fileOf('abcdefgh', 'p.txt')], folder);
    await engine.whenIdle();
    const md5 = [...new Set(seen.filter((s) => s.isMD5Compute).map((s) => s.md5verify))];
    expect(md5).toEqual([0, 25, 50, 75, 100]);
    const pro = [...new Set(seen.map((s) => s.mathPro))];
    expect(pro).toEqual(expect.arrayContaining([0, 50, 99, 100]));
  });
  it('shows progress alone at most every 250 ms: a fast file reaches the panel with few updates, its states all shown', async () => {
    let clock = 0;
    const { engine, server } = setup({
      hasher: createHasher({ createWorker: null, sliceSize: 1, between: () => Promise.resolve() }),
      now: () => clock, // the clock stands still: no two progress updates may reach the panel
    });
    server.options.chunkSize = 4;
    const seen: Array<{ status: string; md5verify: number; mathPro: number; isMD5Compute: boolean }> = [];
    engine.subscribe(() => {
      const item = engine.getSnapshot().items[0];
      if (item) seen.push({ status: item.status, md5verify: item.md5verify, mathPro: item.mathPro, isMD5Compute: item.isMD5Compute });
    });
    await engine.add([fileOf('x'.repeat(200), 'p.txt')], folder); // 200 hashing steps, 50 chunks
    await engine.whenIdle();
    const hashing = seen.filter((s) => s.isMD5Compute && s.md5verify > 0 && s.md5verify < 100);
    const sending = seen.filter((s) => !s.isMD5Compute && s.status === UploadStatus.Uploading && s.mathPro > 0);
    expect(hashing.length).toBeLessThanOrEqual(1);
    expect(sending.length).toBeLessThanOrEqual(1);
    // the states and the end are always shown
    expect(seen.at(-1)).toMatchObject({ status: UploadStatus.Success, mathPro: 100, md5verify: 100 });
    expect(seen.some((s) => s.isMD5Compute && s.md5verify === 0)).toBe(true);
    expect(seen.some((s) => !s.isMD5Compute && s.md5verify === 100 && s.status === UploadStatus.Uploading)).toBe(true);
    expect(seen.length).toBeLessThan(15);
  });
});

describe('the queue', () => {
  it('sends one file at a time, in the order added', async () => {
    const { engine, server } = setup();
    await engine.add([fileOf('aaaaaaaaa', '1.txt'), fileOf('bbbbbbbbb', '2.txt'), fileOf('ccccccccc', '3.txt')], folder);
    await engine.whenIdle();
    expect(server.overlaps).toBe(0);
    // each file's calls come together: create, rapid, chunks, merge, then the next file
    const order = server.calls
      .filter((c) => c.kind !== 'options')
      .map((c) => (c.kind === 'create' ? c.body.fileName : c.kind === 'chunk' || c.kind === 'merge' || c.kind === 'rapid' ? c.fileId : ''));
    expect(order).toEqual([
      '1.txt', 's1', 's1', 's1', 's1', 's1',
      '2.txt', 's2', 's2', 's2', 's2', 's2',
      '3.txt', 's3', 's3', 's3', 's3', 's3',
    ]);
    expect(statuses(engine)).toEqual(['success', 'success', 'success']);
  });

  it('lists a large selection in batches of 50 and warns above maxFileCount', async () => {
    const yieldToUi = jest.fn(() => Promise.resolve());
    const { engine, server, notify } = setup({ yieldToUi });
    server.options.maxFileCount = 100;
    engine.pauseAll();
    const files = Array.from({ length: 120 }, (_, i) => fileOf('z', `${i}.txt`));
    const items = await engine.add(files, folder);
    expect(items).toHaveLength(120);
    expect(yieldToUi).toHaveBeenCalledTimes(2);
    expect(notify.warning).toHaveBeenCalledWith('选择的文件超过 100 个，可能会出现卡顿');
    // added while everything is paused: paused
    expect(new Set(statuses(engine))).toEqual(new Set([UploadStatus.Paused]));
    engine.cancelAll();
  });

  it('emits settled with the target folders after the queue drains', async () => {
    const { engine } = setup();
    const settled = jest.fn();
    engine.onSettled(settled);
    await engine.add([{ file: fileOf('q', 'q.txt'), relativePath: '目录/q.txt' }], folder);
    await engine.whenIdle();
    expect(settled).toHaveBeenCalledTimes(1);
    expect(settled).toHaveBeenCalledWith({ folderIds: ['42'], withFolders: true });
  });
});

describe('empty folders of a dropped folder', () => {
  it('are made below the target in one call, and the list and tree are told to refresh', async () => {
    const { engine, server, notify } = setup();
    const settled = jest.fn();
    engine.onSettled(settled);
    await engine.addFolders(['项目/输出', '项目/源码/旧', '项目/输出', ''], folder);
    expect(server.of('folders').map((c) => c.body)).toEqual([{ folderId: '42', paths: ['项目/输出', '项目/源码/旧'] }]);
    expect(server.of('folders')[0].target).toEqual({ shareId: null, accessKey: null, batchNumber: null });
    expect(settled).toHaveBeenCalledWith({ folderIds: ['42'], withFolders: true });
    expect(notify.warning).not.toHaveBeenCalled();
    // nothing new: no refresh
    settled.mockClear();
    await engine.addFolders(['项目/输出'], folder);
    expect(settled).not.toHaveBeenCalled();
  });

  it('go through the share for an external drop, 1,000 paths a call', async () => {
    const { engine, server } = setup();
    const paths = Array.from({ length: 1001 }, (_, i) => `夹/${i}`);
    await engine.addFolders(paths, { wjFileId: '7', shareId: 's1', accessKey: 'k' });
    expect(server.of('folders').map((c) => c.body.paths.length)).toEqual([1000, 1]);
    expect(server.of('folders')[0].target).toEqual({ shareId: 's1', accessKey: 'k', batchNumber: null });
  });

  it('that cannot be made are named in one warning; a refused call shows its message', async () => {
    const { engine, server, notify } = setup();
    server.blockedFolders.add('挡路');
    await engine.addFolders(['挡路/一', '挡路/二', '可以'], folder);
    expect(notify.warning).toHaveBeenCalledTimes(1);
    expect(notify.warning).toHaveBeenCalledWith(UPLOAD_TEXT.foldersFailed(2, '挡路/一', '该位置已有同名的文件'));
    expect(UPLOAD_TEXT.foldersFailed(2, '挡路/一', '该位置已有同名的文件')).toBe('2 个空文件夹未能创建，如“挡路/一”：该位置已有同名的文件');
    server.failFolders = new ApiError('目标文件夹不存在或已被删除', 404, { status: 404, serverMessage: '目标文件夹不存在或已被删除' });
    await engine.addFolders(['再来'], folder);
    expect(notify.error).toHaveBeenCalledWith('目标文件夹不存在或已被删除');
  });
});

describe('refusals before any request', () => {
  it('refuses a file of the maximum size or more with the formatted size and marks it failed', async () => {
    const { engine, server, notify } = setup();
    server.options.maxFileSize = 1024;
    server.options.chunkSize = 512;
    const big = fileOf('x'.repeat(1024), 'big.iso');
    const ok = fileOf('y'.repeat(1023), 'ok.bin');
    const [refused] = await engine.add([big, ok], folder);
    await engine.whenIdle();
    const message = '该文件超过允许的最大值（1 KB），无法上传';
    expect(refused).toMatchObject({ status: UploadStatus.Error, error: true, msg: message });
    expect(notify.error).toHaveBeenCalledWith(message);
    expect(server.of('create').map((c) => c.body.fileName)).toEqual(['ok.bin']);
    // retry cannot help a refused file
    engine.retry(refused.id);
    expect(engine.getItem(refused.id)!.status).toBe(UploadStatus.Error);
  });

  it('uses the default maximum of 5 GB in the message', async () => {
    const { engine, server } = setup();
    server.options.maxFileSize = 5_368_709_120;
    const huge = fileOf('', 'huge.iso');
    Object.defineProperty(huge, 'size', { value: 5_368_709_120 });
    const [item] = await engine.add([huge], folder);
    expect(item.msg).toBe('该文件超过允许的最大值（5 GB），无法上传');
    expect(server.of('create')).toHaveLength(0);
  });

  it('refuses a blank name and a missing name', async () => {
    const { engine, server } = setup();
    const blank = fileOf('a', '   ');
    const nameless = fileOf('a', 'x');
    Object.defineProperty(nameless, 'name', { value: undefined });
    const items = await engine.add([blank, nameless], folder);
    expect(items.map((i) => i.msg)).toEqual(['文件名无效', '文件缺少必需属性：name']);
    expect(items.every((i) => i.status === UploadStatus.Error)).toBe(true);
    await engine.whenIdle();
    expect(server.of('create')).toHaveLength(0);
  });
});

describe('name conflicts', () => {
  it('pauses everything, puts the file back first and asks; rename sends strategy 2 with the new name', async () => {
    const { engine, server } = setup();
    server.existing.add('合同.docx');
    const items = await engine.add([fileOf('conflict', '合同.docx'), fileOf('other', '其他.txt')], folder);
    await engine.whenIdle();

    const snap = engine.getSnapshot();
    expect(snap.paused).toBe(true);
    expect(snap.conflict).toEqual({
      itemId: items[0].id,
      taskId: items[0].taskId,
      conflictInfo: { fileName: '合同.docx' },
      conflictStrategies: expect.arrayContaining([{ name: '重命名', value: 2 }]),
      fileInfo: { fileName: '合同.docx' },
    });
    expect(statuses(engine)).toEqual([UploadStatus.Paused, UploadStatus.Paused]);
    expect(snap.summary).toMatchObject({ status: PanelStatus.Paused, text: '全部暂停' });
    expect(server.of('create')).toHaveLength(1);

    engine.resolveConflict({ operation: 2, newFileName: '合同（1）.docx', fileExtension: '.docx' });
    await engine.whenIdle();
    const creates = server.of('create').map((c) => [c.body.fileName, c.body.strategy]);
    // the conflicting file goes first, renamed; then the other one
    expect(creates).toEqual([
      ['合同.docx', null],
      ['合同（1）.docx', 2],
      ['其他.txt', null],
    ]);
    expect(engine.getItem(items[0].id)).toMatchObject({ status: UploadStatus.Success, fileName: '合同（1）.docx', name: '合同.docx' });
    expect(server.of('merge')[0].relativePath).toBe('合同（1）.docx');
    expect(statuses(engine)).toEqual(['success', 'success']);
  });

  it('apply-to-all answers the later conflicts without asking', async () => {
    const { engine, server } = setup();
    for (const n of ['a.txt', 'b.txt', 'c.txt']) server.existing.add(n);
    await engine.add([fileOf('1', 'a.txt'), fileOf('2', 'b.txt'), fileOf('3', 'c.txt')], folder);
    await engine.whenIdle();
    expect(engine.getSnapshot().conflict?.conflictInfo.fileName).toBe('a.txt');

    const asked: string[] = [];
    engine.subscribe(() => {
      const c = engine.getSnapshot().conflict;
      if (c && !asked.includes(c.conflictInfo.fileName)) asked.push(c.conflictInfo.fileName);
    });
    engine.resolveConflict({ operation: 0, operationAll: true });
    await engine.whenIdle();
    expect(asked).toEqual([]);
    expect(server.of('create').map((c) => [c.body.fileName, c.body.strategy])).toEqual([
      ['a.txt', null],
      ['a.txt', 0],
      ['b.txt', null],
      ['b.txt', 0],
      ['c.txt', null],
      ['c.txt', 0],
    ]);
    expect(statuses(engine)).toEqual(['success', 'success', 'success']);
  });

  it('skip marks the file successful without sending it (sent as null), and skip-all skips the later ones', async () => {
    const { engine, server } = setup();
    server.existing.add('a.txt');
    server.existing.add('b.txt');
    const items = await engine.add([fileOf('1', 'a.txt'), fileOf('2', 'b.txt'), fileOf('3', 'new.txt')], folder);
    await engine.whenIdle();
    engine.resolveConflict({ operation: 3, operationAll: true });
    await engine.whenIdle();
    expect(engine.getItem(items[0].id)).toMatchObject({ status: UploadStatus.Success, msg: '已跳过' });
    expect(engine.getItem(items[1].id)).toMatchObject({ status: UploadStatus.Success, msg: '已跳过' });
    expect(server.of('create').map((c) => [c.body.fileName, c.body.strategy])).toEqual([
      ['a.txt', null],
      ['b.txt', null],
      ['new.txt', null],
    ]);
    expect(server.of('merge')).toHaveLength(1);
    expect(engine.getSnapshot().summary.text).toBe('全部上传成功');
  });

  it('a dismissed dialog leaves everything paused; continue asks again', async () => {
    const { engine, server } = setup();
    server.existing.add('a.txt');
    await engine.add([fileOf('1', 'a.txt')], folder);
    await engine.whenIdle();
    engine.resolveConflict(null);
    expect(engine.getSnapshot()).toMatchObject({ paused: true, conflict: null });
    engine.resumeAll();
    await engine.whenIdle();
    expect(engine.getSnapshot().conflict?.conflictInfo.fileName).toBe('a.txt');
    expect(server.of('create')).toHaveLength(2);
  });
});

describe('failures and retries', () => {
  afterEach(() => jest.useRealTimers());

  it('retries a failing chunk twice, 5 s apart, then fails the file; retry resumes with the missing chunks only', async () => {
    const content = 'abcdefghijkl'; // 3 chunks of 4
    // answers at once (reading a file takes real time, not the fake time of this test)
    const file = fileOf(content, 'r.txt');
    const starts = new WeakMap<Blob, number>();
    const slice = file.slice.bind(file);
    file.slice = ((start = 0, end?: number) => {
      const piece = slice(start, end);
      starts.set(piece, start);
      return piece;
    }) as Blob['slice'];
    const hasher: Hasher = {
      hash: jest.fn(async () => SparkMD5.hash(content)),
      hashChunk: jest.fn(async (piece: Blob) => SparkMD5.hash(content.slice(starts.get(piece), starts.get(piece)! + piece.size))),
      release: jest.fn(),
    };
    jest.useFakeTimers({ now: 1_000_000 });
    const { engine, server } = setup({ hasher });
    server.failChunk = (n) => n === 2;
    const [item] = await engine.add([file], folder);
    const idle = engine.whenIdle();

    await jest.advanceTimersByTimeAsync(0);
    expect(server.chunkNumbers().filter((n) => n === 2)).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(4_999);
    expect(server.chunkNumbers().filter((n) => n === 2)).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(server.chunkNumbers().filter((n) => n === 2)).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(5_000);
    await idle;

    const second = server.of('chunk').filter((c) => c.n === 2);
    expect(second).toHaveLength(3);
    expect(second[1].at - second[0].at).toBe(5_000);
    expect(second[2].at - second[1].at).toBe(5_000);
    expect(engine.getItem(item.id)).toMatchObject({ status: UploadStatus.Error, error: true, msg: '服务器繁忙' });
    expect(engine.getSnapshot().summary).toMatchObject({ status: PanelStatus.Error, text: '部分文件上传失败' });

    // a chunk sent again is not hashed again
    expect(hasher.hashChunk).toHaveBeenCalledTimes(3);

    // retry: the same session, only the chunk the server lacks, no second hashing
    server.failChunk = null;
    const sentBefore = server.of('chunk').length;
    engine.retry(item.id);
    expect(engine.getItem(item.id)).toMatchObject({ status: UploadStatus.Uploading, mathPro: expect.any(Number), error: false, msg: '' });
    await jest.advanceTimersByTimeAsync(0);
    await engine.whenIdle();
    expect(server.of('create').map((c) => c.body.taskId)).toEqual([item.taskId, item.taskId]);
    expect(server.of('chunk').slice(sentBefore).map((c) => c.n)).toEqual([2]);
    expect(hasher.hash).toHaveBeenCalledTimes(1);
    expect(hasher.hashChunk).toHaveBeenCalledTimes(3);
    expect(engine.getItem(item.id)!.status).toBe(UploadStatus.Success);
    jest.useRealTimers();
    expect(await server.wrongChunkHashes()).toEqual([]);
  });

  it('retry-all requeues every failed file and the queue goes on past a failure', async () => {
    const { engine, server } = setup({ retries: 0 });
    server.failChunk = () => true;
    await engine.add([fileOf('aaaa', 'a.txt'), fileOf('bbbb', 'b.txt')], folder);
    await engine.whenIdle();
    expect(statuses(engine)).toEqual(['error', 'error']);
    server.failChunk = null;
    engine.retryAll();
    await engine.whenIdle();
    expect(statuses(engine)).toEqual(['success', 'success']);
  });

  it('shows the server message of a failed create call, 未知错误 without one, and the merge result title', async () => {
    const { ApiError } = jest.requireActual('@app/shared') as typeof import('@app/shared');
    const { engine, server } = setup();
    server.createTask = jest
      .fn()
      .mockRejectedValueOnce(new ApiError('无权限', 40301, { serverMessage: '没有上传权限' }))
      .mockRejectedValueOnce(new Error('boom'))
      .mockImplementation(FakeServer.prototype.createTask.bind(server));
    server.merge = jest.fn().mockRejectedValue(new ApiError('请求出错', 42201, { result: { title: '文件校验失败' } }));
    await engine.add([fileOf('1', 'a.txt'), fileOf('2', 'b.txt'), fileOf('3', 'c.txt')], folder);
    await engine.whenIdle();
    expect(engine.getSnapshot().items.map((i) => i.msg)).toEqual(['没有上传权限', '未知错误', '文件校验失败']);
  });

  it('a file that cannot be read fails with 文件读取失败, while hashing it or one of its chunks', async () => {
    const unreadable = () => Promise.reject(new Error('NotReadableError'));
    const { engine } = setup({ hasher: { hash: unreadable, hashChunk: unreadable, release: () => undefined } });
    await engine.add([fileOf('1', 'a.txt')], folder);
    await engine.whenIdle();
    expect(engine.getSnapshot().items[0]).toMatchObject({ status: 'error', msg: '文件读取失败' });

    const real = createHasher({ createWorker: null, between: () => Promise.resolve() });
    const second = setup({ hasher: { ...real, hashChunk: unreadable } });
    await second.engine.add([fileOf('12345', 'b.txt')], folder);
    await second.engine.whenIdle();
    expect(second.engine.getSnapshot().items[0]).toMatchObject({ status: 'error', msg: '文件读取失败' });
    // a chunk that cannot be read is not sent
    expect(second.server.of('chunk')).toHaveLength(0);
  });

  it('a create answer without a session fails with 文件信息无效', async () => {
    const { engine, server } = setup();
    server.createTask = jest.fn(async () => ({ conflictType: 0, fileInfo: null }));
    await engine.add([fileOf('1', 'a.txt')], folder);
    await engine.whenIdle();
    expect(engine.getSnapshot().items[0].msg).toBe('文件信息无效');
  });
});

describe('pause, continue, cancel and close', () => {
  it('pause-all stops the file being sent; continue resumes it and sends only the missing chunks', async () => {
    const { engine, server } = setup();
    server.hold = true;
    const items = await engine.add([fileOf('x'.repeat(20), 'a.bin'), fileOf('yyyy', 'b.bin')], folder);
    await until(() => server.inFlight === 3);
    server.release(); // chunks 1-3 arrive; 4 and 5 start and wait
    await until(() => server.inFlight === 2);

    engine.pauseAll();
    expect(statuses(engine)).toEqual([UploadStatus.Paused, UploadStatus.Paused]);
    expect(engine.getSnapshot().summary).toMatchObject({ status: PanelStatus.Paused, text: '全部暂停' });
    await engine.whenIdle();
    const sentBefore = server.chunkNumbers('s1');
    expect(new Set(server.sessions.get(items[0].taskId)!.chunks)).toEqual(new Set([1, 2, 3]));

    server.hold = false;
    engine.resumeAll();
    await engine.whenIdle();
    const resumed = server.chunkNumbers('s1').slice(sentBefore.length);
    expect(resumed.sort()).toEqual([4, 5]);
    expect(statuses(engine)).toEqual(['success', 'success']);
  });

  it('close resets without asking when everything succeeded, and asks otherwise', async () => {
    const { engine, server } = setup();
    await engine.add([fileOf('1', 'a.txt')], folder);
    await engine.whenIdle();
    const never = jest.fn(() => false);
    expect(await engine.close(never)).toBe(true);
    expect(never).not.toHaveBeenCalled();
    expect(engine.getSnapshot().items).toEqual([]);

    server.hold = true;
    await engine.add([fileOf('2222', 'b.txt')], folder);
    const refuse = jest.fn(() => false);
    expect(await engine.close(refuse)).toBe(false);
    expect(refuse).toHaveBeenCalled();
    expect(engine.getSnapshot().items).toHaveLength(1);
    expect(await engine.close(async () => true)).toBe(true);
    expect(engine.getSnapshot()).toMatchObject({ items: [], summary: { status: PanelStatus.Idle, text: '' } });
    await engine.whenIdle();
  });

  it('cancel takes one file off the list and the next one goes on', async () => {
    const { engine, server, tasks } = setup();
    server.hold = true;
    const items = await engine.add([fileOf('1111', 'a.txt'), fileOf('2222', 'b.txt')], folder);
    await until(() => server.inFlight === 1);
    expect(tasks.list().map((t) => t.taskId)).toEqual([items[0].taskId]);
    server.hold = false;
    engine.cancel(items[0].id);
    await engine.whenIdle();
    expect(engine.getSnapshot().items.map((i) => [i.name, i.status])).toEqual([['b.txt', 'success']]);
    expect(tasks.list()).toEqual([]);
  });

  it('a cancelled upload that had a session tells the server to give it up; a finished one does not', async () => {
    const { engine, server } = setup();
    server.hold = true;
    const items = await engine.add([fileOf('1111', 'a.txt'), fileOf('2222', 'b.txt')], folder);
    await until(() => server.inFlight === 1);
    const fileId = engine.getItem(items[0].id)!.fileId;
    expect(fileId).toBeTruthy();
    server.hold = false;
    engine.cancel(items[0].id);
    await engine.whenIdle();
    expect(server.of('abandon')).toEqual([{ kind: 'abandon', fileId, target: { shareId: null, accessKey: null, batchNumber: null } }]);
    // b.txt finished: closing the list gives nothing up
    expect(await engine.close(async () => true)).toBe(true);
    expect(server.of('abandon')).toHaveLength(1);
  });

  it('isBusy while files wait or are sent', async () => {
    const { engine, server } = setup();
    server.hold = true;
    expect(engine.isBusy()).toBe(false);
    await engine.add([fileOf('1', 'a.txt')], folder);
    expect(engine.isBusy()).toBe(true);
    engine.pauseAll();
    expect(engine.isBusy()).toBe(false);
    engine.cancelAll();
  });
});

describe('resume after a reload', () => {
  it('re-adding the same file finds its session by taskId and sends only the missing chunks', async () => {
    const storage = memoryStorage();
    const first = setup({ tasks: createTaskStore(storage), retries: 0 });
    first.server.failChunk = (n) => n >= 3;
    const content = 'abcdefghijklmnop'; // 4 chunks
    const [before] = await first.engine.add([fileOf(content, '视频.mp4', 123)], folder);
    await first.engine.whenIdle();
    expect(first.engine.getItem(before.id)!.status).toBe(UploadStatus.Error);
    const held = [...first.server.sessions.get(before.taskId)!.chunks].sort();
    expect(held).toEqual([1, 2]);

    // a new page: a new engine on the same storage and the same server
    const second = setup({ tasks: createTaskStore(storage), transport: first.server });
    first.server.failChunk = null;
    const sentBefore = first.server.of('chunk').length;
    const [after] = await second.engine.add([fileOf(content, '视频.mp4', 123)], folder);
    expect(after.taskId).toBe(before.taskId);
    await second.engine.whenIdle();
    expect(first.server.of('chunk').slice(sentBefore).map((c) => c.n).sort()).toEqual([3, 4]);
    expect(second.engine.getItem(after.id)!.status).toBe(UploadStatus.Success);
    // finished sessions are forgotten
    expect(createTaskStore(storage).list()).toEqual([]);
  });

  it('a different file, another folder or a second copy in the same list gets a new session', async () => {
    const storage = memoryStorage();
    const tasks = createTaskStore(storage);
    tasks.save({ taskId: 'old', folderId: '42', shareId: null, name: 'a.txt', size: 4, lastModified: 1, relativePath: 'a.txt', fileId: 's9', savedAt: 0 });
    const { engine } = setup({ tasks });
    engine.pauseAll();
    const [same, copy] = await engine.add([fileOf('1234', 'a.txt', 1), fileOf('1234', 'a.txt', 1)], folder);
    const [changed] = await engine.add([fileOf('1234', 'a.txt', 2)], folder);
    const [elsewhere] = await engine.add([fileOf('1234', 'a.txt', 1)], { wjFileId: '7' });
    expect(same.taskId).toBe('old');
    expect([copy.taskId, changed.taskId, elsewhere.taskId]).not.toContain('old');
    engine.cancelAll();
  });
});

describe('external shares', () => {
  it('sends the share id and access key with every call', async () => {
    const { engine, server } = setup();
    await engine.add([fileOf('abc', 'a.txt')], { wjFileId: '9', shareId: 'sh1', accessKey: 'k-1' });
    await engine.whenIdle();
    expect(server.of('create')[0].body.shareId).toBe('sh1');
    expect(server.of('create')[0].target).toEqual({ shareId: 'sh1', accessKey: 'k-1', batchNumber: 'sh1' });
  });
});

describe('hashing', () => {
  const inThread = () => createHasher({ createWorker: null, between: () => Promise.resolve() });

  /** A hasher that counts its calls, and the bytes fed to MD5 before the instant-upload check and after it. */
  function counted(server: FakeServer, inner: Hasher = inThread()) {
    const hasher = {
      hash: jest.fn((file: Blob, job: Parameters<Hasher['hash']>[1]) => inner.hash(file, job)),
      hashChunk: jest.fn((chunk: Blob, signal?: AbortSignal) => inner.hashChunk(chunk, signal)),
      release: jest.fn(() => inner.release()),
    };
    const bytes = { hashing: 0, sending: 0 };
    let phase: keyof typeof bytes = 'hashing';
    const meter = meterMd5();
    meter.onUpdate = (buffer) => {
      bytes[phase] += buffer.byteLength;
    };
    const checkRapid = server.checkRapid.bind(server);
    let rapidOrder = Infinity;
    let callsAtRapid = -1;
    const marker = jest.fn();
    server.checkRapid = (body) => {
      phase = 'sending';
      marker();
      rapidOrder = marker.mock.invocationCallOrder[0];
      callsAtRapid = hasher.hashChunk.mock.calls.length;
      return checkRapid(body);
    };
    return {
      hasher,
      bytes,
      rapidCheckedAt: () => rapidOrder,
      hashChunkCallsAtRapid: () => callsAtRapid,
      restore: () => resetMd5Choice(),
    };
  }

  it('hashes each byte once for the file hash and once for its chunk hash, the chunks while the file hash runs', async () => {
    const server = new FakeServer();
    const count = counted(server);
    try {
      const { engine } = setup({ transport: server, hasher: count.hasher });
      const content = 'abcdefghijklmnopqrstuvw'; // 6 chunks of 4, the last of 3
      await engine.add([fileOf(content, 'h.txt')], folder);
      await engine.whenIdle();
      expect(count.bytes.hashing + count.bytes.sending).toBe(2 * content.length);
      // chunk hashes start with the file hash, not after it
      expect(count.hasher.hashChunk.mock.invocationCallOrder[0]).toBeLessThan(count.rapidCheckedAt());
      expect(count.hasher.hash).toHaveBeenCalledTimes(1);
      expect(count.hasher.hashChunk.mock.calls.map(([chunk]) => chunk.size)).toEqual([4, 4, 4, 4, 4, 3]);
      expect(server.of('chunk').map((c) => c.hash).sort()).toEqual(chunkHashesOf(content, 4).sort());
      expect(await server.wrongChunkHashes()).toEqual([]);
      expect(statuses(engine)).toEqual([UploadStatus.Success]);
    } finally {
      count.restore();
    }
  });

  it('an instant upload stops hashing chunks ahead and sends none', async () => {
    const server = new FakeServer();
    const count = counted(server);
    try {
      const { engine } = setup({ transport: server, hasher: count.hasher });
      const content = 'x'.repeat(30);
      server.known.add(SparkMD5.hash(content));
      await engine.add([fileOf(content, 'same.bin')], folder);
      await engine.whenIdle();
      expect(engine.getSnapshot().items[0]).toMatchObject({ status: UploadStatus.Success, msg: '秒传成功' });
      // 8 chunks of 4: whatever was hashed ahead stops at the instant check
      const callsAtCheck = count.hashChunkCallsAtRapid();
      expect(callsAtCheck).toBeLessThanOrEqual(8);
      expect(count.hasher.hashChunk.mock.calls.length).toBeLessThanOrEqual(callsAtCheck + 1);
      expect(server.of('chunk')).toHaveLength(0);
      expect(count.bytes.hashing).toBeGreaterThanOrEqual(30);
    } finally {
      count.restore();
    }
  });

  it('a resumed upload hashes only the chunks the server lacks, and their ChunkHash is right', async () => {
    const storage = memoryStorage();
    const first = setup({ tasks: createTaskStore(storage), retries: 0 });
    first.server.failChunk = (n) => n >= 4;
    const content = 'abcdefghijklmnopqrst'; // 5 chunks
    await first.engine.add([fileOf(content, '视频.mp4', 123)], folder);
    await first.engine.whenIdle();
    first.server.failChunk = null;
    const sentBefore = first.server.of('chunk').length;

    const count = counted(first.server);
    try {
      const second = setup({ tasks: createTaskStore(storage), transport: first.server, hasher: count.hasher });
      await second.engine.add([fileOf(content, '视频.mp4', 123)], folder);
      await second.engine.whenIdle();
      expect(statuses(second.engine)).toEqual([UploadStatus.Success]);
      const resent = first.server.of('chunk').slice(sentBefore);
      expect(resent.map((c) => c.n).sort()).toEqual([4, 5]);
      expect(resent.map((c) => c.hash).sort()).toEqual([SparkMD5.hash('mnop'), SparkMD5.hash('qrst')].sort());
      expect(count.hasher.hashChunk).toHaveBeenCalledTimes(2);
      expect(count.hasher.hashChunk.mock.calls.map(([chunk]) => chunk.size)).toEqual([4, 4]);
      expect(count.bytes.hashing + count.bytes.sending).toBe(20 + 8);
      expect(await first.server.wrongChunkHashes()).toEqual([]);
    } finally {
      count.restore();
    }
  });

  /** Workers that run the worker's handler on this thread. */
  function inlineWorkers() {
    const made: Array<HashWorker & { terminated: boolean; requests: HashRequest[] }> = [];
    const createWorker = () => {
      const worker = {
        onmessage: null as ((event: { data: HashMessage }) => void) | null,
        onerror: null as ((event: unknown) => void) | null,
        terminated: false,
        requests: [] as HashRequest[],
        postMessage(request: HashRequest) {
          worker.requests.push(request);
          void handleHashRequest(request, (data) => {
            if (!worker.terminated) setTimeout(() => worker.onmessage?.({ data }), 0);
          });
        },
        terminate() {
          worker.terminated = true;
        },
      };
      made.push(worker);
      return worker;
    };
    const chunkWorkers = () => made.filter((w) => w.requests.some((r) => r.type === 'chunk'));
    return { made, createWorker, chunkWorkers };
  }

  it('hashes chunks in long-lived workers (not one per chunk), ended when the queue drains', async () => {
    const workers = inlineWorkers();
    const { engine, server } = setup({ hasher: createHasher({ createWorker: workers.createWorker, chunkWorkers: 2 }) });
    const content = 'abcdefghijklmnopqrstuvwxyz0123456789ABCD'; // 10 chunks
    await engine.add([fileOf(content, 'a.bin'), fileOf('0123456789', 'b.bin')], folder);
    await engine.whenIdle();
    expect(statuses(engine)).toEqual([UploadStatus.Success, UploadStatus.Success]);
    // one worker for both files' whole-file hashes, two for the 13 chunks of both files
    const fileWorkers = workers.made.filter((w) => w.requests.some((r) => r.type === 'file'));
    expect(fileWorkers).toHaveLength(1);
    expect(fileWorkers[0].requests.map((r) => r.type)).toEqual(['file', 'file']);
    expect(workers.chunkWorkers()).toHaveLength(2);
    expect(workers.chunkWorkers().flatMap((w) => w.requests)).toHaveLength(13);
    expect(workers.made.every((w) => w.terminated)).toBe(true);
    expect(server.of('chunk').map((c) => c.hash).slice(0, 10).sort()).toEqual(chunkHashesOf(content, 4).sort());
    expect(await server.wrongChunkHashes()).toEqual([]);
  });

  it('pause-all ends the chunk workers; continue starts them again and the upload finishes', async () => {
    const workers = inlineWorkers();
    const { engine, server } = setup({ hasher: createHasher({ createWorker: workers.createWorker, chunkWorkers: 2 }) });
    server.hold = true;
    await engine.add([fileOf('x'.repeat(20), 'a.bin')], folder);
    await until(() => server.inFlight === 3);
    expect(workers.chunkWorkers().some((w) => !w.terminated)).toBe(true);
    engine.pauseAll();
    await engine.whenIdle();
    expect(workers.made.every((w) => w.terminated)).toBe(true);

    server.hold = false;
    engine.resumeAll();
    await engine.whenIdle();
    expect(statuses(engine)).toEqual([UploadStatus.Success]);
    expect(workers.made.every((w) => w.terminated)).toBe(true);
    expect(await server.wrongChunkHashes()).toEqual([]);
  });
});

describe('getting ready before files are picked', () => {
  it('fetches the options once and starts the hashing worker ahead; none while a file is being sent', async () => {
    const inner = createHasher({ createWorker: null, between: () => Promise.resolve() });
    const hasher = { ...inner, warm: jest.fn() };
    const { engine, server } = setup({ hasher });
    engine.prepare();
    engine.prepare();
    await until(() => server.of('options').length === 1);
    expect(hasher.warm).toHaveBeenCalledTimes(2);
    // the first file needs no options call of its own
    server.hold = true;
    await engine.add([fileOf('abcdefghij', 'a.txt')], folder);
    await until(() => server.of('chunk').length > 0 || statuses(engine)[0] === UploadStatus.Uploading);
    engine.prepare();
    expect(hasher.warm).toHaveBeenCalledTimes(2);
    server.hold = false;
    server.release();
    await engine.whenIdle();
    expect(statuses(engine)).toEqual([UploadStatus.Success]);
    expect(server.of('options')).toHaveLength(1);
    engine.prepare();
    expect(hasher.warm).toHaveBeenCalledTimes(3);
  });
});

describe('chunk checks off (the default) and sending while hashing', () => {
  /** A hasher whose whole-file hash answers only when `finish()` is called (or the job aborts). */
  function gatedHasher(content: string) {
    let finish: () => void = () => undefined;
    const hasher = {
      aborted: false,
      progress: null as ((percent: number) => void) | null,
      hash: jest.fn((_file: Blob, job: Parameters<Hasher['hash']>[1]) =>
        new Promise<string>((resolve, reject) => {
          hasher.progress = job.onProgress ?? null;
          finish = () => resolve(SparkMD5.hash(content));
          job.signal?.addEventListener('abort', () => {
            hasher.aborted = true;
            reject(new Error('aborted'));
          });
        }),
      ),
      hashChunk: jest.fn(async (chunk: Blob) => SparkMD5.ArrayBuffer.hash(await readArrayBuffer(chunk))),
      release: jest.fn(),
    };
    return { hasher, finish: () => finish() };
  }

  it('sends no ChunkHash and hashes no chunk when the server does not ask for chunk checks: each byte is hashed once', async () => {
    const server = new FakeServer();
    server.options.chunkCheck = false;
    const meter = meterMd5();
    try {
      const { engine } = setup({ transport: server });
      const content = 'abcdefghijklmnopqrstuvw'; // 6 chunks
      await engine.add([fileOf(content, 'h.txt')], folder);
      await engine.whenIdle();
      expect(statuses(engine)).toEqual([UploadStatus.Success]);
      expect(server.calls.map((c) => c.kind)).toEqual(['options', 'create', 'rapid', 'chunk', 'chunk', 'chunk', 'chunk', 'chunk', 'chunk', 'merge']);
      expect(server.of('chunk').map((c) => c.hash)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
      expect(meter.bytes).toBe(content.length);
      expect(await server.receivedHash('s1')).toBe(server.of('merge')[0].fileHash);
      expect(server.of('merge')[0].fileHash).toBe(SparkMD5.hash(content));
    } finally {
      resetMd5Choice();
    }
  });

  it('sends the chunks while the file is hashed when no instant upload is possible, and merges after both', async () => {
    const content = 'abcdefghijklmnopqrst'; // 5 chunks
    const { hasher, finish } = gatedHasher(content);
    const { engine, server } = setup({ hasher });
    server.options.chunkCheck = false;
    server.rapidPossible = false;
    const [item] = await engine.add([fileOf(content, '录像.mp4')], folder);
    await until(() => server.of('chunk').length === 5);
    // every chunk is on its way or sent while the hash is still being made; no merge yet
    expect(server.of('rapid')).toHaveLength(0);
    expect(server.of('merge')).toHaveLength(0);
    // the row shows the sending, not the hashing, and the hashing once it is all that is left
    await until(() => engine.getItem(item.id)!.isMD5Compute);
    expect(engine.getItem(item.id)).toMatchObject({ status: UploadStatus.Uploading, mathPro: 99, msg: UPLOAD_TEXT.hashing });
    hasher.progress?.(60);
    expect(engine.getItem(item.id)!.md5verify).toBe(60);
    finish();
    await engine.whenIdle();
    expect(server.calls.map((c) => c.kind).slice(-2)).toEqual(['rapid', 'merge']);
    // chunks sent before the hash name the session as their identifier
    expect(server.of('chunk').map((c) => c.fields.identifier)).toEqual(['s1', 's1', 's1', 's1', 's1']);
    expect(server.of('merge')[0].fileHash).toBe(SparkMD5.hash(content));
    expect(await server.receivedHash('s1')).toBe(SparkMD5.hash(content));
    expect(engine.getItem(item.id)).toMatchObject({ status: UploadStatus.Success, mathPro: 100, isMD5Compute: false, md5verify: 100 });
    expect(hasher.hashChunk).not.toHaveBeenCalled();
  });

  it('with chunk checks on, chunks sent while hashing still carry their right ChunkHash', async () => {
    const content = 'abcdefghijklmnopqrst';
    const { hasher, finish } = gatedHasher(content);
    const { engine, server } = setup({ hasher });
    server.rapidPossible = false;
    await engine.add([fileOf(content, 'c.bin')], folder);
    await until(() => server.of('chunk').length === 5);
    finish();
    await engine.whenIdle();
    expect(server.of('chunk').map((c) => c.hash)).toEqual(chunkHashesOf(content, 4));
    expect(await server.wrongChunkHashes()).toEqual([]);
    expect(statuses(engine)).toEqual([UploadStatus.Success]);
  });

  it('an instant upload that succeeds after all drops the chunks still on their way and merges nothing', async () => {
    const content = 'x'.repeat(40); // 10 chunks
    const { hasher, finish } = gatedHasher(content);
    const { engine, server } = setup({ hasher });
    server.options.chunkCheck = false;
    server.rapidPossible = false;
    server.hold = true;
    const [item] = await engine.add([fileOf(content, 'same.bin')], folder);
    await until(() => server.inFlight === 3);
    server.known.add(SparkMD5.hash(content)); // the same content landed meanwhile
    finish();
    await engine.whenIdle();
    expect(engine.getItem(item.id)).toMatchObject({ status: UploadStatus.Success, msg: '秒传成功' });
    expect(server.of('chunk')).toHaveLength(3);
    expect(server.inFlight).toBe(0);
    expect(server.of('merge')).toHaveLength(0);
  });

  it('a chunk that fails for good stops the hashing and fails the file with its message', async () => {
    const content = 'abcdefghijklmnopqrst';
    const { hasher } = gatedHasher(content);
    const { engine, server } = setup({ hasher, retries: 0 });
    server.options.chunkCheck = false;
    server.rapidPossible = false;
    server.failChunk = (n) => n === 2;
    const [item] = await engine.add([fileOf(content, 'f.bin')], folder);
    await engine.whenIdle();
    expect(engine.getItem(item.id)).toMatchObject({ status: UploadStatus.Error, msg: '服务器繁忙' });
    expect(hasher.aborted).toBe(true);
    expect(server.of('rapid')).toHaveLength(0);
    expect(server.of('merge')).toHaveLength(0);
  });

  it('sends while hashing, and asks for no instant upload, when instant uploads are off', async () => {
    const content = 'abcdefgh';
    const { hasher, finish } = gatedHasher(content);
    const { engine, server } = setup({ hasher });
    server.options.rapidUpload = false;
    await engine.add([fileOf(content, 'r.bin')], folder);
    await until(() => server.of('chunk').length === 2);
    finish();
    await engine.whenIdle();
    expect(server.calls.map((c) => c.kind)).toEqual(['options', 'create', 'chunk', 'chunk', 'merge']);
    expect(statuses(engine)).toEqual([UploadStatus.Success]);
  });

  it('starts hashing while the task is being created; a name conflict stops the hashing', async () => {
    const content = 'abcdefgh';
    const { hasher, finish } = gatedHasher(content);
    const { engine, server } = setup({ hasher });
    let answer: () => void = () => undefined;
    const createTask = server.createTask.bind(server);
    server.createTask = (...args) => new Promise((resolve) => (answer = () => resolve(createTask(...args))));
    await engine.add([fileOf(content, '已有.txt')], folder);
    await until(() => hasher.hash.mock.calls.length === 1);
    expect(server.of('create')).toHaveLength(0); // not answered yet
    answer();
    finish();
    await engine.whenIdle();
    expect(statuses(engine)).toEqual([UploadStatus.Success]);

    // the same name again: the conflict pauses everything and the hashing stops
    server.createTask = createTask;
    server.existing.add('已有.txt');
    const second = gatedHasher(content);
    const other = setup({ hasher: second.hasher, transport: server });
    await other.engine.add([fileOf(content, '已有.txt')], folder);
    await until(() => other.engine.getSnapshot().conflict !== null);
    expect(second.hasher.hash).toHaveBeenCalledTimes(1);
    expect(second.hasher.aborted).toBe(true);
    expect(statuses(other.engine)).toEqual([UploadStatus.Paused]);
  });

  it('hashes first, sending nothing, while the server says an instant upload may be had', async () => {
    const content = 'abcdefgh';
    const { hasher, finish } = gatedHasher(content);
    const { engine, server } = setup({ hasher });
    server.rapidPossible = true;
    server.known.add(SparkMD5.hash(content));
    await engine.add([fileOf(content, 'same.txt')], folder);
    await until(() => hasher.hash.mock.calls.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(server.of('chunk')).toHaveLength(0);
    finish();
    await engine.whenIdle();
    expect(server.calls.map((c) => c.kind)).toEqual(['options', 'create', 'rapid']);
    expect(engine.getSnapshot().items[0]).toMatchObject({ status: UploadStatus.Success, msg: '秒传成功' });
  });
});

describe('options', () => {
  it('falls back to the constants of spec section 9 when the options call fails', async () => {
    const { engine, server } = setup();
    server.getOptions = () => Promise.reject(new Error('offline'));
    await expect(engine.loadOptions()).resolves.toMatchObject({ chunkSize: 5_242_880, maxFileSize: 5_368_709_120, maxFileCount: 500, rapidUpload: true });
  });

  it('a large file asks for larger chunks and sends chunks of the size the server grants; a smaller one asks nothing', async () => {
    const { engine, server } = setup({ largeChunks: { from: 40, size: 16 } });
    server.options.chunkCheck = false;
    // a server that grants what is asked, up to 12 bytes, and its options' 4 without a wish
    server.grantChunkSize = (asked) => (asked ? Math.min(asked, 12) : 4);
    const large = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ'; // 46 bytes: 12, 12, 12, 10
    const small = 'abcdefghijklmnopqrstuvwxyz0123456789'; // 36 bytes, below 40: chunks of 4
    await engine.add([fileOf(large, '大.bin'), fileOf(small, '小.bin')], folder);
    await engine.whenIdle();
    const [bigCreate, smallCreate] = server.of('create');
    expect(bigCreate.body.chunkSize).toBe(16);
    expect('chunkSize' in smallCreate.body).toBe(false);
    const bigChunks = server.of('chunk').filter((c) => c.fileId === 's1');
    expect(bigChunks.map((c) => c.size)).toEqual([12, 12, 12, 10]);
    expect(bigChunks.map((c) => c.fields.chunkSize)).toEqual([12, 12, 12, 12]);
    expect(bigChunks.at(-1)!.fields).toMatchObject({ chunkNumber: 4, totalChunks: 4, currentChunkSize: 10, totalSize: 46 });
    const smallChunks = server.of('chunk').filter((c) => c.fileId === 's2');
    expect(smallChunks).toHaveLength(9);
    expect(new Set(smallChunks.map((c) => c.fields.chunkSize))).toEqual(new Set([4]));
    expect(server.of('merge').map((m) => m.fileHash)).toEqual([SparkMD5.hash(large), SparkMD5.hash(small)]);
    expect(statuses(engine)).toEqual([UploadStatus.Success, UploadStatus.Success]);
  });

  it('a server that names no chunk size (an older one) gets chunks of its options\' size, asked or not', async () => {
    const { engine, server } = setup({ largeChunks: { from: 40, size: 16 } });
    const large = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ';
    await engine.add([fileOf(large, '大.bin')], folder);
    await engine.whenIdle();
    expect(server.of('create')[0].body.chunkSize).toBe(16);
    expect(server.of('chunk').map((c) => c.fields.chunkSize)).toEqual(Array(12).fill(4));
    expect(server.of('chunk').map((c) => c.hash)).toEqual(chunkHashesOf(large, 4));
    expect(statuses(engine)).toEqual([UploadStatus.Success]);
  });

  it('a resumed task goes on in its session\'s chunk size', async () => {
    const storage = memoryStorage();
    const first = setup({ tasks: createTaskStore(storage), retries: 0, largeChunks: { from: 40, size: 16 } });
    first.server.grantChunkSize = (asked) => asked ?? 4;
    first.server.failChunk = (n) => n >= 2;
    const large = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ'; // 16, 16, 14
    const [before] = await first.engine.add([fileOf(large, '大.bin', 5)], folder);
    await first.engine.whenIdle();
    expect(first.engine.getItem(before.id)!.status).toBe(UploadStatus.Error);
    // a page whose engine would now ask for other sizes: the session's 16 still holds
    const second = setup({ tasks: createTaskStore(storage), transport: first.server, largeChunks: { from: 40, size: 32 } });
    first.server.failChunk = null;
    const sentBefore = first.server.of('chunk').length;
    const [after] = await second.engine.add([fileOf(large, '大.bin', 5)], folder);
    await second.engine.whenIdle();
    const resumed = first.server.of('chunk').slice(sentBefore);
    expect(resumed.map((c) => c.n).sort()).toEqual([2, 3]);
    expect(resumed.map((c) => [c.fields.chunkSize, c.size]).sort()).toEqual([[16, 14], [16, 16]]);
    expect(second.engine.getItem(after.id)!.status).toBe(UploadStatus.Success);
    expect(first.server.of('merge').at(-1)!.fileHash).toBe(SparkMD5.hash(large));
  });

  it('skips the instant-upload check when the server turns it off', async () => {
    const { engine, server } = setup();
    server.options.rapidUpload = false;
    await engine.add([fileOf('abc', 'a.txt')], folder);
    await engine.whenIdle();
    expect(server.calls.map((c) => c.kind)).toEqual(['options', 'create', 'chunk', 'merge']);
  });
});

describe('the shared entry point', () => {
  it('uploads.enqueue from @app/shared reaches the installed engine, and settled comes back', async () => {
    const { uploads } = jest.requireActual('@app/shared') as typeof import('@app/shared');
    const { installUploadEngine } = await import('./index');
    const { engine, server } = setup();
    const uninstall = installUploadEngine(engine);
    const settled = jest.fn();
    const off = uploads.onSettled(settled);
    await uploads.enqueue([fileOf('hello', 'h.txt')], folder);
    await engine.whenIdle();
    expect(server.of('merge')).toHaveLength(1);
    expect(settled).toHaveBeenCalledWith({ folderIds: ['42'], withFolders: false });
    // uploads.prepare (an upload menu opened) gets the installed engine ready; nothing once uninstalled
    const prepare = jest.spyOn(engine, 'prepare');
    uploads.prepare();
    expect(prepare).toHaveBeenCalledTimes(1);
    off();
    uninstall();
    uploads.prepare();
    expect(prepare).toHaveBeenCalledTimes(1);
  });
});
