// 云文档 uploads survive kill -9: the real server runs as a child process on a temporary
// DATA_DIR (and database); it is killed with SIGKILL while a chunk streams in and while a merge
// runs, started again, and the upload resumes from exactly what uploadedChunks says. The
// stored content is compared byte for byte.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { api, CHILD_ADMIN_PASSWORD, childData, type ChildData, type ChildServer } from './support/child-server';
import { chunkCount, chunkOf, md5, multipartBody } from './support/uploads';

jest.setTimeout(240_000);

const MB = 1024 * 1024;
const kinds: ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(kinds)('uploads across kill -9 (%s)', (kind) => {
  let data: ChildData;
  let server: ChildServer;
  let token: string;
  let chunkSize: number;

  beforeAll(async () => {
    data = await childData(kind);
    server = await data.start();
    token = (await api(server.url, 'POST', '/api/login', { body: { userName: 'admin', password: CHILD_ADMIN_PASSWORD, mode: 'password' } })).body.result.token;
    chunkSize = (await api(server.url, 'GET', '/api/User/FileTransfer/FileUploadOptions', { token })).body.result.chunkSize;
  });
  afterAll(async () => {
    await data?.dispose();
  });

  const restart = async () => {
    await data.kill(server);
    server = await data.start();
  };
  const folder = async (name: string) => {
    const root = (await api(server.url, 'GET', '/api/User/Folders/Personal/RootFolders', { token })).body.result[0];
    return (await api(server.url, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: root.id, name, type: 'folder' } })).body.result;
  };
  const create = (folderId: string, fileName: string, size: number, taskId: string) =>
    api(server.url, 'POST', '/api/User/FileTransfer/CheckAndCreateFileInfo', {
      token,
      body: { folderId, fileName, size, type: 2, strategy: null, relativePath: fileName, taskId, shareId: null },
    });
  const fields = (n: number, size: number, data: Buffer, fileName: string) => ({
    chunkNumber: n,
    totalChunks: chunkCount(size, chunkSize),
    chunkSize,
    currentChunkSize: data.length,
    totalSize: size,
    identifier: 'x',
    filename: fileName,
    relativePath: fileName,
  });
  const chunk = async (fileId: string, n: number, content: Buffer, fileName: string) => {
    const part = chunkOf(content, n, chunkSize);
    const raw = await multipartBody(fields(n, content.length, part, fileName), part, fileName);
    return api(server.url, 'POST', `/api/User/FileTransfer/UploadChunk2?fileId=${fileId}&ChunkHash=${md5(part)}&RelativePath=${encodeURIComponent(fileName)}`, { token, raw });
  };
  const merge = (fileId: string, content: Buffer) =>
    api(server.url, 'POST', '/api/User/FileTransfer/UploadMerge2', { token, body: { fileId, relativePath: '', fileHash: md5(content) } });
  const names = async (folderId: string) =>
    (await api(server.url, 'GET', `/api/User/Folders/${folderId}/Items`, { token })).body.result.items.data as { id: string; name: string; size: number }[];
  /** The stored content of a file: through the download call when it exists, else the blob files of that MD5. */
  const storedEquals = async (fileId: string, content: Buffer): Promise<boolean> => {
    const res = await fetch(`${server.url}/api/User/FileTransfer/Download/${fileId}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 200 && !(res.headers.get('content-type') ?? '').includes('json')) {
      return Buffer.from(await res.arrayBuffer()).equals(content);
    }
    const hash = md5(content);
    const dir = path.join(data.dataDir, 'blobs', hash.slice(0, 2));
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith(`${hash}-`) && !f.endsWith('.tmp')) : [];
    return files.length > 0 && files.every((f) => fs.readFileSync(path.join(dir, f)).equals(content));
  };
  const staged = (fileId: string) => path.join(data.dataDir, 'uploads', `${fileId}.part`);

  test('killed while a chunk streams in: after the restart the session resumes from uploadedChunks', async () => {
    const target = await folder('续传');
    const content = crypto.randomBytes(2 * chunkSize + 12345);
    const taskId = crypto.randomUUID();
    const created = (await create(target.id, '断点.bin', content.length, taskId)).body.result;
    const fileId = created.fileInfo.fileId;
    expect((await chunk(fileId, 1, content, '断点.bin')).body.code).toBe(200);
    expect((await chunk(fileId, 3, content, '断点.bin')).body.code).toBe(200);

    // chunk 2: half of it sent, then the server dies
    const part = chunkOf(content, 2, chunkSize);
    const raw = await multipartBody(fields(2, content.length, part, '断点.bin'), part, '断点.bin');
    const url = new URL(`${server.url}/api/User/FileTransfer/UploadChunk2?fileId=${fileId}&ChunkHash=${md5(part)}&RelativePath=x`);
    const req = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': raw.contentType, 'content-length': raw.payload.length },
    });
    req.on('error', () => undefined);
    req.write(raw.payload.subarray(0, Math.floor(raw.payload.length / 2)));
    await sleep(300);
    await restart();
    req.destroy();

    const resumed = (await create(target.id, '断点.bin', content.length, taskId)).body.result;
    expect(resumed.fileInfo.fileId).toBe(fileId);
    expect(resumed.uploadedChunks).toEqual([1, 3]);
    expect((await chunk(fileId, 2, content, '断点.bin')).body.code).toBe(200);
    const merged = await merge(fileId, content);
    expect(merged.body.code).toBe(200);
    expect(merged.body.result).toMatchObject({ name: '断点.bin', size: content.length });
    expect(await storedEquals(merged.body.result.id, content)).toBe(true);
    expect(fs.existsSync(staged(fileId))).toBe(false);
  });

  test('killed during merges of a large file: each time the file is either whole or absent and still mergeable', async () => {
    const target = await folder('合并');
    // large enough that the merge, which must re-read the staging file after a restart, takes a while
    const content = crypto.randomBytes(96 * MB + 7);
    const taskId = crypto.randomUUID();
    const fileId = (await create(target.id, '大文件.bin', content.length, taskId)).body.result.fileInfo.fileId;
    for (let n = 1; n <= chunkCount(content.length, chunkSize); n++) expect((await chunk(fileId, n, content, '大文件.bin')).body.code).toBe(200);

    const outcomes: string[] = [];
    let done = false;
    for (const delay of [0, 20, 60, 120, 200, 350, 600, 1000]) {
      await restart(); // the in-memory running hash is gone: the merge reads the whole staging file
      const pending = merge(fileId, content).catch(() => null);
      await sleep(delay);
      await restart();
      await pending;
      const listed = await names(target.id);
      if (listed.length) {
        // whole: visible once, with the right size and content; the merge answers the same file again
        expect(listed.map((i) => [i.name, i.size])).toEqual([['大文件.bin', content.length]]);
        expect(await storedEquals(listed[0].id, content)).toBe(true);
        const again = await merge(fileId, content);
        expect(again.body.result.id).toBe(listed[0].id);
        expect(fs.existsSync(staged(fileId))).toBe(false); // the start-up sweep removed what the kill left
        outcomes.push(`${delay}ms: 完整`);
        done = true;
        break;
      }
      // absent: the session is intact and still holds every chunk
      const resumed = (await create(target.id, '大文件.bin', content.length, taskId)).body.result;
      expect(resumed.fileInfo.fileId).toBe(fileId);
      expect(resumed.uploadedChunks.length).toBe(chunkCount(content.length, chunkSize));
      expect(fs.statSync(staged(fileId)).size).toBe(content.length);
      outcomes.push(`${delay}ms: 不存在`);
    }
    if (!done) {
      const merged = await merge(fileId, content);
      expect(merged.body.code).toBe(200);
      expect(await storedEquals(merged.body.result.id, content)).toBe(true);
    }
    expect((await names(target.id)).map((i) => i.name)).toEqual(['大文件.bin']);
    // what happened at each kill, for the record
    process.stdout.write(`[${kind}] kill -9 during merge: ${outcomes.join('; ')}\n`);
  });
});
