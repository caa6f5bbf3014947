// The direct HTTPS channel of 云文档's ferry, between two deployments listening on loopback
// (plain HTTP here; production puts TLS in front): an approved package is pushed, verified and
// delivered at once, the receipt comes back the same way; a push signed with another secret
// writes nothing and the task is 被拒收 with the reason; the ferry's environment variables are
// checked in Chinese.
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, ConfigError } from '../src/config';
import { createUser, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { makeFile, raw } from './support/content';
import { pruneAudit, verifyAudit } from '../src/modules/ferry/audit';
import { directionsFor } from '../src/modules/ferry/settings';

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function waitFor(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('ferry configuration: zone, peers, secret and poll interval are checked, in Chinese', () => {
  const c = loadConfig({ FERRY_ZONE: '研发网', FERRY_PEERS: '内网=spool:./spool/out, 外网=https://outer.example.com/', FERRY_SECRET: 'x'.repeat(16), FERRY_SPOOL_IN: './spool/in' }, '/srv');
  expect(c.ferry).toMatchObject({
    zone: '研发网',
    peers: [
      { zone: '内网', channel: 'spool', dir: '/srv/spool/out' },
      { zone: '外网', channel: 'https', url: 'https://outer.example.com' },
    ],
    spoolIn: ['/srv/spool/in'],
    pollMs: 5000,
  });
  expect(loadConfig({}, '/srv').ferry).toMatchObject({ zone: '内网', peers: [], secret: null, spoolIn: [], acceptFrom: [] });
  // a one-way sender: accepted from, never sent to
  expect(loadConfig({ FERRY_ACCEPT_FROM: '外网, 研发网' }, '/srv').ferry.acceptFrom).toEqual(['外网', '研发网']);
  const bad = (env: Record<string, string>, message: RegExp) => {
    expect(() => loadConfig(env, '/srv')).toThrow(ConfigError);
    expect(() => loadConfig(env, '/srv')).toThrow(message);
  };
  bad({ FERRY_PEERS: '外网' }, /FERRY_PEERS/);
  bad({ FERRY_PEERS: '外网=ftp://x' }, /spool:目录 或 https/);
  bad({ FERRY_PEERS: '内网=spool:/a' }, /不能是本区域/);
  bad({ FERRY_PEERS: '外网=spool:/a,外网=spool:/b' }, /不能重复/);
  bad({ FERRY_SECRET: 'short' }, /至少需要 16 个字符/);
  bad({ FERRY_ZONE: 'a b' }, /FERRY_ZONE/);
  bad({ FERRY_POLL_MS: '5' }, /FERRY_POLL_MS/);
  bad({ FERRY_ACCEPT_FROM: '内网' }, /FERRY_ACCEPT_FROM/);
});

test('directions: both ways with each peer, inbound only from a one-way sender; stored choices kept', () => {
  const config = loadConfig({ FERRY_ZONE: '外网', FERRY_PEERS: '研发网=https://rd.example.com', FERRY_ACCEPT_FROM: '内网' }, '/srv').ferry;
  expect(directionsFor(config, [{ from: '研发网', to: '外网', enabled: false, definitionId: '7' }])).toEqual([
    { from: '外网', to: '研发网', enabled: true, definitionId: '' },
    { from: '研发网', to: '外网', enabled: false, definitionId: '7' },
    { from: '内网', to: '外网', enabled: true, definitionId: '' },
  ]);
});

describe.each(databaseKinds())('ferry over HTTPS push (%s)', (kind) => {
  let inner: TestServer;
  let outer: TestServer;
  let innerUrl: string;
  let outerUrl: string;
  let innerAdmin: string;
  let alice: { userId: string; token: string; root: string };
  let bob: { token: string; userName: string };

  beforeAll(async () => {
    inner = await startServer(kind, { env: { FERRY_ZONE: '内网', FERRY_SECRET: 'push-secret-0123456789', FERRY_POLL_MS: '3600000' } });
    await inner.app.listen({ port: 0, host: '127.0.0.1' });
    innerUrl = `http://127.0.0.1:${(inner.app.server.address() as AddressInfo).port}`;
    outer = await startServer(kind, {
      env: { MODE: 'simple', FERRY_ZONE: '外网', FERRY_SECRET: 'push-secret-0123456789', FERRY_PEERS: `内网=${innerUrl}`, FERRY_POLL_MS: '3600000' },
    });
    await outer.app.listen({ port: 0, host: '127.0.0.1' });
    outerUrl = `http://127.0.0.1:${(outer.app.server.address() as AddressInfo).port}`;
    // the inner zone learns the outer one's address now that it listens
    inner.config.ferry.peers.push({ zone: '外网', channel: 'https', url: outerUrl });
    innerAdmin = (await login(inner.app)).token;
    const a = await createUser(inner.app, innerAdmin, { nickName: '爱丽丝' });
    const aToken = (await login(inner.app, a.userName, a.password)).token;
    alice = { userId: a.userId, token: aToken, root: (await ok(inner.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token: aToken }))[0].id };
    const outerAdmin = (await login(outer.app)).token;
    const b = await createUser(outer.app, outerAdmin, { userName: `bob_push_${kind}` });
    bob = { userName: b.userName, token: (await login(outer.app, b.userName, b.password)).token };
  });
  afterAll(async () => {
    await inner?.close();
    await outer?.close();
  });

  const send = async (name: string, bytes: Buffer) => {
    const f = await makeFile(inner.app, alice.token, alice.userId, alice.root, name, bytes);
    return ok(inner.app, 'POST', '/api/Ferry/FerryTasks', { token: alice.token, body: { fileIds: [f.id], targetZone: '外网', recipients: [bob.userName], reason: '直连摆渡' } });
  };
  const task = (id: string) => ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${id}`, { token: alice.token });

  test('an approved package is pushed, verified and delivered at once; the download receipt comes back over the same channel', async () => {
    const bytes = crypto.randomBytes(3 * 1024 * 1024 + 17);
    const created = await send('数据.bin', bytes);
    // random bytes have no known type: the default whitelist blocks them, so allow by switching the type check off
    expect(created.status).toBe('blocked');
    const { zone: _z, peers: _p, antivirusEngine: _a, antivirusMissing: _m, secretConfigured: _s, knownTypes: _k, ...current } = await ok(inner.app, 'GET', '/api/Ferry/Settings', { token: innerAdmin });
    await ok(inner.app, 'PUT', '/api/Ferry/Settings', { token: innerAdmin, body: { ...current, typeCheck: false } });
    const again = await send('数据-2.bin', bytes);
    expect(again.status).toBe('pending');
    await ok(inner.app, 'POST', `/api/Workflow/Instances/${again.instanceId}/Approve`, { token: innerAdmin, body: {} });
    const delivered = await task(again.taskId);
    expect(delivered.status).toBe('delivered');
    // no signature database here: antivirus says what is missing instead of blocking or pretending
    expect(delivered.files[0].checks.find((c: any) => c.name === 'antivirus')).toMatchObject({ result: 'skipped', message: expect.stringMatching(/(病毒库|未安装 ClamAV).*未查杀病毒/) });
    expect(fs.readdirSync(inner.app.services.ferry.outbox.dirOf('外网')).filter((n) => n.endsWith('.pkg'))).toEqual([]);

    const page = await ok(outer.app, 'GET', '/api/Ferry/Inbox', { token: bob.token, query: { page: 1, pageSize: 10 } });
    expect(page.data[0].files).toEqual([{ index: 0, name: '数据-2.bin', size: bytes.length, sha256: sha256(bytes) }]);
    const got = await raw(outer.app, 'GET', `/api/Ferry/Inbox/${page.data[0].id}/Download?index=0`, { token: bob.token });
    expect(sha256(got.payload)).toBe(sha256(bytes));
    expect(await outer.app.services.ferryInbox.sendReceipts()).toBe(2);
    const outerPeer = outer.app.services.ferry.httpsPeers()[0];
    await outer.app.services.ferry.pushOutbox(outerPeer);
    expect((await task(again.taskId)).status).toBe('downloaded');
  });

  test('a large task is packed in the background once approved (the approver does not wait for the copy), and still arrives', async () => {
    const { zone: _z, peers: _p, antivirusEngine: _a, antivirusMissing: _m, secretConfigured: _s, knownTypes: _k, ...current } = await ok(inner.app, 'GET', '/api/Ferry/Settings', { token: innerAdmin });
    await ok(inner.app, 'PUT', '/api/Ferry/Settings', { token: innerAdmin, body: { ...current, typeCheck: false } });
    const bytes = crypto.randomBytes(65 * 1024 * 1024);
    const created = await send('大文件.bin', bytes);
    expect(created.status).toBe('pending');
    await ok(inner.app, 'POST', `/api/Workflow/Instances/${created.instanceId}/Approve`, { token: innerAdmin, body: {} });
    await waitFor(async () => (await task(created.taskId)).status === 'delivered', 60_000);
    const page = await ok(outer.app, 'GET', '/api/Ferry/Inbox', { token: bob.token, query: { page: 1, pageSize: 10 } });
    expect(page.data.find((i: any) => i.taskId === created.taskId).files[0]).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
  });

  test('a push signed with another secret is refused before anything is written, and the task is 被拒收 with the reason', async () => {
    const { zone: _z, peers: _p, antivirusEngine: _a, antivirusMissing: _m, secretConfigured: _s, knownTypes: _k, ...current } = await ok(inner.app, 'GET', '/api/Ferry/Settings', { token: innerAdmin });
    await ok(inner.app, 'PUT', '/api/Ferry/Settings', { token: innerAdmin, body: { ...current, typeCheck: false } });
    const created = await send('另一个.txt', Buffer.from('hello'));
    const secret = inner.config.ferry.secret;
    inner.config.ferry.secret = 'a-different-secret-000000';
    try {
      await ok(inner.app, 'POST', `/api/Workflow/Instances/${created.instanceId}/Approve`, { token: innerAdmin, body: {} });
    } finally {
      inner.config.ferry.secret = secret;
    }
    const refused = await task(created.taskId);
    expect(refused.status).toBe('refused');
    expect(refused.statusReason).toBe('外网拒收：签名校验失败');
    const incoming = path.join(outer.config.dataDir, 'ferry', 'incoming');
    expect(fs.existsSync(incoming) ? fs.readdirSync(incoming) : []).toEqual([]);
    const audit = await ok(outer.app, 'GET', '/api/Ferry/Audit', { token: (await login(outer.app)).token, query: { event: 'package.rejected', page: 1, pageSize: 10 } });
    // the task and zone its manifest names are recorded, as unverified claims
    expect(audit.data[0]).toMatchObject({ taskId: created.taskId, detail: { channel: 'https', reason: 'badSignature', from: '内网', signed: false } });
    expect(audit.data[0].summary).toMatch(/来自 内网；.*摆渡包签名无效（来源与任务未经验证）/);
  });

  test('audit retention removes old records and the rest still verifies; the removal is itself recorded', async () => {
    const db = inner.app.db;
    const before = await verifyAudit(db);
    expect(before.ok).toBe(true);
    const third = await db.selectFrom('ferry_audit').select(['seq', 'at']).orderBy('seq').offset(2).limit(1).executeTakeFirstOrThrow();
    await db.updateTable('ferry_audit').set({ at: 1 }).where('seq', '<=', Number(third.seq)).execute();
    // the changed times break the chain first: prune only what the retention allows, then verify
    const removed = await pruneAudit(db, 2, 180);
    expect(removed).toBe(Number(third.seq));
    const after = await verifyAudit(db);
    expect(after).toMatchObject({ ok: true, checked: before.checked - Number(third.seq) + 1 });
    const last = await db.selectFrom('ferry_audit').select(['event', 'detail']).orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(last.event).toBe('audit.pruned');
    expect(JSON.parse(last.detail)).toMatchObject({ removed: Number(third.seq), retentionDays: 180 });
  });
});
