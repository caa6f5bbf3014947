// Upload limits that protect the disk and the other users: an open session reserves its
// declared size against the personal quota when it is made (released when it ends, is given
// up or expires), one person holds a bounded number of unfinished sessions and declared bytes,
// and a chunk being written holds its row, so that a merge never starts while a chunk is still
// being written into the staging file, on any instance.
import crypto from 'node:crypto';
import type { App } from '../src/app';
import { call, databaseKinds, login, ok, startServer, userWithToken, type TestServer } from './support/harness';
import { chunkOf, createTask, md5, merge, multipartBody, sendChunk } from './support/uploads';

const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

describe.each(databaseKinds())('upload limits (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const app = () => server.app;

  beforeAll(async () => {
    server = await startServer(kind);
    server.app.services.uploads.limits.chunkSize = CHUNK;
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const personalRoot = async (token: string) => (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id as string;
  const setQuota = (personalQuota: number) => ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota } });

  test('a 20 MB quota is not outrun by staging through eight sessions: each reserves its size at create', async () => {
    const u = await userWithToken(app(), adminToken);
    const root = await personalRoot(u.token);
    await setQuota(20 * MB);
    try {
      const granted: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await createTask(app(), { token: u.token }, { folderId: root, fileName: `分${i}.bin`, size: 10 * MB });
        if (res.body.code === 200) granted.push(res.body.result.fileInfo.fileId);
        else expect({ status: res.status, code: res.body.code }).toEqual({ status: 413, code: 41301 });
      }
      expect(granted).toHaveLength(2);
      expect(await ok(app(), 'GET', '/api/Account/PersonalRootUsed', { token: u.token })).toEqual({ used: 0, recycleBin: 0, uploading: 20 * MB });
      expect(await ok(app(), 'GET', '/api/Account/PersonalRootPolicy', { token: u.token })).toEqual({ quota: 20 * MB, unlimited: false });
      // an expired session reserves nothing: the sweep's time-to-live passes for one of them
      await app().db.updateTable('upload_sessions').set({ updated_at: Date.now() - app().services.uploads.limits.sessionTtlMs - 1000 }).where('id', '=', granted[0]).execute();
      expect((await ok(app(), 'GET', '/api/Account/PersonalRootUsed', { token: u.token })).uploading).toBe(10 * MB);
      expect((await createTask(app(), { token: u.token }, { folderId: root, fileName: '再来.bin', size: 10 * MB })).body.code).toBe(200);
    } finally {
      await setQuota(0);
    }
  });

  test('without a quota, one person may hold only so many unfinished sessions and declared bytes', async () => {
    const limits = app().services.uploads.limits;
    const saved = { ...limits };
    limits.maxOpenSessions = 5;
    limits.maxPendingBytes = 12 * 1024 ** 3;
    try {
      const u = await userWithToken(app(), adminToken);
      const root = await personalRoot(u.token);
      const other = await userWithToken(app(), adminToken);
      // 3.5 GB declared each: the fourth would pass 12 GB
      const big = [];
      for (let i = 0; i < 4; i++) big.push(await createTask(app(), { token: u.token }, { folderId: root, fileName: `大${i}.bin`, size: 3.5 * 1024 ** 3 }));
      expect(big.map((r) => r.body.code)).toEqual([200, 200, 200, 41303]);
      expect(big[3].status).toBe(413);
      expect(big[3].body.message).toMatch(/未完成的上传合计不能超过 12(\.0)? GB/);
      // small ones up to the count
      const small = [];
      for (let i = 0; i < 3; i++) small.push(await createTask(app(), { token: u.token }, { folderId: root, fileName: `小${i}.bin`, size: 10 }));
      expect(small.map((r) => r.body.code)).toEqual([200, 200, 42902]);
      expect(small[2].status).toBe(429);
      expect(small[2].body.message).toMatch(/未完成的上传任务过多（最多 5 个）/);
      // someone else is not held back by it
      expect((await createTask(app(), { token: other.token }, { folderId: await personalRoot(other.token), fileName: 'x.bin', size: 10 })).body.code).toBe(200);
      // a session given up frees its place at once; a finished one too
      const first = big[0].body.result.fileInfo.fileId;
      expect(await ok(app(), 'DELETE', `/api/User/FileTransfer/UploadSessions/${first}`, { token: u.token })).toEqual({ removed: true });
      expect((await call(app(), 'DELETE', `/api/User/FileTransfer/UploadSessions/${first}`, { token: u.token })).status).toBe(404);
      // nobody else can give it up
      const second = big[1].body.result.fileInfo.fileId;
      expect((await call(app(), 'DELETE', `/api/User/FileTransfer/UploadSessions/${second}`, { token: other.token })).status).toBe(404);
      const again = await createTask(app(), { token: u.token }, { folderId: root, fileName: '小再.bin', size: 10 });
      expect(again.body.code).toBe(200);
      const content = Buffer.from('0123456789');
      const id = again.body.result.fileInfo.fileId;
      await sendChunk(app(), { token: u.token }, id, 1, content, { chunkSize: CHUNK, totalSize: 10 });
      expect((await merge(app(), { token: u.token }, id, md5(content))).body.code).toBe(200);
      expect(await ok(app(), 'DELETE', `/api/User/FileTransfer/UploadSessions/${id}`, { token: u.token })).toEqual({ removed: false });
      expect((await createTask(app(), { token: u.token }, { folderId: root, fileName: '小又.bin', size: 10 })).body.code).toBe(200);
    } finally {
      Object.assign(limits, saved);
    }
  });

  /** Streams a chunk whose body arrives slowly, through `target` (an app); resolves with the reply. */
  async function slowChunk(target: App, token: string, fileId: string, n: number, data: Buffer, totalSize: number) {
    const fields = { chunkNumber: n, totalChunks: Math.ceil(totalSize / CHUNK), chunkSize: CHUNK, currentChunkSize: data.length, totalSize, identifier: 'x', filename: 'r.bin', relativePath: 'r.bin' };
    const { payload, contentType } = await multipartBody(fields, data, 'r.bin');
    const address = await target.listen({ port: 0, host: '127.0.0.1' }).catch(() => `http://127.0.0.1:${(target.server.address() as { port: number }).port}`);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const half = Math.floor(payload.length / 2);
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(payload.subarray(0, half));
        await gate;
        controller.enqueue(payload.subarray(half));
        controller.close();
      },
    });
    const reply = fetch(`${address}/api/User/FileTransfer/UploadChunk2?fileId=${fileId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': String(payload.length) },
      body,
      duplex: 'half',
    } as RequestInit).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    return { reply, release };
  }

  test('two instances: a chunk still being written keeps the same chunk elsewhere and the merge waiting, so the stored file is what was hashed', async () => {
    const second = await server.restart();
    second.services.uploads.limits.chunkSize = CHUNK;
    const u = await userWithToken(app(), adminToken);
    const root = await personalRoot(u.token);
    const content = crypto.randomBytes(3 * CHUNK);
    const other = Buffer.from(content);
    other.fill(0x5a, CHUNK, 2 * CHUNK); // chunk 2 as a slow re-send would carry it, different bytes
    const fileId = (await createTask(app(), { token: u.token }, { folderId: root, fileName: '竞争.bin', size: content.length })).body.result.fileInfo.fileId;
    for (const n of [1, 3]) expect((await sendChunk(app(), { token: u.token }, fileId, n, chunkOf(content, n, CHUNK), { chunkSize: CHUNK, totalSize: content.length })).body.code).toBe(200);

    // instance A starts writing chunk 2 (the other bytes) and stalls half-way
    const slow = await slowChunk(app(), u.token, fileId, 2, chunkOf(other, 2, CHUNK), content.length);
    await new Promise((r) => setTimeout(r, 500));
    // instance B: the same chunk, whole; it waits for A's write instead of writing beside it
    const fast = sendChunk(second, { token: u.token }, fileId, 2, chunkOf(content, 2, CHUNK), { chunkSize: CHUNK, totalSize: content.length, chunkHash: null });
    await new Promise((r) => setTimeout(r, 500));
    // B cannot merge while A writes
    const early = await merge(second, { token: u.token }, fileId, md5(content));
    expect({ status: early.status, code: early.body.code }).toEqual({ status: 409, code: 40902 });
    slow.release();
    expect((await slow.reply).status).toBe(200);
    // B saw A's chunk received, read its own body without writing it
    expect((await fast).body.code).toBe(200);
    // what is staged is A's chunk: the merge with the other content's MD5 succeeds, and the stored bytes are those
    const merged = await merge(second, { token: u.token }, fileId, md5(other));
    expect(merged.body.code).toBe(200);
    const res = await app().inject({ method: 'GET', url: `/api/User/FileTransfer/Download/${merged.body.result.id}`, headers: { authorization: `Bearer ${u.token}` } });
    expect(md5(res.rawPayload)).toBe(md5(other));
    // no chunk can be written once the merge is done
    expect((await sendChunk(app(), { token: u.token }, fileId, 2, chunkOf(content, 2, CHUNK), { chunkSize: CHUNK, totalSize: content.length })).status).toBe(404);
  });

  test('a chunk whose writer died is taken over once its lease runs out', async () => {
    const uploads = app().services.uploads;
    const u = await userWithToken(app(), adminToken);
    const root = await personalRoot(u.token);
    const content = crypto.randomBytes(CHUNK + 10);
    const fileId = (await createTask(app(), { token: u.token }, { folderId: root, fileName: '租约.bin', size: content.length })).body.result.fileInfo.fileId;
    // a lease left by an instance that was killed while writing chunk 1
    await app().db.insertInto('upload_chunks').values({ session_id: fileId, chunk_no: 1, size: CHUNK, md5: '', created_at: Date.now(), writing_until: Date.now() + 1500 }).execute();
    const started = Date.now();
    expect((await sendChunk(app(), { token: u.token }, fileId, 1, chunkOf(content, 1, CHUNK), { chunkSize: CHUNK, totalSize: content.length })).body.code).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(uploads.limits.chunkLeaseMs + 3000);
    expect((await sendChunk(app(), { token: u.token }, fileId, 2, chunkOf(content, 2, CHUNK), { chunkSize: CHUNK, totalSize: content.length })).body.code).toBe(200);
    expect((await merge(app(), { token: u.token }, fileId, md5(content))).body.code).toBe(200);
  });

  test('a writer that lost its lease (another request took the chunk over) does not record the chunk as its own', async () => {
    const u = await userWithToken(app(), adminToken);
    const root = await personalRoot(u.token);
    const content = crypto.randomBytes(CHUNK + 10);
    const fileId = (await createTask(app(), { token: u.token }, { folderId: root, fileName: '失租.bin', size: content.length })).body.result.fileInfo.fileId;
    const slow = await slowChunk(app(), u.token, fileId, 1, chunkOf(content, 1, CHUNK), content.length);
    await new Promise((r) => setTimeout(r, 500));
    // as if this writer had stalled past its lease and another request had taken the chunk over
    await app().db.updateTable('upload_chunks').set({ writing_until: Date.now() + 600_000 }).where('session_id', '=', fileId).where('chunk_no', '=', 1).execute();
    slow.release();
    const res = await slow.reply;
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 40903 });
    // the chunk is still someone else's: not received, and no merge starts
    expect((await merge(app(), { token: u.token }, fileId, md5(content))).status).toBe(409);
  });
});
