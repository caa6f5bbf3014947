// 离职交接 through the real server on SQLite and PostgreSQL: the preview of what a leaver holds;
// the handover by a system administrator (personal files moved into a folder of the successor's
// with the same bytes, the pending approval task transferred and approvable, the running flows
// followed by the successor, shares kept working, the unfinished ferry task handed over, the
// account disabled and kept, the record of the action); a second handover refused; refusals
// (successor missing, disabled, the same person, already left; oneself; outside a department
// administrator's subtree) with the state read back; a department administrator's handover with
// the shares cancelled; the posts (部门负责人, 部门管理员) listed by full path and passed to the
// successor (no duplicate rows, the leaver keeping none), and a department administrator refused
// the posts they may not give. Also the engine's pure handover of tasks.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { call, databaseKinds, ENGLISH_FRAMEWORK_TEXT, HAN, login, ok, startServer, type CallResult, type TestServer } from './support/harness';
import { makeFile, makeFolder, raw } from './support/content';
import { handOverTasks, INSTANCE_STATUS, startInstance } from '../src/modules/workflow/engine';

describe('the engine hands over what a leaver still has to do', () => {
  const LEAVER = 10;
  const SUCCESSOR = 20;
  const OTHER = 30;

  test('a pending task is transferred; the leaver is replaced in later steps; an instance without the leaver is unchanged', () => {
    const { state } = startInstance(
      [
        { name: '一', mode: 'sequential', approvers: [LEAVER, OTHER] },
        { name: '二', mode: 'any', approvers: [OTHER, LEAVER] },
      ],
      [],
      1,
    );
    const r = handOverTasks(state, LEAVER, SUCCESSOR, '离职交接：转交给 乙');
    expect(r.changed).toBe(true);
    expect(r.transferred).toBe(1);
    expect(r.state.version).toBe(state.version + 1);
    expect(r.state.steps[0].tasks).toEqual([
      { userId: LEAVER, status: 'transferred' },
      { userId: SUCCESSOR, status: 'pending', from: LEAVER },
      { userId: OTHER, status: 'waiting' },
    ]);
    expect(r.state.steps[0].approvers).toEqual([SUCCESSOR, OTHER]);
    expect(r.state.steps[1].approvers).toEqual([OTHER, SUCCESSOR]);
    expect(r.log).toEqual([{ kind: 'transfer', userId: LEAVER, step: 0, comment: '离职交接：转交给 乙', target: SUCCESSOR }]);
    expect(handOverTasks(r.state, LEAVER, SUCCESSOR, '').changed).toBe(false);
  });

  test('when the successor already waits in the step, the leaver’s task is closed and the next in line decides; never ends the instance', () => {
    const { state } = startInstance([{ name: '一', mode: 'sequential', approvers: [LEAVER, OTHER, SUCCESSOR] }], [], 1);
    const r = handOverTasks(state, LEAVER, SUCCESSOR, '');
    expect(r.state.status).toBe(INSTANCE_STATUS.processing);
    expect(r.state.steps[0].tasks.map((t) => [t.userId, t.status])).toEqual([
      [LEAVER, 'transferred'],
      [OTHER, 'pending'],
      [SUCCESSOR, 'waiting'],
    ]);
    expect(r.state.steps[0].approvers).toEqual([SUCCESSOR, OTHER]);
    // a waiting task of the leaver next to the successor's is cancelled
    const waiting = startInstance([{ name: '一', mode: 'sequential', approvers: [OTHER, LEAVER, SUCCESSOR] }], [], 1).state;
    expect(handOverTasks(waiting, LEAVER, SUCCESSOR, '').state.steps[0].tasks.map((t) => [t.userId, t.status])).toEqual([
      [OTHER, 'pending'],
      [LEAVER, 'cancelled'],
      [SUCCESSOR, 'waiting'],
    ]);
  });
});

