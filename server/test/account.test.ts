// 云文档 个人设置 on the server (issue 16): the security state, binding and removing TOTP by the
// user, the user's sessions (listed, ended one by one), and the avatar (picture types only,
// size-limited, re-encoded); with state read back, on SQLite and PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { totpCodeAt } from '../src/modules/auth/totp';
import { call, createUser, databaseKinds, HAN, login, ok, startServer, userWithToken, type TestServer } from './support/harness';
import { multipartBody } from './support/uploads';

const secretOf = (uri: string) => new URL(uri).searchParams.get('secret') as string;

describe.each(databaseKinds())('account settings (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const app = () => server.app;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const expectError = (res: { status: number; body: any }, status: number, message: string | RegExp) => {
    expect({ status: res.status, result: res.body?.result }).toEqual({ status, result: null });
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).toMatch(message);
  };
  const putAvatar = async (token: string, bytes: Buffer, name = 'me.png') => {
    const { payload, contentType } = await multipartBody({}, bytes, name);
    const res = await app().inject({ method: 'PUT', url: '/api/account/avatar', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  test('a user binds TOTP in 个人设置 with a first code; later sign-ins ask for codes; a current code removes it', async () => {
    const user = await userWithToken(app(), adminToken);
    expect(await ok(app(), 'GET', '/api/account/Security', { token: user.token })).toMatchObject({ totpBound: false, totpRequired: false, passwordExpiresAt: null });

    const setup = await ok(app(), 'POST', '/api/account/Totp/Begin', { token: user.token });
    const secret = secretOf(setup.totpUri);
    expect(setup.totpSecret).toBe(secret);
    // nothing changes before the first code
    expect((await login(app(), user.userName, user.password)).token).toEqual(expect.any(String));
    expectError(
      await call(app(), 'POST', '/api/account/Totp/Confirm', { token: user.token, body: { actionToken: setup.actionToken, code: '000000' } }),
      400,
      /动态口令错误/,
    );
    // another user cannot use this binding
    const other = await userWithToken(app(), adminToken);
    expectError(
      await call(app(), 'POST', '/api/account/Totp/Confirm', { token: other.token, body: { actionToken: setup.actionToken, code: totpCodeAt(secret, Date.now()) } }),
      400,
      '操作已过期，请重新登录',
    );
    await ok(app(), 'POST', '/api/account/Totp/Confirm', { token: user.token, body: { actionToken: setup.actionToken, code: totpCodeAt(secret, Date.now()) } });
    expect((await ok(app(), 'GET', '/api/account/Security', { token: user.token })).totpBound).toBe(true);
    const step = await login(app(), user.userName, user.password);
    expect({ totpCode: step.totpCode, token: step.token }).toEqual({ totpCode: true, token: undefined });

    // removal needs a code of a later step than the last one used
    const last = Number(
      (await server.app.db.selectFrom('users').select('totp_last_step').where('id', '=', Number(user.userId)).executeTakeFirstOrThrow()).totp_last_step,
    );
    expectError(await call(app(), 'POST', '/api/account/Totp/Remove', { token: user.token, body: { code: totpCodeAt(secret, last * 30_000) } }), 400, /已使用过/);
    await ok(app(), 'POST', '/api/account/Totp/Remove', { token: user.token, body: { code: totpCodeAt(secret, (last + 1) * 30_000) } });
    expect((await login(app(), user.userName, user.password)).token).toEqual(expect.any(String));
    expectError(await call(app(), 'POST', '/api/account/Totp/Remove', { token: user.token, body: { code: '123456' } }), 400, '尚未绑定动态口令');
  });

  test('a user whom the administrator requires to use TOTP cannot remove it', async () => {
    const user = await userWithToken(app(), adminToken);
    const setup = await ok(app(), 'POST', '/api/account/Totp/Begin', { token: user.token });
    await ok(app(), 'POST', '/api/account/Totp/Confirm', { token: user.token, body: { actionToken: setup.actionToken, code: totpCodeAt(secretOf(setup.totpUri), Date.now()) } });
    await ok(app(), 'PUT', `/api/Admin/Users/${user.userId}/Totp`, { token: adminToken, body: { required: true } });
    expect((await ok(app(), 'GET', '/api/account/Security', { token: user.token })).totpRequired).toBe(true);
    const res = await call(app(), 'POST', '/api/account/Totp/Remove', { token: user.token, body: { code: '123456' } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('管理员要求使用动态口令，不能解除绑定');
  });

  test('my sessions: the live ones with the current one marked; ending one signs that browser out; another user’s is not mine to end', async () => {
    const user = await createUser(app(), adminToken);
    const signIn = async (ua: string) =>
      (await call(app(), 'POST', '/api/login', { body: { userName: user.userName, password: user.password }, headers: { 'user-agent': ua } })).body.result.token as string;
    const office = await signIn('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36');
    const phone = await signIn('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1');
    const quit = await signIn('Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0');
    await ok(app(), 'POST', '/api/login/quit', { token: quit });

    const list = await ok(app(), 'GET', '/api/account/Sessions', { token: office });
    expect(list.map((s: any) => [s.device, s.current])).toEqual(
      expect.arrayContaining([
        ['Chrome · Windows', true],
        ['Safari · iOS', false],
      ]),
    );
    expect(list).toHaveLength(2);
    const phoneSession = list.find((s: any) => s.device === 'Safari · iOS');
    expect(phoneSession.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);

    const stranger = await userWithToken(app(), adminToken);
    expectError(await call(app(), 'DELETE', `/api/account/Sessions/${phoneSession.id}`, { token: stranger.token }), 404, '会话不存在或已结束');
    expect((await call(app(), 'GET', '/api/User/Home', { token: phone })).status).toBe(200);
    await ok(app(), 'DELETE', `/api/account/Sessions/${phoneSession.id}`, { token: office });
    expect((await call(app(), 'GET', '/api/User/Home', { token: phone })).status).toBe(401);
    expect((await call(app(), 'GET', '/api/User/Home', { token: office })).status).toBe(200);
    expect(await ok(app(), 'GET', '/api/account/Sessions', { token: office })).toHaveLength(1);
  });

  test('an avatar is re-encoded to a 256-pixel WebP, replaces the old one, and only pictures up to 5 MB are taken', async () => {
    const user = await userWithToken(app(), adminToken);
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const first = await putAvatar(user.token, png);
    expect(first.status).toBe(200);
    const url = first.body.result.avatar as string;
    expect(url).toMatch(new RegExp(`^/api/User/Avatar/${user.userId}\\?v=[0-9a-f]{16}$`));

    const served = await app().inject({ method: 'GET', url, headers: { authorization: `Bearer ${user.token}` } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 256, height: 256 });
    expect((await login(app(), user.userName, user.password)).avatar).toBe(url);
    // without a session: 401
    expect((await app().inject({ method: 'GET', url })).statusCode).toBe(401);

    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#cc3333' } }).jpeg().toBuffer();
    const second = await putAvatar(user.token, jpeg, 'me.jpg');
    expect(second.body.result.avatar).not.toBe(url);
    const dir = path.join(server.config.dataDir, 'avatars');
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(`${user.userId}-`))).toHaveLength(1);

    expectError(await putAvatar(user.token, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg'), 400, '头像只能是 JPG、PNG、WebP 或 GIF 图片');
    expectError(await putAvatar(user.token, Buffer.alloc(5 * 1024 * 1024 + 10, 1), 'big.png'), 400, '头像图片不能超过 5 MB');
    expect((await login(app(), user.userName, user.password)).avatar).toBe(second.body.result.avatar);
    expect((await app().inject({ method: 'GET', url: '/api/User/Avatar/999999', headers: { authorization: `Bearer ${user.token}` } })).statusCode).toBe(404);
  });
});
