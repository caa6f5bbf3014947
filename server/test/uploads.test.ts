// 云文档 chunked, resumable, instant upload (api-contract.md "Upload"; docs/integration.md
// "Upload (issue 4)"): happy paths, chunk checks, merge checks, conflicts, resume, rights,
// rapid upload, races, external share uploads and session expiry.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { insertShare } from '../src/modules/shares/repository';
import { call, databaseKinds, HAN, ENGLISH_FRAMEWORK_TEXT, ok, roleCast, startServer, userWithToken, type TestServer, type TestUser } from './support/harness';
import { chunkCount, chunkOf, createFolders, createTask, listNames, md5, merge, rapid, sendChunk, uploadFile, type Auth } from './support/uploads';

const CHUNK = 1024;

describe.each(databaseKinds())('uploads (%s)', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let adminToken: string;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ owner, outsider, editor, viewer, adminToken, ownerRoot, publicRoot } = await roleCast(server.app));
    server.app.services.uploads.limits.chunkSize = CHUNK;
  });
  afterAll(async () => {
    await server?.close();
  });

  const app = () => server.app;
  const db = () => server.app.db;
  const stagingDir = () => path.join(server.config.dataDir, 'uploads');
  const stagingFiles = () => (fs.existsSync(stagingDir()) ? fs.readdirSync(stagingDir()) : []);
  const as = (u: TestUser): Auth => ({ token: u.token });
  const random = (n: number) => crypto.randomBytes(n);
  const mkdir = (token: string, parentId: string, name: string) =>
    ok(app(), 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type: 'folder' } });
  const blobContent = async (fileId: string): Promise<Buffer> => {
    const v = await db().selectFrom('file_versions').selectAll().where('item_id', '=', Number(fileId)).where('is_master', '=', 1).executeTakeFirstOrThrow();
    if (v.blob_id === null) return Buffer.alloc(0);
    const b = await db().selectFrom('blobs').selectAll().where('id', '=', Number(v.blob_id)).executeTakeFirstOrThrow();
    return fs.readFileSync(server.app.services.folders.blobs.pathOf(b.storage_key));
  };
  /** the CRC-32 kept with the file's blob (for zip archives), null when unknown */
  const blobCrc = async (fileId: string): Promise<number | null> => {
    const v = await db().selectFrom('file_versions').select('blob_id').where('item_id', '=', Number(fileId)).where('is_master', '=', 1).executeTakeFirstOrThrow();
    const b = await db().selectFrom('blobs').select('crc32').where('id', '=', Number(v.blob_id)).executeTakeFirstOrThrow();
    return b.crc32 === null ? null : Number(b.crc32);
  };
  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).not.toMatch(ENGLISH_FRAMEWORK_TEXT);
    expect(res.body.message).not.toMatch(/\/tmp|\.part|select |insert /i);
  };
  const newFolder = async (u: TestUser = owner, root = ownerRoot) => mkdir(u.token, root.id, `目录-${crypto.randomUUID().slice(0, 8)}`);
  const session = (id: string) => db().selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst();

  test('options follow the contract', async () => {
    const r = await ok(app(), 'GET', '/api/User/FileTransfer/FileUploadOptions', { token: owner.token, query: { timestamp: Date.now() } });
    expect(r).toEqual({ chunkCheck: false, chunkCheckAlgorithm: 'MD5', chunkSize: CHUNK, maxFileCount: 500, maxFileSize: 5368709120, rapidUpload: true });
    expectError(await call(app(), 'GET', '/api/User/FileTransfer/FileUploadOptions'), 401, 401);
  });

  test('a multi-chunk file: stored byte-exact, an Item comes back, no staging file left', async () => {
    const folder = await newFolder();
    const content = random(CHUNK * 3 + 17);
    const item = await uploadFile(app(), as(owner), folder.id, '报告.pdf', content, CHUNK);
    expect(item).toMatchObject({ name: '报告.pdf', type: 'file', extension: 'pdf', size: content.length, parentId: folder.id, ownerId: owner.userId });
    expect(item.permissions).toContain('upload');
    expect((await blobContent(item.id)).equals(content)).toBe(true);
    expect(await listNames(app(), owner.token, folder.id)).toEqual(['报告.pdf']);
    const versions = await ok(app(), 'GET', `/api/User/Files/${item.id}/Versions`, { token: owner.token });
    expect(versions).toEqual([expect.objectContaining({ version: 1, size: content.length, md5: md5(content), isMaster: true })]);
    expect(stagingFiles()).toEqual([]);
  });

  test('an empty file: one empty chunk, no blob', async () => {
    const folder = await newFolder();
    const item = await uploadFile(app(), as(owner), folder.id, '空.txt', Buffer.alloc(0), CHUNK);
    expect(item).toMatchObject({ name: '空.txt', size: 0 });
    const v = await db().selectFrom('file_versions').selectAll().where('item_id', '=', Number(item.id)).executeTakeFirstOrThrow();
    expect(v.blob_id).toBeNull();
  });

  test('a file exactly one chunk long, and the exact multiple of the chunk size', async () => {
    const folder = await newFolder();
    for (const size of [CHUNK, CHUNK * 2]) {
      const content = random(size);
      const item = await uploadFile(app(), as(owner), folder.id, `整块${size}.bin`, content, CHUNK);
      expect((await blobContent(item.id)).equals(content)).toBe(true);
    }
  });

  test('relativePath makes the missing folders (once, also for parallel uploads)', async () => {
    const folder = await newFolder();
    const files = ['甲/乙/一.txt', '甲/乙/二.txt', '甲/三.txt', '甲/乙/丙/四.txt'];
    await Promise.all(
      files.map((rel) => uploadFile(app(), as(owner), folder.id, path.basename(rel), Buffer.from(rel), CHUNK, { relativePath: rel })),
    );
    expect(await listNames(app(), owner.token, folder.id)).toEqual(['甲']);
    const jia = (await ok(app(), 'GET', `/api/User/Folders/${folder.id}/Items`, { token: owner.token })).items.data[0];
    expect(await listNames(app(), owner.token, jia.id)).toEqual(['三.txt', '乙']);
    const yi = (await ok(app(), 'GET', `/api/User/Folders/${jia.id}/Items`, { token: owner.token })).items.data.find((i: any) => i.name === '乙');
    expect(await listNames(app(), owner.token, yi.id)).toEqual(['一.txt', '丙', '二.txt']);
    expect(yi.namePath).toBe(`个人文件/${folder.name}/甲/乙`);
    // a bad folder name is refused before anything exists
    expectError(await createTask(app(), as(owner), { folderId: folder.id, fileName: 'x.txt', size: 1, relativePath: '甲/../x.txt' }), 400, 40001);
    // a folder name held by a file
    await uploadFile(app(), as(owner), folder.id, '占位', Buffer.from('x'), CHUNK);
    expectError(await createTask(app(), as(owner), { folderId: folder.id, fileName: 'y.txt', size: 1, relativePath: '占位/y.txt' }), 409, 40901);
  });

  test('empty folders of a dropped folder: made where missing, same-named folders used, refusals listed', async () => {
    const folder = await newFolder();
    await uploadFile(app(), as(owner), folder.id, '一.txt', Buffer.from('1'), CHUNK, { relativePath: '项目/文档/一.txt' });
    await uploadFile(app(), as(owner), folder.id, '挡路', Buffer.from('x'), CHUNK, { relativePath: '项目/挡路' });
    const res = await createFolders(app(), as(owner), folder.id, [
      '项目/输出',
      '项目/文档/草稿/旧',
      '项目/输出', // twice: once
      '项目/挡路/子', // a file holds that name
      '项目/../逃逸', // a path trick
      '空项目',
    ]);
    expect(res.status).toBe(200);
    expect(res.body.result.created).toBe(4); // 输出, 草稿, 旧, 空项目
    expect(res.body.result.failed.map((f: any) => f.path)).toEqual(['项目/挡路/子', '项目/../逃逸']);
    for (const f of res.body.result.failed) expect(f.message).toMatch(HAN);
    expect((await listNames(app(), owner.token, folder.id)).sort()).toEqual(['空项目', '项目'].sort());
    const items = async (id: string) => (await ok(app(), 'GET', `/api/User/Folders/${id}/Items`, { token: owner.token })).items.data as any[];
    const xiangmu = (await items(folder.id)).find((i) => i.name === '项目');
    expect((await listNames(app(), owner.token, xiangmu.id)).sort()).toEqual(['输出', '挡路', '文档'].sort());
    const wendang = (await items(xiangmu.id)).find((i) => i.name === '文档');
    expect((await listNames(app(), owner.token, wendang.id)).sort()).toEqual(['一.txt', '草稿'].sort());
    // again: nothing new
    expect((await ok(app(), 'POST', '/api/User/FileTransfer/CreateFolders', { token: owner.token, body: { folderId: folder.id, paths: ['项目/输出', '空项目'] } })).created).toBe(0);

    // no upload right there: listed, nothing made; another user's folder: 404
    const shared = await mkdir(editor.token, publicRoot.id, `共享空-${crypto.randomUUID().slice(0, 6)}`);
    await ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', {
      token: editor.token,
      body: { fileId: shared.id, policies: [{ subjectType: 1, subjectId: viewer.userId, level: 2 }] },
    });
    const refused = await ok(app(), 'POST', '/api/User/FileTransfer/CreateFolders', { token: viewer.token, body: { folderId: shared.id, paths: ['甲/乙'] } });
    expect(refused).toEqual({ created: 0, failed: [{ path: '甲/乙', message: expect.stringMatching(HAN) }] });
    expect(await listNames(app(), editor.token, shared.id)).toEqual([]);
    expectError(await createFolders(app(), as(outsider), folder.id, ['外人']), 404, 404);
    expect((await listNames(app(), owner.token, folder.id)).sort()).toEqual(['空项目', '项目'].sort());

    // through a share that allows uploads, only below its root
    const root = await newFolder();
    const share = await insertShare(db(), { ownerId: Number(owner.userId), rootItemId: Number(root.id), accessKey: '钥匙', allowUpload: true, expiresAt: null });
    const viaShare = await createFolders(app(), { shareId: share.id, accessKey: '钥匙' }, root.id, ['外部/空']);
    expect(viaShare.body.result).toEqual({ created: 2, failed: [] });
    expect(await listNames(app(), owner.token, root.id)).toEqual(['外部']);
    expectError(await createFolders(app(), { shareId: share.id, accessKey: '钥匙' }, folder.id, ['越界']), 404, 404);
    // a wrong key: 403 40302 (api-contract.md, "Sharing")
    expectError(await createFolders(app(), { shareId: share.id, accessKey: '错' }, root.id, ['钥匙错']), 403, 40302);

    // racing with each other and with a file's merge for the same folder: one folder
    const race = await newFolder();
    const made = await Promise.all([
      ...[1, 2, 3].map(() => createFolders(app(), as(owner), race.id, ['并发/空'])),
      uploadFile(app(), as(owner), race.id, 'x.txt', Buffer.from('x'), CHUNK, { relativePath: '并发/x.txt' }),
    ]);
    expect(made.slice(0, 3).map((r: any) => r.body.result.failed)).toEqual([[], [], []]);
    expect(await listNames(app(), owner.token, race.id)).toEqual(['并发']);
    const bingfa = (await items(race.id))[0];
    expect((await listNames(app(), owner.token, bingfa.id)).sort()).toEqual(['x.txt', '空'].sort());
  });

  test('chunks out of order and repeated; uploadedChunks reports what is held', async () => {
    const folder = await newFolder();
    const content = random(CHUNK * 4 + 5);
    const created = await createTask(app(), as(owner), { folderId: folder.id, fileName: '乱序.bin', size: content.length });
    const fileId = created.body.result.fileInfo.fileId;
    expect(fileId).toMatch(/^[0-9a-f]{32}$/);
    const o = { chunkSize: CHUNK, totalSize: content.length, fileName: '乱序.bin' };
    for (const n of [3, 5, 1, 3, 2, 5]) {
      const r = await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), o);
      expect(r.body.code).toBe(200);
    }
    expect((await db().selectFrom('upload_chunks').select('chunk_no').where('session_id', '=', fileId).orderBy('chunk_no').execute()).map((c) => Number(c.chunk_no))).toEqual([1, 2, 3, 5]);
    // parallel: chunk 4 twice at once
    const [a, b] = await Promise.all([4, 4].map((n) => sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), o)));
    expect([a.body.code, b.body.code]).toEqual([200, 200]);
    const item = (await merge(app(), as(owner), fileId, md5(content))).body.result;
    expect((await blobContent(item.id)).equals(content)).toBe(true);
    // its CRC-32 was made from the chunks as they came, in order, for zip archives
    expect(await blobCrc(item.id)).toBe(zlib.crc32(content));
    // a blob from before CRC-32s were kept learns it when the same content is uploaded again
    await db().updateTable('blobs').set({ crc32: null }).where('md5', '=', md5(content)).execute();
    expect(await blobCrc(item.id)).toBeNull();
    await uploadFile(app(), as(owner), (await newFolder()).id, '同内容.bin', content, CHUNK);
    expect(await blobCrc(item.id)).toBe(zlib.crc32(content));
  });

  test('ChunkHash mismatch: 422, not recorded; wrong number, sizes, too long, too short: refused', async () => {
    const folder = await newFolder();
    const content = random(CHUNK * 2 + 10);
    const created = await createTask(app(), as(owner), { folderId: folder.id, fileName: '校验.bin', size: content.length });
    const fileId = created.body.result.fileInfo.fileId;
    const o = { chunkSize: CHUNK, totalSize: content.length };
    const c1 = chunkOf(content, 1, CHUNK);
    expectError(await sendChunk(app(), as(owner), fileId, 1, c1, { ...o, chunkHash: md5('别的内容') }), 422, 42201);
    expectError(await sendChunk(app(), as(owner), fileId, 1, c1, { ...o, chunkHash: 'not-an-md5' }), 400, 40001);
    expectError(await sendChunk(app(), as(owner), fileId, 4, c1, o), 400, 40001);
    expectError(await sendChunk(app(), as(owner), fileId, 0, c1, o), 400, 40001);
    expectError(await sendChunk(app(), as(owner), fileId, 1, c1, { ...o, fields: { totalChunks: 7 } }), 400, 40001);
    expectError(await sendChunk(app(), as(owner), fileId, 1, c1, { ...o, fields: { chunkSize: 4096 } }), 400, 40001);
    expectError(await sendChunk(app(), as(owner), fileId, 1, c1, { ...o, fields: { totalSize: 99 } }), 400, 40001);
    expectError(await sendChunk(app(), as(owner), fileId, 1, c1.subarray(0, 100), { ...o, fields: { currentChunkSize: 100 } }), 400, 40001);
    // longer than declared (declared right, bytes too many)
    const long = Buffer.concat([c1, Buffer.from('多余')]);
    expectError(await sendChunk(app(), as(owner), fileId, 1, long, { ...o, fields: { currentChunkSize: CHUNK } }), 400, 40001);
    // shorter than declared
    expectError(await sendChunk(app(), as(owner), fileId, 1, c1.subarray(0, 10), { ...o, fields: { currentChunkSize: CHUNK } }), 400, 40001);
    // last chunk with a wrong size
    expectError(await sendChunk(app(), as(owner), fileId, 3, chunkOf(content, 3, CHUNK).subarray(1), o), 400, 40001);
    const chunks = await db().selectFrom('upload_chunks').selectAll().where('session_id', '=', fileId).execute();
    expect(chunks).toEqual([]);
    // a recorded chunk sent again with other bytes does not overwrite it
    expect((await sendChunk(app(), as(owner), fileId, 1, c1, o)).body.code).toBe(200);
    const other = random(CHUNK);
    expectError(await sendChunk(app(), as(owner), fileId, 1, other, o), 422, 42201);
    for (const n of [2, 3]) expect((await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), o)).body.code).toBe(200);
    const item = (await merge(app(), as(owner), fileId, md5(content))).body.result;
    expect((await blobContent(item.id)).equals(content)).toBe(true);
    // unknown session, not a session id
    expectError(await sendChunk(app(), as(owner), 'a'.repeat(32), 1, c1, o), 404, 404);
    expectError(await sendChunk(app(), as(owner), fileId, 1, c1, o), 404, 404); // finished
  });

  test('chunks without ChunkHash (chunk check off, the default): no MD5 of the chunk, the merge\'s MD5 still guards the file', async () => {
    const folder = await newFolder();
    const content = random(CHUNK * 3 + 5);
    const o = { chunkSize: CHUNK, totalSize: content.length, chunkHash: null };
    const created = await createTask(app(), as(owner), { folderId: folder.id, fileName: '不校验分片.bin', size: content.length });
    const fileId = created.body.result.fileInfo.fileId;
    const createHash = jest.spyOn(crypto, 'createHash');
    try {
      for (const n of [2, 1, 4]) expect((await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), o)).body.code).toBe(200);
      // no MD5 is made on the request's path for a chunk without ChunkHash
      expect(createHash.mock.calls.filter(([algorithm]) => algorithm === 'md5')).toEqual([]);
    } finally {
      createHash.mockRestore();
    }
    // sent again, with other bytes: harmless, nothing is written again
    expect((await sendChunk(app(), as(owner), fileId, 1, random(CHUNK), o)).body.result.uploadedChunks).toEqual([1, 2, 4]);
    expect((await sendChunk(app(), as(owner), fileId, 3, chunkOf(content, 3, CHUNK), o)).body.code).toBe(200);
    const item = (await merge(app(), as(owner), fileId, md5(content))).body.result;
    expect((await blobContent(item.id)).equals(content)).toBe(true);

    // a chunk damaged on the way and sent unchecked: the merge refuses the file and nothing shows
    const second = random(CHUNK * 2 + 3);
    const s2 = (await createTask(app(), as(owner), { folderId: folder.id, fileName: '损坏.bin', size: second.length })).body.result.fileInfo.fileId;
    const damaged = Buffer.from(chunkOf(second, 2, CHUNK));
    damaged[7] ^= 0xff;
    for (const [n, data] of [[1, chunkOf(second, 1, CHUNK)], [2, damaged], [3, chunkOf(second, 3, CHUNK)]] as const) {
      expect((await sendChunk(app(), as(owner), s2, n, data, { ...o, totalSize: second.length })).body.code).toBe(200);
    }
    expectError(await merge(app(), as(owner), s2, md5(second)), 422, 42201);
    expect(await listNames(app(), owner.token, folder.id)).toEqual(['不校验分片.bin']);
    expect(stagingFiles()).not.toContain(`${s2}.part`);
  });

  test('the upload policy\'s chunk check: off by default; on, the options say so and ChunkHash is required', async () => {
    const options = () => ok(app(), 'GET', '/api/User/FileTransfer/FileUploadOptions', { token: owner.token });
    expect((await options()).chunkCheck).toBe(false);
    expect((await ok(app(), 'GET', '/api/Admin/UploadPolicy', { token: adminToken })).chunkCheck).toBe(false);
    const folder = await newFolder();
    const content = random(CHUNK + 9);
    const fileId = (await createTask(app(), as(owner), { folderId: folder.id, fileName: '逐片.bin', size: content.length })).body.result.fileInfo.fileId;
    const o = { chunkSize: CHUNK, totalSize: content.length };
    await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 0, chunkCheck: true } });
    try {
      expect((await options()).chunkCheck).toBe(true);
      // a PUT that leaves chunkCheck out keeps it
      await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 0 } });
      expect((await options()).chunkCheck).toBe(true);
      const refused = await sendChunk(app(), as(owner), fileId, 1, chunkOf(content, 1, CHUNK), { ...o, chunkHash: null });
      expectError(refused, 400, 40001);
      expect(refused.body.message).toContain('ChunkHash');
      expectError(await sendChunk(app(), as(owner), fileId, 1, chunkOf(content, 1, CHUNK), { ...o, chunkHash: md5('别的') }), 422, 42201);
      for (const n of [1, 2]) expect((await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), o)).body.code).toBe(200);
    } finally {
      await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 0, chunkCheck: false } });
    }
    expect((await options()).chunkCheck).toBe(false);
    expect((await merge(app(), as(owner), fileId, md5(content))).body.result.name).toBe('逐片.bin');
  });

  test('rapidPossible: false only when the caller can read no live file of that size (more than one chunk)', async () => {
    const size = CHUNK * 4 + 611; // a size no other test uses
    const possible = async (auth: Auth, folderId: string, fileSize = size) =>
      (await createTask(app(), auth, { folderId, fileName: `探-${crypto.randomUUID().slice(0, 6)}.bin`, size: fileSize })).body.result.rapidPossible;
    const mine = await newFolder();
    expect(await possible(as(owner), mine.id)).toBe(false);
    // one chunk or less: always hash first
    expect(await possible(as(owner), mine.id, CHUNK)).toBe(true);
    expect(await possible(as(owner), mine.id, 0)).toBe(true);
    const content = random(size);
    const held = await uploadFile(app(), as(owner), mine.id, '同样大小.bin', content, CHUNK);
    expect(await possible(as(owner), mine.id)).toBe(true);
    // the outsider cannot read it: the answer is the same as for a size nobody holds
    const oroot = await newFolder(outsider, (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0]);
    expect(await possible(as(outsider), oroot.id)).toBe(false);
    // the organisation-wide setting: always true, so that the answer tells nothing of other spaces
    await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: true, personalQuota: 0 } });
    try {
      expect(await possible(as(outsider), oroot.id)).toBe(true);
    } finally {
      await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 0 } });
    }
    // a resumed session says it too
    const taskId = crypto.randomUUID();
    const first = await createTask(app(), as(owner), { folderId: mine.id, fileName: '续传.bin', size: size + 1, taskId });
    const again = await createTask(app(), as(owner), { folderId: mine.id, fileName: '续传.bin', size: size + 1, taskId });
    expect(again.body.result.fileInfo.fileId).toBe(first.body.result.fileInfo.fileId);
    expect([first.body.result.rapidPossible, again.body.result.rapidPossible]).toEqual([false, false]);
    // a share sees only below its root
    const shareRoot = await newFolder();
    const share = await insertShare(db(), { ownerId: Number(owner.userId), rootItemId: Number(shareRoot.id), accessKey: 'k', allowUpload: true, expiresAt: null });
    const viaShare: Auth = { shareId: share.id, accessKey: 'k' };
    expect(await possible(viaShare, shareRoot.id)).toBe(false);
    const inShare = await uploadFile(app(), as(owner), shareRoot.id, '分享里同样大小.bin', random(size), CHUNK);
    expect(await possible(viaShare, shareRoot.id)).toBe(true);
    // a file in the recycle bin does not count
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [inShare.id] });
    expect(await possible(viaShare, shareRoot.id)).toBe(false);
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [held.id] });
    expect(await possible(as(owner), mine.id)).toBe(false);
  });

  test('merge with a wrong MD5: 422, nothing visible, session and staging file gone', async () => {
    const folder = await newFolder();
    const content = random(CHUNK + 3);
    const created = await createTask(app(), as(owner), { folderId: folder.id, fileName: '错.bin', size: content.length });
    const fileId = created.body.result.fileInfo.fileId;
    for (const n of [1, 2]) await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
    expectError(await merge(app(), as(owner), fileId, md5('不是它')), 422, 42201);
    expect(await listNames(app(), owner.token, folder.id)).toEqual([]);
    expect(await session(fileId)).toBeUndefined();
    expect(stagingFiles()).not.toContain(`${fileId}.part`);
    expectError(await merge(app(), as(owner), fileId, md5(content)), 404, 404);
  });

  test('merge with a missing chunk: refused, the session stays and can finish; merge racing the last chunk', async () => {
    const folder = await newFolder();
    const content = random(CHUNK * 3);
    const created = await createTask(app(), as(owner), { folderId: folder.id, fileName: '缺.bin', size: content.length });
    const fileId = created.body.result.fileInfo.fileId;
    const o = { chunkSize: CHUNK, totalSize: content.length };
    for (const n of [1, 3]) await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), o);
    expectError(await merge(app(), as(owner), fileId, md5(content)), 409, 40902);
    expect(await listNames(app(), owner.token, folder.id)).toEqual([]);
    // the last chunk and the merge at once: either the merge waits for nothing and says 409, or it sees every chunk
    const [chunk, merged] = await Promise.all([
      sendChunk(app(), as(owner), fileId, 2, chunkOf(content, 2, CHUNK), o),
      merge(app(), as(owner), fileId, md5(content)),
    ]);
    expect(chunk.body.code).toBe(200);
    if (merged.body.code !== 200) {
      expectError(merged, 409, 40902);
      expect((await merge(app(), as(owner), fileId, md5(content))).body.code).toBe(200);
    }
    expect(await listNames(app(), owner.token, folder.id)).toEqual(['缺.bin']);
    // two merges of a finished session answer the same Item (a lost reply retried)
    const [m1, m2] = await Promise.all([merge(app(), as(owner), fileId, md5(content)), merge(app(), as(owner), fileId, md5(content))]);
    expect(m1.body.result.id).toBe(m2.body.result.id);
    expect(await listNames(app(), owner.token, folder.id)).toEqual(['缺.bin']);
  });

  test('target folder deleted, or the right to upload lost, before the merge', async () => {
    // deleted
    const folder = await newFolder();
    const content = random(100);
    const c = await createTask(app(), as(owner), { folderId: folder.id, fileName: 'a.txt', size: content.length });
    const fileId = c.body.result.fileInfo.fileId;
    await sendChunk(app(), as(owner), fileId, 1, content, { chunkSize: CHUNK, totalSize: content.length });
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [folder.id] });
    expectError(await merge(app(), as(owner), fileId, md5(content)), 404, 404);
    expect(await session(fileId)).toBeUndefined();
    expect(stagingFiles()).not.toContain(`${fileId}.part`);

    // enterprise folder, the viewer had 3 and loses it
    const shared = await mkdir(editor.token, publicRoot.id, `共享-${crypto.randomUUID().slice(0, 6)}`);
    await ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', {
      token: editor.token,
      body: { fileId: shared.id, policies: [{ subjectType: 1, subjectId: viewer.userId, level: 3 }] },
    });
    const c2 = await createTask(app(), as(viewer), { folderId: shared.id, fileName: 'b.txt', size: content.length });
    expect(c2.body.result.conflictType).toBe(0);
    const id2 = c2.body.result.fileInfo.fileId;
    await sendChunk(app(), as(viewer), id2, 1, content, { chunkSize: CHUNK, totalSize: content.length });
    await ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', {
      token: editor.token,
      body: { fileId: shared.id, policies: [{ subjectType: 1, subjectId: viewer.userId, level: 1 }] },
    });
    expectError(await merge(app(), as(viewer), id2, md5(content)), 403, 40301);
    expect(await listNames(app(), editor.token, shared.id)).toEqual([]);
    expect(await session(id2)).toBeUndefined();
    // and a user with 1 cannot even start
    expectError(await createTask(app(), as(viewer), { folderId: shared.id, fileName: 'c.txt', size: 1 }), 403, 40301);
    // another user's personal folder: 404
    expectError(await createTask(app(), as(outsider), { folderId: ownerRoot.id, fileName: 'c.txt', size: 1 }), 404, 404);
  });

  test('maxFileSize: a file at the limit is refused at create', async () => {
    const folder = await newFolder();
    const res = await createTask(app(), as(owner), { folderId: folder.id, fileName: '大.iso', size: 5368709120 });
    expectError(res, 413, 41302);
    expect(res.body.message).toContain('5 GB');
    const under = await createTask(app(), as(owner), { folderId: folder.id, fileName: '刚好.iso', size: 5368709119 });
    expect(under.body.result.conflictType).toBe(0);
  });

  test('quota: an open session reserves its size at create, released when it ends; the merge checks again', async () => {
    const u = await userWithToken(app(), adminToken);
    const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: u.token }))[0];
    // only an admin may set it
    expectError(await call(app(), 'PUT', '/api/Admin/UploadPolicy', { token: u.token, body: { rapidUploadOrganization: false, personalQuota: 1 } }), 403, 40301);
    await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 3000 } });
    try {
      await uploadFile(app(), as(u), root.id, '一.bin', random(2000), CHUNK);
      expectError(await createTask(app(), as(u), { folderId: root.id, fileName: '二.bin', size: 1500 }), 413, 41301);
      // each fits alone, but the first one's reservation leaves no room for the second
      const a = random(900);
      const b = random(900);
      const ca = (await createTask(app(), as(u), { folderId: root.id, fileName: 'a.bin', size: a.length })).body.result.fileInfo.fileId;
      expectError(await createTask(app(), as(u), { folderId: root.id, fileName: 'b.bin', size: b.length }), 413, 41301);
      expect(await ok(app(), 'GET', '/api/Account/PersonalRootUsed', { token: u.token })).toMatchObject({ used: 2000, uploading: 900 });
      // given up: the reservation goes at once, and its staged bytes with it
      expect(await ok(app(), 'DELETE', `/api/User/FileTransfer/UploadSessions/${ca}`, { token: u.token })).toEqual({ removed: true });
      expect(await ok(app(), 'GET', '/api/Account/PersonalRootUsed', { token: u.token })).toMatchObject({ used: 2000, uploading: 0 });
      const cb = (await createTask(app(), as(u), { folderId: root.id, fileName: 'b.bin', size: b.length })).body.result.fileInfo.fileId;
      await sendChunk(app(), as(u), cb, 1, b, { chunkSize: CHUNK, totalSize: b.length });
      // the quota lowered meanwhile: the merge checks again and nothing is kept
      await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 2500 } });
      expectError(await merge(app(), as(u), cb, md5(b)), 413, 41301);
      await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 3000 } });
      const cc = (await createTask(app(), as(u), { folderId: root.id, fileName: 'a.bin', size: a.length })).body.result.fileInfo.fileId;
      await sendChunk(app(), as(u), cc, 1, a, { chunkSize: CHUNK, totalSize: a.length });
      expect((await merge(app(), as(u), cc, md5(a))).body.code).toBe(200);
      expect(await listNames(app(), u.token, root.id)).toEqual(['a.bin', '一.bin']);
      // enterprise space is not counted against it
      expect((await createTask(app(), as(editor), { folderId: publicRoot.id, fileName: `企业-${Date.now()}.bin`, size: 10_000 })).body.result.conflictType).toBe(0);
    } finally {
      await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 0 } });
    }
  });

  test('conflicts: strategies offered, new version (0), overwrite (1), rename (2)', async () => {
    const folder = await newFolder();
    const first = random(1500);
    const existing = await uploadFile(app(), as(owner), folder.id, '同名.txt', first, CHUNK);
    await mkdir(owner.token, folder.id, '同名目录');

    const c = await createTask(app(), as(owner), { folderId: folder.id, fileName: '同名.txt', size: 10 });
    expect(c.body.result).toEqual({
      conflictType: 1,
      conflictStrategies: [
        { name: '新版本', value: 0 },
        { name: '覆盖', value: 1 },
        { name: '重命名', value: 2 },
        { name: '跳过', value: 3 },
      ],
      fileInfo: { fileId: '', fileName: '同名.txt' },
      uploadedChunks: [],
      batchNumber: null,
    });
    expect(await db().selectFrom('upload_sessions').select('id').where('file_name', '=', '同名.txt').where('status', '=', 'open').execute()).toEqual([]);
    const d = await createTask(app(), as(owner), { folderId: folder.id, fileName: '同名目录', size: 10 });
    expect(d.body.result.conflictType).toBe(2);
    expect(d.body.result.conflictStrategies).toEqual([
      { name: '重命名', value: 2 },
      { name: '跳过', value: 3 },
    ]);
    expectError(await createTask(app(), as(owner), { folderId: folder.id, fileName: '同名目录', size: 10, strategy: 0 }), 400, 40001);
    expectError(await createTask(app(), as(owner), { folderId: folder.id, fileName: '同名目录', size: 10, strategy: 1 }), 400, 40001);

    // 0: a new master version of the same file
    const second = random(2100);
    const v = await uploadFile(app(), as(owner), folder.id, '同名.txt', second, CHUNK, { strategy: 0 });
    expect(v.id).toBe(existing.id);
    expect(v.size).toBe(second.length);
    const versions = await ok(app(), 'GET', `/api/User/Files/${existing.id}/Versions`, { token: owner.token });
    expect(versions.map((x: any) => [x.version, x.isMaster, x.size])).toEqual([
      [2, true, second.length],
      [1, false, first.length],
    ]);
    expect((await blobContent(existing.id)).equals(second)).toBe(true);

    // 1: the old file (with its versions) goes to the recycle bin, the upload is a new file
    const third = random(30);
    const o = await uploadFile(app(), as(owner), folder.id, '同名.txt', third, CHUNK, { strategy: 1 });
    expect(o.id).not.toBe(existing.id);
    expect(await listNames(app(), owner.token, folder.id)).toEqual(['同名.txt', '同名目录']);
    const bin = await ok(app(), 'GET', '/api/User/Recycle', { token: owner.token, query: { pageSize: 100 } });
    expect(bin.data.map((i: any) => i.id)).toContain(existing.id);
    expect((await ok(app(), 'GET', `/api/User/Files/${o.id}/Versions`, { token: owner.token })).length).toBe(1);

    // 2: fileName carries the new name, checked again
    const again = await createTask(app(), as(owner), { folderId: folder.id, fileName: '同名目录', size: 3, strategy: 2 });
    expect(again.body.result.conflictType).not.toBe(0);
    const r = await uploadFile(app(), as(owner), folder.id, '同名（新）.txt', Buffer.from('abc'), CHUNK, { strategy: 2, relativePath: '同名（新）.txt' });
    expect(r.name).toBe('同名（新）.txt');
  });

  test('resume by taskId: same owner gets the session back with uploadedChunks; others do not', async () => {
    const folder = await newFolder();
    const content = random(CHUNK * 3 + 1);
    const taskId = crypto.randomUUID();
    const body = { folderId: folder.id, fileName: '续传.bin', size: content.length, taskId };
    const c1 = (await createTask(app(), as(owner), body)).body.result;
    const fileId = c1.fileInfo.fileId;
    for (const n of [1, 3]) await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
    const c2 = (await createTask(app(), as(owner), body)).body.result;
    expect(c2).toMatchObject({ conflictType: 0, fileInfo: { fileId, fileName: '续传.bin' }, uploadedChunks: [1, 3] });
    // the same taskId from someone else: their own new session (in their own folder)
    const theirs = await newFolder(outsider, (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0]);
    const c3 = (await createTask(app(), as(outsider), { ...body, folderId: theirs.id })).body.result;
    expect(c3.fileInfo.fileId).not.toBe(fileId);
    expect(c3.uploadedChunks).toEqual([]);
    // another user's fileId: 404 everywhere
    expectError(await sendChunk(app(), as(outsider), fileId, 2, chunkOf(content, 2, CHUNK), { chunkSize: CHUNK, totalSize: content.length }), 404, 404);
    expectError(await merge(app(), as(outsider), fileId, md5(content)), 404, 404);
    expectError(await rapid(app(), as(outsider), fileId, md5(content)), 404, 404);
    // finish
    for (const n of [2, 4]) await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
    const item = (await merge(app(), as(owner), fileId, md5(content))).body.result;
    expect((await blobContent(item.id)).equals(content)).toBe(true);
    // the finished task sent again is a new upload (it now meets the file: a conflict)
    expect((await createTask(app(), as(owner), body)).body.result.conflictType).toBe(1);
    // the same taskId for another file drops the old session
    const x = (await createTask(app(), as(owner), { ...body, fileName: '别的.bin', taskId: 't-' + taskId })).body.result.fileInfo.fileId;
    const y = (await createTask(app(), as(owner), { ...body, fileName: '又一个.bin', taskId: 't-' + taskId })).body.result.fileInfo.fileId;
    expect(y).not.toBe(x);
    expect(await session(x)).toBeUndefined();
  });

  test('a chunk size asked for at create: granted between the options\' size and 32 MB, kept on resume, every chunk held to it', async () => {
    const folder = await newFolder();
    const content = random(CHUNK * 5 + 100); // in chunks of 3 × CHUNK: 3072, 2148
    const body = { folderId: folder.id, fileName: '大分片.bin', size: content.length, taskId: crypto.randomUUID() };
    const asked = (await createTask(app(), as(owner), { ...body, chunkSize: CHUNK * 3 })).body.result;
    expect(asked).toMatchObject({ conflictType: 0, chunkSize: CHUNK * 3, uploadedChunks: [] });
    const fileId = asked.fileInfo.fileId;
    expect(await session(fileId)).toMatchObject({ chunk_size: CHUNK * 3, total_chunks: 2 });
    // chunks of the options' size are refused, with the session's size named
    const wrong = await sendChunk(app(), as(owner), fileId, 1, chunkOf(content, 1, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
    expectError(wrong, 400, 40001);
    expect(wrong.body.message).toContain(String(CHUNK * 3));
    expect((await sendChunk(app(), as(owner), fileId, 1, chunkOf(content, 1, CHUNK * 3), { chunkSize: CHUNK * 3, totalSize: content.length })).status).toBe(200);
    // the same task again, asking for another size: its session's size comes back
    const resumed = (await createTask(app(), as(owner), { ...body, chunkSize: CHUNK * 8 })).body.result;
    expect(resumed).toMatchObject({ fileInfo: { fileId }, uploadedChunks: [1], chunkSize: CHUNK * 3 });
    expect((await sendChunk(app(), as(owner), fileId, 2, chunkOf(content, 2, CHUNK * 3), { chunkSize: CHUNK * 3, totalSize: content.length })).status).toBe(200);
    const item = (await merge(app(), as(owner), fileId, md5(content))).body.result;
    expect((await blobContent(item.id)).equals(content)).toBe(true);

    // less than the options' size: the options' size; more than 32 MB: 32 MB; nothing asked: the options' size
    const granted = async (chunkSize: number | null | undefined) =>
      (await createTask(app(), as(owner), { folderId: folder.id, fileName: `g-${crypto.randomUUID()}.bin`, size: 100 * 1024 * 1024, ...(chunkSize === undefined ? {} : { chunkSize }) })).body.result.chunkSize;
    expect(await granted(1)).toBe(CHUNK);
    expect(await granted(1024 * 1024 * 1024)).toBe(32 * 1024 * 1024);
    expect(await granted(null)).toBe(CHUNK);
    expect(await granted(undefined)).toBe(CHUNK);
    // not a whole number of bytes
    expectError(await createTask(app(), as(owner), { ...body, fileName: 'x.bin', taskId: crypto.randomUUID(), chunkSize: 1.5 }), 400, 40001);
    expectError(await createTask(app(), as(owner), { ...body, fileName: 'x.bin', taskId: crypto.randomUUID(), chunkSize: 0 }), 400, 40001);
  });

  test('rapid upload: allowed from what the caller can read, refused for others\' private content', async () => {
    const content = random(3000);
    const hash = md5(content);
    const mine = await newFolder();
    await uploadFile(app(), as(owner), mine.id, '原件.bin', content, CHUNK);
    // the owner again, elsewhere: instant
    const other = await newFolder();
    const c = (await createTask(app(), as(owner), { folderId: other.id, fileName: '秒传.bin', size: content.length })).body.result;
    expect((await rapid(app(), as(owner), c.fileInfo.fileId, hash)).body.result).toEqual({ success: true });
    const listed = (await ok(app(), 'GET', `/api/User/Folders/${other.id}/Items`, { token: owner.token })).items.data;
    expect(listed.map((i: any) => [i.name, i.size])).toEqual([['秒传.bin', content.length]]);
    expect((await blobContent(listed[0].id)).equals(content)).toBe(true);
    const blob = await db().selectFrom('blobs').selectAll().where('md5', '=', hash).executeTakeFirstOrThrow();
    expect(Number(blob.ref_count)).toBe(2);
    expect(stagingFiles()).not.toContain(`${c.fileInfo.fileId}.part`);
    // merge afterwards answers the Item (the client may still call it)
    expect((await merge(app(), as(owner), c.fileInfo.fileId, hash)).body.result.name).toBe('秒传.bin');

    // the outsider cannot read the owner's personal file: false, exactly as for unknown content
    const oroot = await newFolder(outsider, (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0]);
    const t1 = (await createTask(app(), as(outsider), { folderId: oroot.id, fileName: '试.bin', size: content.length })).body.result;
    const held = await rapid(app(), as(outsider), t1.fileInfo.fileId, hash);
    const t2 = (await createTask(app(), as(outsider), { folderId: oroot.id, fileName: '试2.bin', size: content.length })).body.result;
    const nobody = await rapid(app(), as(outsider), t2.fileInfo.fileId, md5(random(3000)));
    expect(held.body).toEqual(nobody.body);
    expect(held.body).toEqual({ code: 200, result: { success: false }, message: null });
    expect(await listNames(app(), outsider.token, oroot.id)).toEqual([]);
    // the wrong size with the right MD5: false
    const t3 = (await createTask(app(), as(owner), { folderId: other.id, fileName: '尺寸.bin', size: content.length + 1 })).body.result;
    expect((await rapid(app(), as(owner), t3.fileInfo.fileId, hash)).body.result.success).toBe(false);

    // enterprise content readable by all enterprise users (default 2): the outsider may use it
    const pub = random(2500);
    await uploadFile(app(), as(editor), publicRoot.id, `企业-${crypto.randomUUID().slice(0, 6)}.bin`, pub, CHUNK);
    const t4 = (await createTask(app(), as(outsider), { folderId: oroot.id, fileName: '企业副本.bin', size: pub.length })).body.result;
    expect((await rapid(app(), as(outsider), t4.fileInfo.fileId, md5(pub))).body.result.success).toBe(true);

    // the organisation-wide setting widens it
    await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: true, personalQuota: 0 } });
    try {
      const t5 = (await createTask(app(), as(outsider), { folderId: oroot.id, fileName: '全组织.bin', size: content.length })).body.result;
      expect((await rapid(app(), as(outsider), t5.fileInfo.fileId, hash)).body.result.success).toBe(true);
    } finally {
      await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { rapidUploadOrganization: false, personalQuota: 0 } });
    }
  });

  test('two users racing for one name: both files kept, the later one renamed name（1）.ext', async () => {
    const shared = await mkdir(editor.token, publicRoot.id, `竞争-${crypto.randomUUID().slice(0, 6)}`);
    const a = random(1500);
    const b = random(1600);
    const second = await userWithToken(app(), adminToken, { isDocAdmin: true });
    const ta = (await createTask(app(), as(editor), { folderId: shared.id, fileName: '同一个.docx', size: a.length })).body.result.fileInfo.fileId;
    const tb = (await createTask(app(), as(second), { folderId: shared.id, fileName: '同一个.docx', size: b.length })).body.result.fileInfo.fileId;
    for (const n of [1, 2]) {
      await sendChunk(app(), as(editor), ta, n, chunkOf(a, n, CHUNK), { chunkSize: CHUNK, totalSize: a.length });
      await sendChunk(app(), as(second), tb, n, chunkOf(b, n, CHUNK), { chunkSize: CHUNK, totalSize: b.length });
    }
    const [ra, rb] = await Promise.all([merge(app(), as(editor), ta, md5(a)), merge(app(), as(second), tb, md5(b))]);
    expect([ra.body.code, rb.body.code]).toEqual([200, 200]);
    expect([ra.body.result.name, rb.body.result.name].sort()).toEqual(['同一个.docx', '同一个（1）.docx']);
    expect((await blobContent(ra.body.result.id)).equals(a)).toBe(true);
    expect((await blobContent(rb.body.result.id)).equals(b)).toBe(true);
  });

  test('identical content merged by two users at once: one blob, two references', async () => {
    const content = random(1800);
    const fa = await newFolder();
    const oroot = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0];
    const ta = (await createTask(app(), as(owner), { folderId: fa.id, fileName: '同内容.bin', size: content.length })).body.result.fileInfo.fileId;
    const tb = (await createTask(app(), as(outsider), { folderId: oroot.id, fileName: '同内容.bin', size: content.length })).body.result.fileInfo.fileId;
    for (const n of [1, 2]) {
      await sendChunk(app(), as(owner), ta, n, chunkOf(content, n, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
      await sendChunk(app(), as(outsider), tb, n, chunkOf(content, n, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
    }
    const [ra, rb] = await Promise.all([merge(app(), as(owner), ta, md5(content)), merge(app(), as(outsider), tb, md5(content))]);
    expect([ra.body.code, rb.body.code]).toEqual([200, 200]);
    const rows = await db().selectFrom('blobs').selectAll().where('md5', '=', md5(content)).execute();
    expect(rows.length).toBe(1);
    expect(Number(rows[0].ref_count)).toBe(2);
    const dir = path.dirname(server.app.services.folders.blobs.pathOf(rows[0].storage_key));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(md5(content)))).toEqual([path.basename(rows[0].storage_key)]);
  });

  test('external share uploads: right key, wrong key, expired, upload not allowed, outside the root', async () => {
    const root = await newFolder();
    const inside = await mkdir(owner.token, root.id, '收件箱');
    const outside = await newFolder();
    const now = Date.now();
    const good = await insertShare(db(), { ownerId: Number(owner.userId), rootItemId: Number(root.id), accessKey: 'k3y-好的', allowUpload: true, expiresAt: null });
    const expired = await insertShare(db(), { ownerId: Number(owner.userId), rootItemId: Number(root.id), accessKey: 'k', allowUpload: true, expiresAt: now - 1000 });
    const readOnly = await insertShare(db(), { ownerId: Number(owner.userId), rootItemId: Number(root.id), accessKey: 'k', allowUpload: false, expiresAt: null });
    const auth: Auth = { shareId: good.id, accessKey: 'k3y-好的' };
    const content = random(CHUNK * 2 + 7);
    const item = await uploadFile(app(), auth, inside.id, '外部.bin', content, CHUNK);
    expect(item).toMatchObject({ name: '外部.bin', ownerId: owner.userId, parentId: inside.id });
    expect((await blobContent(item.id)).equals(content)).toBe(true);
    const created = await createTask(app(), auth, { folderId: root.id, fileName: '批次.bin', size: 1 });
    expect(created.body.result.batchNumber).toBe(good.id);

    const gone = { status: 401, code: 401 };
    // a wrong or missing key: 403 40302 (api-contract.md, "Sharing")
    for (const bad of [
      { shareId: good.id, accessKey: '错的' },
      { shareId: good.id, accessKey: '' },
    ]) {
      const r = await createTask(app(), bad, { folderId: root.id, fileName: 'x.bin', size: 1 });
      expectError(r, 403, 40302);
    }
    for (const bad of [
      { shareId: expired.id, accessKey: 'k' },
      { shareId: 'no-such-share', accessKey: 'k' },
    ]) {
      const r = await createTask(app(), bad, { folderId: root.id, fileName: 'x.bin', size: 1 });
      expectError(r, gone.status, gone.code);
      expect(r.body.message).toBe('指定的分享不存在或已过期。');
    }
    expectError(await createTask(app(), { shareId: readOnly.id, accessKey: 'k' }, { folderId: root.id, fileName: 'x.bin', size: 1 }), 403, 40301);
    expectError(await createTask(app(), auth, { folderId: outside.id, fileName: 'x.bin', size: 1 }), 404, 404);
    // the chunk call checks the key too (Accesskey header) and the batch
    const sid = created.body.result.fileInfo.fileId;
    expectError(await sendChunk(app(), { shareId: good.id, accessKey: '错的' }, sid, 1, Buffer.from('a'), { chunkSize: CHUNK, totalSize: 1 }), 403, 40302);
    expectError(await sendChunk(app(), { shareId: expired.id, accessKey: 'k' }, sid, 1, Buffer.from('a'), { chunkSize: CHUNK, totalSize: 1 }), 401, 401);
    // a signed-in user cannot reach the share's session, nor the share the user's
    expectError(await sendChunk(app(), as(owner), sid, 1, Buffer.from('a'), { chunkSize: CHUNK, totalSize: 1 }), 404, 404);
    expect((await sendChunk(app(), auth, sid, 1, Buffer.from('a'), { chunkSize: CHUNK, totalSize: 1 })).body.code).toBe(200);
    // rapid inside the share's root only
    const privateContent = random(1200);
    await uploadFile(app(), as(owner), outside.id, '外面.bin', privateContent, CHUNK);
    const t = (await createTask(app(), auth, { folderId: root.id, fileName: '试秒传.bin', size: privateContent.length })).body.result.fileInfo.fileId;
    expect((await rapid(app(), auth, t, md5(privateContent))).body.result.success).toBe(false);
    const t2 = (await createTask(app(), auth, { folderId: root.id, fileName: '试秒传2.bin', size: content.length })).body.result.fileInfo.fileId;
    expect((await rapid(app(), auth, t2, md5(content))).body.result.success).toBe(true);
    // the batch's session finishes like any other
    expect((await merge(app(), auth, sid, md5('a'))).body.result.name).toBe('批次.bin');
  });

  test('external share upload: the share owner must still have level 3 on the target', async () => {
    const shared = await mkdir(editor.token, publicRoot.id, `分享目标-${crypto.randomUUID().slice(0, 6)}`);
    const setLevel = (level: number) =>
      ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', {
        token: editor.token,
        body: { fileId: shared.id, policies: [{ subjectType: 1, subjectId: viewer.userId, level }] },
      });
    await setLevel(3);
    const share = await insertShare(db(), { ownerId: Number(viewer.userId), rootItemId: Number(shared.id), accessKey: 'kk', allowUpload: true, expiresAt: null });
    const auth: Auth = { shareId: share.id, accessKey: 'kk' };
    const content = random(500);
    const fileId = (await createTask(app(), auth, { folderId: shared.id, fileName: '权限.bin', size: content.length })).body.result.fileInfo.fileId;
    await sendChunk(app(), auth, fileId, 1, content, { chunkSize: CHUNK, totalSize: content.length });
    await setLevel(1);
    expectError(await merge(app(), auth, fileId, md5(content)), 403, 40301);
    expectError(await createTask(app(), auth, { folderId: shared.id, fileName: '权限2.bin', size: 1 }), 403, 40301);
    expect(await listNames(app(), editor.token, shared.id)).toEqual([]);
    expect(stagingFiles()).not.toContain(`${fileId}.part`);
  });

  test('abandoned sessions expire: rows and staging files removed; stray staging files too', async () => {
    const folder = await newFolder();
    const content = random(CHUNK + 1);
    const c = (await createTask(app(), as(owner), { folderId: folder.id, fileName: '过期.bin', size: content.length })).body.result.fileInfo.fileId;
    await sendChunk(app(), as(owner), c, 1, chunkOf(content, 1, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
    expect(stagingFiles()).toContain(`${c}.part`);
    fs.writeFileSync(path.join(stagingDir(), `${'f'.repeat(32)}.part`), 'stray');
    const uploads = server.app.services.uploads;
    expect(await uploads.sweep(Date.now())).toBe(0);
    expect(stagingFiles()).toContain(`${c}.part`);
    expect(stagingFiles()).not.toContain(`${'f'.repeat(32)}.part`);
    expect(await uploads.sweep(Date.now() + uploads.limits.sessionTtlMs + 1000)).toBeGreaterThanOrEqual(1);
    expect(await session(c)).toBeUndefined();
    expect(stagingFiles()).not.toContain(`${c}.part`);
    expect(await db().selectFrom('upload_chunks').selectAll().where('session_id', '=', c).execute()).toEqual([]);
    expectError(await sendChunk(app(), as(owner), c, 2, chunkOf(content, 2, CHUNK), { chunkSize: CHUNK, totalSize: content.length }), 404, 404);
  });

  test('a restart keeps sessions: resume from uploadedChunks, the prefix hash rebuilt from disk', async () => {
    const folder = await newFolder();
    const content = random(CHUNK * 5 + 3);
    const taskId = crypto.randomUUID();
    const body = { folderId: folder.id, fileName: '重启.bin', size: content.length, taskId };
    const fileId = (await createTask(app(), as(owner), body)).body.result.fileInfo.fileId;
    for (const n of [1, 2, 4]) await sendChunk(app(), as(owner), fileId, n, chunkOf(content, n, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
    const next = await server.restart();
    next.services.uploads.limits.chunkSize = CHUNK;
    const again = (await createTask(next, as(owner), body)).body.result;
    expect(again.fileInfo.fileId).toBe(fileId);
    expect(again.uploadedChunks).toEqual([1, 2, 4]);
    for (const n of [3, 5, 6]) await sendChunk(next, as(owner), fileId, n, chunkOf(content, n, CHUNK), { chunkSize: CHUNK, totalSize: content.length });
    const item = (await merge(next, as(owner), fileId, md5(content))).body.result;
    expect((await blobContent(item.id)).equals(content)).toBe(true);
    expect(await blobCrc(item.id)).toBe(zlib.crc32(content));
  });

  test('chunk count and sizes agree with the client for every size around the chunk size', () => {
    expect([0, 1, CHUNK - 1, CHUNK, CHUNK + 1].map((s) => chunkCount(s, CHUNK))).toEqual([1, 1, 1, 1, 2]);
  });
});
