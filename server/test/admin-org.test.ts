// 云文档 administration of the organisation: departments, groups, enabling and editing users.
// Every refused call is followed by reading the state back: nothing may have changed.
import { ADMIN_PASSWORD, ADMIN_USER, call, createUser, databaseKinds, HAN, login, ok, startServer, userWithToken, type TestServer } from './support/harness';

interface TreeNode {
  id: string;
  parentId: string | null;
  name: string;
  path: string;
  children: TreeNode[];
}

describe.each(databaseKinds())('organisation administration (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let rootId: string;

  const tree = async (): Promise<TreeNode[]> => ok(server.app, 'GET', '/api/User/Organizations/Departments/Tree', { token: adminToken });
  /** every department by id, flattened from the tree */
  const departments = async () => {
    const all = new Map<string, Omit<TreeNode, 'children'>>();
    const walk = (nodes: TreeNode[]) => {
      for (const { children, ...rest } of nodes) {
        all.set(rest.id, rest);
        walk(children);
      }
    };
    walk(await tree());
    return all;
  };
  const newDept = async (name: string, parentId: string | null) =>
    (await ok(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name, parentId } })).id as string;
  const groups = async () => ok(server.app, 'GET', '/api/User/Organizations/Groups', { token: adminToken });
  const members = async (groupId: string) =>
    (await ok(server.app, 'GET', `/api/User/Organizations/Groups/${groupId}/Members`, { token: adminToken, query: { pageSize: 1000 } })).data.map(
      (u: { userId: string }) => u.userId,
    );
  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.result).toBeNull();
    expect(res.body.message).toMatch(HAN);
  };

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
    rootId = (await tree())[0].id;
  });
  afterAll(async () => {
    await server?.close();
  });

  test('departments are created under a parent with the right path, and renamed', async () => {
    const a = await ok(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '  市场部 ', parentId: rootId } });
    expect(a).toEqual({ id: expect.stringMatching(/^\d+$/), parentId: rootId, name: '市场部', path: `${rootId}/${a.id}`, leaderId: null });
    // no parent: under the root department
    const b = await newDept('法务部', null);
    expect((await departments()).get(b)).toMatchObject({ parentId: rootId, path: `${rootId}/${b}` });

    const renamed = await ok(server.app, 'PUT', `/api/Admin/Departments/${a.id}`, { token: adminToken, body: { name: '市场营销部' } });
    expect(renamed).toMatchObject({ id: a.id, name: '市场营销部', path: `${rootId}/${a.id}` });
    expect((await departments()).get(a.id)?.name).toBe('市场营销部');

    // same name under the same parent: 409/40901; an empty name or unknown parent: 400/40001
    expectError(await call(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '法务部', parentId: rootId } }), 409, 40901);
    expectError(await call(server.app, 'PUT', `/api/Admin/Departments/${a.id}`, { token: adminToken, body: { name: '法务部' } }), 409, 40901);
    expectError(await call(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '   ', parentId: rootId } }), 400, 40001);
    expectError(await call(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '无上级', parentId: '999999' } }), 400, 40001);
    const after = await departments();
    expect([...after.values()].filter((d) => d.name === '法务部')).toHaveLength(1);
    expect([...after.values()].some((d) => d.name === '无上级')).toBe(false);
    expect(after.get(a.id)?.name).toBe('市场营销部');
  });

  test('moving a department rewrites the path of its whole subtree', async () => {
    const x = await newDept('X部', rootId);
    const y = await newDept('Y部', x);
    const z = await newDept('Z部', y);
    const w = await newDept('W部', rootId);
    const moved = await ok(server.app, 'PUT', `/api/Admin/Departments/${y}`, { token: adminToken, body: { parentId: w } });
    expect(moved).toEqual({ id: y, parentId: w, name: 'Y部', path: `${rootId}/${w}/${y}`, leaderId: null });
    const all = await departments();
    expect(all.get(y)).toMatchObject({ parentId: w, path: `${rootId}/${w}/${y}` });
    expect(all.get(z)).toMatchObject({ parentId: y, path: `${rootId}/${w}/${y}/${z}` });
    expect(all.get(x)).toMatchObject({ parentId: rootId, path: `${rootId}/${x}` });
    const wNode = (await tree())[0].children.find((n) => n.id === w)!;
    expect(wNode.children.map((n) => n.id)).toEqual([y]);
    expect(wNode.children[0].children.map((n) => n.id)).toEqual([z]);
  });

  test('a department cannot be moved under itself or its sub-departments (400/40002), nothing changes', async () => {
    const p = await newDept('环P', rootId);
    const q = await newDept('环Q', p);
    const r = await newDept('环R', q);
    const before = await departments();
    for (const target of [p, q, r]) {
      const res = await call(server.app, 'PUT', `/api/Admin/Departments/${p}`, { token: adminToken, body: { parentId: target, name: '改名也不生效' } });
      expectError(res, 400, 40002);
      expect(res.body.message).toBe('不能将部门移动到其自身或下级部门中');
    }
    expectError(await call(server.app, 'PUT', `/api/Admin/Departments/${rootId}`, { token: adminToken, body: { parentId: r } }), 400, 40002);
    expect(await departments()).toEqual(before);
    // an unknown department is 404, an unknown parent 400
    expectError(await call(server.app, 'PUT', '/api/Admin/Departments/999999', { token: adminToken, body: { name: '无' } }), 404, 404);
    expectError(await call(server.app, 'PUT', `/api/Admin/Departments/${q}`, { token: adminToken, body: { parentId: '999999' } }), 400, 40001);
    expect(await departments()).toEqual(before);
  });

  test('a department with sub-departments or users cannot be deleted (409/40902); an empty one can', async () => {
    const parent = await newDept('待删父', rootId);
    const child = await newDept('待删子', parent);
    const withUser = await newDept('有人', rootId);
    const { userId } = await ok(server.app, 'POST', '/api/Admin/Users', {
      token: adminToken,
      body: { userName: 'dept_member', nickName: '部门成员', password: 'Dept-Member-Passw0rd', deptId: withUser },
    });

    const hasChildren = await call(server.app, 'DELETE', `/api/Admin/Departments/${parent}`, { token: adminToken });
    expectError(hasChildren, 409, 40902);
    expect(hasChildren.body.message).toBe('该部门下还有下级部门，不能删除');
    const hasUsers = await call(server.app, 'DELETE', `/api/Admin/Departments/${withUser}`, { token: adminToken });
    expectError(hasUsers, 409, 40902);
    expect(hasUsers.body.message).toBe('该部门下还有用户，不能删除');
    expectError(await call(server.app, 'DELETE', `/api/Admin/Departments/${rootId}`, { token: adminToken }), 400, 40001);
    let all = await departments();
    expect(all.has(parent) && all.has(child) && all.has(withUser) && all.has(rootId)).toBe(true);
    const search = await ok(server.app, 'GET', '/api/User/Organizations/Users', { token: adminToken, query: { deptId: withUser } });
    expect(search.data.map((u: { userId: string }) => u.userId)).toEqual([userId]);

    expect(await ok(server.app, 'DELETE', `/api/Admin/Departments/${child}`, { token: adminToken })).toEqual({ id: child });
    expect(await ok(server.app, 'DELETE', `/api/Admin/Departments/${parent}`, { token: adminToken })).toEqual({ id: parent });
    all = await departments();
    expect(all.has(child) || all.has(parent)).toBe(false);
    expectError(await call(server.app, 'DELETE', `/api/Admin/Departments/${parent}`, { token: adminToken }), 404, 404);
  });

  test('groups are created, renamed, given members and deleted', async () => {
    const u1 = await userWithToken(server.app, adminToken);
    const u2 = await userWithToken(server.app, adminToken);
    const g = await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: '评审组' } });
    expect(g).toEqual({ id: expect.stringMatching(/^\d+$/), name: '评审组', memberCount: 0 });
    expectError(await call(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: ' 评审组 ' } }), 409, 40901);

    expect(await ok(server.app, 'PUT', `/api/Admin/Groups/${g.id}`, { token: adminToken, body: { name: '评审委员会' } })).toEqual({
      id: g.id,
      name: '评审委员会',
      memberCount: 0,
    });
    const other = await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: '其他组' } });
    expectError(await call(server.app, 'PUT', `/api/Admin/Groups/${other.id}`, { token: adminToken, body: { name: '评审委员会' } }), 409, 40901);

    await ok(server.app, 'PUT', `/api/Admin/Groups/${g.id}/Members`, { token: adminToken, body: { userIds: [u1.userId, u2.userId] } });
    expect((await members(g.id)).sort()).toEqual([u1.userId, u2.userId].sort());
    // replacing, not adding
    expect(await ok(server.app, 'PUT', `/api/Admin/Groups/${g.id}/Members`, { token: adminToken, body: { userIds: [u2.userId] } })).toEqual({
      id: g.id,
      name: '评审委员会',
      memberCount: 1,
    });
    expect(await members(g.id)).toEqual([u2.userId]);

    // an unknown user id refuses the whole list
    const bad = await call(server.app, 'PUT', `/api/Admin/Groups/${g.id}/Members`, { token: adminToken, body: { userIds: [u1.userId, '999999'] } });
    expectError(bad, 400, 40001);
    expect(await members(g.id)).toEqual([u2.userId]);
    expectError(await call(server.app, 'PUT', '/api/Admin/Groups/999999/Members', { token: adminToken, body: { userIds: [] } }), 404, 404);

    // an empty list empties the group
    await ok(server.app, 'PUT', `/api/Admin/Groups/${other.id}/Members`, { token: adminToken, body: { userIds: [u1.userId] } });
    await ok(server.app, 'PUT', `/api/Admin/Groups/${other.id}/Members`, { token: adminToken, body: { userIds: [] } });
    expect(await members(other.id)).toEqual([]);

    expect(await ok(server.app, 'DELETE', `/api/Admin/Groups/${g.id}`, { token: adminToken })).toEqual({ id: g.id });
    const listed = await groups();
    expect(listed.map((x: { id: string }) => x.id)).not.toContain(g.id);
    expectError(await call(server.app, 'GET', `/api/User/Organizations/Groups/${g.id}/Members`, { token: adminToken }), 404, 404);
    // the members themselves are untouched
    expect((await call(server.app, 'GET', '/api/User/Home', { token: u2.token })).status).toBe(200);
  });

  test('administrators see disabled group members, marked, and a save that keeps them keeps them', async () => {
    const adminMembers = async (groupId: string, query: Record<string, number> = { pageSize: 1000 }) =>
      ok(server.app, 'GET', `/api/Admin/Groups/${groupId}/Members`, { token: adminToken, query });
    const active = await createUser(server.app, adminToken, { userName: `a_active_${Date.now()}` });
    const leaver = await createUser(server.app, adminToken, { userName: `b_leaver_${Date.now()}` });
    const added = await createUser(server.app, adminToken, { userName: `c_added_${Date.now()}` });
    const g = await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: '停用成员组' } });
    await ok(server.app, 'PUT', `/api/Admin/Groups/${g.id}/Members`, { token: adminToken, body: { userIds: [active.userId, leaver.userId] } });
    await ok(server.app, 'POST', `/api/Admin/Users/${leaver.userId}/Disable`, { token: adminToken });

    // the user call lists the enabled member only; the admin call lists both, the disabled one marked
    expect(await members(g.id)).toEqual([active.userId]);
    const listed = await adminMembers(g.id);
    expect(listed).toEqual({
      data: [
        { userId: active.userId, userName: active.userName, nickName: active.nickName, deptId: expect.anything(), deptName: expect.any(String), disabled: false },
        { userId: leaver.userId, userName: leaver.userName, nickName: leaver.nickName, deptId: expect.anything(), deptName: expect.any(String), disabled: true },
      ],
      total: 2,
    });
    expect((await groups()).find((x: { id: string }) => x.id === g.id).memberCount).toBe(1);
    // paged like the other lists
    expect(await adminMembers(g.id, { page: 2, pageSize: 1 })).toEqual({ data: [expect.objectContaining({ userId: leaver.userId, disabled: true })], total: 2 });
    expectError(await call(server.app, 'GET', `/api/Admin/Groups/${g.id}/Members`, { token: adminToken, query: { pageSize: 1001 } }), 400, 40001);
    expectError(await call(server.app, 'GET', '/api/Admin/Groups/999999/Members', { token: adminToken }), 404, 404);

    // a save that starts from the admin list and adds someone keeps the disabled member
    const kept = [...listed.data.map((u: { userId: string }) => u.userId), added.userId];
    expect(await ok(server.app, 'PUT', `/api/Admin/Groups/${g.id}/Members`, { token: adminToken, body: { userIds: kept } })).toEqual({
      id: g.id,
      name: '停用成员组',
      memberCount: 2,
    });
    const after = await adminMembers(g.id);
    expect(after.total).toBe(3);
    expect(after.data.map((u: { userId: string; disabled: boolean }) => [u.userId, u.disabled])).toEqual([
      [active.userId, false],
      [leaver.userId, true],
      [added.userId, false],
    ]);
    // enabled again, the kept member is back in the user call too
    await ok(server.app, 'POST', `/api/Admin/Users/${leaver.userId}/Enable`, { token: adminToken });
    expect(await members(g.id)).toEqual([active.userId, leaver.userId, added.userId]);
    await ok(server.app, 'POST', `/api/Admin/Users/${leaver.userId}/Disable`, { token: adminToken });

    // removed explicitly, the disabled member is gone
    await ok(server.app, 'PUT', `/api/Admin/Groups/${g.id}/Members`, { token: adminToken, body: { userIds: [active.userId, added.userId] } });
    expect((await adminMembers(g.id)).data.map((u: { userId: string }) => u.userId)).toEqual([active.userId, added.userId]);

    // a normal user is refused, even with an id that is not one
    const normal = await userWithToken(server.app, adminToken);
    expectError(await call(server.app, 'GET', `/api/Admin/Groups/${g.id}/Members`, { token: normal.token }), 403, 40301);
    expectError(await call(server.app, 'GET', '/api/Admin/Groups/not-an-id/Members', { token: normal.token, query: { pageSize: 1 } }), 403, 40301);
  });

  test('disable and enable round trip: a disabled user cannot sign in, enabled again can', async () => {
    const user = await userWithToken(server.app, adminToken);
    await ok(server.app, 'POST', `/api/Admin/Users/${user.userId}/Disable`, { token: adminToken });
    const refused = await call(server.app, 'POST', '/api/login', { body: { userName: user.userName, password: user.password, mode: 'password' } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(403);
    const hidden = await ok(server.app, 'GET', '/api/User/Organizations/Users', { token: adminToken, query: { keyword: user.userName } });
    expect(hidden.total).toBe(0);

    expect(await ok(server.app, 'POST', `/api/Admin/Users/${user.userId}/Enable`, { token: adminToken })).toEqual({ userId: user.userId });
    const session = await login(server.app, user.userName, user.password);
    expect(session.token).toBeTruthy();
    expect((await call(server.app, 'GET', '/api/User/Home', { token: session.token })).status).toBe(200);
    const shown = await ok(server.app, 'GET', '/api/User/Organizations/Users', { token: adminToken, query: { keyword: user.userName } });
    expect(shown.total).toBe(1);
    expectError(await call(server.app, 'POST', '/api/Admin/Users/999999/Enable', { token: adminToken }), 404, 404);
  });

  test('disabling ends every session for good: enabling again does not bring the old bearer or cookie back', async () => {
    const user = await userWithToken(server.app, adminToken);
    const second = await login(server.app, user.userName, user.password);
    const home = (o: { token?: string; cookie?: string }) => call(server.app, 'GET', '/api/User/Home', o);
    expect((await home({ token: user.token })).status).toBe(200);
    expect((await home({ cookie: second.jwtId })).status).toBe(200);

    await ok(server.app, 'POST', `/api/Admin/Users/${user.userId}/Disable`, { token: adminToken });
    // while disabled, the old credentials say why (403: the client signs out with 已被停用)
    for (const o of [{ token: user.token }, { cookie: user.jwtId }, { token: second.token }]) expectError(await home(o), 403, 403);
    // the user's sessions are listed as ended to the administrator's revoke call too
    expect(await ok(server.app, 'POST', `/api/Admin/Users/${user.userId}/RevokeSessions`, { token: adminToken })).toEqual({ revoked: 0 });

    await ok(server.app, 'POST', `/api/Admin/Users/${user.userId}/Enable`, { token: adminToken });
    for (const o of [{ token: user.token }, { cookie: user.jwtId }, { token: second.token }, { cookie: second.jwtId }]) expectError(await home(o), 401, 401);
    // a fresh sign-in works
    const fresh = await login(server.app, user.userName, user.password);
    expect((await home({ token: fresh.token })).status).toBe(200);
  });

  test('a new user in an unknown department is refused with 400/40001 and not created', async () => {
    const res = await call(server.app, 'POST', '/api/Admin/Users', {
      token: adminToken,
      body: { userName: 'ghost_dept_user', nickName: '幽灵', password: 'Ghost-Passw0rd-1', deptId: '999999' },
    });
    expectError(res, 400, 40001);
    const found = await ok(server.app, 'GET', '/api/User/Organizations/Users', { token: adminToken, query: { keyword: 'ghost_dept_user' } });
    expect(found.total).toBe(0);
  });

  test('an administrator edits a user: nickname, department and role flags', async () => {
    const dept = await newDept('编辑用户部', rootId);
    const user = await userWithToken(server.app, adminToken);
    const updated = await ok(server.app, 'PUT', `/api/Admin/Users/${user.userId}`, {
      token: adminToken,
      body: { nickName: '新昵称Zeta', deptId: dept, isDocAdmin: true, isTagAdmin: true },
    });
    expect(updated).toMatchObject({
      userId: user.userId,
      userName: user.userName,
      nickName: '新昵称Zeta',
      deptId: dept,
      deptName: `总部/编辑用户部`,
      roles: ['docAdmin', 'tagAdmin'],
      isDocAdmin: true,
      isFlowAdmin: false,
      isTagAdmin: true,
      disabled: false,
      locked: false,
      totpRequired: false,
      totpBound: false,
      mustChangePassword: false,
      quota: null,
      source: 'local',
    });
    const info = await login(server.app, user.userName, user.password);
    expect(info).toMatchObject({ nickName: '新昵称Zeta', deptName: '编辑用户部', isDocAdmin: true, isTagAdmin: true, isFlowAdmin: false });
    const found = await ok(server.app, 'GET', '/api/User/Organizations/Users', { token: adminToken, query: { keyword: 'zeta', deptId: dept } });
    expect(found.data.map((u: { userId: string }) => u.userId)).toEqual([user.userId]);

    expectError(await call(server.app, 'PUT', `/api/Admin/Users/${user.userId}`, { token: adminToken, body: { deptId: '999999' } }), 400, 40001);
    expect((await login(server.app, user.userName, user.password)).deptName).toBe('编辑用户部');
  });

  test('resetting a password ends the user’s sessions; the new password signs in', async () => {
    const user = await userWithToken(server.app, adminToken);
    const weak = await call(server.app, 'POST', `/api/Admin/Users/${user.userId}/ResetPassword`, { token: adminToken, body: { password: 'abc' } });
    expectError(weak, 400, 40001);
    expect((await call(server.app, 'GET', '/api/User/Home', { token: user.token })).status).toBe(200);

    const reset = await ok(server.app, 'POST', `/api/Admin/Users/${user.userId}/ResetPassword`, {
      token: adminToken,
      body: { password: 'Brand-New-Passw0rd' },
    });
    expect(reset).toEqual({ userId: user.userId, revoked: 1 });
    expect((await call(server.app, 'GET', '/api/User/Home', { token: user.token })).status).toBe(401);
    const old = await call(server.app, 'POST', '/api/login', { body: { userName: user.userName, password: user.password, mode: 'password' } });
    expect(old.status).toBe(400);
    // a password an administrator set must be changed at the next sign-in, unless the administrator said otherwise
    const next = await login(server.app, user.userName, 'Brand-New-Passw0rd');
    expect({ passwordReset: next.passwordReset, token: next.token }).toEqual({ passwordReset: true, token: undefined });
    await ok(server.app, 'POST', `/api/Admin/Users/${user.userId}/ResetPassword`, {
      token: adminToken,
      body: { password: 'Brand-New-Passw0rd-2', mustChangePassword: false },
    });
    expect((await login(server.app, user.userName, 'Brand-New-Passw0rd-2')).token).toBeTruthy();
  });

  test('a normal user is refused every organisation admin call with 403/40301 and nothing changes', async () => {
    const normal = await userWithToken(server.app, adminToken);
    const victim = await userWithToken(server.app, adminToken);
    const disabled = await userWithToken(server.app, adminToken);
    await ok(server.app, 'POST', `/api/Admin/Users/${disabled.userId}/Disable`, { token: adminToken });
    const dept = await newDept('受保护部门', rootId);
    const sub = await newDept('受保护子部门', dept);
    const empty = await newDept('空部门', rootId);
    const group = await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: '受保护组' } });
    await ok(server.app, 'PUT', `/api/Admin/Groups/${group.id}/Members`, { token: adminToken, body: { userIds: [victim.userId] } });

    const deptsBefore = await departments();
    const groupsBefore = await groups();
    const t = normal.token;
    const refused = [
      await call(server.app, 'POST', '/api/Admin/Departments', { token: t, body: { name: '入侵部门', parentId: rootId } }),
      await call(server.app, 'PUT', `/api/Admin/Departments/${dept}`, { token: t, body: { name: '被改名' } }),
      await call(server.app, 'PUT', `/api/Admin/Departments/${sub}`, { token: t, body: { parentId: empty } }),
      await call(server.app, 'DELETE', `/api/Admin/Departments/${empty}`, { token: t }),
      await call(server.app, 'POST', '/api/Admin/Groups', { token: t, body: { name: '入侵组' } }),
      await call(server.app, 'PUT', `/api/Admin/Groups/${group.id}`, { token: t, body: { name: '被改名组' } }),
      await call(server.app, 'PUT', `/api/Admin/Groups/${group.id}/Members`, { token: t, body: { userIds: [normal.userId] } }),
      await call(server.app, 'DELETE', `/api/Admin/Groups/${group.id}`, { token: t }),
      await call(server.app, 'GET', `/api/Admin/Groups/${group.id}/Members`, { token: t }),
      await call(server.app, 'POST', `/api/Admin/Users/${disabled.userId}/Enable`, { token: t }),
      await call(server.app, 'PUT', `/api/Admin/Users/${victim.userId}`, { token: t, body: { nickName: '被改昵称', isDocAdmin: true } }),
      await call(server.app, 'PUT', `/api/Admin/Users/${normal.userId}`, { token: t, body: { isDocAdmin: true } }),
      await call(server.app, 'POST', `/api/Admin/Users/${victim.userId}/ResetPassword`, { token: t, body: { password: 'Hijack-Passw0rd-1' } }),
      // refused before the body is looked at
      await call(server.app, 'POST', '/api/Admin/Departments', { token: t, body: {} }),
      await call(server.app, 'PUT', '/api/Admin/Groups/not-an-id/Members', { token: t, body: { userIds: 'x' } }),
    ];
    for (const res of refused) expectError(res, 403, 40301);

    // state read back: departments, groups and members, users
    expect(await departments()).toEqual(deptsBefore);
    expect(await groups()).toEqual(groupsBefore);
    expect(await members(group.id)).toEqual([victim.userId]);
    const disabledLogin = await call(server.app, 'POST', '/api/login', { body: { userName: disabled.userName, password: disabled.password, mode: 'password' } });
    expect(disabledLogin.status).toBe(403);
    const victimInfo = await login(server.app, victim.userName, victim.password);
    expect(victimInfo.nickName).toBe(victim.nickName);
    expect(victimInfo.isDocAdmin).toBe(false);
    expect((await call(server.app, 'GET', '/api/User/Home', { token: victim.token })).status).toBe(200);
    expect((await login(server.app, normal.userName, normal.password)).isDocAdmin).toBe(false);
    const hijack = await call(server.app, 'POST', '/api/login', { body: { userName: victim.userName, password: 'Hijack-Passw0rd-1', mode: 'password' } });
    expect(hijack.status).toBe(400);
    // the refused user is not signed out
    expect((await call(server.app, 'GET', '/api/User/Home', { token: normal.token })).status).toBe(200);
    // the administrator still signs in
    expect((await login(server.app, ADMIN_USER, ADMIN_PASSWORD)).token).toBeTruthy();
  });
});
