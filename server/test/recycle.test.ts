// 云文档 recycle bin: listing, restore (original folder, made again when gone, （n）), purge, retention purge,
// with the role matrix of each call (docs/integration.md, "File operations (issue 3)").
import { ConfigError, loadConfig } from '../src/config';
import { call, databaseKinds, HAN, login, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';

type User = TestUser;
const DAY_MS = 24 * 60 * 60 * 1000;
const toMs = (s: string) => Date.parse(`${s.replace(' ', 'T')}+08:00`);

test('RECYCLE_RETENTION_DAYS: 30 by default, a whole number of days', () => {
  expect(loadConfig({}, '/srv').recycleRetentionDays).toBe(30);
  expect(loadConfig({ RECYCLE_RETENTION_DAYS: '7' }, '/srv').recycleRetentionDays).toBe(7);
  for (const bad of ['0', '-1', '1.5', 'abc']) {
    expect(() => loadConfig({ RECYCLE_RETENTION_DAYS: bad }, '/srv')).toThrow(ConfigError);
  }
});

describe.each(databaseKinds())('recycle bin (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let owner: User;
  let outsider: User;
  let editor: User;
  let viewer: User;
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
  const row = async (id: string) => server.app.db.selectFrom('items').selectAll().where('id', '=', Number(id)).executeTakeFirst();
  const rows = async (ids: string[]) => Promise.all(ids.map(row));
  const remove = (token: string, ids: string[]) => ok(server.app, 'DELETE', '/api/User/Files', { token, body: ids });
  const bin = async (token: string, query: Record<string, number> = { pageSize: 1000 }) => ok(server.app, 'GET', '/api/User/Recycle', { token, query });
  const binIds = async (token: string) => (await bin(token)).data.map((i: any) => i.id);
  const restore = (token: string | undefined, ids: string[]) => call(server.app, 'POST', '/api/User/Recycle/Restore', { token, body: ids });
  const purge = (token: string | undefined, ids: string[]) => call(server.app, 'DELETE', '/api/User/Recycle', { token, body: ids });
  const items = async (token: string, parentId: string) =>
    (await ok(server.app, 'GET', `/api/User/Folders/${parentId}/Items`, { token, query: { pageSize: 1000 } })).items.data;
  const names = async (token: string, parentId: string) => (await items(token, parentId)).map((i: any) => i.name);
  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
  };

  test('lists the deleted items (not what went with them), newest first, to whom they belong', async () => {
    const dir = await create(owner.token, ownerRoot.id, '列表目录');
    const child = await create(owner.token, dir.id, '子项.txt', 'file');
    const file = await create(owner.token, ownerRoot.id, '列表文件.txt', 'file');
    await remove(owner.token, [dir.id]);
    await server.app.db.updateTable('items').set({ deleted_at: Date.now() - 60_000 }).where('id', '=', Number(dir.id)).execute();
    await remove(owner.token, [file.id]);
    const list = await bin(owner.token);
    expect(list.total).toBe(2);
    expect(list.data.map((i: any) => i.id)).toEqual([file.id, dir.id]);
    expect(list.data.map((i: any) => i.id)).not.toContain(child.id);
    const [f] = list.data;
    expect(f).toMatchObject({ id: file.id, name: '列表文件.txt', type: 'file', spaceType: 2, originalPath: '个人文件', namePath: '个人文件/列表文件.txt' });
    expect(toMs(f.expiresAt) - toMs(f.deletedAt)).toBe(30 * DAY_MS);
    expect(Math.abs(toMs(f.deletedAt) - Date.now())).toBeLessThan(60_000);
    // paging
    const page2 = await bin(owner.token, { page: 2, pageSize: 1 });
    expect(page2).toMatchObject({ total: 2, data: [{ id: dir.id }] });
    // nobody else sees them
    for (const u of [outsider, editor, viewer]) expect(await binIds(u.token)).not.toEqual(expect.arrayContaining([file.id]));
    expectError(await call(server.app, 'GET', '/api/User/Recycle', { token: disabled.token }), 403, 403);
    expectError(await call(server.app, 'GET', '/api/User/Recycle', {}), 401, 401);

    // enterprise items: seen by those who may change the enterprise space
    const shared = await create(editor.token, publicRoot.id, '企业删除项');
    await remove(editor.token, [shared.id]);
    expect(await binIds(editor.token)).toContain(shared.id);
    expect(await binIds(adminToken)).toContain(shared.id);
    expect(await binIds(viewer.token)).not.toContain(shared.id);
    expect(await binIds(owner.token)).not.toContain(shared.id);
  });

  test('restore puts a folder and its descendants back in the original folder', async () => {
    const parent = await create(owner.token, ownerRoot.id, '还原父');
    const dir = await create(owner.token, parent.id, '还原目录');
    const sub = await create(owner.token, dir.id, '孙');
    const f = await create(owner.token, sub.id, '曾孙.txt', 'file');
    const before = await rows([dir.id, sub.id, f.id]);
    await remove(owner.token, [dir.id]);
    const res = await restore(owner.token, [dir.id]);
    expect(res.status).toBe(200);
    expect(res.body.result.restored).toEqual([expect.objectContaining({ id: dir.id, parentId: parent.id, namePath: '个人文件/还原父/还原目录' })]);
    const after = await rows([dir.id, sub.id, f.id]);
    expect(after.map((r) => [r!.id_path, r!.name_path, r!.deleted_at, r!.deleted_with])).toEqual(
      before.map((r) => [r!.id_path, r!.name_path, null, null]),
    );
    expect(await names(owner.token, sub.id)).toEqual(['曾孙.txt']);
    expect(await binIds(owner.token)).not.toContain(dir.id);
    // a descendant deleted on its own earlier stays in the bin
    const g = await create(owner.token, dir.id, '单独删除.txt', 'file');
    await remove(owner.token, [g.id]);
    await remove(owner.token, [dir.id]);
    await ok(server.app, 'POST', '/api/User/Recycle/Restore', { token: owner.token, body: [dir.id] });
    expect(await names(owner.token, dir.id)).toEqual(['孙']);
    expect(await binIds(owner.token)).toContain(g.id);
  });

  test('restore makes the original folders again when they are deleted or purged', async () => {
    const p1 = await create(owner.token, ownerRoot.id, '被删的父');
    const c1 = await create(owner.token, p1.id, '孤儿一');
    const gc1 = await create(owner.token, c1.id, '孤儿一的子.txt', 'file');
    await remove(owner.token, [c1.id]);
    await remove(owner.token, [p1.id]);
    const r1 = await ok(server.app, 'POST', '/api/User/Recycle/Restore', { token: owner.token, body: [c1.id] });
    const again1 = (await items(owner.token, ownerRoot.id)).find((i: any) => i.name === '被删的父');
    expect(again1).toMatchObject({ type: 'folder', parentId: ownerRoot.id });
    expect(again1.id).not.toBe(p1.id);
    expect(r1.restored[0]).toMatchObject({ id: c1.id, parentId: again1.id, idPath: `${again1.idPath}/${c1.id}`, namePath: '个人文件/被删的父/孤儿一' });
    expect(await row(gc1.id)).toMatchObject({ id_path: `${again1.idPath}/${c1.id}/${gc1.id}`, name_path: '被删的父/孤儿一/孤儿一的子.txt', deleted_at: null });
    expect(await binIds(owner.token)).toContain(p1.id);

    // purged two levels up; the middle name is now held by a file, so that folder gets （1）
    const a = await create(owner.token, ownerRoot.id, '甲');
    const b = await create(owner.token, a.id, '乙');
    const c2 = await create(owner.token, b.id, '孤儿二.txt', 'file');
    await remove(owner.token, [c2.id]);
    await remove(owner.token, [a.id]);
    expect((await purge(owner.token, [a.id])).body.result).toEqual({ purged: 1 });
    expect(await row(a.id)).toBeUndefined();
    const listed = (await bin(owner.token)).data.find((i: any) => i.id === c2.id);
    expect(listed).toMatchObject({ name: '孤儿二.txt', originalPath: '个人文件/甲/乙' });
    const newA = await create(owner.token, ownerRoot.id, '甲');
    await create(owner.token, newA.id, '乙', 'file');
    const r2 = await ok(server.app, 'POST', '/api/User/Recycle/Restore', { token: owner.token, body: [c2.id] });
    expect(r2.restored[0]).toMatchObject({ name: '孤儿二.txt', namePath: '个人文件/甲/乙（1）/孤儿二.txt' });
    expect((await items(owner.token, newA.id)).map((i: any) => i.name).sort()).toEqual(['乙', '乙（1）'].sort());

    // enterprise items: the folder is made again in the enterprise space
    const ep = await create(editor.token, publicRoot.id, '企业父');
    const ec = await create(editor.token, ep.id, '企业子');
    await remove(editor.token, [ec.id]);
    await remove(editor.token, [ep.id]);
    const r3 = await ok(server.app, 'POST', '/api/User/Recycle/Restore', { token: editor.token, body: [ec.id] });
    expect(r3.restored[0]).toMatchObject({ spaceType: 1, namePath: '企业文件/企业父/企业子' });
    expect(r3.restored[0].parentId).not.toBe(ep.id);
  });

  test('a name taken meanwhile gets （1）, （2）… and descendants follow', async () => {
    const f = await create(owner.token, ownerRoot.id, '周报.txt', 'file');
    await remove(owner.token, [f.id]);
    await create(owner.token, ownerRoot.id, '周报.txt', 'file');
    const r = await ok(server.app, 'POST', '/api/User/Recycle/Restore', { token: owner.token, body: [f.id] });
    expect(r.restored[0]).toMatchObject({ id: f.id, name: '周报（1）.txt', extension: 'txt' });

    const d = await create(owner.token, ownerRoot.id, '归档');
    const inner = await create(owner.token, d.id, '内容.txt', 'file');
    await remove(owner.token, [d.id]);
    await create(owner.token, ownerRoot.id, '归档');
    await create(owner.token, ownerRoot.id, '归档（1）');
    const r2 = await ok(server.app, 'POST', '/api/User/Recycle/Restore', { token: owner.token, body: [d.id] });
    expect(r2.restored[0]).toMatchObject({ name: '归档（2）', namePath: '个人文件/归档（2）' });
    expect(await row(inner.id)).toMatchObject({ name_path: '归档（2）/内容.txt', deleted_at: null });
  });

  test('role matrix of restore and purge: refused calls change nothing', async () => {
    const mine = await create(owner.token, ownerRoot.id, '矩阵项');
    const inner = await create(owner.token, mine.id, '矩阵子.txt', 'file');
    const live = await create(owner.token, ownerRoot.id, '活着的');
    const shared = await create(editor.token, publicRoot.id, '企业矩阵项');
    await remove(owner.token, [mine.id]);
    await remove(editor.token, [shared.id]);
    const ids = [mine.id, inner.id, live.id, shared.id];
    const before = await rows(ids);
    for (const call of [restore, purge]) {
      expectError(await call(outsider.token, [mine.id]), 404, 404);
      expectError(await call(editor.token, [mine.id]), 404, 404);
      expectError(await call(viewer.token, [shared.id]), 404, 404);
      expectError(await call(owner.token, [mine.id, shared.id]), 404, 404); // all or nothing
      expectError(await call(owner.token, [live.id]), 404, 404); // not in the bin
      expectError(await call(owner.token, [inner.id]), 404, 404); // went with its folder
      expectError(await call(disabled.token, [mine.id]), 403, 403);
      expectError(await call(undefined, [mine.id]), 401, 401);
      expectError(await call(owner.token, []), 400, 40001);
    }
    expect(await rows(ids)).toEqual(before);
    expect((await restore(editor.token, [shared.id])).status).toBe(200);
  });

  test('purge removes an item and its descendants for good', async () => {
    const d = await create(owner.token, ownerRoot.id, '彻底删除');
    const sub = await create(owner.token, d.id, '子');
    const f = await create(owner.token, sub.id, '文件.txt', 'file');
    const keep = await create(owner.token, ownerRoot.id, '留着.txt', 'file');
    await remove(owner.token, [d.id, keep.id]);
    const res = await purge(owner.token, [d.id]);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ purged: 1 });
    expect(await rows([d.id, sub.id, f.id])).toEqual([undefined, undefined, undefined]);
    expect(await binIds(owner.token)).not.toContain(d.id);
    expect(await binIds(owner.token)).toContain(keep.id);
    expectError(await restore(owner.token, [d.id]), 404, 404);
  });

  test('the retention purge removes only what has been in the bin longer than the retention period', async () => {
    const old = await create(owner.token, ownerRoot.id, '过期目录');
    const oldChild = await create(owner.token, old.id, '过期子.txt', 'file');
    const fresh = await create(owner.token, ownerRoot.id, '未过期.txt', 'file');
    const almost = await create(owner.token, ownerRoot.id, '快过期.txt', 'file');
    const living = await create(owner.token, ownerRoot.id, '没删除.txt', 'file');
    await remove(owner.token, [old.id, fresh.id, almost.id]);
    const now = Date.now();
    const setDeleted = (id: string, at: number) =>
      server.app.db
        .updateTable('items')
        .set({ deleted_at: at })
        .where((eb) => eb.or([eb('id', '=', Number(id)), eb('deleted_with', '=', Number(id))]))
        .execute();
    await setDeleted(old.id, now - 31 * DAY_MS);
    await setDeleted(almost.id, now - 29 * DAY_MS);
    await server.app.db.updateTable('items').set({ updated_at: now - 400 * DAY_MS }).where('id', '=', Number(living.id)).execute();

    expect(await server.app.services.recycle.purgeExpired(now)).toBeGreaterThanOrEqual(1);
    expect(await rows([old.id, oldChild.id])).toEqual([undefined, undefined]);
    expect(await row(fresh.id)).toBeDefined();
    expect(await row(almost.id)).toBeDefined();
    expect(await row(living.id)).toMatchObject({ deleted_at: null });

    // a server started with RECYCLE_RETENTION_DAYS=7 purges at start and shows the shorter expiry
    const restarted = await server.restart({ RECYCLE_RETENTION_DAYS: '7' });
    expect(await row(almost.id)).toBeUndefined();
    expect(await row(fresh.id)).toBeDefined();
    const token = (await login(restarted, owner.userName, owner.password)).token;
    const item = (await ok(restarted, 'GET', '/api/User/Recycle', { token, query: { pageSize: 1000 } })).data.find((i: any) => i.id === fresh.id);
    expect(toMs(item.expiresAt) - toMs(item.deletedAt)).toBe(7 * DAY_MS);
  });
});
