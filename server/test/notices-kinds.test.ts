// 云文档's remaining notice kinds on SQLite and PostgreSQL, each made by its action and told to
// the people concerned only: uploads through an external link (one notice for a batch), the
// ferry between two zones (waiting for approval and resolved when decided, blocked, delivered,
// downloaded, arrived), registrations (to the system administrators, resolved when decided),
// the quota warning (once per crossing of 90 %), password expiry (once per expiry, leased job),
// a TOTP reset, and 系统公告 (to a department subtree; administrators only; 10,000 people).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, createUser, databaseKinds, HAN, login, ok, startServer, type TestServer, type TestUser } from './support/harness';
import { makeFile, makeFolder, raw } from './support/content';
import { uploadFile } from './support/uploads';

const SECRET = 'notice-kinds-ferry-secret-0123456789';
const DAY = 24 * 3600_000;

describe.each(databaseKinds())('notice kinds (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let adminId: number;

  beforeAll(async () => {
    server = await startServer(kind);
    // the tests drive the dispatcher and the password job themselves
    await server.app.services.dispatcher.stop();
    await server.app.services.passwordExpiry.stop();
    const session = await login(server.app);
    adminToken = session.token;
    adminId = Number((await server.app.db.selectFrom('users').select('id').where('user_name', '=', 'admin').executeTakeFirstOrThrow()).id);
  });
  afterAll(async () => server?.close());

  const app = () => server.app;
  /** every due event (at `now`, later to take delayed ones) */
  const dispatch = async (now = Date.now()) => {
    let n = 0;
    for (let got = -1; got !== 0; ) n += got = await app().services.dispatcher.runOnce(500, now);
    return n;
  };
  async function person(label: string, deptId: string | null = null): Promise<TestUser> {
    const u = await createUser(app(), adminToken, { nickName: `${label}${crypto.randomUUID().slice(0, 4)}` });
    if (deptId) await ok(app(), 'PUT', `/api/Admin/Users/${u.userId}`, { token: adminToken, body: { deptId } });
    const session = await login(app(), u.userName, u.password);
    return { ...u, token: session.token, jwtId: session.jwtId };
  }
  const notices = (token: string, query: Record<string, string | number | boolean> = {}) =>
    ok(app(), 'GET', '/api/Notices', { token, query: { page: 1, pageSize: 100, ...query } });
  const mine = async (token: string, noticeKind: string) => (await notices(token, { kind: noticeKind })).data as any[];
  const rootOf = async (token: string) => (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id as string;

  test('link.uploaded: files uploaded through a level-3 external link make one notice to the share’s owner, due after a minute; nobody else is told', async () => {
    const [owner, outsider] = await Promise.all(['外链主人', '路人'].map((l) => person(l)));
    const folder = await makeFolder(app(), owner.token, await rootOf(owner.token), '收件箱');
    const link = await ok(app(), 'POST', '/api/User/Shares', {
      token: owner.token,
      body: { fileIds: [folder.id], shareType: 2, level: 3, expireAt: null, accessKey: '', downloadLimit: null },
    });
    const visitor = { shareId: link.shareId as string, accessKey: link.accessKey as string };
    const chunkSize = app().services.uploads.limits.chunkSize;
    const uploaded = [];
    for (const name of ['报价单.xlsx', '合同.pdf', '附件.zip', '说明.txt']) uploaded.push(await uploadFile(app(), visitor, folder.id, name, Buffer.from(`${name} 的内容`), chunkSize));
    const first = await app().db.selectFrom('items').select('id_path').where('id', '=', Number(uploaded[0].id)).executeTakeFirstOrThrow();

    // not before the minute is up: more files of the batch may come
    expect(await dispatch()).toBe(0);
    await dispatch(Date.now() + 2 * 60_000);
    const got = await mine(owner.token, 'link.uploaded');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      title: '外链收到 4 个上传的文件',
      body: '有人通过你的外链（上传和编辑）上传了 “报价单.xlsx”、“合同.pdf”、“附件.zip”等 4 个文件，保存在“收件箱”中',
      link: `/file/personal/${first.id_path.split('/').slice(0, -1).join('/')}?focus=${uploaded[0].id}`,
      resolved: false,
    });
    expect(got[0].title).toMatch(HAN);
    expect((await notices(outsider.token)).total).toBe(0);
    expect(await app().db.selectFrom('events').select('id').where('kind', '=', 'link.uploaded').where('dispatched_at', 'is', null).execute()).toEqual([]);

    // a later single upload: its own notice
    const one = await uploadFile(app(), visitor, folder.id, '补充.docx', Buffer.from('补充'), chunkSize);
    await dispatch(Date.now() + 2 * 60_000);
    const again = await mine(owner.token, 'link.uploaded');
    expect(again).toHaveLength(2);
    expect(again[0]).toMatchObject({ title: '外链收到上传：“补充.docx”', link: expect.stringContaining(`?focus=${one.id}`) });
    // the owner's own uploads tell nobody
    await uploadFile(app(), { token: owner.token }, folder.id, '自己传的.txt', Buffer.from('x'), chunkSize);
    await dispatch(Date.now() + 2 * 60_000);
    expect(await mine(owner.token, 'link.uploaded')).toHaveLength(2);
  });

  test('registration.waiting: every system administrator is asked, nobody else; a decision resolves them all', async () => {
    const other = await person('第二管理员');
    await ok(app(), 'PUT', `/api/Admin/Users/${other.userId}`, { token: adminToken, body: { roles: ['admin'] } });
    const plain = await person('普通人');
    const file = async (n: number) => {
      const phone = `137${String(Date.now() % 1e6).padStart(6, '0')}${String(n).padStart(2, '0')}`;
      await call(app(), 'POST', '/api/User/Register/SendVerifyCode', { query: { phone }, remoteAddress: `10.88.${n}.1` });
      const sms = await ok(app(), 'GET', '/api/Admin/Sms', { token: adminToken, query: { phone } });
      const code = /验证码是 (\d{6})/.exec(sms[0].text)![1];
      return ok(app(), 'POST', '/api/User/Register', {
        body: { phone, code, userName: `reg_${n}_${kind}_${crypto.randomUUID().slice(0, 4)}`, nickName: `申请人${n}`, password: 'Applicant-Passw0rd-1', department: '市场部', reason: '新入职' },
        remoteAddress: `10.88.${n}.1`,
      });
    };
    const first = await file(1);
    const second = await file(2);
    await dispatch();
    for (const token of [adminToken, other.token]) {
      const got = await mine(token, 'registration.waiting');
      expect(got.map((n: any) => n.title).sort()).toEqual([`注册申请待审批：申请人1（${first.userName}）`, `注册申请待审批：申请人2（${second.userName}）`]);
      expect(got[0]).toMatchObject({ body: '部门：市场部；申请理由：新入职。请在系统管理的“注册申请”中批准或驳回', link: '/admin?tab=registrations', resolved: false });
    }
    expect((await notices(plain.token)).total).toBe(0);

    await ok(app(), 'POST', `/api/Admin/Registrations/${first.id}/Approve`, { token: adminToken, body: {} });
    await ok(app(), 'POST', `/api/Admin/Registrations/${second.id}/Reject`, { token: other.token, body: { reason: '非本公司员工' } });
    await dispatch();
    const state = async (token: string) =>
      Object.fromEntries((await mine(token, 'registration.waiting')).map((n: any) => [n.title.replace(/（.*$/, '').replace('注册申请待审批：', ''), [n.resolved, n.resolution]]));
    expect(await state(adminToken)).toEqual({ 申请人1: [true, '已批准'], 申请人2: [true, `已由${other.nickName}驳回`] });
    expect(await state(other.token)).toEqual({ 申请人1: [true, '已由系统管理员批准'], 申请人2: [true, '已驳回'] });
  });

  test('quota.warning: once when the personal space reaches 90 %, not again above it; again after it dropped below and crossed once more (upload and copy)', async () => {
    const u = await person('配额');
    const other = await person('旁人');
    const KB = 1024;
    await ok(app(), 'PUT', `/api/Admin/Users/${u.userId}`, { token: adminToken, body: { quota: 100 * KB } });
    const root = await rootOf(u.token);
    const chunkSize = app().services.uploads.limits.chunkSize;
    const up = (name: string, size: number) => uploadFile(app(), { token: u.token }, root, name, crypto.randomBytes(size), chunkSize);

    await up('一半.bin', 50 * KB);
    await dispatch();
    expect(await mine(u.token, 'quota.warning')).toHaveLength(0);
    const big = await up('九成.bin', 42 * KB); // 92 KB of 100
    await dispatch();
    let got = await mine(u.token, 'quota.warning');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ title: '个人空间已使用 92%', link: '/file/personal', resolved: false });
    expect(got[0].body).toMatch(/^已用 92 KB，共 100 KB。/);
    await up('再多一点.bin', 2 * KB);
    await dispatch();
    expect(await mine(u.token, 'quota.warning')).toHaveLength(1);
    expect(await app().db.selectFrom('notice_marks').select('kind').where('user_id', '=', Number(u.userId)).execute()).toEqual([{ kind: 'quota.warning' }]);

    // deleted and purged: 52 KB; a copy of the 50 KB file crosses again (102 > 100 is refused, so a smaller one)
    await ok(app(), 'DELETE', '/api/User/Files', { token: u.token, body: [big.id] });
    await ok(app(), 'DELETE', '/api/User/Recycle', { token: u.token, body: [big.id] });
    const small = await up('四十.bin', 40 * KB); // 92 KB again, from 52: a new crossing
    await dispatch();
    got = await mine(u.token, 'quota.warning');
    expect(got).toHaveLength(2);
    expect(got[0].title).toBe('个人空间已使用 92%');
    // below again (purged: 52 KB, then a 20 KB file: 72 KB), and a copy into the space crosses (92 KB)
    await ok(app(), 'DELETE', '/api/User/Files', { token: u.token, body: [small.id] });
    await ok(app(), 'DELETE', '/api/User/Recycle', { token: u.token, body: [small.id] });
    const sub = await makeFolder(app(), u.token, root, '副本');
    const piece = await makeFile(app(), u.token, u.userId, root, '小.bin', crypto.randomBytes(20 * KB));
    await ok(app(), 'POST', '/api/User/Files/Copy', { token: u.token, body: { ids: [piece.id], targetId: sub.id } });
    await dispatch();
    expect(await mine(u.token, 'quota.warning')).toHaveLength(3);
    expect((await notices(other.token)).total).toBe(0);
  });

  test('password.expiring: the leased job tells a person within 7 days of expiry once; a new password is a new expiry; nobody else', async () => {
    const policy = await ok(app(), 'GET', '/api/Login/PasswordPolicy');
    await ok(app(), 'PUT', '/api/Admin/PasswordPolicy', { token: adminToken, body: { ...policy, expiryDays: 30 } });
    try {
      const [soon, later, gone] = await Promise.all(['将过期', '还早', '已停用'].map((l) => person(l)));
      const now = Date.now();
      const setChanged = (u: TestUser, at: number) => app().db.updateTable('users').set({ password_changed_at: at }).where('id', '=', Number(u.userId)).execute();
      await setChanged(soon, now - 25 * DAY);
      await setChanged(later, now - 10 * DAY);
      await setChanged(gone, now - 25 * DAY);
      await ok(app(), 'POST', `/api/Admin/Users/${gone.userId}/Disable`, { token: adminToken });
      const job = app().services.passwordExpiry;
      expect(await job.runOnce(now)).toBe(1);
      // a second look (any instance: the mark is in the database) tells nobody again
      expect(await job.runOnce(now + 3600_000)).toBe(0);
      await dispatch();
      const got = await mine(soon.token, 'password.expiring');
      expect(got).toHaveLength(1);
      expect(got[0].title).toMatch(/^密码将于 \d{4}-\d\d-\d\d \d\d:\d\d 过期$/);
      expect(got[0]).toMatchObject({ body: '请在此之前到个人设置中修改密码；过期后登录时须先设置新密码', link: '/account' });
      expect((await notices(later.token)).total).toBe(0);
      expect(await app().db.selectFrom('notices').select('id').where('user_id', '=', Number(gone.userId)).execute()).toEqual([]);

      // changed, and that one expires soon too: told again, once
      await setChanged(soon, now - 24 * DAY);
      expect(await job.runOnce(now)).toBe(1);
      expect(await job.runOnce(now)).toBe(0);
      await dispatch();
      expect(await mine(soon.token, 'password.expiring')).toHaveLength(2);
    } finally {
      await ok(app(), 'PUT', '/api/Admin/PasswordPolicy', { token: adminToken, body: { ...policy, expiryDays: 0 } });
    }
  });

  test('totp.reset: an administrator’s reset tells the person, nobody else', async () => {
    const [u, other] = await Promise.all(['口令', '旁人'].map((l) => person(l)));
    await ok(app(), 'DELETE', `/api/Admin/Users/${u.userId}/Totp`, { token: adminToken });
    await dispatch();
    const got = await mine(u.token, 'totp.reset');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ title: '你的动态口令已被重置', link: '/account' });
    expect(got[0].body).toMatch(/^管理员 系统管理员 重置了你的动态口令/);
    expect((await notices(other.token)).total).toBe(0);
    expect(await mine(adminToken, 'totp.reset')).toHaveLength(0);
  });

  test('系统公告 to a department: its people and those of the departments below, active, get the whole text; others do not; only system administrators send or list', async () => {
    const tag = crypto.randomUUID().slice(0, 6);
    const dept = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: `公告部-${tag}` } });
    const team = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '下级组', parentId: dept.id } });
    const elsewhere = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: `别的部门-${tag}` } });
    const inDept = await person('部门成员', dept.id);
    const inTeam = await person('下级成员', team.id);
    const outside = await person('别部门', elsewhere.id);
    const noDept = await person('无部门');
    const disabled = await person('停用', dept.id);
    await ok(app(), 'POST', `/api/Admin/Users/${disabled.userId}/Disable`, { token: adminToken });

    const body = '各位同事：\n本周六 9:00–12:00 机房停电检修，期间云文档暂停服务。\n请提前保存工作。';
    const forbidden = await call(app(), 'POST', '/api/Admin/Announcements', { token: inDept.token, body: { title: '越权', body: 'x', scope: 'all' } });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 40301]);
    expect(forbidden.body.message).toMatch(HAN);
    expect((await call(app(), 'GET', '/api/Admin/Announcements', { token: inDept.token })).status).toBe(403);
    const tooLong = await call(app(), 'POST', '/api/Admin/Announcements', { token: adminToken, body: { title: '长'.repeat(101), body, scope: 'all' } });
    expect([tooLong.status, tooLong.body.message]).toEqual([400, '公告标题不能超过 100 个字符']);
    const bodyTooLong = await call(app(), 'POST', '/api/Admin/Announcements', { token: adminToken, body: { title: '标题', body: '文'.repeat(2001), scope: 'all' } });
    expect([bodyTooLong.status, bodyTooLong.body.message]).toEqual([400, '公告内容不能超过 2000 个字符']);
    const noDepartments = await call(app(), 'POST', '/api/Admin/Announcements', { token: adminToken, body: { title: '标题', body, scope: 'departments', departmentIds: [] } });
    expect([noDepartments.status, noDepartments.body.message]).toEqual([400, '请选择接收公告的部门']);

    const sent = await ok(app(), 'POST', '/api/Admin/Announcements', {
      token: adminToken,
      body: { title: ' 机房停电通知 ', body, scope: 'departments', departmentIds: [dept.id] },
    });
    expect(sent).toMatchObject({ title: '机房停电通知', body, scope: 'departments', departments: [{ id: dept.id, name: `公告部-${tag}` }], senderName: '系统管理员', recipients: 2, sentAt: '' });
    await dispatch();
    for (const u of [inDept, inTeam]) {
      const got = await mine(u.token, 'announcement');
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ title: '系统公告：机房停电通知', body, link: '', resolved: false, read: false });
    }
    for (const u of [outside, noDept]) expect((await notices(u.token)).total).toBe(0);
    expect(await mine(adminToken, 'announcement')).toHaveLength(0);
    expect(await app().db.selectFrom('notices').select('id').where('user_id', '=', Number(disabled.userId)).execute()).toEqual([]);

    const list = await ok(app(), 'GET', '/api/Admin/Announcements', { token: adminToken, query: { page: 1, pageSize: 10 } });
    expect(list.total).toBeGreaterThanOrEqual(1);
    expect(list.data[0]).toMatchObject({ id: sent.id, recipients: 2, sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    const action = await app().db.selectFrom('admin_actions').selectAll().where('action', '=', '发送系统公告').where('target_id', '=', sent.id).executeTakeFirstOrThrow();
    expect(action).toMatchObject({ target_name: '机房停电通知', detail: '1 个部门及其下级部门（2 人）' });
  });

  test('系统公告 to everyone, 10,000 people: all the notices are made within seconds by the dispatcher’s own rounds', async () => {
    const now = Date.now();
    const before = Number((await app().db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('disabled', '=', 0).executeTakeFirstOrThrow()).n);
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      const name = `crowd_${i}_${now}`;
      const flags = { is_admin: 0, is_doc_admin: 0, is_flow_admin: 0, is_tag_admin: 0, is_ldap_user: 0, allow_backend_login: 0, allow_repository_login: 0, disabled: 0 } as const;
      return { user_name: name, user_name_key: name, nick_name: `众人${i}`, nick_name_key: `众人${i}`, password_hash: '', dept_id: null, avatar: '', last_login_at: null, ...flags, created_at: now, updated_at: now };
    });
    for (let i = 0; i < rows.length; i += 500) await app().db.insertInto('users').values(rows.slice(i, i + 500)).execute();
    const expected = before + 10_000;

    const dispatcher = app().services.dispatcher;
    dispatcher.start(1000);
    try {
      const t0 = Date.now();
      const sent = await ok(app(), 'POST', '/api/Admin/Announcements', { token: adminToken, body: { title: '全员通知', body: '年会将于下周五举行。', scope: 'all' } });
      expect(sent.recipients).toBe(expected);
      let made = 0;
      while (Date.now() - t0 < 120_000) {
        const row = await app().db.selectFrom('announcements').select(['sent_at', 'recipients']).where('id', '=', Number(sent.id)).executeTakeFirstOrThrow();
        if (row.sent_at !== null) {
          made = Number(row.recipients);
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      const elapsed = Date.now() - t0;
      const count = Number(
        (await app().db.selectFrom('notices').select((eb) => eb.fn.countAll<number>().as('n')).where('object_type', '=', 'announcement').where('object_id', '=', sent.id).executeTakeFirstOrThrow()).n,
      );
      // eslint-disable-next-line no-console
      console.log(`[${kind}] 系统公告 to ${count} people: all notices made ${elapsed} ms after the request`);
      expect(made).toBe(expected);
      expect(count).toBe(expected);
    } finally {
      await dispatcher.stop();
    }
  }, 180_000);
});

