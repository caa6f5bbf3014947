// 系统管理 for a whole organisation through the API: the 用户 page's filters, accounts made with a
// generated password, contact fields checked, locked accounts unlocked; department
// administrators confined to their subtree (the rights matrix, with the state read back after
// every refusal); feature switches and quotas inherited down the department tree and enforced
// (menus, uploads and copies over quota refused before any byte); the space overview; the
// upload policy; and the record of administrators' actions.
import { call, databaseKinds, HAN, login, ok, startServer, type TestServer } from './support/harness';
import { createTask, uploadFile } from './support/uploads';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

describe.each(databaseKinds())('people administration (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let rootId: string;
  const app = () => server.app;

  const expectError = (res: { status: number; body: any }, status: number, code: number) => {
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(res.body.result).toBeNull();
    expect(res.body.message).toMatch(HAN);
  };
  const newDept = async (name: string, parentId: string | null, token = adminToken) =>
    (await ok(app(), 'POST', '/api/Admin/Departments', { token, body: { name, parentId } })).id as string;
  let seq = 0;
  const newUser = async (deptId: string | null, extra: Record<string, unknown> = {}) => {
    const userName = `p${++seq}_${Math.random().toString(36).slice(2, 6)}`;
    const password = `People-Passw0rd-${seq}`;
    const { userId } = await ok(app(), 'POST', '/api/Admin/Users', {
      token: adminToken,
      body: { userName, nickName: `人员${seq}`, password, deptId, mustChangePassword: false, ...extra },
    });
    return { userId: userId as string, userName, password };
  };
  const signIn = async (u: { userName: string; password: string }) => (await login(app(), u.userName, u.password)).token as string;
  const user = (id: string, token = adminToken) => ok(app(), 'GET', `/api/Admin/Users/${id}`, { token });
  const names = (page: { data: { userName: string }[] }) => page.data.map((u) => u.userName).sort();

  let hq: string;
  let rd: string;
  let fe: string;
  let sales: string;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(app())).token;
    rootId = (await ok(app(), 'GET', '/api/Admin/Departments/Tree', { token: adminToken }))[0].id;
    hq = rootId;
    rd = await newDept('研发中心', hq);
    fe = await newDept('前端组', rd);
    sales = await newDept('销售部', hq);
  });
  afterAll(async () => {
    await server?.close();
  });

  test('an account made without a password gets a generated one, shown once, that must be changed at first sign-in', async () => {
    const made = await ok(app(), 'POST', '/api/Admin/Users', {
      token: adminToken,
      body: { userName: 'newcomer', nickName: '新同事', deptId: fe, mobile: '138 0013 8000', email: 'newcomer@example.com', employeeNo: 'E0001' },
    });
    expect(made.initialPassword).toMatch(/^\S{12,}$/);
    const first = await login(app(), 'newcomer', made.initialPassword);
    expect(first.passwordReset).toBe(true);
    expect(first.token ?? '').toBe('');
    const read = await user(made.userId);
    expect(read).toMatchObject({ userName: 'newcomer', deptName: '总部/研发中心/前端组', mobile: '13800138000', email: 'newcomer@example.com', employeeNo: 'E0001', source: 'local', mustChangePassword: true });
    // the password is never readable again
    expect(JSON.stringify(read)).not.toContain(made.initialPassword);
    // a reset without a password generates one too; the old one stops working
    const reset = await ok(app(), 'POST', `/api/Admin/Users/${made.userId}/ResetPassword`, { token: adminToken, body: {} });
    expect(reset.initialPassword).toMatch(/^\S{12,}$/);
    expect((await call(app(), 'POST', '/api/login', { body: { userName: 'newcomer', password: made.initialPassword, mode: 'password' } })).status).toBe(400);
    expect((await login(app(), 'newcomer', reset.initialPassword)).passwordReset).toBe(true);
  });

  test('bad contact fields and a taken employee number are refused in Chinese and nothing is made', async () => {
    const before = (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { pageSize: 1 } })).total;
    expectError(await call(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName: 'badphone', mobile: '12345' } }), 400, 40001);
    expectError(await call(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName: 'badmail', email: 'not-an-email' } }), 400, 40001);
    expectError(await call(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName: 'dupno', employeeNo: 'E0001' } }), 409, 40901);
    expectError(await call(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName: 'badrole', roles: ['king'] } }), 400, 40001);
    expect((await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { pageSize: 1 } })).total).toBe(before);
    const other = await newUser(sales, { employeeNo: 'E0002' });
    expectError(await call(app(), 'PUT', `/api/Admin/Users/${other.userId}`, { token: adminToken, body: { employeeNo: 'E0001' } }), 409, 40901);
    expect((await user(other.userId)).employeeNo).toBe('E0002');
  });

  test('the 用户 page filters by department subtree or the department alone, status, role, source and keyword', async () => {
    const a = await newUser(rd, { employeeNo: 'RD-77', mobile: '13900000077' });
    const b = await newUser(fe, { roles: ['flowAdmin'] });
    const c = await newUser(sales);
    await ok(app(), 'POST', `/api/Admin/Users/${c.userId}/Disable`, { token: adminToken });
    const list = (query: Record<string, string | number>) => ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { pageSize: 200, ...query } });

    const subtree = names(await list({ deptId: rd }));
    expect(subtree).toEqual(expect.arrayContaining([a.userName, b.userName]));
    expect(subtree).not.toContain(c.userName);
    const direct = names(await list({ deptId: rd, directOnly: 'true' }));
    expect(direct).toContain(a.userName);
    expect(direct).not.toContain(b.userName);
    expect(names(await list({ status: 'disabled' }))).toContain(c.userName);
    expect(names(await list({ status: 'enabled' }))).not.toContain(c.userName);
    const flowAdmins = names(await list({ role: 'flowAdmin' }));
    expect(flowAdmins).toContain(b.userName);
    expect(flowAdmins).not.toContain(a.userName);
    expect(names(await list({ keyword: 'rd-77' }))).toEqual([a.userName]);
    expect(names(await list({ keyword: '13900000077' }))).toEqual([a.userName]);
    expect((await list({ source: 'ldap' })).total).toBe(0);
    const page = await list({ deptId: fe });
    expect(page.data.find((u: { userName: string }) => u.userName === b.userName)).toMatchObject({ roles: ['flowAdmin'], deptName: '总部/研发中心/前端组' });
    // page through: two pages of one hold different people
    const p1 = await list({ deptId: rd, pageSize: 1, page: 1 });
    const p2 = await list({ deptId: rd, pageSize: 1, page: 2 });
    expect(p1.total).toBeGreaterThanOrEqual(2);
    expect(p1.data[0].userId).not.toBe(p2.data[0].userId);
  });

  test('an account locked by wrong passwords shows as locked and 解锁 lets it in at once', async () => {
    const u = await newUser(sales);
    for (let i = 0; i < 5; i++) await call(app(), 'POST', '/api/login', { body: { userName: u.userName, password: 'wrong-Passw0rd', mode: 'password' } });
    expect((await call(app(), 'POST', '/api/login', { body: { userName: u.userName, password: u.password, mode: 'password' } })).status).toBe(429);
    expect((await user(u.userId)).locked).toBe(true);
    expect(names(await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { status: 'locked' } }))).toEqual([u.userName]);
    await ok(app(), 'POST', `/api/Admin/Users/${u.userId}/Unlock`, { token: adminToken });
    expect((await user(u.userId)).locked).toBe(false);
    expect(await signIn(u)).toBeTruthy();
  });

  describe('a department administrator', () => {
    let deptAdmin: { userId: string; userName: string; password: string };
    let token: string;
    let inside: { userId: string; userName: string; password: string };
    let outside: { userId: string; userName: string; password: string };
    let sysAdmin: { userId: string; userName: string; password: string };

    beforeAll(async () => {
      deptAdmin = await newUser(rd, { roles: ['docAdmin'] });
      inside = await newUser(fe);
      outside = await newUser(sales);
      sysAdmin = await newUser(fe, { roles: ['admin'] });
      await ok(app(), 'PUT', `/api/Admin/Departments/${rd}/Admins`, { token: adminToken, body: { userIds: [deptAdmin.userId] } });
      token = await signIn(deptAdmin);
    });

    test('sees the subtree they manage, and signs in to 系统管理 as one', async () => {
      const info = await login(app(), deptAdmin.userName, deptAdmin.password);
      expect(info).toMatchObject({ isAdmin: false, isDeptAdmin: true });
      expect(await ok(app(), 'GET', '/api/Admin/Scope', { token })).toMatchObject({ system: false, roles: ['docAdmin'], departments: [{ id: rd, name: '研发中心' }] });
      const tree = await ok(app(), 'GET', '/api/Admin/Departments/Tree', { token });
      expect(tree.map((n: { id: string }) => n.id)).toEqual([rd]);
      const all = await ok(app(), 'GET', '/api/Admin/Users', { token, query: { pageSize: 200 } });
      expect(names(all)).toEqual(expect.arrayContaining([inside.userName, deptAdmin.userName]));
      expect(names(all)).not.toContain(outside.userName);
      expect(all.data.every((u: { deptName: string }) => u.deptName.startsWith('总部/研发中心'))).toBe(true);
    });

    test('cannot see or change anyone outside the subtree, nor a system administrator inside it; nothing changes', async () => {
      const before = await user(outside.userId);
      expectError(await call(app(), 'GET', '/api/Admin/Users', { token, query: { deptId: sales } }), 403, 40301);
      expectError(await call(app(), 'GET', `/api/Admin/Users/${outside.userId}`, { token }), 403, 40301);
      expectError(await call(app(), 'PUT', `/api/Admin/Users/${outside.userId}`, { token, body: { nickName: '被改了' } }), 403, 40301);
      expectError(await call(app(), 'POST', `/api/Admin/Users/${outside.userId}/Disable`, { token }), 403, 40301);
      expectError(await call(app(), 'POST', `/api/Admin/Users/${outside.userId}/ResetPassword`, { token, body: { password: 'Hijack-Passw0rd-1' } }), 403, 40301);
      expectError(await call(app(), 'POST', `/api/Admin/Users/${sysAdmin.userId}/Disable`, { token }), 403, 40301);
      // moving someone of theirs out of the subtree, or someone outside in
      expectError(await call(app(), 'PUT', `/api/Admin/Users/${inside.userId}`, { token, body: { deptId: sales } }), 403, 40301);
      expectError(await call(app(), 'POST', '/api/Admin/Users', { token, body: { userName: 'outsider_made', deptId: sales } }), 403, 40301);
      expect(await user(outside.userId)).toEqual(before);
      expect((await user(sysAdmin.userId)).disabled).toBe(false);
      expect((await user(inside.userId)).deptId).toBe(fe);
      expect(await signIn(outside)).toBeTruthy();
      expect((await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { keyword: 'outsider_made' } })).total).toBe(0);
    });

    test('cannot grant 系统管理员 or a role they do not hold, nor set quotas, nor administrators; may grant their own', async () => {
      for (const roles of [['admin'], ['flowAdmin'], ['auditAdmin']]) {
        expectError(await call(app(), 'PUT', `/api/Admin/Users/${inside.userId}`, { token, body: { roles } }), 403, 40301);
      }
      expectError(await call(app(), 'PUT', `/api/Admin/Users/${inside.userId}`, { token, body: { quota: 100 * GB } }), 403, 40301);
      expectError(await call(app(), 'PUT', `/api/Admin/Departments/${fe}/Admins`, { token, body: { userIds: [inside.userId] } }), 403, 40301);
      expectError(await call(app(), 'PUT', `/api/Admin/Departments/${fe}`, { token, body: { quota: 100 * GB } }), 403, 40301);
      expectError(await call(app(), 'PUT', '/api/Admin/FeaturePolicy', { token, body: { personalSpace: false, publicSpace: true, workflow: true, ferrySpaces: true } }), 403, 40301);
      const read = await user(inside.userId);
      expect(read).toMatchObject({ roles: [], quota: null });
      const updated = await ok(app(), 'PUT', `/api/Admin/Users/${inside.userId}`, { token, body: { roles: ['docAdmin'], nickName: '前端同事' } });
      expect(updated).toMatchObject({ roles: ['docAdmin'], nickName: '前端同事' });
    });

    test('manages departments below the top of the subtree only', async () => {
      const sub = await newDept('组件组', fe, token);
      await ok(app(), 'PUT', `/api/Admin/Departments/${sub}`, { token, body: { name: '组件库组', parentId: rd } });
      expectError(await call(app(), 'PUT', `/api/Admin/Departments/${rd}`, { token, body: { parentId: sales } }), 403, 40301);
      expectError(await call(app(), 'DELETE', `/api/Admin/Departments/${rd}`, { token }), 403, 40301);
      expectError(await call(app(), 'POST', '/api/Admin/Departments', { token, body: { name: '外部门', parentId: sales } }), 403, 40301);
      expectError(await call(app(), 'PUT', `/api/Admin/Departments/${sub}`, { token, body: { parentId: sales } }), 403, 40301);
      const tree = await ok(app(), 'GET', '/api/Admin/Departments/Tree', { token: adminToken });
      const flat: any[] = [];
      const walk = (n: any[]) => n.forEach((x) => (flat.push(x), walk(x.children)));
      walk(tree);
      expect(flat.find((d) => d.id === sub)).toMatchObject({ name: '组件库组', parentId: rd });
      expect(flat.find((d) => d.id === rd)).toMatchObject({ parentId: hq, admins: [{ userId: deptAdmin.userId }] });
      expect(flat.some((d) => d.name === '外部门')).toBe(false);
      await ok(app(), 'DELETE', `/api/Admin/Departments/${sub}`, { token });
    });

    test('their actions are recorded, for system and audit administrators to read', async () => {
      const made = await ok(app(), 'POST', '/api/Admin/Users', { token, body: { userName: 'made_by_dept_admin', deptId: fe } });
      expect(made.initialPassword).toBeTruthy();
      expectError(await call(app(), 'GET', '/api/Admin/Actions', { token }), 403, 40301);
      const auditor = await newUser(sales, { roles: ['auditAdmin'] });
      const log = await ok(app(), 'GET', '/api/Admin/Actions', { token: await signIn(auditor), query: { pageSize: 200 } });
      const mine = log.data.filter((a: { actorName: string }) => a.actorName === deptAdmin.userName);
      expect(mine.map((a: { action: string; targetName: string }) => `${a.action}:${a.targetName}`)).toEqual(
        expect.arrayContaining(['新建用户:made_by_dept_admin', `修改用户:${inside.userName}`, '新建部门:组件组', '删除部门:组件库组']),
      );
      // nothing of a password is recorded
      expect(JSON.stringify(log)).not.toContain(made.initialPassword);
    });
  });

  test('a normal user gets 403 on every administration call, and nothing changes', async () => {
    const plain = await newUser(sales);
    const token = await signIn(plain);
    const target = await newUser(sales);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/Admin/Scope'],
      ['GET', '/api/Admin/Users'],
      ['GET', `/api/Admin/Users/${target.userId}`],
      ['POST', '/api/Admin/Users', { userName: 'sneaky' }],
      ['PUT', `/api/Admin/Users/${target.userId}`, { nickName: 'x' }],
      ['POST', `/api/Admin/Users/${target.userId}/Disable`],
      ['POST', `/api/Admin/Users/${target.userId}/Unlock`],
      ['POST', `/api/Admin/Users/${target.userId}/ResetPassword`, {}],
      ['POST', `/api/Admin/Users/${target.userId}/RevokeSessions`],
      ['GET', `/api/Admin/Users/${target.userId}/FeaturePolicy`],
      ['PUT', `/api/Admin/Users/${target.userId}/FeaturePolicy`, { personalSpace: false, publicSpace: null, workflow: null, ferrySpaces: null }],
      ['GET', '/api/Admin/Departments/Tree'],
      ['POST', '/api/Admin/Departments', { name: '偷建', parentId: hq }],
      ['PUT', `/api/Admin/Departments/${sales}`, { name: '偷改' }],
      ['DELETE', `/api/Admin/Departments/${sales}`],
      ['PUT', `/api/Admin/Departments/${sales}/Admins`, { userIds: [plain.userId] }],
      ['PUT', `/api/Admin/Departments/${sales}/FeaturePolicy`, { personalSpace: false, publicSpace: null, workflow: null, ferrySpaces: null }],
      ['GET', '/api/Admin/FeaturePolicy'],
      ['GET', '/api/Admin/Quota/Overview'],
      ['GET', '/api/Admin/UploadPolicy'],
      ['GET', '/api/Admin/Actions'],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(app(), method as 'GET', url, { token, ...(body !== undefined ? { body } : {}) });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 403, code: 40301 });
    }
    expect(await user(target.userId)).toMatchObject({ nickName: expect.stringMatching(/^人员/), disabled: false });
    expect(await signIn(target)).toBeTruthy();
    const tree = JSON.stringify(await ok(app(), 'GET', '/api/Admin/Departments/Tree', { token: adminToken }));
    expect(tree).not.toMatch(/偷建|偷改/);
    expect(tree).toContain('销售部');
  });

  test('feature switches inherit down the tree; a person’s own setting wins; menus follow', async () => {
    const lab = await newDept('实验室', rd);
    const u = await newUser(lab);
    const v = await newUser(lab);
    await ok(app(), 'PUT', `/api/Admin/Departments/${rd}/FeaturePolicy`, { token: adminToken, body: { personalSpace: null, publicSpace: null, workflow: false, ferrySpaces: false } });
    await ok(app(), 'PUT', `/api/Admin/Departments/${lab}/FeaturePolicy`, { token: adminToken, body: { personalSpace: null, publicSpace: null, workflow: null, ferrySpaces: true } });
    await ok(app(), 'PUT', `/api/Admin/Users/${v.userId}/FeaturePolicy`, { token: adminToken, body: { personalSpace: false, publicSpace: null, workflow: true, ferrySpaces: null } });

    const ofU = await ok(app(), 'GET', `/api/Admin/Users/${u.userId}/FeaturePolicy`, { token: adminToken });
    expect(ofU.effective).toEqual({ personalSpace: true, publicSpace: true, workflow: false, ferrySpaces: true });
    expect(ofU.source).toEqual({ personalSpace: '全局', publicSpace: '全局', workflow: '部门：研发中心', ferrySpaces: '部门：实验室' });
    const ofV = await ok(app(), 'GET', `/api/Admin/Users/${v.userId}/FeaturePolicy`, { token: adminToken });
    expect(ofV.effective).toEqual({ personalSpace: false, publicSpace: true, workflow: true, ferrySpaces: true });
    expect(ofV.source.personalSpace).toBe('个人');

    const uToken = await signIn(u);
    expect(await ok(app(), 'GET', '/api/User/GlobalPolicies/FeaturePolicy', { token: uToken })).toEqual(ofU.effective);
    const home = await ok(app(), 'GET', '/api/User/Home', { token: uToken });
    expect(home.menus.find((m: { name: string }) => m.name === 'workflow').isShow).toBe(false);
    // the switch is enforced, not only hidden
    expect((await call(app(), 'POST', '/api/Workflow/Instances', { token: uToken, body: { definitionId: '1', title: 't', form: {}, fileIds: [] } })).status).toBe(403);
    const vToken = await signIn(v);
    expect(await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: vToken })).toEqual([]);
    // people elsewhere keep the global policy
    const w = await newUser(sales);
    expect(await ok(app(), 'GET', '/api/User/GlobalPolicies/FeaturePolicy', { token: await signIn(w) })).toEqual({ personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: true });
    await ok(app(), 'PUT', `/api/Admin/Departments/${rd}/FeaturePolicy`, { token: adminToken, body: { personalSpace: null, publicSpace: null, workflow: null, ferrySpaces: null } });
  });

  test('quotas: the person’s own, else the nearest department’s, else the default; uploads and copies over it are refused before any byte', async () => {
    const team = await newDept('配额组', sales);
    await ok(app(), 'PUT', `/api/Admin/Departments/${sales}`, { token: adminToken, body: { quota: 3 * MB } });
    const u = await newUser(team);
    const big = await newUser(team, { quota: 10 * GB });
    const uToken = await signIn(u);
    expect(await ok(app(), 'GET', '/api/Account/PersonalRootPolicy', { token: uToken })).toEqual({ quota: 3 * MB, unlimited: false });
    expect(await ok(app(), 'GET', '/api/Account/PersonalRootPolicy', { token: await signIn(big) })).toEqual({ quota: 10 * GB, unlimited: false });
    expect((await user(u.userId)).effectiveQuota).toBe(3 * MB);

    const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: uToken }))[0];
    const res = await createTask(app(), { token: uToken }, { folderId: root.id, fileName: 'big.bin', size: 4 * MB });
    expectError(res, 413, 41301);
    const two = Buffer.alloc(2 * MB, 7);
    await uploadFile(app(), { token: uToken }, root.id, 'two.bin', two, 5 * MB);
    const folder = await ok(app(), 'POST', '/api/User/Files/CreateFile', { token: uToken, body: { parentId: root.id, name: '子目录', type: 'folder' } });
    const items = await ok(app(), 'GET', `/api/User/Folders/${root.id}/Items`, { token: uToken, query: { pageSize: 50 } });
    const file = items.items.data.find((i: { name: string }) => i.name === 'two.bin');
    const copied = await call(app(), 'POST', '/api/User/Files/Copy', { token: uToken, body: { ids: [file.id], targetId: folder.id } });
    expectError(copied, 413, 41301);
    expect((await ok(app(), 'GET', `/api/User/Folders/${folder.id}/Items`, { token: uToken })).items.total).toBe(0);
    expect((await ok(app(), 'GET', '/api/Account/PersonalRootUsed', { token: uToken })).used).toBe(2 * MB);
    // raised by the administrator: the same copy goes through
    await ok(app(), 'PUT', `/api/Admin/Users/${u.userId}`, { token: adminToken, body: { quota: 5 * MB } });
    await ok(app(), 'POST', '/api/User/Files/Copy', { token: uToken, body: { ids: [file.id], targetId: folder.id } });
    expect((await ok(app(), 'GET', '/api/Account/PersonalRootUsed', { token: uToken })).used).toBe(4 * MB);

    const overview = await ok(app(), 'GET', '/api/Admin/Quota/Overview', { token: adminToken });
    expect(overview.totals.personal).toBeGreaterThanOrEqual(4 * MB);
    // the copy shares its content: deduplication saves its size
    expect(overview.dedup.saved).toBeGreaterThanOrEqual(2 * MB);
    expect(overview.largestUsers[0]).toMatchObject({ userId: u.userId, used: 4 * MB, quota: 5 * MB });
    expect(overview.largestFolders).toEqual(expect.arrayContaining([expect.objectContaining({ id: folder.id, name: '子目录', space: 'personal', size: 2 * MB })]));
  });

  test('the upload policy: maximum size and count reach the uploader, and rapid upload can be turned off', async () => {
    const policy = await ok(app(), 'GET', '/api/Admin/UploadPolicy', { token: adminToken });
    expect(policy).toMatchObject({ rapidUpload: true, maxFileSize: 5 * GB, maxFileCount: 500 });
    await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { ...policy, rapidUpload: false, maxFileSize: 10 * MB, maxFileCount: 20 } });
    const u = await newUser(hq);
    const uToken = await signIn(u);
    expect(await ok(app(), 'GET', '/api/User/FileTransfer/FileUploadOptions', { token: uToken })).toMatchObject({ rapidUpload: false, maxFileSize: 10 * MB, maxFileCount: 20 });
    const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: uToken }))[0];
    const res = await createTask(app(), { token: uToken }, { folderId: root.id, fileName: 'big.bin', size: 10 * MB });
    expectError(res, 413, 41302);
    expect(res.body.message).toContain('10 MB');
    const small = await createTask(app(), { token: uToken }, { folderId: root.id, fileName: 'small.bin', size: 9 * MB });
    expect(small.body).toMatchObject({ code: 200, result: { rapidPossible: false } });
    expectError(await call(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { ...policy, maxFileSize: 10 } }), 400, 40001);
    await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: policy });
  });
});
