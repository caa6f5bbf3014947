// The file ferry between two deployments of 云文档 started side by side (内网, full mode; 外网,
// simple mode), each with its own data folder and database, sharing a spool directory: checks
// that block (real type, keywords, ClamAV with a hand-made signature database), approval through
// the workflow, byte-exact arrival verified by SHA-256, download and its receipt, expiry, a
// rejected or cancelled task sending nothing, tampered / replayed / forged packages refused, a
// file changed after submission not crossing, the audit chain, settings, statistics and export.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import yazl from 'yazl';
import { call, createUser, databaseKinds, ENGLISH_FRAMEWORK_TEXT, HAN, login, ok, startServer, type CallResult, type TestServer } from './support/harness';
import { makeFile, raw, setContent } from './support/content';

const SECRET = 'ferry-test-secret-0123456789';
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const hasClamscan = (() => {
  try {
    execFileSync('clamscan', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A minimal .docx whose text (split across runs, as Word writes it) contains `text`. */
function docx(text: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'), '[Content_Types].xml');
  const half = Math.floor(text.length / 2);
  zip.addBuffer(
    Buffer.from(`<w:document><w:body><w:p><w:r><w:t>${text.slice(0, half)}</w:t></w:r><w:r><w:t>${text.slice(half)}</w:t></w:r></w:p></w:body></w:document>`),
    'word/document.xml',
  );
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** The start of a Windows program (MZ header and PE signature) under a .pdf name. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(200)]);

describe.each(databaseKinds())('file ferry between two zones (%s)', (kind) => {
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-spool-'));
  const toOuter = path.join(spool, 'to-outer');
  const toInner = path.join(spool, 'to-inner');
  let inner: TestServer;
  let outer: TestServer;
  let innerAdmin: string;
  let outerAdmin: string;
  let alice: { userId: string; token: string; root: string };
  let bob: { userId: string; token: string; userName: string };

  beforeAll(async () => {
    const hdb = path.join(spool, 'test.hdb');
    fs.writeFileSync(hdb, `${crypto.createHash('md5').update(EICAR).digest('hex')}:${EICAR.length}:Test.EICAR.Handmade\n`);
    inner = await startServer(kind, {
      env: { FERRY_ZONE: '内网', FERRY_SECRET: SECRET, FERRY_PEERS: `外网=spool:${toOuter}`, FERRY_SPOOL_IN: toInner, FERRY_POLL_MS: '3600000', CLAMAV_DB: hdb },
    });
    outer = await startServer(kind, {
      env: { MODE: 'simple', FERRY_ZONE: '外网', FERRY_SECRET: SECRET, FERRY_PEERS: `内网=spool:${toInner}`, FERRY_SPOOL_IN: toOuter, FERRY_POLL_MS: '3600000', CLAMAV_DB: hdb },
    });
    innerAdmin = (await login(inner.app)).token;
    outerAdmin = (await login(outer.app)).token;
    const a = await createUser(inner.app, innerAdmin, { nickName: '爱丽丝' });
    const aToken = (await login(inner.app, a.userName, a.password)).token;
    alice = { userId: a.userId, token: aToken, root: (await ok(inner.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: aToken }))[0].id };
    const b = await createUser(outer.app, outerAdmin, { nickName: '鲍勃', userName: `bob_${kind}` });
    bob = { userId: b.userId, userName: b.userName, token: (await login(outer.app, b.userName, b.password)).token };
  });
  afterAll(async () => {
    await inner?.close();
    await outer?.close();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  const expectError = (res: CallResult, status: number, message?: RegExp) => {
    expect(res.status).toBe(status);
    expect(res.body.result).toBeNull();
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).not.toMatch(ENGLISH_FRAMEWORK_TEXT);
    if (message) expect(res.body.message).toMatch(message);
  };
  const file = (name: string, bytes: Buffer | string) => makeFile(inner.app, alice.token, alice.userId, alice.root, name, bytes);
  const send = (fileIds: string[], extra: Record<string, unknown> = {}) =>
    call(inner.app, 'POST', '/api/Ferry/FerryTasks', { token: alice.token, body: { fileIds, targetZone: '外网', recipients: [bob.userName], reason: '项目资料交换', ...extra } });
  const task = (id: string, token = alice.token) => ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${id}`, { token });
  const approve = (instanceId: string) => ok(inner.app, 'POST', `/api/Workflow/Instances/${instanceId}/Approve`, { token: innerAdmin, body: { comment: '同意' } });
  const packages = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.pkg')) : []);
  const settings = async (app: TestServer['app'], token: string, change: Record<string, unknown>) => {
    const { zone: _z, peers: _p, antivirusEngine: _a, antivirusMissing: _m, secretConfigured: _s, knownTypes: _k, ...current } = await ok(app, 'GET', '/api/Ferry/Settings', { token });
    return ok(app, 'PUT', '/api/Ferry/Settings', { token, body: { ...current, ...change } });
  };
  /** One round trip: the outer zone imports, sends its receipts, the inner zone imports them. */
  const roundTrip = async () => {
    const got = await outer.app.services.ferryInbox.importSpools();
    await outer.app.services.ferryInbox.sendReceipts();
    await inner.app.services.ferryInbox.importSpools();
    return got;
  };
  const inbox = () => ok(outer.app, 'GET', '/api/Ferry/Inbox', { token: bob.token, query: { page: 1, pageSize: 50 } });

  test('zones and settings: each side knows its zone and peer; only administrators see or change settings; limits in Chinese; changes are audited', async () => {
    expect(await ok(inner.app, 'GET', '/api/Ferry/Zones', { token: alice.token })).toEqual({ zone: '内网', targets: ['外网'], uploadFolderId: expect.stringMatching(/^\d+$/) });
    const outerZones = await ok(outer.app, 'GET', '/api/Ferry/Zones', { token: bob.token });
    expect(outerZones.zone).toBe('外网');
    expect(outerZones.targets).toEqual(['内网']);
    // the simple mode's upload folder is the user's own 文件摆渡 folder, made once
    expect((await ok(outer.app, 'GET', '/api/Ferry/Zones', { token: bob.token })).uploadFolderId).toBe(outerZones.uploadFolderId);

    const view = await ok(inner.app, 'GET', '/api/Ferry/Settings', { token: innerAdmin });
    expect(view).toMatchObject({ zone: '内网', peers: [{ zone: '外网', channel: 'spool' }], secretConfigured: true, expiryDays: 7, auditRetentionDays: 180 });
    expect(view.directions).toEqual([
      { from: '内网', to: '外网', enabled: true, definitionId: '' },
      { from: '外网', to: '内网', enabled: true, definitionId: '' },
    ]);
    expect(view.knownTypes).toEqual(expect.arrayContaining(['pdf', 'docx', 'exe', 'txt']));
    if (hasClamscan) expect(view.antivirusEngine).toMatch(/ClamAV/);

    expectError(await call(inner.app, 'GET', '/api/Ferry/Settings', { token: alice.token }), 403, /管理员/);
    expectError(await call(inner.app, 'PUT', '/api/Ferry/Settings', { token: innerAdmin, body: { ...view, auditRetentionDays: 90 } }), 400, /至少保留 180 天/);
    expectError(await call(inner.app, 'PUT', '/api/Ferry/Settings', { token: innerAdmin, body: { ...view, allowedTypes: ['pdf', 'abc'] } }), 400, /不认识的文件类型：abc/);
    expectError(await call(inner.app, 'PUT', '/api/Ferry/Settings', { token: innerAdmin, body: { ...view, directions: [{ from: '内网', to: '火星', enabled: true, definitionId: '' }] } }), 400, /火星/);

    const saved = await settings(inner.app, innerAdmin, { keywordCheck: true, keywords: ['绝密', '机密文件'], expiryDays: 5 });
    expect(saved).toMatchObject({ keywordCheck: true, keywords: ['绝密', '机密文件'], expiryDays: 5 });
    const audit = await ok(inner.app, 'GET', '/api/Ferry/Audit', { token: innerAdmin, query: { event: 'settings.changed', page: 1, pageSize: 10 } });
    expect(audit.data[0]).toMatchObject({ eventText: '修改摆渡设置', actorName: '系统管理员' });
    expect(Object.keys(audit.data[0].detail.changed).sort()).toEqual(['expiryDays', 'keywordCheck', 'keywords']);
    expect(audit.data[0].summary).toMatch(/敏感词/);
  });

  test('checks block a task before any approval: real type by content, keywords in a Word document, and a virus', async () => {
    const fake = await file('报告.pdf', EXE);
    const r1 = await send([fake.id]);
    expect(r1.body.result).toEqual({ taskId: expect.any(String), instanceId: '', status: 'blocked' });
    const t1 = await task(r1.body.result.taskId);
    expect(t1.status).toBe('blocked');
    expect(t1.statusReason).toMatch(/报告\.pdf.*实际类型为 exe.*与扩展名 \.pdf 不符/);
    expect(t1.files[0]).toMatchObject({ name: '报告.pdf', detectedType: 'exe', blocked: true, sha256: sha256(EXE) });
    expect(t1.files[0].checks.find((c: any) => c.name === 'type').result).toBe('failed');
    expect(t1.can).toEqual({ cancel: false, preview: false });

    const word = await docx('本文件为绝密资料，不得外传');
    const secretDoc = await file('方案.docx', word);
    const clean = await file('说明.txt', '普通说明文字');
    const r2 = await send([clean.id, secretDoc.id]);
    expect(r2.body.result.status).toBe('blocked');
    const t2 = await task(r2.body.result.taskId);
    expect(t2.files.map((f: any) => [f.name, f.detectedType, f.blocked])).toEqual([
      ['说明.txt', 'txt', false],
      ['方案.docx', 'docx', true],
    ]);
    expect(t2.files[1].keywordHits).toEqual([{ keyword: '绝密', count: 1, context: '本文件为绝密资料，不得外传' }]);
    expect(t2.statusReason).toMatch(/方案\.docx.*包含敏感词：绝密（1 处）/);

    if (hasClamscan) {
      const virus = await file('工具.txt', EICAR);
      const r3 = await send([virus.id]);
      const t3 = await task(r3.body.result.taskId);
      expect(t3.status).toBe('blocked');
      expect(t3.files[0].checks.find((c: any) => c.name === 'antivirus')).toMatchObject({ result: 'failed', message: expect.stringMatching(/发现病毒：Test\.EICAR\.Handmade/) });
    }
    // nothing blocked left the zone, and none of it shows under processing
    expect(packages(toOuter)).toEqual([]);
    const rejectedTab = await ok(inner.app, 'GET', '/api/Ferry/FerryTasks', { token: alice.token, query: { status: 'rejected', page: 1, pageSize: 50 } });
    expect(rejectedTab.data.every((r: any) => r.status === 'blocked')).toBe(true);
    expect((await ok(inner.app, 'GET', '/api/Ferry/FerryTasks', { token: alice.token, query: { status: 'processing', page: 1, pageSize: 50 } })).total).toBe(0);
  });

  test('bad requests get Chinese errors: no files, unknown zone, no recipient, no reason, a folder, another user’s file', async () => {
    const f = await file('甲.txt', 'a');
    expectError(await send([]), 400, /请选择要摆渡的文件/);
    expectError(await send([f.id], { targetZone: '火星' }), 400, /不能摆渡到“火星”/);
    expectError(await send([f.id], { recipients: ['  '] }), 400, /请填写接收人/);
    expectError(await send([f.id], { reason: ' ' }), 400, /请填写摆渡原因/);
    expectError(await send([alice.root]), 400, /不是文件/);
    const other = await createUser(inner.app, innerAdmin);
    const otherToken = (await login(inner.app, other.userName, other.password)).token;
    expectError(await call(inner.app, 'POST', '/api/Ferry/FerryTasks', { token: otherToken, body: { fileIds: [f.id], targetZone: '外网', recipients: ['x'], reason: 'r' } }), 404);
    expectError(await call(inner.app, 'GET', `/api/Ferry/FerryTasks/999999`, { token: alice.token }), 404, /摆渡任务不存在/);
  });

  test('approved files arrive byte-exact, are downloaded (the sender sees it), and expire; approvers preview in place; outsiders see nothing', async () => {
    const text = Buffer.from('第一季度对外交付清单\n'.repeat(1000));
    const f1 = await file('清单.txt', text);
    const f2 = await file('图.png', PNG);
    const empty = await file('空.txt', '');
    const created = (await send([f1.id, f2.id, empty.id], { recipients: [bob.userName, '不存在的人'] })).body.result;
    expect(created.status).toBe('pending');
    expect(created.instanceId).toMatch(/^\d+$/);

    // the approver sees what would leave: hashes, real types, checks
    const seen = await task(created.taskId, innerAdmin);
    expect(seen.files.map((f: any) => [f.name, f.sha256, f.detectedType])).toEqual([
      ['清单.txt', sha256(text), 'txt'],
      ['图.png', sha256(PNG), 'png'],
      ['空.txt', sha256(Buffer.alloc(0)), 'txt'],
    ]);
    expect(seen.can).toEqual({ cancel: false, preview: true });
    const wf = await ok(inner.app, 'GET', `/api/Workflow/Instances/${created.instanceId}`, { token: innerAdmin });
    expect(wf).toMatchObject({ source: 'ferry', sourceId: created.taskId, definitionName: '文件摆渡审批' });
    const preview = await ok(inner.app, 'POST', '/api/Ferry/FerryFiles/PreviewInProcessing', { token: innerAdmin, body: { taskId: created.taskId, fileId: f2.id } });
    expect(preview).toMatchObject({ name: '图.png', detectedType: 'png' });
    const shown = await raw(inner.app, 'GET', preview.url, { token: innerAdmin });
    expect(shown.status).toBe(200);
    expect(shown.headers['content-disposition']).toMatch(/^inline/);
    expect(Buffer.compare(shown.payload, PNG)).toBe(0);
    // the requester cannot preview, an outsider sees nothing at all
    expectError(await call(inner.app, 'POST', '/api/Ferry/FerryFiles/PreviewInProcessing', { token: alice.token, body: { taskId: created.taskId, fileId: f2.id } }), 403, /审批人/);
    const stranger = await createUser(inner.app, innerAdmin);
    const strangerToken = (await login(inner.app, stranger.userName, stranger.password)).token;
    expectError(await call(inner.app, 'GET', `/api/Ferry/FerryTasks/${created.taskId}`, { token: strangerToken }), 404);
    expect(packages(toOuter)).toEqual([]);

    await approve(created.instanceId);
    const sent = await task(created.taskId);
    expect(sent.status).toBe('transferring');
    expect(sent.expiresAt).not.toBe('');
    expect(packages(toOuter)).toHaveLength(1);

    const got = await roundTrip();
    expect(got).toEqual({ accepted: 1, rejected: [] });
    expect((await task(created.taskId)).status).toBe('delivered');
    const page = await inbox();
    const item = page.data.find((i: any) => i.taskId === created.taskId);
    expect(item).toMatchObject({ fromZone: '内网', senderName: '爱丽丝', reason: '项目资料交换', status: 'delivered', number: sent.number, totalSize: text.length + PNG.length });
    expect(item.files.map((f: any) => [f.name, f.size, f.sha256])).toEqual([
      ['清单.txt', text.length, sha256(text)],
      ['图.png', PNG.length, sha256(PNG)],
      ['空.txt', 0, sha256(Buffer.alloc(0))],
    ]);
    // another user of the outer zone does not see it
    const carol = await createUser(outer.app, outerAdmin);
    const carolToken = (await login(outer.app, carol.userName, carol.password)).token;
    expect((await ok(outer.app, 'GET', '/api/Ferry/Inbox', { token: carolToken, query: { page: 1, pageSize: 50 } })).data).toEqual([]);
    expectError(await call(outer.app, 'GET', `/api/Ferry/Inbox/${item.id}/Download`, { token: carolToken, query: { index: 0 } }), 404);

    const one = await raw(outer.app, 'GET', `/api/Ferry/Inbox/${item.id}/Download?index=0`, { token: bob.token });
    expect(one.status).toBe(200);
    expect(sha256(one.payload)).toBe(sha256(text));
    const all = await raw(outer.app, 'GET', `/api/Ferry/Inbox/${item.id}/Download`, { token: bob.token });
    expect(all.headers['content-type']).toBe('application/zip');
    expect(all.payload.subarray(0, 2).toString()).toBe('PK');
    await roundTrip();
    const downloaded = await task(created.taskId);
    expect(downloaded.status).toBe('downloaded');
    expect(downloaded.downloadedAt).not.toBe('');
    expect(downloaded.events.map((e: any) => e.text)).toEqual(
      expect.arrayContaining(['检查通过', '进入审批', '审批通过', '已打包发出（摆渡目录）', '外网已接收，文件校验一致', '接收人已下载']),
    );
    expect((await ok(inner.app, 'GET', '/api/Ferry/FerryTasks', { token: alice.token, query: { status: 'completed', page: 1, pageSize: 50 } })).data.map((r: any) => r.taskId)).toContain(
      created.taskId,
    );

    // expiry: the files leave the outer zone, downloads end, the sender learns of it
    await outer.app.services.ferryInbox.expire(Date.now() + 8 * 24 * 60 * 60 * 1000);
    expect((await inbox()).data.find((i: any) => i.id === item.id).status).toBe('expired');
    expectError(await call(outer.app, 'GET', `/api/Ferry/Inbox/${item.id}/Download`, { token: bob.token, query: { index: 0 } }), 410, /过期/);
    await roundTrip();
    expect((await task(created.taskId)).status).toBe('expired');
  });

  test('a recipient removes received files before they expire: gone here, 已移除 at the sender; others may not remove them', async () => {
    const f = await file('临时.txt', Buffer.from('只用一次的资料'));
    const r = (await send([f.id])).body.result;
    await approve(r.instanceId);
    await roundTrip();
    const item = (await inbox()).data.find((i: any) => i.taskId === r.taskId);
    const carol = await createUser(outer.app, outerAdmin);
    const carolToken = (await login(outer.app, carol.userName, carol.password)).token;
    expectError(await call(outer.app, 'DELETE', `/api/Ferry/Inbox/${item.id}`, { token: carolToken }), 404);
    expect(await ok(outer.app, 'DELETE', `/api/Ferry/Inbox/${item.id}`, { token: bob.token })).toEqual({ id: item.id });
    expect((await inbox()).data.find((i: any) => i.id === item.id).status).toBe('removed');
    expectError(await call(outer.app, 'GET', `/api/Ferry/Inbox/${item.id}/Download`, { token: bob.token }), 410, /移除/);
    expectError(await call(outer.app, 'DELETE', `/api/Ferry/Inbox/${item.id}`, { token: bob.token }), 409, /已过期或已被移除/);
    await roundTrip();
    expect((await task(r.taskId)).status).toBe('removed');
  });

  test('a rejected task and a cancelled one send nothing; their pinned content is let go', async () => {
    const f = await file('拒.txt', 'to be rejected');
    const r = (await send([f.id])).body.result;
    await ok(inner.app, 'POST', `/api/Workflow/Instances/${r.instanceId}/Reject`, { token: innerAdmin, body: { comment: '不需要外发' } });
    const rejected = await task(r.taskId);
    expect(rejected).toMatchObject({ status: 'rejected', statusReason: '审批未通过：不需要外发' });

    const g = await file('撤.txt', 'to be cancelled');
    const c = (await send([g.id])).body.result;
    expect((await task(c.taskId)).can.cancel).toBe(true);
    const cancelled = await ok(inner.app, 'POST', `/api/Ferry/FerryTasks/${c.taskId}/Cancel`, { token: alice.token });
    expect(cancelled).toMatchObject({ status: 'cancelled', statusReason: '申请人取消', can: { cancel: false, preview: false } });
    expect((await ok(inner.app, 'GET', `/api/Workflow/Instances/${c.instanceId}`, { token: innerAdmin })).status).toBe(4);
    expectError(await call(inner.app, 'POST', `/api/Ferry/FerryTasks/${c.taskId}/Cancel`, { token: alice.token }), 409, /不能取消/);
    expect(packages(toOuter)).toEqual([]);
    const held = await inner.app.db.selectFrom('ferry_task_files').select('released').where('task_id', 'in', [Number(r.taskId), Number(c.taskId)]).execute();
    expect(held.map((h) => h.released)).toEqual([1, 1]);
  });

  test('only the approved bytes cross: a new version after submission stays home, and bytes altered on disk fail the task', async () => {
    const original = Buffer.from('版本一：提交审批时的内容');
    const f = await file('合同.txt', original);
    const r = (await send([f.id])).body.result;
    await setContent(inner.app, f.id, Buffer.from('版本二：提交之后才改的内容'), alice.userId);
    await approve(r.instanceId);
    await roundTrip();
    const item = (await inbox()).data.find((i: any) => i.taskId === r.taskId);
    const got = await raw(outer.app, 'GET', `/api/Ferry/Inbox/${item.id}/Download?index=0`, { token: bob.token });
    expect(got.payload.toString()).toBe(original.toString());

    const g = await file('名单.txt', Buffer.from('原始名单'));
    const s = (await send([g.id])).body.result;
    const pinned = await inner.app.db
      .selectFrom('ferry_task_files as f')
      .innerJoin('blobs as b', 'b.id', 'f.blob_id')
      .select('b.storage_key')
      .where('f.task_id', '=', Number(s.taskId))
      .executeTakeFirstOrThrow();
    fs.writeFileSync(inner.app.services.folders.blobs.pathOf(pinned.storage_key), '篡改后的名单');
    await approve(s.instanceId);
    const failed = await task(s.taskId);
    expect(failed.status).toBe('failed');
    expect(failed.statusReason).toMatch(/名单\.txt.*审批后被修改/);
    expect(packages(toOuter)).toEqual([]);
  });

  test('tampered, replayed and forged packages are quarantined and audited; the good one is imported once', async () => {
    const f = await file('数据.txt', Buffer.from('真实数据'));
    const r = (await send([f.id])).body.result;
    await approve(r.instanceId);
    const [name] = packages(toOuter);
    const copy = path.join(spool, 'saved.pkg');
    fs.cpSync(path.join(toOuter, name), copy, { recursive: true });
    expect((await roundTrip()).accepted).toBe(1);

    // the same package again: a replay
    fs.cpSync(copy, path.join(toOuter, name), { recursive: true });
    // its bytes changed on the way (same length: only the SHA-256 tells)
    const tampered = path.join(toOuter, `${crypto.randomUUID()}.pkg`);
    fs.cpSync(copy, tampered, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(copy, 'manifest.json'), 'utf8'));
    manifest.packageId = path.basename(tampered, '.pkg');
    const bytes = Buffer.from(JSON.stringify(manifest));
    fs.writeFileSync(path.join(tampered, 'manifest.json'), bytes);
    fs.writeFileSync(path.join(tampered, 'manifest.sig'), crypto.createHmac('sha256', SECRET).update(bytes).digest('hex'));
    fs.writeFileSync(path.join(tampered, 'files', '0'), '假冒数据');
    // signed with another secret
    const forged = path.join(toOuter, `${crypto.randomUUID()}.pkg`);
    fs.cpSync(copy, forged, { recursive: true });
    fs.writeFileSync(path.join(forged, 'manifest.sig'), crypto.createHmac('sha256', 'another-secret-0000000').update(fs.readFileSync(path.join(forged, 'manifest.json'))).digest('hex'));

    const got = await outer.app.services.ferryInbox.importSpools();
    expect(got.accepted).toBe(0);
    expect(got.rejected.map((x) => x.reason).sort()).toEqual(['badSignature', 'hashMismatch', 'replayed']);
    expect(packages(toOuter)).toEqual([]);
    expect(fs.readdirSync(path.join(toOuter, 'quarantine'))).toHaveLength(3);
    expect((await inbox()).data.filter((i: any) => i.taskId === r.taskId)).toHaveLength(1);
    const audit = await ok(outer.app, 'GET', '/api/Ferry/Audit', { token: outerAdmin, query: { event: 'package.rejected', page: 1, pageSize: 10 } });
    expect(audit.data.map((a: any) => a.summary).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/重放/), expect.stringMatching(/签名无效/), expect.stringMatching(/SHA-256 与清单不符：数据\.txt/)]),
    );
  });

  test('a closed direction refuses arrivals, and the sender cannot pick it', async () => {
    await settings(outer.app, outerAdmin, {
      directions: [
        { from: '外网', to: '内网', enabled: true, definitionId: '' },
        { from: '内网', to: '外网', enabled: false, definitionId: '' },
      ],
    });
    const f = await file('方向.txt', 'x');
    const r = (await send([f.id])).body.result;
    await approve(r.instanceId);
    const got = await outer.app.services.ferryInbox.importSpools();
    expect(got.rejected.map((x) => x.reason)).toEqual(['directionClosed']);
    await settings(outer.app, outerAdmin, { directions: [{ from: '内网', to: '外网', enabled: true, definitionId: '' }] });

    await settings(inner.app, innerAdmin, { directions: [{ from: '内网', to: '外网', enabled: false, definitionId: '' }] });
    expect((await ok(inner.app, 'GET', '/api/Ferry/Zones', { token: alice.token })).targets).toEqual([]);
    expectError(await send([f.id]), 400, /未开启该方向/);
    await settings(inner.app, innerAdmin, { directions: [{ from: '内网', to: '外网', enabled: true, definitionId: '' }] });
  });

  test('statistics, export and the audit chain: figures by user, direction and reason; CSV and XLSX; an altered row breaks the chain where it is', async () => {
    const stats = await ok(inner.app, 'GET', '/api/Ferry/Audit/Stats', { token: innerAdmin, query: { bucket: 'day' } });
    expect(stats.tasks).toBeGreaterThanOrEqual(8);
    expect(stats.byUser[0]).toMatchObject({ name: '爱丽丝', tasks: stats.tasks });
    expect(stats.byDirection.find((d: any) => d.from === '内网' && d.to === '外网').tasks).toBe(stats.tasks);
    expect(stats.blockedByReason.map((b: any) => b.reason)).toEqual(expect.arrayContaining(['文件类型', '敏感词']));
    if (hasClamscan) expect(stats.blockedByReason.map((b: any) => b.reason)).toContain('发现病毒');
    expect(stats.medianApprovalMs).toEqual(expect.any(Number));
    expect(stats.byBucket).toHaveLength(1);
    expect(stats.byStatus.find((s: any) => s.status === 'blocked').tasks).toBeGreaterThanOrEqual(2);
    const outerStats = await ok(outer.app, 'GET', '/api/Ferry/Audit/Stats', { token: outerAdmin, query: { bucket: 'month' } });
    expect(outerStats.byDirection.find((d: any) => d.from === '内网' && d.to === '外网').tasks).toBeGreaterThanOrEqual(3);
    expectError(await call(inner.app, 'GET', '/api/Ferry/Audit/Stats', { token: alice.token, query: { bucket: 'day' } }), 403);

    const csv = await raw(inner.app, 'GET', '/api/Ferry/Audit/Export?format=csv&event=task.created', { token: innerAdmin });
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.payload.toString('utf8').replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines[0]).toBe('序号,时间,操作人,事件,摆渡任务,内容,记录哈希');
    expect(lines.length - 1).toBe(stats.tasks);
    expect(lines[1]).toMatch(/提交摆渡申请/);
    const xlsx = await raw(inner.app, 'GET', '/api/Ferry/Audit/Export?format=xlsx', { token: innerAdmin });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.payload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('摆渡审计');
    expect(sheet?.getRow(1).values).toEqual([undefined, '序号', '时间', '操作人', '事件', '摆渡任务', '内容', '记录哈希']);
    expect(sheet?.rowCount).toBeGreaterThan(20);

    expect(await ok(inner.app, 'GET', '/api/Ferry/Audit/Verify', { token: innerAdmin })).toMatchObject({ ok: true, brokenAt: null });
    const victim = await inner.app.db.selectFrom('ferry_audit').select(['seq', 'detail']).where('event', '=', 'package.sent').orderBy('seq').executeTakeFirstOrThrow();
    await inner.app.db
      .updateTable('ferry_audit')
      .set({ detail: victim.detail.replace('外网', '互联网') })
      .where('seq', '=', victim.seq)
      .execute();
    const broken = await ok(inner.app, 'GET', '/api/Ferry/Audit/Verify', { token: innerAdmin });
    expect(broken).toMatchObject({ ok: false, brokenAt: Number(victim.seq) });
    expect(broken.message).toMatch(new RegExp(`第 ${victim.seq} 条`));
  });
});
