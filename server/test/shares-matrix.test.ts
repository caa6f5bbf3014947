// The share matrix: every share call and every call made through a share, for every kind of
// caller (the creator, recipients by user, department and group, a non-recipient, no session;
// outside visitors with the right key, a wrong key and none), with the state read back.
import crypto from 'node:crypto';
import { call, databaseKinds, HAN, ok, roleCast, startServer, type CallResult, type TestServer } from './support/harness';
import { makeFile, makeFolder, raw } from './support/content';
import { createTask } from './support/uploads';

type Outcome = 'ok' | 'gone' | 'key' | 'none' | 'session' | 'hidden';

describe.each(databaseKinds())('share matrix (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind);
  });
  afterAll(async () => server.close());
  const app = () => server.app;

  const outcomeOf = (r: CallResult | { status: number; json: any }): Outcome => {
    const body = 'json' in r ? r.json : r.body;
    if (r.status === 200 && (body === null || body?.code === 200 || body?.code === undefined)) return 'ok';
    if (body?.message) expect(body.message).toMatch(HAN);
    if (r.status === 401 && body?.message === '指定的分享不存在或已过期。') return 'gone';
    if (r.status === 401) return 'session';
    if (r.status === 403 && body?.code === 40302) return 'key';
    if (r.status === 404) return 'hidden';
    return 'none';
  };

  test('who reaches what through an internal share and an external link', async () => {
    const cast = await roleCast(app());
    const { adminToken, owner, outsider } = cast;
    const mk = async (nickName: string, deptId: string | null) => {
      const userName = `m${crypto.randomUUID().slice(0, 8)}`;
      const u = await ok(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName, nickName, password: 'Matrix-Passw0rd-1', deptId, mustChangePassword: false } });
      const s = await ok(app(), 'POST', '/api/login', { body: { userName, password: 'Matrix-Passw0rd-1', mode: 'password' } });
      return { userId: u.userId as string, token: s.token as string };
    };
    const dept = await ok(app(), 'POST', '/api/Admin/Departments', { token: adminToken, body: { name: `矩阵部-${crypto.randomUUID().slice(0, 6)}` } });
    const group = await ok(app(), 'POST', '/api/Admin/Groups', { token: adminToken, body: { name: `矩阵组-${crypto.randomUUID().slice(0, 6)}` } });
    const byUser = await mk('按用户', null);
    const byDept = await mk('按部门', dept.id);
    const byGroup = await mk('按组', null);
    await ok(app(), 'PUT', `/api/Admin/Groups/${group.id}/Members`, { token: adminToken, body: { userIds: [byGroup.userId] } });

    const root = await makeFolder(app(), owner.token, cast.ownerRoot.id, `矩阵-${crypto.randomUUID().slice(0, 6)}`);
    const file = await makeFile(app(), owner.token, owner.userId, root.id, '矩阵.txt', 'matrix bytes');
    const internal = await ok(app(), 'POST', '/api/User/Shares', {
      token: owner.token,
      body: { fileIds: [root.id], shareType: 1, level: 3, expireAt: null, targets: [{ type: 1, id: byUser.userId }, { type: 2, id: dept.id }, { type: 3, id: group.id }] },
    });
    const external = await ok(app(), 'POST', '/api/User/Shares', { token: owner.token, body: { fileIds: [root.id], shareType: 2, level: 3, expireAt: null, accessKey: 'Matrix123' } });

    // internal: the ordinary calls with shareId
    const internalCalls: Record<string, (token: string | undefined) => Promise<CallResult | { status: number; json: any }>> = {
      list: (token) => call(app(), 'GET', `/api/User/Folders/${root.id}/Items`, { token, query: { shareId: internal.shareId } }),
      download: (token) => raw(app(), 'GET', `/api/User/FileTransfer/Download/${file.id}?shareId=${internal.shareId}`, token ? { token } : {}),
      zip: (token) => call(app(), 'POST', '/api/User/FileTransfer/DownloadTask', { token, query: { shareId: internal.shareId }, body: [root.id] }),
      upload: (token) => createTask(app(), { token, internalShareId: internal.shareId }, { folderId: root.id, fileName: `up-${crypto.randomUUID().slice(0, 4)}.bin`, size: 3 }),
    };
    const callers: Record<string, string | undefined> = {
      creator: owner.token,
      byUser: byUser.token,
      byDepartment: byDept.token,
      byGroup: byGroup.token,
      nonRecipient: outsider.token,
      noSession: undefined,
    };
    const seen: Record<string, Record<string, Outcome>> = {};
    for (const [who, token] of Object.entries(callers)) {
      seen[who] = {};
      for (const [name, run] of Object.entries(internalCalls)) seen[who][name] = outcomeOf(await run(token));
    }
    const all = (o: Outcome) => ({ list: o, download: o, zip: o, upload: o });
    expect(seen).toEqual({
      creator: all('ok'),
      byUser: all('ok'),
      byDepartment: all('ok'),
      byGroup: all('ok'),
      nonRecipient: all('gone'),
      noSession: all('session'),
    });
    // internal shares are not reachable from outside, key or not
    expect(outcomeOf(await call(app(), 'GET', `/api/Outsource/${internal.shareId}`, { headers: { accessKey: 'Matrix123' } }))).toBe('gone');

    // external: the Outsource and External calls
    const base = `/api/User/FileTransfer/External/${external.shareId}`;
    const externalCalls: Record<string, (key: string | undefined) => Promise<CallResult | { status: number; json: any }>> = {
      items: (key) => call(app(), 'GET', `/api/Outsource/${external.shareId}/Items`, { headers: key === undefined ? {} : { accessKey: key } }),
      download: (key) => raw(app(), 'GET', `/api/User/FileTransfer/ExternalDownload/${file.id}?urlKey=${external.shareId}${key === undefined ? '' : `&accessKey=${key}`}`),
      zip: (key) => call(app(), 'POST', `${base}/DownloadTask`, { headers: key === undefined ? {} : { accessKey: key }, body: [root.id] }),
      upload: (key) => createTask(app(), { shareId: external.shareId, accessKey: key }, { folderId: root.id, fileName: `ext-${crypto.randomUUID().slice(0, 4)}.bin`, size: 3 }),
    };
    const keys: Record<string, string | undefined> = { rightKey: 'Matrix123', wrongKey: 'Wrong999', noKey: undefined };
    const seenOutside: Record<string, Record<string, Outcome>> = {};
    for (const [who, key] of Object.entries(keys)) {
      seenOutside[who] = {};
      for (const [name, run] of Object.entries(externalCalls)) seenOutside[who][name] = outcomeOf(await run(key));
    }
    expect(seenOutside).toEqual({
      rightKey: { items: 'ok', download: 'ok', zip: 'ok', upload: 'ok' },
      wrongKey: { items: 'key', download: 'key', zip: 'key', upload: 'key' },
      noKey: { items: 'key', download: 'key', zip: 'key', upload: 'key' },
    });
    // a bearer token does not stand in for the key
    expect(outcomeOf(await call(app(), 'GET', `/api/Outsource/${external.shareId}/Items`, { token: owner.token }))).toBe('key');

    // the share calls: the creator's alone
    const shareCalls: Record<string, (token: string) => Promise<CallResult>> = {
      sent: (token) => call(app(), 'GET', '/api/User/Shares/Sent', { token }),
      events: (token) => call(app(), 'GET', `/api/User/Shares/${external.shareId}/Events`, { token }),
      change: (token) => call(app(), 'PUT', `/api/User/Shares/${external.shareId}`, { token, body: { downloadLimit: 100 } }),
    };
    for (const [who, token] of [['creator', owner.token], ['recipient', byUser.token], ['nonRecipient', outsider.token]] as const) {
      const got = Object.fromEntries(await Promise.all(Object.entries(shareCalls).map(async ([n, run]) => [n, outcomeOf(await run(token))])));
      expect({ who, ...got }).toEqual(who === 'creator' ? { who, sent: 'ok', events: 'ok', change: 'ok' } : { who, sent: 'ok', events: 'hidden', change: 'hidden' });
    }
    const sentByOthers = (await ok(app(), 'GET', '/api/User/Shares/Sent', { token: byUser.token })).data.map((r: any) => r.shareId);
    expect(sentByOthers).not.toContain(external.shareId);
    expect(outcomeOf(await call(app(), 'DELETE', '/api/User/Shares', { token: byUser.token, body: [internal.shareId] }))).toBe('hidden');
    const row = await app().db.selectFrom('shares').select(['deleted', 'download_limit']).where('id', '=', external.shareId).executeTakeFirstOrThrow();
    expect({ deleted: Number(row.deleted), limit: Number(row.download_limit) }).toEqual({ deleted: 0, limit: 100 });
    // what the recipients see in 与我共享
    for (const who of [byUser, byDept, byGroup]) {
      expect((await ok(app(), 'GET', '/api/User/Shares/Received', { token: who.token })).data.map((r: any) => r.shareId)).toEqual([internal.shareId]);
    }
    expect((await ok(app(), 'GET', '/api/User/Shares/Received', { token: outsider.token })).data).toEqual([]);
  });
});
