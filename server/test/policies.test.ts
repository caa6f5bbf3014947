// 云文档 access policies: levels, inheritance, subjects, the five FileAccessPolicies calls and
// what every file call needs (docs/integration.md, "Rights: levels and how they are found").
import { call, databaseKinds, HAN, login, ok, roleCast, startServer, userWithToken, type TestServer, type TestUser } from './support/harness';

type User = TestUser;

describe.each(databaseKinds())('access policies (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let docAdmin: User; // isDocAdmin: 4 everywhere in the enterprise space
  let owner: User; // owner of a personal space
  let disabled: User;
  let ownerRoot: any;
  let publicRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    const cast = await roleCast(server.app);
    ({ adminToken, owner, disabled, ownerRoot, publicRoot } = cast);
    docAdmin = cast.editor;
  });
  afterAll(async () => {
    await server?.close();
  });

  const newUser = (nickName: string) => userWithToken(server.app, adminToken, { nickName });
  const create = async (token: string, parentId: string, name: string, type: 'folder' | 'file' = 'folder') =>
    ok(server.app, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type } });
  const setPolicies = (token: string | undefined, fileId: string, policies: { subjectType: number; subjectId: string; level: number }[]) =>
    call(server.app, 'POST', '/api/User/FileAccessPolicies/Policies', { token, body: { fileId, policies } });
  const grant = async (fileId: string, policies: { subjectType: number; subjectId: string; level: number }[]) => {
    const res = await setPolicies(docAdmin.token, fileId, policies);
    expect(res.status).toBe(200);
    return res.body.result;
  };
  const user = (u: User, level: number) => ({ subjectType: 1, subjectId: u.userId, level });
  const getPolicies = (token: string | undefined, id: string, validOnly?: boolean) =>
    call(server.app, 'GET', `/api/User/FileAccessPolicies/${id}/Policies`, { token, query: validOnly === undefined ? undefined : { validOnly: String(validOnly) } });
  const filePermission = (token: string | undefined, fileId: string) =>
    call(server.app, 'GET', '/api/User/FileAccessPolicies/FilePermissions', { token, query: { fileId } });
  const folderPermission = (token: string | undefined, folderId: string) =>
    call(server.app, 'GET', '/api/User/FileAccessPolicies/FolderPermission', { token, query: { folderId } });
  const calc = (token: string | undefined, fileIds: string[], userId?: string) =>
    call(server.app, 'POST', '/api/User/FileAccessPolicies/Calc', { token, body: { fileIds, ...(userId ? { userId } : {}) } });
  const levelOf = async (token: string, id: string) => {
    const res = await filePermission(token, id);
    return res.status === 404 ? null : res.body.result.level;
  };
  /** the stored own list of an item, to prove what a refused call left */
  const stored = async (id: string) =>
    (await server.app.db.selectFrom('access_policies').select(['subject_type', 'subject_id', 'level']).where('item_id', '=', Number(id)).orderBy('id').execute()).map(
      (r) => `${r.subject_type}:${r.subject_id}:${r.level}`,
    );
  const itemRow = async (id: string) => server.app.db.selectFrom('items').selectAll().where('id', '=', Number(id)).executeTakeFirst();
  const names = async (token: string, parentId: string) =>
    (await ok(server.app, 'GET', `/api/User/Folders/${parentId}/Items`, { token, query: { pageSize: 1000 } })).items.data.map((i: any) => i.name);

  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
  };
  const expect404 = (res: { status: number; body: any }) => expectError(res, 404, 404);
  const expect40301 = (res: { status: number; body: any }) => expectError(res, 403, 40301);
  const expect40001 = (res: { status: number; body: any }) => expectError(res, 400, 40001);
  const expectDisabled = (res: { status: number; body: any }) => expectError(res, 403, 403);
  const expect401 = (res: { status: number; body: any }) => expectError(res, 401, 401);

  test('the role matrix of the five calls; refused calls change nothing', async () => {
    const manager = await newUser('经理');
    const editor = await newUser('编辑者');
    const viewer = await newUser('预览者');
    const outsider = await newUser('局外人');
    const folder = await create(docAdmin.token, publicRoot.id, '矩阵目录');
    const file = await create(docAdmin.token, folder.id, '矩阵文件.txt', 'file');
    await grant(folder.id, [user(manager, 4), user(editor, 3), user(viewer, 1)]);
    const before = await stored(folder.id);
    expect(before).toHaveLength(3);

    // FilePermissions and FolderPermission
    for (const [who, level] of [
      [docAdmin, 4],
      [manager, 4],
      [editor, 3],
      [viewer, 1],
    ] as const) {
      const res = await filePermission(who.token, file.id);
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual({ fileId: file.id, level, permissions: expect.any(Array) });
      expect((await folderPermission(who.token, folder.id)).body.result.level).toBe(level);
    }
    expect((await filePermission(viewer.token, file.id)).body.result.permissions).toEqual(['view']);
    expect((await filePermission(editor.token, file.id)).body.result.permissions).toEqual([
      'view', 'download', 'copy', 'upload', 'createFolder', 'createFile', 'rename', 'move', 'delete', 'version',
    ]);
    expect((await filePermission(manager.token, file.id)).body.result.permissions).toContain('manage');
    expect404(await filePermission(outsider.token, file.id));
    expect404(await folderPermission(outsider.token, folder.id));
    expect404(await folderPermission(manager.token, file.id)); // a file is not a folder
    expect404(await filePermission(manager.token, '987654321'));
    expectDisabled(await filePermission(disabled.token, file.id));
    expect401(await filePermission(undefined, file.id));
    expect401(await folderPermission(undefined, folder.id));

    // GET Policies: needs 4
    for (const who of [docAdmin, manager]) {
      const res = await getPolicies(who.token, folder.id);
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ fileId: folder.id, inherited: false, inheritedFrom: null });
      expect(res.body.result.policies.map((p: any) => [p.subjectType, p.subjectId, p.subjectName, p.level])).toEqual([
        [1, manager.userId, '经理', 4],
        [1, editor.userId, '编辑者', 3],
        [1, viewer.userId, '预览者', 1],
      ]);
      expect(res.body.result.policies[0]).toEqual({
        id: expect.stringMatching(/^\d+$/),
        subjectType: 1,
        subjectId: manager.userId,
        subjectName: '经理',
        level: 4,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      });
    }
    expect40301(await getPolicies(editor.token, folder.id));
    expect40301(await getPolicies(viewer.token, folder.id));
    expect404(await getPolicies(outsider.token, folder.id));
    expectDisabled(await getPolicies(disabled.token, folder.id));
    expect401(await getPolicies(undefined, folder.id));

    // POST Policies: needs 4; refused calls leave the list as it was
    const attempt = [user(outsider, 4)];
    expect40301(await setPolicies(editor.token, folder.id, attempt));
    expect(await stored(folder.id)).toEqual(before);
    expect40301(await setPolicies(viewer.token, file.id, attempt));
    expect(await stored(file.id)).toEqual([]);
    expect404(await setPolicies(outsider.token, folder.id, attempt));
    expectDisabled(await setPolicies(disabled.token, folder.id, attempt));
    expect401(await setPolicies(undefined, folder.id, attempt));
    expect(await stored(folder.id)).toEqual(before);
    expect(await levelOf(outsider.token, folder.id)).toBeNull();

    const changed = await setPolicies(manager.token, folder.id, [user(manager, 4), user(editor, 3), user(viewer, 2)]);
    expect(changed.status).toBe(200);
    expect(changed.body.result.policies.map((p: any) => p.level)).toEqual([4, 3, 2]);
    // an entry kept keeps its creation time
    expect(changed.body.result.policies[0].createdAt).toBe((await getPolicies(docAdmin.token, folder.id)).body.result.policies[0].createdAt);
    expect(await levelOf(viewer.token, file.id)).toBe(2);

    // Calc: own rights in the order asked; another user's rights need 4 on each item
    const own = await calc(viewer.token, [file.id, folder.id, file.id]);
    expect(own.body.result.map((p: any) => [p.fileId, p.level])).toEqual([[file.id, 2], [folder.id, 2], [file.id, 2]]);
    const theirs = await calc(manager.token, [folder.id, file.id], viewer.userId);
    expect(theirs.body.result).toEqual([
      { fileId: folder.id, level: 2, permissions: ['view', 'download', 'copy'] },
      { fileId: file.id, level: 2, permissions: ['view', 'download', 'copy'] },
    ]);
    expect((await calc(manager.token, [folder.id], outsider.userId)).body.result[0].level).toBe(0);
    expect((await calc(docAdmin.token, [folder.id], disabled.userId)).body.result[0].level).toBe(0);
    expect40301(await calc(editor.token, [folder.id], viewer.userId));
    expect404(await calc(outsider.token, [folder.id]));
    expect404(await calc(viewer.token, [folder.id, '987654321']));
    expect40001(await calc(manager.token, [folder.id], '987654321'));
    expectDisabled(await calc(disabled.token, [folder.id]));
    expect401(await calc(undefined, [folder.id]));
  });

  test('inheritance and override down three levels; 4 from further up still holds below', async () => {
    const manager = await newUser('上级经理');
    const reader = await newUser('读者甲');
    const other = await newUser('他人');
    const a = await create(docAdmin.token, publicRoot.id, '继承甲');
    const b = await create(docAdmin.token, a.id, '继承乙');
    const c = await create(docAdmin.token, b.id, '继承丙');
    const d = await create(docAdmin.token, c.id, '继承丁.txt', 'file');
    // before any list: the default, 2 for everyone
    expect(await levelOf(other.token, d.id)).toBe(2);
    const none = (await getPolicies(docAdmin.token, d.id)).body.result;
    expect(none).toEqual({ fileId: d.id, inherited: true, inheritedFrom: null, policies: [] });

    await grant(a.id, [user(manager, 4), user(reader, 3)]);
    await grant(c.id, [user(reader, 1)]);
    expect([await levelOf(reader.token, a.id), await levelOf(reader.token, b.id), await levelOf(reader.token, c.id), await levelOf(reader.token, d.id)]).toEqual([3, 3, 1, 1]);
    // the manager is not on c's list, but manages a
    expect([await levelOf(manager.token, b.id), await levelOf(manager.token, c.id), await levelOf(manager.token, d.id)]).toEqual([4, 4, 4]);
    // not on a's list: a and everything below are invisible
    for (const id of [a.id, b.id, c.id, d.id]) expect(await levelOf(other.token, id)).toBeNull();
    expect(await names(other.token, publicRoot.id)).not.toContain('继承甲');
    expect(await names(reader.token, publicRoot.id)).toContain('继承甲');

    // the list in force, and where it comes from
    const onB = (await getPolicies(manager.token, b.id)).body.result;
    expect(onB).toMatchObject({ fileId: b.id, inherited: true, inheritedFrom: { id: a.id, name: '继承甲', namePath: '企业文件/继承甲' } });
    expect(onB.policies.map((p: any) => p.subjectId)).toEqual([manager.userId, reader.userId]);
    const onD = (await getPolicies(manager.token, d.id)).body.result;
    expect(onD).toMatchObject({ inherited: true, inheritedFrom: { id: c.id, namePath: '企业文件/继承甲/继承乙/继承丙' } });
    expect(onD.policies.map((p: any) => [p.subjectId, p.level])).toEqual([[reader.userId, 1]]);
    expect((await getPolicies(manager.token, d.id, false)).body.result).toMatchObject({ inherited: true, policies: [] });
    expect((await getPolicies(manager.token, c.id, false)).body.result).toMatchObject({ inherited: false, inheritedFrom: null, policies: [{ level: 1 }] });

    // the manager from above may change c's list without being on it; [] inherits again
    expect((await setPolicies(manager.token, c.id, [])).status).toBe(200);
    expect(await stored(c.id)).toEqual([]);
    expect(await levelOf(reader.token, d.id)).toBe(3);
    expect((await getPolicies(manager.token, c.id)).body.result).toMatchObject({ inherited: true, inheritedFrom: { id: a.id } });
  });

  test('the tree says a folder has children only when the caller can see one of them', async () => {
    const reader = await newUser('树读者');
    const boss = await newUser('树经理');
    const top = await create(docAdmin.token, publicRoot.id, '树顶');
    const mid = await create(docAdmin.token, top.id, '树中');
    const hidden = await create(docAdmin.token, mid.id, '树下隐藏');
    await grant(top.id, [user(reader, 2), user(boss, 2)]);
    await grant(mid.id, [user(reader, 2), user(boss, 4)]);
    await grant(hidden.id, [user(docAdmin, 4)]);
    const node = async (token: string, parentId: string, id: string) =>
      (await ok(server.app, 'GET', `/api/User/Folders/${parentId}/TreeNodes`, { token })).find((n: any) => n.id === id);
    // every child of 树中 is hidden from the reader: no expander
    expect(await node(reader.token, top.id, mid.id)).toMatchObject({ name: '树中', hasChildren: false });
    expect(await ok(server.app, 'GET', `/api/User/Folders/${mid.id}/TreeNodes`, { token: reader.token })).toEqual([]);
    // the manager of 树中 sees everything below it
    expect(await node(boss.token, top.id, mid.id)).toMatchObject({ hasChildren: true });
    expect((await ok(server.app, 'GET', `/api/User/Folders/${mid.id}/TreeNodes`, { token: boss.token })).map((n: any) => n.name)).toEqual(['树下隐藏']);
    // a visible child gives the expander back
    await create(docAdmin.token, mid.id, '树下公开');
    expect(await node(reader.token, top.id, mid.id)).toMatchObject({ hasChildren: true });
  });

  test('departments match their members and the members of sub-departments; groups match their members', async () => {
    const rootDept = (await ok(server.app, 'GET', '/api/User/Organizations/Departments/Tree', { token: adminToken }))[0].id;
    const dept = (await ok(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '研发部', parentId: rootDept } })).id;
    const sub = (await ok(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '前端组', parentId: dept } })).id;
    const inSub = await newUser('前端成员');
    const elsewhere = await newUser('其他部门成员');
    await ok(server.app, 'PUT', `/api/Admin/Users/${inSub.userId}`, { token: adminToken, body: { deptId: sub } });
    const other = (await ok(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '财务部', parentId: rootDept } })).id;
    await ok(server.app, 'PUT', `/api/Admin/Users/${elsewhere.userId}`, { token: adminToken, body: { deptId: other } });
    const group = await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: '评审组' } });
    const member = await newUser('组员');
    await ok(server.app, 'PUT', `/api/Admin/Groups/${group.id}/Members`, { token: adminToken, body: { userIds: [member.userId] } });

    const folder = await create(docAdmin.token, publicRoot.id, '部门目录');
    const list = await grant(folder.id, [
      { subjectType: 2, subjectId: dept, level: 3 },
      { subjectType: 3, subjectId: group.id, level: 2 },
    ]);
    expect(list.policies.map((p: any) => p.subjectName)).toEqual(['研发部', '评审组']);
    expect(await levelOf(inSub.token, folder.id)).toBe(3);
    expect(await levelOf(member.token, folder.id)).toBe(2);
    expect(await levelOf(elsewhere.token, folder.id)).toBeNull();
    // a user in the department and in the group gets the higher of the two
    await ok(server.app, 'PUT', `/api/Admin/Groups/${group.id}/Members`, { token: adminToken, body: { userIds: [member.userId, inSub.userId] } });
    expect(await levelOf(inSub.token, folder.id)).toBe(3);
    // a level of 0 matches and decides: it is not "no entry"
    await grant(folder.id, [{ subjectType: 2, subjectId: dept, level: 0 }, { subjectType: 3, subjectId: group.id, level: 2 }]);
    expect(await levelOf(inSub.token, folder.id)).toBe(2);

    // a deleted group's entries stay on the list, named as deleted, and match nobody
    const gone = await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: '临时组' } });
    await ok(server.app, 'PUT', `/api/Admin/Groups/${gone.id}/Members`, { token: adminToken, body: { userIds: [elsewhere.userId] } });
    const temp = await create(docAdmin.token, publicRoot.id, '临时组目录');
    await grant(temp.id, [{ subjectType: 3, subjectId: gone.id, level: 3 }]);
    expect(await levelOf(elsewhere.token, temp.id)).toBe(3);
    await ok(server.app, 'DELETE', `/api/Admin/Groups/${gone.id}`, { token: adminToken });
    expect(await levelOf(elsewhere.token, temp.id)).toBeNull();
    expect((await getPolicies(docAdmin.token, temp.id)).body.result.policies.map((p: any) => p.subjectName)).toEqual(['已删除的用户组']);
  });

  test('what each level may do: 1 lists, 2 copies out, 3 renames, moves and deletes, 4 sets policies', async () => {
    const l1 = await newUser('一级');
    const l2 = await newUser('二级');
    const l3 = await newUser('三级');
    const folder = await create(docAdmin.token, publicRoot.id, '级别目录');
    const inner = await create(docAdmin.token, folder.id, '级别子目录');
    const file = await create(docAdmin.token, folder.id, '级别文件.txt', 'file');
    await grant(folder.id, [user(l1, 1), user(l2, 2), user(l3, 3)]);
    const l1Root = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: l1.token }))[0];
    const l2Root = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: l2.token }))[0];
    const copy = (token: string, ids: string[], targetId: string) => call(server.app, 'POST', '/api/User/Files/Copy', { token, body: { ids, targetId } });
    const move = (token: string, ids: string[], targetId: string) => call(server.app, 'POST', '/api/User/Files/Move', { token, body: { ids, targetId } });
    const rename = (token: string, id: string, fileName: string) => call(server.app, 'PUT', `/api/User/Files/Rename/${id}`, { token, query: { fileName } });

    // 1: lists and reads, no copy out
    expect(await names(l1.token, folder.id)).toEqual(['级别子目录', '级别文件.txt']);
    expect((await ok(server.app, 'GET', `/api/User/Files/${file.id}`, { token: l1.token })).permissions).toEqual(['view']);
    expect40301(await copy(l1.token, [file.id], l1Root.id));
    expect(await names(l1.token, l1Root.id)).toEqual([]);

    // 2: copies out, cannot rename, create or delete
    const copied = await copy(l2.token, [file.id], l2Root.id);
    expect(copied.body.result.items.map((i: any) => [i.name, i.spaceType])).toEqual([['级别文件.txt', 2]]);
    expect40301(await rename(l2.token, file.id, '改名.txt'));
    expect((await itemRow(file.id))!.name).toBe('级别文件.txt');
    expect40301(await call(server.app, 'POST', '/api/User/Files/CreateFile', { token: l2.token, body: { parentId: folder.id, name: '新建', type: 'folder' } }));
    expect40301(await call(server.app, 'DELETE', '/api/User/Files', { token: l2.token, body: [file.id] }));
    expect((await itemRow(file.id))!.deleted_at).toBeNull();
    expect40301(await move(l2.token, [file.id], inner.id));
    expect((await itemRow(file.id))!.parent_id).toBe(Number(folder.id));

    // 3: renames, moves, creates, deletes; cannot set policies
    expect((await rename(l3.token, file.id, '三级改名.txt')).status).toBe(200);
    expect((await move(l3.token, [file.id], inner.id)).body.result.items[0].parentId).toBe(inner.id);
    const made = await create(l3.token, inner.id, '三级新建');
    expect(made.permissions).toContain('delete');
    expect40301(await setPolicies(l3.token, inner.id, [user(l3, 4)]));
    expect(await stored(inner.id)).toEqual([]);
    // moving out of the enterprise space needs 3 on the target too
    expect40301(await move(l3.token, [made.id], publicRoot.id));
    expect((await itemRow(made.id))!.parent_id).toBe(Number(inner.id));
    expect((await call(server.app, 'DELETE', '/api/User/Files', { token: l3.token, body: [made.id] })).status).toBe(200);

    // the recycle bin: the level-3 user sees what was deleted where they may edit; level 1 does not
    const binOf = async (token: string) => (await ok(server.app, 'GET', '/api/User/Recycle', { token })).data.map((i: any) => i.id);
    expect(await binOf(l3.token)).toContain(made.id);
    expect(await binOf(docAdmin.token)).toContain(made.id);
    expect(await binOf(l1.token)).not.toContain(made.id);
    expect404(await call(server.app, 'POST', '/api/User/Recycle/Restore', { token: l1.token, body: [made.id] }));
    expect((await itemRow(made.id))!.deleted_at).not.toBeNull();
  });

  test('不能移除自己的管理权限; personal items have no policies; bad entries answer 40001', async () => {
    const manager = await newUser('唯一经理');
    const someone = await newUser('某人');
    const folder = await create(docAdmin.token, publicRoot.id, '自保目录');
    await grant(folder.id, [user(manager, 4)]);
    const before = await stored(folder.id);

    for (const list of [[user(someone, 4)], [user(manager, 3)], []]) {
      const res = await setPolicies(manager.token, folder.id, list);
      expect40001(res);
      expect(res.body.message).toBe('不能移除自己的管理权限');
      expect(await stored(folder.id)).toEqual(before);
    }
    // a document administrator may take anything away
    expect((await setPolicies(docAdmin.token, folder.id, [user(someone, 4)])).status).toBe(200);
    expect(await levelOf(manager.token, folder.id)).toBeNull();
    await grant(folder.id, [user(manager, 4)]);

    const bad = async (policies: any[], message?: string) => {
      const res = await call(server.app, 'POST', '/api/User/FileAccessPolicies/Policies', { token: manager.token, body: { fileId: folder.id, policies } });
      expect40001(res);
      if (message) expect(res.body.message).toBe(message);
      expect(await stored(folder.id)).toEqual(before);
    };
    await bad([user(manager, 4), { subjectType: 1, subjectId: '987654321', level: 1 }], '权限对象不存在');
    await bad([user(manager, 4), { subjectType: 2, subjectId: '987654321', level: 1 }], '权限对象不存在');
    await bad([user(manager, 4), { subjectType: 3, subjectId: '987654321', level: 1 }], '权限对象不存在');
    await bad([user(manager, 4), user(someone, 1), user(someone, 2)]);
    await bad([user(manager, 4), user(someone, 5)]);
    await bad([user(manager, 4), user(someone, -1)]);
    await bad([user(manager, 4), { subjectType: 4, subjectId: someone.userId, level: 1 }]);

    const mine = await create(owner.token, ownerRoot.id, '个人目录');
    expect40301(await setPolicies(owner.token, mine.id, [user(owner, 4)]));
    expect40301(await getPolicies(owner.token, mine.id));
    expect(await stored(mine.id)).toEqual([]);
    expect((await filePermission(owner.token, mine.id)).body.result.level).toBe(4);
    expect404(await filePermission(docAdmin.token, mine.id));
    expect404(await setPolicies(docAdmin.token, mine.id, []));
  });

  test('purging an item removes its policies', async () => {
    const folder = await create(docAdmin.token, publicRoot.id, '待清除目录');
    const child = await create(docAdmin.token, folder.id, '待清除子项.txt', 'file');
    await grant(folder.id, [user(owner, 3)]);
    await grant(child.id, [user(owner, 1)]);
    await ok(server.app, 'DELETE', '/api/User/Files', { token: docAdmin.token, body: [folder.id] });
    expect((await stored(folder.id)).length + (await stored(child.id)).length).toBe(2);
    await ok(server.app, 'DELETE', '/api/User/Recycle', { token: docAdmin.token, body: [folder.id] });
    expect(await stored(folder.id)).toEqual([]);
    expect(await stored(child.id)).toEqual([]);
  });

  test('a subtree moved into a personal space leaves its policies behind; a copy carries none', async () => {
    const folder = await create(docAdmin.token, publicRoot.id, '带策略目录');
    const child = await create(docAdmin.token, folder.id, '带策略子项.txt', 'file');
    await grant(folder.id, [user(owner, 3)]);
    await grant(child.id, [user(owner, 1)]);
    const copied = await ok(server.app, 'POST', '/api/User/Files/Copy', { token: docAdmin.token, body: { ids: [folder.id], targetId: publicRoot.id, strategy: 2 } });
    expect(await stored(copied.items[0].id)).toEqual([]);
    const docAdminRoot = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: docAdmin.token }))[0];
    await ok(server.app, 'POST', '/api/User/Files/Move', { token: docAdmin.token, body: { ids: [folder.id], targetId: docAdminRoot.id } });
    expect(await stored(folder.id)).toEqual([]);
    expect(await stored(child.id)).toEqual([]);
    expect(await levelOf(owner.token, folder.id)).toBeNull();
  });

  test('a listing of 1,000 items with own policies: right rows and levels, in a bounded number of queries', async () => {
    const reader = await newUser('大目录读者');
    const folder = await create(docAdmin.token, publicRoot.id, '大目录');
    await grant(folder.id, [user(reader, 2)]);
    const parent = await itemRow(folder.id);
    const now = Date.now();
    const ids: number[] = [];
    await server.app.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 1000; i++) {
        const name = `文件${String(i).padStart(4, '0')}.txt`;
        const row = await trx
          .insertInto('items')
          .values({
            parent_id: parent!.id, space_type: 1, owner_id: Number(docAdmin.userId), name, name_key: name.toLowerCase(), type: 'file',
            type_order: 1, extension: 'txt', size: 0, id_path: '', name_path: `大目录/${name}`, sort_order: 0, created_at: now, updated_at: now, deleted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('items').set({ id_path: `${parent!.id_path}/${row.id}` }).where('id', '=', row.id).execute();
        ids.push(Number(row.id));
        // every 10th: the reader gets 3; every 10th + 5: a list without the reader (hidden)
        if (i % 10 === 0 || i % 10 === 5) {
          await trx
            .insertInto('access_policies')
            .values({ item_id: row.id, subject_type: 1, subject_id: Number(i % 10 === 0 ? reader.userId : docAdmin.userId), level: 3, created_by: null, created_at: now })
            .execute();
        }
      }
      await trx.updateTable('items').set({ child_files: 1000 }).where('id', '=', parent!.id).execute();
    });

    const executor = server.app.db.getExecutor();
    const spy = jest.spyOn(executor, 'executeQuery');
    const res = await ok(server.app, 'GET', `/api/User/Folders/${folder.id}/Items`, { token: reader.token, query: { pageSize: 1000 } });
    const queries = spy.mock.calls.length;
    spy.mockRestore();
    expect(res.items.total).toBe(900);
    expect(res.items.data).toHaveLength(900);
    expect(res.items.data.some((i: any) => Number(i.name.slice(2, 6)) % 10 === 5)).toBe(false);
    const levelByName = new Map(res.items.data.map((i: any) => [i.name, i.permissions.includes('rename') ? 3 : i.permissions.includes('copy') ? 2 : 0]));
    expect(levelByName.get('文件0000.txt')).toBe(3);
    expect(levelByName.get('文件0001.txt')).toBe(2);
    expect(levelByName.get('文件0990.txt')).toBe(3);
    expect([...levelByName.values()].filter((l) => l === 3)).toHaveLength(100);
    // session, settings, folder, rights, the page and its owners: a fixed number, not one per row
    expect(queries).toBeGreaterThan(0);
    expect(queries).toBeLessThan(30);

    // the document administrator sees all 1,000 with the stored count
    const all = await ok(server.app, 'GET', `/api/User/Folders/${folder.id}/Items`, { token: docAdmin.token, query: { pageSize: 1000 } });
    expect(all.items.total).toBe(1000);
    // paging the reader's view gives the same rows
    const p1 = await ok(server.app, 'GET', `/api/User/Folders/${folder.id}/Items`, { token: reader.token, query: { pageSize: 400, page: 3 } });
    expect(p1.items.total).toBe(900);
    expect(p1.items.data.map((i: any) => i.name)).toEqual(res.items.data.slice(800).map((i: any) => i.name));
    expect(await login(server.app)).toBeTruthy();
  });
});
