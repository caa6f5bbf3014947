// 云文档 sign-in, sessions, sign-out and throttling.
import { digest } from '../src/modules/auth/service';
import { ADMIN_PASSWORD, ADMIN_USER, call, createUser, databaseKinds, HAN, login, ok, startServer, userWithToken, type TestServer } from './support/harness';

describe.each(databaseKinds())('sign-in and sessions (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  test('a successful sign-in returns the user info, a token, the jwtId and the token cookie', async () => {
    const user = await createUser(server.app, adminToken, { nickName: '张三' });
    const res = await call(server.app, 'POST', '/api/login', {
      body: { userName: user.userName, password: user.password, mode: 'password' },
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.message).toBeNull();
    const r = res.body.result;
    expect(r).toEqual({
      userId: user.userId,
      userName: user.userName,
      nickName: '张三',
      avatar: '',
      deptName: '总部',
      token: expect.any(String),
      isTagAdmin: false,
      isDocAdmin: false,
      isLdapUser: false,
      allowBackendLogin: false,
      allowRepositoryLogin: false,
      isFlowAdmin: false,
      isAdmin: false,
      isDeptAdmin: false,
      isAuditAdmin: false,
      jwtId: expect.any(String),
      showGuide: true,
      passwordReset: false,
      totpBind: false,
      totpCode: false,
    });
    expect(r.token.length).toBeGreaterThanOrEqual(40);
    expect(r.jwtId).not.toBe(r.token);

    const cookie = res.cookies.find((c) => c.name === 'token');
    expect(cookie).toBeDefined();
    expect(cookie!.value).toBe(r.jwtId);
    expect(cookie!.httpOnly).toBe(true);
    expect(cookie!.sameSite).toBe('Lax');
    expect(cookie!.path).toBe('/');
    expect(cookie!.maxAge).toBe(720 * 24 * 60 * 60);

    // the second sign-in no longer asks for the guide
    const again = await login(server.app, user.userName, user.password);
    expect(again.showGuide).toBe(false);
    expect(again.token).not.toBe(r.token);
  });

  test('the administrator is seeded with every admin flag', async () => {
    const r = await login(server.app);
    expect(r).toMatchObject({ userName: ADMIN_USER, isDocAdmin: true, isFlowAdmin: true, isTagAdmin: true });
  });

  test('user names are case-insensitive at sign-in', async () => {
    const r = await login(server.app, ADMIN_USER.toUpperCase(), ADMIN_PASSWORD);
    expect(r.userName).toBe(ADMIN_USER);
  });

  test('a wrong password answers 400/40001 用户名或密码错误, with no token and no cookie', async () => {
    const user = await createUser(server.app, adminToken);
    const res = await call(server.app, 'POST', '/api/login', { body: { userName: user.userName, password: 'Wrong-Passw0rd', mode: 'password' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 40001, result: null, message: '用户名或密码错误' });
    expect(res.cookies).toHaveLength(0);
    expect(res.text).not.toContain('token');
  });

  test('an unknown user gets exactly the same answer as a wrong password', async () => {
    const res = await call(server.app, 'POST', '/api/login', { body: { userName: 'nobody-here', password: 'Whatever-1', mode: 'password' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 40001, result: null, message: '用户名或密码错误' });
    expect(res.cookies).toHaveLength(0);
  });

  test('a missing password is a validation error naming the field, in Chinese', async () => {
    const res = await call(server.app, 'POST', '/api/login', { body: { userName: ADMIN_USER } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).toContain('password');
  });

  test('passwords are stored as salted scrypt hashes and sessions only as SHA-256 digests', async () => {
    const user = await createUser(server.app, adminToken);
    const session = await login(server.app, user.userName, user.password);
    const row = await server.app.db.selectFrom('users').select('password_hash').where('id', '=', Number(user.userId)).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(row.password_hash).not.toContain(user.password);
    const other = await createUser(server.app, adminToken, { password: user.password });
    const otherRow = await server.app.db.selectFrom('users').select('password_hash').where('id', '=', Number(other.userId)).executeTakeFirstOrThrow();
    expect(otherRow.password_hash).not.toBe(row.password_hash); // salted

    const sessions = await server.app.db.selectFrom('sessions').selectAll().where('user_id', '=', Number(user.userId)).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].token_hash).toBe(digest(session.token));
    expect(sessions[0].jwt_id_hash).toBe(digest(session.jwtId));
    expect(JSON.stringify(sessions)).not.toContain(session.token);
    expect(JSON.stringify(sessions)).not.toContain(session.jwtId);
  });

  test('calls without a session, or with an unknown token, answer 401 登录信息已失效', async () => {
    for (const o of [{}, { token: 'not-a-real-token' }, { headers: { authorization: 'Basic abc' } }, { cookie: 'made-up' }]) {
      const res = await call(server.app, 'GET', '/api/User/Home', o);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, result: null, message: '登录信息已失效，请重新登录' });
    }
  });

  test('the token cookie (jwtId) authenticates GET navigations', async () => {
    const u = await userWithToken(server.app, adminToken);
    const home = await call(server.app, 'GET', '/api/User/Home', { cookie: u.jwtId });
    expect(home.status).toBe(200);
    expect(home.body.code).toBe(200);
    // the jwtId is not a bearer token, and the token is not a cookie value
    expect((await call(server.app, 'GET', '/api/User/Home', { token: u.jwtId })).status).toBe(401);
    expect((await call(server.app, 'GET', '/api/User/Home', { cookie: u.token })).status).toBe(401);
  });

  test('quit ends the session at once: the bearer token and the cookie both answer 401 afterwards', async () => {
    const u = await userWithToken(server.app, adminToken);
    expect((await call(server.app, 'GET', '/api/User/Home', { token: u.token })).status).toBe(200);
    expect((await call(server.app, 'GET', '/api/User/Home', { cookie: u.jwtId })).status).toBe(200);

    const quit = await call(server.app, 'POST', '/api/login/quit', { token: u.token });
    expect(quit.status).toBe(200);
    expect(quit.body).toEqual({ code: 200, result: null, message: null });
    const cleared = quit.cookies.find((c) => c.name === 'token');
    expect(cleared?.value).toBe('');

    for (const o of [{ token: u.token }, { cookie: u.jwtId }]) {
      const res = await call(server.app, 'GET', '/api/User/Home', o);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, result: null, message: '登录信息已失效，请重新登录' });
    }
    // a second quit with the dead token still succeeds (the client ignores it anyway)
    expect((await call(server.app, 'POST', '/api/login/quit', { token: u.token })).status).toBe(200);
  });

  test('quit ends only its own session', async () => {
    const u = await userWithToken(server.app, adminToken);
    const second = await login(server.app, u.userName, u.password);
    await ok(server.app, 'POST', '/api/login/quit', { token: u.token });
    expect((await call(server.app, 'GET', '/api/User/Home', { token: second.token })).status).toBe(200);
  });

  test('sessions revoked by an administrator answer the 401 envelope', async () => {
    const u = await userWithToken(server.app, adminToken);
    const other = await login(server.app, u.userName, u.password);
    const { revoked } = await ok(server.app, 'POST', `/api/Admin/Users/${u.userId}/RevokeSessions`, { token: adminToken });
    expect(revoked).toBe(2);
    for (const token of [u.token, other.token]) {
      const res = await call(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, result: null, message: '登录信息已失效，请重新登录' });
    }
    expect((await call(server.app, 'GET', '/api/User/Home', { cookie: u.jwtId })).status).toBe(401);
    // signing in again works
    const fresh = await login(server.app, u.userName, u.password);
    expect((await call(server.app, 'GET', '/api/User/Home', { token: fresh.token })).status).toBe(200);
  });

  test('an expired session answers 401', async () => {
    const u = await userWithToken(server.app, adminToken);
    await server.app.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).where('token_hash', '=', digest(u.token)).execute();
    const res = await call(server.app, 'GET', '/api/User/Home', { token: u.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
  });

  test('a disabled account: its sessions answer the 403 envelope and it can no longer sign in', async () => {
    const u = await userWithToken(server.app, adminToken);
    const disabled = await ok(server.app, 'POST', `/api/Admin/Users/${u.userId}/Disable`, { token: adminToken });
    expect(disabled).toEqual({ userId: u.userId });

    const res = await call(server.app, 'GET', '/api/User/Home', { token: u.token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(403);
    expect(res.body.result).toBeNull();
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).toContain('停用');

    const again = await call(server.app, 'POST', '/api/login', { body: { userName: u.userName, password: u.password, mode: 'password' } });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe(403);
    expect(again.body.result).toBeNull();
    expect(again.cookies).toHaveLength(0);
    // a wrong password for a disabled account reveals nothing more than for anyone else
    const wrong = await call(server.app, 'POST', '/api/login', { body: { userName: u.userName, password: 'nope-Passw0rd', mode: 'password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('用户名或密码错误');
  });
});

describe.each(databaseKinds())('sign-in throttling (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const attempt = (app: TestServer['app'], userName: string, password: string, remoteAddress = '127.0.0.1') =>
    call(app, 'POST', '/api/login', { body: { userName, password, mode: 'password' }, remoteAddress });

  test('after 5 failures an account answers 429/42901, even to the right password', async () => {
    const user = await createUser(server.app, adminToken);
    for (let i = 0; i < 5; i++) expect((await attempt(server.app, user.userName, `wrong-${i}`, '10.1.0.1')).status).toBe(400);
    const blocked = await attempt(server.app, user.userName, user.password, '10.1.0.2');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe(42901);
    expect(blocked.body.result).toBeNull();
    expect(blocked.body.message).toMatch(HAN);
    expect(blocked.body.message).toContain('15 分钟');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(blocked.cookies).toHaveLength(0);

    // another account from the same address is not affected
    expect((await attempt(server.app, ADMIN_USER, ADMIN_PASSWORD, '10.1.0.1')).status).toBe(200);
  });

  test('an unknown account name is throttled the same way', async () => {
    for (let i = 0; i < 5; i++) expect((await attempt(server.app, 'ghost-user', `wrong-${i}`, '10.2.0.1')).status).toBe(400);
    expect((await attempt(server.app, 'ghost-user', 'wrong', '10.2.0.2')).status).toBe(429);
  });

  test('after 20 failures from one address every account answers 429 from there', async () => {
    const addr = '10.3.0.1';
    for (let i = 0; i < 20; i++) expect((await attempt(server.app, `spray-${i}`, 'wrong-Passw0rd', addr)).status).toBe(400);
    const blocked = await attempt(server.app, ADMIN_USER, ADMIN_PASSWORD, addr);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe(42901);
    // other addresses still sign in
    expect((await attempt(server.app, ADMIN_USER, ADMIN_PASSWORD, '10.3.0.2')).status).toBe(200);
  });

  test('without TRUST_PROXY a forged X-Forwarded-For does not escape the address limit', async () => {
    const addr = '10.5.0.1';
    for (let i = 0; i < 20; i++) {
      const res = await call(server.app, 'POST', '/api/login', {
        body: { userName: `forged-${i}`, password: 'wrong-Passw0rd' },
        remoteAddress: addr,
        headers: { 'x-forwarded-for': `192.0.2.${i}` },
      });
      expect(res.status).toBe(400);
    }
    const res = await call(server.app, 'POST', '/api/login', {
      body: { userName: ADMIN_USER, password: ADMIN_PASSWORD },
      remoteAddress: addr,
      headers: { 'x-forwarded-for': '192.0.2.99' },
    });
    expect(res.status).toBe(429);
  });

  test('behind a trusted proxy (TRUST_PROXY) the address limit applies to the forwarded client address', async () => {
    const proxied = await server.restart({ TRUST_PROXY: 'true' });
    const viaProxy = (userName: string, password: string, client: string) =>
      call(proxied, 'POST', '/api/login', { body: { userName, password }, remoteAddress: '172.18.0.5', headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < 20; i++) expect((await viaProxy(`proxied-${i}`, 'wrong-Passw0rd', '198.51.100.7')).status).toBe(400);
    expect((await viaProxy(ADMIN_USER, ADMIN_PASSWORD, '198.51.100.7')).status).toBe(429);
    // another client behind the same proxy still signs in
    expect((await viaProxy(ADMIN_USER, ADMIN_PASSWORD, '198.51.100.8')).status).toBe(200);
  });

  test('a successful sign-in clears the failures of the account', async () => {
    const user = await createUser(server.app, adminToken);
    for (let i = 0; i < 4; i++) await attempt(server.app, user.userName, `wrong-${i}`, '10.4.0.1');
    expect((await attempt(server.app, user.userName, user.password, '10.4.0.1')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await attempt(server.app, user.userName, `wrong-${i}`, '10.4.0.1')).status).toBe(400);
    expect((await attempt(server.app, user.userName, user.password, '10.4.0.1')).status).toBe(200);
  });

  test('the block of an address lifts when the window has passed', async () => {
    const short = await startServer(kind, {
      tweak: (c) => {
        c.throttle.windowMs = 2000;
        c.throttle.addressLimit = 3;
      },
    });
    try {
      for (let i = 0; i < 3; i++) expect((await attempt(short.app, `ghost-${i}`, 'wrong')).status).toBe(400);
      const blocked = await attempt(short.app, ADMIN_USER, ADMIN_PASSWORD);
      expect(blocked.status).toBe(429);
      await new Promise((r) => setTimeout(r, 2100));
      const after = await attempt(short.app, ADMIN_USER, ADMIN_PASSWORD);
      expect(after.status).toBe(200);
      expect(after.body.result.token).toBeTruthy();
    } finally {
      await short.close();
    }
  });

});
