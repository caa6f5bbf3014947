// WebDAV (/dav/) and 应用密码 through the real server on SQLite and PostgreSQL (issue 29): the
// application passwords' lifecycle (shown once, hashed at rest, revoked, ended by disabling the
// person and by a new password, throttled like sign-in), PROPFIND of the tree with Chinese
// names and its property values, GET with Range, the web's rights (preview-only through a
// share, another person's item, an enterprise folder hidden by its policy), MKCOL and DELETE,
// PUT (new, new version, quota, shares, a streamed 20 MB body), COPY and MOVE (rights,
// Overwrite, across spaces), PROPPATCH's dead properties, LOCK and UNLOCK (423, the If header,
// the Office save), and litmus's basic, copymove, props, locks and http suites when litmus is
// installed (every test asserted).
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { AddressInfo } from 'node:net';
import { call, databaseKinds, HAN, login, ok, roleCast, startServer, userWithToken, type TestServer, type TestUser } from './support/harness';
import { makeFile, makeFolder } from './support/content';

const enc = (s: string) => encodeURIComponent(s);
const PERSONAL = '个人文件';
const PUBLIC = '企业文件';
const SHARED = '与我共享';
const basic = (userName: string, password: string) => `Basic ${Buffer.from(`${userName}:${password}`, 'utf8').toString('base64')}`;
const sha256 = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');
const RFC1123 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

interface DavReply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  raw: Buffer;
}

interface PropEntry {
  href: string;
  /** found properties (DAV: local name → inner XML) */
  props: Record<string, string>;
  /** properties answered 404 */
  missing: string[];
}

/** The D:response elements of a multistatus, by href (the server writes them with prefix D). */
function multistatus(xml: string): Map<string, PropEntry> {
  const out = new Map<string, PropEntry>();
  for (const chunk of xml.split('<D:response>').slice(1)) {
    const href = /<D:href>([^<]*)<\/D:href>/.exec(chunk)![1];
    const entry: PropEntry = { href, props: {}, missing: [] };
    for (const stat of chunk.split('<D:propstat>').slice(1)) {
      const status = /<D:status>HTTP\/1.1 (\d+)/.exec(stat)![1];
      const prop = /<D:prop>([\s\S]*)<\/D:prop>/.exec(stat)?.[1] ?? '';
      const re = /<(?:\w+:)?([\w-]+)(?: [^>]*)?(?:\/>|>([\s\S]*?)<\/(?:\w+:)?\1>)/g;
      for (let m = re.exec(prop); m; m = re.exec(prop)) {
        if (status === '200') entry.props[m[1]] = m[2] ?? '';
        else entry.missing.push(m[1]);
      }
    }
    out.set(href, entry);
  }
  return out;
}

const PROPS_BODY = (names: string[]) =>
  `<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop>${names.map((n) => (n.includes(':') ? n : `<D:${n}/>`)).join('')}</D:prop></D:propfind>`;

