// Two API instances of each zone of 云文档 on one database and one spool, as behind a load
// balancer: approved tasks waiting to be sent are taken up by both workers at once and each goes
// out exactly once; the packages in the spool are imported by both receivers at once and each
// arrives exactly once, with nothing refused as a replay. PostgreSQL only: several instances
// are a PostgreSQL installation, and two instances inside one test process cannot share a
// SQLite file (better-sqlite3 waits for a lock synchronously, so the holder, on the same event
// loop, never gets to release it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createUser, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { makeFile } from './support/content';
import type { App } from '../src/app';

const SECRET = 'instances-secret-0123456789';
const TASKS = 6;

const kinds = databaseKinds().filter((k) => k === 'postgres');
// without TEST_DATABASE_URL the suite shows as skipped
const suite = kinds.length ? describe.each(kinds) : describe.skip.each(['postgres' as const]);

suite('ferry with two instances per zone (%s)', (kind) => {
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-spool-two-'));
  const toOuter = path.join(spool, 'to-outer');
  let inner: TestServer;
  let outer: TestServer;
  let inner2: App;
  let outer2: App;

  beforeAll(async () => {
    const env = { FERRY_SECRET: SECRET, FERRY_POLL_MS: '3600000' };
    inner = await startServer(kind, { env: { ...env, FERRY_ZONE: '内网', FERRY_PEERS: `外网=spool:${toOuter}`, FERRY_SPOOL_IN: path.join(spool, 'to-inner') } });
    outer = await startServer(kind, { env: { ...env, MODE: 'simple', FERRY_ZONE: '外网', FERRY_PEERS: `内网=spool:${path.join(spool, 'to-inner')}`, FERRY_SPOOL_IN: toOuter } });
    inner2 = await inner.restart();
    outer2 = await outer.restart();
  });
  afterAll(async () => {
    await inner?.close();
    await outer?.close();
    fs.rmSync(spool, { recursive: true, force: true });
  });

  test('each approved task is sent once and each package imported once, with both instances working at the same moment', async () => {
    const admin = (await login(inner.app)).token;
    const a = await createUser(inner.app, admin);
    const token = (await login(inner.app, a.userName, a.password)).token;
    const root = (await ok(inner.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0].id;
    const outerAdmin = (await login(outer.app)).token;
    const b = await createUser(outer.app, outerAdmin);
    const bToken = (await login(outer.app, b.userName, b.password)).token;

    const tasks: Array<{ taskId: string; instanceId: string }> = [];
    for (let i = 0; i < TASKS; i++) {
      const f = await makeFile(inner.app, token, a.userId, root, `文件${i}.txt`, `内容 ${i}`);
      tasks.push(await ok(inner.app, 'POST', '/api/Ferry/FerryTasks', { token, body: { fileIds: [f.id], targetZone: '外网', recipients: [b.userName], reason: '并发' } }));
    }
    const ids = tasks.map((t) => t.taskId);
    // approved while the first instance cannot send (no secret): the tasks wait, approved
    const secret = inner.config.ferry.secret;
    inner.config.ferry.secret = null;
    try {
      for (const t of tasks) await ok(inner.app, 'POST', `/api/Workflow/Instances/${t.instanceId}/Approve`, { token: admin, body: {} });
    } finally {
      inner.config.ferry.secret = secret;
    }
    for (const id of ids) expect((await ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${id}`, { token })).status).toBe('approved');
    // the retry is due now
    await inner.app.db.updateTable('ferry_tasks').set({ lease_until: 0 }).execute();

    const [sentA, sentB] = await Promise.all([inner.app.services.ferry.sendDue(), inner2.services.ferry.sendDue()]);
    expect(sentA + sentB).toBe(TASKS);
    expect(fs.readdirSync(toOuter).filter((n) => n.endsWith('.pkg'))).toHaveLength(TASKS);
    for (const id of ids) expect((await ok(inner.app, 'GET', `/api/Ferry/FerryTasks/${id}`, { token })).status).toBe('transferring');

    const [gotA, gotB] = await Promise.all([outer.app.services.ferryInbox.importSpools(), outer2.services.ferryInbox.importSpools()]);
    expect(gotA.accepted + gotB.accepted).toBe(TASKS);
    expect([...gotA.rejected, ...gotB.rejected]).toEqual([]);
    const inbox = await ok(outer.app, 'GET', '/api/Ferry/Inbox', { token: bToken, query: { page: 1, pageSize: 50 } });
    expect(inbox.data.map((i: any) => i.taskId).sort()).toEqual([...ids].sort());
    expect(fs.readdirSync(toOuter).filter((n) => n.includes('.pkg'))).toEqual([]);
  });
});