describe.each(databaseKinds())('ferry notices between two zones (%s)', (kind) => {
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-notice-spool-'));
  const toOuter = path.join(spool, 'to-outer');
  const toInner = path.join(spool, 'to-inner');
  let inner: TestServer;
  let outer: TestServer;
  let innerAdmin: string;
  let outerAdmin: string;
  let alice: { userId: string; token: string; root: string };
  let bob: { userId: string; token: string; userName: string };
  let carol: { token: string };

  beforeAll(async () => {
    inner = await startServer(kind, { env: { FERRY_ZONE: '内网', FERRY_SECRET: SECRET, FERRY_PEERS: `外网=spool:${toOuter}`, FERRY_SPOOL_IN: toInner, FERRY_POLL_MS: '3600000' } });
    outer = await startServer(kind, { env: { MODE: 'simple', FERRY_ZONE: '外网', FERRY_SECRET: SECRET, FERRY_PEERS: `内网=spool:${toInner}`, FERRY_SPOOL_IN: toOuter, FERRY_POLL_MS: '3600000' } });
    for (const s of [inner, outer]) await s.app.services.dispatcher.stop();
    innerAdmin = (await login(inner.app)).token;
    outerAdmin = (await login(outer.app)).token;
    const a = await createUser(inner.app, innerAdmin, { nickName: '爱丽丝' });
    const aToken = (await login(inner.app, a.userName, a.password)).token;
    alice = { userId: a.userId, token: aToken, root: (await ok(inner.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: aToken }))[0].id };
    const b = await createUser(outer.app, outerAdmin, { nickName: '鲍勃', userName: `bob_n_${kind}` });
    bob = { userId: b.userId, userName: b.userName, token: (await login(outer.app, b.userName, b.password)).token };
    const c = await createUser(inner.app, innerAdmin, { nickName: '卡罗尔' });
    carol = { token: (await login(inner.app, c.userName, c.password)).token };
  });
  afterAll(async () => {
    await inner?.close();
    await outer?.close();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  const dispatch = async (s: TestServer) => {
    while ((await s.app.services.dispatcher.runOnce(500)) > 0);
  };
  const noticesOf = async (s: TestServer, token: string, noticeKind?: string) =>
    (await ok(s.app, 'GET', '/api/Notices', { token, query: { page: 1, pageSize: 100, ...(noticeKind ? { kind: noticeKind } : {}) } })).data as any[];
  const send = async (name: string, text: string) => {
    const f = await makeFile(inner.app, alice.token, alice.userId, alice.root, name, text);
    return ok(inner.app, 'POST', '/api/Ferry/FerryTasks', { token: alice.token, body: { fileIds: [f.id], targetZone: '外网', recipients: [bob.userName], reason: '项目资料交换' } });
  };
  const roundTrip = async () => {
    await outer.app.services.ferryInbox.importSpools();
    await outer.app.services.ferryInbox.sendReceipts();
    await inner.app.services.ferryInbox.importSpools();
  };

  test('waiting for approval (resolved when decided), arrived for the recipient over there, delivered and downloaded for the sender; nobody else is told', async () => {
    const created = await send('清单.txt', '第一季度对外交付清单');
    expect(created.status).toBe('pending');
    const task = await ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${created.taskId}`, { token: alice.token });
    await dispatch(inner);
    const waiting = await noticesOf(inner, innerAdmin, 'ferry.waiting');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({
      title: `待审批：文件摆渡 ${task.number}（内网 → 外网）`,
      body: '爱丽丝 的文件摆渡申请等待你审批，审批通过后文件才会发出',
      link: `/workflow/informationDetails?id=${created.instanceId}`,
      resolved: false,
    });
    // a ferry approval is not also an approval.waiting
    expect((await noticesOf(inner, innerAdmin, 'approval.waiting')).filter((n) => n.link.endsWith(`=${created.instanceId}`))).toEqual([]);
    expect(await noticesOf(inner, carol.token)).toEqual([]);

    await ok(inner.app, 'POST', `/api/Workflow/Instances/${created.instanceId}/Approve`, { token: innerAdmin, body: { comment: '同意' } });
    await dispatch(inner);
    expect((await noticesOf(inner, innerAdmin, 'ferry.waiting'))[0]).toMatchObject({ resolved: true, resolution: '已处理' });

    // over there: the recipient is told, in the simple mode's page
    await outer.app.services.ferryInbox.importSpools();
    await dispatch(outer);
    const arrived = await noticesOf(outer, bob.token, 'ferry.arrived');
    expect(arrived).toHaveLength(1);
    expect(arrived[0]).toMatchObject({ title: `收到摆渡文件：${task.number}`, body: '爱丽丝（内网）发来 “清单.txt”。摆渡原因：项目资料交换', link: '/ferry/file?tab=received' });
    expect(await noticesOf(outer, outerAdmin, 'ferry.arrived')).toEqual([]);

    // back here: delivered, then downloaded
    await outer.app.services.ferryInbox.sendReceipts();
    await inner.app.services.ferryInbox.importSpools();
    await dispatch(inner);
    const delivered = await noticesOf(inner, alice.token, 'ferry.delivered');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ title: `摆渡已送达：${task.number}`, body: '文件已送达外网，接收方校验一致，等待接收人下载', link: '/swapSpace/myFerry/completed' });
    const inbox = await ok(outer.app, 'GET', '/api/Ferry/Inbox', { token: bob.token, query: { page: 1, pageSize: 10 } });
    expect((await raw(outer.app, 'GET', `/api/Ferry/Inbox/${inbox.data[0].id}/Download?index=0`, { token: bob.token })).status).toBe(200);
    await roundTrip();
    await dispatch(inner);
    const downloaded = await noticesOf(inner, alice.token, 'ferry.downloaded');
    expect(downloaded).toHaveLength(1);
    expect(downloaded[0]).toMatchObject({ title: `摆渡文件已下载：${task.number}`, body: '鲍勃 已在外网下载了你摆渡的文件', link: '/swapSpace/myFerry/completed' });
    expect(await noticesOf(inner, carol.token)).toEqual([]);
    expect(await noticesOf(inner, innerAdmin, 'ferry.delivered')).toEqual([]);
  });

  test('blocked by the keyword check: the sender is told, no approver is asked; a rejected or cancelled approval resolves the waiting notice', async () => {
    const current = await ok(inner.app, 'GET', '/api/Ferry/Settings', { token: innerAdmin });
    const { zone: _z, peers: _p, antivirusEngine: _a, antivirusMissing: _m, secretConfigured: _s, knownTypes: _k, ...settings } = current;
    await ok(inner.app, 'PUT', '/api/Ferry/Settings', { token: innerAdmin, body: { ...settings, keywordCheck: true, keywords: ['绝密'] } });
    const blocked = await send('方案.txt', '本文件为绝密资料');
    expect(blocked.status).toBe('blocked');
    const task = await ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${blocked.taskId}`, { token: alice.token });
    await dispatch(inner);
    const got = await noticesOf(inner, alice.token, 'ferry.blocked');
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ title: `摆渡已拦截：${task.number}`, link: '/swapSpace/myFerry/rejected' });
    expect(got[0].body).toMatch(/^发往外网的文件未通过检查，未进入审批：“方案\.txt”包含敏感词：绝密/);
    expect(await noticesOf(inner, innerAdmin, 'ferry.blocked')).toEqual([]);
    await ok(inner.app, 'PUT', '/api/Ferry/Settings', { token: innerAdmin, body: { ...settings, keywordCheck: false } });

    const rejected = await send('申请表.txt', '普通内容');
    const cancelled = await send('报告.txt', '普通内容二');
    await dispatch(inner);
    await ok(inner.app, 'POST', `/api/Workflow/Instances/${rejected.instanceId}/Reject`, { token: innerAdmin, body: { comment: '不必发送' } });
    await ok(inner.app, 'POST', `/api/Ferry/FerryTasks/${cancelled.taskId}/Cancel`, { token: alice.token });
    await dispatch(inner);
    const byLink = async (instanceId: string) => (await noticesOf(inner, innerAdmin, 'ferry.waiting')).find((n) => n.link.endsWith(`=${instanceId}`));
    expect(await byLink(rejected.instanceId)).toMatchObject({ resolved: true, resolution: '已处理' });
    expect(await byLink(cancelled.instanceId)).toMatchObject({ resolved: true, resolution: '申请人已撤回' });
  });
});
