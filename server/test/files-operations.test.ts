// 云文档 file operations: details, rename, delete, move, copy, folder trees, file actions,
// with the role matrix of each call (docs/integration.md, "File operations (issue 3)").
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';

type User = TestUser;

describe.each(databaseKinds())('file operations (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let owner: User; // a normal user, owner of a personal space
  let outsider: User; // another normal user
  let editor: User; // enterprise editor (isDocAdmin)
  let viewer: User; // enterprise viewer (normal user)
  let disabled: User;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ adminToken, owner, outsider, editor, viewer, disabled, ownerRoot, publicRoot } = await roleCast(server.app));
  });
  afterAll(async () => {
    await server?.close();
  });

  const create = async (token: string, parentId: string, name: string, type: 'folder' | 'file' = 'folder') =>
    ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type } });
  /** the stored row (as the database holds it), to prove what changed and what did not */
  const row = async (id: string) => server.app.db.selectFrom('items').selectAll().where('id', '=', Number(id)).executeTakeFirst();
  const rows = async (ids: string[]) => Promise.all(ids.map(row));
  const names = async (token: string, parentId: string) =>
    (await ok(server.app, 'GET', `/api/User/Folders/${parentId}/Items`, { token })).items.data.map((i: any) => i.name);
  const get = (token: string | undefined, id: string) => call(server.app, 'GET', `/api/User/Files/${id}`, { token });
  const rename = (token: string | undefined, id: string, fileName: string) =>
    call(server.app, 'PUT', `/api/User/Files/Rename/${id}`, { token, query: { fileName } });
  const del = (token: string | undefined, ids: string[]) => call(server.app, 'DELETE', '/api/User/Files', { token, body: ids });
  const op = (kindOf: 'Move' | 'Copy', token: string | undefined, body: Record<string, unknown>) =>
    call(server.app, 'POST', `/api/User/Files/${kindOf}`, { token, body });

  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
  };
  const expect404 = (res: { status: number; body: any }) => expectError(res, 404, 404);
  const expect40301 = (res: { status: number; body: any }) => expectError(res, 403, 40301);
  const expectDisabled = (res: { status: number; body: any }) => expectError(res, 403, 403);
  const expect401 = (res: { status: number; body: any }) => expectError(res, 401, 401);

  describe('GET /api/User/Files/{id}', () => {
    test('role matrix', async () => {
      const mine = await create(owner.token, ownerRoot.id, '详情目录');
      const shared = await create(editor.token, publicRoot.id, '详情企业目录');
      const res = await get(owner.token, mine.id);
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual(mine);
      expect404(await get(outsider.token, mine.id));
      expect404(await get(editor.token, mine.id)); // document administrators do not see into personal spaces
      expect404(await get(owner.token, '987654321'));
      expectDisabled(await get(disabled.token, mine.id));
      expect401(await get(undefined, mine.id));
      expect((await get(editor.token, shared.id)).body.result.permissions).toContain('rename');
      const forViewer = await get(viewer.token, shared.id);
      expect(forViewer.status).toBe(200);
      // with no access policy on the path an enabled user has level 2: view, download and copy
      expect(forViewer.body.result.permissions).toEqual(['view', 'download', 'copy']);
    });
  });

  describe('rename', () => {
    test("renames a folder; every descendant's namePath follows, idPaths stay", async () => {
      const a = await create(owner.token, ownerRoot.id, '改名甲');
      const b = await create(owner.token, a.id, '乙');
      const c = await create(owner.token, b.id, '丙');
      const f = await create(owner.token, c.id, '报告.txt', 'file');
      const res = await rename(owner.token, a.id, '  改名后  ');
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ id: a.id, name: '改名后', namePath: '个人文件/改名后', idPath: a.idPath });
      const after = await rows([a.id, b.id, c.id, f.id]);
      expect(after.map((r) => r!.name_path)).toEqual(['改名后', '改名后/乙', '改名后/乙/丙', '改名后/乙/丙/报告.txt']);
      expect(after.map((r) => r!.id_path)).toEqual([a.idPath, b.idPath, c.idPath, f.idPath]);
      expect((await get(owner.token, f.id)).body.result.namePath).toBe('个人文件/改名后/乙/丙/报告.txt');
    });

    test('a file gets the extension of its new name; a case-only change of its own name is allowed', async () => {
      const f = await create(owner.token, ownerRoot.id, '笔记.txt', 'file');
      expect((await rename(owner.token, f.id, '笔记.MD')).body.result).toMatchObject({ name: '笔记.MD', extension: 'md' });
      expect((await rename(owner.token, f.id, '笔记')).body.result).toMatchObject({ name: '笔记', extension: '' });
      expect((await rename(owner.token, f.id, '笔记')).status).toBe(200);
      const dir = await create(owner.token, ownerRoot.id, 'Docs');
      expect((await rename(owner.token, dir.id, 'docs.v2')).body.result).toMatchObject({ name: 'docs.v2', extension: '' });
    });

    test('a live name taken in the folder: 409/40901, nothing changes; a deleted one may be taken', async () => {
      const dir = await create(owner.token, ownerRoot.id, '改名冲突');
      await create(owner.token, dir.id, 'Plan');
      const other = await create(owner.token, dir.id, '其他');
      const before = await row(other.id);
      expectError(await rename(owner.token, other.id, 'plan'), 409, 40901);
      expect(await row(other.id)).toEqual(before);
      const gone = await create(owner.token, dir.id, '已删除');
      await ok(server.app, 'DELETE', '/api/User/Files', { token: owner.token, body: [gone.id] });
      expect((await rename(owner.token, other.id, '已删除')).status).toBe(200);
    });

    test('bad names answer 40001 with the reasons CreateFile gives', async () => {
      const f = await create(owner.token, ownerRoot.id, '坏名字.txt', 'file');
      for (const [name, message] of [
        ['   ', '名称不能为空'],
        ['a'.repeat(151), '名称不能超过 150 个字符'],
        ['a/b', '名称不能包含 /、\\ 或控制字符'],
        ['..', '名称不能是 . 或 ..'],
      ]) {
        const res = await rename(owner.token, f.id, name);
        expect(res.body).toEqual({ code: 40001, result: null, message });
      }
      expect((await row(f.id))!.name).toBe('坏名字.txt');
      expect((await rename(owner.token, f.id, '长'.repeat(150))).status).toBe(200);
    });

    test('role matrix; root folders cannot be renamed', async () => {
      const mine = await create(owner.token, ownerRoot.id, '矩阵改名');
      const shared = await create(editor.token, publicRoot.id, '企业改名');
      const before = await rows([mine.id, shared.id, ownerRoot.id, publicRoot.id]);
      expect404(await rename(outsider.token, mine.id, 'x'));
      expect404(await rename(editor.token, mine.id, 'x'));
      expect40301(await rename(viewer.token, shared.id, 'x'));
      expectDisabled(await rename(disabled.token, mine.id, 'x'));
      expect401(await rename(undefined, mine.id, 'x'));
      expect40301(await rename(owner.token, ownerRoot.id, 'x'));
      expect40301(await rename(editor.token, publicRoot.id, 'x'));
      expect(await rows([mine.id, shared.id, ownerRoot.id, publicRoot.id])).toEqual(before);
      expect((await rename(owner.token, mine.id, '矩阵改名2')).status).toBe(200);
      expect((await rename(editor.token, shared.id, '企业改名2')).status).toBe(200);
    });
  });

  describe('delete', () => {
    test('deletes a folder: its descendants vanish from listings and details, and their names are free', async () => {
      const dir = await create(owner.token, ownerRoot.id, '要删除');
      const sub = await create(owner.token, dir.id, '子目录');
      const f = await create(owner.token, sub.id, '文件.txt', 'file');
      const res = await del(owner.token, [dir.id]);
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual({ deleted: 1 });
      expect(await names(owner.token, ownerRoot.id)).not.toContain('要删除');
      for (const id of [dir.id, sub.id, f.id]) {
        expect404(await get(owner.token, id));
        expect((await row(id))!.deleted_at).not.toBeNull();
      }
      expect((await call(server.app, 'GET', `/api/User/Folders/${sub.id}/Items`, { token: owner.token })).status).toBe(404);
      // a new item may take the deleted one's name
      expect((await create(owner.token, ownerRoot.id, '要删除')).name).toBe('要删除');
    });

    test('all or nothing: one invisible or forbidden id and nothing is deleted', async () => {
      const a = await create(owner.token, ownerRoot.id, '批量甲');
      const b = await create(owner.token, ownerRoot.id, '批量乙.txt', 'file');
      const theirs = await create(outsider.token, (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0].id, '别人的');
      const sharedA = await create(editor.token, publicRoot.id, '企业批量甲');
      const viewerRoot = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: viewer.token }))[0];
      const viewerOwn = await create(viewer.token, viewerRoot.id, '读者自己的');
      const before = await rows([a.id, b.id, theirs.id, sharedA.id, viewerOwn.id]);

      expect404(await del(owner.token, [a.id, b.id, theirs.id]));
      expect404(await del(owner.token, [a.id, '987654321']));
      expect40301(await del(viewer.token, [viewerOwn.id, sharedA.id]));
      expect404(await del(editor.token, [sharedA.id, a.id]));
      expectDisabled(await del(disabled.token, [a.id]));
      expect401(await del(undefined, [a.id]));
      expect40301(await del(owner.token, [a.id, ownerRoot.id]));
      expect40301(await del(editor.token, [publicRoot.id]));
      expect(await rows([a.id, b.id, theirs.id, sharedA.id, viewerOwn.id])).toEqual(before);

      const bad = await del(owner.token, []);
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(40001);

      expect((await del(owner.token, [a.id, b.id, a.id])).body.result).toEqual({ deleted: 2 });
      expect((await del(editor.token, [sharedA.id])).body.result).toEqual({ deleted: 1 });
      expect((await del(viewer.token, [viewerOwn.id])).body.result).toEqual({ deleted: 1 });
      // deleted ones are gone: deleting again answers 404
      expect404(await del(owner.token, [a.id]));
    });

    test('a folder and an item inside it in one batch', async () => {
      const dir = await create(owner.token, ownerRoot.id, '同批删除');
      const inner = await create(owner.token, dir.id, '里面.txt', 'file');
      expect((await del(owner.token, [inner.id, dir.id])).body.result).toEqual({ deleted: 2 });
      expect((await row(dir.id))!.deleted_at).not.toBeNull();
      expect((await row(inner.id))!.deleted_at).not.toBeNull();
    });
  });

  describe('move', () => {
    test('a 3-level subtree: every idPath and namePath is rewritten', async () => {
      const src = await create(owner.token, ownerRoot.id, '搬家源');
      const target = await create(owner.token, ownerRoot.id, '搬家目标');
      const deep = await create(owner.token, target.id, '深处');
      const a = await create(owner.token, src.id, '甲');
      const b = await create(owner.token, a.id, '乙');
      const c = await create(owner.token, b.id, '丙');
      const f1 = await create(owner.token, a.id, '一.txt', 'file');
      const f3 = await create(owner.token, c.id, '三.txt', 'file');
      const res = await op('Move', owner.token, { ids: [a.id], targetId: deep.id });
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ conflictType: 0, conflictInfo: null, conflictStrategies: [] });
      expect(res.body.result.items).toHaveLength(1);
      expect(res.body.result.items[0]).toMatchObject({ id: a.id, parentId: deep.id, namePath: '个人文件/搬家目标/深处/甲' });
      const base = `${deep.idPath}`;
      const after = await rows([a.id, b.id, c.id, f1.id, f3.id]);
      expect(after.map((r) => r!.id_path)).toEqual([
        `${base}/${a.id}`,
        `${base}/${a.id}/${b.id}`,
        `${base}/${a.id}/${b.id}/${c.id}`,
        `${base}/${a.id}/${f1.id}`,
        `${base}/${a.id}/${b.id}/${c.id}/${f3.id}`,
      ]);
      expect(after.map((r) => r!.name_path)).toEqual([
        '搬家目标/深处/甲',
        '搬家目标/深处/甲/乙',
        '搬家目标/深处/甲/乙/丙',
        '搬家目标/深处/甲/一.txt',
        '搬家目标/深处/甲/乙/丙/三.txt',
      ]);
      expect(await names(owner.token, src.id)).toEqual([]);
      expect(await names(owner.token, deep.id)).toEqual(['甲']);
      // a sibling whose id path shares a textual prefix is left alone
      expect((await row(deep.id))!.id_path).toBe(deep.idPath);
    });

    test('into itself or a descendant: 400/40002, nothing changes', async () => {
      const a = await create(owner.token, ownerRoot.id, '循环甲');
      const b = await create(owner.token, a.id, '循环乙');
      const c = await create(owner.token, b.id, '循环丙');
      const before = await rows([a.id, b.id, c.id]);
      for (const kindOf of ['Move', 'Copy'] as const) {
        for (const targetId of [a.id, b.id, c.id]) {
          const res = await op(kindOf, owner.token, { ids: [a.id], targetId });
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ code: 40002, result: null, message: '不能将文件夹移动或复制到其自身或子文件夹中' });
        }
      }
      expect(await rows([a.id, b.id, c.id])).toEqual(before);
      expect(await names(owner.token, c.id)).toEqual([]);
    });

    test('a name conflict without a strategy changes nothing and lists the strategies', async () => {
      const from = await create(owner.token, ownerRoot.id, '冲突源');
      const to = await create(owner.token, ownerRoot.id, '冲突目标');
      const file = await create(owner.token, from.id, '同名.txt', 'file');
      const dir = await create(owner.token, from.id, '同名目录');
      const free = await create(owner.token, from.id, '不冲突.txt', 'file');
      await create(owner.token, to.id, '同名.TXT', 'file');
      await create(owner.token, to.id, '同名目录');
      const before = await rows([from.id, to.id, file.id, dir.id, free.id]);
      for (const kindOf of ['Move', 'Copy'] as const) {
        const res = await op(kindOf, owner.token, { ids: [free.id, file.id, dir.id], targetId: to.id });
        expect(res.status).toBe(200);
        expect(res.body.result).toEqual({
          conflictType: 1,
          conflictInfo: { fileName: '同名.txt' },
          // a folder among the conflicts: no 新版本 (0), the dialog must not offer a refused choice
          conflictStrategies: [
            { name: '覆盖', value: 1 },
            { name: '重命名', value: 2 },
            { name: '跳过', value: 3 },
          ],
          items: [],
        });
        const folderOnly = await op(kindOf, owner.token, { ids: [dir.id], targetId: to.id, strategy: null });
        expect(folderOnly.body.result.conflictStrategies.map((s: any) => s.value)).toEqual([1, 2, 3]);
        expect(folderOnly.body.result.conflictInfo).toEqual({ fileName: '同名目录' });
        const folderAsVersion = await op(kindOf, owner.token, { ids: [dir.id], targetId: to.id, strategy: 0 });
        expectError(folderAsVersion, 400, 40001);
        expect(folderAsVersion.body.message).toBe('文件夹不能保存为新版本');
      }
      expect(await rows([from.id, to.id, file.id, dir.id, free.id])).toEqual(before);
      expect((await names(owner.token, to.id)).sort()).toEqual(['同名.TXT', '同名目录'].sort());
    });

    test('strategy 1 overwrites (the existing item goes to the recycle bin), 2 renames, 3 skips', async () => {
      const from = await create(owner.token, ownerRoot.id, '策略源');
      const to = await create(owner.token, ownerRoot.id, '策略目标');
      const existing = await create(owner.token, to.id, '甲.txt', 'file');
      await create(owner.token, to.id, '乙.txt', 'file');
      await create(owner.token, to.id, '乙（1）.txt', 'file');
      await create(owner.token, to.id, '丙');
      const a = await create(owner.token, from.id, '甲.txt', 'file');
      const b = await create(owner.token, from.id, '乙.txt', 'file');
      const c = await create(owner.token, from.id, '丙');

      const r1 = await op('Move', owner.token, { ids: [a.id], targetId: to.id, strategy: 1 });
      expect(r1.body.result.items.map((i: any) => i.id)).toEqual([a.id]);
      expect((await row(existing.id))!.deleted_at).not.toBeNull();
      expect((await row(a.id))!.parent_id).toBe(Number(to.id));

      const r2 = await op('Move', owner.token, { ids: [b.id], targetId: to.id, strategy: 2 });
      expect(r2.body.result.items[0]).toMatchObject({ id: b.id, name: '乙（2）.txt', extension: 'txt', namePath: '个人文件/策略目标/乙（2）.txt' });

      const r3 = await op('Move', owner.token, { ids: [c.id], targetId: to.id, strategy: 3 });
      expect(r3.body.result).toEqual({ conflictType: 0, conflictInfo: null, conflictStrategies: [], items: [] });
      expect((await row(c.id))!.parent_id).toBe(Number(from.id));

      // a chosen new name, when the batch has one conflict
      const r4 = await op('Move', owner.token, { ids: [c.id], targetId: to.id, strategy: 2, newFileName: '丙-新' });
      expect(r4.body.result.items[0]).toMatchObject({ id: c.id, name: '丙-新', namePath: '个人文件/策略目标/丙-新' });
      expect((await names(owner.token, to.id)).sort()).toEqual(['丙', '丙-新', '甲.txt', '乙.txt', '乙（1）.txt', '乙（2）.txt'].sort());
    });

    test('role matrix; across spaces only with rights on both', async () => {
      const mine = await create(owner.token, ownerRoot.id, '跨空间');
      const inner = await create(owner.token, mine.id, '跨空间子.txt', 'file');
      const shared = await create(editor.token, publicRoot.id, '企业目标');
      const sharedItem = await create(editor.token, publicRoot.id, '企业文件.txt', 'file');
      const outsiderRoot = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0];
      const before = await rows([mine.id, inner.id, shared.id, sharedItem.id]);

      expect404(await op('Move', outsider.token, { ids: [mine.id], targetId: outsiderRoot.id }));
      expect404(await op('Move', owner.token, { ids: [mine.id], targetId: outsiderRoot.id }));
      expect404(await op('Move', editor.token, { ids: [mine.id], targetId: shared.id }));
      // owner of the source, but only a viewer of the enterprise target
      expect40301(await op('Move', owner.token, { ids: [mine.id], targetId: shared.id }));
      expect40301(await op('Move', viewer.token, { ids: [sharedItem.id], targetId: shared.id }));
      expectDisabled(await op('Move', disabled.token, { ids: [mine.id], targetId: ownerRoot.id }));
      expect401(await op('Move', undefined, { ids: [mine.id], targetId: ownerRoot.id }));
      expect40301(await op('Move', owner.token, { ids: [ownerRoot.id], targetId: mine.id }));
      expect(await rows([mine.id, inner.id, shared.id, sharedItem.id])).toEqual(before);

      // the editor's own personal folder into the enterprise space: rights on both
      const editorRoot = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: editor.token }))[0];
      const eDir = await create(editor.token, editorRoot.id, '编辑的目录');
      const eFile = await create(editor.token, eDir.id, '编辑的文件.txt', 'file');
      const moved = await op('Move', editor.token, { ids: [eDir.id], targetId: shared.id });
      expect(moved.body.result.items[0]).toMatchObject({ spaceType: 1, idPath: `${shared.idPath}/${eDir.id}`, namePath: '企业文件/企业目标/编辑的目录' });
      expect(await row(eFile.id)).toMatchObject({ space_type: 1, id_path: `${shared.idPath}/${eDir.id}/${eFile.id}`, name_path: '企业目标/编辑的目录/编辑的文件.txt' });
      // and back into the personal space
      await ok(server.app, 'POST', '/api/User/Files/Move', { token: editor.token, body: { ids: [eDir.id], targetId: editorRoot.id } });
      expect(await row(eFile.id)).toMatchObject({ space_type: 2, owner_id: Number(editor.userId), id_path: `2/${editorRoot.id}/${eDir.id}/${eFile.id}` });
      // moving into the folder it is already in changes nothing
      const same = await op('Move', owner.token, { ids: [mine.id], targetId: ownerRoot.id });
      expect(same.body.result.items.map((i: any) => i.id)).toEqual([mine.id]);
      expect(await row(mine.id)).toEqual(before[0]);
    });
  });

  describe('copy', () => {
    test('copies a subtree with new ids and paths; the source is unchanged', async () => {
      const src = await create(owner.token, ownerRoot.id, '复制源');
      const a = await create(owner.token, src.id, '甲');
      const b = await create(owner.token, a.id, '乙');
      await create(owner.token, b.id, '丙.txt', 'file');
      const gone = await create(owner.token, b.id, '已删.txt', 'file');
      await ok(server.app, 'DELETE', '/api/User/Files', { token: owner.token, body: [gone.id] });
      const to = await create(owner.token, ownerRoot.id, '复制目标');
      const before = await rows([src.id, a.id, b.id]);
      const res = await op('Copy', owner.token, { ids: [a.id], targetId: to.id });
      expect(res.status).toBe(200);
      const copy = res.body.result.items[0];
      expect(copy.id).not.toBe(a.id);
      expect(copy).toMatchObject({ name: '甲', parentId: to.id, idPath: `${to.idPath}/${copy.id}`, namePath: '个人文件/复制目标/甲' });
      const [bCopy] = (await ok(server.app, 'GET', `/api/User/Folders/${copy.id}/Items`, { token: owner.token })).items.data;
      expect(bCopy).toMatchObject({ name: '乙', idPath: `${copy.idPath}/${bCopy.id}`, namePath: '个人文件/复制目标/甲/乙' });
      const cList = (await ok(server.app, 'GET', `/api/User/Folders/${bCopy.id}/Items`, { token: owner.token })).items.data;
      expect(cList.map((i: any) => [i.name, i.idPath, i.namePath])).toEqual([['丙.txt', `${bCopy.idPath}/${cList[0].id}`, '个人文件/复制目标/甲/乙/丙.txt']]);
      expect(await rows([src.id, a.id, b.id])).toEqual(before);
      expect(await names(owner.token, b.id)).toEqual(['丙.txt']);
    });

    test('a copy into the same folder with strategy 2 gets （1）; strategy 3 skips; viewers may copy out of the enterprise space', async () => {
      const dir = await create(owner.token, ownerRoot.id, '同处复制');
      const f = await create(owner.token, dir.id, '合同.docx', 'file');
      const conflictRes = await op('Copy', owner.token, { ids: [f.id], targetId: dir.id });
      expect(conflictRes.body.result.conflictType).toBe(1);
      const copied = await op('Copy', owner.token, { ids: [f.id], targetId: dir.id, strategy: 2 });
      expect(copied.body.result.items[0]).toMatchObject({ name: '合同（1）.docx', extension: 'docx' });
      expect((await op('Copy', owner.token, { ids: [f.id], targetId: dir.id, strategy: 3 })).body.result.items).toEqual([]);
      expect((await names(owner.token, dir.id)).sort()).toEqual(['合同.docx', '合同（1）.docx'].sort());
      // strategy 1 from another folder: the existing copy goes to the recycle bin, a new one takes its place
      const other = await create(owner.token, ownerRoot.id, '另一处');
      const incoming = await create(owner.token, other.id, '合同（1）.docx', 'file');
      const replaced = (await ok(server.app, 'GET', `/api/User/Folders/${dir.id}/Items`, { token: owner.token })).items.data.find(
        (i: any) => i.name === '合同（1）.docx',
      );
      const overwritten = await op('Copy', owner.token, { ids: [incoming.id], targetId: dir.id, strategy: 1 });
      const newCopy = overwritten.body.result.items[0];
      expect(newCopy).toMatchObject({ name: '合同（1）.docx', parentId: dir.id });
      expect([incoming.id, replaced.id]).not.toContain(newCopy.id);
      expect((await row(replaced.id))!.deleted_at).not.toBeNull();
      expect((await row(incoming.id))!.deleted_at).toBeNull();
      expect((await ok(server.app, 'GET', '/api/User/Recycle', { token: owner.token })).data.map((i: any) => i.id)).toContain(replaced.id);

      const shared = await create(editor.token, publicRoot.id, '可复制的.txt', 'file');
      const viewerRoot = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: viewer.token }))[0];
      const res = await op('Copy', viewer.token, { ids: [shared.id], targetId: viewerRoot.id });
      expect(res.body.result.items[0]).toMatchObject({ spaceType: 2, ownerId: viewer.userId, name: '可复制的.txt' });
      // but not into it
      const before = await names(editor.token, publicRoot.id);
      expect40301(await op('Copy', viewer.token, { ids: [res.body.result.items[0].id], targetId: publicRoot.id }));
      expect404(await op('Copy', outsider.token, { ids: [f.id], targetId: (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0].id }));
      expectDisabled(await op('Copy', disabled.token, { ids: [f.id], targetId: dir.id }));
      expect401(await op('Copy', undefined, { ids: [f.id], targetId: dir.id }));
      expect(await names(editor.token, publicRoot.id)).toEqual(before);
      expect((await names(owner.token, dir.id)).length).toBe(2);
    });
  });

  describe('folder trees and file actions', () => {
    test('TreeNodes lists child folders with hasChildren; FolderTree gives the root and its child folders', async () => {
      const top = await create(outsider.token, (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0].id, '树');
      const leaf = await create(outsider.token, top.id, 'B叶');
      const branch = await create(outsider.token, top.id, 'a枝');
      await create(outsider.token, branch.id, '更深');
      await create(outsider.token, top.id, '文件.txt', 'file');
      const nodes = await ok(server.app, 'GET', `/api/User/Folders/${top.id}/TreeNodes`, { token: outsider.token });
      expect(nodes).toEqual([
        { id: branch.id, parentId: top.id, name: 'a枝', idPath: branch.idPath, namePath: '个人文件/树/a枝', hasChildren: true },
        { id: leaf.id, parentId: top.id, name: 'B叶', idPath: leaf.idPath, namePath: '个人文件/树/B叶', hasChildren: false },
      ]);
      expect404(await call(server.app, 'GET', `/api/User/Folders/${top.id}/TreeNodes`, { token: owner.token }));
      expectDisabled(await call(server.app, 'GET', `/api/User/Folders/${top.id}/TreeNodes`, { token: disabled.token }));
      expect401(await call(server.app, 'GET', `/api/User/Folders/${top.id}/TreeNodes`, {}));

      const tree = await ok(server.app, 'GET', '/api/User/Folders/Personal/FolderTree', { token: outsider.token });
      expect(tree[0]).toMatchObject({ parentId: null, name: '个人文件', namePath: '个人文件', hasChildren: true });
      expect(tree.slice(1).map((n: any) => n.name)).toContain('树');
      expect(tree.slice(1).every((n: any) => n.parentId === tree[0].id)).toBe(true);
      const pub = await ok(server.app, 'GET', '/api/User/Folders/Public/FolderTree', { token: viewer.token });
      expect(pub[0]).toMatchObject({ id: publicRoot.id, name: '企业文件' });
      expect(pub.slice(1).every((n: any) => n.parentId === publicRoot.id)).toBe(true);
    });

    test('Actions by extension', async () => {
      const actions = async (extension: string) => ok(server.app, 'GET', '/api/User/Files/Actions', { token: viewer.token, query: { extension } });
      expect(await actions('PDF')).toEqual({ previewable: true, editable: false, actions: ['download', 'preview'] });
      expect(await actions('.docx')).toEqual({ previewable: true, editable: true, actions: ['download', 'preview', 'edit'] });
      expect(await actions('exe')).toEqual({ previewable: false, editable: false, actions: ['download'] });
      // the answer depends on the type alone: an external share's visitor, without a session, asks too
      const visitor = await call(server.app, 'GET', '/api/User/Files/Actions', { query: { extension: 'pdf' } });
      expect({ status: visitor.status, previewable: visitor.body.result?.previewable }).toEqual({ status: 200, previewable: true });
    });
  });
});
