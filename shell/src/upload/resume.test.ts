// Rows a reload broke off: listed again for the same user, waiting for their file.
import { UploadStatus, type UploadPath } from '@app/shared';
import { UploadEngine, type UploadEngineDeps } from './engine/engine';
import { FakeServer } from './engine/fakeServer';
import { createHasher } from './engine/hasher';
import { createTaskStore } from './engine/taskStore';
import { memoryStorage } from './engine/memoryStorage';

const folder: UploadPath = { wjFileId: '42', type: 2, namePath: '/个人文件/资料', idPath: '2/42' };
const content = 'abcdefghijklmnop'; // 4 chunks of 4
const fileOf = (text = content, name = '视频.mp4') => new File([text], name, { lastModified: 123 });

function engineOn(server: FakeServer, storage: ReturnType<typeof memoryStorage>, owner: string | null, extra: Partial<UploadEngineDeps> = {}) {
  let id = 0;
  return new UploadEngine({
    transport: server,
    hasher: createHasher({ createWorker: null, between: () => Promise.resolve() }),
    tasks: createTaskStore(storage),
    notify: { error: jest.fn(), warning: jest.fn() },
    createId: () => `${owner}-${(id += 1)}`,
    yieldToUi: () => Promise.resolve(),
    owner: () => owner,
    retries: 0,
    ...extra,
  });
}

/** A first page that held chunks 1 and 2 when it went away. */
async function brokenOff(server: FakeServer, storage: ReturnType<typeof memoryStorage>) {
  const first = engineOn(server, storage, 'u1');
  server.failChunk = (n) => n >= 3;
  const [item] = await first.add([fileOf()], folder);
  await first.whenIdle();
  server.failChunk = null;
  return item;
}

describe('resume after a reload', () => {
  it('lists the unfinished upload again, paused and asking for the file; continue cannot start it', async () => {
    const server = new FakeServer();
    const storage = memoryStorage();
    const before = await brokenOff(server, storage);

    const page = engineOn(server, storage, 'u1');
    expect(page.restore()).toBe(1);
    const [row] = page.getSnapshot().items;
    expect(row).toMatchObject({ name: '视频.mp4', taskId: before.taskId, status: UploadStatus.Paused, needsFile: true, relativePath: '视频.mp4' });
    expect(row.msg).toBe('页面已刷新，请重新选择该文件以继续上传');
    expect(row.path).toMatchObject({ wjFileId: '42', idPath: '2/42', accessKey: null });
    page.resumeAll();
    page.resume(row.id);
    expect(page.getItem(row.id)!.status).toBe(UploadStatus.Paused);
    expect(page.isBusy()).toBe(false);
    // restoring twice lists it once
    expect(page.restore()).toBe(0);
  });

  it('another user sees nothing', async () => {
    const server = new FakeServer();
    const storage = memoryStorage();
    await brokenOff(server, storage);
    expect(engineOn(server, storage, 'u2').restore()).toBe(0);
    expect(engineOn(server, storage, null).restore()).toBe(0);
  });

  it('the file picked again for its row resumes the session and sends only the missing chunks', async () => {
    const server = new FakeServer();
    const storage = memoryStorage();
    await brokenOff(server, storage);
    const page = engineOn(server, storage, 'u1');
    page.restore();
    const [row] = page.getSnapshot().items;
    expect(page.reattach(row.id, fileOf('abc', '视频.mp4'))).toBe(false);
    expect(page.reattach(row.id, fileOf(content, '别的.mp4'))).toBe(false);
    const sent = server.of('chunk').length;
    expect(page.reattach(row.id, fileOf())).toBe(true);
    await page.whenIdle();
    expect(page.getItem(row.id)).toMatchObject({ status: UploadStatus.Success, needsFile: false });
    expect(server.of('chunk').slice(sent).map((c) => c.n).sort()).toEqual([3, 4]);
  });

  it('the same file added to the same folder replaces its row; settled is not held back by rows still waiting for a file', async () => {
    const server = new FakeServer();
    const storage = memoryStorage();
    await brokenOff(server, storage);
    const page = engineOn(server, storage, 'u1');
    page.restore();
    const settled = jest.fn();
    page.onSettled(settled);
    const [added] = await page.add([fileOf()], folder);
    await page.whenIdle();
    expect(page.getSnapshot().items).toHaveLength(1);
    expect(page.getItem(added.id)!.status).toBe(UploadStatus.Success);
    expect(settled).toHaveBeenCalledTimes(1);
  });

  it('sign-out empties the list but keeps the sessions for the next sign-in', async () => {
    const server = new FakeServer();
    const storage = memoryStorage();
    await brokenOff(server, storage);
    const page = engineOn(server, storage, 'u1');
    page.restore();
    page.suspend();
    expect(page.getSnapshot().items).toHaveLength(0);
    expect(page.restore()).toBe(1);
  });
});
