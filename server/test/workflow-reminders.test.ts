// 自动催办 on SQLite and PostgreSQL: a flow set to remind after N hours reminds the approvers a
// running request waits for once they have waited N hours (since the task became theirs, or
// since their last reminder, manual or automatic), and not before, not twice within N hours,
// not for flows set to 0, not for ended requests, not for approvers who already acted nor for
// those whose turn has not come; a line 系统自动催办：… in 审批记录 and an approval.remind notice
// to each of those reminded only; two instances reminding at once send one reminder; the
// job's own timer reminds; the definition's setting is validated (0–168) and kept. Time is
// the job's `now` (runOnce), never slept for.
import crypto from 'node:crypto';
import { call, createUser, databaseKinds, login, ok, startServer, type TestServer, type TestUser } from './support/harness';

const H = 3600_000;

describe.each(databaseKinds())('自动催办 (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startServer(kind);
    // the tests drive the job and the dispatcher themselves (the job's timer is tested at the end)
    await server.app.services.autoRemind.stop();
    await server.app.services.dispatcher.stop();
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => server.close());

  const app = () => server.app;
  const remindAt = (now: number) => app().services.autoRemind.runOnce(now);
  const dispatch = () => app().services.dispatcher.runOnce();

  async function person(label: string): Promise<TestUser> {
    const u = await createUser(app(), adminToken, { nickName: `${label}${crypto.randomUUID().slice(0, 4)}` });
    const session = await login(app(), u.userName, u.password);
    return { ...u, token: session.token, jwtId: session.jwtId };
  }
  const rule = (u: TestUser) => ({ type: 'user', id: u.userId });
  const definitionBody = (steps: { name: string; mode: string; approvers: TestUser[] }[], autoRemindHours?: number) => ({
    name: `催办流程-${crypto.randomUUID().slice(0, 6)}`,
    category: '行政',
    description: '',
    enabled: true,
    fields: [{ key: 'reason', label: '事由', type: 'textarea', required: true }],
    allowFiles: false,
    steps: steps.map((s) => ({ ...s, approvers: s.approvers.map(rule) })),
    cc: [],
    revoke: 'processing',
    ...(autoRemindHours === undefined ? {} : { autoRemindHours }),
  });
  async function define(steps: { name: string; mode: string; approvers: TestUser[] }[], autoRemindHours: number) {
    return (await ok(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body: definitionBody(steps, autoRemindHours) })).id as string;
  }
  async function start(initiator: TestUser, definitionId: string, title: string): Promise<string> {
    return (await ok(app(), 'POST', '/api/Workflow/Instances', { token: initiator.token, body: { definitionId, title, form: { reason: '出差' }, fileIds: [] } })).instanceId;
  }
  const act = (u: TestUser, id: string, action: string, body: Record<string, unknown> = {}) => ok(app(), 'POST', `/api/Workflow/Instances/${id}/${action}`, { token: u.token, body });
  const detail = (u: TestUser, id: string) => ok(app(), 'GET', `/api/Workflow/Instances/${id}`, { token: u.token });
  /** the 自动催办 lines of the request's 审批记录 */
  const autoLines = async (u: TestUser, id: string) =>
    (await detail(u, id)).timeline.filter((e: any) => e.comment.startsWith('系统自动催办')).map((e: any) => ({ kind: e.kind, user: e.user, comment: e.comment }));
  const reminders = async (u: TestUser, id: string) =>
    (await ok(app(), 'GET', '/api/Notices', { token: u.token, query: { page: 1, pageSize: 50, kind: 'approval.remind' } })).data.filter(
      (n: any) => n.link === `/workflow/informationDetails?id=${id}`,
    );
  /** when the task became the person's (what the wait is measured from) */
  const since = async (id: string, u: TestUser) =>
    Number(
      (
        await app()
          .db.selectFrom('workflow_participants')
          .select('todo_since')
          .where('instance_id', '=', Number(id))
          .where('user_id', '=', Number(u.userId))
          .where('role', '=', 'todo')
          .executeTakeFirstOrThrow()
      ).todo_since,
    );

  test('after N hours the approvers still waiting are reminded, not before and not again within N hours; a line in 审批记录; the notice reaches only them', async () => {
    const [initiator, a, b, c] = await Promise.all(['发起人', '会签甲', '会签乙', '财务'].map(person));
    const def = await define(
      [
        { name: '会签', mode: 'all', approvers: [a, b] },
        { name: '财务', mode: 'sequential', approvers: [c] },
      ],
      2,
    );
    const id = await start(initiator, def, '年会场地预订');
    const t0 = await since(id, b);
    expect(await since(id, a)).toBe(t0);
    // the initiator may remind by hand while it runs; an approver may not
    expect((await detail(initiator, id)).can.remind).toBe(true);
    expect((await detail(a, id)).can.remind).toBe(false);
    // a decides at once; b keeps waiting from the start, not from a's decision
    await act(a, id, 'Approve');
    expect(await since(id, b)).toBe(t0);

    expect(await remindAt(t0 + 2 * H - 1)).toBe(0);
    expect(await autoLines(initiator, id)).toEqual([]);
    expect(await remindAt(t0 + 2 * H)).toBe(1);
    expect(await autoLines(initiator, id)).toEqual([{ kind: 'comment', user: null, comment: `系统自动催办：${b.nickName}` }]);
    await dispatch();
    const [notice] = await reminders(b, id);
    expect(notice).toMatchObject({
      kind: 'approval.remind',
      title: '催办：年会场地预订',
      body: `${initiator.nickName} 的申请已等待你审批超过 2 小时，请尽快处理`,
      resolved: false,
    });
    for (const u of [a, c, initiator]) expect(await reminders(u, id)).toEqual([]);

    // within N hours of that reminder: nothing more (even after more than an hour), then again
    expect(await remindAt(t0 + 3 * H)).toBe(0);
    expect(await remindAt(t0 + 4 * H - 1)).toBe(0);
    expect(await autoLines(initiator, id)).toHaveLength(1);
    expect(await remindAt(t0 + 4 * H)).toBe(1);
    expect(await remindAt(t0 + 4 * H)).toBe(0);
    expect(await autoLines(initiator, id)).toHaveLength(2);
    await dispatch();
    expect(await reminders(b, id)).toHaveLength(2);

    // b decides: the next step is c's from now on (c was never reminded while it was not theirs)
    await act(b, id, 'Approve');
    await dispatch();
    expect((await reminders(b, id)).every((n: any) => n.resolved)).toBe(true);
    const t1 = await since(id, c);
    expect(t1).toBeGreaterThan(t0);
    expect(await remindAt(t1 + 2 * H - 1)).toBe(0);
    expect(await remindAt(t1 + 2 * H)).toBe(1);
    expect((await autoLines(initiator, id)).map((l: any) => l.comment)).toEqual([`系统自动催办：${b.nickName}`, `系统自动催办：${b.nickName}`, `系统自动催办：${c.nickName}`]);
    await dispatch();
    expect(await reminders(c, id)).toHaveLength(1);
    expect(await reminders(a, id)).toEqual([]);

    // ended: never again, and no more 催办 for the initiator
    await act(c, id, 'Approve');
    expect((await detail(initiator, id)).can.remind).toBe(false);
    expect(await remindAt(t1 + 100 * H)).toBe(0);
    expect(await autoLines(initiator, id)).toHaveLength(3);
  });

  test('not for flows set to 0 nor for ended requests (approved, rejected, revoked); a flow switched on reminds its running requests', async () => {
    const [initiator, a] = await Promise.all(['发起人', '审批人'].map(person));
    const off = await define([{ name: '审批', mode: 'sequential', approvers: [a] }], 0);
    const on = await define([{ name: '审批', mode: 'sequential', approvers: [a] }], 1);
    const quiet = await start(initiator, off, '不自动催办');
    const revoked = await start(initiator, on, '已撤销');
    const rejected = await start(initiator, on, '已驳回');
    const approved = await start(initiator, on, '已通过');
    await act(initiator, revoked, 'Revoke');
    await act(a, rejected, 'Reject', { comment: '不需要' });
    await act(a, approved, 'Approve');
    const t0 = await since(quiet, a);
    await remindAt(t0 + 200 * H);
    for (const id of [quiet, revoked, rejected, approved]) expect(await autoLines(initiator, id)).toEqual([]);
    await dispatch();
    expect(await reminders(a, quiet)).toEqual([]);

    // the flow switched on (12 hours): its request waiting since t0 is due at t0 + 12 h
    const stored = (await ok(app(), 'GET', '/api/Workflow/Definitions', { token: adminToken })).find((d: any) => d.id === off);
    const { id: _id, version: _v, createdAt: _c, updatedAt: _u, ...body } = stored;
    expect(body.autoRemindHours).toBe(0);
    await ok(app(), 'PUT', `/api/Workflow/Definitions/${off}`, { token: adminToken, body: { ...body, autoRemindHours: 12 } });
    await remindAt(t0 + 12 * H - 1);
    expect(await autoLines(initiator, quiet)).toEqual([]);
    await remindAt(t0 + 12 * H);
    expect(await autoLines(initiator, quiet)).toHaveLength(1);
    await act(a, quiet, 'Approve');
  });

  test('a manual 催办 counts as the last reminder; a step returned to waits afresh', async () => {
    const [initiator, a, b] = await Promise.all(['发起人', '一审', '二审'].map(person));
    const def = await define(
      [
        { name: '第一步', mode: 'sequential', approvers: [a] },
        { name: '第二步', mode: 'all', approvers: [a, b] },
      ],
      3,
    );
    const id = await start(initiator, def, '合同审批');
    const t0 = await since(id, a);
    expect((await ok(app(), 'POST', `/api/Workflow/Instances/${id}/Remind`, { token: initiator.token, body: { comment: '客户在等' } })).reminded).toEqual([a.nickName]);
    const manual = Number(
      (await app().db.selectFrom('workflow_reminders').select('reminded_at').where('instance_id', '=', Number(id)).where('user_id', '=', Number(a.userId)).executeTakeFirstOrThrow())
        .reminded_at,
    );
    expect(manual).toBeGreaterThanOrEqual(t0);
    await remindAt(manual + 3 * H - 1);
    expect(await autoLines(initiator, id)).toEqual([]);
    await remindAt(manual + 3 * H);
    expect(await autoLines(initiator, id)).toHaveLength(1);
    // an automatic reminder also holds back the initiator's for an hour
    const again = await call(app(), 'POST', `/api/Workflow/Instances/${id}/Remind`, { token: initiator.token, body: {} });
    expect([again.status, again.body.code]).toEqual([429, 42901]);

    // a approves; in the second step a and b have waited long (ten hours) when b returns it:
    // a, asked in both steps, waits afresh from the return
    await act(a, id, 'Approve');
    const old = Date.now() - 10 * H;
    await app().db.updateTable('workflow_participants').set({ todo_since: old }).where('instance_id', '=', Number(id)).where('role', '=', 'todo').execute();
    const returned = Date.now();
    await act(b, id, 'Return', { toStep: 0, comment: '请补充' });
    const back = await since(id, a);
    expect(back).toBeGreaterThanOrEqual(returned);
    // the last reminder (manual + 3 h) is later than the return: it counts
    const last = manual + 3 * H;
    await remindAt(Math.max(back, last) + 3 * H - 1);
    expect(await autoLines(initiator, id)).toHaveLength(1);
    await remindAt(Math.max(back, last) + 3 * H);
    expect(await autoLines(initiator, id)).toHaveLength(2);
    await act(initiator, id, 'Revoke');
  });

  test('two instances reminding at the same moment send one reminder', async () => {
    const [initiator, a] = await Promise.all(['发起人', '审批人'].map(person));
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [a] }], 5);
    const id = await start(initiator, def, '并发催办');
    const t0 = await since(id, a);
    const other = await server.restart();
    try {
      await other.services.autoRemind.stop();
      await other.services.dispatcher.stop();
      const rounds = [() => remindAt(t0 + 5 * H), () => other.services.autoRemind.runOnce(t0 + 5 * H)];
      // on PostgreSQL both run at once; one process's SQLite connections take turns
      const counts = kind === 'postgres' ? await Promise.all(rounds.map((r) => r())) : [await rounds[0](), await rounds[1]()];
      expect(counts.reduce((s, n) => s + n, 0)).toBe(1);
      expect(await autoLines(initiator, id)).toHaveLength(1);
      await dispatch();
      expect(await reminders(a, id)).toHaveLength(1);
    } finally {
      await other.close();
    }
    await act(a, id, 'Approve');
  });

  test('the job’s own round reminds whoever is due', async () => {
    const [initiator, a] = await Promise.all(['发起人', '审批人'].map(person));
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [a] }], 1);
    const id = await start(initiator, def, '定时催办');
    // waiting for two hours already
    await app().db.updateTable('workflow_participants').set({ todo_since: Date.now() - 2 * H }).where('instance_id', '=', Number(id)).where('role', '=', 'todo').execute();
    app().services.autoRemind.start(100);
    try {
      const started = Date.now();
      let lines: unknown[] = [];
      while (Date.now() - started < 5000) {
        lines = await autoLines(initiator, id);
        if (lines.length) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(lines).toEqual([{ kind: 'comment', user: null, comment: `系统自动催办：${a.nickName}` }]);
    } finally {
      await app().services.autoRemind.stop();
    }
    await act(a, id, 'Approve');
  });

  test('the setting is stored with the definition and checked (0–168 whole hours)', async () => {
    const a = await person('审批人');
    const steps = [{ name: '审批', mode: 'sequential', approvers: [a] }];
    const created = await ok(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body: definitionBody(steps, 24) });
    expect(created.autoRemindHours).toBe(24);
    expect((await ok(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body: definitionBody(steps) })).autoRemindHours).toBe(0);
    const listed = (await ok(app(), 'GET', '/api/Workflow/Definitions', { token: adminToken })).find((d: any) => d.id === created.id);
    expect(listed.autoRemindHours).toBe(24);
    const { id: _id, version: _v, createdAt: _c, updatedAt: _u, autoRemindHours: _h, ...body } = listed;
    // an edit without it keeps it; with it, sets it
    expect((await ok(app(), 'PUT', `/api/Workflow/Definitions/${created.id}`, { token: adminToken, body })).autoRemindHours).toBe(24);
    expect((await ok(app(), 'PUT', `/api/Workflow/Definitions/${created.id}`, { token: adminToken, body: { ...body, autoRemindHours: 168 } })).autoRemindHours).toBe(168);
    expect((await ok(app(), 'PUT', `/api/Workflow/Definitions/${created.id}`, { token: adminToken, body: { ...body, autoRemindHours: 0 } })).autoRemindHours).toBe(0);
    for (const bad of [-1, 169, 1.5]) {
      const r = await call(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body: definitionBody(steps, bad) });
      expect([r.status, r.body.code, r.body.message]).toEqual([400, 40001, '自动催办时间应为 0 到 168 之间的整数小时（0 表示不自动催办）']);
      const u = await call(app(), 'PUT', `/api/Workflow/Definitions/${created.id}`, { token: adminToken, body: { ...body, autoRemindHours: bad } });
      expect([u.status, u.body.code]).toEqual([400, 40001]);
    }
    expect((await ok(app(), 'GET', '/api/Workflow/Definitions', { token: adminToken })).find((d: any) => d.id === created.id).autoRemindHours).toBe(0);
    // only flow admins
    const denied = await call(app(), 'POST', '/api/Workflow/Definitions', { token: a.token, body: definitionBody(steps, 1) });
    expect([denied.status, denied.body.code]).toEqual([403, 40301]);
  });
});