describe.each(databaseKinds())('WebDAV and application passwords (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let owner: TestUser;
  let outsider: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  let ownerRoot: any;
  let publicRoot: any;
  /** the owner's read-write and read-only application passwords */
  let rw: string;
  let ro: string;
  let viewerAuth: string;
  let outsiderAuth: string;
  const text = '云文档 WebDAV 测试内容：0123456789 abcdefghijklmnopqrstuvwxyz\n'.repeat(20);
  let folder: { id: string; name: string };
  let file: { id: string; name: string };

  const app = () => server.app;
  let port = 0;
  /** the server listening on a port of its own (once) */
  const listening = async () => {
    if (!port) {
      await app().listen({ host: '127.0.0.1', port: 0 });
      port = (app().server.address() as AddressInfo).port;
    }
    return port;
  };

  const dav = async (method: string, url: string, o: { auth?: string; headers?: Record<string, string>; body?: string | Buffer; remoteAddress?: string } = {}): Promise<DavReply> => {
    const res = await app().inject({
      method: method as 'GET',
      url,
      headers: { ...(o.auth ? { authorization: o.auth } : {}), ...o.headers },
      payload: o.body,
      remoteAddress: o.remoteAddress,
    });
    return { status: res.statusCode, headers: res.headers, text: res.body, raw: res.rawPayload };
  };
  const propfind = (url: string, auth: string, depth: string | null, body?: string, remoteAddress?: string) =>
    dav('PROPFIND', url, { auth, headers: { ...(depth === null ? {} : { depth }), ...(body ? { 'content-type': 'application/xml; charset=utf-8' } : {}) }, body, remoteAddress });

  const newAppPassword = async (token: string, name: string, scope: 'readOnly' | 'readWrite') =>
    ok(app(), 'POST', '/api/Account/AppPasswords', { token, body: { name, scope } }) as Promise<{ id: string; password: string; userName: string; scope: string; name: string }>;

  beforeAll(async () => {
    server = await startServer(kind);
    ({ adminToken, owner, outsider, editor, viewer, ownerRoot, publicRoot } = await roleCast(server.app));
    rw = basic(owner.userName, (await newAppPassword(owner.token, '同步盘', 'readWrite')).password);
    ro = basic(owner.userName, (await newAppPassword(owner.token, '只读挂载', 'readOnly')).password);
    viewerAuth = basic(viewer.userName, (await newAppPassword(viewer.token, '读者的电脑', 'readOnly')).password);
    outsiderAuth = basic(outsider.userName, (await newAppPassword(outsider.token, '外人的电脑', 'readWrite')).password);
    folder = await makeFolder(app(), owner.token, ownerRoot.id, '项目 资料（2026）');
    file = await makeFile(app(), owner.token, owner.userId, folder.id, '报告 终稿#1.txt', text);
    await makeFolder(app(), owner.token, folder.id, '子目录');
    await makeFile(app(), owner.token, owner.userId, folder.id, '空文件.md', '');
  });
  afterAll(async () => server.close());

  describe('应用密码', () => {
    test('created with a name and a scope, shown once, listed without the secret, stored only as a digest', async () => {
      const created = await newAppPassword(owner.token, '家里的电脑', 'readOnly');
      expect(created.password).toMatch(/^[0-9a-z]{5}(-[0-9a-z]{5}){5}$/);
      expect(created).toMatchObject({ name: '家里的电脑', scope: 'readOnly', userName: owner.userName, lastUsedAt: null });
      const list = await ok(app(), 'GET', '/api/Account/AppPasswords', { token: owner.token });
      const listed = list.find((p: any) => p.id === created.id);
      expect(listed).toEqual({ id: created.id, name: '家里的电脑', scope: 'readOnly', createdAt: expect.any(String), lastUsedAt: null, lastUsedIp: '' });
      expect(JSON.stringify(list)).not.toContain(created.password);
      // at rest: the SHA-256 of the secret without its hyphens, nothing else of it
      const row = await app().db.selectFrom('app_passwords').selectAll().where('id', '=', Number(created.id)).executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(sha256(created.password.replace(/-/g, '')));
      expect(JSON.stringify(row)).not.toContain(created.password.replace(/-/g, '').slice(0, 10));
      // it works, typed in capitals and without hyphens too, and its use is shown
      expect((await propfind('/dav/', basic(owner.userName, created.password.replace(/-/g, '').toUpperCase()), '0')).status).toBe(207);
      const used = (await ok(app(), 'GET', '/api/Account/AppPasswords', { token: owner.token })).find((p: any) => p.id === created.id);
      expect(used.lastUsedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(used.lastUsedIp).toBe('127.0.0.1');
      // revoked: 401 at once; revoking again or someone else's: 404
      const revoked = await ok(app(), 'DELETE', `/api/Account/AppPasswords/${created.id}`, { token: owner.token });
      expect(revoked.id).toBe(created.id);
      const refused = await propfind('/dav/', basic(owner.userName, created.password), '0');
      expect(refused.status).toBe(401);
      expect(Buffer.from(String(refused.headers['www-authenticate']), 'latin1').toString('utf8')).toBe('Basic realm="云文档", charset="UTF-8"');
      expect(refused.text).toMatch(/撤销/);
      expect((await call(app(), 'DELETE', `/api/Account/AppPasswords/${created.id}`, { token: owner.token })).status).toBe(404);
      const other = await newAppPassword(viewer.token, '别人的', 'readOnly');
      const foreign = await call(app(), 'DELETE', `/api/Account/AppPasswords/${other.id}`, { token: owner.token });
      expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 404 });
      expect(foreign.body.message).toMatch(HAN);
      await ok(app(), 'DELETE', `/api/Account/AppPasswords/${other.id}`, { token: viewer.token });
      // the operation log has both, under the person
      // the records are written a moment after the answers
      await app().services.oplog.settled();
      const logged = await app().db.selectFrom('operation_logs').select(['action', 'object_id', 'user_id', 'result']).where('object_type', '=', 'apppassword').where('object_id', '=', created.id).execute();
      expect(logged.map((r) => [r.action, r.result, Number(r.user_id)]).sort()).toEqual([
        ['auth.apppassword.create', 'ok', Number(owner.userId)],
        ['auth.apppassword.revoke', 'fail', Number(owner.userId)],
        ['auth.apppassword.revoke', 'ok', Number(owner.userId)],
      ]);
    });

    test('refuses a nameless password and an unknown scope in Chinese', async () => {
      for (const body of [{ name: '   ', scope: 'readOnly' }, { name: 'x'.repeat(51), scope: 'readOnly' }, { name: '电脑', scope: 'admin' }]) {
        const r = await call(app(), 'POST', '/api/Account/AppPasswords', { token: owner.token, body });
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 40001 });
        expect(r.body.message).toMatch(HAN);
      }
    });

    test('the account password is not accepted over WebDAV, nor no credentials, and OPTIONS needs none', async () => {
      const main = await propfind('/dav/', basic(owner.userName, owner.password), '0', undefined, '198.51.100.1');
      expect(main.status).toBe(401);
      expect(main.text).toMatch(/只接受应用密码/);
      const none = await propfind('/dav/', '', '0');
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toBeDefined();
      const options = await dav('OPTIONS', `/dav/${enc(PERSONAL)}/`);
      expect(options.status).toBe(200);
      expect(options.headers.dav).toBe('1, 2');
      expect(String(options.headers.allow)).toContain('PROPFIND');
    });

    test('where the administrator allows it, the account password works for people without TOTP only, read-write; wrong ones are counted; turned off, it stops', async () => {
      const policy = await ok(app(), 'GET', '/api/Login/PasswordPolicy');
      expect(policy.webdavAccountPassword).toBe(false);
      const plain = await userWithToken(app(), adminToken);
      const guarded = await userWithToken(app(), adminToken);
      await ok(app(), 'PUT', `/api/Admin/Users/${guarded.userId}/Totp`, { token: adminToken, body: { required: true } });
      // a change of the rest of the policy that leaves the switch out does not touch it
      const on = await ok(app(), 'PUT', '/api/Admin/PasswordPolicy', { token: adminToken, body: { ...policy, webdavAccountPassword: true } });
      expect(on.webdavAccountPassword).toBe(true);
      const { webdavAccountPassword: _left, ...rest } = on;
      expect((await ok(app(), 'PUT', '/api/Admin/PasswordPolicy', { token: adminToken, body: { ...rest, lockoutMinutes: 15 } })).webdavAccountPassword).toBe(true);
      try {
        const auth = basic(plain.userName, plain.password);
        expect((await propfind('/dav/', auth, '0', undefined, '198.51.100.20')).status).toBe(207);
        // read-write, as on the web
        const root = `/dav/${enc(PERSONAL)}/`;
        expect((await dav('MKCOL', `${root}${enc('登录密码建的')}`, { auth, remoteAddress: '198.51.100.20' })).status).toBe(201);
        // taken again from its check a moment ago, and still refused when wrong
        expect((await propfind(root, auth, '1', undefined, '198.51.100.20')).status).toBe(207);
        const wrong = await propfind('/dav/', basic(plain.userName, 'Not-The-Passw0rd'), '0', undefined, '198.51.100.21');
        expect(wrong.status).toBe(401);
        expect(wrong.text).toMatch(/用户名或密码错误/);
        // a person who must use TOTP: never with the account password (the reason says why)
        const totp = await propfind('/dav/', basic(guarded.userName, guarded.password), '0', undefined, '198.51.100.22');
        expect(totp.status).toBe(401);
        expect(totp.text).toMatch(/已启用动态口令，只能使用应用密码/);
        // application passwords still work for both
        const app1 = basic(guarded.userName, (await newAppPassword(guarded.token, '电脑', 'readOnly')).password);
        expect((await propfind('/dav/', app1, '0')).status).toBe(207);
        // a new password: the old one is refused at once (the check a moment ago was for the old one)
        await ok(app(), 'POST', `/api/Admin/Users/${plain.userId}/ResetPassword`, { token: adminToken, body: { password: 'Reset-Passw0rd-88', mustChangePassword: false } });
        expect((await propfind('/dav/', auth, '0', undefined, '198.51.100.20')).status).toBe(401);
        expect((await propfind('/dav/', basic(plain.userName, 'Reset-Passw0rd-88'), '0', undefined, '198.51.100.20')).status).toBe(207);
        await app().services.oplog.settled();
        const failures = await app().db.selectFrom('operation_logs').select(['action', 'reason']).where('user_id', '=', Number(plain.userId)).where('action', '=', 'auth.login.fail').execute();
        expect(failures.length).toBeGreaterThanOrEqual(2);
      } finally {
        await ok(app(), 'PUT', '/api/Admin/PasswordPolicy', { token: adminToken, body: { ...policy, webdavAccountPassword: false } });
      }
      const off = await propfind('/dav/', basic(plain.userName, 'Reset-Passw0rd-88'), '0', undefined, '198.51.100.23');
      expect(off.status).toBe(401);
      expect(off.text).toMatch(/只接受应用密码/);
    });

    test('disabling the person ends their application passwords (enabling does not bring them back)', async () => {
      const person = await userWithToken(app(), adminToken);
      const auth = basic(person.userName, (await newAppPassword(person.token, '笔记本', 'readWrite')).password);
      expect((await propfind('/dav/', auth, '0')).status).toBe(207);
      await ok(app(), 'POST', `/api/Admin/Users/${person.userId}/Disable`, { token: adminToken });
      expect((await propfind('/dav/', auth, '0')).status).toBe(401);
      await ok(app(), 'POST', `/api/Admin/Users/${person.userId}/Enable`, { token: adminToken });
      expect((await propfind('/dav/', auth, '0')).status).toBe(401);
      const rows = await app().db.selectFrom('app_passwords').select('revoked_at').where('user_id', '=', Number(person.userId)).execute();
      expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
    });

    test('a new password (changed by the person or reset by an administrator) ends them', async () => {
      const person = await userWithToken(app(), adminToken);
      const first = basic(person.userName, (await newAppPassword(person.token, '台式机', 'readOnly')).password);
      expect((await propfind('/dav/', first, '0')).status).toBe(207);
      await ok(app(), 'POST', '/api/account/changepassword', { token: person.token, body: { oldPassword: person.password, newPassword: 'Changed-Passw0rd-9' } });
      expect((await propfind('/dav/', first, '0')).status).toBe(401);
      const token = (await login(app(), person.userName, 'Changed-Passw0rd-9')).token as string;
      const second = basic(person.userName, (await newAppPassword(token, '台式机', 'readOnly')).password);
      expect((await propfind('/dav/', second, '0')).status).toBe(207);
      await ok(app(), 'POST', `/api/Admin/Users/${person.userId}/ResetPassword`, { token: adminToken, body: { password: 'Reset-Passw0rd-77', mustChangePassword: false } });
      expect((await propfind('/dav/', second, '0')).status).toBe(401);
    });

    test('wrong passwords are throttled per person like sign-in: 429 with Retry-After, the right one too, and the sign-in page as well', async () => {
      const person = await userWithToken(app(), adminToken);
      const right = basic(person.userName, (await newAppPassword(person.token, '手机', 'readOnly')).password);
      // the policy's lockout: 5 failures in 15 minutes, from different addresses
      for (let n = 0; n < 5; n++) {
        const r = await propfind('/dav/', basic(person.userName, 'aaaaa-bbbbb-ccccc-ddddd-eeeee-fffff'), '0', undefined, `203.0.113.${n + 10}`);
        expect(r.status).toBe(401);
      }
      const locked = await propfind('/dav/', right, '0', undefined, '203.0.113.99');
      expect(locked.status).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(locked.text).toMatch(/登录失败次数过多/);
      const signIn = await call(app(), 'POST', '/api/login', { body: { userName: person.userName, password: person.password, mode: 'password' }, remoteAddress: '203.0.113.98' });
      expect(signIn.status).toBe(429);
      // the records are written a moment after the answers
      await app().services.oplog.settled();
      const failures = await app().db.selectFrom('operation_logs').select(['action', 'detail']).where('user_id', '=', Number(person.userId)).where('action', 'in', ['auth.login.fail', 'auth.lockout']).execute();
      expect(failures.filter((f) => f.action === 'auth.login.fail')).toHaveLength(5);
      expect(failures.some((f) => f.action === 'auth.lockout')).toBe(true);
      expect(JSON.parse(failures[0].detail)).toMatchObject({ via: 'WebDAV' });
    });
  });

  describe('PROPFIND', () => {
    test('/dav/ lists 个人文件, 企业文件 and 与我共享 with their web names; quota from the personal space', async () => {
      await ok(app(), 'PUT', `/api/Admin/Users/${owner.userId}`, { token: adminToken, body: { quota: 10 * 1024 * 1024 } });
      const r = await propfind('/dav/', rw, '1');
      expect(r.status).toBe(207);
      expect(r.headers['content-type']).toMatch(/^application\/xml/);
      const all = multistatus(r.text);
      expect([...all.keys()]).toEqual(['/dav/', `/dav/${enc(PERSONAL)}/`, `/dav/${enc(PUBLIC)}/`, `/dav/${enc(SHARED)}/`]);
      expect(all.get(`/dav/${enc(PERSONAL)}/`)!.props).toMatchObject({ displayname: PERSONAL, resourcetype: '<D:collection/>' });
      expect(all.get(`/dav/${enc(SHARED)}/`)!.props.displayname).toBe(SHARED);
      // allprop does not carry the quota (RFC 4331); asked for, it is the person's own
      expect(all.get('/dav/')!.props['quota-used-bytes']).toBeUndefined();
      const q = multistatus((await propfind(`/dav/${enc(PERSONAL)}/`, rw, '0', PROPS_BODY(['quota-available-bytes', 'quota-used-bytes']))).text);
      const usage = await ok(app(), 'GET', '/api/Account/PersonalRootUsed', { token: owner.token });
      const props = q.get(`/dav/${enc(PERSONAL)}/`)!.props;
      expect(Number(props['quota-used-bytes'])).toBe(usage.used);
      expect(usage.used).toBeGreaterThanOrEqual(Buffer.byteLength(text));
      expect(Number(props['quota-available-bytes'])).toBe(10 * 1024 * 1024 - usage.used - usage.uploading);
      const root = multistatus((await propfind('/dav/', rw, '0', PROPS_BODY(['quota-used-bytes']))).text);
      expect(Number(root.get('/dav/')!.props['quota-used-bytes'])).toBe(usage.used);
      // the enterprise space has no personal quota
      const pub = multistatus((await propfind(`/dav/${enc(PUBLIC)}/`, rw, '0', PROPS_BODY(['quota-used-bytes', 'displayname']))).text);
      expect(pub.get(`/dav/${enc(PUBLIC)}/`)!.missing).toEqual(['quota-used-bytes']);
    });

    test('a folder with Chinese names: percent-encoded hrefs, sizes, entity tags equal to GET, RFC 1123 dates', async () => {
      const url = `/dav/${enc(PERSONAL)}/${enc(folder.name)}/`;
      const r = await propfind(url, rw, '1');
      expect(r.status).toBe(207);
      const all = multistatus(r.text);
      const fileHref = `${url}${enc(file.name)}`;
      expect([...all.keys()].sort()).toEqual([url, `${url}${enc('子目录')}/`, `${url}${enc('空文件.md')}`, fileHref].sort());
      expect(fileHref).toContain('%23'); // '#' in a name
      const p = all.get(fileHref)!.props;
      expect(p.displayname).toBe(file.name);
      expect(p.resourcetype).toBe('');
      expect(Number(p.getcontentlength)).toBe(Buffer.byteLength(text));
      expect(p.getcontenttype).toBe('text/plain; charset=utf-8');
      expect(p.getlastmodified).toMatch(RFC1123);
      expect(p.creationdate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      const got = await dav('GET', fileHref, { auth: rw });
      expect(got.status).toBe(200);
      expect(got.raw.toString('utf8')).toBe(text);
      expect(got.headers.etag).toBe(p.getetag.replace(/&quot;/g, '"'));
      expect(got.headers['last-modified']).toBe(p.getlastmodified);
      expect(all.get(`${url}${enc('空文件.md')}`)!.props.getcontentlength).toBe('0');
      // depth 0 of the same folder: itself only; the path may differ in case and be NFD
      const self = multistatus((await propfind(`/dav/${enc(PERSONAL)}/${enc(folder.name.toUpperCase())}`, rw, '0')).text);
      expect([...self.keys()]).toEqual([url]);
      expect(self.get(url)!.props.displayname).toBe(folder.name);
    });

    test('Depth: infinity (or none) is refused with propfind-finite-depth; bad bodies are 400; unknown properties 404', async () => {
      for (const depth of ['infinity', null]) {
        const r = await propfind('/dav/', rw, depth);
        expect(r.status).toBe(403);
        expect(r.text).toContain('<D:propfind-finite-depth/>');
      }
      expect((await propfind('/dav/', rw, '2')).status).toBe(400);
      expect((await propfind('/dav/', rw, '0', '<D:propfind xmlns:D="DAV:"><D:prop>')).status).toBe(400);
      expect((await propfind('/dav/', rw, '0', '<D:propfind xmlns:D="DAV:"><D:prop><bar:foo xmlns:bar=""/></D:prop></D:propfind>')).status).toBe(400);
      expect((await propfind('/dav/', rw, '0', '<!DOCTYPE x [<!ENTITY a "b">]><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>')).status).toBe(400);
      const url = `/dav/${enc(PERSONAL)}/${enc(folder.name)}/${enc(file.name)}`;
      const asked = multistatus((await propfind(url, rw, '0', PROPS_BODY(['getcontentlength', '<Z:color xmlns:Z="urn:example"/>', 'quota-used-bytes']))).text).get(url)!;
      expect(Object.keys(asked.props)).toEqual(['getcontentlength']);
      expect(asked.missing.sort()).toEqual(['color', 'quota-used-bytes']);
      const names = await propfind(url, rw, '0', '<?xml version="1.0"?><propfind xmlns="DAV:"><propname/></propfind>');
      const named = multistatus(names.text).get(url)!;
      expect(Object.keys(named.props).sort()).toEqual(['creationdate', 'displayname', 'getcontentlength', 'getcontenttype', 'getetag', 'getlastmodified', 'lockdiscovery', 'resourcetype', 'supportedlock']);
      expect(Object.values(named.props).every((v) => v === '')).toBe(true);
      expect((await propfind(`/dav/${enc(PERSONAL)}/没有这个`, rw, '0')).status).toBe(404);
    });

    test('a folder larger than a page is read a page at a time and listed whole', async () => {
      const person = await userWithToken(app(), adminToken);
      const auth = basic(person.userName, (await newAppPassword(person.token, '大文件夹', 'readOnly')).password);
      const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: person.token }))[0];
      const big = await makeFolder(app(), person.token, root.id, '大');
      const names = Array.from({ length: 620 }, (_, n) => `文件-${String(n).padStart(4, '0')}.txt`);
      for (let at = 0; at < names.length; at += 20) {
        await Promise.all(names.slice(at, at + 20).map((name) => ok(app(), 'POST', '/api/User/Files/CreateFile', { token: person.token, body: { parentId: big.id, name, type: 'file' } })));
      }
      const r = await propfind(`/dav/${enc(PERSONAL)}/${enc('大')}/`, auth, '1');
      expect(r.status).toBe(207);
      const hrefs = [...multistatus(r.text).keys()];
      expect(hrefs).toHaveLength(621);
      expect(new Set(hrefs).size).toBe(621);
      expect(hrefs.slice(1).map((h) => decodeURIComponent(h.split('/').pop()!))).toEqual(names);
    });
  });

  describe('GET and HEAD', () => {
    const url = () => `/dav/${enc(PERSONAL)}/${enc(folder.name)}/${enc(file.name)}`;

    test('Range gives 206 with the bytes asked; HEAD the length; If-None-Match 304', async () => {
      const part = await dav('GET', url(), { auth: ro, headers: { range: 'bytes=10-29' } });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 10-29/${Buffer.byteLength(text)}`);
      expect(part.raw.equals(Buffer.from(text).subarray(10, 30))).toBe(true);
      const head = await dav('HEAD', url(), { auth: ro });
      expect(head.status).toBe(200);
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(text));
      expect(head.raw.length).toBe(0);
      const again = await dav('GET', url(), { auth: ro, headers: { 'if-none-match': String(head.headers.etag) } });
      expect(again.status).toBe(304);
      expect((await dav('GET', url(), { auth: ro, headers: { range: 'bytes=999999-' } })).status).toBe(416);
    });

    test('a folder answers a small HTML page of its members', async () => {
      const r = await dav('GET', `/dav/${enc(PERSONAL)}/${enc(folder.name)}/`, { auth: ro });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.text).toContain(`href="/dav/${enc(PERSONAL)}/${enc(folder.name)}/${enc(file.name)}"`);
      expect(r.text).toContain('报告 终稿#1.txt');
    });
  });

  describe('the web’s rights', () => {
    test('through 与我共享 a preview-only file is listed but its bytes are 403; a download share gives them', async () => {
      const preview = await makeFile(app(), owner.token, owner.userId, ownerRoot.id, '只能预览.txt', 'preview only');
      const shared = await makeFolder(app(), owner.token, ownerRoot.id, '共享文件夹');
      const inside = await makeFile(app(), owner.token, owner.userId, shared.id, '里面.txt', 'inside the shared folder');
      const share = async (ids: string[], level: number) =>
        ok(app(), 'POST', '/api/User/Shares', { token: owner.token, body: { fileIds: ids, shareType: 1, level, expireAt: null, targets: [{ type: 1, id: viewer.userId }], downloadLimit: null } });
      await share([preview.id], 1);
      await share([shared.id], 2);
      const list = multistatus((await propfind(`/dav/${enc(SHARED)}/`, viewerAuth, '1')).text);
      const previewHref = `/dav/${enc(SHARED)}/${enc('只能预览.txt')}`;
      expect([...list.keys()].sort()).toEqual([`/dav/${enc(SHARED)}/`, previewHref, `/dav/${enc(SHARED)}/${enc('共享文件夹')}/`].sort());
      expect(list.get(previewHref)!.props.getcontentlength).toBe(String('preview only'.length));
      const refused = await dav('GET', previewHref, { auth: viewerAuth });
      expect(refused.status).toBe(403);
      expect(refused.text).toMatch(HAN);
      const inFolder = `/dav/${enc(SHARED)}/${enc('共享文件夹')}/${enc('里面.txt')}`;
      expect(multistatus((await propfind(`/dav/${enc(SHARED)}/${enc('共享文件夹')}/`, viewerAuth, '1')).text).has(inFolder)).toBe(true);
      const got = await dav('GET', inFolder, { auth: viewerAuth });
      expect(got.status).toBe(200);
      expect(got.text).toBe('inside the shared folder');
      expect(inside.id).toBeTruthy();
      // a download share gives no right to delete; the owner's own items stay the owner's
      expect((await dav('DELETE', inFolder, { auth: viewerAuth })).status).toBe(403);
    });

    test("another person's item does not exist (404), nor an enterprise folder whose policy hides it", async () => {
      const own = `/dav/${enc(PERSONAL)}/${enc(folder.name)}/${enc(file.name)}`;
      expect((await dav('GET', own, { auth: outsiderAuth })).status).toBe(404);
      expect((await propfind(`/dav/${enc(PERSONAL)}/${enc(folder.name)}/`, outsiderAuth, '0')).status).toBe(404);
      const secret = await makeFolder(app(), editor.token, publicRoot.id, '机密');
      await makeFile(app(), editor.token, editor.userId, secret.id, '名单.txt', 'names');
      await makeFolder(app(), editor.token, publicRoot.id, '公开');
      await ok(app(), 'POST', '/api/User/FileAccessPolicies/Policies', { token: editor.token, body: { fileId: secret.id, policies: [{ subjectType: 1, subjectId: editor.userId, level: 4 }] } });
      const listed = [...multistatus((await propfind(`/dav/${enc(PUBLIC)}/`, viewerAuth, '1')).text).keys()];
      expect(listed).toContain(`/dav/${enc(PUBLIC)}/${enc('公开')}/`);
      expect(listed).not.toContain(`/dav/${enc(PUBLIC)}/${enc('机密')}/`);
      expect((await propfind(`/dav/${enc(PUBLIC)}/${enc('机密')}/`, viewerAuth, '0')).status).toBe(404);
      expect((await dav('GET', `/dav/${enc(PUBLIC)}/${enc('机密')}/${enc('名单.txt')}`, { auth: viewerAuth })).status).toBe(404);
      expect((await propfind(`/dav/${enc(PUBLIC)}/${enc('机密')}/`, basic(editor.userName, (await newAppPassword(editor.token, '编辑', 'readOnly')).password), '1')).status).toBe(207);
    });
  });

  describe('writes', () => {
    test('LOCK and UNLOCK: a locked file refuses writes without its token (423), takes them with it; the Office save keeps versions and leaves no lock', async () => {
      const base = `/dav/${enc(PERSONAL)}/${enc(folder.name)}/`;
      const url = `${base}${enc('锁定 文档.docx')}`;
      expect((await dav('PUT', url, { auth: rw, body: '第一版' })).status).toBe(201);
      const lockBody = (scope: string) =>
        `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>张三的电脑</D:owner></D:lockinfo>`;
      expect((await dav('LOCK', url, { auth: ro, body: lockBody('exclusive') })).status).toBe(403);
      const locked = await dav('LOCK', url, { auth: rw, body: lockBody('exclusive'), headers: { timeout: 'Second-600', depth: '0' } });
      expect(locked.status).toBe(200);
      const token = /^<(opaquelocktoken:[^>]+)>$/.exec(String(locked.headers['lock-token']))![1];
      expect(locked.text).toContain('张三的电脑');
      expect((await dav('LOCK', url, { auth: rw, body: lockBody('shared') })).status).toBe(423);
      // another person: the folder is not there for them (as for PUT: no parent, 409)
      expect((await dav('LOCK', url, { auth: outsiderAuth, body: lockBody('exclusive') })).status).toBe(409);
      const refused = await dav('PUT', url, { auth: rw, body: '没有令牌' });
      expect(refused.status).toBe(423);
      expect(refused.text).toMatch(HAN);
      expect((await dav('DELETE', url, { auth: rw })).status).toBe(423);
      expect((await dav('DELETE', base, { auth: rw })).status).toBe(423);
      expect((await dav('PUT', url, { auth: rw, body: 'x', headers: { if: '(<opaquelocktoken:bogus>)' } })).status).toBe(412);
      const discovered = await propfind(url, rw, '0', PROPS_BODY(['lockdiscovery']));
      expect(discovered.text).toContain(token);
      // the Office save: a temporary file, moved over the locked original with the token
      const temp = `${base}${enc('~WRL0001.tmp')}`;
      expect((await dav('PUT', temp, { auth: rw, body: '第二版，已保存' })).status).toBe(201);
      expect((await dav('MOVE', temp, { auth: rw, headers: { destination: url } })).status).toBe(423);
      expect((await dav('MOVE', temp, { auth: rw, headers: { destination: url, if: `<${url}> (<${token}>)` } })).status).toBe(204);
      expect((await dav('GET', url, { auth: rw })).text).toBe('第二版，已保存');
      const refreshed = await dav('LOCK', url, { auth: rw, headers: { if: `(<${token}>)`, timeout: 'Second-60' } });
      expect(refreshed.status).toBe(200);
      expect(refreshed.text).toMatch(/Second-(59|60)/);
      expect((await dav('UNLOCK', url, { auth: rw, headers: { 'lock-token': '<opaquelocktoken:bogus>' } })).status).toBe(409);
      expect((await dav('UNLOCK', url, { auth: rw, headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
      expect(await app().db.selectFrom('dav_locks').select('token').where('token', '=', token).execute()).toHaveLength(0);
      expect((await dav('PUT', url, { auth: rw, body: '第三版' })).status).toBe(204);
      const row = (await ok(app(), 'GET', `/api/User/Folders/${folder.id}/Items`, { token: owner.token, query: { pageSize: 100 } })).items.data.find((i: any) => i.name === '锁定 文档.docx');
      expect((await ok(app(), 'GET', `/api/User/Files/${row.id}/Versions`, { token: owner.token })).length).toBe(3);
      // a lock that has run out no longer holds; a LOCK of a new name makes an empty file
      const again = await dav('LOCK', url, { auth: rw, body: lockBody('exclusive') });
      await app().db.updateTable('dav_locks').set({ expires_at: Date.now() - 1 }).where('token', '=', /<([^>]+)>/.exec(String(again.headers['lock-token']))![1]).execute();
      expect((await dav('PUT', url, { auth: rw, body: '第四版' })).status).toBe(204);
      const fresh = await dav('LOCK', `${base}${enc('新锁定.txt')}`, { auth: rw, body: lockBody('exclusive') });
      expect(fresh.status).toBe(201);
      expect((await dav('GET', `${base}${enc('新锁定.txt')}`, { auth: rw })).raw.length).toBe(0);
      expect((await dav('DELETE', `${base}${enc('新锁定.txt')}`, { auth: rw, headers: { if: `(${String(fresh.headers['lock-token'])})` } })).status).toBe(204);
      expect(await app().db.selectFrom('dav_locks').select('token').where('token', '=', /<([^>]+)>/.exec(String(fresh.headers['lock-token']))![1]).execute()).toHaveLength(0);
      // a lock below a folder holds the folder's MOVE back until its token is given; the move ends it
      const dir = `${base}${enc('锁定目录')}/`;
      expect((await dav('MKCOL', dir, { auth: rw })).status).toBe(201);
      await dav('PUT', `${dir}${enc('子.txt')}`, { auth: rw, body: 'c' });
      const childToken = /<([^>]+)>/.exec(String((await dav('LOCK', `${dir}${enc('子.txt')}`, { auth: rw, body: lockBody('exclusive') })).headers['lock-token']))![1];
      expect((await dav('MOVE', dir, { auth: rw, headers: { destination: `${base}${enc('锁定目录 移走')}/` } })).status).toBe(423);
      // an untagged list speaks of the folder itself, which that lock does not cover: 412
      expect((await dav('MOVE', dir, { auth: rw, headers: { destination: `${base}${enc('锁定目录 移走')}/`, if: `(<${childToken}>)` } })).status).toBe(412);
      expect((await dav('MOVE', dir, { auth: rw, headers: { destination: `${base}${enc('锁定目录 移走')}/`, if: `<${dir}${enc('子.txt')}> (<${childToken}>)` } })).status).toBe(201);
      expect(await app().db.selectFrom('dav_locks').select('token').where('token', '=', childToken).execute()).toHaveLength(0);
      expect((await dav('OPTIONS', url)).headers.dav).toBe('1, 2');
    });

    test('the web respects WebDAV locks: others cannot rename, delete, move, version or write over a locked file (423 in Chinese); the holder can; unlocked, all can', async () => {
      const lockInfo = `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>编辑的 Word</D:owner></D:lockinfo>`;
      const editorAuth = basic(editor.userName, (await newAppPassword(editor.token, 'Word', 'readWrite')).password);
      const shared = await makeFolder(app(), editor.token, publicRoot.id, '锁定检查');
      const doc = await makeFile(app(), editor.token, editor.userId, shared.id, '方案.docx', '第一版');
      const url = `/dav/${enc(PUBLIC)}/${enc('锁定检查')}/${enc('方案.docx')}`;
      const locked = await dav('LOCK', url, { auth: editorAuth, body: lockInfo, headers: { timeout: 'Second-600', depth: '0' } });
      expect(locked.status).toBe(200);
      const token = /^<(opaquelocktoken:[^>]+)>$/.exec(String(locked.headers['lock-token']))![1];
      const expectLocked = (r: { status: number; body: any }) => {
        expect(r.status).toBe(423);
        expect(r.body.code).toBe(42301);
        expect(r.body.message).toMatch(/“方案\.docx”正被编辑通过 WebDAV 锁定/);
      };
      // the administrator (who may change anything in 企业文件) is refused while it is open
      expectLocked(await call(app(), 'PUT', `/api/User/Files/Rename/${doc.id}`, { token: adminToken, query: { fileName: '改名.docx' } }));
      expectLocked(await call(app(), 'DELETE', '/api/User/Files', { token: adminToken, body: [doc.id] }));
      expectLocked(await call(app(), 'DELETE', '/api/User/Files', { token: adminToken, body: [shared.id] }));
      expectLocked(await call(app(), 'POST', '/api/User/Files/Move', { token: adminToken, body: { ids: [shared.id], targetId: publicRoot.id } }));
      const upload = (token: string, strategy: number | null) =>
        call(app(), 'POST', '/api/User/FileTransfer/CheckAndCreateFileInfo', {
          token,
          body: { folderId: shared.id, fileName: '方案.docx', size: 3, type: null, strategy, relativePath: '方案.docx', taskId: crypto.randomUUID(), shareId: null },
        });
      expectLocked(await upload(adminToken, 0));
      expectLocked(await upload(adminToken, 1));
      // a copy of it elsewhere, or a new file beside it, changes nothing locked
      expect((await call(app(), 'POST', '/api/User/Files/Copy', { token: adminToken, body: { ids: [doc.id], targetId: publicRoot.id, strategy: 2 } })).status).toBe(200);
      expect((await upload(adminToken, 2)).status).toBe(200);
      // the person holding the lock goes on in the web
      expect((await call(app(), 'PUT', `/api/User/Files/Rename/${doc.id}`, { token: editor.token, query: { fileName: '方案.docx' } })).status).toBe(200);
      expect((await dav('UNLOCK', url, { auth: editorAuth, headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
      expect((await call(app(), 'PUT', `/api/User/Files/Rename/${doc.id}`, { token: adminToken, query: { fileName: '定稿.docx' } })).status).toBe(200);
      // a folder locked with Depth: infinity protects what is in it, and takes no new files from others
      const folderUrl = `/dav/${enc(PUBLIC)}/${enc('锁定检查')}/`;
      const deep = await dav('LOCK', folderUrl, { auth: editorAuth, body: lockInfo, headers: { timeout: 'Second-600', depth: 'infinity' } });
      expect(deep.status).toBe(200);
      const refused = await call(app(), 'PUT', `/api/User/Files/Rename/${doc.id}`, { token: adminToken, query: { fileName: '再改.docx' } });
      expect(refused.status).toBe(423);
      expect(refused.body.message).toMatch(/“锁定检查”正被编辑通过 WebDAV 锁定/);
      expect((await upload(adminToken, null)).status).toBe(423);
      const deepToken = /^<(opaquelocktoken:[^>]+)>$/.exec(String(deep.headers['lock-token']))![1];
      expect((await dav('UNLOCK', folderUrl, { auth: editorAuth, headers: { 'lock-token': `<${deepToken}>` } })).status).toBe(204);
      expect((await upload(adminToken, null)).status).toBe(200);
    });

    test('MKCOL and DELETE with a read-write password and the web’s rules; a read-only password may not', async () => {
      const base = `/dav/${enc(PERSONAL)}/${enc(folder.name)}/`;
      expect((await dav('MKCOL', `${base}${enc('新建 文件夹')}/`, { auth: ro })).status).toBe(403);
      const made = await dav('MKCOL', `${base}${enc('新建 文件夹')}/`, { auth: rw });
      expect(made.status).toBe(201);
      const items = await ok(app(), 'GET', `/api/User/Folders/${folder.id}/Items`, { token: owner.token, query: { pageSize: 100 } });
      const created = items.items.data.find((i: any) => i.name === '新建 文件夹');
      expect(created.type).toBe('folder');
      expect((await dav('MKCOL', `${base}${enc('新建 文件夹')}/`, { auth: rw })).status).toBe(405);
      expect((await dav('MKCOL', `${base}${enc('没有')}/${enc('下一级')}/`, { auth: rw })).status).toBe(409);
      expect((await dav('MKCOL', `${base}${enc('带内容')}/`, { auth: rw, body: '<x/>', headers: { 'content-type': 'text/xml' } })).status).toBe(415);
      expect((await dav('MKCOL', `/dav/${enc('新的顶层')}/`, { auth: rw })).status).toBe(403);
      expect((await dav('DELETE', `${base}${enc('新建 文件夹')}/`, { auth: ro })).status).toBe(403);
      expect((await dav('DELETE', `${base}${enc('新建 文件夹')}/`, { auth: rw })).status).toBe(204);
      expect((await propfind(`${base}${enc('新建 文件夹')}/`, rw, '0')).status).toBe(404);
      expect(JSON.stringify(await ok(app(), 'GET', '/api/User/Recycle', { token: owner.token, query: { pageSize: 100 } }))).toContain('新建 文件夹');
      expect((await dav('DELETE', `${base}${enc('新建 文件夹')}/`, { auth: rw })).status).toBe(404);
      expect((await dav('DELETE', `/dav/${enc(PERSONAL)}/`, { auth: rw })).status).toBe(403);
      // the records are written a moment after the answers
      await app().services.oplog.settled();
      const logged = await app().db.selectFrom('operation_logs').select(['action', 'object_name', 'detail']).where('user_id', '=', Number(owner.userId)).where('action', 'in', ['file.create', 'file.delete']).where('result', '=', 'ok').execute();
      expect(logged.filter((r) => r.object_name === '新建 文件夹').map((r) => r.action).sort()).toEqual(['file.create', 'file.delete']);
    });
  });


  describe('PUT', () => {
    const md5 = (b: Buffer | string) => crypto.createHash('md5').update(b).digest('hex');
    const itemsOf = async (token: string, folderId: string) =>
      (await ok(app(), 'GET', `/api/User/Folders/${folderId}/Items`, { token, query: { pageSize: 100 } })).items.data as any[];

    test('a new file 201 with its ETag; over a file 204 and a new master version kept in 历史版本; the preconditions', async () => {
      const url = `/dav/${enc(PERSONAL)}/${enc(folder.name)}/${enc('上传 测试.txt')}`;
      const first = await dav('PUT', url, { auth: rw, body: '第一版内容', headers: { 'content-type': 'text/plain' } });
      expect(first.status).toBe(201);
      expect(first.headers.etag).toBe(`"${md5('第一版内容')}-${Buffer.byteLength('第一版内容')}"`);
      expect((await dav('GET', url, { auth: ro })).text).toBe('第一版内容');
      expect((await dav('PUT', url, { auth: rw, body: 'x', headers: { 'if-none-match': '*' } })).status).toBe(412);
      expect((await dav('PUT', `${url}.missing`, { auth: rw, body: 'x', headers: { 'if-match': '*' } })).status).toBe(412);
      expect((await dav('PUT', url, { auth: rw, body: 'x', headers: { 'if-match': '"0-0"' } })).status).toBe(412);
      const second = await dav('PUT', url, { auth: rw, body: '第二版，更长的内容', headers: { 'if-match': String(first.headers.etag) } });
      expect(second.status).toBe(204);
      expect(second.headers.etag).toBe(`"${md5('第二版，更长的内容')}-${Buffer.byteLength('第二版，更长的内容')}"`);
      expect((await dav('GET', url, { auth: ro })).text).toBe('第二版，更长的内容');
      const stored = (await itemsOf(owner.token, folder.id)).filter((i) => i.name === '上传 测试.txt');
      expect(stored).toHaveLength(1);
      const versions = await ok(app(), 'GET', `/api/User/Files/${stored[0].id}/Versions`, { token: owner.token });
      expect(versions.length).toBe(2);
      // the records are written a moment after the answers
      await app().services.oplog.settled();
      const logged = await app().db.selectFrom('operation_logs').select(['action', 'result']).where('user_id', '=', Number(owner.userId)).where('action', '=', 'file.upload').where('object_name', '=', '上传 测试.txt').execute();
      expect(logged.filter((r) => r.result === 'ok')).toHaveLength(2);
      // the same bytes again elsewhere: one blob
      await dav('PUT', `/dav/${enc(PERSONAL)}/${enc('副本.txt')}`, { auth: rw, body: '第二版，更长的内容' });
      const blobs = await app().db.selectFrom('blobs').select('id').where('md5', '=', md5('第二版，更长的内容')).execute();
      expect(blobs).toHaveLength(1);
    });

    test('refused: a missing parent 409, a read-only password 403, a folder 405, the root 405, a bad name 400', async () => {
      const base = `/dav/${enc(PERSONAL)}/${enc(folder.name)}/`;
      expect((await dav('PUT', `${base}${enc('没有')}/${enc('a.txt')}`, { auth: rw, body: 'x' })).status).toBe(409);
      const ro403 = await dav('PUT', `${base}${enc('只读.txt')}`, { auth: ro, body: 'x' });
      expect(ro403.status).toBe(403);
      expect(ro403.text).toMatch(HAN);
      expect((await dav('PUT', `${base}${enc('子目录')}`, { auth: rw, body: 'x' })).status).toBe(405);
      expect((await dav('PUT', `/dav/${enc('顶层.txt')}`, { auth: rw, body: 'x' })).status).toBe(405);
      expect((await dav('PUT', `${base}${enc('a:b?.txt')}`, { auth: rw, body: 'x' })).status).toBe(400);
      expect((await itemsOf(owner.token, folder.id)).map((i) => i.name)).not.toContain('只读.txt');
    });

    test('over the personal quota: 507 before the body is stored, nothing kept', async () => {
      const person = await userWithToken(app(), adminToken);
      await ok(app(), 'PUT', `/api/Admin/Users/${person.userId}`, { token: adminToken, body: { quota: 100 * 1024 } });
      const auth = basic(person.userName, (await newAppPassword(person.token, '配额', 'readWrite')).password);
      const blobsBefore = (await app().db.selectFrom('blobs').select('id').execute()).length;
      const r = await dav('PUT', `/dav/${enc(PERSONAL)}/${enc('太大.bin')}`, { auth, body: 'y'.repeat(200 * 1024) });
      expect(r.status).toBe(507);
      expect(r.text).toMatch(HAN);
      expect((await propfind(`/dav/${enc(PERSONAL)}/${enc('太大.bin')}`, auth, '0')).status).toBe(404);
      expect((await app().db.selectFrom('blobs').select('id').execute()).length).toBe(blobsBefore);
      expect(await app().db.selectFrom('upload_sessions').select('id').where('user_id', '=', Number(person.userId)).execute()).toHaveLength(0);
      expect((await dav('PUT', `/dav/${enc(PERSONAL)}/${enc('刚好.bin')}`, { auth, body: 'y'.repeat(50 * 1024) })).status).toBe(201);
    });

    test('over the upload policy’s maximum size 413 and without a length 411, answered before any of the body is sent', async () => {
      const p = await listening();
      const http = await import('node:http');
      /** a PUT whose headers alone are sent: the answer comes without the body */
      const headersOnly = (headers: Record<string, string>) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port: p, method: 'PUT', path: `/dav/${enc(PERSONAL)}/${enc('超大.iso')}`, headers: { authorization: rw, ...headers } }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => {
              req.destroy();
              resolve({ status: res.statusCode ?? 0, text });
            });
          });
          req.on('error', reject);
          req.flushHeaders();
        });
      const policy = await ok(app(), 'GET', '/api/Admin/UploadPolicy', { token: adminToken });
      await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: { ...policy, maxFileSize: 1024 * 1024 } });
      try {
        const big = await headersOnly({ 'content-length': String(2 * 1024 * 1024) });
        expect(big.status).toBe(413);
        expect(big.text).toMatch(HAN);
      } finally {
        await ok(app(), 'PUT', '/api/Admin/UploadPolicy', { token: adminToken, body: policy });
      }
      const unknown = await headersOnly({ 'transfer-encoding': 'chunked' });
      expect(unknown.status).toBe(411);
      expect(unknown.text).toMatch(HAN);
      expect((await propfind(`/dav/${enc(PERSONAL)}/${enc('超大.iso')}`, rw, '0')).status).toBe(404);
    });

    test('through 与我共享: a preview or download share 403; an upload share stores into the owner’s folder', async () => {
      const person = await userWithToken(app(), adminToken);
      const auth = basic(person.userName, (await newAppPassword(person.token, '共享上传', 'readWrite')).password);
      const share = async (id: string, level: number) =>
        ok(app(), 'POST', '/api/User/Shares', { token: owner.token, body: { fileIds: [id], shareType: 1, level, expireAt: null, targets: [{ type: 1, id: person.userId }], downloadLimit: null } });
      const onlyView = await makeFolder(app(), owner.token, ownerRoot.id, '只可下载的共享');
      const upload = await makeFolder(app(), owner.token, ownerRoot.id, '可上传的共享');
      await share(onlyView.id, 2);
      await share(upload.id, 3);
      const refused = await dav('PUT', `/dav/${enc(SHARED)}/${enc('只可下载的共享')}/${enc('a.txt')}`, { auth, body: 'no' });
      expect(refused.status).toBe(403);
      expect(refused.text).toMatch(HAN);
      const made = await dav('PUT', `/dav/${enc(SHARED)}/${enc('可上传的共享')}/${enc('来自共享.txt')}`, { auth, body: '通过共享上传' });
      expect(made.status).toBe(201);
      const inside = await itemsOf(owner.token, upload.id);
      expect(inside.map((i) => i.name)).toEqual(['来自共享.txt']);
      expect((await itemsOf(owner.token, onlyView.id)).length).toBe(0);
    });

    test('a 20 MB body is streamed (the process does not grow by its size) and stored byte-exact', async () => {
      const size = 20 * 1024 * 1024;
      const piece = crypto.randomBytes(64 * 1024);
      const hash = crypto.createHash('md5');
      for (let at = 0; at < size; at += piece.length) hash.update(piece);
      const expected = hash.digest('hex');
      const p = await listening();
      const http = await import('node:http');
      const person = await userWithToken(app(), adminToken);
      await ok(app(), 'PUT', `/api/Admin/Users/${person.userId}`, { token: adminToken, body: { quota: 100 * 1024 * 1024 } });
      const auth = basic(person.userName, (await newAppPassword(person.token, '大文件', 'readWrite')).password);
      // Buffers live outside the JS heap: a body held whole would show in arrayBuffers, once
      // the garbage is collected (a full collection before each look)
      v8.setFlagsFromString('--expose-gc');
      const gc = vm.runInNewContext('gc') as () => void;
      gc();
      const before = process.memoryUsage().arrayBuffers;
      let peak = before;
      let looks = 0;
      const look = () => {
        gc();
        looks++;
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      };
      // a full collection every 100 ms (more often would make the upload itself crawl on a busy
      // machine), and after every 4 MB sent (on a quiet machine the whole PUT takes under 200 ms)
      const watch = setInterval(look, 100);
      const status: number = await new Promise((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: p, method: 'PUT', path: `/dav/${enc(PERSONAL)}/${enc('大文件.bin')}`, headers: { authorization: auth, 'content-length': String(size) } },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => {
              // what the server said, when it refused
              if (res.statusCode !== 201) console.log(`PUT of 20 MB answered ${res.statusCode}: ${text}`); // eslint-disable-line no-console
              resolve(res.statusCode ?? 0);
            });
          },
        );
        req.on('error', reject);
        let sent = 0;
        const write = () => {
          while (sent < size) {
            sent += piece.length;
            const more = req.write(piece);
            if (sent % (4 * 1024 * 1024) === 0) look();
            if (!more) return void req.once('drain', write);
          }
          req.end();
        };
        write();
      });
      clearInterval(watch);
      expect(status).toBe(201);
      // eslint-disable-next-line no-console
      console.log(`WebDAV PUT of 20 MB (${kind}): Buffers grew by at most ${((peak - before) / 1024 / 1024).toFixed(1)} MB (${looks} looks)`);
      expect(looks).toBeGreaterThanOrEqual(2);
      // never the whole body: at most about one chunk (5 MiB) and the sockets' buffers in flight
      expect(peak - before).toBeLessThan(size / 2);
      const got = await dav('GET', `/dav/${enc(PERSONAL)}/${enc('大文件.bin')}`, { auth });
      expect(got.raw.length).toBe(size);
      expect(crypto.createHash('md5').update(got.raw).digest('hex')).toBe(expected);
    }, 120_000);
  });

  describe('chunked uploads (Nextcloud’s protocol)', () => {
    const bytes = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251));
    const uploadsOf = (userName: string) => `/dav/uploads/${enc(userName)}`;
    const partsOf = async (url: string) => [...multistatus((await propfind(url, rw, '1')).text).values()].slice(1).map((e) => `${decodeURIComponent(e.href.split('/').pop()!)}:${e.props.getcontentlength}`);

    test('MKCOL, parts in any order, PROPFIND to resume, MOVE .file assembles them streamed through the upload path; over a file a new version', async () => {
      const target = `/dav/${enc(PERSONAL)}/${enc(folder.name)}/${enc('分片 上传.bin')}`;
      const base = `${uploadsOf(owner.userName)}/web-file-upload-7f3a`;
      const made = await dav('MKCOL', base, { auth: rw, headers: { destination: `http://localhost${target}`, 'oc-total-length': String(250_000) } });
      expect(made.status).toBe(201);
      expect((await dav('MKCOL', base, { auth: rw })).status).toBe(405);
      const parts = [bytes(100_000, 1), bytes(100_000, 2), bytes(50_000, 3)];
      expect((await dav('PUT', `${base}/3`, { auth: rw, body: parts[2], headers: { destination: `http://localhost${target}`, 'oc-total-length': '250000' } })).status).toBe(201);
      expect((await dav('PUT', `${base}/1`, { auth: rw, body: parts[0] })).status).toBe(201);
      // what a client resuming sees: parts 1 and 3 are there, 2 is not
      expect(await partsOf(`${base}/`)).toEqual(['1:100000', '3:50000']);
      // assembling early: the lengths do not add up, nothing is stored
      const early = await dav('MOVE', `${base}/.file`, { auth: rw, headers: { destination: `http://localhost${target}` } });
      expect(early.status).toBe(400);
      expect(early.text).toMatch(/分片合计 150000 字节，与声明的长度 250000 字节不符/);
      expect((await propfind(target, rw, '0')).status).toBe(404);
      expect((await dav('PUT', `${base}/2`, { auth: rw, body: parts[1] })).status).toBe(201);
      const done = await dav('MOVE', `${base}/.file`, { auth: rw, headers: { destination: `http://localhost${target}`, 'oc-total-length': '250000' } });
      expect(done.status).toBe(201);
      const whole = Buffer.concat(parts);
      expect(done.headers.etag).toBe(`"${crypto.createHash('md5').update(whole).digest('hex')}-${whole.length}"`);
      expect(done.headers['oc-fileid']).toMatch(/^\d+$/);
      expect((await dav('GET', target, { auth: ro })).raw.equals(whole)).toBe(true);
      // the upload and its parts are gone
      expect((await propfind(`${base}/`, rw, '1')).status).toBe(404);
      const stored: string[] = [];
      for await (const o of app().services.objects.list('dav-uploads/')) stored.push(o.key);
      expect(stored).toEqual([]);
      // again over the same file (v1's part names, put together in name order): 204 and a new version
      const again = `${uploadsOf(owner.userName)}/v1-upload`;
      expect((await dav('MKCOL', again, { auth: rw })).status).toBe(201);
      expect((await dav('PUT', `${again}/00000010-00000019`, { auth: rw, body: 'BBBBBBBBBB' })).status).toBe(201);
      expect((await dav('PUT', `${again}/00000000-00000009`, { auth: rw, body: 'AAAAAAAAAA' })).status).toBe(201);
      const over = await dav('MOVE', `${again}/.file`, { auth: rw, headers: { destination: target } });
      expect(over.status).toBe(204);
      expect((await dav('GET', target, { auth: ro })).text).toBe('AAAAAAAAAABBBBBBBBBB');
      const versions = await ok(app(), 'GET', `/api/User/Files/${done.headers['oc-fileid']}/Versions`, { token: owner.token });
      expect(JSON.stringify(versions)).toContain(String(whole.length));
    });

    test('refused: another person’s upload folder, a read-only password, bad names; DELETE gives up; over the quota 507 with nothing kept; a day untouched, swept', async () => {
      expect((await dav('MKCOL', `${uploadsOf(viewer.userName)}/x1`, { auth: rw })).status).toBe(403);
      expect((await dav('MKCOL', `${uploadsOf(owner.userName)}/x1`, { auth: ro })).status).toBe(403);
      expect((await dav('MKCOL', `${uploadsOf(owner.userName)}/${enc('中文 名')}`, { auth: rw })).status).toBe(400);
      expect((await dav('PUT', `${uploadsOf(owner.userName)}/never-made/1`, { auth: rw, body: 'x' })).status).toBe(404);
      const base = `${uploadsOf(owner.userName)}/given-up`;
      expect((await dav('MKCOL', base, { auth: rw })).status).toBe(201);
      expect((await dav('PUT', `${base}/1`, { auth: rw, body: 'abc' })).status).toBe(201);
      expect((await dav('DELETE', base, { auth: rw })).status).toBe(204);
      expect((await propfind(`${base}/`, rw, '1')).status).toBe(404);

      // a person with a 1 MB quota assembling 1.5 MB: 507, no file, the upload kept for another try
      const small = await userWithToken(app(), adminToken);
      await ok(app(), 'PUT', `/api/Admin/Users/${small.userId}`, { token: adminToken, body: { quota: 1024 * 1024 } });
      const auth = basic(small.userName, (await newAppPassword(small.token, '同步', 'readWrite')).password);
      const up = `${uploadsOf(small.userName)}/big`;
      expect((await dav('MKCOL', up, { auth })).status).toBe(201);
      expect((await dav('PUT', `${up}/1`, { auth, body: bytes(800_000, 5) })).status).toBe(201);
      expect((await dav('PUT', `${up}/2`, { auth, body: bytes(700_000, 6) })).status).toBe(201);
      const full = await dav('MOVE', `${up}/.file`, { auth, headers: { destination: `/dav/${enc(PERSONAL)}/${enc('太大.bin')}` } });
      expect(full.status).toBe(507);
      expect((await propfind(`/dav/${enc(PERSONAL)}/${enc('太大.bin')}`, auth, '0')).status).toBe(404);
      expect((await propfind(`${up}/`, auth, '1')).status).toBe(207);

      // untouched for a day: removed with its parts by the hourly sweep
      await app().db.updateTable('dav_uploads').set({ touched_at: Date.now() - 25 * 3600_000 }).where('name', '=', 'big').execute();
      expect(await app().services.davUploads.sweep()).toBe(1);
      expect((await propfind(`${up}/`, auth, '1')).status).toBe(404);
      const left: string[] = [];
      for await (const o of app().services.objects.list('dav-uploads/')) left.push(o.key);
      expect(left).toEqual([]);
    });
  });

  describe('COPY and MOVE', () => {
    const itemsOf = async (token: string, folderId: string) =>
      (await ok(app(), 'GET', `/api/User/Folders/${folderId}/Items`, { token, query: { pageSize: 100 } })).items.data as any[];

    test('COPY a file and a folder (Depth infinity and 0), Overwrite F 412, over a file a new version; MOVE renames and moves', async () => {
      const base = `/dav/${enc(PERSONAL)}/${enc('复制移动')}/`;
      expect((await dav('MKCOL', base, { auth: rw })).status).toBe(201);
      await dav('PUT', `${base}${enc('甲.txt')}`, { auth: rw, body: '甲的内容' });
      await dav('PUT', `${base}${enc('乙.txt')}`, { auth: rw, body: '乙的内容' });
      const abs = (p: string) => `http://localhost${p}`;
      expect((await dav('COPY', `${base}${enc('甲.txt')}`, { auth: ro, headers: { destination: abs(`${base}${enc('丙.txt')}`) } })).status).toBe(403);
      expect((await dav('COPY', `${base}${enc('甲.txt')}`, { auth: rw, headers: { destination: abs(`${base}${enc('丙.txt')}`) } })).status).toBe(201);
      expect((await dav('GET', `${base}${enc('丙.txt')}`, { auth: rw })).text).toBe('甲的内容');
      expect((await dav('COPY', `${base}${enc('乙.txt')}`, { auth: rw, headers: { destination: `${base}${enc('丙.txt')}`, overwrite: 'F' } })).status).toBe(412);
      expect((await dav('GET', `${base}${enc('丙.txt')}`, { auth: rw })).text).toBe('甲的内容');
      expect((await dav('COPY', `${base}${enc('乙.txt')}`, { auth: rw, headers: { destination: `${base}${enc('丙.txt')}` } })).status).toBe(204);
      expect((await dav('GET', `${base}${enc('丙.txt')}`, { auth: rw })).text).toBe('乙的内容');
      const folderRow = (await itemsOf(owner.token, ownerRoot.id)).find((i) => i.name === '复制移动');
      const bing = (await itemsOf(owner.token, folderRow.id)).find((i) => i.name === '丙.txt');
      expect((await ok(app(), 'GET', `/api/User/Files/${bing.id}/Versions`, { token: owner.token })).length).toBe(2);
      // a folder with its members, then Depth 0 (the folder alone)
      await dav('MKCOL', `${base}${enc('源')}/`, { auth: rw });
      await dav('PUT', `${base}${enc('源')}/${enc('里面.txt')}`, { auth: rw, body: 'inside' });
      expect((await dav('COPY', `${base}${enc('源')}/`, { auth: rw, headers: { destination: `${base}${enc('全部')}/` } })).status).toBe(201);
      expect((await dav('GET', `${base}${enc('全部')}/${enc('里面.txt')}`, { auth: rw })).text).toBe('inside');
      expect((await dav('COPY', `${base}${enc('源')}/`, { auth: rw, headers: { destination: `${base}${enc('空壳')}/`, depth: '0' } })).status).toBe(201);
      expect([...multistatus((await propfind(`${base}${enc('空壳')}/`, rw, '1')).text).keys()]).toEqual([`${base}${enc('空壳')}/`]);
      expect((await dav('COPY', `${base}${enc('源')}/`, { auth: rw, headers: { destination: `${base}${enc('源')}/${enc('自己')}/` } })).status).toBe(403);
      expect((await dav('COPY', `${base}${enc('源')}/`, { auth: rw, headers: { destination: `${base}${enc('没有')}/${enc('x')}/` } })).status).toBe(409);
      // MOVE: a new name in the same folder, then into another folder; over a folder: the old one to the recycle bin
      expect((await dav('MOVE', `${base}${enc('甲.txt')}`, { auth: rw, headers: { destination: `${base}${enc('甲 改名.txt')}` } })).status).toBe(201);
      expect((await dav('GET', `${base}${enc('甲.txt')}`, { auth: rw })).status).toBe(404);
      expect((await dav('MOVE', `${base}${enc('甲 改名.txt')}`, { auth: rw, headers: { destination: `${base}${enc('源')}/${enc('甲.txt')}` } })).status).toBe(201);
      expect((await dav('GET', `${base}${enc('源')}/${enc('甲.txt')}`, { auth: rw })).text).toBe('甲的内容');
      expect((await dav('MOVE', `${base}${enc('源')}/`, { auth: rw, headers: { destination: `${base}${enc('全部')}/`, overwrite: 'F' } })).status).toBe(412);
      expect((await dav('MOVE', `${base}${enc('源')}/`, { auth: rw, headers: { destination: `${base}${enc('全部')}/` } })).status).toBe(204);
      expect((await dav('GET', `${base}${enc('全部')}/${enc('甲.txt')}`, { auth: rw })).text).toBe('甲的内容');
      expect(JSON.stringify(await ok(app(), 'GET', '/api/User/Recycle', { token: owner.token, query: { pageSize: 100 } }))).toContain('全部');
      // the records are written a moment after the answers
      await app().services.oplog.settled();
      const logged = await app().db.selectFrom('operation_logs').select(['action']).where('user_id', '=', Number(owner.userId)).where('action', 'in', ['file.copy', 'file.move']).where('result', '=', 'ok').execute();
      expect(logged.length).toBeGreaterThanOrEqual(6);
    });

    test('across 个人文件 and 企业文件 where rights allow: the editor copies in, a reader may not', async () => {
      const editorAuth = basic(editor.userName, (await newAppPassword(editor.token, '编辑读写', 'readWrite')).password);
      const mine = `/dav/${enc(PERSONAL)}/${enc('要发布.txt')}`;
      expect((await dav('PUT', mine, { auth: editorAuth, body: '发布的内容' })).status).toBe(201);
      const there = `/dav/${enc(PUBLIC)}/${enc('已发布.txt')}`;
      expect((await dav('COPY', mine, { auth: editorAuth, headers: { destination: there } })).status).toBe(201);
      expect((await dav('GET', there, { auth: viewerAuth })).text).toBe('发布的内容');
      expect((await dav('MOVE', mine, { auth: editorAuth, headers: { destination: `/dav/${enc(PUBLIC)}/${enc('移过去.txt')}` } })).status).toBe(201);
      expect((await dav('GET', mine, { auth: editorAuth })).status).toBe(404);
      const row = (await itemsOf(editor.token, publicRoot.id)).find((i) => i.name === '移过去.txt');
      expect(row).toBeTruthy();
      // a reader of 企业文件 may not write there, nor take an item of it
      const viewerRw = basic(viewer.userName, (await newAppPassword(viewer.token, '读者读写', 'readWrite')).password);
      await dav('PUT', `/dav/${enc(PERSONAL)}/${enc('读者的.txt')}`, { auth: viewerRw, body: 'r' });
      expect((await dav('COPY', `/dav/${enc(PERSONAL)}/${enc('读者的.txt')}`, { auth: viewerRw, headers: { destination: `/dav/${enc(PUBLIC)}/${enc('读者的.txt')}` } })).status).toBe(403);
      expect((await dav('MOVE', there, { auth: viewerRw, headers: { destination: `/dav/${enc(PERSONAL)}/${enc('拿走.txt')}` } })).status).toBe(403);
      expect((await dav('GET', there, { auth: viewerAuth })).status).toBe(200);
      // another person's item is not there at all
      expect((await dav('COPY', `/dav/${enc(PERSONAL)}/${enc(folder.name)}/${enc(file.name)}`, { auth: outsiderAuth, headers: { destination: `/dav/${enc(PERSONAL)}/x.txt` } })).status).toBe(404);
    });
  });

  describe('clients’ request sequences, replayed', () => {
    // the sequences Windows' Mini-Redirector, macOS Finder (WebDAVFS) and Office send, as
    // published captures of them show (owncloud/core#17732 and PR #20505, seafdav PR #99,
    // tailscale PR #12135), with their user agents and headers, against the listening server
    const WINDOWS_PROPS = ['name', 'parentname', 'href', 'ishidden', 'isreadonly', 'getcontenttype', 'contentclass', 'getcontentlanguage', 'creationdate', 'lastaccessed', 'getlastmodified', 'getcontentlength', 'iscollection', 'isstructureddocument', 'defaultdocument', 'displayname', 'isroot', 'resourcetype'];
    const send = async (method: string, url: string, o: { headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {}) => {
      const p = await listening();
      const http = await import('node:http');
      return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const headers: Record<string, string> = { ...o.headers };
        if (o.body !== undefined && !o.chunked) headers['content-length'] = String(Buffer.byteLength(o.body));
        const req = http.request({ host: '127.0.0.1', port: p, method, path: url, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        if (o.body !== undefined && o.chunked) {
          // Transfer-Encoding: chunked, in pieces, as WebDAVFS sends a file
          const body = Buffer.from(o.body);
          for (let i = 0; i < body.length; i += 1000) req.write(body.subarray(i, i + 1000));
        } else if (o.body !== undefined) req.write(o.body);
        req.end();
      });
    };
    const lockInfo = (owner: string) =>
      `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;
    const tokenOf = (h: Record<string, string | string[] | undefined>) => /^<(opaquelocktoken:[^>]+)>$/.exec(String(h['lock-token']))![1];

    test('Windows’ Mini-Redirector: mount, list, quota, a new text file made, stamped, written and renamed in Explorer, then deleted', async () => {
      const ua = { 'user-agent': 'Microsoft-WebDAV-MiniRedir/10.0.19045' };
      const person = await userWithToken(app(), adminToken);
      const auth = { ...ua, authorization: basic(person.userName, (await newAppPassword(person.token, 'Windows 资源管理器', 'readWrite')).password) };
      const root = `/dav/${enc(PERSONAL)}/`;
      expect((await send('OPTIONS', '/dav/', { headers: ua })).headers.dav).toBe('1, 2');
      const challenge = await send('PROPFIND', '/dav/', { headers: { ...ua, depth: '0' } });
      expect(challenge.status).toBe(401);
      expect(String(challenge.headers['www-authenticate'])).toMatch(/^Basic /);
      expect((await send('PROPFIND', '/dav/', { headers: { ...auth, depth: '0' } })).status).toBe(207);
      const listing = await send('PROPFIND', root, { headers: { ...auth, depth: '1', 'content-type': 'text/xml' }, body: PROPS_BODY(WINDOWS_PROPS) });
      expect(listing.status).toBe(207);
      const self = multistatus(listing.body.toString()).get(root)!;
      expect(self.props.displayname).toBe(PERSONAL);
      expect(self.missing).toEqual(expect.arrayContaining(['ishidden', 'isreadonly', 'lastaccessed']));
      // the capacity Explorer shows is the person's own (RFC 4331), not the server's disk
      const quota = multistatus((await send('PROPFIND', root, { headers: { ...auth, depth: '0' }, body: PROPS_BODY(['quota-available-bytes', 'quota-used-bytes']) })).body.toString()).get(root)!;
      expect(Number(quota.props['quota-available-bytes'])).toBeGreaterThan(0);
      expect((await send('PROPFIND', `${root}desktop.ini`, { headers: { ...auth, depth: '0' } })).status).toBe(404);

      // 新建 → 文本文档: an empty file, locked, its Win32 times set, then written with the lock, unlocked
      const made = `${root}${enc('新建 文本文档.txt')}`;
      expect((await send('PUT', made, { headers: auth, body: '' })).status).toBe(201);
      const locked = await send('LOCK', made, { headers: { ...auth, depth: '0', timeout: 'Second-3600' }, body: lockInfo('<D:href>WINDOWS\\张三</D:href>') });
      expect(locked.status).toBe(200);
      const token = tokenOf(locked.headers);
      const stamps =
        '<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:set><D:prop>' +
        '<Z:Win32CreationTime>Fri, 27 Nov 2026 08:00:00 GMT</Z:Win32CreationTime><Z:Win32LastAccessTime>Fri, 27 Nov 2026 08:00:00 GMT</Z:Win32LastAccessTime>' +
        '<Z:Win32LastModifiedTime>Fri, 27 Nov 2026 08:00:00 GMT</Z:Win32LastModifiedTime><Z:Win32FileAttributes>00000020</Z:Win32FileAttributes>' +
        '</D:prop></D:set></D:propertyupdate>';
      const patched = await send('PROPPATCH', made, { headers: { ...auth, if: `(<${token}>)`, 'content-type': 'text/xml' }, body: stamps });
      expect(patched.status).toBe(207);
      expect(patched.body.toString()).not.toMatch(/HTTP\/1.1 (4|5)\d\d/);
      expect((await send('PUT', made, { headers: { ...auth, if: `(<${token}>)` }, body: '会议纪要：\r\n一、预算' })).status).toBe(204);
      expect((await send('UNLOCK', made, { headers: { ...auth, 'lock-token': `<${token}>` } })).status).toBe(204);
      // renamed in Explorer: MOVE with an absolute Destination
      const renamed = `${root}${enc('会议纪要.txt')}`;
      const p = await listening();
      expect((await send('MOVE', made, { headers: { ...auth, destination: `http://127.0.0.1:${p}${renamed}`, overwrite: 'F' } })).status).toBe(201);
      const got = await send('GET', renamed, { headers: { ...auth, translate: 'f' } });
      expect(got.body.toString()).toBe('会议纪要：\r\n一、预算');
      const props = multistatus((await send('PROPFIND', renamed, { headers: { ...auth, depth: '0' }, body: PROPS_BODY(['<Z:Win32FileAttributes xmlns:Z="urn:schemas-microsoft-com:"/>']) })).body.toString()).get(renamed)!;
      expect(props.props.Win32FileAttributes).toBe('00000020');
      expect((await send('DELETE', renamed, { headers: auth })).status).toBe(204);
      expect((await send('PROPFIND', renamed, { headers: { ...auth, depth: '0' } })).status).toBe(404);
      const bin = await ok(app(), 'GET', '/api/User/Recycle', { token: person.token });
      expect(JSON.stringify(bin)).toContain('会议纪要.txt');
    });

    test('macOS Finder (WebDAVFS): mount read-write (class 2), probe for hidden files, copy a file in (placeholder, lock, AppleDouble, chunked body with its expected length), delete it', async () => {
      const ua = { 'user-agent': 'WebDAVFS/3.0.0 (03008000) Darwin/22.1.0 (x86_64)' };
      const person = await userWithToken(app(), adminToken);
      const auth = { ...ua, authorization: basic(person.userName, (await newAppPassword(person.token, 'Mac 的访达', 'readWrite')).password) };
      const root = `/dav/${enc(PERSONAL)}/`;
      const options = await send('OPTIONS', root, { headers: ua });
      // without class 2 Finder mounts read-only
      expect(String(options.headers.dav).split(',').map((s) => s.trim())).toContain('2');
      const finderProps = PROPS_BODY(['getlastmodified', 'getcontentlength', 'creationdate', 'resourcetype']);
      expect((await send('PROPFIND', root, { headers: { ...auth, depth: '0' }, body: finderProps })).status).toBe(207);
      for (const hidden of ['._.', '.DS_Store', '.hidden', '.localized', '.metadata_never_index', '.ql_disablethumbnails']) {
        expect((await send('PROPFIND', `${root}${enc(hidden)}`, { headers: { ...auth, depth: '0' }, body: finderProps })).status).toBe(404);
      }
      const photo = crypto.randomBytes(150_000);
      const name = `${root}${enc('照片 2026.jpg')}`;
      const double = `${root}${enc('._照片 2026.jpg')}`;
      expect((await send('PUT', name, { headers: auth, body: '' })).status).toBe(201);
      const locked = await send('LOCK', name, { headers: { ...auth, depth: '0', timeout: 'Second-600' }, body: lockInfo('<D:href>http://www.apple.com/webdav_fs/</D:href>') });
      expect(locked.status).toBe(200);
      const token = tokenOf(locked.headers);
      const appleDouble = Buffer.alloc(4096, 0);
      appleDouble.writeUInt32BE(0x00051607, 0);
      expect((await send('PUT', double, { headers: auth, body: appleDouble })).status).toBe(201);
      const put = await send('PUT', name, { headers: { ...auth, if: `(<${token}>)`, 'x-expected-entity-length': String(photo.length) }, body: photo, chunked: true });
      expect(put.status).toBe(204);
      const stat = multistatus((await send('PROPFIND', name, { headers: { ...auth, depth: '0' }, body: finderProps })).body.toString()).get(name)!;
      expect(Number(stat.props.getcontentlength)).toBe(photo.length);
      expect((await send('UNLOCK', name, { headers: { ...auth, 'lock-token': `<${token}>` } })).status).toBe(204);
      expect((await send('GET', name, { headers: auth })).body.equals(photo)).toBe(true);
      expect((await send('GET', double, { headers: auth })).body.equals(appleDouble)).toBe(true);
      // a chunked body without its expected length cannot be stored (the length must be known first)
      expect((await send('PUT', `${root}${enc('无长度.bin')}`, { headers: auth, body: photo, chunked: true })).status).toBe(411);
      expect((await send('DELETE', double, { headers: auth })).status).toBe(204);
      expect((await send('DELETE', name, { headers: auth })).status).toBe(204);
      expect((await send('PROPFIND', name, { headers: { ...auth, depth: '0' } })).status).toBe(404);
    });
  });

  describe('PROPPATCH', () => {
    test('dead properties are kept, returned by PROPFIND prop and allprop, follow MOVE and COPY, and go with the item; live ones 403', async () => {
      const url = `/dav/${enc(PERSONAL)}/${enc('属性.txt')}`;
      await dav('PUT', url, { auth: rw, body: 'p' });
      const patch = (body: string, auth = rw, target = url) => dav('PROPPATCH', target, { auth, body, headers: { 'content-type': 'application/xml' } });
      const set = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:test:云"><D:set><D:prop><Z:作者>张三 &amp; 李四</Z:作者><Z:tree><Z:leaf a="1">叶</Z:leaf></Z:tree></D:prop></D:set></D:propertyupdate>`;
      expect((await patch(set, ro)).status).toBe(403);
      const r = await patch(set);
      expect(r.status).toBe(207);
      expect(r.text).toContain('HTTP/1.1 200 OK');
      const got = await propfind(url, rw, '0', `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:test:云"><D:prop><Z:作者/><Z:tree/><Z:none/></D:prop></D:propfind>`);
      expect(got.text).toContain('>张三 &amp; 李四</');
      expect(got.text).toMatch(/<V0:leaf xmlns:V0="urn:test:云" a="1">叶<\/V0:leaf>/);
      expect(multistatus(got.text).get(url)!.missing).toEqual(['none']);
      expect((await propfind(url, rw, '0')).text).toContain('张三 &amp; 李四');
      // live properties are protected: 403 for them, 424 for the rest, nothing changed
      const live = await patch(`<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:test:云"><D:set><D:prop><D:getetag>x</D:getetag><Z:作者>王五</Z:作者></D:prop></D:set></D:propertyupdate>`);
      expect(live.status).toBe(207);
      expect(live.text).toContain('HTTP/1.1 403 Forbidden');
      expect(live.text).toContain('HTTP/1.1 424 Failed Dependency');
      expect((await propfind(url, rw, '0')).text).toContain('张三 &amp; 李四');
      // MOVE keeps them, COPY copies them, removal removes
      const moved = `/dav/${enc(PERSONAL)}/${enc('属性 移动后.txt')}`;
      expect((await dav('MOVE', url, { auth: rw, headers: { destination: moved } })).status).toBe(201);
      expect((await propfind(moved, rw, '0')).text).toContain('张三 &amp; 李四');
      const copied = `/dav/${enc(PERSONAL)}/${enc('属性 副本.txt')}`;
      expect((await dav('COPY', moved, { auth: rw, headers: { destination: copied } })).status).toBe(201);
      expect((await propfind(copied, rw, '0')).text).toContain('张三 &amp; 李四');
      expect((await patch(`<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:test:云"><D:remove><D:prop><Z:作者/></D:prop></D:remove></D:propertyupdate>`, rw, copied)).status).toBe(207);
      expect((await propfind(copied, rw, '0')).text).not.toContain('张三');
      expect((await propfind(moved, rw, '0')).text).toContain('张三');
      // stored per item; purged with it
      const row = (await app().db.selectFrom('items').select('id').where('name', '=', '属性 移动后.txt').where('deleted_at', 'is', null).executeTakeFirstOrThrow()).id;
      expect((await app().db.selectFrom('dav_properties').select('name').where('item_id', '=', row).execute()).map((p) => p.name).sort()).toEqual(['tree', '作者']);
      await app().db.deleteFrom('file_versions').where('item_id', '=', row).execute();
      await app().db.deleteFrom('items').where('id', '=', row).execute();
      expect(await app().db.selectFrom('dav_properties').select('name').where('item_id', '=', row).execute()).toHaveLength(0);
    });
  });

  describe('litmus', () => {
    const litmus = '/usr/bin/litmus';
    /** every test of the suite, as litmus names them (0.13) */
    const SUITES: Record<string, string[]> = {
      basic: ['init', 'begin', 'options', 'put_get', 'put_get_utf8_segment', 'put_no_parent', 'mkcol_over_plain', 'delete', 'delete_null', 'delete_fragment', 'mkcol', 'mkcol_again', 'delete_coll', 'mkcol_no_parent', 'mkcol_with_body', 'finish'],
      copymove: ['init', 'begin', 'copy_init', 'copy_simple', 'copy_overwrite', 'copy_nodestcoll', 'copy_cleanup', 'copy_coll', 'copy_shallow', 'move', 'move_coll', 'move_cleanup', 'finish'],
      props: [
        'init', 'begin', 'propfind_invalid', 'propfind_invalid2', 'propfind_d0', 'propinit', 'propset', 'propget', 'propextended', 'propmove', 'propget', 'propdeletes', 'propget', 'propreplace', 'propget', 'propnullns', 'propget',
        'prophighunicode', 'propget', 'propremoveset', 'propget', 'propsetremove', 'propget', 'propvalnspace', 'propwformed', 'propinit', 'propmanyns', 'propget', 'propcleanup', 'finish',
      ],
      locks: [
        'init', 'begin', 'options', 'precond', 'init_locks', 'put', 'lock_excl', 'discover', 'refresh', 'notowner_modify', 'notowner_lock', 'owner_modify', 'notowner_modify', 'notowner_lock', 'copy',
        'cond_put', 'fail_cond_put', 'cond_put_with_not', 'cond_put_corrupt_token', 'complex_cond_put', 'fail_complex_cond_put', 'unlock', 'fail_cond_put_unlocked', 'lock_shared', 'notowner_modify',
        'notowner_lock', 'owner_modify', 'double_sharedlock', 'notowner_modify', 'notowner_lock', 'unlock', 'prep_collection', 'lock_collection', 'owner_modify', 'notowner_modify', 'refresh',
        'indirect_refresh', 'unlock', 'unmapped_lock', 'unlock', 'finish',
      ],
      http: ['init', 'begin', 'expect100', 'finish'],
    };
    for (const suite of Object.keys(SUITES)) {
      (fs.existsSync(litmus) ? test : test.skip)(`litmus's ${suite} suite against the listening server: every test passes`, async () => {
        const p = await listening();
        const person = await userWithToken(app(), adminToken);
        const password = (await newAppPassword(person.token, `litmus ${suite}`, 'readWrite')).password;
        const url = `http://127.0.0.1:${p}/dav/${enc(PERSONAL)}/`;
        const output: string = await new Promise((resolve) => {
          // litmus writes debug.log and child.log where it runs: a folder of its own
          const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-litmus-'));
          execFile(litmus, [url, person.userName, password], { cwd, env: { ...process.env, TESTS: suite }, timeout: 120_000 }, (_err, stdout, stderr) => {
            fs.rmSync(cwd, { recursive: true, force: true });
            resolve(`${stdout}${stderr}`);
          });
        });
        // each test's last line: `n. name.... pass|FAIL (why)|SKIPPED`, a warning on the line before
        const results = new Map<number, string>();
        const re = /(\d+)\. (\w+)\.* (?:WARNING: ([^\n]*)\n\s*\.+ )?(pass|FAIL|SKIPPED)([^\n]*)/g;
        for (let m = re.exec(output); m; m = re.exec(output)) results.set(Number(m[1]), `${m[2]}: ${m[4]}${m[5]}${m[3] ? ` (${m[3]})` : ''}`);
        // eslint-disable-next-line no-console
        console.log(`litmus ${suite} (${kind}):\n${[...results.values()].join('\n')}\n${/summary[^\n]*/.exec(output)?.[0] ?? output.slice(-800)}`);
        if (results.size !== SUITES[suite].length) console.log(output); // eslint-disable-line no-console
        const outcome = [...results.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r.replace(/ \(.*$/, '').replace(/^(\w+): (pass|FAIL|SKIPPED).*$/, '$1: $2'));
        expect(outcome).toEqual(SUITES[suite].map((name) => `${name}: pass`));
      });
    }
  });
});
