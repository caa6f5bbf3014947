// A full disk: the data folder on a small tmpfs of its own. Uploads stop before they would take
// the reserve (UPLOAD_MIN_FREE_MB), so sign-in and reads keep working; a chunk that meets a
// disk filled by something else answers 507 存储空间不足, its upload's staged bytes are removed
// at once and the connection stays usable; administrators see the volume's state.
// Needs root (mount -t tmpfs): skipped with a note where the machine does not allow it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { call, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { createTask, md5, merge, multipartBody, sendChunk } from './support/uploads';

const MB = 1024 * 1024;
const CHUNK = MB;

function mountTmpfs(sizeMb: number): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    fs.rmdirSync(dir);
    return null;
  }
}

const free = (dir: string) => {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
};

/** Writes a filler file until only `leave` bytes stay free (0: until the disk is full). */
function fill(dir: string, leave: number): string {
  const file = path.join(dir, `filler-${Math.random().toString(36).slice(2)}`);
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) {
      const left = free(dir) - leave;
      if (left <= 0) break;
      fs.writeSync(fd, block, 0, Math.min(block.length, left));
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

const mountable = (() => {
  const probe = mountTmpfs(1);
  if (!probe) return false;
  execFileSync('umount', [probe]);
  fs.rmdirSync(probe);
  return true;
})();
if (!mountable) process.stdout.write('uploads-disk-full: mount -t tmpfs is not allowed here (needs root); these tests are skipped\n');

(mountable ? describe.each(databaseKinds()) : describe.skip.each(databaseKinds()))('a full disk (%s)', (kind) => {
  let server: TestServer;
  let dataDir: string;
  let token: string;
  let root: string;
  const fillers: string[] = [];

  beforeAll(async () => {
    dataDir = mountTmpfs(64)!;
    server = await startServer(kind, { env: { DATA_DIR: dataDir, UPLOAD_MIN_FREE_MB: '8' } });
    server.app.services.uploads.limits.chunkSize = CHUNK;
    token = (await login(server.app)).token;
    root = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
  });
  afterAll(async () => {
    await server?.close();
    if (dataDir) {
      execFileSync('umount', ['-l', dataDir]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
  afterEach(() => {
    for (const f of fillers.splice(0)) fs.rmSync(f, { force: true });
    server.app.services.disk.minFreeBytes = 8 * MB;
    server.app.services.disk.forget();
  });

  const staged = () => (fs.existsSync(path.join(dataDir, 'uploads')) ? fs.readdirSync(path.join(dataDir, 'uploads')).filter((n) => n.endsWith('.part')) : []);

  test('uploads stop at the reserve with 507 and a Chinese reason; sign-in, lists and downloads go on; administrators are warned', async () => {
    const small = Buffer.from('留在磁盘上的文件');
    const kept = await (async () => {
      const id = (await createTask(server.app, { token }, { folderId: root, fileName: '保留.txt', size: small.length })).body.result.fileInfo.fileId;
      await sendChunk(server.app, { token }, id, 1, small, { chunkSize: CHUNK, totalSize: small.length });
      return (await merge(server.app, { token }, id, md5(small))).body.result;
    })();
    expect((await ok(server.app, 'GET', '/api/Admin/DiskSpace', { token })).level).toBe('ok');

    fillers.push(fill(dataDir, 11 * MB));
    server.app.services.disk.forget();
    const status = await ok(server.app, 'GET', '/api/Admin/DiskSpace', { token });
    expect(status).toMatchObject({ level: 'low', minFree: 8 * MB });
    expect(status.free).toBeLessThan(12 * MB);
    // 4 MB more would eat into the 8 MB reserve
    const refused = await createTask(server.app, { token }, { folderId: root, fileName: '太大.bin', size: 4 * MB });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 507, code: 50701 });
    expect(refused.body.message).toMatch(/存储空间不足/);
    expect(staged()).toEqual([]);
    // everything else still works
    const again = await login(server.app);
    expect(again.token).toBeTruthy();
    expect((await ok(server.app, 'GET', `/api/User/Folders/${root}/Items`, { token: again.token })).items.data.map((i: any) => i.name)).toContain('保留.txt');
    const download = await server.app.inject({ method: 'GET', url: `/api/User/FileTransfer/Download/${kept.id}`, headers: { authorization: `Bearer ${again.token}` } });
    expect(download.rawPayload.equals(small)).toBe(true);
    // nearer still: full
    fillers.push(fill(dataDir, 6 * MB));
    server.app.services.disk.forget();
    expect((await ok(server.app, 'GET', '/api/Admin/DiskSpace', { token })).level).toBe('full');
    expect((await createTask(server.app, { token }, { folderId: root, fileName: '一点.txt', size: 10 })).status).toBe(507);
  });

  test('a chunk that meets a disk filled meanwhile answers 507; its staged bytes go at once and the connection answers the next request', async () => {
    // no reserve: something else fills the disk while the chunk streams in
    server.app.services.disk.minFreeBytes = 0;
    const content = Buffer.alloc(3 * MB, 7);
    const fileId = (await createTask(server.app, { token }, { folderId: root, fileName: '写满.bin', size: content.length })).body.result.fileInfo.fileId;
    const first = content.subarray(0, CHUNK);
    expect((await sendChunk(server.app, { token }, fileId, 1, first, { chunkSize: CHUNK, totalSize: content.length })).body.code).toBe(200);
    expect(staged()).toHaveLength(1);

    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (server.app.server.address() as { port: number }).port;
    const fields = { chunkNumber: 2, totalChunks: 3, chunkSize: CHUNK, currentChunkSize: CHUNK, totalSize: content.length, identifier: 'x', filename: '写满.bin', relativePath: '写满.bin' };
    const { payload, contentType } = await multipartBody(fields, content.subarray(CHUNK, 2 * CHUNK), '写满.bin');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const reply = new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: `/api/User/FileTransfer/UploadChunk2?fileId=${fileId}`, agent, headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': payload.length } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.write(payload.subarray(0, 4096));
      void gate.then(() => req.end(payload.subarray(4096)));
    });
    await new Promise((r) => setTimeout(r, 300));
    fillers.push(fill(dataDir, 0));
    release();
    const res = await reply;
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 507, code: 50701 });
    expect(res.body.message).toMatch(/存储空间不足/);
    // the failed upload's staged bytes are gone at once, not after the 24-hour sweep
    expect(staged()).toEqual([]);
    // the same keep-alive connection answers the next request
    const next = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'GET', path: '/api/User/Home', agent, headers: { authorization: `Bearer ${token}` } },
        (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode!));
        },
      );
      req.setTimeout(5000, () => reject(new Error('no answer on the same connection')));
      req.on('error', reject);
      req.end();
    });
    expect(next).toBe(200);
    agent.destroy();
    // and the session is gone: its chunks cannot be sent on
    expect((await sendChunk(server.app, { token }, fileId, 3, content.subarray(2 * CHUNK), { chunkSize: CHUNK, totalSize: content.length })).status).toBe(404);
    // sign-in still works on the full disk (the freed staging file made room for it)
    expect((await call(server.app, 'POST', '/api/login', { body: { userName: 'admin', password: 'Test-Admin-Passw0rd!', mode: 'password' } })).status).toBe(200);
  });
});
