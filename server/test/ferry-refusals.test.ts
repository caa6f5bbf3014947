// Refusals in 云文档's file ferry: a package the receiving zone refuses (bytes changed on the way,
// manifest signature broken, a replay) is audited there with the task and the sending zone its
// manifest names; a refusal receipt, signed like every receipt, goes back over the spool when
// there is a way back, and the sender shows the task as 被拒收 with the reason. The sender acts
// only on a refusal that names the package it actually sent to that zone and that is still in
// transit: a replay never turns a delivered task into a refused one, and the intact package
// arriving after a refused copy still delivers the task. Over HTTPS the push's reply is the
// receipt. A one-way sender (FERRY_ACCEPT_FROM) gets nothing back.
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUser, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { makeFile } from './support/content';
import { writePackage } from '../src/modules/ferry/spool';

const SECRET = 'refusal-test-secret-0123456789';
const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const packages = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.pkg')) : []);

/** Rewrites a package's manifest; re-signed with the shared secret unless `resign` is false. */
function editManifest(dir: string, change: (m: any) => void, resign = true): void {
  const m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  change(m);
  const bytes = Buffer.from(JSON.stringify(m));
  fs.writeFileSync(path.join(dir, 'manifest.json'), bytes);
  if (resign) fs.writeFileSync(path.join(dir, 'manifest.sig'), crypto.createHmac('sha256', SECRET).update(bytes).digest('hex'));
}

async function adminAudit(app: TestServer['app'], event: string) {
  const token = (await login(app)).token;
  return (await ok(app, 'GET', '/api/Ferry/Audit', { token, query: { event, page: 1, pageSize: 50 } })).data as any[];
}

