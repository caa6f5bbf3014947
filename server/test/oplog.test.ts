// The operation log on SQLite and PostgreSQL: each action leaves a record with the right
// person, object, address and result; a refused action records its failure and reason; the
// chain verifies, and an altered, deleted or inserted row breaks it at its position; retention
// removes old records, records that it did and leaves the chain verifiable; only system, audit
// and department administrators read the log (their subtree); export streams CSV and XLSX;
// 登录记录 shows one's own sign-ins; 文件动态 shows who did what to an item and below it.
import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import { call, createUser, databaseKinds, login, ok, roleCast, startServer, type TestServer } from './support/harness';
import { appendAudit } from '../src/modules/ferry/audit';
import { makeFile, makeFolder, setContent } from './support/content';
import { uploadFile } from './support/uploads';
import { loadConfig } from '../src/config';
import { canonicalJson } from '../src/lib/canonical-json';
import { appendSealed, oplogHash, sealPending } from '../src/modules/oplog/chain';
import { appendEntries } from '../src/modules/oplog/repository';

describe.each(databaseKinds())('operation log (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => server.close());

  const app = () => server.app;
  const logs = (token: string, query: Record<string, string | number> = {}) => ok(app(), 'GET', '/api/Admin/OperationLogs', { token, query: { pageSize: 200, ...query } });
  async function person(label: string, password = `Pw-${crypto.randomUUID().slice(0, 8)}-1a`) {
    const u = await createUser(app(), adminToken, { nickName: label, password });
    const session = await login(app(), u.userName, u.password, '10.1.2.3');
    return { ...u, token: session.token as string };
  }
  const personalRoot = async (token: string) => (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id as string;

  test('sign-in, a wrong password, a lockout and sign-out are recorded with the person and the address; 登录记录 shows one’s own only', async () => {
    const u = await person('登录者');
    const other = await person('旁人');
    // a wrong password from another address
    const wrong = await call(app(), 'POST', '/api/login', { body: { userName: u.userName, password: 'not-it', mode: 'password' }, remoteAddress: '10.9.9.9' });
    expect(wrong.status).toBe(400);
    await ok(app(), 'POST', '/api/login/quit', { token: u.token });

    const mine = await ok(app(), 'GET', '/api/Account/SignIns', { token: (await login(app(), u.userName, u.password, '10.1.2.4')).token });
    const actions = mine.data.map((r: any) => `${r.action}@${r.ip}`);
    expect(actions).toEqual(expect.arrayContaining(['auth.login@10.1.2.3', 'auth.login.fail@10.9.9.9', 'auth.logout@127.0.0.1', 'auth.login@10.1.2.4']));
    const fail = mine.data.find((r: any) => r.action === 'auth.login.fail');
    expect(fail).toMatchObject({ result: 'fail', reason: '用户名或密码错误', userName: u.userName, actionName: '登录失败' });
    // nobody else's sign-ins
    expect(mine.data.every((r: any) => r.userId === u.userId)).toBe(true);
    const theirs = await ok(app(), 'GET', '/api/Account/SignIns', { token: other.token });
    expect(theirs.data.some((r: any) => r.userId === u.userId)).toBe(false);

    // a lockout: the policy's threshold of failures
    const victim = await person('被锁者');
    const policy = await ok(app(), 'GET', '/api/Login/PasswordPolicy', { token: adminToken });
    for (let i = 0; i < policy.lockoutThreshold; i++) {
      await call(app(), 'POST', '/api/login', { body: { userName: victim.userName, password: 'bad', mode: 'password' }, remoteAddress: `10.7.0.${i + 1}` });
    }
    const locked = await call(app(), 'POST', '/api/login', { body: { userName: victim.userName, password: victim.password, mode: 'password' }, remoteAddress: '10.7.1.1' });
    expect(locked.status).toBe(429);
    const lockRecords = await logs(adminToken, { userId: victim.userId, action: 'auth.lockout' });
    expect(lockRecords.data).toHaveLength(1);
    expect(lockRecords.data[0]).toMatchObject({ result: 'fail', ip: '10.7.1.1', actionName: '登录被锁定' });
    expect(lockRecords.data[0].reason).toMatch(/登录失败次数过多/);
  });

  test('file actions: upload, rename, move, copy, download, delete, restore and purge, each with the person, the object, its place then and the result', async () => {
    const u = await person('文件人');
    const root = await personalRoot(u.token);
    const folder = await makeFolder(app(), u.token, root, '合同');
    const up = await uploadFile(app(), { token: u.token }, folder.id, '采购合同.txt', Buffer.from('合同内容'), 5 * 1024 * 1024);
    await ok(app(), 'PUT', `/api/User/Files/Rename/${up.id}`, { token: u.token, query: { fileName: '采购合同-定稿.txt' } });
    const other = await makeFolder(app(), u.token, root, '归档');
    await ok(app(), 'POST', '/api/User/Files/Copy', { token: u.token, body: { ids: [up.id], targetId: other.id } });
    const download = await call(app(), 'GET', `/api/User/FileTransfer/Download/${up.id}`, { token: u.token });
    expect(download.status).toBe(200);
    await ok(app(), 'DELETE', '/api/User/Files', { token: u.token, body: [up.id] });
    await ok(app(), 'POST', '/api/User/Recycle/Restore', { token: u.token, body: [up.id] });
    await ok(app(), 'POST', '/api/User/Files/Move', { token: u.token, body: { ids: [up.id], targetId: other.id, strategy: 2 } });

    const page = await logs(adminToken, { userId: u.userId, action: 'file.' });
    const seen = page.data.map((r: any) => `${r.action}:${r.objectName}`).reverse();
    expect(seen).toEqual([
      'file.create:合同',
      'file.upload:采购合同.txt',
      'file.rename:采购合同.txt',
      'file.create:归档',
      'file.copy:采购合同-定稿.txt',
      'file.download:采购合同-定稿.txt',
      'file.delete:采购合同-定稿.txt',
      'file.restore:采购合同-定稿.txt',
      'file.move:采购合同-定稿.txt',
    ]);
    const rename = page.data.find((r: any) => r.action === 'file.rename');
    expect(rename).toMatchObject({ objectType: 'file', objectId: up.id, objectPath: '个人空间/合同/采购合同.txt', result: 'ok', userName: u.userName, ip: '127.0.0.1' });
    expect(rename.detail).toEqual({ newName: '采购合同-定稿.txt' });
    expect(rename.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    // a refused action records its failure and the reason
    const stranger = await person('陌生人');
    const refused = await call(app(), 'PUT', `/api/User/Files/Rename/${up.id}`, { token: stranger.token, query: { fileName: 'x.txt' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const failed = await logs(adminToken, { userId: stranger.userId, action: 'file.rename' });
    expect(failed.data).toHaveLength(1);
    expect(failed.data[0]).toMatchObject({ result: 'fail', objectId: up.id, reason: refused.body.message });
    // a refused download names the file (as it is now, moved with a new name) all the same: its handler
    // never read it, the record does
    const outsider = await person('局外人');
    const denied = await call(app(), 'GET', `/api/User/FileTransfer/Download/${up.id}`, { token: outsider.token });
    expect(denied.status).toBe(404);
    const deniedLog = await logs(adminToken, { userId: outsider.userId, action: 'file.download' });
    expect(deniedLog.data).toHaveLength(1);
    expect(deniedLog.data[0]).toMatchObject({ result: 'fail', objectId: up.id, objectName: '采购合同-定稿（1）.txt', objectPath: '个人空间/归档/采购合同-定稿（1）.txt' });
    // a resumed range of a download is not another download
    const ranged = await call(app(), 'GET', `/api/User/FileTransfer/Download/${up.id}`, { token: u.token, headers: { range: 'bytes=3-' } });
    expect(ranged.status).toBe(206);
    expect((await logs(adminToken, { userId: u.userId, action: 'file.download' })).data).toHaveLength(1);

    // purge
    await ok(app(), 'DELETE', '/api/User/Files', { token: u.token, body: [folder.id] });
    await ok(app(), 'DELETE', '/api/User/Recycle', { token: u.token, body: [folder.id] });
    const purged = await logs(adminToken, { userId: u.userId, action: 'file.purge' });
    expect(purged.data.map((r: any) => r.objectName)).toEqual(['合同']);

    // filters: by object text, by result, by time range
    expect((await logs(adminToken, { object: '定稿', userId: u.userId })).data.length).toBeGreaterThanOrEqual(5);
    expect((await logs(adminToken, { userId: stranger.userId, result: 'fail' })).data).toHaveLength(1);
    expect((await logs(adminToken, { userId: u.userId, to: '2000-01-01' })).data).toHaveLength(0);
    const bad = await call(app(), 'GET', '/api/Admin/OperationLogs', { token: adminToken, query: { from: '昨天' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/时间格式不正确/);
  });

  test('shares, approvals and administrator changes are recorded; secrets sent by an administrator are masked', async () => {
    const u = await person('分享人');
    const root = await personalRoot(u.token);
    const file = await makeFile(app(), u.token, u.userId, root, '方案.txt', '方案');
    const share = await ok(app(), 'POST', '/api/User/Shares', { token: u.token, body: { fileIds: [file.id], shareType: 2, level: 1 } });
    await ok(app(), 'DELETE', '/api/User/Shares', { token: u.token, body: [share.shareId] });
    const shareRecords = await logs(adminToken, { userId: u.userId, action: 'share.' });
    expect(shareRecords.data.map((r: any) => r.action).sort()).toEqual(['share.cancel', 'share.create']);
    expect(shareRecords.data.find((r: any) => r.action === 'share.create')).toMatchObject({ objectName: '方案.txt', result: 'ok' });

    const created = await createUser(app(), adminToken, { nickName: '新同事', password: 'Secret-Passw0rd-9' });
    const admin = await logs(adminToken, { action: 'admin.action', object: '' });
    const create = admin.data.find((r: any) => r.detail?.body?.userName === created.userName);
    expect(create).toBeTruthy();
    expect(create.userName).toBe('admin');
    expect(create.objectName).toBeTruthy();
    expect(create.detail.body.password).toBe('******');
    expect(JSON.stringify(admin.data)).not.toContain('Secret-Passw0rd-9');
    // a normal user's refused admin call is recorded as a failure
    const refused = await call(app(), 'POST', '/api/Admin/Users', { token: u.token, body: { userName: 'x1', nickName: 'x', password: 'Aa-12345678' } });
    expect(refused.status).toBe(403);
    const refusals = await logs(adminToken, { userId: u.userId, action: 'admin.action' });
    expect(refusals.data[0]).toMatchObject({ result: 'fail', reason: refused.body.message });
  });

  test('preview, versions, access policies, an external share’s visit and downloads, zip, approvals and the ferry’s audit are recorded', async () => {
    const cast = await roleCast(app());
    const { owner, editor } = cast;
    // preview and versions
    const file = await makeFile(app(), owner.token, owner.userId, cast.ownerRoot.id, '周报.txt', '第一版');
    await setContent(app(), file.id, Buffer.from('第二版'), owner.userId);
    await ok(app(), 'POST', '/api/User/FileTransfer/CreateComponentData', { token: owner.token, body: { fileId: file.id } });
    await ok(app(), 'POST', `/api/User/Files/${file.id}/VersionRollback/${file.versionId}`, { token: owner.token });
    // access policy on an enterprise folder
    const shared = await makeFolder(app(), editor.token, cast.publicRoot.id, `部门资料-${crypto.randomUUID().slice(0, 4)}`);
    await ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', { token: editor.token, body: { fileId: shared.id, policies: [{ subjectType: 1, subjectId: owner.userId, level: 2 }] } });
    // an external share: a visit and a download by someone without an account, from their address
    const link = await ok(app(), 'POST', '/api/User/Shares', { token: owner.token, body: { fileIds: [file.id], shareType: 2, level: 2, expireAt: null, accessKey: '', downloadLimit: null } });
    expect((await call(app(), 'GET', `/api/Outsource/${link.shareId}`, { headers: { accessKey: link.accessKey }, remoteAddress: '198.51.100.7' })).status).toBe(200);
    expect((await call(app(), 'GET', `/api/User/FileTransfer/ExternalDownload/${file.id}?urlKey=${link.shareId}&accessKey=${link.accessKey}`, { remoteAddress: '198.51.100.7' })).status).toBe(200);
    // a zip task
    await ok(app(), 'POST', '/api/User/FileTransfer/DownloadTask', { token: owner.token, body: [file.id] });
    // an approval: started, approved, reminded (refused: it has ended)
    const def = await ok(app(), 'POST', '/api/Workflow/Definitions', {
      token: adminToken,
      body: {
        name: `日志流程-${crypto.randomUUID().slice(0, 4)}`, category: '行政', description: '', enabled: true,
        fields: [{ key: 'reason', label: '事由', type: 'textarea', required: true }], allowFiles: true,
        steps: [{ name: '审批', mode: 'sequential', approvers: [{ type: 'user', id: editor.userId }] }], cc: [], revoke: 'processing',
      },
    });
    const started = await ok(app(), 'POST', '/api/Workflow/Instances', { token: owner.token, body: { definitionId: def.id, title: '用章申请', form: { reason: '合同' }, fileIds: [] } });
    await ok(app(), 'POST', `/api/Workflow/Instances/${started.instanceId}/Approve`, { token: editor.token, body: { comment: '同意' } });
    const late = await call(app(), 'POST', `/api/Workflow/Instances/${started.instanceId}/Remind`, { token: owner.token, body: {} });
    expect(late.status).toBe(409);
    // the ferry's own audit chain, linked in
    const audit = await appendAudit(app().db, { event: 'task.created', actorId: Number(owner.userId), actorName: owner.userName, taskId: '42', detail: { files: 1 } });

    const mine = await logs(adminToken, { userId: owner.userId, pageSize: 200 });
    const byAction = (action: string) => mine.data.filter((r: any) => r.action === action);
    expect(byAction('file.preview')[0]).toMatchObject({ objectName: '周报.txt', result: 'ok' });
    expect(byAction('file.version')[0]).toMatchObject({ objectName: '周报.txt', detail: { change: '回滚到某个版本' } });
    expect(byAction('share.create')[0]).toMatchObject({ objectName: '周报.txt' });
    expect(byAction('file.zip')[0]).toMatchObject({ objectName: '周报.txt' });
    expect(byAction('workflow.start')[0]).toMatchObject({ objectType: 'workflow', objectId: started.instanceId, objectName: '用章申请' });
    expect(byAction('workflow.remind')[0]).toMatchObject({ objectName: '用章申请', result: 'fail', reason: late.body.message });
    expect(byAction('ferry.event')[0]).toMatchObject({ objectType: 'ferry', objectId: '42', detail: { event: 'task.created', auditSeq: Number(audit.seq) } });
    const approved = (await logs(adminToken, { userId: editor.userId, action: 'workflow.act' })).data;
    expect(approved[0]).toMatchObject({ objectName: '用章申请', detail: { act: 'Approve', actName: '同意' } });
    const policy = (await logs(adminToken, { userId: editor.userId, action: 'file.policy' })).data;
    expect(policy[0]).toMatchObject({ objectId: shared.id, objectPath: expect.stringMatching(/^企业空间\//) });
    // the visitor has no account: recorded with the address and the share
    const visits = (await logs(adminToken, { action: 'share.', ip: '198.51.100.7' })).data.map((r: any) => [r.action, r.userName, r.onBehalfName, r.objectType === 'share' ? r.objectId : r.objectName]);
    expect(visits).toEqual(expect.arrayContaining([['share.visit', '', owner.userName, link.shareId], ['share.download', '', owner.userName, '周报.txt']]));
  });

  test('only system, audit and department administrators read the log, a department administrator only their subtree', async () => {
    const normal = await person('普通人');
    for (const url of ['/api/Admin/OperationLogs', '/api/Admin/OperationLogs/Verify', '/api/Admin/OperationLogs/Export']) {
      const r = await call(app(), 'GET', url, { token: normal.token });
      expect(r.status).toBe(403);
      expect(r.body.message).toMatch(/管理员/);
    }
    // a department with its administrator, one person inside and one outside
    const dept = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: `审计部-${crypto.randomUUID().slice(0, 4)}`, parentId: null } });
    const deptId = dept.id as string;
    const inside = await person('部门内');
    const boss = await person('部门管理员');
    await ok(app(), 'PUT', `/api/Admin/Users/${inside.userId}`, { token: adminToken, body: { deptId } });
    await ok(app(), 'PUT', `/api/Admin/Departments/${deptId}/Admins`, { token: adminToken, body: { userIds: [boss.userId] } });
    const insideRoot = await personalRoot(inside.token);
    await makeFolder(app(), inside.token, insideRoot, '部门内的文件夹');
    const outsider = await person('部门外');
    await makeFolder(app(), outsider.token, await personalRoot(outsider.token), '部门外的文件夹');

    const seen = await logs(boss.token, { action: 'file.create' });
    const names = seen.data.map((r: any) => r.objectName);
    expect(names).toContain('部门内的文件夹');
    expect(names).not.toContain('部门外的文件夹');
    expect(seen.data.every((r: any) => r.deptPath !== '')).toBe(true);
    // and cannot verify the whole chain
    expect((await call(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: boss.token })).status).toBe(403);
  });

  test('export streams CSV and XLSX with the same rows as the page', async () => {
    const u = await person('导出人');
    await makeFolder(app(), u.token, await personalRoot(u.token), '导出用,含“引号”与,逗号');
    const page = await logs(adminToken, { userId: u.userId });
    const csv = await call(app(), 'GET', '/api/Admin/OperationLogs/Export', { token: adminToken, query: { userId: u.userId, format: 'csv' } });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toMatch(/text\/csv/);
    expect(String(csv.headers['content-disposition'])).toMatch(/filename\*=UTF-8''/);
    const lines = csv.text.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toMatch(/^序号,时间,操作人/);
    expect(lines).toHaveLength(page.data.length + 1);
    expect(csv.text).toContain('"导出用,含“引号”与,逗号"');
    const xlsx = await app().inject({ method: 'GET', url: '/api/Admin/OperationLogs/Export', query: { userId: u.userId, format: 'xlsx' }, headers: { authorization: `Bearer ${adminToken}` } });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.read(Readable.from([xlsx.rawPayload]));
    expect(book.worksheets[0].rowCount).toBe(page.data.length + 1);
  });

  test('the chain verifies; an altered, a deleted and an inserted row each break it at their position; retention keeps it verifiable', async () => {
    const u = await person('校验人');
    const root = await personalRoot(u.token);
    for (let i = 0; i < 5; i++) await makeFolder(app(), u.token, root, `校验-${i}`);
    const good = await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken });
    expect(good).toMatchObject({ ok: true, brokenAt: null });
    expect(good.checked).toBeGreaterThan(5);
    expect(good.message).toMatch(/完整/);

    const db = app().db;
    const rows = await db.selectFrom('operation_logs').select(['id', 'seq', 'object_name', 'at']).where('user_id', '=', Number(u.userId)).where('action', '=', 'file.create').orderBy('seq').execute();
    const target = rows[2];
    // altered
    await db.updateTable('operation_logs').set({ object_name: '改过的名字' }).where('id', '=', target.id).execute();
    let check = await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken });
    expect(check).toMatchObject({ ok: false, brokenAt: Number(target.seq) });
    expect(check.message).toContain(`第 ${target.seq} 条`);
    await db.updateTable('operation_logs').set({ object_name: target.object_name }).where('id', '=', target.id).execute();
    expect((await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken })).ok).toBe(true);
    // deleted
    const full = await db.selectFrom('operation_logs').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
    await db.deleteFrom('operation_logs').where('id', '=', target.id).execute();
    check = await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken });
    expect(check).toMatchObject({ ok: false, brokenAt: Number(target.seq) });
    await db.insertInto('operation_logs').values(full).execute();
    expect((await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken })).ok).toBe(true);
    // inserted: a forged row sealed with a made-up hash in the middle
    const forged = { ...full, id: undefined, seq: Number(target.seq) + 0.5 } as any;
    delete forged.id;
    forged.seq = null;
    forged.hash = 'f'.repeat(64);
    forged.prev_hash = full.hash;
    // taking the next position pushes the real one out: the chain breaks there
    const next = Number(target.seq) + 1;
    await db.updateTable('operation_logs').set({ seq: -next }).where('seq', '=', next).execute();
    await db.insertInto('operation_logs').values({ ...forged, seq: next }).execute();
    check = await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken });
    expect(check).toMatchObject({ ok: false, brokenAt: next });
    await db.deleteFrom('operation_logs').where('seq', '=', next).execute();
    await db.updateTable('operation_logs').set({ seq: next }).where('seq', '=', -next).execute();
    expect((await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken })).ok).toBe(true);

    // retention: records older than 180 days go, the pruning is itself recorded, the rest verifies
    const oplog = app().services.oplog;
    await oplog.seal();
    const old = Date.now() - 181 * 86_400_000;
    const firstSeqs = await db.selectFrom('operation_logs').select('seq').orderBy('seq').limit(3).execute();
    // the first three records are made old (their hashes cover `at`, so they are rewritten as a
    // chain would have made them: the test re-seals them in place through the same hash function)
    const head = await db.selectFrom('operation_log_head').selectAll().executeTakeFirstOrThrow();
    let prev = head.pruned_hash;
    const all = await db.selectFrom('operation_logs').selectAll().where('seq', 'is not', null).orderBy('seq').execute();
    for (const r of all) {
      const at = firstSeqs.some((f) => Number(f.seq) === Number(r.seq)) ? old : Number(r.at);
      const hash = oplogHash({ ...r, at }, Number(r.seq), prev);
      await db.updateTable('operation_logs').set({ at, prev_hash: prev, hash }).where('id', '=', r.id).execute();
      prev = hash;
    }
    await db.updateTable('operation_log_head').set({ hash: prev }).where('id', '=', 1).execute();
    expect((await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken })).ok).toBe(true);
    const removed = await oplog.prune();
    expect(removed).toBe(3);
    const after = await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken });
    expect(after.ok).toBe(true);
    const pruned = await logs(adminToken, { action: 'log.pruned' });
    expect(pruned.data[0]).toMatchObject({ userName: '系统', actionName: '清理过期日志' });
    expect(pruned.data[0].detail).toMatchObject({ removed: 3, retentionDays: 180 });
  });

  test('fifty actions at once are each recorded once (written together); three sealers at once keep the chain', async () => {
    const u = await person('并发者');
    const root = await personalRoot(u.token);
    const names = Array.from({ length: 50 }, (_, i) => `并发-${i}`);
    await Promise.all(names.map((name) => makeFolder(app(), u.token, root, name)));
    const page = await logs(adminToken, { userId: u.userId, action: 'file.create' });
    expect(page.data.map((r: any) => r.objectName).sort()).toEqual([...names].sort());
    // written on their own, the records are chained as they are written
    expect(page.data.every((r: any) => r.seq !== null)).toBe(true);
    // records appended inside transactions (unsealed) and records chained as written by several
    // writers at once (as on several instances), with three sealers at once: each row gets one
    // position and the chain holds
    const db = app().db;
    const entry = (i: number) => ({ userId: Number(u.userId), userName: u.userName, action: 'file.create', object: { type: 'folder', id: `w${i}`, name: `直写-${i}` } });
    await Promise.all([
      appendEntries(db, [entry(0), entry(1)]),
      ...Array.from({ length: 8 }, (_, i) => appendSealed(db, [entry(2 + 2 * i), entry(3 + 2 * i)])),
      appendEntries(db, [entry(18)]),
    ]);
    await Promise.all([app().services.oplog.seal(), sealPending(db), sealPending(db)]);
    const check = await ok(app(), 'GET', '/api/Admin/OperationLogs/Verify', { token: adminToken });
    expect(check).toMatchObject({ ok: true, pending: 0 });
    const direct = await db.selectFrom('operation_logs').select(['seq', 'object_id']).where('object_id', 'like', 'w%').where('user_id', '=', Number(u.userId)).execute();
    expect(direct.map((r) => r.object_id).sort()).toEqual(Array.from({ length: 19 }, (_, i) => `w${i}`).sort());
    expect(new Set(direct.map((r) => Number(r.seq))).size).toBe(19);
  });

  test('文件动态: people who manage a folder see what was done to it and inside it; others get 403', async () => {
    const owner = await person('所有者');
    const root = await personalRoot(owner.token);
    const folder = await makeFolder(app(), owner.token, root, '项目');
    const file = await makeFile(app(), owner.token, owner.userId, folder.id, '计划.txt', '计划');
    await call(app(), 'GET', `/api/User/FileTransfer/Download/${file.id}`, { token: owner.token });
    const activity = await ok(app(), 'GET', `/api/User/Files/${folder.id}/Activity`, { token: owner.token });
    const kinds = activity.data.map((r: any) => `${r.action}:${r.objectName}`);
    expect(kinds).toEqual(expect.arrayContaining(['file.create:项目', 'file.create:计划.txt', 'file.download:计划.txt']));
    const fileOnly = await ok(app(), 'GET', `/api/User/Files/${file.id}/Activity`, { token: owner.token });
    expect(fileOnly.data.every((r: any) => r.objectId === file.id)).toBe(true);

    const other = await person('他人');
    const refused = await call(app(), 'GET', `/api/User/Files/${folder.id}/Activity`, { token: other.token });
    expect([403, 404]).toContain(refused.status);
  });

  test('the retention cannot be configured below 180 days', async () => {
    expect(() => loadConfig({ OPLOG_RETENTION_DAYS: '90' } as NodeJS.ProcessEnv)).toThrow(/OPLOG_RETENTION_DAYS/);
    expect(loadConfig({} as NodeJS.ProcessEnv).oplogRetentionDays).toBe(180);
    expect(loadConfig({} as NodeJS.ProcessEnv).oplogRecording).toBe(true);
    expect(loadConfig({ OPLOG_RECORDING: 'off' } as NodeJS.ProcessEnv).oplogRecording).toBe(false);
  });

  test('a record’s hash is SHA-256 over the previous hash and the canonical JSON of its fields (chains written before stay valid)', () => {
    const row = {
      seq: null, at: 1764230400123, user_id: 7, user_name: '张三', dept_path: '/1/4', on_behalf_id: null, on_behalf_name: '',
      ip: '10.0.0.8', user_agent: 'Mozilla/5.0 "引号" \\ 反斜杠', action: 'file.rename', object_type: 'file', object_id: '42',
      object_name: '合同\n终稿.docx', object_path: '个人空间/项目', object_scope: '2/10/42', result: 'ok', reason: '',
      request_id: 'req-1', detail: JSON.stringify({ from: '旧名.docx', 特殊: '\u2028' }), prev_hash: null,
    };
    const content = canonicalJson({
      seq: 5, at: row.at, userId: 7, userName: row.user_name, deptPath: row.dept_path, onBehalfId: null, onBehalfName: '',
      ip: row.ip, userAgent: row.user_agent, action: row.action, objectType: row.object_type, objectId: row.object_id,
      objectName: row.object_name, objectPath: row.object_path, objectScope: row.object_scope, result: 'ok', reason: '',
      requestId: row.request_id, detail: row.detail,
    });
    const expected = crypto.createHash('sha256').update(`${'a'.repeat(64)}\n${content}`).digest('hex');
    expect(oplogHash(row as any, 5, 'a'.repeat(64))).toBe(expected);
  });
});
