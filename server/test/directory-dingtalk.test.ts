// 钉钉通讯录同步 against the local fake of DingTalk (support/dingtalk-fake.ts), on SQLite and
// PostgreSQL: the same plan-and-apply engine as LDAP, fed by every member of every department
// read a page of 100 at a time (a department of 250 people takes three pages); a person in two
// departments placed once; an account that signed in with DingTalk before is bound, not
// duplicated, and DingTalk sign-in finds the synced accounts; a re-sync changes nothing; a member
// who left is disabled; an error of DingTalk plans nothing. Then its settings (自动同步, interval,
// disable limit, root department; whether DingTalk is configured, never its secret), a root
// department syncing its branch only, the scheduled sync run by one instance of two and refused
// like LDAP's (an empty answer, too many disables), and 403 for anyone but a system administrator.
import { writeSetting } from '../src/modules/settings/repository';
import { call, databaseKinds, ENGLISH_FRAMEWORK_TEXT, HAN, login, ok, startServer, type TestServer } from './support/harness';
import { fakeDingTalk, type FakeContacts, type FakeMember } from './support/dingtalk-fake';

function contacts(): FakeContacts {
  const departments = [
    { dept_id: 2, name: '研发中心', parent_id: 1 },
    { dept_id: 3, name: '前端组', parent_id: 2 },
    { dept_id: 4, name: '市场部', parent_id: 1 },
  ];
  const members: FakeMember[] = [];
  for (let i = 0; i < 250; i++) {
    members.push({ userid: `dev${String(i).padStart(3, '0')}`, unionid: `u-dev${i}`, name: `开发${i}`, mobile: `1390000${String(i).padStart(4, '0')}`, job_number: `D${i}`, dept_id_list: [3] });
  }
  members.push({ userid: 'boss', unionid: 'u-boss', name: '老板', mobile: '13800000000', dept_id_list: [1] });
  members.push({ userid: 'both', unionid: 'u-both', name: '兼职', email: 'Both@Example.com', dept_id_list: [4, 2] });
  members.push({ userid: 'seller', unionid: 'union-early', name: '销售', dept_id_list: [4] });
  return { departments, members };
}

