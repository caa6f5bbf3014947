// 云文档 shortcuts, folder size calculation and manual order, with the role matrix of each
// call (docs/integration.md, "Shortcuts" and "Size and order").
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';

describe.each(databaseKinds())('shortcuts, size and order (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let disabled: TestUser;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ adminToken, owner, outsider, editor, viewer, disabled, ownerRoot, publicRoot } = await roleCast(server.app));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.app.db;
  const create = (token: string, parentId: string, name: string, type: 'folder' | 'file' = 'folder') =>
    ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type } });
  const shortcut = (token: string | undefined, targetId: string, parentId: string) =>
    call(server.app, 'POST', '/api/User/Folders/Shortcuts', { token, body: { targetId, parentId } });
  const sizeCalc = (token: string | undefined, id: string) => call(server.app, 'POST', `/api/User/Folders/${id}/SizeCalc`, { token });
  const setSort = (token: string | undefined, folderId: string, targetId: string, position: 'before' | 'after') =>
    call(server.app, 'POST', '/api/User/Folders/SetSort', { token, query: { folderId, targetId, position } });
  const listing = async (token: string, parentId: string, query: Record<string, string | number> = {}) =>
    (await ok(server.app, 'GET', `/api/User/Folders/${parentId}/Items`, { token, query })).items;
  const manual = async (token: string, parentId: string, sortOrder: 'asc' | 'desc' = 'asc') =>
    (await listing(token, parentId, { sortField: 'manual', sortOrder, pageSize: 1000 })).data.map((i: any) => i.name);
  const itemRow = (id: string) => db().selectFrom('items').selectAll().where('id', '=', Number(id)).executeTakeFirst();
  const childRows = (parentId: string) =>
    db().selectFrom('items').selectAll().where('parent_id', '=', Number(parentId)).orderBy('id').execute();
  const setSize = (id: string, size: number) => db().updateTable('items').set({ size }).where('id', '=', Number(id)).execute();

  const expectError = (res: { status: number; body: any }, status: number, code: number, message?: string) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
    if (message) expect(res.body.message).toBe(message);
  };

  describe('shortcuts', () => {
    test('a shortcut is named after its target and carries the target in listings', async () => {
      const home = await create(owner.token, ownerRoot.id, '快捷方式目录');
      const docs = await create(owner.token, ownerRoot.id, '资料');
      const file = await create(owner.token, docs.id, '方案.docx', 'file');
      const res = await shortcut(owner.token, docs.id, home.id);
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({
        parentId: home.id,
        name: '资料',
        type: 'shortcut',
        size: 0,
        targetId: docs.id,
        targetType: 'folder',
        targetIdPath: docs.idPath,
      });
      const toFile = (await shortcut(owner.token, file.id, home.id)).body.result;
      expect(toFile).toMatchObject({ name: '方案.docx', extension: 'docx', targetType: 'file', targetIdPath: file.idPath });
      // a clash gets （n）
      expect((await shortcut(owner.token, docs.id, home.id)).body.result.name).toBe('资料（1）');
      expect((await shortcut(owner.token, file.id, home.id)).body.result.name).toBe('方案（1）.docx');
      const listed = (await listing(owner.token, home.id)).data;
      expect(listed.map((i: any) => [i.name, i.type, i.targetId, i.targetType, i.targetIdPath])).toEqual([
        ['方案.docx', 'shortcut', file.id, 'file', file.idPath],
        ['方案（1）.docx', 'shortcut', file.id, 'file', file.idPath],
        ['资料', 'shortcut', docs.id, 'folder', docs.idPath],
        ['资料（1）', 'shortcut', docs.id, 'folder', docs.idPath],
      ]);
      expect((await listing(owner.token, ownerRoot.id)).data.find((i: any) => i.id === docs.id)).toMatchObject({
        targetId: null,
        targetType: null,
        targetIdPath: null,
      });
      expect((await itemRow(home.id))!.child_files).toBe(4);

      // a deleted target: the shortcut stays, its target is no longer shown; restored, it is again
      await ok(server.app, 'DELETE', '/api/User/Files', { token: owner.token, body: [docs.id] });
      const broken = await ok(server.app, 'GET', `/api/User/Files/${res.body.result.id}`, { token: owner.token });
      expect(broken).toMatchObject({ targetId: docs.id, targetType: null, targetIdPath: null });
      await ok(server.app, 'POST', '/api/User/Recycle/Restore', { token: owner.token, body: [docs.id] });
      expect((await ok(server.app, 'GET', `/api/User/Files/${res.body.result.id}`, { token: owner.token })).targetIdPath).toBe(docs.idPath);
    });

    test('a target the caller may not see is not shown', async () => {
      const shared = await create(editor.token, publicRoot.id, '企业快捷目标');
      const mine = (await shortcut(owner.token, shared.id, ownerRoot.id)).body.result;
      expect(mine).toMatchObject({ targetType: 'folder', targetIdPath: shared.idPath });
      await ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', {
        token: adminToken,
        body: { personalSpace: true, publicSpace: false, workflow: true, ferrySpaces: true },
      });
      try {
        const seen = await ok(server.app, 'GET', `/api/User/Files/${mine.id}`, { token: owner.token });
        expect(seen).toMatchObject({ targetId: shared.id, targetType: null, targetIdPath: null });
      } finally {
        await ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', {
          token: adminToken,
          body: { personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: true },
        });
      }
    });

    test('refusals: to a shortcut, to a root, into its target, enterprise to personal; nothing is created', async () => {
      const a = await create(owner.token, ownerRoot.id, '快捷拒绝甲');
      const below = await create(owner.token, a.id, '子目录');
      const sc = (await shortcut(owner.token, a.id, ownerRoot.id)).body.result;
      const shared = await create(editor.token, publicRoot.id, '企业快捷拒绝');
      const before = [await childRows(a.id), await childRows(below.id), await childRows(shared.id)];
      expectError(await shortcut(owner.token, sc.id, a.id), 400, 40001);
      expectError(await shortcut(owner.token, ownerRoot.id, a.id), 400, 40001);
      expectError(await shortcut(owner.token, a.id, a.id), 400, 40002, '快捷方式不能放在其指向的文件夹中');
      expectError(await shortcut(owner.token, a.id, below.id), 400, 40002, '快捷方式不能放在其指向的文件夹中');
      // a personal item is not reachable from the enterprise space (the editor cannot see it either)
      const editorHome = await create(editor.token, (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: editor.token }))[0].id, '编辑的目录');
      expectError(await shortcut(editor.token, editorHome.id, shared.id), 400, 40001);
      expect([await childRows(a.id), await childRows(below.id), await childRows(shared.id)]).toEqual(before);
      // the other way round is allowed
      expect((await shortcut(owner.token, shared.id, a.id)).status).toBe(200);
    });

    test('role matrix: ≥1 on the target and ≥3 on the folder', async () => {
      const shared = await create(editor.token, publicRoot.id, '企业快捷矩阵');
      const target = await create(editor.token, publicRoot.id, '企业快捷矩阵目标');
      const mine = await create(owner.token, ownerRoot.id, '个人快捷矩阵');
      const snapshot = async () => [await childRows(shared.id), await childRows(mine.id)];
      const before = await snapshot();
      expectError(await shortcut(viewer.token, target.id, shared.id), 403, 40301);
      expectError(await shortcut(outsider.token, mine.id, ownerRoot.id), 404, 404);
      expectError(await shortcut(outsider.token, target.id, mine.id), 404, 404);
      expectError(await shortcut(editor.token, target.id, mine.id), 404, 404);
      expectError(await shortcut(disabled.token, target.id, shared.id), 403, 403);
      expectError(await shortcut(undefined, target.id, shared.id), 401, 401);
      expectError(await shortcut(owner.token, '987654321', mine.id), 404, 404);
      expect(await snapshot()).toEqual(before);
      expect((await shortcut(editor.token, target.id, shared.id)).status).toBe(200);
      // the viewer may point at an enterprise item from their own space
      const viewerRoot = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: viewer.token }))[0];
      expect((await shortcut(viewer.token, target.id, viewerRoot.id)).body.result.targetIdPath).toBe(target.idPath);
    });

    test('cycles: never followed by size, copy or delete; never moved or copied into their target', async () => {
      const a = await create(owner.token, ownerRoot.id, '环甲');
      const b = await create(owner.token, ownerRoot.id, '环乙');
      const inB = await create(owner.token, b.id, '乙中文件.txt', 'file');
      await setSize(inB.id, 100);
      const toB = (await shortcut(owner.token, b.id, a.id)).body.result;
      const toA = (await shortcut(owner.token, a.id, b.id)).body.result;
      expect((await sizeCalc(owner.token, a.id)).body.result).toEqual({ id: a.id, size: 0, fileCount: 0, folderCount: 0 });
      expect((await sizeCalc(owner.token, b.id)).body.result).toEqual({ id: b.id, size: 100, fileCount: 1, folderCount: 0 });

      // a copy copies the shortcut, not what it points at
      const copy = (await ok(server.app, 'POST', '/api/User/Files/Copy', { token: owner.token, body: { ids: [a.id], targetId: ownerRoot.id, strategy: 2 } })).items[0];
      const copied = (await listing(owner.token, copy.id)).data;
      expect(copied.map((i: any) => [i.type, i.targetId])).toEqual([['shortcut', b.id]]);
      expect(copied[0].id).not.toBe(toB.id);

      // moving or copying a shortcut (or a folder holding one) into its target is refused
      const snapshot = async () => [await childRows(a.id), await childRows(b.id), await itemRow(toA.id), await itemRow(toB.id)];
      const before = await snapshot();
      for (const kindOf of ['Move', 'Copy']) {
        for (const body of [
          { ids: [toB.id], targetId: b.id },
          { ids: [a.id], targetId: b.id },
        ]) {
          expectError(await call(server.app, 'POST', `/api/User/Files/${kindOf}`, { token: owner.token, body }), 400, 40002, '快捷方式不能放在其指向的文件夹中');
        }
      }
      expect(await snapshot()).toEqual(before);

      // deleting a folder with a shortcut leaves the target alone
      await ok(server.app, 'DELETE', '/api/User/Files', { token: owner.token, body: [a.id] });
      expect((await itemRow(b.id))!.deleted_at).toBeNull();
      expect((await itemRow(inB.id))!.deleted_at).toBeNull();
      expect((await itemRow(toB.id))!.deleted_at).not.toBeNull();
      // and a shortcut to a deleted folder is not followed by size either
      expect((await sizeCalc(owner.token, b.id)).body.result).toMatchObject({ size: 100, fileCount: 1 });
    });
  });

  describe('size calculation', () => {
    test('live files and folders at every depth; deleted items and shortcuts do not count', async () => {
      const top = await create(owner.token, ownerRoot.id, '大小');
      const sub = await create(owner.token, top.id, '子');
      const deep = await create(owner.token, sub.id, '深');
      const f1 = await create(owner.token, top.id, '一.bin', 'file');
      const f2 = await create(owner.token, sub.id, '二.bin', 'file');
      const f3 = await create(owner.token, deep.id, '三.bin', 'file');
      const gone = await create(owner.token, deep.id, '删.bin', 'file');
      const goneDir = await create(owner.token, top.id, '删除的目录');
      const inGone = await create(owner.token, goneDir.id, '里面.bin', 'file');
      await setSize(f1.id, 1000);
      await setSize(f2.id, 200);
      await setSize(f3.id, 30);
      await setSize(gone.id, 5_000_000);
      await setSize(inGone.id, 7_000_000);
      await shortcut(owner.token, f1.id, deep.id);
      await ok(server.app, 'DELETE', '/api/User/Files', { token: owner.token, body: [gone.id, goneDir.id] });
      const res = await sizeCalc(owner.token, top.id);
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual({ id: top.id, size: 1230, fileCount: 3, folderCount: 2 });
      expect((await sizeCalc(owner.token, deep.id)).body.result).toEqual({ id: deep.id, size: 30, fileCount: 1, folderCount: 0 });
    });

    test('role matrix: ≥1 on the folder; files are not folders', async () => {
      const shared = await create(editor.token, publicRoot.id, '企业大小');
      const mine = await create(owner.token, ownerRoot.id, '个人大小');
      const file = await create(owner.token, mine.id, '文件.txt', 'file');
      expect((await sizeCalc(viewer.token, shared.id)).body.result).toEqual({ id: shared.id, size: 0, fileCount: 0, folderCount: 0 });
      expectError(await sizeCalc(outsider.token, mine.id), 404, 404);
      expectError(await sizeCalc(editor.token, mine.id), 404, 404);
      expectError(await sizeCalc(owner.token, file.id), 404, 404);
      expectError(await sizeCalc(owner.token, '987654321'), 404, 404);
      expectError(await sizeCalc(disabled.token, shared.id), 403, 403);
      expectError(await sizeCalc(undefined, shared.id), 401, 401);
    });
  });

  describe('manual order', () => {
    test('new items go last; SetSort places before and after, at the start and at the end', async () => {
      const dir = await create(owner.token, ownerRoot.id, '手动排序');
      for (const name of ['丙目录', '甲目录', '乙目录']) await create(owner.token, dir.id, name);
      for (const name of ['c.txt', 'a.txt', 'b.txt']) await create(owner.token, dir.id, name, 'file');
      const byName = async () => new Map((await listing(owner.token, dir.id, { pageSize: 1000 })).data.map((i: any) => [i.name, i.id]));
      let ids = await byName();
      const id = (name: string) => ids.get(name) as string;
      expect(await manual(owner.token, dir.id)).toEqual(['丙目录', '甲目录', '乙目录', 'c.txt', 'a.txt', 'b.txt']);
      expect(await manual(owner.token, dir.id, 'desc')).toEqual(['乙目录', '甲目录', '丙目录', 'b.txt', 'a.txt', 'c.txt']);

      // to the start, to the end, in the middle
      let res = await setSort(owner.token, id('乙目录'), id('丙目录'), 'before');
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ id: id('乙目录'), name: '乙目录' });
      expect(await manual(owner.token, dir.id)).toEqual(['乙目录', '丙目录', '甲目录', 'c.txt', 'a.txt', 'b.txt']);
      res = await setSort(owner.token, id('c.txt'), id('b.txt'), 'after');
      expect(await manual(owner.token, dir.id)).toEqual(['乙目录', '丙目录', '甲目录', 'a.txt', 'b.txt', 'c.txt']);
      await setSort(owner.token, id('甲目录'), id('乙目录'), 'after');
      await setSort(owner.token, id('a.txt'), id('c.txt'), 'before');
      expect(await manual(owner.token, dir.id)).toEqual(['乙目录', '甲目录', '丙目录', 'b.txt', 'a.txt', 'c.txt']);
      // placing an item next to itself changes nothing
      expect((await setSort(owner.token, id('a.txt'), id('a.txt'), 'after')).status).toBe(200);

      // a new file and a moved-in folder go last
      await create(owner.token, dir.id, 'd.txt', 'file');
      const outside = await create(owner.token, ownerRoot.id, '外来目录');
      await ok(server.app, 'POST', '/api/User/Files/Move', { token: owner.token, body: { ids: [outside.id], targetId: dir.id } });
      expect(await manual(owner.token, dir.id)).toEqual(['乙目录', '甲目录', '丙目录', '外来目录', 'b.txt', 'a.txt', 'c.txt', 'd.txt']);
      ids = await byName();

      // paging follows the manual order, from either end
      const page = async (n: number) => (await listing(owner.token, dir.id, { sortField: 'manual', page: n, pageSize: 3 })).data.map((i: any) => i.name);
      expect([await page(1), await page(2), await page(3)]).toEqual([
        ['乙目录', '甲目录', '丙目录'],
        ['外来目录', 'b.txt', 'a.txt'],
        ['c.txt', 'd.txt'],
      ]);
    });

    test('many moves in one place keep a consistent order (gaps run out and are made again)', async () => {
      const dir = await create(owner.token, ownerRoot.id, '反复排序');
      const names = Array.from({ length: 8 }, (_, i) => `f${i}.txt`);
      const ids: Record<string, string> = {};
      for (const name of names) ids[name] = (await create(owner.token, dir.id, name, 'file')).id;
      const expected = [...names];
      const place = async (name: string, ref: string, position: 'before' | 'after') => {
        expect((await setSort(owner.token, ids[name], ids[ref], position)).status).toBe(200);
        expected.splice(expected.indexOf(name), 1);
        expected.splice(expected.indexOf(ref) + (position === 'after' ? 1 : 0), 0, name);
      };
      // always squeezing between the same two neighbours halves the gap each time
      for (let i = 0; i < 24; i++) {
        const last = expected[expected.length - 1];
        await place(last, expected[1], 'before');
      }
      for (let i = 0; i < 6; i++) await place(expected[0], expected[expected.length - 1], 'after');
      await place(expected[3], expected[0], 'before');
      expect(await manual(owner.token, dir.id)).toEqual(expected);
      expect(await manual(owner.token, dir.id, 'desc')).toEqual([...expected].reverse());
    });

    test('refusals: across the folder/file boundary, across folders, roots; role matrix; nothing moves', async () => {
      const dir = await create(owner.token, ownerRoot.id, '排序拒绝');
      const sub = await create(owner.token, dir.id, '目录');
      const file = await create(owner.token, dir.id, '文件.txt', 'file');
      const elsewhere = await create(owner.token, ownerRoot.id, '别处.txt', 'file');
      const shared = await create(editor.token, publicRoot.id, '企业排序');
      const s1 = await create(editor.token, shared.id, '一.txt', 'file');
      const s2 = await create(editor.token, shared.id, '二.txt', 'file');
      const snapshot = async () => [await childRows(dir.id), await childRows(shared.id), await itemRow(elsewhere.id)];
      const before = await snapshot();
      const boundary = '文件夹只能排在文件夹之间，文件只能排在文件之间';
      expectError(await setSort(owner.token, sub.id, file.id, 'before'), 400, 40001, boundary);
      expectError(await setSort(owner.token, file.id, sub.id, 'after'), 400, 40001, boundary);
      expectError(await setSort(owner.token, file.id, elsewhere.id, 'after'), 400, 40001);
      expectError(await setSort(owner.token, ownerRoot.id, dir.id, 'after'), 400, 40001);
      expectError(await setSort(viewer.token, s2.id, s1.id, 'before'), 403, 40301);
      expectError(await setSort(outsider.token, file.id, file.id, 'before'), 404, 404);
      expectError(await setSort(editor.token, file.id, file.id, 'before'), 404, 404);
      expectError(await setSort(disabled.token, s2.id, s1.id, 'before'), 403, 403);
      expectError(await setSort(undefined, s2.id, s1.id, 'before'), 401, 401);
      expectError(await setSort(owner.token, '987654321', file.id, 'before'), 404, 404);
      const bad = await call(server.app, 'POST', '/api/User/Folders/SetSort', {
        token: owner.token,
        query: { folderId: file.id, targetId: file.id, position: 'middle' },
      });
      expect(bad.status).toBe(400);
      expect(await snapshot()).toEqual(before);
      expect((await setSort(editor.token, s2.id, s1.id, 'before')).status).toBe(200);
      expect(await manual(editor.token, shared.id)).toEqual(['二.txt', '一.txt']);
      // the viewer sees the order
      expect(await manual(viewer.token, shared.id)).toEqual(['二.txt', '一.txt']);
    });
  });
});
