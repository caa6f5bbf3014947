// 云文档 sign-in beyond the password (issue 16, first part): the password policy (rules, history,
// expiry, lockout), the forced change after an administrator set the password, changing one's
// own password, and TOTP (binding, codes, replays, wrong-code throttling, administrators'
// requirement and reset); with state read back, on SQLite and PostgreSQL.
import { totpCodeAt } from '../src/modules/auth/totp';
import { call, createUser, databaseKinds, HAN, login, ok, startServer, type TestServer } from './support/harness';

const DAY_MS = 24 * 3600 * 1000;

/** The base32 key an otpauth:// address carries. */
const secretOf = (uri: string) => new URL(uri).searchParams.get('secret') as string;

describe.each(databaseKinds())('sign-in steps (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const app = () => server.app;
  const db = () => server.app.db;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const policy = () => ok(app(), 'GET', '/api/Login/PasswordPolicy');
  const setPolicy = async (changes: Record<string, unknown>) =>
    ok(app(), 'PUT', '/api/Admin/PasswordPolicy', { token: adminToken, body: { ...(await policy()), ...changes } });
  const signIn = (userName: string, password: string, remoteAddress?: string) =>
    call(app(), 'POST', '/api/login', { body: { userName, password, mode: 'password' }, remoteAddress });
  const homeWith = (token: string) => call(app(), 'GET', '/api/User/Home', { token });
  const expectError = (res: { status: number; body: any }, status: number, message: RegExp | string) => {
    expect({ status: res.status, result: res.body?.result }).toEqual({ status, result: null });
    expect(res.body.message).toMatch(HAN);
    if (typeof message === 'string') expect(res.body.message).toBe(message);
    else expect(res.body.message).toMatch(message);
  };
  /** A second step: the flag, an actionToken, and neither a token nor a cookie. */
  const expectStep = (res: { status: number; body: any; cookies: any[] }, flag: 'passwordReset' | 'totpBind' | 'totpCode') => {
    expect(res.status).toBe(200);
    const r = res.body.result;
    expect({ passwordReset: r.passwordReset, totpBind: r.totpBind, totpCode: r.totpCode }).toEqual({
      passwordReset: flag === 'passwordReset',
      totpBind: flag === 'totpBind',
      totpCode: flag === 'totpCode',
    });
    expect(typeof r.actionToken).toBe('string');
    expect(r.token).toBeUndefined();
    expect(r.jwtId).toBeUndefined();
    expect(res.cookies.find((c: any) => c.name === 'token')).toBeUndefined();
    return r;
  };
  const sessionsOf = async (userId: string) =>
    db().selectFrom('sessions').select(['id', 'revoked_at']).where('user_id', '=', Number(userId)).execute();

  describe('password policy and forced changes', () => {
    afterEach(async () => {
      await setPolicy({ expiryDays: 0, historyCount: 3, lockoutThreshold: 5, lockoutMinutes: 15, requireMixedCase: false, totpRequired: false });
    });

    test('an account an administrator made must choose its own password first; the step signs in once, and only once', async () => {
      const name = `made_${Date.now()}`;
      const made = await ok(app(), 'POST', '/api/Admin/Users', {
        token: adminToken,
        body: { userName: name, nickName: '新同事', password: 'Given-Passw0rd-1', deptId: null },
      });

      const step = expectStep(await signIn(name, 'Given-Passw0rd-1'), 'passwordReset');
      expect(step.message).toMatch(/管理员设置的密码/);
      expect(await sessionsOf(made.userId)).toEqual([]);

      // the policy's rules, then the password the administrator gave: both refused, the step still open
      expectError(await call(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: step.actionToken, password: 'short' } }), 400, /密码至少 8 位/);
      expectError(
        await call(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: step.actionToken, password: 'Given-Passw0rd-1' } }),
        400,
        '新密码不能与最近 3 次使用过的密码相同',
      );
      const done = await call(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: step.actionToken, password: 'Own-Passw0rd-22' } });
      expect(done.status).toBe(200);
      expect(done.body.result.token).toEqual(expect.any(String));
      expect(done.body.result.passwordReset).toBe(false);
      expect(done.cookies.find((c: any) => c.name === 'token')?.value).toBe(done.body.result.jwtId);
      expect((await homeWith(done.body.result.token)).status).toBe(200);

      // the step is spent; the old password is gone; the new one signs in straight away
      expectError(
        await call(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: step.actionToken, password: 'Other-Passw0rd-33' } }),
        400,
        '操作已过期，请重新登录',
      );
      expectError(await signIn(name, 'Given-Passw0rd-1'), 400, '用户名或密码错误');
      const again = await signIn(name, 'Own-Passw0rd-22');
      expect(again.body.result.token).toEqual(expect.any(String));
      const row = await db().selectFrom('users').select(['must_change_password']).where('id', '=', Number(made.userId)).executeTakeFirstOrThrow();
      expect(Number(row.must_change_password)).toBe(0);
    });

    test('a reset by an administrator ends the sessions and asks for a new password at the next sign-in', async () => {
      const user = await createUser(app(), adminToken);
      const before = (await login(app(), user.userName, user.password)).token;
      await ok(app(), 'POST', `/api/Admin/Users/${user.userId}/ResetPassword`, { token: adminToken, body: { password: 'Admin-Set-Passw0rd-9' } });
      expect((await homeWith(before)).status).toBe(401);
      const step = expectStep(await signIn(user.userName, 'Admin-Set-Passw0rd-9'), 'passwordReset');
      const done = await ok(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: step.actionToken, password: 'Mine-Again-Passw0rd-1' } });
      expect((await homeWith(done.token)).status).toBe(200);
    });

    test('a password older than the policy allows must be changed; an unknown or expired action token is refused', async () => {
      const user = await createUser(app(), adminToken);
      expect((await login(app(), user.userName, user.password)).token).toEqual(expect.any(String));
      await setPolicy({ expiryDays: 30 });
      await db().updateTable('users').set({ password_changed_at: Date.now() - 31 * DAY_MS }).where('id', '=', Number(user.userId)).execute();
      const step = expectStep(await signIn(user.userName, user.password), 'passwordReset');
      expect(step.message).toBe('密码已超过 30 天未修改，请设置新密码');

      expectError(await call(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: 'no-such-token', password: 'Fresh-Passw0rd-1' } }), 400, '操作已过期，请重新登录');
      await db().updateTable('login_steps').set({ expires_at: Date.now() - 1 }).where('user_id', '=', Number(user.userId)).execute();
      expectError(
        await call(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: step.actionToken, password: 'Fresh-Passw0rd-1' } }),
        400,
        '操作已过期，请重新登录',
      );
      // a fresh sign-in gets a fresh step, and the new password starts a new 30 days
      const next = expectStep(await signIn(user.userName, user.password), 'passwordReset');
      await ok(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: next.actionToken, password: 'Fresh-Passw0rd-1' } });
      expect((await signIn(user.userName, 'Fresh-Passw0rd-1')).body.result.token).toEqual(expect.any(String));
    });

    test('changing one’s password needs the old one, keeps this session, ends the others and refuses recent passwords', async () => {
      const user = await createUser(app(), adminToken);
      const here = (await login(app(), user.userName, user.password)).token;
      const elsewhere = (await login(app(), user.userName, user.password)).token;
      const change = (oldPassword: string, newPassword: string) =>
        call(app(), 'POST', '/api/account/changepassword', { token: here, body: { oldPassword, newPassword } });

      expectError(await change('Not-The-Passw0rd', 'Next-Passw0rd-1'), 400, '原密码错误');
      expectError(await change(user.password, 'abc'), 400, /密码至少 8 位/);
      await setPolicy({ requireMixedCase: true });
      expectError(await change(user.password, 'lower-only-passw0rd'), 400, /大写字母、小写字母/);
      expectError(await change(user.password, user.password), 400, '新密码不能与最近 3 次使用过的密码相同');
      expect((await homeWith(elsewhere)).status).toBe(200);

      const res = await change(user.password, 'Next-Passw0rd-1');
      expect(res.status).toBe(200);
      expect(res.body.result.revoked).toBe(1);
      expect((await homeWith(here)).status).toBe(200);
      expect((await homeWith(elsewhere)).status).toBe(401);
      expectError(await signIn(user.userName, user.password), 400, '用户名或密码错误');

      // three changes later the first password may come back, not before
      await ok(app(), 'POST', '/api/account/changepassword', { token: here, body: { oldPassword: 'Next-Passw0rd-1', newPassword: 'Third-Passw0rd-1' } });
      expectError(await change('Third-Passw0rd-1', user.password), 400, '新密码不能与最近 3 次使用过的密码相同');
      await ok(app(), 'POST', '/api/account/changepassword', { token: here, body: { oldPassword: 'Third-Passw0rd-1', newPassword: 'Fourth-Passw0rd-1' } });
      await ok(app(), 'POST', '/api/account/changepassword', { token: here, body: { oldPassword: 'Fourth-Passw0rd-1', newPassword: user.password } });
      expect((await signIn(user.userName, user.password)).body.result.token).toEqual(expect.any(String));
    });

    test('the lockout follows the policy: after its failures the right password is refused too, from any address', async () => {
      await setPolicy({ lockoutThreshold: 3, lockoutMinutes: 10 });
      const user = await createUser(app(), adminToken);
      for (const [i, ip] of ['10.9.0.1', '10.9.0.2', '10.9.0.3'].entries()) {
        expectError(await signIn(user.userName, `wrong-${i}`, ip), 400, '用户名或密码错误');
      }
      const locked = await signIn(user.userName, user.password, '10.9.0.4');
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe(42901);
      expect(locked.body.message).toBe('登录失败次数过多，请 10 分钟后再试');
      // the minutes pass
      await db().updateTable('login_failures').set({ created_at: Date.now() - 11 * 60_000 }).where('account_key', '=', user.userName.toLowerCase()).execute();
      expect((await signIn(user.userName, user.password, '10.9.0.4')).body.result.token).toEqual(expect.any(String));
    });

    test('only administrators change the policy; out-of-range values are refused in Chinese', async () => {
      const user = await createUser(app(), adminToken);
      const token = (await login(app(), user.userName, user.password)).token;
      const refused = await call(app(), 'PUT', '/api/Admin/PasswordPolicy', { token, body: await policy() });
      expect(refused.status).toBe(403);
      const bad = await call(app(), 'PUT', '/api/Admin/PasswordPolicy', { token: adminToken, body: { ...(await policy()), minLength: 2 } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(HAN);
      expect((await policy()).minLength).toBe(8);
    });
  });

  describe('TOTP', () => {
    afterEach(async () => {
      await setPolicy({ totpRequired: false });
    });

    /** Signs in up to the binding step and binds with a code of `at`; returns the key. */
    async function bind(userName: string, password: string, at = Date.now()) {
      const step = expectStep(await signIn(userName, password), 'totpBind');
      expect(step.totpUri).toMatch(/^otpauth:\/\/totp\//);
      const secret = secretOf(step.totpUri);
      expect(step.totpSecret).toBe(secret);
      const done = await ok(app(), 'POST', '/api/login/TotpBind', { body: { actionToken: step.actionToken, code: totpCodeAt(secret, at) } });
      expect(done.token).toEqual(expect.any(String));
      return { secret, token: done.token as string };
    }

    test('required by the policy: the first sign-in binds (a wrong code first), the key is stored sealed, later sign-ins ask for a code', async () => {
      await setPolicy({ totpRequired: true });
      const user = await createUser(app(), adminToken);
      const step = expectStep(await signIn(user.userName, user.password), 'totpBind');
      const secret = secretOf(step.totpUri);
      expect(decodeURIComponent(step.totpUri)).toContain(`云文档:${user.userName}`);
      const wrong = totpCodeAt(secret, Date.now() + 10 * 60_000);
      expectError(await call(app(), 'POST', '/api/login/TotpBind', { body: { actionToken: step.actionToken, code: wrong } }), 400, /动态口令错误/);
      expect(await sessionsOf(user.userId)).toEqual([]);
      const bound = await call(app(), 'POST', '/api/login/TotpBind', { body: { actionToken: step.actionToken, code: totpCodeAt(secret, Date.now()) } });
      expect(bound.status).toBe(200);
      expect((await homeWith(bound.body.result.token)).status).toBe(200);

      const row = await db().selectFrom('users').select(['totp_secret', 'totp_last_step']).where('id', '=', Number(user.userId)).executeTakeFirstOrThrow();
      expect(row.totp_secret).toEqual(expect.any(String));
      expect(row.totp_secret).not.toContain(secret);
      expect(Number(row.totp_last_step)).toBeGreaterThan(0);

      // the next sign-in asks for a code; the code used to bind is not taken again
      const codeStep = expectStep(await signIn(user.userName, user.password), 'totpCode');
      expect(codeStep.totpUri).toBeUndefined();
      // codes by the 30-second step the binding used, so that a step ending meanwhile changes nothing
      const boundStep = Number(row.totp_last_step);
      const usedAtBinding = totpCodeAt(secret, boundStep * 30_000);
      expectError(await call(app(), 'POST', '/api/login/TotpCode', { body: { actionToken: codeStep.actionToken, code: usedAtBinding } }), 400, /已使用过/);
      // the next 30-second step's code (inside the drift window) signs in, once
      const next = totpCodeAt(secret, (boundStep + 1) * 30_000);
      const signedIn = await call(app(), 'POST', '/api/login/TotpCode', { body: { actionToken: codeStep.actionToken, code: next } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.cookies.find((c: any) => c.name === 'token')?.value).toBe(signedIn.body.result.jwtId);
      const replayStep = expectStep(await signIn(user.userName, user.password), 'totpCode');
      expectError(await call(app(), 'POST', '/api/login/TotpCode', { body: { actionToken: replayStep.actionToken, code: next } }), 400, /已使用过/);
    });

    test('five wrong codes end the sign-in, and count towards the lockout', async () => {
      await setPolicy({ totpRequired: true, lockoutThreshold: 8, lockoutMinutes: 5 });
      const user = await createUser(app(), adminToken);
      const { secret } = await bind(user.userName, user.password);
      const step = expectStep(await signIn(user.userName, user.password), 'totpCode');
      for (let i = 0; i < 4; i++) {
        expectError(await call(app(), 'POST', '/api/login/TotpCode', { body: { actionToken: step.actionToken, code: '000000' } }), 400, /动态口令错误/);
      }
      expectError(await call(app(), 'POST', '/api/login/TotpCode', { body: { actionToken: step.actionToken, code: '000000' } }), 400, '动态口令错误次数过多，请重新登录');
      expectError(
        await call(app(), 'POST', '/api/login/TotpCode', { body: { actionToken: step.actionToken, code: totpCodeAt(secret, Date.now() + 30_000) } }),
        400,
        '操作已过期，请重新登录',
      );
      const failures = await db().selectFrom('login_failures').select('id').where('account_key', '=', user.userName.toLowerCase()).execute();
      expect(failures.length).toBe(5);
      await setPolicy({ lockoutThreshold: 5, lockoutMinutes: 15 });
    });

    test('signing in again with the password does not give a code guesser a fresh count: the lockout still comes', async () => {
      await setPolicy({ totpRequired: true, lockoutThreshold: 5, lockoutMinutes: 15 });
      const user = await createUser(app(), adminToken);
      await bind(user.userName, user.password);
      const guess = (actionToken: string) => call(app(), 'POST', '/api/login/TotpCode', { body: { actionToken, code: '000000' } });
      const first = expectStep(await signIn(user.userName, user.password), 'totpCode');
      for (let i = 0; i < 3; i++) expect((await guess(first.actionToken)).status).toBe(400);
      const second = expectStep(await signIn(user.userName, user.password), 'totpCode');
      for (let i = 0; i < 2; i++) expect((await guess(second.actionToken)).status).toBe(400);
      const locked = await signIn(user.userName, user.password);
      expect(locked.status).toBe(429);
      expect(locked.body.message).toMatch(/登录失败次数过多/);
    });

    test('an administrator requires TOTP for one user, and resets it after a lost phone', async () => {
      const user = await createUser(app(), adminToken);
      const other = await createUser(app(), adminToken);
      const required = await ok(app(), 'PUT', `/api/Admin/Users/${user.userId}/Totp`, { token: adminToken, body: { required: true } });
      expect(required).toMatchObject({ totpRequired: true, totpBound: false });
      expect((await login(app(), other.userName, other.password)).token).toEqual(expect.any(String));

      const first = await bind(user.userName, user.password);
      expect((await ok(app(), 'DELETE', `/api/Admin/Users/${user.userId}/Totp`, { token: adminToken })).totpBound).toBe(false);
      const again = await bind(user.userName, user.password, Date.now());
      expect(again.secret).not.toBe(first.secret);

      // no longer required, but bound: the user keeps being asked for codes
      await ok(app(), 'PUT', `/api/Admin/Users/${user.userId}/Totp`, { token: adminToken, body: { required: false } });
      expectStep(await signIn(user.userName, user.password), 'totpCode');
      // after a reset with nothing requiring it, the password alone signs in
      await ok(app(), 'DELETE', `/api/Admin/Users/${user.userId}/Totp`, { token: adminToken });
      expect((await login(app(), user.userName, user.password)).token).toEqual(expect.any(String));

      const normal = (await login(app(), other.userName, other.password)).token;
      expect((await call(app(), 'DELETE', `/api/Admin/Users/${user.userId}/Totp`, { token: normal })).status).toBe(403);
    });

    test('a forced password change comes before the TOTP binding, and both finish one sign-in', async () => {
      await setPolicy({ totpRequired: true });
      const name = `both_${Date.now()}`;
      await ok(app(), 'POST', '/api/Admin/Users', {
        token: adminToken,
        body: { userName: name, nickName: '两步', password: 'Given-Passw0rd-2', deptId: null },
      });
      const reset = expectStep(await signIn(name, 'Given-Passw0rd-2'), 'passwordReset');
      const bindRes = await call(app(), 'POST', '/api/login/ResetPassword', { body: { actionToken: reset.actionToken, password: 'Chosen-Passw0rd-2' } });
      const bindStep = expectStep(bindRes, 'totpBind');
      const done = await ok(app(), 'POST', '/api/login/TotpBind', {
        body: { actionToken: bindStep.actionToken, code: totpCodeAt(secretOf(bindStep.totpUri), Date.now()) },
      });
      expect((await homeWith(done.token)).status).toBe(200);
    });
  });
});