describe.each(databaseKinds())('DingTalk contacts sync (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const book = contacts();
  const fake = fakeDingTalk({ 'code-seller': { unionId: 'union-early', nick: '早到的销售', mobile: '13700000001' }, 'code-dev7': { unionId: 'u-dev7', nick: '开发7' } }, book);
  const app = () => server.app;
  const plan = () => ok(app(), 'POST', '/api/Admin/Directory/Dingtalk/Sync', { token: adminToken });
  const person = async (userName: string) =>
    (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { keyword: userName, pageSize: 50 } })).data.find((u: { userName: string }) => u.userName === userName);

  beforeAll(async () => {
    const base = await fake.start();
    server = await startServer(kind, {
      env: { DINGTALK_APP_KEY: 'dingapp', DINGTALK_APP_SECRET: 'dingsecret', DINGTALK_API_BASE: base, DINGTALK_OAPI_BASE: base, DINGTALK_AUTO_CREATE: 'true' },
    });
    adminToken = (await login(app())).token;
  });
  afterAll(async () => {
    await server?.close();
    await fake.stop();
  });

  test('every member of every department, paged; one who signed in before is bound; DingTalk sign-in finds them', async () => {
    // signed in with DingTalk before any sync: an account was made for them
    const early = await ok(app(), 'POST', '/api/login/LoginWithDingtalk', { query: { code: 'code-seller', appId: 'dingapp' } });
    expect(early.token).toBeTruthy();

    const run = await plan();
    expect(run).toMatchObject({ source: 'dingtalk', status: 'planned', summary: { total: 253, adds: 252, updates: 1, disables: 0, refused: null } });
    expect([...run.summary.departmentsToCreate].sort()).toEqual(['总部/市场部', '总部/研发中心', '总部/研发中心/前端组']);
    // three pages for the 250 of 前端组, none larger than 100
    const pages = fake.seen.filter((s) => s.path === '/topapi/v2/user/list' && s.body.dept_id === 3);
    expect(pages.map((p) => p.body.cursor)).toEqual([0, 100, 200]);
    expect(fake.seen.filter((s) => s.path === '/topapi/v2/user/list').every((s) => s.body.size <= 100)).toBe(true);

    const applied = await ok(app(), 'POST', `/api/Admin/Directory/Runs/${run.id}/Apply`, { token: adminToken });
    expect(applied.status).toBe('applied');
    expect((await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { source: 'dingtalk', pageSize: 1 } })).total).toBe(253);
    expect(await person('dev249')).toMatchObject({ nickName: '开发249', deptName: '总部/研发中心/前端组', employeeNo: 'D249', source: 'dingtalk' });
    expect(await person('both')).toMatchObject({ deptName: '总部/市场部', email: 'both@example.com' });
    expect(await person('boss')).toMatchObject({ deptName: '总部' });
    // the early account is now the synced person: no second account for them
    const sellers = (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { keyword: '销售', pageSize: 50 } })).data;
    expect(sellers).toHaveLength(1);
    expect(sellers[0]).toMatchObject({ source: 'dingtalk', deptName: '总部/市场部' });
    // DingTalk sign-in of a synced person finds their account
    const dev7 = await ok(app(), 'POST', '/api/login/LoginWithDingtalk', { query: { code: 'code-dev7', appId: 'dingapp' } });
    expect(dev7.userName).toBe('dev007');
    // made by the sync, the account has no password here: 个人设置 says so and the change is refused
    const security = await ok(app(), 'GET', '/api/account/Security', { token: dev7.token });
    expect(security.passwordElsewhere).toBe('你的账号由钉钉同步而来，没有本系统的密码，请用钉钉登录');
    const change = await call(app(), 'POST', '/api/account/changepassword', { token: dev7.token, body: { oldPassword: 'x', newPassword: 'Another-pass-42' } });
    expect(change.body.message).toBe(security.passwordElsewhere);
    // the early account bound by the sync keeps the password it had
    expect((await ok(app(), 'GET', '/api/account/Security', { token: early.token })).passwordElsewhere).toBeNull();
  });

  test('a re-sync changes nothing; a member who left is disabled, not deleted', async () => {
    const again = await plan();
    expect(again.summary).toMatchObject({ adds: 0, updates: 0, moves: 0, disables: 0, unchanged: 253 });
    book.members.splice(book.members.findIndex((m) => m.userid === 'dev100'), 1);
    const run = await plan();
    expect(run.summary).toMatchObject({ disables: 1, samples: { disables: ['dev100'] } });
    await ok(app(), 'POST', `/api/Admin/Directory/Runs/${run.id}/Apply`, { token: adminToken });
    expect(await person('dev100')).toMatchObject({ disabled: true });
  });

  test('an error of DingTalk plans nothing and says so', async () => {
    // the app's secret refused by DingTalk
    const broken = await startServer(kind, {
      env: { DINGTALK_APP_KEY: 'dingapp', DINGTALK_APP_SECRET: 'wrong', DINGTALK_API_BASE: server.config.dingtalk!.apiBase, DINGTALK_OAPI_BASE: server.config.dingtalk!.oapiBase },
    });
    try {
      const token = (await login(broken.app)).token;
      const run = await ok(broken.app, 'POST', '/api/Admin/Directory/Dingtalk/Sync', { token });
      expect(run).toMatchObject({ status: 'failed', summary: null });
      expect(run.error).toBe('钉钉返回错误：应用凭证无效');
      expect((await ok(broken.app, 'GET', '/api/Admin/Users', { token, query: { source: 'dingtalk', pageSize: 1 } })).total).toBe(0);
    } finally {
      await broken.close();
    }
  });

  test('without DingTalk configured, the sync says so', async () => {
    const plain = await startServer(kind);
    try {
      const token = (await login(plain.app)).token;
      const run = await ok(plain.app, 'POST', '/api/Admin/Directory/Dingtalk/Sync', { token });
      expect(run).toMatchObject({ status: 'failed', error: '未配置钉钉通讯录同步' });
      expect((await call(plain.app, 'GET', '/api/Admin/Directory/Runs', { token, query: { source: 'dingtalk' } })).body.result).toHaveLength(1);
    } finally {
      await plain.close();
    }
  });
});

