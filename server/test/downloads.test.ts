// 云文档 downloads: one file's bytes (versions, ranges, conditional requests, cookie auth,
// rights) and zip tasks (entries, names, compression methods, rights inside folders,
// ownership, failure, limits, expiry) (docs/integration.md, "Download (issue 4)").
import crypto from 'node:crypto';
import fs from 'node:fs';
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';
import { makeFile, makeFolder, raw, setContent } from './support/content';
import { userTaskOwner } from '../src/modules/downloads/service';
import { readZip } from './support/zip';

const md5 = (b: Buffer | string) => crypto.createHash('md5').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(databaseKinds())('downloads (%s)', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ owner, outsider, editor, viewer, ownerRoot, publicRoot } = await roleCast(server.app));
  });
  afterAll(async () => {
    await server?.close();
  });

  const app = () => server.app;
  const setPolicies = (fileId: string, policies: { subjectType: number; subjectId: string; level: number }[]) =>
    ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', { token: editor.token, body: { fileId, policies } });
  const download = (fileId: string, o: Parameters<typeof raw>[3] = {}, query = '') =>
    raw(app(), 'GET', `/api/User/FileTransfer/Download/${fileId}${query}`, o);
  const expectError = (res: { status: number; json: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.json?.code, result: res.json?.result }).toEqual({ status, code, result: null });
    expect(res.json.message).toMatch(HAN);
  };
  const createTask = (token: string, ids: string[]) => call(app(), 'POST', '/api/User/FileTransfer/DownloadTask', { token, body: ids });
  const status = (token: string, taskId: string) => call(app(), 'GET', `/api/User/FileTransfer/DownloadTasks/${taskId}/Status`, { token });
  /** Polls until the task is ready or failed; returns the last status. */
  const waitFor = async (token: string, taskId: string) => {
    for (let i = 0; i < 500; i++) {
      const res = await status(token, taskId);
      expect(res.status).toBe(200);
      const s = res.body.result;
      expect(Number.isInteger(s.percent) && s.percent >= 0 && s.percent <= 100).toBe(true);
      if (s.state === 'ready' || s.state === 'failed') return s;
      expect(s.percent).toBeLessThan(100);
      expect(s.downloadUrl).toBe('');
      await sleep(10);
    }
    throw new Error('download task did not finish');
  };
  const zipOf = async (token: string, ids: string[]) => {
    const created = await createTask(token, ids);
    expect(created.status).toBe(200);
    const taskId = created.body.result.taskId as string;
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    const s = await waitFor(token, taskId);
    expect(s).toEqual({ percent: 100, downloadUrl: `/api/User/FileTransfer/DownloadTasks/${taskId}/File`, state: 'ready', error: null });
    const res = await raw(app(), 'GET', s.downloadUrl, { token });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    return { taskId, res, entries: await readZip(res.payload) };
  };

  describe('one file', () => {
    const bytes = crypto.randomBytes(1000);
    let file: { id: string; versionId: string | null };

    beforeAll(async () => {
      file = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, 'data.bin', bytes);
    });

    test('the master content, byte for byte, with its headers; HEAD has the same headers and no body', async () => {
      const res = await download(file.id, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.payload.equals(bytes)).toBe(true);
      expect(res.headers).toMatchObject({
        'content-type': 'application/octet-stream',
        'content-length': '1000',
        'accept-ranges': 'bytes',
        etag: `"${md5(bytes)}-1000"`,
        'cache-control': 'private, no-cache',
        'content-disposition': `attachment; filename="data.bin"; filename*=UTF-8''data.bin`,
      });
      expect(Date.parse(String(res.headers['last-modified']))).not.toBeNaN();
      const head = await raw(app(), 'HEAD', `/api/User/FileTransfer/Download/${file.id}`, { token: owner.token });
      expect(head.status).toBe(200);
      expect(head.payload.length).toBe(0);
      expect(head.headers['content-length']).toBe('1000');
      expect(head.headers.etag).toBe(res.headers.etag);
    });

    test('a given version; the master after a new one; a version of another file 404', async () => {
      const f = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '多版本.txt', 'version one');
      await setContent(app(), f.id, Buffer.from('version two, longer'), owner.userId);
      const master = await download(f.id, { token: owner.token });
      expect(master.payload.toString()).toBe('version two, longer');
      expect(master.headers['content-type']).toBe('text/plain; charset=utf-8');
      const v1 = await download(f.id, { token: owner.token }, `?versionId=${f.versionId}`);
      expect(v1.status).toBe(200);
      expect(v1.payload.toString()).toBe('version one');
      expect(v1.headers.etag).toBe(`"${md5('version one')}-11"`);
      // the first version of a new file is empty
      const versions = await ok(app(), 'GET', `/api/User/Files/${f.id}/Versions`, { token: owner.token });
      const empty = await download(f.id, { token: owner.token }, `?versionId=${versions[versions.length - 1].id}`);
      expect(empty.status).toBe(200);
      expect(empty.payload.length).toBe(0);
      expectError(await download(f.id, { token: owner.token }, `?versionId=${file.versionId}`), 404, 404);
      expectError(await download(f.id, { token: owner.token }, '?versionId=abc'), 404, 404);
    });

    test('ranges: first bytes, middle, suffix, open-ended, clamped end, past the end 416, several ranges 200', async () => {
      const get = (range: string) => download(file.id, { token: owner.token, headers: { range } });
      const first = await get('bytes=0-9');
      expect(first.status).toBe(206);
      expect(first.payload.equals(bytes.subarray(0, 10))).toBe(true);
      expect(first.headers['content-range']).toBe('bytes 0-9/1000');
      expect(first.headers['content-length']).toBe('10');
      const middle = await get('bytes=100-199');
      expect(middle.payload.equals(bytes.subarray(100, 200))).toBe(true);
      expect(middle.headers['content-range']).toBe('bytes 100-199/1000');
      const suffix = await get('bytes=-50');
      expect(suffix.status).toBe(206);
      expect(suffix.payload.equals(bytes.subarray(950))).toBe(true);
      expect(suffix.headers['content-range']).toBe('bytes 950-999/1000');
      const open = await get('bytes=990-');
      expect(open.payload.equals(bytes.subarray(990))).toBe(true);
      expect(open.headers['content-range']).toBe('bytes 990-999/1000');
      const clamped = await get('bytes=995-5000');
      expect(clamped.status).toBe(206);
      expect(clamped.headers['content-range']).toBe('bytes 995-999/1000');
      const past = await get('bytes=1000-1010');
      expectError(past, 416, 416);
      expect(past.headers['content-range']).toBe('bytes */1000');
      const several = await get('bytes=0-1,5-6');
      expect(several.status).toBe(200);
      expect(several.payload.equals(bytes)).toBe(true);
      const junk = await get('items=0-1');
      expect(junk.status).toBe(200);
      expect(junk.payload.length).toBe(1000);
    });

    test('If-None-Match answers 304; If-Range with another ETag answers the whole content', async () => {
      const etag = `"${md5(bytes)}-1000"`;
      const same = await download(file.id, { token: owner.token, headers: { 'if-none-match': etag } });
      expect(same.status).toBe(304);
      expect(same.payload.length).toBe(0);
      expect(same.headers.etag).toBe(etag);
      const other = await download(file.id, { token: owner.token, headers: { 'if-none-match': '"something-else"' } });
      expect(other.status).toBe(200);
      const rangeSame = await download(file.id, { token: owner.token, headers: { range: 'bytes=0-3', 'if-range': etag } });
      expect(rangeSame.status).toBe(206);
      expect(rangeSame.payload.equals(bytes.subarray(0, 4))).toBe(true);
      const rangeOld = await download(file.id, { token: owner.token, headers: { range: 'bytes=0-3', 'if-range': '"old-1000"' } });
      expect(rangeOld.status).toBe(200);
      expect(rangeOld.payload.equals(bytes)).toBe(true);
      // a date is never a match (one-second resolution): the whole content
      const rangeDate = await download(file.id, { token: owner.token, headers: { range: 'bytes=0-3', 'if-range': String(same.headers['last-modified']) } });
      expect(rangeDate.status).toBe(200);
      // weak tags in If-None-Match compare weakly; a list is searched
      expect((await download(file.id, { token: owner.token, headers: { 'if-none-match': `"x", W/${etag}` } })).status).toBe(304);
    });

    test('a Chinese name: ASCII fallback and UTF-8 filename*; known types get their content type', async () => {
      const f = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '季度 报告(终稿).pdf', '%PDF-1.4');
      const res = await download(f.id, { token: owner.token });
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="__ __(__).pdf"; filename*=UTF-8''${encodeURIComponent('季度 报告').replace(/'/g, '%27')}%28${encodeURIComponent('终稿')}%29.pdf`,
      );
      const value = /filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))![1];
      expect(decodeURIComponent(value)).toBe('季度 报告(终稿).pdf');
    });

    test('an empty file answers 200 with no bytes', async () => {
      const f = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '空.txt', '');
      const res = await download(f.id, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.payload.length).toBe(0);
      expect(res.headers['content-length']).toBe('0');
      expect(res.headers.etag).toBe('"d41d8cd98f00b204e9800998ecf8427e-0"');
    });

    test('the token cookie authenticates without a bearer header; no credentials 401', async () => {
      const res = await download(file.id, { cookie: owner.jwtId });
      expect(res.status).toBe(200);
      expect(res.payload.equals(bytes)).toBe(true);
      expectError(await download(file.id), 401, 401);
      expectError(await download(file.id, { cookie: 'not-a-session' }), 401, 401);
    });

    test('another user’s personal file, a missing id: 404; folders and shortcuts are refused', async () => {
      expectError(await download(file.id, { token: outsider.token }), 404, 404);
      expectError(await download(file.id, { cookie: outsider.jwtId }), 404, 404);
      expectError(await download('987654321', { token: owner.token }), 404, 404);
      const folder = await makeFolder(app(), owner.token, ownerRoot.id, '不能直接下载');
      expectError(await download(folder.id, { token: owner.token }), 400, 40001);
      const shortcut = await ok(app(), 'POST', '/api/User/Folders/Shortcuts', { token: owner.token, body: { targetId: file.id, parentId: folder.id } });
      expectError(await download(shortcut.id, { token: owner.token }), 400, 40001);
    });

    test('enterprise: a previewer (level 1) gets 403 40301, level 2 downloads, level 0 gets 404', async () => {
      const f = await makeFile(app(), editor.token, editor.userId, publicRoot.id, '企业文件.txt', 'enterprise bytes');
      // no list anywhere: enabled users have 2
      expect((await download(f.id, { token: viewer.token })).status).toBe(200);
      await setPolicies(f.id, [{ subjectType: 1, subjectId: viewer.userId, level: 1 }]);
      expectError(await download(f.id, { token: viewer.token }), 403, 40301);
      expectError(await download(f.id, { token: outsider.token }), 404, 404);
      await setPolicies(f.id, [{ subjectType: 1, subjectId: viewer.userId, level: 2 }]);
      const res = await download(f.id, { cookie: viewer.jwtId });
      expect(res.status).toBe(200);
      expect(res.payload.toString()).toBe('enterprise bytes');
    });

    test('stored content gone from the disk: 500 with a message, no bytes', async () => {
      // in a folder of its own, so that zips of the whole root stay whole
      const dir = await makeFolder(app(), owner.token, ownerRoot.id, '丢失');
      const f = await makeFile(app(), owner.token, owner.userId, dir.id, 'lost.txt', 'lost content 123');
      const blob = await app().db.selectFrom('blobs').select('storage_key').where('md5', '=', md5('lost content 123')).executeTakeFirstOrThrow();
      fs.rmSync(app().services.folders.blobs.pathOf(blob.storage_key));
      const res = await download(f.id, { token: owner.token });
      expectError(res, 500, 50001);
      // a zip of it fails, and says so
      const created = await createTask(owner.token, [f.id]);
      const s = await waitFor(owner.token, created.body.result.taskId);
      expect(s.state).toBe('failed');
      expect(s.downloadUrl).toBe('');
      expect(s.error).toMatch(HAN);
      await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [dir.id] });
    });
  });

  describe('zip tasks', () => {
    const jpg = crypto.randomBytes(3000);
    const innerZip = crypto.randomBytes(2000);
    const text = 'hello 云文档\n'.repeat(200);
    let top: { id: string };
    let ids: Record<string, string> = {};

    beforeAll(async () => {
      // 项目/
      //   说明.txt, 照片.JPG, 归档.zip, 空.txt, readme (and the names below)
      //   子目录/ 深层/ 数据.txt
      //   空目录/
      //   隐藏/ (viewer 0)  秘密.txt
      //   只读.txt (viewer 1)
      //   快捷方式 → 说明.txt
      const e = editor;
      top = await makeFolder(app(), e.token, publicRoot.id, '项目');
      const t = (name: string, content: Buffer | string, parent = top.id) => makeFile(app(), e.token, e.userId, parent, name, content);
      ids.readme = (await t('说明.txt', text)).id;
      ids.photo = (await t('照片.JPG', jpg)).id;
      ids.zip = (await t('归档.zip', innerZip)).id;
      ids.empty = (await t('空.txt', '')).id;
      ids.noext = (await t('readme', 'no extension')).id;
      const sub = await makeFolder(app(), e.token, top.id, '子目录');
      const deep = await makeFolder(app(), e.token, sub.id, '深层');
      ids.deepFile = (await t('数据.txt', 'deep data', deep.id)).id;
      await makeFolder(app(), e.token, top.id, '空目录');
      const hidden = await makeFolder(app(), e.token, top.id, '隐藏');
      await t('秘密.txt', 'secret', hidden.id);
      await setPolicies(hidden.id, [{ subjectType: 1, subjectId: viewer.userId, level: 0 }]);
      ids.readOnly = (await t('只读.txt', 'read only')).id;
      await setPolicies(ids.readOnly, [{ subjectType: 1, subjectId: viewer.userId, level: 1 }]);
      await ok(app(), 'POST', '/api/User/Folders/Shortcuts', { token: e.token, body: { targetId: ids.readme, parentId: top.id } });
    });

    test('a folder tree: nested folders, an empty folder, Chinese names; hidden, preview-only and shortcut items left out', async () => {
      const { entries, res } = await zipOf(viewer.token, [top.id]);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="__.zip"; filename*=UTF-8''${encodeURIComponent('项目')}.zip`);
      const byName = Object.fromEntries(entries.map((x) => [x.name, x]));
      expect(Object.keys(byName).sort()).toEqual(
        [
          '项目/',
          '项目/说明.txt',
          '项目/照片.JPG',
          '项目/归档.zip',
          '项目/空.txt',
          '项目/readme',
          '项目/子目录/',
          '项目/子目录/深层/',
          '项目/子目录/深层/数据.txt',
          '项目/空目录/',
        ].sort(),
      );
      expect(entries.every((x) => x.utf8)).toBe(true);
      expect(byName['项目/说明.txt']).toMatchObject({ method: 8, md5: md5(text) });
      expect(byName['项目/照片.JPG']).toMatchObject({ method: 0, md5: md5(jpg) });
      expect(byName['项目/归档.zip']).toMatchObject({ method: 0, md5: md5(innerZip) });
      expect(byName['项目/空.txt']).toMatchObject({ md5: md5('') });
      expect(byName['项目/readme']).toMatchObject({ method: 8, md5: md5('no extension') });
      expect(byName['项目/子目录/深层/数据.txt']).toMatchObject({ method: 8, md5: md5('deep data') });

      // the doc admin sees everything but the shortcut
      const all = (await zipOf(editor.token, [top.id])).entries.map((x) => x.name);
      expect(all).toEqual(expect.arrayContaining(['项目/隐藏/', '项目/隐藏/秘密.txt', '项目/只读.txt']));
      expect(all).toHaveLength(13);
    });

    test('several items: unique names at the top, name 「<first>等N个文件.zip」, Range on the zip', async () => {
      const a = await makeFolder(app(), owner.token, ownerRoot.id, '甲');
      const b = await makeFolder(app(), owner.token, ownerRoot.id, '乙');
      const fa = await makeFile(app(), owner.token, owner.userId, a.id, 'Same.txt', 'from a');
      const fb = await makeFile(app(), owner.token, owner.userId, b.id, 'same.TXT', 'from b');
      const fc = await makeFile(app(), owner.token, owner.userId, b.id, 'x.txt', 'x');
      const c = await makeFolder(app(), owner.token, ownerRoot.id, '丙');
      const fd = await makeFile(app(), owner.token, owner.userId, c.id, 'SAME.txt', 'from c');
      // files below a selected folder travel with it, not twice; an id given twice counts once
      const { entries, res, taskId } = await zipOf(owner.token, [fa.id, fd.id, b.id, fb.id, fc.id, fa.id]);
      expect(entries.map((x) => [x.name, x.md5])).toEqual([
        ['Same.txt', md5('from a')],
        ['SAME（1）.txt', md5('from c')],
        ['乙/', null],
        ['乙/same.TXT', md5('from b')],
        ['乙/x.txt', md5('x')],
      ]);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="Same_3___.zip"; filename*=UTF-8''Same${encodeURIComponent('等3个文件')}.zip`);
      const size = res.payload.length;
      expect(res.headers['content-length']).toBe(String(size));
      const part = await raw(app(), 'GET', `/api/User/FileTransfer/DownloadTasks/${taskId}/File`, { cookie: owner.jwtId, headers: { range: 'bytes=-22' } });
      expect(part.status).toBe(206);
      expect(part.payload.equals(res.payload.subarray(size - 22))).toBe(true);
      expect(part.headers['content-range']).toBe(`bytes ${size - 22}-${size - 1}/${size}`);
    });

    test('a single file: <name without extension>.zip', async () => {
      const { res, entries } = await zipOf(owner.token, [(await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '合同.docx', 'PK..')).id]);
      expect(String(res.headers['content-disposition'])).toContain(`filename*=UTF-8''${encodeURIComponent('合同')}.zip`);
      expect(entries).toEqual([{ name: '合同.docx', method: 0, md5: md5('PK..'), utf8: true }]);
    });

    test('rights at creation: invisible 404, preview-only 403 40301, shortcut 400; bad bodies 400', async () => {
      const hiddenFolder = (await ok(app(), 'GET', `/api/User/Folders/${top.id}/Items`, { token: editor.token })).items.data.find((x: any) => x.name === '隐藏');
      const hidden = await createTask(viewer.token, [hiddenFolder.id]);
      expectError({ status: hidden.status, json: hidden.body }, 404, 404);
      const readOnly = await createTask(viewer.token, [top.id, ids.readOnly]);
      expectError({ status: readOnly.status, json: readOnly.body }, 403, 40301);
      const personal = await createTask(outsider.token, [ownerRoot.id]);
      expectError({ status: personal.status, json: personal.body }, 404, 404);
      const shortcut = (await ok(app(), 'GET', `/api/User/Folders/${top.id}/Items`, { token: editor.token })).items.data.find((x: any) => x.type === 'shortcut');
      const sc = await createTask(editor.token, [shortcut.id]);
      expectError({ status: sc.status, json: sc.body }, 400, 40001);
      for (const body of [[], null, {}, ['abc']]) {
        const bad = await call(app(), 'POST', '/api/User/FileTransfer/DownloadTask', { token: owner.token, body: body as any });
        expectError({ status: bad.status, json: bad.body }, 400, 40001);
      }
    });

    test('a task belongs to its user: another user gets 404 on status and file; unknown task 404', async () => {
      const { taskId } = await zipOf(owner.token, [ownerRoot.id]);
      const s = await status(outsider.token, taskId);
      expectError({ status: s.status, json: s.body }, 404, 404);
      expectError(await raw(app(), 'GET', `/api/User/FileTransfer/DownloadTasks/${taskId}/File`, { token: outsider.token }), 404, 404);
      expectError(await raw(app(), 'GET', `/api/User/FileTransfer/DownloadTasks/${taskId}/File`, { cookie: outsider.jwtId }), 404, 404);
      expectError(await raw(app(), 'GET', `/api/User/FileTransfer/DownloadTasks/${taskId}/File`), 401, 401);
      const unknown = await status(owner.token, 'f'.repeat(32));
      expectError({ status: unknown.status, json: unknown.body }, 404, 404);
    });

    test('expiry removes the archive: status and file answer 404 afterwards', async () => {
      const { taskId } = await zipOf(owner.token, [ownerRoot.id]);
      const tasks = app().services.downloads.tasks;
      const { object_key: key } = await app().db.selectFrom('zip_tasks').select('object_key').where('id', '=', taskId).executeTakeFirstOrThrow();
      const stored = () => app().services.objects.stat(key!);
      expect(await stored()).not.toBeNull();
      await tasks.sweep(Date.now() + tasks.options.ttlMs - 60_000);
      expect(await stored()).not.toBeNull();
      await tasks.sweep(Date.now() + tasks.options.ttlMs + 1);
      expect(await stored()).toBeNull();
      const s = await status(owner.token, taskId);
      expectError({ status: s.status, json: s.body }, 404, 404);
      expectError(await raw(app(), 'GET', `/api/User/FileTransfer/DownloadTasks/${taskId}/File`, { token: owner.token }), 404, 404);
    });

    test('a file purged after the task was made is still in its zip; its content goes when the task expires, a shared one stays', async () => {
      const folder = await makeFolder(app(), owner.token, ownerRoot.id, '将清除');
      const photo = crypto.randomBytes(300_000);
      const kept = crypto.randomBytes(200_000);
      const fPhoto = await makeFile(app(), owner.token, owner.userId, folder.id, '照片.jpg', photo);
      await makeFile(app(), owner.token, owner.userId, folder.id, '说明.txt', 'hello 云文档\n'.repeat(500));
      await makeFile(app(), owner.token, owner.userId, folder.id, '保留.mp4', kept);
      // the same content in another file, which stays
      const fCopy = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '副本.mp4', kept);
      const blobKey = async (fileId: string) =>
        (
          await app()
            .db.selectFrom('file_versions')
            .innerJoin('blobs', 'blobs.id', 'file_versions.blob_id')
            .select('blobs.storage_key')
            .where('file_versions.item_id', '=', Number(fileId))
            .executeTakeFirstOrThrow()
        ).storage_key;
      const photoBlob = `blobs/${await blobKey(fPhoto.id)}`;
      const keptBlob = `blobs/${await blobKey(fCopy.id)}`;
      const objects = app().services.objects;

      const created = await createTask(owner.token, [folder.id]);
      expect(created.status).toBe(200);
      const taskId = created.body.result.taskId as string;
      // the folder is deleted and purged from the recycle bin while the archive is made
      await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [folder.id] });
      await ok(app(), 'DELETE', '/api/User/Recycle', { token: owner.token, body: [folder.id] });
      expect(await objects.stat(photoBlob)).not.toBeNull();
      const s = await waitFor(owner.token, taskId);
      expect(s.state).toBe('ready');
      const res = await raw(app(), 'GET', s.downloadUrl, { token: owner.token });
      expect(res.status).toBe(200);
      const entries = await readZip(res.payload);
      expect(entries.map((x) => [x.name, x.method, x.md5])).toEqual([
        ['将清除/', 0, null],
        ['将清除/照片.jpg', 0, md5(photo)],
        ['将清除/说明.txt', 8, md5('hello 云文档\n'.repeat(500))],
        ['将清除/保留.mp4', 0, md5(kept)],
      ]);
      // the stored files are not written into the archive's object a second time
      const { object_key: key } = await app().db.selectFrom('zip_tasks').select('object_key').where('id', '=', taskId).executeTakeFirstOrThrow();
      expect((await objects.stat(key!))!.size).toBeLessThan(res.payload.length - photo.length - kept.length + 1);
      // a range that starts in the frame and ends inside the photo
      const at = res.payload.indexOf(photo.subarray(0, 64));
      const part = await raw(app(), 'GET', s.downloadUrl, { token: owner.token, headers: { range: `bytes=${at - 40}-${at + 999}` } });
      expect(part.status).toBe(206);
      expect(part.payload.equals(res.payload.subarray(at - 40, at + 1000))).toBe(true);

      const tasks = app().services.downloads.tasks;
      await tasks.sweep(Date.now() + tasks.options.ttlMs + 1);
      expect(await objects.stat(key!)).toBeNull();
      expect(await objects.stat(photoBlob)).toBeNull();
      expect(await app().db.selectFrom('blobs').select('id').where('storage_key', '=', photoBlob.slice('blobs/'.length)).executeTakeFirst()).toBeUndefined();
      expect(await objects.stat(keptBlob)).not.toBeNull();
      const copy = await download(fCopy.id, { token: owner.token });
      expect(md5(copy.payload)).toBe(md5(kept));
    });

    test('limits: too many entries 400, too many tasks of one user 429', async () => {
      const downloads = app().services.downloads;
      const saved = { ...downloads.limits };
      try {
        downloads.limits.maxEntries = 3;
        const res = await createTask(editor.token, [top.id]);
        expectError({ status: res.status, json: res.body }, 400, 40001);
        downloads.limits.maxEntries = saved.maxEntries;
        downloads.limits.maxBytes = 10;
        const big = await createTask(editor.token, [top.id]);
        expectError({ status: big.status, json: big.body }, 400, 40001);
      } finally {
        Object.assign(downloads.limits, saved);
      }
      const options = downloads.tasks.options;
      const pending = options.maxPendingPerUser;
      try {
        options.maxPendingPerUser = 0;
        const res = await createTask(owner.token, [ownerRoot.id]);
        expectError({ status: res.status, json: res.body }, 429, 42901);
      } finally {
        options.maxPendingPerUser = pending;
      }
    });

    test('one build at a time per user: later tasks wait, then all complete', async () => {
      const created = [];
      for (let i = 0; i < 3; i++) created.push((await createTask(owner.token, [ownerRoot.id])).body.result.taskId as string);
      const states = await Promise.all(created.map(async (id) => (await app().services.downloads.status(userTaskOwner(Number(owner.userId)), id)).state));
      expect(states.filter((s) => s === 'running').length).toBeLessThanOrEqual(1);
      for (const id of created) expect((await waitFor(owner.token, id)).state).toBe('ready');
    });

    test('ZIP64 records (forced) are read back correctly', async () => {
      const options = app().services.downloads.tasks.options;
      options.forceZip64Format = true;
      try {
        const { entries, res } = await zipOf(viewer.token, [ids.readme, ids.photo, ids.empty]);
        expect(res.payload.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true); // ZIP64 end of central directory
        expect(entries.map((x) => [x.name, x.md5])).toEqual([
          ['说明.txt', md5(text)],
          ['照片.JPG', md5(jpg)],
          ['空.txt', md5('')],
        ]);
      } finally {
        options.forceZip64Format = false;
      }
    });
  });
});
