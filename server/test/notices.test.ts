// 云文档's 消息中心 on SQLite and PostgreSQL: approvals make notices for the people concerned and
// nobody else (waiting, CC, approved, rejected, transferred, returned); a decision elsewhere or
// the end of the request resolves the waiting notices; read, all read and delete touch only the
// caller's own notices; an event recorded with its change survives a stop before dispatch and
// makes its notices once, however many dispatchers run; a failing event backs off without
// holding up the others; the dispatcher's own round delivers within seconds.
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { call, createUser, databaseKinds, login, ok, startServer, type TestServer, type TestUser } from './support/harness';
import { makeFolder } from './support/content';
import { recordEvent } from '../src/modules/notices/events';

describe.each(databaseKinds())('notices (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startServer(kind);
    // the tests drive the dispatcher themselves (its timer is tested at the end)
    await server.app.services.dispatcher.stop();
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => server.close());

  const app = () => server.app;
  const dispatch = () => app().services.dispatcher.runOnce();

  async function person(label: string): Promise<TestUser> {
    const u = await createUser(app(), adminToken, { nickName: `${label}${crypto.randomUUID().slice(0, 4)}` });
    const session = await login(app(), u.userName, u.password);
    return { ...u, token: session.token, jwtId: session.jwtId };
  }
  const rule = (u: TestUser) => ({ type: 'user', id: u.userId });
  async function define(steps: { name: string; mode: string; approvers: TestUser[] }[], cc: TestUser[] = []) {
    const body = {
      name: `通知流程-${crypto.randomUUID().slice(0, 6)}`,
      category: '行政',
      description: '',
      enabled: true,
      fields: [{ key: 'reason', label: '事由', type: 'textarea', required: true }],
      allowFiles: false,
      steps: steps.map((s) => ({ ...s, approvers: s.approvers.map(rule) })),
      cc: cc.map(rule),
      revoke: 'processing',
    };
    return (await ok(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body })).id as string;
  }
  async function start(initiator: TestUser, definitionId: string, title: string): Promise<string> {
    const r = await ok(app(), 'POST', '/api/Workflow/Instances', { token: initiator.token, body: { definitionId, title, form: { reason: '出差' }, fileIds: [] } });
    return r.instanceId;
  }
  const act = (u: TestUser, id: string, action: string, body: Record<string, unknown> = {}) => ok(app(), 'POST', `/api/Workflow/Instances/${id}/${action}`, { token: u.token, body });
  const notices = (u: TestUser, query: Record<string, string | number | boolean> = {}) => ok(app(), 'GET', '/api/Notices', { token: u.token, query: { page: 1, pageSize: 50, ...query } });
  const about = async (u: TestUser, id: string) =>
    (await notices(u)).data.filter((n: any) => n.link === `/workflow/informationDetails?id=${id}`).map((n: any) => ({ kind: n.kind, resolved: n.resolved, resolution: n.resolution }));

  test('a two-step request: the approvers of the step and the CC are told, nobody else; a decision resolves the others’ notices; the end tells the initiator', async () => {
    const [initiator, a1, a2, b, cc, outsider] = await Promise.all(['发起人', '甲', '乙', '丙', '抄送', '路人'].map(person));
    const def = await define(
      [
        { name: '主管', mode: 'any', approvers: [a1, a2] },
        { name: '财务', mode: 'sequential', approvers: [b] },
      ],
      [cc],
    );
    const id = await start(initiator, def, '北京出差报销');
    expect(await dispatch()).toBeGreaterThanOrEqual(1);

    const page = await notices(a1);
    expect(page.unread).toBe(1);
    expect(page.data[0]).toMatchObject({
      kind: 'approval.waiting',
      title: '待审批：北京出差报销',
      body: `${initiator.nickName} 的申请等待你审批`,
      link: `/workflow/informationDetails?id=${id}`,
      read: false,
      resolved: false,
      resolution: '',
    });
    expect(page.data[0].createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await about(a2, id)).toEqual([{ kind: 'approval.waiting', resolved: false, resolution: '' }]);
    expect(await about(cc, id)).toEqual([{ kind: 'approval.cc', resolved: false, resolution: '' }]);
    // the next step's approver is not asked yet; the initiator and an outsider get nothing
    expect(await about(b, id)).toEqual([]);
    expect(await about(initiator, id)).toEqual([]);
    expect((await notices(outsider)).total).toBe(0);
    expect((await ok(app(), 'GET', '/api/Notices/UnreadCount', { token: outsider.token })).unread).toBe(0);

    // 或签: a1 decides; a2 no longer needs to
    await act(a1, id, 'Approve', { comment: '同意' });
    await dispatch();
    expect(await about(a1, id)).toEqual([{ kind: 'approval.waiting', resolved: true, resolution: '已处理' }]);
    expect(await about(a2, id)).toEqual([{ kind: 'approval.waiting', resolved: true, resolution: `已由${a1.nickName}处理` }]);
    expect(await about(b, id)).toEqual([{ kind: 'approval.waiting', resolved: false, resolution: '' }]);

    await act(b, id, 'Reject', { comment: '票据不全' });
    await dispatch();
    expect(await about(b, id)).toEqual([{ kind: 'approval.waiting', resolved: true, resolution: '已处理' }]);
    const mine = await notices(initiator);
    expect(mine.data).toHaveLength(1);
    expect(mine.data[0]).toMatchObject({ kind: 'approval.rejected', title: '审批驳回：北京出差报销', body: `${b.nickName} 驳回了你的申请`, resolved: false });
  });

  test('approved, transferred, returned and revoked requests: who is told what', async () => {
    const [initiator, a, b, c, d] = await Promise.all(['发起人', '一', '二', '三', '四'].map(person));
    const def = await define([
      { name: '第一步', mode: 'sequential', approvers: [a] },
      { name: '第二步', mode: 'sequential', approvers: [b] },
    ]);

    // transferred to c, who approves; then b returns it to the first step; a approves, b approves
    const id = await start(initiator, def, '采购申请');
    await act(a, id, 'Transfer', { userId: c.userId, comment: '请代为处理' });
    await dispatch();
    expect(await about(a, id)).toEqual([{ kind: 'approval.waiting', resolved: true, resolution: '已处理' }]);
    expect((await notices(c)).data[0]).toMatchObject({ kind: 'approval.waiting', body: `${a.nickName} 将 ${initiator.nickName} 的申请转交给你审批`, resolved: false });
    await act(c, id, 'Approve');
    await act(b, id, 'Return', { toStep: 0, comment: '请补充' });
    await dispatch();
    expect(await about(b, id)).toEqual([
      { kind: 'approval.waiting', resolved: true, resolution: '已处理' },
    ]);
    // the first step starts afresh with its approvers as defined
    expect((await about(a, id))[0]).toEqual({ kind: 'approval.returned', resolved: false, resolution: '' });
    expect((await notices(a)).data[0].body).toBe(`${b.nickName} 将 ${initiator.nickName} 的申请退回到你所在的步骤，请重新审批`);
    // the initiator learns that the request went back
    expect((await notices(initiator)).data.map((n: any) => [n.kind, n.title, n.body])).toEqual([
      ['approval.sentback', '申请被退回：采购申请', `${b.nickName} 将你的申请退回到之前的步骤重新审批`],
    ]);
    await act(a, id, 'Approve');
    await act(b, id, 'Approve');
    await dispatch();
    expect((await notices(initiator)).data.map((n: any) => [n.kind, n.title])).toEqual([
      ['approval.approved', '审批通过：采购申请'],
      ['approval.sentback', '申请被退回：采购申请'],
    ]);
    expect((await about(b, id)).filter((n: any) => !n.resolved)).toEqual([]);
    expect((await about(a, id)).filter((n: any) => !n.resolved)).toEqual([]);

    // revoked while waiting: the waiting notice says so; the initiator is not told of his own act
    const other = await start(initiator, def, '第二个申请');
    await dispatch();
    await act(initiator, other, 'Revoke');
    await dispatch();
    expect(await about(a, other)).toEqual([{ kind: 'approval.waiting', resolved: true, resolution: '申请人已撤回' }]);
    expect(await about(initiator, other)).toEqual([]);
    expect(await about(d, other)).toEqual([]);
  });

  test('催办: the initiator reminds the approvers waiting, once an hour each; a line in 审批记录; the notice resolves with the decision', async () => {
    const [initiator, a, b] = await Promise.all(['发起人', '会签甲', '会签乙'].map(person));
    const def = await define([{ name: '会签', mode: 'all', approvers: [a, b] }]);
    const id = await start(initiator, def, '设备采购');
    await dispatch();
    // only the initiator, and only while it waits
    const byApprover = await call(app(), 'POST', `/api/Workflow/Instances/${id}/Remind`, { token: a.token, body: {} });
    expect([byApprover.status, byApprover.body.code, byApprover.body.message]).toEqual([403, 40301, '只有发起人可以催办']);

    expect(await ok(app(), 'POST', `/api/Workflow/Instances/${id}/Remind`, { token: initiator.token, body: { comment: '明天要下单' } })).toEqual({
      reminded: [a.nickName, b.nickName],
      later: [],
    });
    await dispatch();
    expect((await notices(a, { kind: 'approval.remind' })).data[0]).toMatchObject({ title: '催办：设备采购', body: `${initiator.nickName} 催你尽快审批：明天要下单`, resolved: false });
    const log = (await ok(app(), 'GET', `/api/Workflow/Instances/${id}`, { token: initiator.token })).timeline.map((e: any) => e.comment);
    expect(log).toContain(`催办：${a.nickName}、${b.nickName}。明天要下单`);

    // again within the hour: refused, saying from when
    const again = await call(app(), 'POST', `/api/Workflow/Instances/${id}/Remind`, { token: initiator.token, body: {} });
    expect([again.status, again.body.code]).toEqual([429, 42901]);
    expect(again.body.message).toMatch(/^一小时内已催办过，请于 \d\d:\d\d 之后再催办$/);

    // a decides; an hour later only b is reminded again
    await act(a, id, 'Approve');
    await dispatch();
    expect((await about(a, id)).filter((n: any) => !n.resolved)).toEqual([]);
    await app().db.updateTable('workflow_reminders').set({ reminded_at: Date.now() - 2 * 3600_000 }).where('instance_id', '=', Number(id)).execute();
    expect((await ok(app(), 'POST', `/api/Workflow/Instances/${id}/Remind`, { token: initiator.token, body: {} })).reminded).toEqual([b.nickName]);
    await dispatch();
    expect((await notices(b, { kind: 'approval.remind' })).total).toBe(2);
    expect((await notices(a, { kind: 'approval.remind' })).total).toBe(1);
    await act(b, id, 'Approve');
    const ended = await call(app(), 'POST', `/api/Workflow/Instances/${id}/Remind`, { token: initiator.token, body: {} });
    expect([ended.status, ended.body.message]).toEqual([409, '审批已结束，无需催办']);
  });

  test('a leaver’s waiting approval handed over (离职交接): the successor is asked, the leaver’s notice is resolved', async () => {
    const [initiator, leaver, successor] = await Promise.all(['发起人', '离职者', '接手人'].map(person));
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [leaver] }]);
    const id = await start(initiator, def, '离职前的待办');
    await dispatch();
    expect(await about(leaver, id)).toEqual([{ kind: 'approval.waiting', resolved: false, resolution: '' }]);
    await ok(app(), 'POST', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken, body: { successorId: successor.userId, shares: 'keep' } });
    await dispatch();
    expect((await notices(successor)).data[0]).toMatchObject({ kind: 'approval.waiting', title: '待审批：离职前的待办', resolved: false });
    // the leaver can no longer sign in: the row itself says the notice was resolved
    const row = await app().db.selectFrom('notices').selectAll().where('user_id', '=', Number(leaver.userId)).where('object_id', '=', id).executeTakeFirstOrThrow();
    expect(row.resolved_at).not.toBeNull();
  });

  test('an internal share tells the people it reaches (a user, a department and those below it, a group) and nobody else; cancelled, it says so', async () => {
    const [owner, direct, outsider] = await Promise.all(['分享人', '直接', '路人'].map(person));
    const dept = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: `通知部-${crypto.randomUUID().slice(0, 6)}` } });
    const team = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '下级组', parentId: dept.id } });
    const group = await ok(app(), 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: `通知组-${crypto.randomUUID().slice(0, 6)}` } });
    const member = async (nickName: string, deptId: string | null) => {
      const u = await createUser(app(), adminToken, { nickName });
      if (deptId) await ok(app(), 'PUT', `/api/Admin/Users/${u.userId}`, { token: adminToken, body: { deptId } });
      const session = await login(app(), u.userName, u.password);
      return { ...u, token: session.token, jwtId: session.jwtId } as TestUser;
    };
    const inDept = await member('部门成员', dept.id);
    const inTeam = await member('下级成员', team.id);
    const inGroup = await member('组员', null);
    const gone = await member('已停用', dept.id);
    await ok(app(), 'PUT', `/api/Admin/Groups/${group.id}/Members`, { token: adminToken, body: { userIds: [inGroup.userId] } });
    await ok(app(), 'POST', `/api/Admin/Users/${gone.userId}/Disable`, { token: adminToken });
    const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: owner.token }))[0].id;
    const folder = await makeFolder(app(), owner.token, root, '季度报告');
    const share = await ok(app(), 'POST', '/api/User/Shares', {
      token: owner.token,
      body: {
        fileIds: [folder.id],
        shareType: 1,
        level: 2,
        expireAt: null,
        downloadLimit: null,
        targets: [
          { type: 1, id: direct.userId },
          { type: 2, id: dept.id },
          { type: 3, id: group.id },
        ],
      },
    });
    await dispatch();
    for (const u of [direct, inDept, inTeam, inGroup]) {
      const page = await notices(u, { kind: 'share.received' });
      expect(page.data).toHaveLength(1);
      expect(page.data[0]).toMatchObject({ title: `${owner.nickName} 分享给你：“季度报告”`, body: '权限：预览和下载。在“与我共享”中查看', link: '/file/shareme', resolved: false });
    }
    for (const u of [owner, outsider]) expect((await notices(u, { kind: 'share.received' })).total).toBe(0);
    expect(await app().db.selectFrom('notices').select('id').where('user_id', '=', Number(gone.userId)).execute()).toEqual([]);

    await ok(app(), 'DELETE', '/api/User/Shares', { token: owner.token, body: [share.shareId] });
    expect((await notices(inTeam, { kind: 'share.received' })).data[0]).toMatchObject({ resolved: true, resolution: '分享已取消' });
  });

  test('read, all read and delete: one’s own notices only; a bad id is refused in Chinese', async () => {
    const [initiator, a, other] = await Promise.all(['发起人', '读者', '旁人'].map(person));
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [a] }], [other]);
    await start(initiator, def, '一');
    await start(initiator, def, '二');
    await start(initiator, def, '三');
    await dispatch();
    const page = await notices(a);
    expect(page.unread).toBe(3);
    const theirs = (await notices(other)).data.map((n: any) => n.id);
    expect(theirs).toHaveLength(3);

    // someone else's ids change nothing
    expect(await ok(app(), 'POST', '/api/Notices/Read', { token: a.token, body: { ids: theirs } })).toEqual({ changed: 0 });
    expect(await ok(app(), 'DELETE', '/api/Notices', { token: a.token, body: { ids: theirs } })).toEqual({ changed: 0 });
    expect((await notices(other)).unread).toBe(3);

    expect(await ok(app(), 'POST', '/api/Notices/Read', { token: a.token, body: { ids: [page.data[0].id] } })).toEqual({ changed: 1 });
    expect((await notices(a)).unread).toBe(2);
    expect((await notices(a, { unread: true })).data.map((n: any) => n.title)).toEqual(['待审批：二', '待审批：一']);
    expect(await ok(app(), 'POST', '/api/Notices/ReadAll', { token: a.token, body: { kind: 'approval.cc' } })).toEqual({ changed: 0 });
    expect(await ok(app(), 'POST', '/api/Notices/ReadAll', { token: a.token, body: {} })).toEqual({ changed: 2 });
    expect((await ok(app(), 'GET', '/api/Notices/UnreadCount', { token: a.token })).unread).toBe(0);
    expect(await ok(app(), 'DELETE', '/api/Notices', { token: a.token, body: { ids: [page.data[2].id] } })).toEqual({ changed: 1 });
    expect((await notices(a)).total).toBe(2);
    expect((await notices(a, { kind: 'approval.cc' })).total).toBe(0);
    expect((await notices(other, { kind: 'approval.cc' })).total).toBe(3);

    const bad = await call(app(), 'POST', '/api/Notices/Read', { token: a.token, body: { ids: ['x'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await call(app(), 'GET', '/api/Notices')).status).toBe(401);
  });

  test('an event committed before a stop is dispatched after it, once, however many dispatchers run; a failing event backs off alone', async () => {
    const [initiator, a] = await Promise.all(['发起人', '审批人'].map(person));
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [a] }]);
    const id = await start(initiator, def, '停机前提交');
    // the instance stops before its dispatcher ran; another one (a restart) takes over
    const restarted = await server.restart();
    await restarted.services.dispatcher.stop();
    await restarted.db
      .insertInto('events')
      .values({ kind: 'workflow.changed', payload: '{not json', created_at: Date.now(), dispatched_at: null })
      .execute();
    const before = Date.now();
    const rounds = [() => restarted.services.dispatcher.runOnce(), () => app().services.dispatcher.runOnce(), () => restarted.services.dispatcher.runOnce()];
    // on PostgreSQL the instances' rounds run at once; one process's two SQLite connections would
    // only wait for each other's write lock, so there they take turns
    const counts = kind === 'postgres' ? await Promise.all(rounds.map((r) => r())) : [await rounds[0](), await rounds[1](), await rounds[2]()];
    expect(counts.reduce((s, n) => s + n, 0)).toBeGreaterThanOrEqual(1);
    expect(await about(a, id)).toEqual([{ kind: 'approval.waiting', resolved: false, resolution: '' }]);
    const broken = await restarted.db.selectFrom('events').selectAll().where('payload', '=', '{not json').executeTakeFirstOrThrow();
    expect(broken.dispatched_at).toBeNull();
    expect(Number(broken.attempts)).toBe(1);
    expect(Number(broken.next_at)).toBeGreaterThanOrEqual(before + 2000); // tried again in 2 s, then 4, 8…
    expect(broken.last_error).not.toBe('');
    // nothing more to do: the broken one waits for its time
    expect(await restarted.services.dispatcher.runOnce(100, before)).toBe(0);
    expect(await about(a, id)).toHaveLength(1);
    await restarted.db.deleteFrom('events').where('id', '=', broken.id).execute();
    await restarted.close();
  });

  test('an open page is pushed its new notices and unread count (server-sent events), also when another instance dispatched them', async () => {
    const [initiator, a] = await Promise.all(['发起人', '推送'].map(person));
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [a] }]);
    await app().listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app().server.address() as AddressInfo).port}/api/Notices/Stream`;
    const controller = new AbortController();
    const res = await fetch(url, { headers: { Authorization: `Bearer ${a.token}` }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let buffer = '';
    const events: Array<{ event: string; data: any }> = [];
    let reading: ReturnType<typeof reader.read> | null = null;
    const next = async (event: string, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = events.findIndex((e) => e.event === event);
        if (at >= 0) return events.splice(at, 1)[0].data;
        if (Date.now() > deadline) throw new Error(`no ${event} event within ${timeoutMs} ms`);
        // one read in flight at a time: a read outlived by the timer is awaited again next turn
        const read = (reading ??= reader.read());
        const got = await Promise.race([read, new Promise<null>((r) => setTimeout(() => r(null), 200))]);
        if (!got) continue;
        reading = null;
        const { value, done } = got;
        if (done) throw new Error('the stream ended');
        if (value) buffer += Buffer.from(value).toString('utf8');
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const name = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (name && data) events.push({ event: name, data: JSON.parse(data) });
        }
      }
    };
    expect(await next('unread')).toEqual({ unread: 0 });
    // the request is dispatched by another instance on the same database
    const other = await server.restart();
    try {
      await other.services.dispatcher.stop();
      const t0 = Date.now();
      const id = await start(initiator, def, '推送测试');
      await other.services.dispatcher.runOnce();
      const pushed = await next('notice');
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(pushed.unread).toBe(1);
      expect(pushed.notice).toMatchObject({ kind: 'approval.waiting', title: '待审批：推送测试', link: `/workflow/informationDetails?id=${id}`, read: false });
      // read on this instance: the page's count follows
      await ok(app(), 'POST', '/api/Notices/Read', { token: a.token, body: { ids: [pushed.notice.id] } });
      expect(await next('unread')).toEqual({ unread: 0 });
    } finally {
      await other.close();
      controller.abort();
    }
  });

  test('the dispatcher’s own round delivers a new notice within seconds', async () => {
    const [initiator, a] = await Promise.all(['发起人', '审批人'].map(person));
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [a] }]);
    app().services.dispatcher.start(200);
    try {
      const started = Date.now();
      const id = await start(initiator, def, '自动送达');
      let got: unknown[] = [];
      while (Date.now() - started < 5000) {
        got = await about(a, id);
        if (got.length) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(got).toEqual([{ kind: 'approval.waiting', resolved: false, resolution: '' }]);
    } finally {
      await app().services.dispatcher.stop();
    }
    // an event recorded without a dispatcher running stays for the next round
    await recordEvent(app().db, 'workflow.changed', { instanceId: 0, title: '', initiatorId: 0, actorId: 0, action: 'comment', status: 1, newTodo: [], goneTodo: [], cc: [] });
    expect(await dispatch()).toBe(1);
  });
});
