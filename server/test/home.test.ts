// 云文档 settings: public configuration calls, the feature policy and the home/menus it drives.
import { call, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';

describe.each(databaseKinds())('settings and home (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const setPolicy = (p: Record<string, boolean>) =>
    ok(server.app, 'PUT', '/api/Admin/FeaturePolicy', {
      token: adminToken,
      body: { personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: true, ...p },
    });
  const home = () => ok(server.app, 'GET', '/api/User/Home', { token: adminToken });
  const shown = (h: { menus: { name: string; isShow: boolean }[] }) => h.menus.filter((m) => m.isShow).map((m) => m.name);

  afterEach(async () => {
    await setPolicy({});
  });

  test('environment config, password policy and branding need no session', async () => {
    expect(await ok(server.app, 'GET', '/api/EnvironmentConfig')).toEqual({ personalFolderName: '个人文件', publicFolderName: '企业文件' });
    expect(await ok(server.app, 'GET', '/api/Login/PasswordPolicy')).toEqual({
      minLength: 8,
      requireDigit: true,
      requireLetter: true,
      requireSymbol: false,
      requireMixedCase: false,
      historyCount: 3,
      expiryDays: 0,
      lockoutThreshold: 5,
      lockoutMinutes: 15,
      totpRequired: false,
      webdavAccountPassword: false,
    });
    expect(await ok(server.app, 'GET', '/api/Client/Branding', { query: { timestamp: Date.now() } })).toEqual({
      systemName_Client: '云文档',
      favroiteIcon: '',
      login_Background: '',
      logo_Dark: '',
      logo_Dark_Large: '',
      logo_Light: '',
    });
  });

  test('the feature policy and home need a session', async () => {
    expect((await call(server.app, 'GET', '/api/User/GlobalPolicies/FeaturePolicy')).status).toBe(401);
    expect((await call(server.app, 'GET', '/api/User/Home')).status).toBe(401);
  });

  test('with every module on: all main menus show, home is /file/personal', async () => {
    expect(await ok(server.app, 'GET', '/api/User/GlobalPolicies/FeaturePolicy', { token: adminToken })).toEqual({
      personalSpace: true,
      publicSpace: true,
      workflow: true,
      ferrySpaces: true,
    });
    const h = await home();
    expect(h.baseHome).toBe('/file/personal');
    expect(h.roles).toEqual({ personalSpace: true, publicSpace: true });
    expect(shown(h)).toEqual(['file', 'workflow', 'swapSpace', 'setting']);
    expect(h.menus.find((m: { name: string }) => m.name === 'file')).toEqual({ name: 'file', path: '/file/personal', title: '云文档', isShow: true });
  });

  test('personal space off: home moves to /file/public and the role follows', async () => {
    await setPolicy({ personalSpace: false });
    const h = await home();
    expect(h.baseHome).toBe('/file/public');
    // every menu entry leads to a page, never to a bare section path that only redirects
    expect(h.menus.find((m: { name: string }) => m.name === 'file').path).toBe('/file/public');
    expect(h.menus.map((m: { path: string }) => m.path)).not.toContain('/file');
    expect(h.roles).toEqual({ personalSpace: false, publicSpace: true });
    expect(shown(h)).toContain('file');
  });

  test('both spaces off: 云文档 disappears and home is the workflow list', async () => {
    await setPolicy({ personalSpace: false, publicSpace: false });
    const h = await home();
    expect(shown(h)).toEqual(['workflow', 'swapSpace']);
    expect(h.baseHome).toBe('/workflow/list');
  });

  test('only the exchange space left: home is the exchange space', async () => {
    await setPolicy({ personalSpace: false, publicSpace: false, workflow: false });
    const h = await home();
    expect(shown(h)).toEqual(['swapSpace']);
    expect(h.baseHome).toBe('/swapSpace/myFerry/processing');
  });

  test('every module off: no menu shows and home is /404', async () => {
    await setPolicy({ personalSpace: false, publicSpace: false, workflow: false, ferrySpaces: false });
    const h = await home();
    expect(shown(h)).toEqual([]);
    expect(h.baseHome).toBe('/404');
  });

  test('simple mode: only the ferry menu, home /ferry/file', async () => {
    const simple = await server.restart({ MODE: 'simple' });
    const token = (await login(simple)).token;
    const h = await ok(simple, 'GET', '/api/User/Home', { token });
    expect(shown(h)).toEqual(['ferry']);
    expect(h.baseHome).toBe('/ferry/file');
  });
});
