// 云文档 organisation: user search (keyword, department subtree, paging), groups and their members.
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { buildMigrations, migrateToLatest } from '../src/db/migrations';
import { registerSqliteFunctions } from '../src/db/connection';
import { call, databaseKinds, login, ok, startServer, userWithToken, type TestServer } from './support/harness';

/** An in-memory database with the SQL functions the schema's triggers call. */
function sqliteWithFunctions() {
  const sqlite = new Database(':memory:');
  registerSqliteFunctions(sqlite);
  return sqlite;
}

test('upgrading an existing database fills in the search key of every nickname', async () => {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqliteWithFunctions() }) });
  try {
    const all = buildMigrations('sqlite');
    const first = Object.keys(all).sort()[0];
    const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ [first]: all[first] }) } });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const now = Date.now();
    await db
      .insertInto('users')
      .values({ user_name: 'old_user', user_name_key: 'old_user', nick_name: ' ＡＢＣ 老用户 ', password_hash: 'x', created_at: now, updated_at: now })
      .execute();
    await migrateToLatest(db, 'sqlite');
    const row = await db.selectFrom('users').select('nick_name_key').where('user_name', '=', 'old_user').executeTakeFirstOrThrow();
    expect(row.nick_name_key).toBe('abc 老用户');
  } finally {
    await db.destroy();
  }
});