describe.each(databaseKinds())('离职交接 (%s)', (kind) => {
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-leavers-'));
  let server: TestServer;
  let adminToken: string;
  let adminId: string;
  let hq: string;
  let rd: string;
  let sales: string;
  const app = () => server.app;

  beforeAll(async () => {
    server = await startServer(kind, {
      env: { FERRY_ZONE: '内网', FERRY_SECRET: 'leaver-test-secret-0123456789', FERRY_PEERS: `外网=spool:${path.join(spool, 'out')}`, FERRY_POLL_MS: '3600000' },
    });
    adminToken = (await login(app())).token;
    adminId = (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { keyword: 'admin', pageSize: 200 } })).data.find((u: any) => u.userName === 'admin').userId;
    hq = (await ok(app(), 'GET', '/api/Admin/Departments/Tree', { token: adminToken }))[0].id;
    rd = (await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '研发中心', parentId: hq } })).id;
    sales = (await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: '销售部', parentId: hq } })).id;
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  const expectError = (res: CallResult | { status: number; json: any }, status: number, code: number, message?: RegExp) => {
    const body = 'json' in res ? res.json : res.body;
    expect({ status: res.status, code: body?.code, result: body?.result }).toEqual({ status, code, result: null });
    expect(body.message).toMatch(HAN);
    expect(body.message).not.toMatch(ENGLISH_FRAMEWORK_TEXT);
    if (message) expect(body.message).toMatch(message);
  };

  let seq = 0;
  async function person(nickName: string, deptId: string | null) {
    const userName = `lv${++seq}_${crypto.randomUUID().slice(0, 6)}`;
    const password = `Leaver-Passw0rd-${seq}`;
    const { userId } = await ok(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName, nickName, password, deptId, mustChangePassword: false } });
    const token = (await login(app(), userName, password)).token as string;
    return { userId: userId as string, userName, nickName, password, token };
  }
  type Person = Awaited<ReturnType<typeof person>>;
  const rootOf = async (token: string) => (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id as string;
  const names = async (token: string, folderId: string) =>
    (await ok(app(), 'GET', `/api/User/Folders/${folderId}/Items`, { token, query: { pageSize: 200 } })).items.data.map((i: any) => i.name).sort();
  const preview = (userId: string, token = adminToken) => call(app(), 'GET', `/api/Admin/Users/${userId}/Handover`, { token });
  const handOver = (userId: string, body: Record<string, unknown>, token = adminToken) => call(app(), 'POST', `/api/Admin/Users/${userId}/Handover`, { token, body });
  const adminRow = async (userName: string) =>
    (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { keyword: userName, pageSize: 200 } })).data.find((u: any) => u.userName === userName);
  async function externalShare(token: string, fileIds: string[]) {
    return ok<{ shareId: string; accessKey: string }>(app(), 'POST', '/api/User/Shares', {
      token,
      body: { fileIds, shareType: 2, level: 2, expireAt: null, accessKey: '', downloadLimit: null },
    });
  }
  const externalDownload = (shareId: string, accessKey: string, fileId: string) =>
    raw(app(), 'GET', `/api/User/FileTransfer/ExternalDownload/${fileId}?urlKey=${shareId}&accessKey=${encodeURIComponent(accessKey)}`);
  const rule = (u: Person) => ({ type: 'user', id: u.userId });
  async function define(steps: { name: string; mode: string; approvers: { type: string; id: string }[] }[]) {
    return ok(app(), 'POST', '/api/Workflow/Definitions', {
      token: adminToken,
      body: {
        name: `流程-${crypto.randomUUID().slice(0, 6)}`,
        category: '行政',
        description: '',
        enabled: true,
        fields: [{ key: 'reason', label: '事由', type: 'textarea', required: true }],
        allowFiles: true,
        steps,
        cc: [],
        revoke: 'untouched',
      },
    });
  }
  const start = async (token: string, definitionId: string, title: string) =>
    (await ok(app(), 'POST', '/api/Workflow/Instances', { token, body: { definitionId, title, form: { reason: '交接测试' }, fileIds: [] } })).instanceId as string;
  const box = async (token: string, b: string) =>
    (await ok(app(), 'GET', '/api/Workflow/Instances', { token, query: { box: b, page: 1, pageSize: 50 } })).data.map((r: any) => r.instanceId);

  test('the handover by a system administrator: preview, files, approvals, flows, shares, ferry, the account, the record; a second one is refused', async () => {
    const leaver = await person('离职者甲', rd);
    const successor = await person('接任者乙', rd);
    const colleague = await person('同事丙', rd);
    const applicant = await person('申请人丁', rd);
    const approver = await person('审批人戊', rd);

    // the leaver's personal space: a folder tree, a file at the top, one in the recycle bin
    const leaverRoot = await rootOf(leaver.token);
    const project = await makeFolder(app(), leaver.token, leaverRoot, '项目资料');
    const plan = await makeFile(app(), leaver.token, leaver.userId, project.id, '方案.txt', '第一版方案');
    const drawings = await makeFolder(app(), leaver.token, project.id, '图纸');
    const drawingBytes = crypto.randomBytes(5000);
    const drawing = await makeFile(app(), leaver.token, leaver.userId, drawings.id, '总图.bin', drawingBytes);
    const resume = await makeFile(app(), leaver.token, leaver.userId, leaverRoot, '交接说明.txt', '请联系乙');
    const trash = await makeFile(app(), leaver.token, leaver.userId, leaverRoot, '旧稿.txt', '不要了');
    await ok(app(), 'DELETE', '/api/User/Files', { token: leaver.token, body: [trash.id] });
    const liveBytes = Buffer.byteLength('第一版方案') + drawingBytes.length + Buffer.byteLength('请联系乙');

    // approvals: a task waiting for the leaver (and a later step naming them), a flow they started
    const reviewed = await define([
      { name: '组长审批', mode: 'sequential', approvers: [rule(leaver)] },
      { name: '复核', mode: 'any', approvers: [rule(approver), rule(leaver)] },
    ]);
    const waiting = await start(applicant.token, reviewed.id, '采购申请');
    const plain = await define([{ name: '主管审批', mode: 'sequential', approvers: [rule(approver)] }]);
    const mine = await start(leaver.token, plain.id, '出差申请');

    // shares: an external link to the folder, an internal share of a file to a colleague
    const link = await externalShare(leaver.token, [project.id]);
    const internal = await ok(app(), 'POST', '/api/User/Shares', {
      token: leaver.token,
      body: { fileIds: [resume.id], shareType: 1, level: 2, expireAt: null, targets: [{ type: 1, id: colleague.userId }], downloadLimit: null },
    });
    expect((await externalDownload(link.shareId, link.accessKey, plan.id)).status).toBe(200);

    // a ferry task in approval (the flow admins decide: the department has no leader)
    const ferried = await ok(app(), 'POST', '/api/Ferry/FerryTasks', {
      token: leaver.token,
      body: { fileIds: [plan.id], targetZone: '外网', recipients: ['bob'], reason: '项目资料交换' },
    });
    expect(ferried.status).toBe('pending');

    // the successor already has a folder of the name the handover would take
    const day = app().services.formatTime(Date.now()).slice(0, 10).replace(/-/g, '');
    const successorRoot = await rootOf(successor.token);
    await makeFolder(app(), successor.token, successorRoot, `离职交接-离职者甲-${day}`);
    const usedBefore = (await adminRow(successor.userName)).used;

    const seen = await ok(app(), 'GET', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken });
    expect(seen).toEqual({
      userId: leaver.userId,
      userName: leaver.userName,
      nickName: '离职者甲',
      disabled: false,
      leftAt: null,
      files: { count: 5, bytes: liveBytes },
      pendingTasks: 1,
      runningFlows: 2, // 出差申请, and the ferry task's approval
      shares: { count: 2 },
      ferryTasks: { count: 1 },
      leaderOf: [],
      adminOf: [],
    });

    const done = await ok(app(), 'POST', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken, body: { successorId: successor.userId, shares: 'keep' } });
    expect(done).toMatchObject({
      userId: leaver.userId,
      successorId: successor.userId,
      folder: { name: `离职交接-离职者甲-${day} (2)` },
      files: { count: 5, bytes: liveBytes },
      pendingTasks: 1,
      runningFlows: 2,
      shares: { mode: 'keep', count: 2 },
      ferryTasks: { count: 1 },
      leaderOf: [],
      adminOf: [],
    });

    // files: under the new folder of the successor's space, names kept, the same bytes
    expect(await names(successor.token, successorRoot)).toEqual([`离职交接-离职者甲-${day}`, `离职交接-离职者甲-${day} (2)`]);
    expect(await names(successor.token, done.folder.id)).toEqual(['交接说明.txt', '项目资料']);
    expect(await names(successor.token, drawings.id)).toEqual(['总图.bin']);
    const got = await raw(app(), 'GET', `/api/User/FileTransfer/Download/${drawing.id}`, { token: successor.token });
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.payload, drawingBytes)).toBe(0);
    const item = await ok(app(), 'GET', `/api/User/Files/${plan.id}`, { token: successor.token });
    expect(item).toMatchObject({ ownerId: successor.userId, namePath: expect.stringContaining(`/离职交接-离职者甲-${day} (2)/项目资料/方案.txt`) });
    // what the leaver had thrown away is in the successor's recycle bin, restorable into the folder
    const bin = await ok(app(), 'GET', '/api/User/Recycle', { token: successor.token, query: { page: 1, pageSize: 50 } });
    expect(bin.data.map((r: any) => [r.name, r.originalPath])).toContainEqual(['旧稿.txt', expect.stringContaining(`离职交接-离职者甲-${day} (2)`)]);
    // the bytes count against the successor from now on (the recycle bin included)
    expect((await adminRow(successor.userName)).used).toBe(usedBefore + liveBytes + Buffer.byteLength('不要了'));
    const leftBehind = await app()
      .db.selectFrom('items')
      .select('id')
      .where('space_type', '=', 2)
      .where('owner_id', '=', Number(leaver.userId))
      .where('parent_id', 'is not', null)
      .execute();
    expect(leftBehind).toEqual([]);

    // the pending task: in the successor's 待我审批, the record shows the transfer; approving it goes on
    expect(await box(successor.token, 'todo')).toContain(waiting);
    let d = await ok(app(), 'GET', `/api/Workflow/Instances/${waiting}`, { token: successor.token });
    const transfer = d.timeline.find((t: any) => t.kind === 'transfer');
    expect(transfer).toMatchObject({ user: { userId: leaver.userId, name: '离职者甲' }, target: { userId: successor.userId, name: '接任者乙' }, comment: '离职交接：转交给 接任者乙' });
    expect(d.steps[0].tasks.map((t: any) => [t.name, t.status])).toEqual([['离职者甲', 'transferred'], ['接任者乙', 'pending']]);
    d = await ok(app(), 'POST', `/api/Workflow/Instances/${waiting}/Approve`, { token: successor.token, body: { comment: '同意' } });
    expect(d.currentStep).toBe('复核');
    expect(d.steps[1].tasks.map((t: any) => [t.name, t.status])).toEqual([['审批人戊', 'pending'], ['接任者乙', 'pending']]);

    // the flow the leaver started: the successor follows it (我发起的); the record still names the leaver
    expect(await box(successor.token, 'mine')).toContain(mine);
    const followed = await ok(app(), 'GET', `/api/Workflow/Instances/${mine}`, { token: successor.token });
    expect(followed.initiator).toEqual({ userId: successor.userId, name: '接任者乙' });
    expect(followed.timeline[0]).toMatchObject({ kind: 'start', user: { userId: leaver.userId, name: '离职者甲' } });
    expect(followed.timeline.map((t: any) => t.comment)).toContain('离职交接：发起人由 离职者甲 改为 接任者乙，由其继续跟进');
    expect(followed.can.revoke).toBe(true);

    // shares: the link still downloads (now from the successor's space), the colleague still reads
    const viaLink = await externalDownload(link.shareId, link.accessKey, plan.id);
    expect(viaLink.status).toBe(200);
    expect(viaLink.payload.toString()).toBe('第一版方案');
    expect((await raw(app(), 'GET', `/api/User/FileTransfer/Download/${resume.id}?shareId=${internal.shareId}`, { token: colleague.token })).status).toBe(200);
    const sent = await ok(app(), 'GET', '/api/User/Shares/Sent', { token: successor.token, query: { page: 1, pageSize: 20 } });
    expect(sent.data.map((s: any) => [s.shareId, s.status])).toEqual(expect.arrayContaining([[link.shareId, 1], [internal.shareId, 1]]));

    // the ferry task: the successor's now, its record tells why
    const tasks = await ok(app(), 'GET', '/api/Ferry/FerryTasks', { token: successor.token, query: { status: 'processing', page: 1, pageSize: 20 } });
    expect(tasks.data.map((t: any) => t.taskId)).toEqual([ferried.taskId]);
    const ferryDetail = await ok(app(), 'GET', `/api/Ferry/FerryTasks/${ferried.taskId}`, { token: successor.token });
    expect(ferryDetail.can.cancel).toBe(true);
    expect(ferryDetail.events.map((e: any) => e.text)).toContain('离职交接：申请人由 离职者甲 改为 接任者乙');
    expect((await ok(app(), 'GET', '/api/Ferry/Audit/Verify', { token: adminToken })).ok).toBe(true);

    // the account: signed out everywhere, cannot sign in, kept (disabled) in the list
    const oldToken = await call(app(), 'GET', '/api/User/Home', { token: leaver.token });
    expect([401, 403]).toContain(oldToken.status);
    const again = await call(app(), 'POST', '/api/login', { body: { userName: leaver.userName, password: leaver.password, mode: 'password' } });
    expect(again.status).toBe(403);
    expect(await adminRow(leaver.userName)).toMatchObject({ nickName: '离职者甲', disabled: true });
    expect((await ok(app(), 'GET', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken })).leftAt).toBe(done.leftAt);

    // the record of the action
    const actions = await ok(app(), 'GET', '/api/Admin/Actions', { token: adminToken, query: { page: 1, pageSize: 5 } });
    expect(actions.data[0]).toMatchObject({ action: '离职交接', targetType: 'user', targetId: leaver.userId, targetName: leaver.userName, actorName: 'admin' });
    for (const part of [successor.userName, '个人文件 5 个', '待审批 1 项已转交', '进行中的流程 2 个', '分享 2 个转给接任者', '摆渡任务 1 个转给接任者', '部门负责人：无', '部门管理员：无', '停用']) {
      expect(actions.data[0].detail).toContain(part);
    }

    // once only; a person who left cannot take over someone else's work
    expectError(await handOver(leaver.userId, { successorId: successor.userId, shares: 'keep' }), 409, 40901, /已办理/);
    const other = await person('另一位', rd);
    expectError(await handOver(other.userId, { successorId: leaver.userId, shares: 'keep' }), 400, 40001, /已离职/);
    expect((await adminRow(other.userName)).disabled).toBe(false);
  });

  test('refusals change nothing; a department administrator hands over within their subtree, the shares cancelled', async () => {
    const leaver = await person('离职者己', rd);
    const successor = await person('接任者庚', rd);
    const stranger = await person('外部门辛', sales);
    const disabled = await person('已停用壬', rd);
    await ok(app(), 'POST', `/api/Admin/Users/${disabled.userId}/Disable`, { token: adminToken });
    const rdAdmin = await person('研发管理员', rd);
    const salesAdmin = await person('销售管理员', sales);
    await ok(app(), 'PUT', `/api/Admin/Departments/${rd}/Admins`, { token: adminToken, body: { userIds: [rdAdmin.userId] } });
    await ok(app(), 'PUT', `/api/Admin/Departments/${sales}/Admins`, { token: adminToken, body: { userIds: [salesAdmin.userId] } });

    const root = await rootOf(leaver.token);
    const doc = await makeFile(app(), leaver.token, leaver.userId, root, '周报.txt', '本周进展');
    const link = await externalShare(leaver.token, [doc.id]);

    const body = { successorId: successor.userId, shares: 'cancel' };
    // not an administrator at all; a department administrator outside the subtree (leaver, or successor)
    expectError(await preview(leaver.userId, successor.token), 403, 40301);
    expectError(await handOver(leaver.userId, body, successor.token), 403, 40301);
    expectError(await preview(leaver.userId, salesAdmin.token), 403, 40301);
    expectError(await handOver(leaver.userId, body, salesAdmin.token), 403, 40301, /不在您管理的部门/);
    expectError(await handOver(leaver.userId, { successorId: stranger.userId, shares: 'cancel' }, rdAdmin.token), 403, 40301, /接任者不在/);
    // bad successors, oneself
    expectError(await handOver(leaver.userId, { successorId: '999999999', shares: 'cancel' }), 400, 40001, /接任者不存在/);
    expectError(await handOver(leaver.userId, { successorId: leaver.userId, shares: 'cancel' }), 400, 40001, /本人/);
    expectError(await handOver(leaver.userId, { successorId: disabled.userId, shares: 'cancel' }), 400, 40001, /停用/);
    expectError(await handOver(adminId, body), 400, 40001, /自己/);
    expectError(await handOver(rdAdmin.userId, body, rdAdmin.token), 400, 40001, /自己/);
    expectError(await handOver('999999999', body), 404, 404);
    expect((await handOver(leaver.userId, { successorId: successor.userId, shares: 'maybe' })).status).toBe(400);

    // nothing changed: the leaver still signs in and works, the files and the link are where they were
    expect((await call(app(), 'GET', '/api/User/Home', { token: leaver.token })).status).toBe(200);
    expect(await ok(app(), 'GET', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken })).toMatchObject({
      disabled: false,
      leftAt: null,
      files: { count: 1 },
      shares: { count: 1 },
    });
    expect(await names(leaver.token, root)).toEqual(['周报.txt']);
    expect((await externalDownload(link.shareId, link.accessKey, doc.id)).status).toBe(200);
    expect((await ok(app(), 'GET', '/api/Admin/Actions', { token: adminToken, query: { page: 1, pageSize: 20 } })).data.filter((a: any) => a.action === '离职交接').map((a: any) => a.targetName)).not.toContain(leaver.userName);

    // the department administrator of both: the shares are cancelled like 取消分享
    expect(await ok(app(), 'GET', `/api/Admin/Users/${leaver.userId}/Handover`, { token: rdAdmin.token })).toMatchObject({ files: { count: 1 }, shares: { count: 1 } });
    const done = await ok(app(), 'POST', `/api/Admin/Users/${leaver.userId}/Handover`, { token: rdAdmin.token, body });
    expect(done).toMatchObject({ shares: { mode: 'cancel', count: 1 }, files: { count: 1 }, pendingTasks: 0, runningFlows: 0, ferryTasks: { count: 0 } });
    expectError(await externalDownload(link.shareId, link.accessKey, doc.id), 401, 401);
    expect(await names(successor.token, done.folder.id)).toEqual(['周报.txt']);
    // cancelled as the owner's own 取消分享 would: kept with the leaver, marked cancelled
    expect(await app().db.selectFrom('shares').select(['owner_id', 'deleted']).where('id', '=', link.shareId).executeTakeFirst()).toEqual({
      owner_id: Number(leaver.userId),
      deleted: 1,
    });
    expectError(await handOver(leaver.userId, body, rdAdmin.token), 409, 40901);
  });

  test('a handover that fails half-way leaves nothing half-done; run again, it completes once', async () => {
    const leaver = await person('离职者癸', rd);
    const successor = await person('接任者子', rd);
    const root = await rootOf(leaver.token);
    const folder = await makeFolder(app(), leaver.token, root, '合同');
    const contract = await makeFile(app(), leaver.token, leaver.userId, folder.id, '合同.txt', '甲方乙方');
    const link = await externalShare(leaver.token, [folder.id]);
    const body = { successorId: successor.userId, shares: 'keep' };

    // the last step but one breaks (as a crash would): the transaction is rolled back
    const failing = jest.spyOn(app().services.ferry, 'handOver').mockRejectedValueOnce(new Error('断电'));
    expect((await handOver(leaver.userId, body)).status).toBe(500);
    failing.mockRestore();
    expect(await app().db.selectFrom('items').select('name').where('parent_id', '=', Number(root)).where('deleted_at', 'is', null).execute()).toEqual([{ name: '合同' }]);
    expect(await ok(app(), 'GET', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken })).toMatchObject({ disabled: true, leftAt: null, files: { count: 2 } });
    expect(await names(successor.token, await rootOf(successor.token))).toEqual([]);
    expect((await app().db.selectFrom('shares').select('owner_id').where('id', '=', link.shareId).executeTakeFirstOrThrow()).owner_id).toBe(Number(leaver.userId));

    // again: everything once
    const done = await ok(app(), 'POST', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken, body });
    expect(done).toMatchObject({ files: { count: 2 }, shares: { mode: 'keep', count: 1 } });
    expect(await names(successor.token, await rootOf(successor.token))).toEqual([done.folder.name]);
    expect(await names(successor.token, done.folder.id)).toEqual(['合同']);
    expect((await externalDownload(link.shareId, link.accessKey, contract.id)).payload.toString()).toBe('甲方乙方');
    const records = (await ok(app(), 'GET', '/api/Admin/Actions', { token: adminToken, query: { page: 1, pageSize: 50 } })).data.filter(
      (a: any) => a.action === '离职交接' && a.targetId === leaver.userId,
    );
    expect(records).toHaveLength(1);
    expectError(await handOver(leaver.userId, body), 409, 40901);
  });
  test('the posts: the departments led and administered are listed by full path and pass to the successor; a department administrator may not give what they could not', async () => {
    const hqName = (await ok(app(), 'GET', '/api/Admin/Departments/Tree', { token: adminToken }))[0].name as string;
    const dept = async (name: string, parentId: string) => (await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name, parentId } })).id as string;
    const platform = await dept('平台部', hq);
    const web = await dept('前端组', platform);
    const market = await dept('市场部', hq);
    const leaver = await person('离职者丑', web);
    const successor = await person('接任者寅', web);
    const marketAdmin = await person('市场管理员', market);
    const platformAdmin = await person('平台管理员', platform);
    const setLeader = (id: string, leaderId: string | null) => ok(app(), 'PUT', `/api/Admin/Departments/${id}`, { token: adminToken, body: { leaderId } });
    const setAdmins = (id: string, userIds: string[]) => ok(app(), 'PUT', `/api/Admin/Departments/${id}/Admins`, { token: adminToken, body: { userIds } });
    await setLeader(platform, leaver.userId);
    await setLeader(web, leaver.userId);
    await setLeader(market, marketAdmin.userId);
    await setAdmins(market, [leaver.userId, marketAdmin.userId]);
    await setAdmins(web, [leaver.userId, successor.userId]); // the successor is one already
    await setAdmins(platform, [platformAdmin.userId]);

    const leaders = async () => {
      const rows = await app().db.selectFrom('departments').select(['id', 'leader_id']).where('id', 'in', [Number(platform), Number(web), Number(market)]).execute();
      return Object.fromEntries(rows.map((r) => [String(r.id), r.leader_id === null ? null : String(r.leader_id)]));
    };
    const admins = async () =>
      (
        await app()
          .db.selectFrom('department_admins')
          .select(['dept_id', 'user_id'])
          .where('dept_id', 'in', [Number(platform), Number(web), Number(market)])
          .execute()
      )
        .map((r) => `${r.dept_id}:${r.user_id}`)
        .sort();
    const adminsBefore = await admins();

    // the preview names the departments by full path
    const posts = {
      leaderOf: [
        { id: platform, name: `${hqName}/平台部` },
        { id: web, name: `${hqName}/平台部/前端组` },
      ],
      adminOf: [
        { id: market, name: `${hqName}/市场部` },
        { id: web, name: `${hqName}/平台部/前端组` },
      ],
    };
    expect(await ok(app(), 'GET', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken })).toMatchObject(posts);
    expect(await ok(app(), 'GET', `/api/Admin/Users/${leaver.userId}/Handover`, { token: platformAdmin.token })).toMatchObject(posts);

    // a department administrator: never a 部门管理员's post, nor a leader outside their subtrees; nothing changes
    const body = { successorId: successor.userId, shares: 'keep' };
    expectError(await handOver(leaver.userId, body, platformAdmin.token), 403, 40301, /只有系统管理员/);
    await setAdmins(market, [marketAdmin.userId]);
    await setAdmins(web, [successor.userId]);
    await setLeader(market, leaver.userId);
    expectError(await handOver(leaver.userId, body, platformAdmin.token), 403, 40301, new RegExp(`${hqName}/市场部.*不在您管理的范围内`));
    expect((await adminRow(leaver.userName)).disabled).toBe(false);
    expect(await leaders()).toEqual({ [platform]: leaver.userId, [web]: leaver.userId, [market]: leaver.userId });
    // within their subtree they hand over a leader like the rest
    const helper = await person('离职者卯', web);
    await setLeader(market, marketAdmin.userId);
    await setLeader(web, helper.userId);
    const byDeptAdmin = await ok(app(), 'POST', `/api/Admin/Users/${helper.userId}/Handover`, { token: platformAdmin.token, body });
    expect(byDeptAdmin).toMatchObject({ leaderOf: [{ id: web, name: `${hqName}/平台部/前端组` }], adminOf: [] });
    expect(await leaders()).toEqual({ [platform]: leaver.userId, [web]: successor.userId, [market]: marketAdmin.userId });

    // back to the posts as they were; the system administrator hands them all over
    await setLeader(web, leaver.userId);
    await setAdmins(market, [leaver.userId, marketAdmin.userId]);
    await setAdmins(web, [leaver.userId, successor.userId]);
    expect(await admins()).toEqual(adminsBefore);
    const done = await ok(app(), 'POST', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken, body });
    expect(done).toMatchObject(posts);

    // the successor leads both and administers both (one row each); the leaver holds nothing; the others keep theirs
    expect(await leaders()).toEqual({ [platform]: successor.userId, [web]: successor.userId, [market]: marketAdmin.userId });
    expect(await admins()).toEqual(
      [`${market}:${marketAdmin.userId}`, `${market}:${successor.userId}`, `${platform}:${platformAdmin.userId}`, `${web}:${successor.userId}`].sort(),
    );
    expect(await app().db.selectFrom('department_admins').select('dept_id').where('user_id', '=', Number(leaver.userId)).execute()).toEqual([]);
    expect(await app().db.selectFrom('departments').select('id').where('leader_id', '=', Number(leaver.userId)).execute()).toEqual([]);
    expect(await ok(app(), 'GET', `/api/Admin/Users/${leaver.userId}/Handover`, { token: adminToken })).toMatchObject({ leaderOf: [], adminOf: [] });
    expect(await ok(app(), 'GET', `/api/Admin/Users/${successor.userId}/Handover`, { token: adminToken })).toMatchObject(posts);
    // as the administration shows it, and the successor now administers those departments
    const tree = await ok(app(), 'GET', '/api/Admin/Departments/Tree', { token: adminToken });
    const find = (nodes: any[], id: string): any => nodes.map((n) => (n.id === id ? n : find(n.children, id))).find(Boolean);
    expect(find(tree, web)).toMatchObject({ leader: { userId: successor.userId }, admins: [{ userId: successor.userId }] });
    expect(find(tree, platform).leader).toMatchObject({ userId: successor.userId });
    expect(find(tree, market).admins.map((a: any) => a.userId).sort()).toEqual([marketAdmin.userId, successor.userId].sort());
    const successorTree = await ok(app(), 'GET', '/api/Admin/Departments/Tree', { token: successor.token });
    expect(successorTree.map((n: any) => n.id).sort()).toEqual([market, web].sort());

    // the record says so, in full paths
    const actions = await ok(app(), 'GET', '/api/Admin/Actions', { token: adminToken, query: { page: 1, pageSize: 5 } });
    expect(actions.data[0]).toMatchObject({ action: '离职交接', targetId: leaver.userId });
    expect(actions.data[0].detail).toContain(`部门负责人：${hqName}/平台部、${hqName}/平台部/前端组 改由接任者担任`);
    expect(actions.data[0].detail).toContain(`部门管理员：${hqName}/市场部、${hqName}/平台部/前端组 改由接任者担任`);
  });
});
