// 云文档 DingTalk sign-in (issue 16) against a local fake of DingTalk (support/dingtalk-fake.ts:
// /v1.0/oauth2/userAccessToken and /v1.0/contact/users/me): the account is found by the bound
// DingTalk user, then by mobile number (then bound), else refused or, when configured, made; any
// DingTalk error signs nobody in; on SQLite and PostgreSQL. DingTalk itself cannot be reached
// from here, hence the fake.
import { call, createUser, databaseKinds, HAN, login, ok, startServer, type TestServer } from './support/harness';
import { fakeDingTalk } from './support/dingtalk-fake';

describe.each(databaseKinds())('DingTalk sign-in (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const fake = fakeDingTalk({
    'code-mobile': { unionId: 'union-mobile', nick: '钉钉张三', mobile: '+86-13800000001' },
    'code-again': { unionId: 'union-mobile', nick: '钉钉张三', mobile: '13900000009' },
    'code-stranger': { unionId: 'union-stranger', nick: '陌生人', mobile: '13700000000' },
    'code-new': { unionId: 'union-new', nick: '新同事', mobile: '13600000006', email: 'New@Example.com' },
    'code-refused': { error: '用户未授权' },
    'code-me-fails': { unionId: 'x', nick: 'x', meError: '无权读取用户信息' } as any,
  });
  let base = '';
  const env = () => ({ DINGTALK_APP_KEY: 'dingapp', DINGTALK_APP_SECRET: 'dingsecret', DINGTALK_API_BASE: base });

  beforeAll(async () => {
    base = await fake.start();
    server = await startServer(kind, { env: env() });
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
    await fake.stop();
  });

  const withCode = (app: TestServer['app'], code: string, appId = 'dingapp') =>
    call(app, 'POST', '/api/login/LoginWithDingtalk', { query: { code, appId } });
  const expectError = (res: { status: number; body: any; cookies?: any[] }, status: number, message: string | RegExp) => {
    expect({ status: res.status, result: res.body?.result }).toEqual({ status, result: null });
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).toMatch(message);
    expect((res.cookies ?? []).find((c: any) => c.name === 'token')).toBeUndefined();
  };

  test('the account with the DingTalk user’s mobile number signs in and is bound; later the binding alone finds it', async () => {
    const user = await createUser(server.app, adminToken);
    await server.app.db.updateTable('users').set({ mobile: '13800000001' }).where('id', '=', Number(user.userId)).execute();
    const res = await withCode(server.app, 'code-mobile');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ userId: user.userId, userName: user.userName, token: expect.any(String) });
    expect(res.cookies.find((c: any) => c.name === 'token')?.value).toBe(res.body.result.jwtId);
    expect((await call(server.app, 'GET', '/api/User/Home', { token: res.body.result.token })).status).toBe(200);
    const row = await server.app.db.selectFrom('users').select('dingtalk_union_id').where('id', '=', Number(user.userId)).executeTakeFirstOrThrow();
    expect(row.dingtalk_union_id).toBe('union-mobile');
    // the secret and the token went where DingTalk expects them
    expect(fake.seen).toEqual(
      expect.arrayContaining([
        { path: '/v1.0/oauth2/userAccessToken', body: { clientId: 'dingapp', clientSecret: 'dingsecret', code: 'code-mobile', grantType: 'authorization_code' } },
        { path: '/v1.0/contact/users/me', token: 'token-code-mobile' },
      ]),
    );
    // the mobile number changed at DingTalk: the binding still finds the account
    expect((await withCode(server.app, 'code-again')).body.result.userId).toBe(user.userId);
  });

  test('a DingTalk user matching no account is refused unless accounts are made automatically', async () => {
    expectError(await withCode(server.app, 'code-stranger'), 403, '该钉钉账号尚未关联云文档账号，请联系管理员');
    const auto = await server.restart({ ...env(), DINGTALK_AUTO_CREATE: 'true' });
    const res = await withCode(auto, 'code-new');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ nickName: '新同事', token: expect.any(String) });
    const row = await auto.db
      .selectFrom('users')
      .select(['dingtalk_union_id', 'mobile', 'email', 'must_change_password'])
      .where('id', '=', Number(res.body.result.userId))
      .executeTakeFirstOrThrow();
    expect({ ...row, must_change_password: Number(row.must_change_password) }).toEqual({
      dingtalk_union_id: 'union-new',
      mobile: '13600000006',
      email: 'new@example.com',
      must_change_password: 0,
    });
    // the second time, the same account
    expect((await withCode(auto, 'code-new')).body.result.userId).toBe(res.body.result.userId);
  });

  test('any DingTalk error signs nobody in', async () => {
    const before = Number((await server.app.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expectError(await withCode(server.app, 'code-unknown'), 502, '钉钉登录失败：不合法的临时授权码');
    expectError(await withCode(server.app, 'code-refused'), 502, '钉钉登录失败：用户未授权');
    expectError(await withCode(server.app, 'code-me-fails'), 502, '钉钉登录失败：无权读取用户信息');
    expectError(await withCode(server.app, 'code-mobile', 'another-app'), 400, '钉钉应用不匹配，请刷新登录页后重试');
    const unreachable = await server.restart({ ...env(), DINGTALK_API_BASE: 'http://127.0.0.1:9' });
    expectError(await withCode(unreachable, 'code-mobile'), 502, '钉钉登录失败：无法连接钉钉服务，请稍后重试');
    const off = await server.restart({ DINGTALK_APP_KEY: '', DINGTALK_APP_SECRET: '' });
    expectError(await withCode(off, 'code-mobile'), 400, '未启用钉钉登录');
    const after = Number((await server.app.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before);
  });

  test('a disabled account is refused, and TOTP still applies to a DingTalk sign-in', async () => {
    const user = await createUser(server.app, adminToken);
    await server.app.db.updateTable('users').set({ dingtalk_union_id: 'union-totp' }).where('id', '=', Number(user.userId)).execute();
    const fakeCodes = fakeDingTalk({ 'code-totp': { unionId: 'union-totp', nick: 'x' } });
    const url = await fakeCodes.start();
    try {
      const app = await server.restart({ ...env(), DINGTALK_API_BASE: url });
      await ok(app, 'PUT', `/api/Admin/Users/${user.userId}/Totp`, { token: adminToken, body: { required: true } });
      const step = await withCode(app, 'code-totp');
      expect(step.body.result).toMatchObject({ totpBind: true, actionToken: expect.any(String) });
      expect(step.body.result.token).toBeUndefined();
      await ok(app, 'POST', `/api/Admin/Users/${user.userId}/Disable`, { token: adminToken });
      expect((await withCode(app, 'code-totp')).status).toBe(403);
    } finally {
      await fakeCodes.stop();
    }
  });
});
