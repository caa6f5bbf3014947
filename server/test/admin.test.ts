// 云文档 administration: only system administrators; everyone else gets 403/40301 and nothing changes.
import { ADMIN_PASSWORD, ADMIN_USER, call, createUser, databaseKinds, HAN, login, ok, startServer, userWithToken, type TestServer } from './support/harness';

describe.each(databaseKinds())('administration (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const expect40301 = (res: { status: number; body: any }) => {
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(40301);
    expect(res.body.result).toBeNull();
    expect(res.body.message).toMatch(HAN);
  };

  test('a new user can sign in and gets a personal root folder', async () => {
    const user = await createUser(server.app, adminToken, { nickName: '李四' });
    expect(user.userId).toMatch(/^\d+$/);
    const session = await login(server.app, user.userName, user.password);
    expect(session.nickName).toBe('李四');
    const roots = await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: session.token });
    expect(roots).toHaveLength(1);
    expect(roots[0].ownerId).toBe(user.userId);
  });

  test('a normal user is refused every admin call with 403/40301 and nothing changes', async () => {
    const normal = await userWithToken(server.app, adminToken);
    const victim = await userWithToken(server.app, adminToken);

    const newName = `intruder_${Date.now().toString(36)}`;
    expect40301(await call(server.app, 'POST', '/api/Admin/Users', {
      token: normal.token,
      body: { userName: newName, nickName: 'x', password: 'Intrud3r-Passw0rd', deptId: null },
    }));
    expect40301(await call(server.app, 'POST', `/api/Admin/Users/${victim.userId}/Disable`, { token: normal.token }));
    expect40301(await call(server.app, 'POST', `/api/Admin/Users/${victim.userId}/RevokeSessions`, { token: normal.token }));
    expect40301(await call(server.app, 'PUT', '/api/Admin/FeaturePolicy', {
      token: normal.token,
      body: { personalSpace: false, publicSpace: false, workflow: false, ferrySpaces: false },
    }));
    // refused before the body is looked at: an invalid body still answers 40301
    expect40301(await call(server.app, 'POST', '/api/Admin/Users', { token: normal.token, body: {} }));

    // state unchanged: no user was made, the victim still works, the policy is intact
    const attempt = await call(server.app, 'POST', '/api/login', { body: { userName: newName, password: 'Intrud3r-Passw0rd', mode: 'password' } });
    expect(attempt.status).toBe(400);
    expect((await call(server.app, 'GET', '/api/User/Home', { token: victim.token })).status).toBe(200);
    expect(await ok(server.app, 'GET', '/api/User/GlobalPolicies/FeaturePolicy', { token: normal.token })).toEqual({
      personalSpace: true,
      publicSpace: true,
      workflow: true,
      ferrySpaces: true,
    });
    // and the normal user is not signed out by being refused
    expect((await call(server.app, 'GET', '/api/User/Home', { token: normal.token })).status).toBe(200);
  });

  test('a document administrator is still not a system administrator', async () => {
    const docAdmin = await userWithToken(server.app, adminToken, { isDocAdmin: true });
    expect40301(await call(server.app, 'POST', '/api/Admin/Users', {
      token: docAdmin.token,
      body: { userName: 'someone_else', nickName: 'x', password: 'Someone-Passw0rd', deptId: null },
    }));
  });

  test('admin calls need a session: 401 without one', async () => {
    const res = await call(server.app, 'PUT', '/api/Admin/FeaturePolicy', {
      body: { personalSpace: false, publicSpace: false, workflow: false, ferrySpaces: false },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
  });

  test('a duplicate user name (any case) answers 409/40901', async () => {
    const user = await createUser(server.app, adminToken);
    const res = await call(server.app, 'POST', '/api/Admin/Users', {
      token: adminToken,
      body: { userName: user.userName.toUpperCase(), nickName: '重名', password: 'Another-Passw0rd', deptId: null },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(40901);
    expect(res.body.message).toMatch(HAN);
  });

  test('a password that breaks the password policy is refused with the rule in Chinese', async () => {
    const res = await call(server.app, 'POST', '/api/Admin/Users', {
      token: adminToken,
      body: { userName: 'weak_pw_user', nickName: '弱密码', password: 'abc', deptId: null },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.message).toContain('密码至少 8 位');
    expect((await call(server.app, 'POST', '/api/login', { body: { userName: 'weak_pw_user', password: 'abc' } })).status).toBe(400);
  });

  test('an unknown department or user id answers in Chinese', async () => {
    const dept = await call(server.app, 'POST', '/api/Admin/Users', {
      token: adminToken,
      body: { userName: 'dept_less', nickName: 'x', password: 'Dept-Passw0rd', deptId: '999999' },
    });
    expect(dept.status).toBe(400);
    expect(dept.body.message).toBe('所选部门不存在');
    const missing = await call(server.app, 'POST', '/api/Admin/Users/999999/Disable', { token: adminToken });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('用户不存在');
  });

  test('users are placed in the department given, and the tree lists it', async () => {
    const tree = await ok(server.app, 'GET', '/api/User/Organizations/Departments/Tree', { token: adminToken });
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ name: '总部', parentId: null, children: [] });
    const user = await createUser(server.app, adminToken);
    const info = await login(server.app, user.userName, user.password);
    expect(info.deptName).toBe('总部');
  });

  test('an administrator cannot disable their own account', async () => {
    const me = await login(server.app);
    const res = await call(server.app, 'POST', `/api/Admin/Users/${me.userId}/Disable`, { token: adminToken });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect((await login(server.app, ADMIN_USER, ADMIN_PASSWORD)).token).toBeTruthy();
  });

  test('updating the feature policy returns and stores the new policy', async () => {
    const next = { personalSpace: true, publicSpace: false, workflow: false, ferrySpaces: true };
    expect(await ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', { token: adminToken, body: next })).toEqual(next);
    expect(await ok(server.app, 'GET', '/api/User/GlobalPolicies/FeaturePolicy', { token: adminToken })).toEqual(next);
    const all = { personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: true };
    await ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', { token: adminToken, body: all });
  });

  test('a feature policy missing a field is a validation error naming it', async () => {
    const res = await call(server.app, 'PUT', '/api/Admin/FeaturePolicy', { token: adminToken, body: { personalSpace: true } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.message).toMatch(/publicSpace|workflow|ferrySpaces/);
  });
});