describe.each(databaseKinds())('钉钉通讯录同步 settings and schedule (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const book = contacts();
  // an empty department: a root that answers nobody
  book.departments.push({ dept_id: 5, name: '筹备组', parent_id: 1 });
  const fake = fakeDingTalk({}, book);
  const app = () => server.app;
  const URL = '/api/Admin/Directory/Dingtalk';
  const settings = () => ok(app(), 'GET', URL, { token: adminToken });
  const save = (body: Record<string, unknown>) => ok(app(), 'PUT', URL, { token: adminToken, body });
  const plan = () => ok(app(), 'POST', '/api/Admin/Directory/Dingtalk/Sync', { token: adminToken });
  const enabledPeople = async () => (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { source: 'dingtalk', status: 'enabled', pageSize: 1 } })).total;
  const person = async (userName: string) =>
    (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { keyword: userName, pageSize: 50 } })).data.find((u: { userName: string }) => u.userName === userName);
  // the schedule is driven with times of its own, hours ahead, so the real beat never interferes
  const later = Date.now() + 2 * 60 * 60_000;

  beforeAll(async () => {
    const base = await fake.start();
    server = await startServer(kind, { env: { DINGTALK_APP_KEY: 'dingapp', DINGTALK_APP_SECRET: 'dingsecret', DINGTALK_API_BASE: base, DINGTALK_OAPI_BASE: base } });
    adminToken = (await login(app())).token;
  });
  afterAll(async () => {
    await server?.close();
    await fake.stop();
  });

  test('settings: the defaults, saved and read back, checked with Chinese reasons; the app secret is never shown', async () => {
    const initial = await settings();
    expect(initial).toEqual({ configured: true, appKey: 'dingapp', enabled: false, intervalMinutes: 60, maxDisablePercent: 10, rootDeptId: null });
    const saved = await save({ enabled: true, intervalMinutes: 30, maxDisablePercent: 5, rootDeptId: 2 });
    expect(saved).toEqual({ configured: true, appKey: 'dingapp', enabled: true, intervalMinutes: 30, maxDisablePercent: 5, rootDeptId: 2 });
    expect(await settings()).toEqual(saved);
    // what is left out stays; null is the whole organisation, not read as 0
    expect(await save({ rootDeptId: null })).toMatchObject({ enabled: true, intervalMinutes: 30, maxDisablePercent: 5, rootDeptId: null });
    expect(await save({ rootDeptId: 3 })).toMatchObject({ rootDeptId: 3 });
    // DingTalk's dept 1 is the whole organisation too
    expect(await save({ rootDeptId: 1 })).toMatchObject({ rootDeptId: null });

    const refusals: [Record<string, unknown>, string][] = [
      [{ intervalMinutes: 4 }, '自动同步间隔应为 5–10080 分钟'],
      [{ intervalMinutes: 0 }, '自动同步间隔应为 5–10080 分钟'],
      [{ intervalMinutes: 10081 }, '自动同步间隔应为 5–10080 分钟'],
      [{ maxDisablePercent: 101 }, '停用比例上限应在 0–100 之间'],
      [{ maxDisablePercent: -1 }, '停用比例上限应在 0–100 之间'],
      [{ rootDeptId: 0 }, '根部门 ID 应为钉钉中的部门 ID（正整数）；留空则同步整个组织'],
      [{ rootDeptId: -2 }, '根部门 ID 应为钉钉中的部门 ID（正整数）；留空则同步整个组织'],
    ];
    for (const [body, message] of refusals) {
      const res = await call(app(), 'PUT', URL, { token: adminToken, body });
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    // not a whole number: still a Chinese reason, never Ajv's English
    for (const body of [{ intervalMinutes: 7.5 }, { rootDeptId: 'abc' }, { enabled: 'maybe' }]) {
      const res = await call(app(), 'PUT', URL, { token: adminToken, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(HAN);
      expect(res.body.message).not.toMatch(ENGLISH_FRAMEWORK_TEXT);
    }
    // nothing changed by the refusals
    expect(await settings()).toEqual({ configured: true, appKey: 'dingapp', enabled: true, intervalMinutes: 30, maxDisablePercent: 5, rootDeptId: null });
    const stored = JSON.stringify(await app().db.selectFrom('settings').selectAll().execute());
    expect(stored).toContain('dingtalkSyncSettings');
    expect(stored).not.toContain('dingsecret');
    expect(JSON.stringify(await settings())).not.toContain('dingsecret');
    await save({ enabled: false, intervalMinutes: 60, maxDisablePercent: 10 });
  });

  test('a root department syncs its branch only, its paths still from the organisation; the disable limit of the settings applies', async () => {
    // the whole organisation first
    const whole = await plan();
    expect(whole.summary).toMatchObject({ total: 253, adds: 253, refused: null });
    await ok(app(), 'POST', `/api/Admin/Directory/Runs/${whole.id}/Apply`, { token: adminToken });
    expect(await enabledPeople()).toBe(253);

    // 研发中心: its 250 developers and 兼职 (listed there too); 老板 and 销售 would be disabled
    await save({ rootDeptId: 2 });
    fake.seen.length = 0;
    const branch = await plan();
    expect(branch).toMatchObject({ status: 'planned', summary: { total: 251, adds: 0, moves: 1, disables: 2, departmentsToCreate: [], refused: null } });
    expect(branch.summary.samples.moves).toEqual([{ userName: 'both', from: '总部/市场部', to: '总部/研发中心' }]);
    expect([...branch.summary.samples.disables].sort()).toEqual(['boss', 'seller']);
    expect(fake.seen.find((x) => x.path === '/topapi/v2/department/listsub')?.body).toEqual({ dept_id: 2 });
    expect(fake.seen.filter((x) => x.path === '/topapi/v2/user/list').map((x) => x.body.dept_id)).not.toContain(4);

    // 2 of 253 is 0.8 %: over a limit of 0.5 % it is refused
    await save({ maxDisablePercent: 0.5 });
    const strict = await plan();
    expect(strict.status).toBe('refused');
    expect(strict.error).toMatch(/^本次同步将停用 2 人（占已同步用户的 0\.8%），超过设定的 0\.5%，未做任何修改/);
    await save({ maxDisablePercent: 10 });

    // a department DingTalk does not know: the sync fails and says so
    await save({ rootDeptId: 99 });
    expect(await plan()).toMatchObject({ status: 'failed', summary: null, error: '钉钉返回错误：部门不存在' });
    await save({ rootDeptId: null });
    expect(await enabledPeople()).toBe(253);
  });

  test('without DingTalk configured, the settings say so and 自动同步 cannot be switched on; nothing is scheduled', async () => {
    const plain = await startServer(kind);
    try {
      const token = (await login(plain.app)).token;
      const view = await ok(plain.app, 'GET', URL, { token });
      expect(view).toEqual({ configured: false, appKey: '', enabled: false, intervalMinutes: 60, maxDisablePercent: 10, rootDeptId: null });
      const res = await call(plain.app, 'PUT', URL, { token, body: { enabled: true } });
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message: '未配置钉钉（请设置 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET 环境变量），不能开启自动同步' });
      expect(await ok(plain.app, 'PUT', URL, { token, body: { intervalMinutes: 90 } })).toMatchObject({ configured: false, enabled: false, intervalMinutes: 90 });
      // switched on while DingTalk was configured, then the variables were removed: the beat skips it
      await writeSetting(plain.app.db, 'dingtalkSyncSettings', { enabled: true, intervalMinutes: 60, maxDisablePercent: 10, rootDeptId: null }, Date.now());
      expect(await plain.app.services.directory.tick(later)).toBeNull();
      expect((await ok(plain.app, 'GET', '/api/Admin/Directory/Runs', { token, query: { source: 'dingtalk' } }))).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  test('the scheduled sync runs when due, on one instance of two, and is applied; within the interval neither runs again', async () => {
    book.members.push({ userid: 'newbie', unionid: 'u-newbie', name: '新同事', dept_id_list: [4] });
    // 自动同步 off: nothing, however late
    expect(await app().services.directory.tick(later)).toBeNull();
    await save({ enabled: true, intervalMinutes: 60 });

    const other = await server.restart();
    const [a, b] = await Promise.all([app().services.directory.tick(later), other.services.directory.tick(later)]);
    expect([a, b].filter((r) => r !== null)).toHaveLength(1);
    expect((a ?? b)!).toMatchObject({ source: 'dingtalk', trigger: 'schedule', status: 'applied', summary: { adds: 1, disables: 0, refused: null } });
    expect(await person('newbie')).toMatchObject({ nickName: '新同事', source: 'dingtalk', deptName: '总部/市场部' });
    const scheduled = await app().db.selectFrom('directory_runs').select('id').where('source', '=', 'dingtalk').where('trigger', '=', 'schedule').execute();
    expect(scheduled).toHaveLength(1);

    // within the interval, neither runs again
    expect(await other.services.directory.tick(later + 59 * 60_000)).toBeNull();
    expect(await app().services.directory.tick(later + 59 * 60_000)).toBeNull();
    // past it, one does: nothing left to change
    const next = await other.services.directory.tick(later + 61 * 60_000);
    expect(next).toMatchObject({ source: 'dingtalk', trigger: 'schedule', status: 'applied', summary: { adds: 0, updates: 0, moves: 0, disables: 0 } });

    // the record of every source lists them, newest first
    const runs = await ok(app(), 'GET', '/api/Admin/Directory/Runs', { token: adminToken, query: { source: 'all' } });
    expect(runs.slice(0, 2).map((r: { source: string; trigger: string; status: string }) => [r.source, r.trigger, r.status])).toEqual([
      ['dingtalk', 'schedule', 'applied'],
      ['dingtalk', 'schedule', 'applied'],
    ]);
    expect((await ok(app(), 'GET', '/api/Admin/Directory/Runs', { token: adminToken, query: { source: 'ldap' } }))).toEqual([]);
  });

  test('a scheduled run is refused like a manual one: nothing applied on an empty answer or over the disable limit', async () => {
    const before = await enabledPeople();
    // 市场部 only: nearly everyone would be disabled
    await save({ rootDeptId: 4 });
    const narrow = await app().services.directory.tick(later + 3 * 60 * 60_000);
    expect(narrow).toMatchObject({ source: 'dingtalk', trigger: 'schedule', status: 'refused' });
    expect(narrow!.error).toMatch(/^本次同步将停用 \d+ 人（占已同步用户的 [\d.]+%），超过设定的 10%，未做任何修改/);
    expect(await enabledPeople()).toBe(before);

    // a department with nobody in it
    await save({ rootDeptId: 5 });
    const empty = await app().services.directory.tick(later + 5 * 60 * 60_000);
    expect(empty).toMatchObject({ status: 'refused', summary: { total: 0 } });
    expect(empty!.error).toBe('钉钉通讯录没有返回任何用户（可能是根部门设置有误，或应用没有通讯录权限），本次同步未做任何修改');
    expect(await enabledPeople()).toBe(before);
    // a refused plan cannot be applied
    expect((await call(app(), 'POST', `/api/Admin/Directory/Runs/${empty!.id}/Apply`, { token: adminToken })).status).toBe(409);
    await save({ rootDeptId: null, enabled: false });
  });

  test('only system administrators reach the DingTalk settings, sync and runs', async () => {
    await ok(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName: `plain_${kind}`, password: 'Plain-Passw0rd-1', mustChangePassword: false } });
    const token = (await login(app(), `plain_${kind}`, 'Plain-Passw0rd-1')).token;
    const latest = (await ok(app(), 'GET', '/api/Admin/Directory/Runs', { token: adminToken, query: { source: 'dingtalk' } }))[0];
    for (const [method, url, query] of [
      ['GET', URL],
      ['PUT', URL],
      ['POST', '/api/Admin/Directory/Dingtalk/Sync'],
      ['GET', '/api/Admin/Directory/Runs', { source: 'dingtalk' }],
      ['GET', '/api/Admin/Directory/Runs', { source: 'all' }],
      ['POST', `/api/Admin/Directory/Runs/${latest.id}/Apply`],
    ] as const) {
      const res = await call(app(), method, url, { token, query, body: method === 'PUT' ? { enabled: true } : undefined });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 403, code: 40301 });
    }
    expect((await settings()).enabled).toBe(false);
  });
});
