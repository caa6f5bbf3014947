// Approvals through the real server on SQLite and PostgreSQL: definitions by flow admins, the
// route resolved for an initiator, every action per step mode with the state and the boxes read
// back, the race of simultaneous approvals, revocation rules, who may see an instance, attached
// file versions, and the end handed to the module that started the instance.
import crypto from 'node:crypto';
import { call, createUser, databaseKinds, ENGLISH_FRAMEWORK_TEXT, HAN, login, ok, roleCast, startServer, type CallResult, type TestServer, type TestUser } from './support/harness';
import { makeFile, makeFolder, raw, setContent } from './support/content';
import { saveState, findInstance } from '../src/modules/workflow/repository';

type Rule = { type: string; id?: string };

describe.each(databaseKinds())('approvals (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let owner: TestUser;
  let outsider: TestUser;
  let ownerRoot: any;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ adminToken, owner, outsider, ownerRoot } = await roleCast(server.app));
  });
  afterAll(async () => server.close());

  const app = () => server.app;

  const expectError = (res: CallResult, status: number, code: number, message?: string | RegExp) => {
    expect({ status: res.status, code: res.body?.code, result: res.body?.result }).toEqual({ status, code, result: null });
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).not.toMatch(ENGLISH_FRAMEWORK_TEXT);
    if (message) expect(res.body.message).toMatch(message);
  };

  async function person(nickName = `人${crypto.randomUUID().slice(0, 4)}`, extra: Record<string, unknown> = {}): Promise<TestUser> {
    const u = await createUser(app(), adminToken, { nickName });
    if (Object.keys(extra).length) await ok(app(), 'PUT', `/api/Admin/Users/${u.userId}`, { token: adminToken, body: extra });
    const session = await login(app(), u.userName, u.password);
    return { ...u, token: session.token, jwtId: session.jwtId };
  }
  const people = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => person(`审批人${i + 1}-${crypto.randomUUID().slice(0, 4)}`)));
  const user = (u: TestUser): Rule => ({ type: 'user', id: u.userId });

  const definition = (steps: { name: string; mode: string; approvers: Rule[] }[], extra: Record<string, unknown> = {}) => ({
    name: `流程-${crypto.randomUUID().slice(0, 6)}`,
    category: '行政',
    description: '',
    enabled: true,
    fields: [
      { key: 'reason', label: '事由', type: 'textarea', required: true },
      { key: 'amount', label: '金额', type: 'number', required: false },
      { key: 'day', label: '日期', type: 'date', required: false },
      { key: 'kind', label: '类型', type: 'select', required: false, options: ['出差', '采购'] },
    ],
    allowFiles: true,
    steps,
    cc: [],
    revoke: 'untouched',
    ...extra,
  });
  async function define(steps: Parameters<typeof definition>[0], extra: Record<string, unknown> = {}) {
    return ok(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body: definition(steps, extra) });
  }
  const start = (token: string, definitionId: string, extra: Record<string, unknown> = {}) =>
    call(app(), 'POST', '/api/Workflow/Instances', { token, body: { definitionId, title: '报销申请', form: { reason: '差旅' }, fileIds: [], ...extra } });
  async function started(token: string, definitionId: string, extra: Record<string, unknown> = {}): Promise<string> {
    const r = await start(token, definitionId, extra);
    if (r.body?.code !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.result.instanceId;
  }
  const act = (token: string, id: string, action: string, body: Record<string, unknown> = {}) =>
    call(app(), 'POST', `/api/Workflow/Instances/${id}/${action}`, { token, body });
  const detail = (token: string, id: string) => ok(app(), 'GET', `/api/Workflow/Instances/${id}`, { token });
  const box = (token: string, b: string, query: Record<string, string | number> = {}) =>
    ok(app(), 'GET', '/api/Workflow/Instances', { token, query: { box: b, page: 1, pageSize: 50, ...query } });
  const ids = (page: { data: { instanceId: string }[] }) => page.data.map((r) => r.instanceId);
  const taskOf = (d: any, step: number) => d.steps[step].tasks.map((t: any) => [t.name, t.status]);

  test('definitions: only flow admins make, change and delete them; everyone sees the enabled ones; bad definitions refused in Chinese', async () => {
    const [a] = await people(1);
    const body = definition([{ name: '主管审批', mode: 'sequential', approvers: [user(a)] }]);
    expectError(await call(app(), 'POST', '/api/Workflow/Definitions', { token: owner.token, body }), 403, 40301, '只有流程管理员');
    const before = (await ok(app(), 'GET', '/api/Workflow/Definitions', { token: adminToken })).length;

    const made = await ok(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body });
    expect(made).toMatchObject({ name: body.name, version: 1, enabled: true, steps: [{ name: '主管审批', approvers: [{ type: 'user', id: a.userId, name: a.nickName }] }] });
    expect((await ok(app(), 'GET', '/api/Workflow/Definitions', { token: adminToken })).length).toBe(before + 1);

    // changes: by others refused with nothing changed; by a flow admin a new version
    expectError(await call(app(), 'PUT', `/api/Workflow/Definitions/${made.id}`, { token: owner.token, body: { ...body, name: '改名' } }), 403, 40301);
    const disabled = await ok(app(), 'PUT', `/api/Workflow/Definitions/${made.id}`, { token: adminToken, body: { ...body, enabled: false } });
    expect(disabled).toMatchObject({ version: 2, enabled: false, name: body.name });
    const seenByOwner = await ok(app(), 'GET', '/api/Workflow/Definitions', { token: owner.token });
    expect(seenByOwner.map((d: any) => d.id)).not.toContain(made.id);
    expectError(await start(owner.token, made.id), 400, 40001, '已停用');
    await ok(app(), 'PUT', `/api/Workflow/Definitions/${made.id}`, { token: adminToken, body });
    expect((await ok(app(), 'GET', '/api/Workflow/Definitions', { token: owner.token })).map((d: any) => d.id)).toContain(made.id);

    // validation
    const bad = async (over: Record<string, unknown>, message: RegExp) =>
      expectError(await call(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body: { ...body, ...over } }), 400, 40001, message);
    await bad({ name: '   ' }, /流程名称/);
    await bad({ steps: [] }, /./);
    await bad({ fields: [{ key: 'x', label: '甲', type: 'text', required: true }, { key: 'x', label: '乙', type: 'text', required: true }] }, /重复/);
    await bad({ fields: [{ key: 'x', label: '类型', type: 'select', required: true, options: [] }] }, /至少需要一个选项/);
    await bad({ steps: [{ name: '审批', mode: 'sequential', approvers: [{ type: 'user', id: '987654321' }] }] }, /不存在/);
    await bad({ steps: [{ name: '审批', mode: 'sequential', approvers: [{ type: 'groupMembers' }] }] }, /没有选择/);
    await bad({ cc: [{ type: 'deptMembers', id: '987654321' }] }, /抄送/);

    expectError(await call(app(), 'DELETE', `/api/Workflow/Definitions/${made.id}`, { token: owner.token }), 403, 40301);
    await ok(app(), 'DELETE', `/api/Workflow/Definitions/${made.id}`, { token: adminToken });
    expect((await ok(app(), 'GET', '/api/Workflow/Definitions', { token: adminToken })).map((d: any) => d.id)).not.toContain(made.id);
    expectError(await start(owner.token, made.id), 404, 404);
  });

  test('依次 then 会签 then 或签: each step waits for the right people; the boxes, counts and timeline follow', async () => {
    const [a1, a2, b1, b2, c1, c2, cc] = await people(7);
    const initiator = await person('发起人甲');
    const def = await define(
      [
        { name: '依次', mode: 'sequential', approvers: [user(a1), user(a2)] },
        { name: '会签', mode: 'all', approvers: [user(b1), user(b2)] },
        { name: '或签', mode: 'any', approvers: [user(c1), user(c2)] },
      ],
      { cc: [user(cc)] },
    );
    const id = await started(initiator.token, def.id, { form: { reason: '出差北京', amount: '1200.5', day: '2026-12-01', kind: '出差' } });

    let d = await detail(initiator.token, id);
    expect(d).toMatchObject({ status: 1, currentStep: '依次', definitionName: def.name, initiator: { userId: initiator.userId, name: '发起人甲' } });
    expect(d.number).toMatch(/^SP\d{8}\d{6}$/);
    expect(d.fields).toEqual([
      { key: 'reason', label: '事由', type: 'textarea', value: '出差北京' },
      { key: 'amount', label: '金额', type: 'number', value: 1200.5 },
      { key: 'day', label: '日期', type: 'date', value: '2026-12-01' },
      { key: 'kind', label: '类型', type: 'select', value: '出差' },
    ]);
    expect(taskOf(d, 0)).toEqual([[a1.nickName, 'pending'], [a2.nickName, 'waiting']]);
    expect(d.steps.map((s: any) => s.state)).toEqual(['current', 'waiting', 'waiting']);
    expect(d.cc).toEqual([{ userId: cc.userId, name: cc.nickName }]);
    expect(d.can).toMatchObject({ approve: false, revoke: true });

    expect(ids(await box(a1.token, 'todo'))).toEqual([id]);
    expect(ids(await box(a2.token, 'todo'))).toEqual([]);
    expect(ids(await box(cc.token, 'cc'))).toEqual([id]);
    expect(ids(await box(initiator.token, 'mine'))).toEqual([id]);
    expect(await ok(app(), 'GET', '/api/Workflow/Counts', { token: a1.token })).toEqual({ todo: 1, done: 0, mine: 0, cc: 0 });

    // a2 must wait for a1
    expectError(await act(a2.token, id, 'Approve'), 403, 40301, '没有需要您处理');
    const afterA1 = (await act(a1.token, id, 'Approve', { comment: '同意出差' })).body.result;
    expect(taskOf(afterA1, 0)).toEqual([[a1.nickName, 'approved'], [a2.nickName, 'pending']]);
    expect(afterA1.can.approve).toBe(false);
    expect(ids(await box(a1.token, 'todo'))).toEqual([]);
    expect(ids(await box(a1.token, 'done'))).toEqual([id]);
    expect(ids(await box(a2.token, 'todo'))).toEqual([id]);
    await ok(app(), 'POST', `/api/Workflow/Instances/${id}/Approve`, { token: a2.token, body: {} });

    // 会签: both
    d = await detail(b1.token, id);
    expect(d.currentStep).toBe('会签');
    expect(taskOf(d, 1)).toEqual([[b1.nickName, 'pending'], [b2.nickName, 'pending']]);
    expect(d.can).toMatchObject({ approve: true, reject: true, transfer: true, addApprover: true, returnTo: [0], revoke: false });
    await ok(app(), 'POST', `/api/Workflow/Instances/${id}/Approve`, { token: b2.token, body: {} });
    expect((await detail(b1.token, id)).currentStep).toBe('会签');
    await ok(app(), 'POST', `/api/Workflow/Instances/${id}/Approve`, { token: b1.token, body: {} });

    // 或签: one is enough, the other's task is cancelled
    d = (await act(c2.token, id, 'Approve', { comment: '好' })).body.result;
    expect(d).toMatchObject({ status: 2, currentStep: '', pending: [] });
    expect(d.finishedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(taskOf(d, 2)).toEqual([[c1.nickName, 'cancelled'], [c2.nickName, 'approved']]);
    expect(d.steps.map((s: any) => s.state)).toEqual(['done', 'done', 'done']);
    expectError(await act(c1.token, id, 'Approve'), 409, 40901, '已结束');
    expect(d.timeline.map((e: any) => [e.kind, e.user?.name ?? null, e.stepName])).toEqual([
      ['start', '发起人甲', '依次'],
      ['approve', a1.nickName, '依次'],
      ['approve', a2.nickName, '依次'],
      ['approve', b2.nickName, '会签'],
      ['approve', b1.nickName, '会签'],
      ['approve', c2.nickName, '或签'],
      ['finish', null, '或签'],
    ]);
    expect(d.timeline[1].comment).toBe('同意出差');
    expect(d.timeline[6].status).toBe(2);
    expect(ids(await box(c1.token, 'todo'))).toEqual([]);
    expect(ids(await box(initiator.token, 'mine', { status: 2 }))).toEqual([id]);
    expect(ids(await box(initiator.token, 'mine', { status: 1 }))).toEqual([]);
    // the CC recipient follows to the end but decides nothing
    const seenByCc = await detail(cc.token, id);
    expect(seenByCc.status).toBe(2);
    expect(seenByCc.can).toMatchObject({ approve: false, reject: false, revoke: false });
  });

  test('驳回 ends the instance with a comment; 退回 starts an earlier step again; 转交 and 加签 hand the decision on', async () => {
    const [a, b, t, x] = await people(4);
    const def = await define([
      { name: '一审', mode: 'sequential', approvers: [user(a)] },
      { name: '二审', mode: 'sequential', approvers: [user(b)] },
    ]);

    // reject: comment required, then rejected
    const r1 = await started(owner.token, def.id);
    expectError(await act(a.token, r1, 'Reject', { comment: '  ' }), 400, 40001, '请填写意见');
    const rejected = (await act(a.token, r1, 'Reject', { comment: '材料不全' })).body.result;
    expect(rejected.status).toBe(3);
    expect(rejected.steps.map((s: any) => s.state)).toEqual(['closed', 'closed']);
    expect(rejected.timeline.slice(-2).map((e: any) => [e.kind, e.comment, e.status])).toEqual([['reject', '材料不全', null], ['finish', '', 3]]);
    expect(ids(await box(b.token, 'todo'))).not.toContain(r1);

    // return: from step 2 back to step 1, which runs again
    const r2 = await started(owner.token, def.id);
    await ok(app(), 'POST', `/api/Workflow/Instances/${r2}/Approve`, { token: a.token, body: {} });
    expectError(await act(b.token, r2, 'Return', { comment: '请一审复核', toStep: 1 }), 400, 40001, '之前的步骤');
    const returned = (await act(b.token, r2, 'Return', { comment: '请一审复核', toStep: 0 })).body.result;
    expect(returned).toMatchObject({ status: 1, currentStep: '一审' });
    expect(taskOf(returned, 0)).toEqual([[a.nickName, 'pending']]);
    expect(returned.timeline.at(-1)).toMatchObject({ kind: 'return', toStep: 0, comment: '请一审复核' });
    expect(ids(await box(a.token, 'todo'))).toContain(r2);
    expect(ids(await box(b.token, 'todo'))).not.toContain(r2);

    // transfer: a hands the task to t, who decides
    expectError(await act(a.token, r2, 'Transfer', { userId: a.userId }), 400, 40001, '不能转交给自己');
    const transferred = (await act(a.token, r2, 'Transfer', { userId: t.userId, comment: '请代为处理' })).body.result;
    expect(taskOf(transferred, 0)).toEqual([[a.nickName, 'transferred'], [t.nickName, 'pending']]);
    expect(transferred.steps[0].tasks[1].from).toEqual({ userId: a.userId, name: a.nickName });
    expect(transferred.timeline.at(-1)).toMatchObject({ kind: 'transfer', target: { userId: t.userId, name: t.nickName } });
    expectError(await act(a.token, r2, 'Approve'), 403, 40301);
    expect(ids(await box(t.token, 'todo'))).toEqual([r2]);

    // add an approver after oneself (依次: decides next)
    const added = (await act(t.token, r2, 'AddApprover', { userId: x.userId })).body.result;
    expect(taskOf(added, 0)).toEqual([[a.nickName, 'transferred'], [t.nickName, 'pending'], [x.nickName, 'waiting']]);
    await ok(app(), 'POST', `/api/Workflow/Instances/${r2}/Approve`, { token: t.token, body: {} });
    expect((await detail(x.token, r2)).currentStep).toBe('一审');
    await ok(app(), 'POST', `/api/Workflow/Instances/${r2}/Approve`, { token: x.token, body: {} });
    expect((await detail(b.token, r2)).currentStep).toBe('二审');

    // a disabled or unknown person cannot be handed a task
    expectError(await act(b.token, r2, 'Transfer', { userId: '987654321' }), 400, 40001, '不存在或已停用');
    // comments by anyone who can see it, any time, appended
    await ok(app(), 'POST', `/api/Workflow/Instances/${r2}/Comment`, { token: owner.token, body: { comment: '辛苦了' } });
    expect((await detail(owner.token, r2)).timeline.at(-1)).toMatchObject({ kind: 'comment', comment: '辛苦了', user: { userId: owner.userId } });
  });

  test('撤销: by the initiator only, while nobody has acted (untouched), while it runs (processing), or never', async () => {
    const [a, b] = await people(2);
    const steps = [
      { name: '一审', mode: 'sequential', approvers: [user(a)] },
      { name: '二审', mode: 'sequential', approvers: [user(b)] },
    ];
    const untouched = await define(steps);
    const i1 = await started(owner.token, untouched.id);
    expectError(await act(a.token, i1, 'Revoke'), 403, 40301, '只有发起人');
    const revoked = (await act(owner.token, i1, 'Revoke', { comment: '不需要了' })).body.result;
    expect(revoked.status).toBe(4);
    expect(ids(await box(a.token, 'todo'))).not.toContain(i1);
    expect(ids(await box(owner.token, 'mine', { status: 4 }))).toContain(i1);

    const i2 = await started(owner.token, untouched.id);
    await ok(app(), 'POST', `/api/Workflow/Instances/${i2}/Approve`, { token: a.token, body: {} });
    expect((await detail(owner.token, i2)).can.revoke).toBe(false);
    expectError(await act(owner.token, i2, 'Revoke'), 409, 40901, '不能再撤销');

    const processing = await define(steps, { revoke: 'processing' });
    const i3 = await started(owner.token, processing.id);
    await ok(app(), 'POST', `/api/Workflow/Instances/${i3}/Approve`, { token: a.token, body: {} });
    expect((await detail(owner.token, i3)).can.revoke).toBe(true);
    expect((await act(owner.token, i3, 'Revoke')).body.result.status).toBe(4);

    const never = await define(steps, { revoke: 'never' });
    const i4 = await started(owner.token, never.id);
    expect((await detail(owner.token, i4)).can.revoke).toBe(false);
    expectError(await act(owner.token, i4, 'Revoke'), 403, 40301, '不允许撤销');
    expect((await detail(owner.token, i4)).status).toBe(1);
  });

  test('approvers resolved at the start: leaders (up the tree), department and group members, chosen ones; nobody goes to the flow admins', async () => {
    const flowAdmin = await person('流程管理员乙', { isFlowAdmin: true });
    const top = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: `总部-${crypto.randomUUID().slice(0, 4)}` } });
    const team = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '研发组', parentId: top.id } });
    const boss = await person('总经理');
    const member = await person('组员');
    const disabled = await person('已停用的组员');
    for (const [u, dept] of [[boss, top], [member, team], [disabled, team]] as const) {
      await ok(app(), 'PUT', `/api/Admin/Users/${u.userId}`, { token: adminToken, body: { deptId: dept.id } });
    }
    await ok(app(), 'POST', `/api/Admin/Users/${disabled.userId}/Disable`, { token: adminToken });
    // the team has no leader: its initiator's leader is the one above
    await ok(app(), 'PUT', `/api/Admin/Departments/${top.id}`, { token: adminToken, body: { leaderId: boss.userId } });
    const group = await ok(app(), 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: `财务组-${crypto.randomUUID().slice(0, 4)}` } });
    const [f1, f2] = await people(2);
    await ok(app(), 'PUT', `/api/Admin/Groups/${group.id}/Members`, { token: adminToken, body: { userIds: [f1.userId, f2.userId] } });
    const emptyDept = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '空部门', parentId: top.id } });

    const def = await define([
      { name: '直属领导', mode: 'sequential', approvers: [{ type: 'initiatorLeader' }] },
      { name: '部门成员', mode: 'all', approvers: [{ type: 'deptMembers', id: team.id }] },
      { name: '财务', mode: 'any', approvers: [{ type: 'groupMembers', id: group.id }] },
      { name: '没人', mode: 'any', approvers: [{ type: 'deptLeader', id: emptyDept.id }] },
      { name: '自选', mode: 'sequential', approvers: [{ type: 'initiatorChoice' }] },
    ]);
    const route = await ok(app(), 'GET', `/api/Workflow/Definitions/${def.id}/Route`, { token: member.token });
    const names = (s: any) => s.approvers.map((a: any) => a.name);
    expect(route.map((s: any) => [s.name, s.choose, s.fallback])).toEqual([
      ['直属领导', false, false],
      ['部门成员', false, false],
      ['财务', false, false],
      ['没人', false, true],
      ['自选', true, false],
    ]);
    expect(names(route[0])).toEqual(['总经理']);
    expect(names(route[1])).toEqual(['组员']);
    expect(names(route[2]).sort()).toEqual([f1.nickName, f2.nickName].sort());
    expect(names(route[3])).toEqual(expect.arrayContaining(['系统管理员', '流程管理员乙']));
    expect(route[4].approvers).toEqual([]);

    expectError(await start(member.token, def.id), 400, 40001, '请为步骤“自选”选择审批人');
    expectError(await start(member.token, def.id, { chosen: { 4: [disabled.userId] } }), 400, 40001, '所选的审批人不存在或已停用');
    const [chosen] = await people(1);
    const id = await started(member.token, def.id, { chosen: { 4: [chosen.userId] } });
    const d = await detail(member.token, id);
    expect(d.steps[3]).toMatchObject({ fallback: true });
    expect(d.steps[3].tasks.map((t: any) => t.name)).toEqual(expect.arrayContaining(['流程管理员乙']));
    expect(d.steps[4].tasks.map((t: any) => t.name)).toEqual([chosen.nickName]);
    // a future approver may already see it; the flow admin too
    expect((await detail(chosen.token, id)).instanceId).toBe(id);
    expect((await detail(flowAdmin.token, id)).instanceId).toBe(id);
  });

  test("a fresh install has 通用审批: the initiator's department leader, else the flow admins", async () => {
    const general = (await ok(app(), 'GET', '/api/Workflow/Definitions', { token: owner.token })).find((d: any) => d.name === '通用审批');
    expect(general).toMatchObject({ enabled: true, allowFiles: true, steps: [{ name: '部门负责人审批', approvers: [{ type: 'initiatorLeader', name: '发起人的部门负责人' }] }] });
    const initiator = await person('无领导的人');
    const id = await started(initiator.token, general.id, { form: { content: '申请一台显示器' } });
    const d = await detail(adminToken, id);
    expect(d.steps[0].fallback).toBe(true);
    expect(d.pending.map((u: any) => u.name)).toContain('系统管理员');
    expect((await act(adminToken, id, 'Approve')).body.result.status).toBe(2);
    // a leader that does not exist is refused when set
    const dept = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: `部门-${crypto.randomUUID().slice(0, 4)}` } });
    expectError(await call(app(), 'PUT', `/api/Admin/Departments/${dept.id}`, { token: adminToken, body: { leaderId: '987654321' } }), 400, 40001, '负责人不存在');
  });

  test('a changed definition never changes an instance already started', async () => {
    const [a, b] = await people(2);
    const body = definition([{ name: '原步骤', mode: 'sequential', approvers: [user(a)] }]);
    const def = await ok(app(), 'POST', '/api/Workflow/Definitions', { token: adminToken, body });
    const id = await started(owner.token, def.id);
    await ok(app(), 'PUT', `/api/Workflow/Definitions/${def.id}`, {
      token: adminToken,
      body: { ...body, name: '新名称', fields: [], steps: [{ name: '新步骤', mode: 'sequential', approvers: [user(b)] }] },
    });
    const d = await detail(owner.token, id);
    expect(d).toMatchObject({ definitionName: body.name, currentStep: '原步骤' });
    expect(d.fields.map((f: any) => f.label)).toEqual(['事由', '金额', '日期', '类型']);
    expect(ids(await box(b.token, 'todo'))).toEqual([]);
    await ok(app(), 'POST', `/api/Workflow/Instances/${id}/Approve`, { token: a.token, body: {} });
    expect((await detail(owner.token, id)).status).toBe(2);
    // a new instance takes the new version
    const next = await started(owner.token, def.id, { form: {} });
    expect((await detail(owner.token, next)).currentStep).toBe('新步骤');
  });

  test('two approvers at the same moment on a 或签 step: exactly one passes it, the instance ends once', async () => {
    const approvers = await people(6);
    const def = await define([{ name: '或签', mode: 'any', approvers: approvers.map(user) }]);
    const id = await started(owner.token, def.id);
    const results = await Promise.all(approvers.map((a) => act(a.token, id, 'Approve')));
    const passed = results.filter((r) => r.body.code === 200);
    expect(passed).toHaveLength(1);
    for (const r of results.filter((x) => x.body.code !== 200)) expect([40301, 40901]).toContain(r.body.code);
    const d = await detail(owner.token, id);
    expect(d.status).toBe(2);
    expect(d.timeline.filter((e: any) => e.kind === 'approve')).toHaveLength(1);
    expect(d.timeline.filter((e: any) => e.kind === 'finish')).toHaveLength(1);

    // 会签 at the same moment: every approval counts, the step finishes once
    const all = await define([{ name: '会签', mode: 'all', approvers: approvers.map(user) }]);
    const id2 = await started(owner.token, all.id);
    const results2 = await Promise.all(approvers.map((a) => act(a.token, id2, 'Approve')));
    expect(results2.map((r) => r.body.code)).toEqual(approvers.map(() => 200));
    const d2 = await detail(owner.token, id2);
    expect(d2.status).toBe(2);
    expect(d2.timeline.filter((e: any) => e.kind === 'approve')).toHaveLength(6);
    expect(d2.timeline.filter((e: any) => e.kind === 'finish')).toHaveLength(1);

    // a write computed from a version that has moved is refused, and nothing changes
    const id3 = Number(await started(owner.token, def.id));
    const row = (await findInstance(app().db, id3))!;
    await ok(app(), 'POST', `/api/Workflow/Instances/${id3}/Approve`, { token: approvers[0].token, body: {} });
    const stale = { ...JSON.parse(row.state), status: 3, version: row.version + 1 };
    expect(await saveState(app().db, id3, row.version, stale, Date.now())).toBe(false);
    expect((await detail(owner.token, String(id3))).status).toBe(2);
  });

  test('who may see an instance: initiator, route, CC and flow admins; anyone else 404 on every call', async () => {
    const [a, cc] = await people(2);
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [user(a)] }], { cc: [user(cc)] });
    const folder = await makeFolder(app(), owner.token, ownerRoot.id, `附件-${crypto.randomUUID().slice(0, 4)}`);
    const file = await makeFile(app(), owner.token, owner.userId, folder.id, '方案.txt', '第一版');
    const id = await started(owner.token, def.id, { fileIds: [file.id] });
    for (const who of [owner, a, cc]) expect((await detail(who.token, id)).instanceId).toBe(id);
    expect((await detail(adminToken, id)).instanceId).toBe(id);

    for (const res of [
      await call(app(), 'GET', `/api/Workflow/Instances/${id}`, { token: outsider.token }),
      await act(outsider.token, id, 'Approve'),
      await act(outsider.token, id, 'Comment', { comment: '路过' }),
      await act(outsider.token, id, 'Revoke'),
      await call(app(), 'GET', `/api/Workflow/Instances/${id}/Files/${file.id}`, { token: outsider.token }),
      await call(app(), 'GET', '/api/Workflow/Instances/987654321', { token: owner.token }),
    ]) {
      expectError(res, 404, 404);
    }
    for (const b of ['todo', 'done', 'mine', 'cc']) expect(ids(await box(outsider.token, b))).not.toContain(id);
    expect((await detail(owner.token, id)).timeline.map((e: any) => e.kind)).toEqual(['start']);
    expectError(await call(app(), 'GET', `/api/Workflow/Instances/${id}`), 401, 401);
  });

  test('the rights matrix: every action for the initiator, the current and a later approver, CC, a flow admin off the route and an outsider, with the state read back', async () => {
    const [a, b, cc] = await people(3);
    const flowAdmin = await person('流程管理员丙', { isFlowAdmin: true });
    const def = await define(
      [
        { name: '一审', mode: 'sequential', approvers: [user(a)] },
        { name: '二审', mode: 'sequential', approvers: [user(b)] },
      ],
      { cc: [user(cc)] },
    );
    const id = await started(owner.token, def.id);
    const cast = { initiator: owner, current: a, later: b, cc, flowAdmin, outsider } as const;
    const body = { comment: '意见', userId: outsider.userId, toStep: 0 };
    // what each may do while step 1 waits for `current`: 200, or the refusal's [status, code]
    const expected: Record<string, Record<keyof typeof cast, number | [number, number]>> = {
      Approve: { initiator: [403, 40301], current: 200, later: [403, 40301], cc: [403, 40301], flowAdmin: [403, 40301], outsider: [404, 404] },
      Reject: { initiator: [403, 40301], current: 200, later: [403, 40301], cc: [403, 40301], flowAdmin: [403, 40301], outsider: [404, 404] },
      Transfer: { initiator: [403, 40301], current: 200, later: [403, 40301], cc: [403, 40301], flowAdmin: [403, 40301], outsider: [404, 404] },
      AddApprover: { initiator: [403, 40301], current: 200, later: [403, 40301], cc: [403, 40301], flowAdmin: [403, 40301], outsider: [404, 404] },
      Revoke: { initiator: 200, current: [403, 40301], later: [403, 40301], cc: [403, 40301], flowAdmin: [403, 40301], outsider: [404, 404] },
      Comment: { initiator: 200, current: 200, later: 200, cc: 200, flowAdmin: 200, outsider: [404, 404] },
    };
    for (const [action, row] of Object.entries(expected)) {
      for (const [role, want] of Object.entries(row) as [keyof typeof cast, number | [number, number]][]) {
        if (want === 200 && action !== 'Comment') continue; // the allowed decisions are exercised elsewhere; here nothing may change
        const res = await act(cast[role].token, id, action, body);
        if (typeof want === 'number') expect([role, action, res.body.code]).toEqual([role, action, want]);
        else expect([role, action, res.status, res.body.code]).toEqual([role, action, ...want]);
      }
    }
    for (const role of Object.keys(cast) as (keyof typeof cast)[]) {
      const res = await call(app(), 'GET', `/api/Workflow/Instances/${id}`, { token: cast[role].token });
      expect([role, res.status]).toEqual([role, role === 'outsider' ? 404 : 200]);
    }
    // read back: still at step 1 with `current` pending; only the start and the five comments logged
    const d = await detail(owner.token, id);
    expect(d).toMatchObject({ status: 1, currentStep: '一审', pending: [{ userId: a.userId }] });
    expect(d.timeline.map((e: any) => e.kind)).toEqual(['start', 'comment', 'comment', 'comment', 'comment', 'comment']);
    expect(d.timeline.filter((e: any) => e.kind === 'comment').map((e: any) => e.user.userId).sort()).toEqual(
      [owner.userId, a.userId, b.userId, cc.userId, flowAdmin.userId].sort(),
    );
    // what `can` says matches: only the current approver decides, only the initiator revokes
    expect((await detail(a.token, id)).can).toMatchObject({ approve: true, reject: true, transfer: true, addApprover: true, revoke: false, returnTo: [] });
    expect((await detail(owner.token, id)).can).toMatchObject({ approve: false, revoke: true });
    for (const who of [b, cc, flowAdmin]) expect((await detail(who.token, id)).can).toMatchObject({ approve: false, reject: false, transfer: false, revoke: false, comment: true });
  });

  test('attached files: visible downloadable files only, the version attached is what approvers see, kept after the file changes; closed to approvers at the end', async () => {
    const [a] = await people(1);
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [user(a)] }]);
    const folder = await makeFolder(app(), owner.token, ownerRoot.id, `附件-${crypto.randomUUID().slice(0, 4)}`);
    const file = await makeFile(app(), owner.token, owner.userId, folder.id, '合同.pdf', '%PDF-1.4 第一版');
    const secret = await makeFile(app(), outsider.token, outsider.userId, (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: outsider.token }))[0].id, '别人的.txt', 'x');

    expectError(await start(owner.token, def.id, { fileIds: [folder.id] }), 400, 40001, '只能附加文件');
    expectError(await start(owner.token, def.id, { fileIds: [secret.id] }), 404, 404);
    expectError(await start(owner.token, def.id, { fileIds: Array.from({ length: 21 }, (_, i) => String(900000 + i)) }), 400, 40001, '最多只能附加 20 个文件');
    const noFiles = await define([{ name: '审批', mode: 'sequential', approvers: [user(a)] }], { allowFiles: false });
    expectError(await start(owner.token, noFiles.id, { fileIds: [file.id] }), 400, 40001, '不能附加文件');

    const id = await started(owner.token, def.id, { fileIds: [file.id, file.id] });
    const d = await detail(a.token, id);
    expect(d.files).toEqual([{ fileId: file.id, versionId: file.versionId, name: '合同.pdf', extension: 'pdf', size: Buffer.byteLength('%PDF-1.4 第一版'), url: `/api/Workflow/Instances/${id}/Files/${file.id}` }]);

    // the file changes and is purged from the recycle bin: the approver still sees what was attached
    await setContent(app(), file.id, Buffer.from('%PDF-1.4 第二版，已改'), owner.userId);
    await ok(app(), 'DELETE', '/api/User/Files', { token: owner.token, body: [file.id] });
    await ok(app(), 'DELETE', '/api/User/Recycle', { token: owner.token, body: [file.id] });
    const view = await raw(app(), 'GET', d.files[0].url, { token: a.token });
    expect(view.status).toBe(200);
    expect(view.payload.toString()).toBe('%PDF-1.4 第一版');
    expect(view.headers['content-type']).toBe('application/pdf');
    expect(String(view.headers['content-disposition'])).toMatch(/^inline;/);
    const byCookie = await raw(app(), 'GET', d.files[0].url, { cookie: a.jwtId });
    expect(byCookie.status).toBe(200);

    await ok(app(), 'POST', `/api/Workflow/Instances/${id}/Approve`, { token: a.token, body: {} });
    expect((await detail(a.token, id)).files[0].url).toBe('');
    expectError(await call(app(), 'GET', `/api/Workflow/Instances/${id}/Files/${file.id}`, { token: a.token }), 403, 40301, '审批已结束');
    const own = await raw(app(), 'GET', d.files[0].url, { token: owner.token });
    expect(own.payload.toString()).toBe('%PDF-1.4 第一版');
  });

  test('the form is checked against the definition; the title is required; a switched-off workflow feature refuses plain starts', async () => {
    const [a] = await people(1);
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [user(a)] }]);
    expectError(await start(owner.token, def.id, { form: {} }), 400, 40001, '请填写“事由”');
    expectError(await start(owner.token, def.id, { form: { reason: 'x', amount: '一百' } }), 400, 40001, '“金额”必须是数字');
    expectError(await start(owner.token, def.id, { form: { reason: 'x', day: '2026-02-30' } }), 400, 40001, '“日期”必须是');
    expectError(await start(owner.token, def.id, { form: { reason: 'x', kind: '旅游' } }), 400, 40001, '不在可选项中');
    expectError(await start(owner.token, def.id, { title: '  ' }), 400, 40001, '请填写标题');
    expectError(await call(app(), 'POST', '/api/Workflow/Instances', { token: owner.token, body: { definitionId: def.id } }), 400, 40001);
    expect(ids(await box(a.token, 'todo'))).toEqual([]);

    // keyword and date filters
    const id = await started(owner.token, def.id, { title: '采购笔记本电脑' });
    const today = (await detail(owner.token, id)).createdAt.slice(0, 10);
    expect(ids(await box(owner.token, 'mine', { keyword: '笔记本' }))).toEqual([id]);
    expect(ids(await box(owner.token, 'mine', { keyword: (await detail(owner.token, id)).number }))).toEqual([id]);
    expect(ids(await box(owner.token, 'mine', { from: today, to: today, definitionId: def.id }))).toEqual([id]);
    expect(ids(await box(owner.token, 'mine', { to: '2000-01-01' }))).toEqual([]);

    const policy = await ok(app(), 'GET', '/api/User/GlobalPolicies/FeaturePolicy', { token: adminToken });
    await ok(app(), 'PUT', '/api/Admin/FeaturePolicy', { token: adminToken, body: { ...policy, workflow: false } });
    try {
      expectError(await start(owner.token, def.id), 403, 40301, '流程功能未开放');
    } finally {
      await ok(app(), 'PUT', '/api/Admin/FeaturePolicy', { token: adminToken, body: policy });
    }
  });

  test('the module that started an instance is told of its end once, and again after a failed handler', async () => {
    const [a] = await people(1);
    const def = await define([{ name: '审批', mode: 'sequential', approvers: [user(a)] }]);
    const seen: Array<{ sourceId: string; status: number }> = [];
    let fail = true;
    app().services.workflow.onEnd('test-source', async (end) => {
      if (fail) throw new Error('下游暂时不可用');
      seen.push({ sourceId: end.sourceId, status: end.status });
    });
    const ownerRow = (await app().db.selectFrom('users').selectAll().where('id', '=', Number(owner.userId)).executeTakeFirstOrThrow());
    const { instanceId } = await app().services.workflow.start(
      ownerRow,
      { definitionId: def.id, title: '摆渡', form: { reason: '送出' }, fileIds: [] },
      { source: 'test-source', sourceId: 'task-1' },
    );
    await ok(app(), 'POST', `/api/Workflow/Instances/${instanceId}/Reject`, { token: a.token, body: { comment: '不行' } });
    expect(seen).toEqual([]);
    fail = false;
    expect(await app().services.workflow.sweepEnds()).toBe(1);
    expect(seen).toEqual([{ sourceId: 'task-1', status: 3 }]);
    expect(await app().services.workflow.sweepEnds()).toBe(0);
    expect(seen).toHaveLength(1);
  });
});
