// 云文档 file versions and content blobs: listing, rollback, master, deletion, copy and move
// with strategy 0 (新版本), reference counts through copy and purge, and the role matrix
// (docs/integration.md, "Versions").
import crypto from 'node:crypto';
import fs from 'node:fs';
import { addMasterVersion } from '../src/modules/versions/repository';
import { call, databaseKinds, HAN, ok, roleCast, startServer, type TestServer, type TestUser } from './support/harness';

describe.each(databaseKinds())('file versions (%s)', (kind) => {
  let server: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let disabled: TestUser;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ owner, outsider, editor, viewer, disabled, ownerRoot, publicRoot } = await roleCast(server.app));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.app.db;
  const blobs = () => server.app.services.folders.blobs;
  const create = (token: string, parentId: string, name: string, type: 'folder' | 'file' = 'file') =>
    ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type } });
  /** New content for a file, as an upload stores it: a blob (one reference) and a new master version. */
  const upload = async (fileId: string, text: string, userId: string) => {
    const blob = await blobs().put(db(), Buffer.from(text));
    await db().transaction().execute((trx) =>
      addMasterVersion(trx, Number(fileId), { blobId: blob?.id ?? null, size: blob?.size ?? 0, md5: blob?.md5 ?? null }, Number(userId), Date.now(), true),
    );
    return blob;
  };
  const md5 = (text: string) => crypto.createHash('md5').update(text).digest('hex');
  const blobRow = (md5Hex: string) => db().selectFrom('blobs').selectAll().where('md5', '=', md5Hex).executeTakeFirst();
  const versionRows = (fileId: string) =>
    db().selectFrom('file_versions').selectAll().where('item_id', '=', Number(fileId)).orderBy('version_no').execute();
  const itemRow = (id: string) => db().selectFrom('items').selectAll().where('id', '=', Number(id)).executeTakeFirst();
  const list = (token: string | undefined, fileId: string) => call(server.app, 'GET', `/api/User/Files/${fileId}/Versions`, { token });
  const rollback = (token: string | undefined, fileId: string, versionId: string) =>
    call(server.app, 'POST', `/api/User/Files/${fileId}/VersionRollback/${versionId}`, { token });
  const setMaster = (token: string | undefined, versionId: string, isMaster?: boolean) =>
    call(server.app, 'POST', `/api/User/Files/Versions/${versionId}/SetMaster`, { token, query: isMaster === undefined ? {} : { isMaster: String(isMaster) } });
  const remove = (token: string | undefined, versionId: string) => call(server.app, 'DELETE', `/api/User/Files/Versions/${versionId}`, { token });
  const op = (kindOf: 'Move' | 'Copy', token: string, body: Record<string, unknown>) =>
    call(server.app, 'POST', `/api/User/Files/${kindOf}`, { token, body });

  const expectError = (res: { status: number; body: any }, status: number, code: number, message?: string) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
    if (message) expect(res.body.message).toBe(message);
  };

  test('a new file has version 1, its master; folders have no versions', async () => {
    const f = await create(owner.token, ownerRoot.id, '版本一.txt');
    const res = await list(owner.token, f.id);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        fileId: f.id,
        version: 1,
        size: 0,
        md5: null,
        isMaster: true,
        creatorId: owner.userId,
        creatorName: '所有者',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      },
    ]);
    const dir = await create(owner.token, ownerRoot.id, '没有版本的目录', 'folder');
    expectError(await list(owner.token, dir.id), 404, 404);
    expectError(await list(owner.token, '987654321'), 404, 404);
  });

  test('rollback adds a new master with the old content; the file follows its master', async () => {
    const f = await create(owner.token, ownerRoot.id, '回滚.txt');
    await upload(f.id, 'aaa', owner.userId);
    await upload(f.id, 'bbbbb', owner.userId);
    let versions = (await list(owner.token, f.id)).body.result;
    expect(versions.map((v: any) => [v.version, v.isMaster, v.size])).toEqual([
      [3, true, 5],
      [2, false, 3],
      [1, false, 0],
    ]);
    expect((await itemRow(f.id))!.size).toBe(5);
    const v2 = versions[1];
    const res = await rollback(owner.token, f.id, v2.id);
    expect(res.status).toBe(200);
    versions = res.body.result;
    expect(versions.map((v: any) => [v.version, v.isMaster, v.size, v.md5])).toEqual([
      [4, true, 3, md5('aaa')],
      [3, false, 5, md5('bbbbb')],
      [2, false, 3, md5('aaa')],
      [1, false, 0, null],
    ]);
    expect((await itemRow(f.id))!.size).toBe(3);
    expect((await blobRow(md5('aaa')))!.ref_count).toBe(2);
    expect((await ok(server.app, 'GET', `/api/User/Files/${f.id}`, { token: owner.token })).size).toBe(3);

    // a version of another file: 404, nothing changes
    const other = await create(owner.token, ownerRoot.id, '别的文件.txt');
    const otherV1 = (await list(owner.token, other.id)).body.result[0];
    expectError(await rollback(owner.token, f.id, otherV1.id), 404, 404);
    expectError(await rollback(owner.token, f.id, '987654321'), 404, 404);
    expect(await versionRows(f.id)).toHaveLength(4);
  });

  test('set master and delete: the master cannot be unset nor deleted; blobs go with their last version', async () => {
    const f = await create(owner.token, ownerRoot.id, '主版本.txt');
    await upload(f.id, 'first content', owner.userId);
    const second = await upload(f.id, 'second content!', owner.userId);
    const [v3, v2, v1] = (await list(owner.token, f.id)).body.result;
    expect(v3.isMaster).toBe(true);

    let res = await setMaster(owner.token, v2.id);
    expect(res.status).toBe(200);
    expect(res.body.result.map((v: any) => v.isMaster)).toEqual([false, true, false]);
    expect((await itemRow(f.id))!.size).toBe('first content'.length);

    expectError(await setMaster(owner.token, v2.id, false), 400, 40001, '文件必须保留一个主版本');
    res = await setMaster(owner.token, v3.id, false); // not the master: nothing to change
    expect(res.status).toBe(200);
    expect(res.body.result.map((v: any) => v.isMaster)).toEqual([false, true, false]);

    expectError(await remove(owner.token, v2.id), 400, 40001, '不能删除主版本');
    expect(await versionRows(f.id)).toHaveLength(3);

    const file = blobs().pathOf((await blobRow(md5('second content!')))!.storage_key);
    expect(fs.readFileSync(file, 'utf8')).toBe('second content!');
    expect(second!.size).toBe(15);
    res = await remove(owner.token, v3.id);
    expect(res.status).toBe(200);
    expect(res.body.result.map((v: any) => v.version)).toEqual([2, 1]);
    // nobody holds that content any more: row and file are gone
    expect(await blobRow(md5('second content!'))).toBeUndefined();
    expect(fs.existsSync(file)).toBe(false);
    expect((await remove(owner.token, v1.id)).body.result.map((v: any) => v.version)).toEqual([2]);
    expectError(await remove(owner.token, v1.id), 404, 404);
  });

  test('role matrix: viewers list, editors change; refused calls change nothing', async () => {
    const shared = await create(editor.token, publicRoot.id, '企业版本.txt');
    await upload(shared.id, 'enterprise v2', editor.userId);
    const [v2, v1] = (await list(editor.token, shared.id)).body.result;
    const mine = await create(owner.token, ownerRoot.id, '个人版本.txt');
    await upload(mine.id, 'personal v2', owner.userId);
    const [m2, m1] = (await list(owner.token, mine.id)).body.result;
    const before = async () => [await versionRows(shared.id), await versionRows(mine.id), await itemRow(shared.id), await itemRow(mine.id)];
    const snapshot = await before();

    // the viewer sees the enterprise file but may not change its versions
    expect((await list(viewer.token, shared.id)).body.result).toHaveLength(2);
    expectError(await rollback(viewer.token, shared.id, v1.id), 403, 40301);
    expectError(await setMaster(viewer.token, v1.id), 403, 40301);
    expectError(await remove(viewer.token, v1.id), 403, 40301);
    // nobody but the owner sees a personal file, not even a document administrator
    for (const token of [outsider.token, editor.token]) {
      expectError(await list(token, mine.id), 404, 404);
      expectError(await rollback(token, mine.id, m1.id), 404, 404);
      expectError(await setMaster(token, m1.id), 404, 404);
      expectError(await remove(token, m1.id), 404, 404);
    }
    for (const [token, status, code] of [
      [disabled.token, 403, 403],
      [undefined, 401, 401],
    ] as const) {
      expectError(await list(token, shared.id), status, code);
      expectError(await rollback(token, shared.id, v1.id), status, code);
      expectError(await setMaster(token, v1.id), status, code);
      expectError(await remove(token, v1.id), status, code);
    }
    expect(await before()).toEqual(snapshot);

    // the editor and the owner may
    expect((await setMaster(editor.token, v1.id)).body.result.map((v: any) => v.isMaster)).toEqual([false, true]);
    expect((await remove(editor.token, v2.id)).body.result).toHaveLength(1);
    expect((await rollback(owner.token, mine.id, m1.id)).body.result.map((v: any) => v.version)).toEqual([3, 2, 1]);
    expect((await remove(owner.token, m2.id)).status).toBe(200);
  });

  test('a copy starts with one version holding the master content; purging lets go of the blobs', async () => {
    const dir = await create(owner.token, ownerRoot.id, '复制版本源', 'folder');
    const f = await create(owner.token, dir.id, '内容.txt');
    await upload(f.id, 'old content', owner.userId);
    await upload(f.id, 'copied content', owner.userId);
    const to = await create(owner.token, ownerRoot.id, '复制版本目标', 'folder');
    const copied = (await ok(server.app, 'POST', '/api/User/Files/Copy', { token: owner.token, body: { ids: [dir.id], targetId: to.id } })).items[0];
    const copyFile = (await ok(server.app, 'GET', `/api/User/Folders/${copied.id}/Items`, { token: owner.token })).items.data[0];
    expect(copyFile).toMatchObject({ name: '内容.txt', size: 'copied content'.length });
    const copyVersions = (await list(owner.token, copyFile.id)).body.result;
    expect(copyVersions.map((v: any) => [v.version, v.isMaster, v.size, v.md5])).toEqual([[1, true, 14, md5('copied content')]]);
    expect((await blobRow(md5('copied content')))!.ref_count).toBe(2);
    expect((await blobRow(md5('old content')))!.ref_count).toBe(1);
    const oldFile = blobs().pathOf((await blobRow(md5('old content')))!.storage_key);
    const copiedFile = blobs().pathOf((await blobRow(md5('copied content')))!.storage_key);

    // the original goes to the recycle bin (versions kept), then for good
    await ok(server.app, 'DELETE', '/api/User/Files', { token: owner.token, body: [dir.id] });
    expect(await versionRows(f.id)).toHaveLength(3);
    expect((await ok(server.app, 'DELETE', '/api/User/Recycle', { token: owner.token, body: [dir.id] })).purged).toBe(1);
    expect(await versionRows(f.id)).toHaveLength(0);
    expect(await blobRow(md5('old content'))).toBeUndefined();
    expect(fs.existsSync(oldFile)).toBe(false);
    expect((await blobRow(md5('copied content')))!.ref_count).toBe(1);
    expect(fs.existsSync(copiedFile)).toBe(true);

    // the copy, through the retention purge
    await ok(server.app, 'DELETE', '/api/User/Files', { token: owner.token, body: [copied.id] });
    await server.app.services.recycle.purgeExpired(Date.now() + 366 * 24 * 60 * 60 * 1000);
    expect(await versionRows(copyFile.id)).toHaveLength(0);
    expect(await blobRow(md5('copied content'))).toBeUndefined();
    expect(fs.existsSync(copiedFile)).toBe(false);
  });

  test('strategy 0 on copy: the copied content becomes the new master of the file already there', async () => {
    const from = await create(owner.token, ownerRoot.id, '新版本复制源', 'folder');
    const to = await create(owner.token, ownerRoot.id, '新版本复制目标', 'folder');
    const source = await create(owner.token, from.id, '报告.txt');
    await upload(source.id, 'new report', owner.userId);
    const existing = await create(owner.token, to.id, '报告.TXT');
    await upload(existing.id, 'old', owner.userId);
    const toBefore = await itemRow(to.id);

    const offered = await op('Copy', owner.token, { ids: [source.id], targetId: to.id });
    expect(offered.body.result).toMatchObject({
      conflictType: 1,
      conflictInfo: { fileName: '报告.txt' },
      conflictStrategies: [
        { name: '新版本', value: 0 },
        { name: '覆盖', value: 1 },
        { name: '重命名', value: 2 },
        { name: '跳过', value: 3 },
      ],
    });
    expect(await versionRows(existing.id)).toHaveLength(2);

    const res = await op('Copy', owner.token, { ids: [source.id], targetId: to.id, strategy: 0 });
    expect(res.status).toBe(200);
    expect(res.body.result.conflictType).toBe(0);
    expect(res.body.result.items.map((i: any) => [i.id, i.name, i.size])).toEqual([[existing.id, '报告.TXT', 10]]);
    const versions = (await list(owner.token, existing.id)).body.result;
    expect(versions.map((v: any) => [v.version, v.isMaster, v.size, v.md5])).toEqual([
      [3, true, 10, md5('new report')],
      [2, false, 3, md5('old')],
      [1, false, 0, null],
    ]);
    expect((await blobRow(md5('new report')))!.ref_count).toBe(2);
    // the source is untouched; no new item in the target
    expect((await itemRow(source.id))!.deleted_at).toBeNull();
    expect(await versionRows(source.id)).toHaveLength(2);
    expect((await itemRow(to.id))!.child_files).toBe(toBefore!.child_files);
  });

  test('strategy 0 on move: the moved file is gone for good, its content living on as the new version', async () => {
    const from = await create(owner.token, ownerRoot.id, '新版本移动源', 'folder');
    const to = await create(owner.token, ownerRoot.id, '新版本移动目标', 'folder');
    const source = await create(owner.token, from.id, '数据.csv');
    await upload(source.id, 'older source', owner.userId);
    await upload(source.id, 'a,b,c', owner.userId);
    const existing = await create(owner.token, to.id, '数据.csv');
    const res = await op('Move', owner.token, { ids: [source.id], targetId: to.id, strategy: 0 });
    expect(res.status).toBe(200);
    expect(res.body.result.items.map((i: any) => [i.id, i.size])).toEqual([[existing.id, 5]]);
    expect(await itemRow(source.id)).toBeUndefined();
    expect(await versionRows(source.id)).toHaveLength(0);
    expect((await ok(server.app, 'GET', '/api/User/Recycle', { token: owner.token })).data.map((i: any) => i.id)).not.toContain(source.id);
    expect((await itemRow(from.id))!.child_files).toBe(0);
    const versions = (await list(owner.token, existing.id)).body.result;
    expect(versions.map((v: any) => [v.version, v.isMaster, v.size])).toEqual([
      [2, true, 5],
      [1, false, 0],
    ]);
    expect((await blobRow(md5('a,b,c')))!.ref_count).toBe(1);
    expect(await blobRow(md5('older source'))).toBeUndefined();
    expect((await itemRow(existing.id))!.size).toBe(5);
  });

  test('strategy 0 is neither offered nor accepted for folders; refused calls change nothing', async () => {
    const from = await create(owner.token, ownerRoot.id, '新版本拒绝源', 'folder');
    const to = await create(owner.token, ownerRoot.id, '新版本拒绝目标', 'folder');
    const dir = await create(owner.token, from.id, '同名', 'folder');
    await create(owner.token, to.id, '同名', 'folder');
    const fileOnFolder = await create(owner.token, from.id, '资料', 'file');
    await create(owner.token, to.id, '资料', 'folder');
    const file = await create(owner.token, from.id, '普通.txt');
    await create(owner.token, to.id, '普通.txt');
    const snapshot = async () => [await itemRow(from.id), await itemRow(to.id), await itemRow(dir.id), await itemRow(file.id), await versionRows(file.id)];
    const before = await snapshot();
    for (const kindOf of ['Move', 'Copy'] as const) {
      const mixed = await op(kindOf, owner.token, { ids: [file.id, dir.id], targetId: to.id });
      expect(mixed.body.result.conflictStrategies.map((s: any) => s.value)).toEqual([1, 2, 3]);
      expectError(await op(kindOf, owner.token, { ids: [file.id, dir.id], targetId: to.id, strategy: 0 }), 400, 40001, '文件夹不能保存为新版本');
      expectError(await op(kindOf, owner.token, { ids: [fileOnFolder.id], targetId: to.id, strategy: 0 }), 400, 40001, '文件夹不能保存为新版本');
      const fileOnly = await op(kindOf, owner.token, { ids: [file.id], targetId: to.id });
      expect(fileOnly.body.result.conflictStrategies.map((s: any) => s.value)).toEqual([0, 1, 2, 3]);
    }
    expect(await snapshot()).toEqual(before);
  });
});
