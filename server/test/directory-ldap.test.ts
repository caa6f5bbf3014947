// 目录同步 from a real OpenLDAP (a private slapd with 2,000 people in three levels of OUs), on
// SQLite and PostgreSQL: the settings with the bind password sealed; 测试连接; the first sync as a
// plan, then applied; a no-change re-sync; a person moved; people who left disabled with their
// sessions ended; an empty answer and too many disables refused with nothing changed; sign-in
// by binding as the person (TOTP still applies); the directory down (a clear Chinese error,
// local accounts still sign in); the scheduled sync run by one instance of two.
import fs from 'node:fs';
import { call, databaseKinds, HAN, login, ok, startServer, type TestServer } from './support/harness';
import { PERSON_PASSWORD, SLAPD, startDirectory, type Directory, type Person } from './support/slapd';

const hasSlapd = fs.existsSync(SLAPD);
if (!hasSlapd) console.warn('slapd is not installed (Debian package slapd): the LDAP tests are skipped; .ci/run installs it');
const maybe = hasSlapd ? describe : describe.skip;

jest.setTimeout(120_000);

maybe('LDAP directory sync', () => {
  describe.each(databaseKinds())('on %s', (kind) => {
    // each database gets a directory of its own: the tests change it
    let dir: Directory;
    let server: TestServer;
    let adminToken: string;
    const app = () => server.app;
    const active = () => dir.people.filter((p) => !p.disabled);
    const baseDn = () => `ou=总部,${dir.baseDn}`;
    const settings = () => ({
      enabled: true,
      url: dir.url,
      bindDn: dir.bindDn,
      bindPassword: dir.bindPassword,
      baseDn: baseDn(),
      userFilter: '(objectClass=inetOrgPerson)',
      groupFilter: '(objectClass=groupOfNames)',
      groupBaseDn: `ou=groups,${dir.baseDn}`,
      intervalMinutes: 60,
      maxDisablePercent: 10,
    });
    const plan = async () => ok(app(), 'POST', '/api/Admin/Directory/Ldap/Sync', { token: adminToken });
    const applyRun = async (id: string) => ok(app(), 'POST', `/api/Admin/Directory/Runs/${id}/Apply`, { token: adminToken });
    const person = async (userName: string) =>
      (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { keyword: userName, pageSize: 50 } })).data.find((u: { userName: string }) => u.userName === userName);
    const deptName = (p: Person) => p.ouPath.join('/');

    beforeAll(async () => {
      dir = await startDirectory({ people: 2000, seed: 26 });
      server = await startServer(kind);
      adminToken = (await login(app())).token;
    });
    afterAll(async () => {
      await server?.close();
      await dir?.stop();
    });

    test('settings keep the bind password sealed; 测试连接 pages past the size limit', async () => {
      const saved = await ok(app(), 'PUT', '/api/Admin/Directory/Ldap', { token: adminToken, body: settings() });
      expect(saved).toMatchObject({ enabled: true, hasBindPassword: true, baseDn: baseDn() });
      expect(JSON.stringify(saved)).not.toContain(dir.bindPassword);
      const read = await ok(app(), 'GET', '/api/Admin/Directory/Ldap', { token: adminToken });
      expect(JSON.stringify(read)).not.toContain(dir.bindPassword);
      const stored = JSON.stringify(await server.app.db.selectFrom('settings').selectAll().execute());
      expect(stored).not.toContain(dir.bindPassword);
      const test = await ok(app(), 'POST', '/api/Admin/Directory/Ldap/Test', { token: adminToken });
      expect(test).toMatchObject({ ok: true, people: active().length });
      expect(test.message).toMatch(HAN);
      // a wrong bind password says so in Chinese
      await ok(app(), 'PUT', '/api/Admin/Directory/Ldap', { token: adminToken, body: { bindPassword: 'wrong' } });
      const bad = await ok(app(), 'POST', '/api/Admin/Directory/Ldap/Test', { token: adminToken });
      expect(bad).toMatchObject({ ok: false, message: '目录服务器拒绝了绑定账号（绑定 DN 或密码不正确）' });
      await ok(app(), 'PUT', '/api/Admin/Directory/Ldap', { token: adminToken, body: { bindPassword: dir.bindPassword } });
    });

    test('the first sync is a plan; applied, it makes every person and department; a re-sync changes nothing', async () => {
      const before = (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { pageSize: 1 } })).total;
      const run = await plan();
      expect(run).toMatchObject({ status: 'planned', summary: { total: active().length, adds: active().length, updates: 0, disables: 0, refused: null } });
      expect(run.summary.departmentsToCreate.length).toBeGreaterThan(5);
      expect(run.summary.samples.adds.length).toBe(10);
      // nothing written by the plan
      expect((await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { pageSize: 1 } })).total).toBe(before);
      const applied = await applyRun(run.id);
      expect(applied.status).toBe('applied');
      const synced = await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { source: 'ldap', pageSize: 1 } });
      expect(synced.total).toBe(active().length);
      const deep = active().find((p) => p.ouPath.length === 3)!;
      expect(await person(deep.uid)).toMatchObject({ nickName: deep.cn, email: deep.mail, mobile: deep.mobile, employeeNo: deep.employeeNumber, source: 'ldap', deptName: deptName(deep) });
      // the directory's groups are 用户组 with their members (people who left the 总部 tree are not among them)
      expect(run.summary.groups).toEqual({ adds: dir.groups.length, updates: 0, removes: 0 });
      const groups = await ok(app(), 'GET', '/api/User/Organizations/Groups', { token: adminToken });
      const inTree = new Set(active().map((p) => p.dn.toLowerCase()));
      for (const g of dir.groups) {
        expect(groups.find((x: { name: string }) => x.name === g.cn)?.memberCount).toBe(g.members.filter((m) => inTree.has(m.toLowerCase())).length);
      }
      // applied once
      expect((await call(app(), 'POST', `/api/Admin/Directory/Runs/${run.id}/Apply`, { token: adminToken })).status).toBe(409);

      const again = await plan();
      expect(again.summary).toMatchObject({ adds: 0, updates: 0, moves: 0, disables: 0, unchanged: active().length, departmentsToCreate: [], groups: { adds: 0, updates: 0, removes: 0 } });
    });

    test('a directory person signs in with the directory password; TOTP still applies; a wrong one is refused', async () => {
      const p = active()[3];
      const signedIn = await login(app(), p.uid, PERSON_PASSWORD(p.uid));
      expect(signedIn.token).toBeTruthy();
      expect(signedIn.isLdapUser).toBe(true);
      // 个人设置 says where the password is changed, and the change call refuses with the same words
      const security = await ok(app(), 'GET', '/api/account/Security', { token: signedIn.token });
      expect(security.passwordElsewhere).toBe('你的账号使用公司目录（LDAP）的密码登录，请在目录中修改密码');
      const change = await call(app(), 'POST', '/api/account/changepassword', {
        token: signedIn.token,
        body: { oldPassword: PERSON_PASSWORD(p.uid), newPassword: 'Another-pass-42' },
      });
      expect(change.status).toBe(400);
      expect(change.body.message).toBe(security.passwordElsewhere);
      const local = await ok(app(), 'GET', '/api/account/Security', { token: adminToken });
      expect(local.passwordElsewhere).toBeNull();
      const wrong = await call(app(), 'POST', '/api/login', { body: { userName: p.uid, password: 'not-it', mode: 'password' } });
      expect(wrong.status).toBe(400);
      // no local password: an administrator's reset is refused, the directory owns it
      const u = await person(p.uid);
      expect((await call(app(), 'POST', `/api/Admin/Users/${u.userId}/ResetPassword`, { token: adminToken, body: {} })).status).toBe(400);
      await ok(app(), 'PUT', `/api/Admin/Users/${u.userId}/Totp`, { token: adminToken, body: { required: true } });
      const step = await login(app(), p.uid, PERSON_PASSWORD(p.uid));
      expect(step).toMatchObject({ totpBind: true });
      expect(step.token ?? '').toBe('');
    });

    test('a person moved in the directory moves here; people who left are disabled and their sessions end', async () => {
      const movers = active().filter((p) => p.ouPath.length === 3);
      const mover = movers[0];
      const target = dir.departments.find((d) => d.level === 2 && d.name !== mover.ouPath[1])!;
      await dir.ldapModify(`dn: ${mover.dn}\nchangetype: modrdn\nnewrdn: uid=${mover.uid}\ndeleteoldrdn: 1\nnewsuperior: ${target.dn}\n`);
      const leaver = movers[1];
      const leaverToken = (await login(app(), leaver.uid, PERSON_PASSWORD(leaver.uid))).token;
      await dir.ldapModify(`dn: ${leaver.dn}\nchangetype: delete\n`);

      const run = await plan();
      expect(run.summary).toMatchObject({ adds: 0, moves: 1, disables: 1, refused: null });
      expect(run.summary.samples.moves[0]).toMatchObject({ userName: mover.uid, from: deptName(mover), to: target.path.join('/') });
      expect(run.summary.samples.disables).toEqual([leaver.uid]);
      await applyRun(run.id);
      expect((await person(mover.uid)).deptName).toBe(target.path.join('/'));
      expect(await person(leaver.uid)).toMatchObject({ disabled: true });
      expect((await call(app(), 'GET', '/api/User/Home', { token: leaverToken })).status).toBe(403);
      // kept, not deleted: it still shows in the list
      expect((await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { status: 'disabled', source: 'ldap', pageSize: 50 } })).data.map((u: { userName: string }) => u.userName)).toContain(leaver.uid);
      // put back for the next tests
      await dir.ldapModify(`dn: uid=${mover.uid},${target.dn}\nchangetype: modrdn\nnewrdn: uid=${mover.uid}\ndeleteoldrdn: 1\nnewsuperior: ${mover.dn.split(',').slice(1).join(',')}\n`);
      await applyRun((await plan()).id);
    });

    test('an empty answer, or one that would disable too many, is refused and changes nothing', async () => {
      const enabledBefore = (await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { source: 'ldap', status: 'enabled', pageSize: 1 } })).total;
      await ok(app(), 'PUT', '/api/Admin/Directory/Ldap', { token: adminToken, body: { userFilter: '(objectClass=nobodyHere)' } });
      const empty = await plan();
      expect(empty).toMatchObject({ status: 'refused', summary: { total: 0 } });
      expect(empty.error).toBe('目录没有返回任何用户（可能是基准 DN 或筛选条件有误），本次同步未做任何修改');
      // one centre only: most people would go
      const centre = dir.departments.find((d) => d.level === 2)!;
      await ok(app(), 'PUT', '/api/Admin/Directory/Ldap', { token: adminToken, body: { userFilter: '(objectClass=inetOrgPerson)', baseDn: centre.dn } });
      const narrow = await plan();
      expect(narrow.status).toBe('refused');
      expect(narrow.error).toMatch(/^本次同步将停用 \d+ 人（占已同步用户的 [\d.]+%），超过设定的 10%/);
      expect((await call(app(), 'POST', `/api/Admin/Directory/Runs/${narrow.id}/Apply`, { token: adminToken })).status).toBe(409);
      expect((await ok(app(), 'GET', '/api/Admin/Users', { token: adminToken, query: { source: 'ldap', status: 'enabled', pageSize: 1 } })).total).toBe(enabledBefore);
      await ok(app(), 'PUT', '/api/Admin/Directory/Ldap', { token: adminToken, body: { baseDn: baseDn() } });
      const runs = await ok(app(), 'GET', '/api/Admin/Directory/Runs', { token: adminToken });
      expect(runs.slice(0, 2).map((r: { status: string }) => r.status)).toEqual(['refused', 'refused']);
    });

    test('the scheduled sync runs on one instance of two at a time', async () => {
      const other = await server.restart();
      const later = Date.now() + 2 * 60 * 60_000;
      const [a, b] = await Promise.all([app().services.directory.tick(later), other.services.directory.tick(later)]);
      expect([a, b].filter((r) => r !== null)).toHaveLength(1);
      expect((a ?? b)!).toMatchObject({ trigger: 'schedule', status: 'applied' });
      // within the interval, neither runs again
      expect(await other.services.directory.tick(Date.now() + 60_000)).toBeNull();
    });

    test('when the directory cannot be reached, directory people get a clear Chinese error and local accounts still sign in', async () => {
      const p = active()[5];
      await ok(app(), 'PUT', '/api/Admin/Directory/Ldap', { token: adminToken, body: { url: 'ldap://127.0.0.1:9' } });
      const res = await call(app(), 'POST', '/api/login', { body: { userName: p.uid, password: PERSON_PASSWORD(p.uid), mode: 'password' } });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 50301 });
      expect(res.body.message).toBe('无法连接目录服务器，目录用户暂时不能登录，请稍后再试或联系管理员');
      expect((await login(app())).token).toBeTruthy();
      const failed = await plan();
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/无法连接目录服务器：连接被拒绝/);
      await ok(app(), 'PUT', '/api/Admin/Directory/Ldap', { token: adminToken, body: { url: dir.url } });
    });

    test('only system administrators reach the directory settings and runs', async () => {
      await ok(app(), 'POST', '/api/Admin/Users', { token: adminToken, body: { userName: `plain_${kind}`, password: 'Plain-Passw0rd-1', mustChangePassword: false } });
      const token = (await login(app(), `plain_${kind}`, 'Plain-Passw0rd-1')).token;
      for (const [method, url] of [
        ['GET', '/api/Admin/Directory/Ldap'],
        ['PUT', '/api/Admin/Directory/Ldap'],
        ['POST', '/api/Admin/Directory/Ldap/Test'],
        ['POST', '/api/Admin/Directory/Ldap/Sync'],
        ['GET', '/api/Admin/Directory/Runs'],
      ] as const) {
        const res = await call(app(), method, url, { token, body: method === 'PUT' ? { enabled: false } : undefined });
        expect({ url, status: res.status }).toEqual({ url, status: 403 });
      }
      expect((await ok(app(), 'GET', '/api/Admin/Directory/Ldap', { token: adminToken })).enabled).toBe(true);
    });
  });
});