describe.each(databaseKinds())('organisation (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let rootId: string;
  const dept: Record<string, string> = {};
  const users: Record<string, { userId: string; userName: string; password: string }> = {};

  const newDept = async (name: string, parentId: string) =>
    (await ok(server.app, 'POST', '/api/Admin/Departments', { token: adminToken, body: { name, parentId } })).id as string;

  const newUser = async (userName: string, nickName: string, deptId: string) => {
    const password = `Org-Passw0rd-${userName}`;
    const { userId } = await ok(server.app, 'POST', '/api/Admin/Users', { token: adminToken, body: { userName, nickName, password, deptId, mustChangePassword: false } });
    users[userName] = { userId, userName, password };
    return users[userName];
  };

  const search = (query: Record<string, string | number>, token = adminToken) =>
    ok(server.app, 'GET', '/api/User/Organizations/Users', { token, query });
  const names = (page: { data: { userName: string }[] }) => page.data.map((u) => u.userName);

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
    const tree = await ok(server.app, 'GET', '/api/User/Organizations/Departments/Tree', { token: adminToken });
    rootId = tree[0].id;
    dept.sales = await newDept('销售部', rootId);
    dept.east = await newDept('华东区', dept.sales);
    dept.rd = await newDept('研发部', rootId);
    await newUser('org_alice', '张三Alpha', dept.sales);
    await newUser('org_bob', 'Bob 王', dept.east);
    await newUser('org_carol', '李四', dept.rd);
    await newUser('org_pxqb', '通配符测试', dept.rd);
    const dave = await newUser('org_dave', '停用的张三', dept.east);
    await ok(server.app, 'POST', `/api/Admin/Users/${dave.userId}/Disable`, { token: adminToken });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('the keyword matches user names and nicknames, case-insensitively; disabled users are left out', async () => {
    expect(names(await search({ keyword: 'ALICE' }))).toEqual(['org_alice']);
    expect(names(await search({ keyword: 'alpha' }))).toEqual(['org_alice']);
    expect(names(await search({ keyword: 'bob 王' }))).toEqual(['org_bob']);
    // 张三 is also in the disabled user's nickname
    expect(names(await search({ keyword: '张三' }))).toEqual(['org_alice']);
    expect(names(await search({ keyword: 'org_' }))).toEqual(['org_alice', 'org_bob', 'org_carol', 'org_pxqb']);
    expect(await search({ keyword: 'nobody-like-this' })).toEqual({ data: [], total: 0 });
  });

  test('% and _ in the keyword are plain characters', async () => {
    expect(names(await search({ keyword: 'x_b' }))).toEqual([]);
    expect(names(await search({ keyword: 'xqb' }))).toEqual(['org_pxqb']);
    expect((await search({ keyword: '%' })).total).toBe(0);
  });

  test('each user has the agreed shape', async () => {
    const page = await search({ keyword: 'org_bob' });
    expect(page).toEqual({
      data: [{ userId: users.org_bob.userId, userName: 'org_bob', nickName: 'Bob 王', deptId: dept.east, deptName: '华东区' }],
      total: 1,
    });
  });

  test('deptId includes the sub-departments', async () => {
    expect(names(await search({ deptId: dept.sales }))).toEqual(['org_alice', 'org_bob']);
    expect(names(await search({ deptId: dept.east }))).toEqual(['org_bob']);
    expect(names(await search({ deptId: dept.rd }))).toEqual(['org_carol', 'org_pxqb']);
    expect(names(await search({ deptId: dept.sales, keyword: 'bob' }))).toEqual(['org_bob']);
    expect(names(await search({ deptId: dept.rd, keyword: 'bob' }))).toEqual([]);
    const all = await search({ deptId: rootId });
    expect(names(all)).toEqual(expect.arrayContaining(['admin', 'org_alice', 'org_bob', 'org_carol', 'org_pxqb']));
    expect(names(all)).not.toContain('org_dave');
    // an empty deptId means every department
    expect((await search({ deptId: '' })).total).toBe(all.total);
  });

  test('an unknown department is a bad request in Chinese', async () => {
    const res = await call(server.app, 'GET', '/api/User/Organizations/Users', { token: adminToken, query: { deptId: '999999' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.message).toBe('所选部门不存在');
  });

  test('paging walks the list in user-name order', async () => {
    const pagingDept = await newDept('分页测试部', rootId);
    for (const n of [5, 3, 1, 4, 2]) await newUser(`page_u${n}`, `分页${n}`, pagingDept);
    const p1 = await search({ deptId: pagingDept, page: 1, pageSize: 2 });
    expect(p1.total).toBe(5);
    expect(names(p1)).toEqual(['page_u1', 'page_u2']);
    expect(names(await search({ deptId: pagingDept, page: 2, pageSize: 2 }))).toEqual(['page_u3', 'page_u4']);
    const p3 = await search({ deptId: pagingDept, page: 3, pageSize: 2 });
    expect(names(p3)).toEqual(['page_u5']);
    expect(p3.total).toBe(5);
    expect(await search({ deptId: pagingDept, page: 4, pageSize: 2 })).toEqual({ data: [], total: 5 });
    const bad = await call(server.app, 'GET', '/api/User/Organizations/Users', { token: adminToken, query: { pageSize: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(40001);
  });

  test('any signed-in user may search; without a session the answer is 401', async () => {
    const normal = await userWithToken(server.app, adminToken);
    expect(names(await search({ keyword: 'carol' }, normal.token))).toEqual(['org_carol']);
    expect((await call(server.app, 'GET', '/api/User/Organizations/Users')).status).toBe(401);
  });

  test('groups list their enabled member count, and members are paged in the same shape', async () => {
    const normal = await userWithToken(server.app, adminToken);
    const group = await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: '项目一组' } });
    expect(group).toEqual({ id: expect.stringMatching(/^\d+$/), name: '项目一组', memberCount: 0 });
    const set = await ok(server.app, 'PUT', `/api/Admin/Groups/${group.id}/Members`, {
      token: adminToken,
      body: { userIds: [users.org_carol.userId, users.org_alice.userId, users.org_dave.userId, users.org_alice.userId] },
    });
    expect(set).toEqual({ id: group.id, name: '项目一组', memberCount: 2 });

    const groups = await ok(server.app, 'GET', '/api/User/Organizations/Groups', { token: normal.token });
    expect(groups).toContainEqual({ id: group.id, name: '项目一组', memberCount: 2 });

    const url = `/api/User/Organizations/Groups/${group.id}/Members`;
    const first = await ok(server.app, 'GET', url, { token: normal.token, query: { page: 1, pageSize: 1 } });
    expect(first).toEqual({
      data: [{ userId: users.org_alice.userId, userName: 'org_alice', nickName: '张三Alpha', deptId: dept.sales, deptName: '销售部' }],
      total: 2,
    });
    expect(names(await ok(server.app, 'GET', url, { token: normal.token, query: { page: 2, pageSize: 1 } }))).toEqual(['org_carol']);

    const missing = await call(server.app, 'GET', '/api/User/Organizations/Groups/999999/Members', { token: normal.token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('用户组不存在');
  });

  test('groups are listed by name', async () => {
    await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: 'B组' } });
    await ok(server.app, 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: 'A组' } });
    const listed = (await ok(server.app, 'GET', '/api/User/Organizations/Groups', { token: adminToken })).map((g: { name: string }) => g.name);
    expect(listed.indexOf('A组')).toBeLessThan(listed.indexOf('B组'));
  });
});