describe.each(databaseKinds())('ferry refusals over the spool (%s)', (kind) => {
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-refusal-'));
  const toOuter = path.join(spool, 'to-outer');
  const toInner = path.join(spool, 'to-inner');
  const oneWayIn = path.join(spool, 'from-rd');
  let inner: TestServer;
  let outer: TestServer;
  let oneWay: TestServer;
  let innerAdmin: string;
  let alice: { userId: string; token: string; root: string };
  let bob: { userName: string };

  beforeAll(async () => {
    inner = await startServer(kind, { env: { FERRY_ZONE: '内网', FERRY_SECRET: SECRET, FERRY_PEERS: `外网=spool:${toOuter}`, FERRY_SPOOL_IN: toInner, FERRY_POLL_MS: '3600000' } });
    outer = await startServer(kind, {
      env: { MODE: 'simple', FERRY_ZONE: '外网', FERRY_SECRET: SECRET, FERRY_PEERS: `内网=spool:${toInner}`, FERRY_SPOOL_IN: toOuter, FERRY_POLL_MS: '3600000' },
    });
    // 外网 of another site: receives from 研发网 over a one-way link, nothing goes back
    oneWay = await startServer(kind, { env: { MODE: 'simple', FERRY_ZONE: '外网', FERRY_SECRET: SECRET, FERRY_ACCEPT_FROM: '研发网', FERRY_SPOOL_IN: oneWayIn, FERRY_POLL_MS: '3600000' } });
    innerAdmin = (await login(inner.app)).token;
    const a = await createUser(inner.app, innerAdmin, { nickName: '爱丽丝' });
    const aToken = (await login(inner.app, a.userName, a.password)).token;
    alice = { userId: a.userId, token: aToken, root: (await ok(inner.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: aToken }))[0].id };
    const b = await createUser(outer.app, (await login(outer.app)).token, { userName: `bob_refusal_${kind}` });
    bob = { userName: b.userName };
  });
  afterAll(async () => {
    await inner?.close();
    await outer?.close();
    await oneWay?.close();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  const task = (id: string) => ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${id}`, { token: alice.token });
  /** A task sent and approved: its package waits in the spool to 外网. */
  const sendApproved = async (name: string, bytes: string) => {
    const before = new Set(packages(toOuter));
    const f = await makeFile(inner.app, alice.token, alice.userId, alice.root, name, Buffer.from(bytes));
    const created = await ok(inner.app, 'POST', '/api/Ferry/FerryTasks', { token: alice.token, body: { fileIds: [f.id], targetZone: '外网', recipients: [bob.userName], reason: '资料交换' } });
    expect(created.status).toBe('pending');
    await ok(inner.app, 'POST', `/api/Workflow/Instances/${created.instanceId}/Approve`, { token: innerAdmin, body: {} });
    const [pkg] = packages(toOuter).filter((n) => !before.has(n));
    expect((await task(created.taskId)).status).toBe('transferring');
    return { taskId: created.taskId as string, number: (await task(created.taskId)).number as string, dir: path.join(toOuter, pkg), packageId: pkg.replace(/\.pkg$/, '') };
  };
  /** 外网 imports, sends its receipts; 内网 imports them. */
  const roundTrip = async () => {
    const got = await outer.app.services.ferryInbox.importSpools();
    await outer.app.services.ferryInbox.sendReceipts();
    const back = await inner.app.services.ferryInbox.importSpools();
    return { got, back };
  };
  const refusalsQueued = async (app: TestServer['app']) => (await app.db.selectFrom('ferry_receipts').select('package_id').where('event', '=', 'refused').execute()).map((r) => r.package_id);

  test('a file changed on the way: the receiver audits the task and sending zone; the sender shows 被拒收 with the reason; the intact package arriving later still delivers', async () => {
    const sent = await sendApproved('图纸.txt', '机密图纸 第一版');
    const intact = path.join(spool, 'intact.pkg');
    fs.cpSync(sent.dir, intact, { recursive: true });
    // same length, other bytes: only the SHA-256 tells
    fs.writeFileSync(path.join(sent.dir, 'files', '0'), Buffer.from('机密图纸 第二版'));

    const got = await outer.app.services.ferryInbox.importSpools();
    expect(got.rejected.map((r) => r.reason)).toEqual(['hashMismatch']);
    const [record] = (await adminAudit(outer.app, 'package.rejected')).filter((r) => r.detail.packageId === sent.packageId);
    expect(record).toMatchObject({ taskId: sent.taskId, detail: { from: '内网', reason: 'hashMismatch', file: '图纸.txt', signed: true, receipt: true } });
    expect(record.summary).toMatch(/来自 内网/);
    expect(record.summary).toContain(sent.number);
    expect(record.summary).toMatch(/SHA-256 与清单不符：图纸\.txt/);
    // nothing is known at the sender until the receipt arrives
    expect((await task(sent.taskId)).status).toBe('transferring');

    expect(await outer.app.services.ferryInbox.sendReceipts()).toBe(1);
    const back = await inner.app.services.ferryInbox.importSpools();
    expect(back).toEqual({ accepted: 1, rejected: [] });
    const refused = await task(sent.taskId);
    expect(refused).toMatchObject({ status: 'refused', statusReason: '外网拒收：文件哈希不符（图纸.txt）' });
    expect(refused.events.map((e: any) => e.text)).toContain('外网拒收：文件哈希不符（图纸.txt）');
    const tab = await ok(inner.app, 'GET', '/api/Ferry/FerryTasks', { token: alice.token, query: { status: 'rejected', page: 1, pageSize: 50 } });
    expect(tab.data.find((r: any) => r.taskId === sent.taskId)).toMatchObject({ status: 'refused' });
    expect((await adminAudit(inner.app, 'task.refused')).find((r) => r.taskId === sent.taskId)).toMatchObject({ eventText: '被拒收', summary: '外网拒收：文件哈希不符（图纸.txt）' });

    // the intact package carried after all: the receiver verified and imported it, which outranks the refusal of a copy
    fs.cpSync(intact, path.join(toOuter, path.basename(sent.dir)), { recursive: true });
    const again = await roundTrip();
    expect(again.got.accepted).toBe(1);
    expect(await task(sent.taskId)).toMatchObject({ status: 'delivered', statusReason: '' });
  });

  test('a broken manifest signature: audited with the claimed task as unverified; the sender acts only on the package it really sent', async () => {
    const sent = await sendApproved('合同.txt', '合同正文');
    // the reason rewritten on the way, the signature left as it was
    editManifest(sent.dir, (m) => (m.reason = '被改过的原因'), false);
    const other = await sendApproved('名单.txt', '名单正文');
    // a forgery naming a real task in transit but a package it never sent
    const forged = path.join(toOuter, `${crypto.randomUUID()}.pkg`);
    fs.cpSync(other.dir, forged, { recursive: true });
    editManifest(forged, (m) => (m.packageId = path.basename(forged, '.pkg')), false);

    const { got, back } = await roundTrip();
    expect(got.accepted).toBe(1);
    expect(got.rejected.map((r) => r.reason)).toEqual(['badSignature', 'badSignature']);
    const records = await adminAudit(outer.app, 'package.rejected');
    expect(records.find((r) => r.detail.packageId === sent.packageId)).toMatchObject({ taskId: sent.taskId, detail: { from: '内网', reason: 'badSignature', signed: false } });
    expect(records.find((r) => r.detail.packageId === sent.packageId).summary).toMatch(/签名无效.*未经验证/);
    expect(records.find((r) => r.detail.packageId === path.basename(forged, '.pkg'))).toMatchObject({ taskId: other.taskId, detail: { signed: false } });

    expect(await task(sent.taskId)).toMatchObject({ status: 'refused', statusReason: '外网拒收：签名校验失败' });
    // the refusal about the forgery names no package of that task: refused at the sender, the task goes on
    expect(back.rejected.map((r) => r.reason)).toEqual(['unknownTask']);
    expect((await task(other.taskId)).status).toBe('delivered');
  });

  test('a replay of a delivered package is refused and audited with its task, sends no refusal, and leaves the task 已送达', async () => {
    const sent = await sendApproved('报价.txt', '报价单');
    const copy = path.join(spool, 'replay.pkg');
    fs.cpSync(sent.dir, copy, { recursive: true });
    await roundTrip();
    expect((await task(sent.taskId)).status).toBe('delivered');

    // the same package again, once as it was and once with its bytes changed
    fs.cpSync(copy, sent.dir, { recursive: true });
    const changed = path.join(toOuter, `zz-${path.basename(sent.dir)}`);
    fs.cpSync(copy, changed, { recursive: true });
    fs.writeFileSync(path.join(changed, 'files', '0'), Buffer.from('报价表'));
    const before = await refusalsQueued(outer.app);
    const { got } = await roundTrip();
    expect(got.rejected.map((r) => r.reason)).toEqual(['replayed', 'replayed']);
    const records = (await adminAudit(outer.app, 'package.rejected')).filter((r) => r.detail.reason === 'replayed' && r.detail.packageId === sent.packageId);
    expect(records).toHaveLength(2);
    for (const r of records) expect(r).toMatchObject({ taskId: sent.taskId, detail: { from: '内网', receipt: false } });
    expect(await refusalsQueued(outer.app)).toEqual(before);
    expect(await task(sent.taskId)).toMatchObject({ status: 'delivered', statusReason: '' });

    // even a validly signed refusal cannot take back a delivery
    await writePackage(
      toInner,
      {
        kind: 'receipt',
        taskId: sent.taskId,
        fromZone: '外网',
        toZone: '内网',
        recipients: [],
        reason: '',
        createdAt: Date.now(),
        expiresAt: Date.now(),
        receipt: { event: 'refused', at: Date.now(), byName: '', packageId: sent.packageId, reason: 'hashMismatch', detail: '报价.txt' } as any,
      },
      [],
      SECRET,
    );
    await inner.app.services.ferryInbox.importSpools();
    expect(await task(sent.taskId)).toMatchObject({ status: 'delivered', statusReason: '' });
  });

  test('a one-way sender (FERRY_ACCEPT_FROM) gets no receipt: the refusal is audited with its task and zone, nothing is queued or sent', async () => {
    const bytes = Buffer.from('研发网的数据');
    const src = path.join(spool, 'rd-src.txt');
    fs.writeFileSync(src, bytes);
    const { dir, packageId } = await writePackage(
      oneWayIn,
      { taskId: '42', taskNumber: 'BD20261127000042', fromZone: '研发网', toZone: '外网', recipients: ['someone'], reason: '单向摆渡', createdAt: Date.now(), expiresAt: Date.now() + 86400_000 },
      [{ file: src, name: '数据.txt', size: bytes.length, sha256: sha256(bytes) }],
      SECRET,
    );
    fs.appendFileSync(path.join(dir, 'files', '0'), '多出来的字节');
    const got = await oneWay.app.services.ferryInbox.importSpools();
    expect(got.rejected.map((r) => r.reason)).toEqual(['sizeMismatch']);
    const [record] = await adminAudit(oneWay.app, 'package.rejected');
    expect(record).toMatchObject({ taskId: '42', detail: { packageId, from: '研发网', reason: 'sizeMismatch', receipt: false } });
    expect(record.summary).toContain('BD20261127000042');
    expect(await oneWay.app.db.selectFrom('ferry_receipts').selectAll().execute()).toEqual([]);
    expect(await oneWay.app.services.ferryInbox.sendReceipts()).toBe(0);
    expect(packages(oneWayIn)).toEqual([]);
  });
});

describe.each(databaseKinds())('ferry refusals over HTTPS push (%s)', (kind) => {
  let inner: TestServer;
  let outer: TestServer;
  let innerAdmin: string;
  let alice: { userId: string; token: string; root: string };
  let bob: { userName: string };

  beforeAll(async () => {
    inner = await startServer(kind, { env: { FERRY_ZONE: '内网', FERRY_SECRET: SECRET, FERRY_POLL_MS: '3600000' } });
    await inner.app.listen({ port: 0, host: '127.0.0.1' });
    const innerUrl = `http://127.0.0.1:${(inner.app.server.address() as AddressInfo).port}`;
    outer = await startServer(kind, { env: { MODE: 'simple', FERRY_ZONE: '外网', FERRY_SECRET: SECRET, FERRY_PEERS: `内网=${innerUrl}`, FERRY_POLL_MS: '3600000' } });
    await outer.app.listen({ port: 0, host: '127.0.0.1' });
    inner.config.ferry.peers.push({ zone: '外网', channel: 'https', url: `http://127.0.0.1:${(outer.app.server.address() as AddressInfo).port}` });
    innerAdmin = (await login(inner.app)).token;
    const a = await createUser(inner.app, innerAdmin);
    const aToken = (await login(inner.app, a.userName, a.password)).token;
    alice = { userId: a.userId, token: aToken, root: (await ok(inner.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: aToken }))[0].id };
    const b = await createUser(outer.app, (await login(outer.app)).token, { userName: `bob_refusal_push_${kind}` });
    bob = { userName: b.userName };
  });
  afterAll(async () => {
    await inner?.close();
    await outer?.close();
  });

  test('a pushed package whose bytes changed is refused: the reply marks the task 被拒收 at once, the receiver audits the task and zone', async () => {
    const peer = inner.app.services.ferry.httpsPeers()[0];
    const url = peer.url;
    const f = await makeFile(inner.app, alice.token, alice.userId, alice.root, '方案.txt', Buffer.from('方案正文'));
    const created = await ok(inner.app, 'POST', '/api/Ferry/FerryTasks', { token: alice.token, body: { fileIds: [f.id], targetZone: '外网', recipients: [bob.userName], reason: '直连' } });
    // the peer is away while the task is approved: the package waits in the outbox
    peer.url = 'http://127.0.0.1:1';
    try {
      await ok(inner.app, 'POST', `/api/Workflow/Instances/${created.instanceId}/Approve`, { token: innerAdmin, body: {} });
    } finally {
      peer.url = url;
    }
    expect((await ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${created.taskId}`, { token: alice.token })).status).toBe('transferring');
    const outbox = inner.app.services.ferry.outbox.dirOf('外网');
    const [name] = packages(outbox);
    fs.writeFileSync(path.join(outbox, name, 'files', '0'), Buffer.from('方案改文'));

    await inner.app.services.ferry.pushOutbox(peer);
    const t = await ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${created.taskId}`, { token: alice.token });
    expect(t).toMatchObject({ status: 'refused', statusReason: '外网拒收：文件哈希不符（方案.txt）' });
    expect(packages(outbox)).toEqual([]);
    const [record] = await adminAudit(outer.app, 'package.rejected');
    expect(record).toMatchObject({ taskId: created.taskId, detail: { channel: 'https', from: '内网', reason: 'hashMismatch', file: '方案.txt' } });
    // the reply was the receipt: nothing else is queued
    expect(await outer.app.db.selectFrom('ferry_receipts').selectAll().where('event', '=', 'refused').execute()).toEqual([]);
  });
});
