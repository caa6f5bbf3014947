// 云文档 系统管理 on the server (issue 16): the client branding (system name and pictures, re-encoded
// and served to the login page without a session), the service agreement and privacy policy an
// administrator edits, and the user list the security settings page reads; with state read back,
// on SQLite and PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { call, databaseKinds, HAN, login, ok, startServer, userWithToken, type TestServer } from './support/harness';
import { multipartBody } from './support/uploads';

describe.each(databaseKinds())('branding, agreements and the user list (%s)', (kind) => {
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
  const putImage = async (token: string, kind: string, bytes: Buffer, name = 'logo.png') => {
    const { payload, contentType } = await multipartBody({}, bytes, name);
    const res = await app().inject({ method: 'PUT', url: `/api/Admin/Branding/Images/${kind}`, headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  const publicBranding = async () => JSON.parse((await app().inject({ method: 'GET', url: '/api/Client/Branding' })).body).result;

  test('an administrator names the system and sets its pictures; the login page reads them without a session', async () => {
    expect(await publicBranding()).toMatchObject({ systemName_Client: '云文档', logo_Light: '', favroiteIcon: '' });
    await ok(app(), 'PUT', '/api/Admin/Branding', { token: adminToken, body: { systemName_Client: '  星河集团文档中心  ' } });
    expect((await publicBranding()).systemName_Client).toBe('星河集团文档中心');
    expectError(await call(app(), 'PUT', '/api/Admin/Branding', { token: adminToken, body: { systemName_Client: '   ' } }), 400, '请输入系统名称');
    expectError(await call(app(), 'PUT', '/api/Admin/Branding', { token: adminToken, body: { systemName_Client: '名'.repeat(31) } }), 400, '不能超过 30 个字符');
    expect((await publicBranding()).systemName_Client).toBe('星河集团文档中心');

    const wide = await sharp({ create: { width: 1600, height: 400, channels: 4, background: { r: 20, g: 80, b: 200, alpha: 0.5 } } }).png().toBuffer();
    const first = await putImage(adminToken, 'logoLight', wide);
    expect(first.status).toBe(200);
    const url = first.body.result.logo_Light as string;
    expect(url).toMatch(/^\/api\/Client\/Branding\/Images\/logoLight-[0-9a-f]{16}\.webp$/);
    expect((await publicBranding()).logo_Light).toBe(url);
    // served without a session, scaled inside 480 × 96, transparency kept
    const served = await app().inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha }).toEqual({ format: 'webp', width: 384, height: 96, hasAlpha: true });

    const icon = await putImage(adminToken, 'favicon', await sharp({ create: { width: 300, height: 200, channels: 3, background: '#cc3333' } }).jpeg().toBuffer(), 'i.jpg');
    const iconMeta = await sharp((await app().inject({ method: 'GET', url: icon.body.result.favroiteIcon })).rawPayload).metadata();
    expect({ format: iconMeta.format, width: iconMeta.width, height: iconMeta.height }).toEqual({ format: 'png', width: 64, height: 64 });
    // setting one picture keeps the others and the name
    expect(icon.body.result).toMatchObject({ systemName_Client: '星河集团文档中心', logo_Light: url });

    // a new logo replaces the file; the old address is gone
    const second = await putImage(adminToken, 'logoLight', await sharp({ create: { width: 200, height: 50, channels: 3, background: '#000' } }).png().toBuffer());
    expect(second.body.result.logo_Light).not.toBe(url);
    expect((await app().inject({ method: 'GET', url })).statusCode).toBe(404);
    const dir = path.join(server.config.dataDir, 'branding');
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('logoLight-'))).toHaveLength(1);

    // refusals change nothing
    expectError(await putImage(adminToken, 'logoDark', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg'), 400, '只能上传 JPG、PNG、WebP 或 GIF 图片');
    expectError(await putImage(adminToken, 'loginBackground', Buffer.alloc(10 * 1024 * 1024 + 10, 1)), 400, '图片不能超过 10 MB');
    expect((await call(app(), 'PUT', '/api/Admin/Branding/Images/banner', { token: adminToken })).status).toBe(400);
    expect((await publicBranding()).logo_Dark).toBe('');
    expect((await app().inject({ method: 'GET', url: '/api/Client/Branding/Images/..%2F..%2Fsecret.key' })).statusCode).toBe(404);

    // 恢复默认
    const cleared = await ok(app(), 'DELETE', '/api/Admin/Branding/Images/logoLight', { token: adminToken });
    expect(cleared.logo_Light).toBe('');
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('logoLight-'))).toHaveLength(0);
    expect((await publicBranding()).favroiteIcon).toBe(icon.body.result.favroiteIcon);
  });

  test('only administrators change branding and agreements', async () => {
    const user = await userWithToken(app(), adminToken);
    const before = await publicBranding();
    expectError(await call(app(), 'PUT', '/api/Admin/Branding', { token: user.token, body: { systemName_Client: '我的系统' } }), 403, '只有系统管理员');
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } }).png().toBuffer();
    expectError(await putImage(user.token, 'logoLight', png), 403, '只有系统管理员');
    expectError(await call(app(), 'DELETE', '/api/Admin/Branding/Images/favicon', { token: user.token }), 403, '只有系统管理员');
    expectError(await call(app(), 'PUT', '/api/Admin/Agreements/service', { token: user.token, body: { content: '改掉' } }), 403, '只有系统管理员');
    expect(await publicBranding()).toEqual(before);
    expect((await call(app(), 'PUT', '/api/Admin/Agreements/service', { body: { content: '改掉' } })).status).toBe(401);
    expect((await ok(app(), 'GET', '/api/Client/Agreements/service')).content).not.toBe('改掉');
  });

  test('the service agreement and privacy policy are built in until an administrator writes them; empty brings the built-in text back', async () => {
    const builtIn = await ok(app(), 'GET', '/api/Client/Agreements/service');
    expect(builtIn).toMatchObject({ kind: 'service', title: '服务协议', updatedAt: null });
    expect(builtIn.content).toContain('欢迎使用云文档');
    expect((await ok(app(), 'GET', '/api/Client/Agreements/privacy')).title).toBe('隐私政策');

    const text = '星河集团云文档服务协议\r\n\r\n# 一、适用范围\r\n- 全体员工\r\n- 外包人员';
    const saved = await ok(app(), 'PUT', '/api/Admin/Agreements/service', { token: adminToken, body: { content: `  ${text}\n\n` } });
    expect(saved.content).toBe('星河集团云文档服务协议\n\n# 一、适用范围\n- 全体员工\n- 外包人员');
    expect(saved.updatedAt).toEqual(expect.any(Number));
    // read back without a session; the other text is untouched
    expect((await ok(app(), 'GET', '/api/Client/Agreements/service')).content).toBe(saved.content);
    expect((await ok(app(), 'GET', '/api/Client/Agreements/privacy')).updatedAt).toBeNull();

    expectError(await call(app(), 'PUT', '/api/Admin/Agreements/service', { token: adminToken, body: { content: '字'.repeat(20_001) } }), 400, '不能超过 20000 个字符');
    expect((await ok(app(), 'GET', '/api/Client/Agreements/service')).content).toBe(saved.content);
    expect((await call(app(), 'GET', '/api/Client/Agreements/terms')).status).toBe(400);

    const reset = await ok(app(), 'PUT', '/api/Admin/Agreements/service', { token: adminToken, body: { content: '  ' } });
    expect(reset).toEqual(builtIn);
  });

  test('the administrator lists users by name with their security state, disabled ones included; others may not', async () => {
    const a = await userWithToken(app(), adminToken, { nickName: '陈静文' });
    const b = await userWithToken(app(), adminToken, { nickName: '陈静怡' });
    await ok(app(), 'PUT', `/api/Admin/Users/${a.userId}/Totp`, { token: adminToken, body: { required: true } });
    await ok(app(), 'POST', `/api/Admin/Users/${b.userId}/Disable`, { token: adminToken });

    const found = await ok(app(), 'GET', `/api/Admin/Users?keyword=${encodeURIComponent('陈静')}`, { token: adminToken });
    expect(found.total).toBe(2);
    // by user name: [id, TOTP required, disabled]
    const expected = [a, b].sort((x, y) => (x.userName < y.userName ? -1 : 1)).map((u) => [u.userId, u === a, u === b]);
    expect(found.data.map((u: any) => [u.userId, u.totpRequired, u.disabled])).toEqual(expected);
    expect((await ok(app(), 'GET', `/api/Admin/Users?keyword=${encodeURIComponent(a.userName.toUpperCase())}`, { token: adminToken })).data.map((u: any) => u.userId)).toEqual([a.userId]);
    // a LIKE wildcard is a plain character
    expect((await ok(app(), 'GET', '/api/Admin/Users?keyword=%25', { token: adminToken })).total).toBe(0);

    const page = await ok(app(), 'GET', '/api/Admin/Users?page=1&pageSize=1', { token: adminToken });
    expect(page.data).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(3);
    expectError(await call(app(), 'GET', '/api/Admin/Users', { token: a.token }), 403, '只有系统管理员');
  });

  test('an administrator renames the two spaces: the roots show the new names at once; bad names change nothing', async () => {
    const user = await userWithToken(app(), adminToken);
    const saved = await ok(app(), 'PUT', '/api/Admin/EnvironmentConfig', { token: adminToken, body: { personalFolderName: ' 我的文档 ', publicFolderName: '集团文件' } });
    expect(saved).toEqual({ personalFolderName: '我的文档', publicFolderName: '集团文件' });
    expect(await ok(app(), 'GET', '/api/EnvironmentConfig')).toEqual(saved);
    const [personal] = await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: user.token });
    expect(personal.name).toBe('我的文档');
    const [enterprise] = await ok(app(), 'GET', '/api/User/Folders/Public/RootFolders', { token: user.token });
    expect(enterprise.name).toBe('集团文件');

    for (const [body, message] of [
      [{ personalFolderName: '  ', publicFolderName: '集团文件' }, '请输入个人空间的名称'],
      [{ personalFolderName: '我的文档', publicFolderName: '企'.repeat(21) }, '企业空间的名称不能超过 20 个字符'],
      [{ personalFolderName: '我的/文档', publicFolderName: '集团文件' }, '个人空间的名称不能包含'],
      [{ personalFolderName: '文件', publicFolderName: '文件' }, '个人空间与企业空间的名称不能相同'],
    ] as const) {
      expectError(await call(app(), 'PUT', '/api/Admin/EnvironmentConfig', { token: adminToken, body }), 400, message);
    }
    expectError(await call(app(), 'PUT', '/api/Admin/EnvironmentConfig', { token: user.token, body: { personalFolderName: 'a', publicFolderName: 'b' } }), 403, '只有系统管理员');
    expect(await ok(app(), 'GET', '/api/EnvironmentConfig')).toEqual(saved);
    await ok(app(), 'PUT', '/api/Admin/EnvironmentConfig', { token: adminToken, body: { personalFolderName: '个人文件', publicFolderName: '企业文件' } });
  });

  test('the sign-in answer says who is a system administrator', async () => {
    expect((await login(app())).isAdmin).toBe(true);
    const user = await userWithToken(app(), adminToken);
    expect((await login(app(), user.userName, user.password)).isAdmin).toBe(false);
  });
});
