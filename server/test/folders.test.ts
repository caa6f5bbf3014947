// 云文档 files and folders: root folders, listings (paging, sorting, keyword), rights, CreateFile.
import { call, databaseKinds, HAN, login, ok, startServer, userWithToken, type TestServer } from './support/harness';

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe.each(databaseKinds())('files and folders (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let alice: Awaited<ReturnType<typeof userWithToken>>;
  let bob: Awaited<ReturnType<typeof userWithToken>>;
  let aliceRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
    alice = await userWithToken(server.app, adminToken, { nickName: '爱丽丝' });
    bob = await userWithToken(server.app, adminToken, { nickName: '鲍勃' });
    aliceRoot = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: alice.token }))[0];
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = (token: string, parentId: string, name: string, type: 'folder' | 'file' = 'folder') =>
    call(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type } });
  const createOk = async (token: string, parentId: string, name: string, type: 'folder' | 'file' = 'folder') => {
    const res = await create(token, parentId, name, type);
    if (res.status !== 200) throw new Error(`CreateFile ${name}: ${res.status} ${res.text}`);
    return res.body.result;
  };
  const list = (token: string, parentId: string, query: Record<string, string | number> = {}) =>
    call(server.app, 'GET', `/api/User/Folders/${parentId}/Items`, { token, query });
  const names = (res: { body: any }) => res.body.result.items.data.map((i: { name: string }) => i.name);

  test('each user has one personal root folder of their own', async () => {
    expect(aliceRoot).toEqual({
      id: expect.stringMatching(/^\d+$/),
      parentId: null,
      name: '个人文件',
      type: 'folder',
      extension: '',
      size: 0,
      idPath: `2/${aliceRoot.id}`,
      namePath: '个人文件',
      spaceType: 2,
      ownerId: alice.userId,
      ownerName: '爱丽丝',
      createdAt: expect.stringMatching(DATE_TIME),
      updatedAt: expect.stringMatching(DATE_TIME),
      isFavorite: false,
      tags: [],
      permissions: expect.arrayContaining(['view', 'upload', 'createFolder']),
      targetId: null,
      targetType: null,
      targetIdPath: null,
    });
    const bobRoots = await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: bob.token });
    expect(bobRoots).toHaveLength(1);
    expect(bobRoots[0].id).not.toBe(aliceRoot.id);
    expect(bobRoots[0].ownerId).toBe(bob.userId);
    // asking again gives the same folder
    expect((await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: alice.token }))[0].id).toBe(aliceRoot.id);
  });

  test('the enterprise root folder is shared by everyone, writable only by document administrators', async () => {
    const [forAlice] = await ok(server.app, 'GET', '/api/User/Folders/Public/RootFolders', { token: alice.token });
    const [forAdmin] = await ok(server.app, 'GET', '/api/User/Folders/Public/RootFolders', { token: adminToken });
    expect(forAlice.id).toBe(forAdmin.id);
    expect(forAlice).toMatchObject({ name: '企业文件', namePath: '企业文件', spaceType: 1, idPath: `1/${forAlice.id}`, parentId: null });
    // with no access policy on the path an enabled user has level 2: view, download and copy
    expect(forAlice.permissions).toEqual(['view', 'download', 'copy']);
    expect(forAdmin.permissions).toContain('createFolder');

    const refused = await create(alice.token, forAlice.id, '爱丽丝的企业目录');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(40301);
    expect(refused.body.message).toMatch(HAN);

    const made = await createOk(adminToken, forAdmin.id, '公司制度');
    expect(made).toMatchObject({ spaceType: 1, idPath: `1/${forAdmin.id}/${made.id}`, namePath: '企业文件/公司制度' });
    expect(names(await list(alice.token, forAlice.id))).toContain('公司制度');
  });

  test('an empty folder lists nothing', async () => {
    const empty = await createOk(bob.token, (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: bob.token }))[0].id, '空目录');
    const res = await list(bob.token, empty.id);
    expect(res.status).toBe(200);
    expect(res.body.result.folder).toMatchObject({ id: empty.id, name: '空目录' });
    expect(res.body.result.items).toEqual({ data: [], total: 0 });
  });

  describe('a listing', () => {
    let folder: any;
    beforeAll(async () => {
      folder = await createOk(alice.token, aliceRoot.id, '排序测试');
      for (const [name, type] of [
        ['zeta.txt', 'file'],
        ['B目录', 'folder'],
        ['Alpha.md', 'file'],
        ['beta.PDF', 'file'],
        ['a目录', 'folder'],
        ['gamma', 'file'],
        ['100%真.txt', 'file'],
      ] as const) {
        await createOk(alice.token, folder.id, name, type);
      }
      // sizes and times as uploads will set them
      const set = async (name: string, size: number, updatedAt: number) =>
        server.app.db.updateTable('items').set({ size, updated_at: updatedAt }).where('name', '=', name).where('parent_id', '=', Number(folder.id)).execute();
      await set('zeta.txt', 10, Date.UTC(2025, 0, 3));
      await set('Alpha.md', 300, Date.UTC(2025, 0, 1));
      await set('beta.PDF', 20, Date.UTC(2025, 0, 5));
      await set('gamma', 5000, Date.UTC(2025, 0, 2));
      await set('100%真.txt', 1, Date.UTC(2025, 0, 4));
    });

    test('lists folders first, then files, by name (case-insensitive) by default', async () => {
      const res = await list(alice.token, folder.id);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(200);
      expect(names(res)).toEqual(['a目录', 'B目录', '100%真.txt', 'Alpha.md', 'beta.PDF', 'gamma', 'zeta.txt']);
      expect(res.body.result.items.total).toBe(7);
      expect(res.body.result.folder).toMatchObject({ id: folder.id, name: '排序测试', namePath: '个人文件/排序测试' });
    });

    test('item fields: extension, path, owner, size', async () => {
      const res = await list(alice.token, folder.id);
      const beta = res.body.result.items.data.find((i: { name: string }) => i.name === 'beta.PDF');
      expect(beta).toMatchObject({
        type: 'file',
        extension: 'pdf',
        size: 20,
        parentId: folder.id,
        idPath: `${folder.idPath}/${beta.id}`,
        namePath: '个人文件/排序测试/beta.PDF',
        spaceType: 2,
        ownerId: alice.userId,
        ownerName: '爱丽丝',
        isFavorite: false,
        tags: [],
      });
      expect(beta.updatedAt).toBe('2025-01-05 08:00:00'); // midnight UTC is 08:00 in Asia/Shanghai
      const dir = res.body.result.items.data.find((i: { name: string }) => i.name === 'a目录');
      expect(dir).toMatchObject({ type: 'folder', extension: '' });
    });

    test('descending by name keeps folders first', async () => {
      expect(names(await list(alice.token, folder.id, { sortOrder: 'desc' }))).toEqual([
        'B目录',
        'a目录',
        'zeta.txt',
        'gamma',
        'beta.PDF',
        'Alpha.md',
        '100%真.txt',
      ]);
    });

    test('by size and by modification time (ties by name, in the same direction)', async () => {
      expect(names(await list(alice.token, folder.id, { sortField: 'size', sortOrder: 'desc' }))).toEqual([
        'B目录',
        'a目录',
        'gamma',
        'Alpha.md',
        'beta.PDF',
        'zeta.txt',
        '100%真.txt',
      ]);
      expect(names(await list(alice.token, folder.id, { sortField: 'updatedAt', sortOrder: 'asc' })).slice(2)).toEqual([
        'Alpha.md',
        'gamma',
        'zeta.txt',
        '100%真.txt',
        'beta.PDF',
      ]);
    });

    test('by type (extension)', async () => {
      expect(names(await list(alice.token, folder.id, { sortField: 'type' })).slice(2)).toEqual([
        'gamma',
        'Alpha.md',
        'beta.PDF',
        '100%真.txt',
        'zeta.txt',
      ]);
    });

    test('a keyword filters by name, case-insensitively, and counts only the matches', async () => {
      const res = await list(alice.token, folder.id, { keyword: 'TA' });
      expect(names(res)).toEqual(['beta.PDF', 'zeta.txt']);
      expect(res.body.result.items.total).toBe(2);
      expect(names(await list(alice.token, folder.id, { keyword: '目录' }))).toEqual(['a目录', 'B目录']);
      // LIKE wildcards are plain characters
      expect(names(await list(alice.token, folder.id, { keyword: '%' }))).toEqual(['100%真.txt']);
      expect(names(await list(alice.token, folder.id, { keyword: '_' }))).toEqual([]);
    });

    test('the client timestamp parameter is ignored', async () => {
      expect((await list(alice.token, folder.id, { timestamp: Date.now() })).status).toBe(200);
    });
  });

  test('pages from 1, up to 1000 a page, with the total of all items', async () => {
    const folder = await createOk(alice.token, aliceRoot.id, '分页测试');
    for (let i = 1; i <= 25; i++) await createOk(alice.token, folder.id, `文件${String(i).padStart(2, '0')}.txt`, 'file');
    const p1 = await list(alice.token, folder.id, { page: 1, pageSize: 10 });
    expect(names(p1)).toEqual(Array.from({ length: 10 }, (_, i) => `文件${String(i + 1).padStart(2, '0')}.txt`));
    expect(p1.body.result.items.total).toBe(25);
    const p3 = await list(alice.token, folder.id, { page: 3, pageSize: 10 });
    expect(names(p3)).toEqual(['文件21.txt', '文件22.txt', '文件23.txt', '文件24.txt', '文件25.txt']);
    const p4 = await list(alice.token, folder.id, { page: 4, pageSize: 10 });
    expect(p4.body.result.items).toEqual({ data: [], total: 25 });
    expect(names(await list(alice.token, folder.id, { pageSize: 1000 }))).toHaveLength(25);

    for (const [query, field] of [
      [{ pageSize: 1001 }, 'pageSize'],
      [{ page: 0 }, 'page'],
      [{ sortField: 'owner' }, 'sortField'],
      [{ sortOrder: 'up' }, 'sortOrder'],
    ] as const) {
      const bad = await list(alice.token, folder.id, query);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(40001);
      expect(bad.body.message).toMatch(HAN);
      expect(bad.body.message).toContain(field);
    }
  });

  test('a page may hold the last folders and the first files, in both directions', async () => {
    const folder = await createOk(alice.token, aliceRoot.id, '跨页测试');
    for (const n of ['d1', 'd2', 'd3']) await createOk(alice.token, folder.id, n, 'folder');
    for (const n of ['f1', 'f2', 'f3', 'f4', 'f5']) await createOk(alice.token, folder.id, n, 'file');
    const pages = async (sortOrder: 'asc' | 'desc') => {
      const out: string[][] = [];
      for (let page = 1; page <= 5; page++) {
        const res = await list(alice.token, folder.id, { page, pageSize: 2, sortOrder });
        expect(res.body.result.items.total).toBe(8);
        out.push(names(res));
      }
      return out;
    };
    expect(await pages('asc')).toEqual([['d1', 'd2'], ['d3', 'f1'], ['f2', 'f3'], ['f4', 'f5'], []]);
    expect(await pages('desc')).toEqual([['d3', 'd2'], ['d1', 'f5'], ['f4', 'f3'], ['f2', 'f1'], []]);
    const filtered = await list(alice.token, folder.id, { keyword: '3', pageSize: 1, page: 2 });
    expect(names(filtered)).toEqual(['f3']);
    expect(filtered.body.result.items.total).toBe(2);
  });

  test('paging through any sort, in either direction, gives the one-page order exactly', async () => {
    const folder = await createOk(alice.token, aliceRoot.id, '翻页一致');
    for (const n of ['c', 'a', 'b']) await createOk(alice.token, folder.id, `目录${n}`, 'folder');
    // empty files: equal sizes and extensions make ties that the name and id must break
    for (const n of ['k.txt', 'b.pdf', 'h.txt', 'a.md', 'j.pdf', 'c.txt', 'i.md', 'd.txt', 'g.pdf', 'e.txt', 'f.md']) {
      await createOk(alice.token, folder.id, n, 'file');
    }
    for (const sortField of ['name', 'size', 'updatedAt', 'type'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const whole = names(await list(alice.token, folder.id, { sortField, sortOrder, pageSize: 1000 }));
        expect(whole).toHaveLength(14);
        const paged: string[] = [];
        for (let page = 1; page <= 5; page++) {
          paged.push(...names(await list(alice.token, folder.id, { sortField, sortOrder, page, pageSize: 3 })));
        }
        expect(paged).toEqual(whole);
      }
    }
  });

  test("another user's personal folders answer 404, exactly like folders that do not exist", async () => {
    const secret = await createOk(alice.token, aliceRoot.id, '机密');
    for (const id of [aliceRoot.id, secret.id]) {
      const res = await list(bob.token, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, result: null, message: '文件夹不存在或已被删除' });
      const write = await create(bob.token, id, '偷偷放一个');
      expect(write.status).toBe(404);
      expect(write.body.code).toBe(404);
    }
    // even the administrator does not see into personal spaces
    expect((await list(adminToken, aliceRoot.id)).status).toBe(404);
    const missing = await list(bob.token, '987654321');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, result: null, message: '文件夹不存在或已被删除' });
    // a file is not a folder
    const file = await createOk(alice.token, aliceRoot.id, '说明.txt', 'file');
    expect((await list(alice.token, file.id)).status).toBe(404);
    // and nothing was created by bob
    expect(names(await list(alice.token, secret.id))).toEqual([]);
  });

  test('a non-numeric folder id is a validation error', async () => {
    const res = await list(alice.token, 'abc');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.message).toContain('parentId');
  });

  test('CreateFile makes a folder or an empty file and returns the item', async () => {
    const dir = await createOk(alice.token, aliceRoot.id, '  项目资料  ');
    expect(dir).toMatchObject({
      name: '项目资料',
      type: 'folder',
      parentId: aliceRoot.id,
      idPath: `2/${aliceRoot.id}/${dir.id}`,
      namePath: '个人文件/项目资料',
      size: 0,
      ownerId: alice.userId,
    });
    const file = await createOk(alice.token, dir.id, '计划.DOCX', 'file');
    expect(file).toMatchObject({ type: 'file', extension: 'docx', idPath: `2/${aliceRoot.id}/${dir.id}/${file.id}`, namePath: '个人文件/项目资料/计划.DOCX' });
    expect(names(await list(alice.token, dir.id))).toEqual(['计划.DOCX']);
  });

  test('CreateFile refuses bad names with a Chinese reason', async () => {
    const cases: [string, string][] = [
      ['', '名称不能为空'],
      ['   ', '名称不能为空'],
      ['a'.repeat(151), '名称不能超过 150 个字符'],
      ['a/b', '名称不能包含 /、\\ 或控制字符'],
      ['a\\b', '名称不能包含 /、\\ 或控制字符'],
      ['bad\u0001name', '名称不能包含 /、\\ 或控制字符'],
      ['.', '名称不能是 . 或 ..'],
      ['..', '名称不能是 . 或 ..'],
    ];
    for (const [name, message] of cases) {
      const res = await create(alice.token, aliceRoot.id, name);
      expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 400, body: { code: 40001, result: null, message } });
    }
    const longest = await create(alice.token, aliceRoot.id, '长'.repeat(150));
    expect(longest.status).toBe(200);
  });

  test('CreateFile validates the body fields', async () => {
    const badType = await call(server.app, 'POST', '/api/User/Files/CreateFile', { token: alice.token, body: { parentId: aliceRoot.id, name: 'x', type: 'shortcut' } });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain('type');
    const noParent = await call(server.app, 'POST', '/api/User/Files/CreateFile', { token: alice.token, body: { name: 'x', type: 'folder' } });
    expect(noParent.status).toBe(400);
    expect(noParent.body.message).toBe('缺少必填参数 parentId');
  });

  test('a live name may exist once per folder (case-insensitive): 409/40901', async () => {
    const dir = await createOk(alice.token, aliceRoot.id, '重名测试');
    await createOk(alice.token, dir.id, 'Report');
    for (const [name, type] of [
      ['Report', 'folder'],
      ['report', 'folder'],
      [' REPORT ', 'file'],
    ] as const) {
      const res = await create(alice.token, dir.id, name, type);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(40901);
      expect(res.body.result).toBeNull();
      expect(res.body.message).toMatch(HAN);
    }
    expect((await list(alice.token, dir.id)).body.result.items.total).toBe(1);
    // the same name in another folder is fine
    expect((await create(alice.token, aliceRoot.id, 'Report')).status).toBe(200);
    // and a deleted item frees its name
    await server.app.db.updateTable('items').set({ deleted_at: Date.now() }).where('parent_id', '=', Number(dir.id)).execute();
    expect((await create(alice.token, dir.id, 'report')).status).toBe(200);
  });

  test('the feature policy gates the spaces: a switched-off space has no roots and its folders answer 404', async () => {
    const [publicRoot] = await ok(server.app, 'GET', '/api/User/Folders/Public/RootFolders', { token: alice.token });
    const all = { personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: true };
    try {
      await ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', { token: adminToken, body: { ...all, publicSpace: false } });
      expect(await ok(server.app, 'GET', '/api/User/Folders/Public/RootFolders', { token: alice.token })).toEqual([]);
      expect((await list(alice.token, publicRoot.id)).status).toBe(404);

      await ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', { token: adminToken, body: { ...all, personalSpace: false } });
      expect(await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: alice.token })).toEqual([]);
      expect((await list(alice.token, aliceRoot.id)).status).toBe(404);
      expect((await list(alice.token, publicRoot.id)).status).toBe(200);
    } finally {
      await ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', { token: adminToken, body: all });
    }
    expect((await list(alice.token, aliceRoot.id)).status).toBe(200);
  });

  test('times are rendered in the configured time zone', async () => {
    const item = await createOk(alice.token, aliceRoot.id, '时区测试');
    const utcApp = await server.restart({ TZ_NAME: 'UTC' });
    const utcToken = (await login(utcApp, alice.userName, alice.password)).token;
    const res = await call(utcApp, 'GET', `/api/User/Folders/${aliceRoot.id}/Items`, { token: utcToken, query: { keyword: '时区测试' } });
    const inUtc = res.body.result.items.data[0].createdAt as string;
    const toMs = (s: string) => Date.parse(`${s.replace(' ', 'T')}Z`);
    expect(toMs(item.createdAt) - toMs(inUtc)).toBe(8 * 60 * 60 * 1000);
  });
});
