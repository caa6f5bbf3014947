// 钉钉通讯录同步 against the local fake of DingTalk (support/dingtalk-fake.ts), on SQLite and
// PostgreSQL: the same plan-and-apply engine as LDAP, fed by every member of every department
// read a page of 100 at a time (a department of 250 people takes three pages); a person in two
// departments placed once; an account that signed in with DingTalk before is bound, not
// duplicated, and DingTalk sign-in finds the synced accounts; a re-sync changes nothing; a member
// who left is disabled; an error of DingTalk plans nothing.
import { call, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
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
