// Sharing through the real server on SQLite and PostgreSQL: the creator's share records, internal
// recipients by user, department and group, external links with a key, and the share matrix on
// every share call and every External call, with the state read back.
import crypto from 'node:crypto';
import yauzl from 'yauzl';
import { call, databaseKinds, ENGLISH_FRAMEWORK_TEXT, HAN, ok, roleCast, startServer, type CallResult, type TestServer, type TestUser } from './support/harness';
import { makeFile, makeFolder, raw } from './support/content';
import { createTask, md5, sendChunk, uploadFile } from './support/uploads';

const GONE = '指定的分享不存在或已过期。';

function zipNames(buffer: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(names));
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.readEntry();
    });
  });
}

describe.each(databaseKinds())('sharing (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ adminToken, owner, outsider, editor, viewer, ownerRoot, publicRoot } = await roleCast(server.app));
  });
  afterAll(async () => server.close());

  const app = () => server.app;
  const db = () => server.app.db;

  const expectError = (res: CallResult | { status: number; json: any }, status: number, code: number, message?: string) => {
    const body = 'json' in res ? res.json : res.body;
    expect({ status: res.status, code: body?.code, result: body?.result }).toEqual({ status, code, result: null });
    expect(body.message).toMatch(HAN);
    expect(body.message).not.toMatch(ENGLISH_FRAMEWORK_TEXT);
    if (message) expect(body.message).toBe(message);
  };
  const expectGone = (res: CallResult | { status: number; json: any }) => expectError(res, 401, 401, GONE);

  /** A folder of the owner's with a file, a subfolder with a file, and a sibling folder with a secret. */
  async function tree(tag = crypto.randomUUID().slice(0, 6)) {
    const parent = await makeFolder(app(), owner.token, ownerRoot.id, `上级-${tag}`);
    const root = await makeFolder(app(), owner.token, parent.id, `项目-${tag}`);
    const a = await makeFile(app(), owner.token, owner.userId, root.id, '甲.txt', `甲的内容 ${tag}`);
    const sub = await makeFolder(app(), owner.token, root.id, '子目录');
    const b = await makeFile(app(), owner.token, owner.userId, sub.id, '乙.bin', crypto.randomBytes(3000));
    const sibling = await makeFolder(app(), owner.token, parent.id, `隔壁-${tag}`);
    const secret = await makeFile(app(), owner.token, owner.userId, sibling.id, '机密.txt', 'secret');
    return { parent, root, a, sub, b, sibling, secret };
  }

  const createShare = (token: string, body: Record<string, unknown>) => call(app(), 'POST', '/api/User/Shares', { token, body });
  async function external(token: string, fileIds: string[], extra: Record<string, unknown> = {}) {
    const r = await createShare(token, { fileIds, shareType: 2, level: 2, expireAt: null, accessKey: '', downloadLimit: null, ...extra });
    if (r.body?.code !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.result as { shareId: string; url: string; accessKey: string };
  }
  async function internal(token: string, fileIds: string[], targets: { type: number; id: string }[], extra: Record<string, unknown> = {}) {
    const r = await createShare(token, { fileIds, shareType: 1, level: 2, expireAt: null, targets, downloadLimit: null, ...extra });
    if (r.body?.code !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.result as { shareId: string; url: string; accessKey: string };
  }
  const info = (shareId: string, accessKey?: string, remoteAddress?: string) =>
    call(app(), 'GET', `/api/Outsource/${shareId}`, { headers: accessKey === undefined ? {} : { accessKey }, remoteAddress });
  const items = (shareId: string, accessKey: string | undefined, folderId?: string) =>
    call(app(), 'GET', `/api/Outsource/${shareId}/Items`, { headers: accessKey === undefined ? {} : { accessKey }, query: folderId ? { folderId } : {} });
  const extDownload = (shareId: string, accessKey: string, fileId: string, headers: Record<string, string> = {}) =>
    raw(app(), 'GET', `/api/User/FileTransfer/ExternalDownload/${fileId}?urlKey=${shareId}&accessKey=${encodeURIComponent(accessKey)}`, { headers });
  const sentRow = async (token: string, shareId: string) =>
    (await ok(app(), 'GET', '/api/User/Shares/Sent', { token, query: { pageSize: 100 } })).data.find((r: any) => r.shareId === shareId);
  const shareRow = (id: string) => db().selectFrom('shares').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  async function zipThrough(start: () => Promise<CallResult>, status: (taskId: string) => Promise<CallResult>, file: (url: string) => Promise<{ status: number; payload: Buffer }>) {
    const created = await start();
    expect(created.body.code).toBe(200);
    let s: any;
    for (let i = 0; i < 200; i++) {
      s = (await status(created.body.result.taskId)).body.result;
      if (s.percent === 100 || s.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(s.state).toBe('ready');
    const got = await file(s.downloadUrl);
    expect(got.status).toBe(200);
    return zipNames(got.payload);
  }

  test('an external link: 128-bit id, the key once and hashed, nothing before the key, the share path only', async () => {
    const t = await tree();
    const link = await external(owner.token, [t.root.id]);
    expect(Buffer.from(link.shareId, 'base64url').length).toBe(16);
    expect(link.url).toBe(`/s/${link.shareId}`);
    expect(link.accessKey).toMatch(/^[a-z2-9]{6}$/);
    const stored = await shareRow(link.shareId);
    expect(stored.access_key_hash).toBe(crypto.createHash('sha256').update(link.accessKey).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(`"${link.accessKey}"`);

    // before the key: who shares, until when, at what level; no name, nothing listed
    const before = await info(link.shareId);
    expect(before.body.result).toEqual({ shareId: link.shareId, ownerName: '所有者', name: '', needKey: true, expireAt: null, level: 2 });
    expectError(await items(link.shareId, undefined), 403, 40302);
    expectError(await items(link.shareId, 'wrong1'), 403, 40302, '提取码错误');
    expect(JSON.stringify((await items(link.shareId, 'wrong1')).body)).not.toContain('项目');
    expectError(await info(link.shareId, 'wrong1'), 403, 40302);

    const after = await info(link.shareId, link.accessKey);
    expect(after.body.result).toMatchObject({ name: t.root.name, needKey: false });
    // the top lists the shared folder's content; paths start at it
    const top = (await items(link.shareId, link.accessKey)).body.result;
    expect(top.folder).toMatchObject({ id: t.root.id, parentId: null, namePath: t.root.name, idPath: t.root.id });
    expect(top.items.data.map((i: any) => i.name).sort()).toEqual(['子目录', '甲.txt'].sort());
    const sub = (await items(link.shareId, link.accessKey, t.sub.id)).body.result;
    expect(sub.folder).toMatchObject({ id: t.sub.id, parentId: t.root.id, namePath: `${t.root.name}/子目录`, idPath: `${t.root.id}/${t.sub.id}` });
    expect(sub.items.data).toEqual([expect.objectContaining({ id: t.b.id, name: '乙.bin', namePath: `${t.root.name}/子目录/乙.bin`, permissions: ['view', 'download', 'copy'] })]);
    expect(JSON.stringify([top, sub])).not.toContain(t.parent.name);
    // ids outside the share answer as if they did not exist
    for (const outside of [t.sibling.id, t.parent.id, ownerRoot.id, publicRoot.id]) expectError(await items(link.shareId, link.accessKey, outside), 404, 404);
    for (const outside of [t.secret.id, '999999999']) expectError(await extDownload(link.shareId, link.accessKey, outside), 404, 404);
    expect((await shareRow(link.shareId)).visit_count).toBe(1);
  });

  test('external downloads: byte-exact with Range, counted once per download, zip of the share only, preview-only refused on every byte route', async () => {
    const t = await tree();
    const link = await external(owner.token, [t.root.id]);
    const whole = await extDownload(link.shareId, link.accessKey, t.b.id);
    expect(whole.status).toBe(200);
    const original = await raw(app(), 'GET', `/api/User/FileTransfer/Download/${t.b.id}`, { token: owner.token });
    expect(md5(whole.payload)).toBe(md5(original.payload));
    // a download resumed from byte 1000 is the same download
    const rest = await extDownload(link.shareId, link.accessKey, t.b.id, { range: 'bytes=1000-' });
    expect(rest.status).toBe(206);
    expect(rest.payload.equals(original.payload.subarray(1000))).toBe(true);
    expect((await shareRow(link.shareId)).download_count).toBe(1);
    // the header works as well as the query
    const viaHeader = await raw(app(), 'GET', `/api/User/FileTransfer/ExternalDownload/${t.a.id}?urlKey=${link.shareId}`, { headers: { accessKey: link.accessKey } });
    expect(viaHeader.status).toBe(200);

    const base = `/api/User/FileTransfer/External/${link.shareId}`;
    const names = await zipThrough(
      () => call(app(), 'POST', `${base}/DownloadTask`, { headers: { accessKey: link.accessKey }, body: [t.root.id] }),
      (id) => call(app(), 'GET', `${base}/DownloadTasks/${id}/Status`, { headers: { accessKey: link.accessKey } }),
      (url) => raw(app(), 'GET', `${url}?accessKey=${link.accessKey}`),
    );
    expect(names.sort()).toEqual([`${t.root.name}/`, `${t.root.name}/甲.txt`, `${t.root.name}/子目录/`, `${t.root.name}/子目录/乙.bin`].sort());
    expect((await shareRow(link.shareId)).download_count).toBe(3);
    // a zip outside the share, another share's task, the file without the key
    expectError(await call(app(), 'POST', `${base}/DownloadTask`, { headers: { accessKey: link.accessKey }, body: [t.sibling.id] }), 404, 404);
    expectError(await call(app(), 'POST', `${base}/DownloadTask`, { headers: { accessKey: link.accessKey }, body: [t.a.id, t.secret.id] }), 404, 404);

    // level 1: preview only; no byte route serves it
    const view = await external(owner.token, [t.root.id], { level: 1 });
    expectError(await extDownload(view.shareId, view.accessKey, t.a.id), 403, 40301);
    expectError(await call(app(), 'POST', `/api/User/FileTransfer/External/${view.shareId}/DownloadTask`, { headers: { accessKey: view.accessKey }, body: [t.a.id] }), 403, 40301);
    expect((await items(view.shareId, view.accessKey)).body.result.items.data.find((i: any) => i.name === '甲.txt').permissions).toEqual(['view']);
    expect((await shareRow(view.shareId)).download_count).toBe(0);
  });

  test('a download limit of 1 under 20 concurrent downloads gives exactly one; then the link is gone', async () => {
    const t = await tree();
    const link = await external(owner.token, [t.root.id], { downloadLimit: 1 });
    const results = await Promise.all(Array.from({ length: 20 }, () => extDownload(link.shareId, link.accessKey, t.a.id)));
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    for (const r of results.filter((x) => x.status !== 200)) expectGone(r);
    expect((await shareRow(link.shareId)).download_count).toBe(1);
    expectGone(await info(link.shareId, link.accessKey));
    expectGone(await items(link.shareId, link.accessKey));
    expect(await sentRow(owner.token, link.shareId)).toMatchObject({ status: 2, downloadCount: 1, downloadLimit: 1 });
  });

  test('wrong keys: 5 per address in the window, then 429 for that address only; a ceiling per share; never a lasting lock', async () => {
    const t = await tree();
    const link = await external(owner.token, [t.root.id], { accessKey: 'Key2026' });
    for (let i = 0; i < 5; i++) expectError(await info(link.shareId, `bad${i}`, '10.0.0.1'), 403, 40302);
    const locked = await info(link.shareId, 'Key2026', '10.0.0.1');
    expectError(locked, 429, 42901);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not affected
    expect((await info(link.shareId, 'Key2026', '10.0.0.2')).body.result.needKey).toBe(false);
    // the window passes: the address may try again
    await db().updateTable('share_key_failures').set({ created_at: Date.now() - server.app.services.shares.throttle.windowMs - 1 }).where('share_id', '=', link.shareId).execute();
    expect((await info(link.shareId, 'Key2026', '10.0.0.1')).body.result.needKey).toBe(false);

    // the per-share ceiling: many addresses together
    const throttle = server.app.services.shares.throttle;
    const saved = throttle.shareLimit;
    throttle.shareLimit = 8;
    try {
      for (let i = 0; i < 8; i++) expectError(await info(link.shareId, 'nope', `10.1.0.${i}`), 403, 40302);
      expectError(await info(link.shareId, 'Key2026', '10.2.0.1'), 429, 42901);
    } finally {
      throttle.shareLimit = saved;
    }
    // the key is never echoed
    expect(JSON.stringify((await info(link.shareId, 'nope', '10.3.0.1')).body)).not.toContain('Key2026');
  });

  test('a share stops at once: cancelled, expired, creator disabled, item in the recycle bin; all answer alike', async () => {
    const admin = adminToken;
    const t = await tree();
    const cancelled = await external(owner.token, [t.a.id]);
    const expired = await external(owner.token, [t.a.id]);
    const deleted = await external(owner.token, [t.sub.id]);
    for (const s of [cancelled, expired, deleted]) expect((await info(s.shareId, s.accessKey)).body.code).toBe(200);

    expect(await ok(app(), 'DELETE', '/api/User/Shares', { token: owner.token, body: [cancelled.shareId] })).toEqual({ cancelled: 1 });
    await db().updateTable('shares').set({ expires_at: Date.now() - 1000 }).where('id', '=', expired.shareId).execute();
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [t.sub.id] });
    for (const s of [cancelled, expired, deleted]) {
      expectGone(await info(s.shareId, s.accessKey));
      expectGone(await info(s.shareId));
      expectGone(await items(s.shareId, s.accessKey));
      expectGone(await extDownload(s.shareId, s.accessKey, t.a.id));
    }
    expectGone(await info(`${'A'.repeat(22)}`));
    expectGone(await info('short'));
    const rows = await Promise.all([cancelled, expired, deleted].map((s) => sentRow(owner.token, s.shareId)));
    expect(rows.map((r) => r.status)).toEqual([3, 2, 2]);

    // the creator disabled: gone; enabled again: works
    const creator = await ok(app(), 'POST', '/api/Admin/Users', { token: admin, body: { userName: `sharer${crypto.randomUUID().slice(0, 6)}`, nickName: '分享人', password: 'Sharer-Passw0rd-1', deptId: null, mustChangePassword: false } });
    const session = await ok(app(), 'POST', '/api/login', { body: { userName: (await db().selectFrom('users').select('user_name').where('id', '=', Number(creator.userId)).executeTakeFirstOrThrow()).user_name, password: 'Sharer-Passw0rd-1', mode: 'password' } });
    const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: session.token }))[0];
    const f = await makeFile(app(), session.token, creator.userId, root.id, '文件.txt', 'abc');
    const link = await external(session.token, [f.id]);
    await ok(app(), 'POST', `/api/Admin/Users/${creator.userId}/Disable`, { token: admin });
    expectGone(await info(link.shareId, link.accessKey));
    expectGone(await info(link.shareId));
    await ok(app(), 'POST', `/api/Admin/Users/${creator.userId}/Enable`, { token: admin });
    expect((await extDownload(link.shareId, link.accessKey, f.id)).payload.toString()).toBe('abc');
  });

  test('creating: the level at most the creator’s, visible items only, keys, expiry, targets checked', async () => {
    const t = await tree();
    const bad = async (token: string, body: Record<string, unknown>, status: number, code: number) =>
      expectError(await createShare(token, { fileIds: [t.root.id], shareType: 2, level: 2, expireAt: null, ...body }), status, code);
    await bad(outsider.token, {}, 404, 404); // not visible
    await bad(owner.token, { fileIds: ['999999999'] }, 404, 404);
    await bad(owner.token, { accessKey: 'a b' }, 400, 40001);
    await bad(owner.token, { accessKey: '123' }, 400, 40001);
    await bad(owner.token, { expireAt: '2020-01-01 00:00:00' }, 400, 40001);
    await bad(owner.token, { expireAt: '2099-02-30 00:00:00' }, 400, 40001);
    await bad(owner.token, { level: 4 }, 400, 40001);
    await bad(owner.token, { shareType: 1, targets: [] }, 400, 40001);
    await bad(owner.token, { shareType: 1, targets: [{ type: 1, id: '999999999' }] }, 400, 40001);
    await bad(owner.token, { shareType: 1, targets: [{ type: 2, id: '999999999' }] }, 400, 40001);
    // an enterprise folder the viewer may only preview cannot be shared for download
    const ent = await makeFolder(app(), editor.token, publicRoot.id, `企业-${crypto.randomUUID().slice(0, 6)}`);
    await ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', { token: editor.token, body: { fileId: ent.id, policies: [{ subjectType: 1, subjectId: viewer.userId, level: 1 }] } });
    await bad(viewer.token, { fileIds: [ent.id], level: 2 }, 403, 40301);
    expect((await createShare(viewer.token, { fileIds: [ent.id], shareType: 2, level: 1, expireAt: null })).body.code).toBe(200);
    // a typed key and an expiry come back in the records
    const typed = await external(owner.token, [t.a.id, t.sub.id], { accessKey: 'Abcd1234', expireAt: '2099-12-31 23:59:59', downloadLimit: 5 });
    expect(typed.accessKey).toBe('Abcd1234');
    expect(await sentRow(owner.token, typed.shareId)).toMatchObject({
      shareType: 2,
      level: 2,
      status: 1,
      expireAt: '2099-12-31 23:59:59',
      downloadLimit: 5,
      url: `/s/${typed.shareId}`,
      items: [expect.objectContaining({ id: t.a.id, name: '甲.txt', type: 'file' }), expect.objectContaining({ id: t.sub.id, name: '子目录', type: 'folder' })],
    });
    // several items: the top lists them, named after the first
    const top = (await items(typed.shareId, 'Abcd1234')).body.result;
    expect(top.folder.name).toBe('甲.txt等2个文件');
    expect(top.items.data.map((i: any) => i.id)).toEqual([t.a.id, t.sub.id]);
    expect(top.items.data.map((i: any) => i.parentId)).toEqual([null, null]);
  });

  test('changing and cancelling: the creator only; a new key replaces the old; nothing changes on a refusal', async () => {
    const t = await tree();
    const link = await external(owner.token, [t.root.id], { accessKey: 'OldKey1' });
    expectError(await call(app(), 'PUT', `/api/User/Shares/${link.shareId}`, { token: outsider.token, body: { level: 1 } }), 404, 404);
    expectError(await call(app(), 'DELETE', '/api/User/Shares', { token: outsider.token, body: [link.shareId] }), 404, 404);
    const outsiderRoot = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0];
    const mine = await external(outsider.token, [(await makeFile(app(), outsider.token, outsider.userId, outsiderRoot.id, `外人-${Date.now()}.txt`, 'x')).id]);
    expectError(await call(app(), 'DELETE', '/api/User/Shares', { token: outsider.token, body: [mine.shareId, link.shareId] }), 404, 404);
    expect((await shareRow(mine.shareId)).deleted).toBe(0);
    expect((await shareRow(link.shareId)).deleted).toBe(0);

    const changed = await ok(app(), 'PUT', `/api/User/Shares/${link.shareId}`, {
      token: owner.token,
      body: { level: 1, expireAt: '2099-01-01 08:00:00', accessKey: '', downloadLimit: 3 },
    });
    expect(changed).toMatchObject({ level: 1, expireAt: '2099-01-01 08:00:00', downloadLimit: 3, status: 1 });
    expect(changed.accessKey).toMatch(/^[a-z2-9]{6}$/);
    expectError(await info(link.shareId, 'OldKey1'), 403, 40302);
    expect((await info(link.shareId, changed.accessKey)).body.result).toMatchObject({ level: 1, needKey: false, expireAt: '2099-01-01 08:00:00' });
    expectError(await extDownload(link.shareId, changed.accessKey, t.a.id), 403, 40301);
    expectError(await call(app(), 'PUT', `/api/User/Shares/${link.shareId}`, { token: owner.token, body: { targets: [{ type: 1, id: viewer.userId }] } }), 400, 40001);
    expect((await ok(app(), 'PUT', `/api/User/Shares/${link.shareId}`, { token: owner.token, body: { expireAt: null, downloadLimit: null } })).expireAt).toBeNull();

    expect(await ok(app(), 'DELETE', '/api/User/Shares', { token: owner.token, body: [link.shareId] })).toEqual({ cancelled: 1 });
    expectGone(await info(link.shareId, changed.accessKey));
    expectError(await call(app(), 'PUT', `/api/User/Shares/${link.shareId}`, { token: owner.token, body: { level: 2 } }), 404, 404);
  });

  test('internal shares: recipients by user, department (and below) and group; everyone else, and outsiders, see nothing', async () => {
    const t = await tree();
    const dept = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: `研发部-${crypto.randomUUID().slice(0, 6)}` } });
    const team = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '前端组', parentId: dept.id } });
    const group = await ok(app(), 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: `项目组-${crypto.randomUUID().slice(0, 6)}` } });
    const mkUser = async (nickName: string, deptId: string | null) => {
      const userName = `u${crypto.randomUUID().slice(0, 8)}`;
      const u = await ok(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName, nickName, password: 'Recip-Passw0rd-1', deptId, mustChangePassword: false } });
      const s = await ok(app(), 'POST', '/api/login', { body: { userName, password: 'Recip-Passw0rd-1', mode: 'password' } });
      return { userId: u.userId as string, token: s.token as string };
    };
    const inTeam = await mkUser('前端同事', team.id);
    const inGroup = await mkUser('组员', null);
    await ok(app(), 'PUT', `/api/Admin/Groups/${group.id}/Members`, { token: adminToken, body: { userIds: [inGroup.userId] } });

    const byUser = await internal(owner.token, [t.root.id], [{ type: 1, id: viewer.userId }]);
    const byDept = await internal(owner.token, [t.root.id], [{ type: 2, id: dept.id }], { level: 1 });
    const byGroup = await internal(owner.token, [t.sub.id], [{ type: 3, id: group.id }], { level: 3 });
    expect(byUser.url).toBe('');
    expect(byUser.accessKey).toBe('');

    const received = async (token: string) => (await ok(app(), 'GET', '/api/User/Shares/Received', { token, query: { pageSize: 100 } })).data.map((r: any) => r.shareId);
    expect(await received(viewer.token)).toContain(byUser.shareId);
    expect(await received(viewer.token)).not.toContain(byDept.shareId);
    expect(await received(inTeam.token)).toEqual(expect.arrayContaining([byDept.shareId]));
    expect(await received(inTeam.token)).not.toContain(byUser.shareId);
    expect(await received(inGroup.token)).toContain(byGroup.shareId);
    expect(await received(outsider.token)).not.toEqual(expect.arrayContaining([byUser.shareId]));
    expect(await received(owner.token)).not.toContain(byUser.shareId);
    const row = (await ok(app(), 'GET', '/api/User/Shares/Received', { token: viewer.token })).data.find((r: any) => r.shareId === byUser.shareId);
    expect(row).toMatchObject({ ownerName: '所有者', level: 2, status: 1, items: [expect.objectContaining({ id: t.root.id, name: t.root.name })] });
    expect((await sentRow(owner.token, byDept.shareId)).targets).toEqual([{ type: 2, id: dept.id, name: dept.name }]);

    // the recipient uses the ordinary calls with shareId
    const list = (id: string, token: string, shareId: string) => call(app(), 'GET', `/api/User/Folders/${id}/Items`, { token, query: { shareId } });
    const listed = (await list(t.root.id, viewer.token, byUser.shareId)).body.result;
    expect(listed.folder).toMatchObject({ id: t.root.id, namePath: t.root.name, parentId: null });
    expect(listed.items.data.map((i: any) => i.name).sort()).toEqual(['子目录', '甲.txt'].sort());
    const got = await raw(app(), 'GET', `/api/User/FileTransfer/Download/${t.a.id}?shareId=${byUser.shareId}`, { token: viewer.token });
    expect(got.payload.toString()).toContain('甲的内容');
    const zip = await zipThrough(
      () => call(app(), 'POST', '/api/User/FileTransfer/DownloadTask', { token: viewer.token, query: { shareId: byUser.shareId }, body: [t.sub.id] }),
      (id) => call(app(), 'GET', `/api/User/FileTransfer/DownloadTasks/${id}/Status`, { token: viewer.token }),
      (url) => raw(app(), 'GET', url, { token: viewer.token }),
    );
    expect(zip.sort()).toEqual(['子目录/', '子目录/乙.bin']);
    // without the share, the viewer has no way in; outside the share nothing shows
    expectError(await call(app(), 'GET', `/api/User/Folders/${t.root.id}/Items`, { token: viewer.token }), 404, 404);
    expectError(await list(t.sibling.id, viewer.token, byUser.shareId), 404, 404);
    expectError(await raw(app(), 'GET', `/api/User/FileTransfer/Download/${t.secret.id}?shareId=${byUser.shareId}`, { token: viewer.token }), 404, 404);
    // non-recipients, and the external routes, get the share message
    expectGone(await list(t.root.id, outsider.token, byUser.shareId));
    expectGone(await list(t.root.id, inTeam.token, byUser.shareId));
    expectGone(await info(byUser.shareId, 'anything'));
    // an internal share needs a session
    expectError(await call(app(), 'GET', `/api/User/Folders/${t.root.id}/Items`, { query: { shareId: byUser.shareId } }), 401, 401);
    // the department's share is preview-only: no download for the team member
    expect((await list(t.root.id, inTeam.token, byDept.shareId)).body.code).toBe(200);
    expectError(await raw(app(), 'GET', `/api/User/FileTransfer/Download/${t.a.id}?shareId=${byDept.shareId}`, { token: inTeam.token }), 403, 40301);
    // counts: two downloads (one file, one zip) and a visit
    expect(await sentRow(owner.token, byUser.shareId)).toMatchObject({ downloadCount: 2, visitCount: 1 });
    const events = (await ok(app(), 'GET', `/api/User/Shares/${byUser.shareId}/Events`, { token: owner.token })).data;
    expect(events.map((e: any) => e.kind).sort()).toEqual(['download', 'download', 'visit']);
    expect(events.every((e: any) => e.userName === '读者')).toBe(true);
    expectError(await call(app(), 'GET', `/api/User/Shares/${byUser.shareId}/Events`, { token: viewer.token }), 404, 404);

    // cancelled: gone for the recipient at once, and out of 与我共享
    await ok(app(), 'DELETE', '/api/User/Shares', { token: owner.token, body: [byUser.shareId] });
    expectGone(await list(t.root.id, viewer.token, byUser.shareId));
    expect(await received(viewer.token)).not.toContain(byUser.shareId);
  });

  test('never more than the creator holds now: an enterprise folder whose right the creator loses', async () => {
    const ent = await makeFolder(app(), editor.token, publicRoot.id, `共享-${crypto.randomUUID().slice(0, 6)}`);
    const f = await makeFile(app(), editor.token, editor.userId, ent.id, '企业.txt', 'enterprise');
    const setLevel = (level: number) =>
      ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', { token: editor.token, body: { fileId: ent.id, policies: [{ subjectType: 1, subjectId: viewer.userId, level }] } });
    await setLevel(3);
    const link = await external(viewer.token, [ent.id], { level: 3 });
    const toOutsider = await internal(viewer.token, [ent.id], [{ type: 1, id: outsider.userId }], { level: 3 });
    expect((await items(link.shareId, link.accessKey)).body.result.items.data[0].permissions).toContain('upload');
    await setLevel(2); // the share's level is capped at what the creator holds now
    expect((await items(link.shareId, link.accessKey)).body.result.items.data[0].permissions).toEqual(['view', 'download', 'copy']);
    expect((await extDownload(link.shareId, link.accessKey, f.id)).payload.toString()).toBe('enterprise');
    await setLevel(0); // lost: the share is gone for everyone
    expectGone(await info(link.shareId, link.accessKey));
    expectGone(await extDownload(link.shareId, link.accessKey, f.id));
    expectGone(await call(app(), 'GET', `/api/User/Folders/${ent.id}/Items`, { token: outsider.token, query: { shareId: toOutsider.shareId } }));
    expect((await ok(app(), 'GET', '/api/User/Shares/Received', { token: outsider.token })).data.map((r: any) => r.shareId)).not.toContain(toOutsider.shareId);
    expect((await sentRow(viewer.token, link.shareId)).status).toBe(2);
  });

  test('uploads through an external link at level 3 are recorded; at level 2 refused', async () => {
    const t = await tree();
    const link = await external(owner.token, [t.root.id], { level: 3 });
    const content = crypto.randomBytes(2000);
    const chunk = server.app.services.uploads.limits.chunkSize;
    const item = await uploadFile(app(), { shareId: link.shareId, accessKey: link.accessKey }, t.sub.id, '来稿.bin', content, chunk);
    expect(item).toMatchObject({ name: '来稿.bin', ownerId: owner.userId, parentId: t.sub.id });
    const back = await extDownload(link.shareId, link.accessKey, item.id);
    expect(back.payload.equals(content)).toBe(true);
    const events = (await ok(app(), 'GET', `/api/User/Shares/${link.shareId}/Events`, { token: owner.token })).data;
    expect(events.map((e: any) => [e.kind, e.itemName, e.userName])).toEqual(
      expect.arrayContaining([
        ['upload', '来稿.bin', ''],
        ['download', '来稿.bin', ''],
      ]),
    );
    const readOnly = await external(owner.token, [t.root.id], { level: 2 });
    await expect(uploadFile(app(), { shareId: readOnly.shareId, accessKey: readOnly.accessKey }, t.sub.id, '不行.bin', content, chunk)).rejects.toThrow(/40301/);
    // outside the share's folder: as if it did not exist
    await expect(uploadFile(app(), { shareId: link.shareId, accessKey: link.accessKey }, t.sibling.id, '越界.bin', content, chunk)).rejects.toThrow(/404/);
  });

  test('a recipient uploads through an internal share at level 3, in their own sessions; at level 2 refused', async () => {
    const t = await tree();
    const chunk = server.app.services.uploads.limits.chunkSize;
    const editShare = await internal(owner.token, [t.root.id], [{ type: 1, id: viewer.userId }], { level: 3 });
    const readShare = await internal(owner.token, [t.root.id], [{ type: 1, id: outsider.userId }], { level: 2 });
    const content = crypto.randomBytes(1500);
    const item = await uploadFile(app(), { token: viewer.token, internalShareId: editShare.shareId }, t.sub.id, '内部来稿.bin', content, chunk);
    expect(item).toMatchObject({ name: '内部来稿.bin', parentId: t.sub.id, ownerId: owner.userId });
    const back = await raw(app(), 'GET', `/api/User/FileTransfer/Download/${item.id}`, { token: owner.token });
    expect(back.payload.equals(content)).toBe(true);
    const events = (await ok(app(), 'GET', `/api/User/Shares/${editShare.shareId}/Events`, { token: owner.token })).data;
    expect(events.map((e: any) => [e.kind, e.itemName, e.userName])).toContainEqual(['upload', '内部来稿.bin', '读者']);
    // the session is the recipient's own: the owner cannot send its chunks, nor can another recipient
    const created = await createTask(app(), { token: viewer.token, internalShareId: editShare.shareId }, { folderId: t.sub.id, fileName: '会话.bin', size: 10 });
    const sid = created.body.result.fileInfo.fileId;
    expect((await sendChunk(app(), { token: owner.token }, sid, 1, Buffer.alloc(10), { chunkSize: chunk, totalSize: 10 })).status).toBe(404);
    await expect(uploadFile(app(), { token: outsider.token, internalShareId: readShare.shareId }, t.sub.id, '不行.bin', content, chunk)).rejects.toThrow(/40301/);
    await expect(uploadFile(app(), { token: outsider.token, internalShareId: editShare.shareId }, t.sub.id, '非接收人.bin', content, chunk)).rejects.toThrow(/401/);
  });
});
