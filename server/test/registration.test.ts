// 云文档 registration (issue 16): SMS codes through the log sender (read back by an
// administrator), their limits per phone and per address, the application, and the
// administrator's approval (the account exists only then) or rejection; on SQLite and PostgreSQL.
import { call, databaseKinds, HAN, login, ok, startServer, type TestServer } from './support/harness';

describe.each(databaseKinds())('registration (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  const app = () => server.app;
  let phoneSeq = 0;
  /** a fresh phone number per test, so that the per-phone limits never meet */
  const nextPhone = () => `139${String(Date.now() % 1e6).padStart(6, '0')}${String(++phoneSeq).padStart(2, '0')}`;
  let addressSeq = 0;
  const nextAddress = () => `10.77.${++addressSeq}.1`;

  beforeAll(async () => {
    server = await startServer(kind);
    adminToken = (await login(server.app)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  const sendCode = (phone: string, remoteAddress = '10.77.0.1') =>
    call(app(), 'POST', '/api/User/Register/SendVerifyCode', { query: { phone }, remoteAddress });
  /** The code in the newest message the log sender kept for the phone. */
  const codeFor = async (phone: string) => {
    const messages = await ok(app(), 'GET', '/api/Admin/Sms', { token: adminToken, query: { phone } });
    return /验证码是 (\d{6})/.exec(messages[0].text)![1];
  };
  const apply = (body: Record<string, unknown>, remoteAddress?: string) => call(app(), 'POST', '/api/User/Register', { body, remoteAddress });
  const expectError = (res: { status: number; body: any }, status: number, message: string | RegExp) => {
    expect({ status: res.status, result: res.body?.result }).toEqual({ status, result: null });
    expect(res.body.message).toMatch(HAN);
    expect(res.body.message).toMatch(message);
  };

  test('a code, an application, the administrator approves: then, and only then, the applicant signs in with the password they chose', async () => {
    const phone = nextPhone();
    const sent = await sendCode(phone, nextAddress());
    expect(sent.status).toBe(200);
    expect(sent.body.result).toEqual({ resendAfter: 60, expiresIn: 600 });
    const code = await codeFor(phone);
    const userName = `applicant_${phoneSeq}_${kind}`;
    const body = { phone, code, userName, nickName: '李申请', password: 'Applicant-Passw0rd-1', department: '市场部', reason: '新入职，需要查看部门资料' };

    expectError(await apply({ ...body, password: 'abc' }), 400, /密码至少 8 位/);
    expectError(await apply({ ...body, code: code === '000000' ? '111111' : '000000' }), 400, '验证码错误');
    const filed = await apply(body);
    expect(filed.status).toBe(200);
    expect(filed.body.result).toMatchObject({ userName, nickName: '李申请', department: '市场部', status: 'pending', userId: null });
    // the code is spent, and no account exists yet
    expectError(await apply({ ...body, userName: `${userName}_2` }), 400, '验证码已失效，请重新获取');
    expect((await call(app(), 'POST', '/api/login', { body: { userName, password: body.password } })).status).toBe(400);
    // the name is held while the application waits
    const other = nextPhone();
    await sendCode(other, nextAddress());
    expectError(await apply({ ...body, phone: other, code: await codeFor(other) }), 409, '该用户名已被使用');

    const pending = await ok(app(), 'GET', '/api/Admin/Registrations', { token: adminToken, query: { status: 'pending' } });
    expect(pending.data.map((r: any) => r.id)).toContain(filed.body.result.id);
    const approved = await ok(app(), 'POST', `/api/Admin/Registrations/${filed.body.result.id}/Approve`, { token: adminToken, body: {} });
    expect(approved).toMatchObject({ status: 'approved', userId: expect.any(String) });
    const session = await login(app(), userName, body.password);
    expect(session.token).toEqual(expect.any(String));
    expect(session.nickName).toBe('李申请');
    const again = await call(app(), 'POST', `/api/Admin/Registrations/${filed.body.result.id}/Approve`, { token: adminToken, body: {} });
    expectError(again, 409, '该申请已处理');
    const stored = await server.app.db.selectFrom('registrations').select('password_hash').where('id', '=', Number(filed.body.result.id)).executeTakeFirstOrThrow();
    expect(stored.password_hash).toBe('');
  });

  test('a rejection needs a reason and makes no account; only administrators decide or read messages', async () => {
    const phone = nextPhone();
    await sendCode(phone, nextAddress());
    const userName = `rejected_${phoneSeq}_${kind}`;
    const filed = await ok(app(), 'POST', '/api/User/Register', {
      body: { phone, code: await codeFor(phone), userName, nickName: '王驳回', password: 'Rejected-Passw0rd-1' },
    });
    const someone = await ok(app(), 'POST', '/api/Admin/Users', {
      token: adminToken,
      body: { userName: `normal_${phoneSeq}_${kind}`, nickName: '普通', password: 'Normal-Passw0rd-1', deptId: null, mustChangePassword: false },
    });
    expect(someone.userId).toEqual(expect.any(String));
    const normal = await login(app(), `normal_${phoneSeq}_${kind}`, 'Normal-Passw0rd-1');
    expect((await call(app(), 'GET', '/api/Admin/Sms', { token: normal.token })).status).toBe(403);
    expect((await call(app(), 'POST', `/api/Admin/Registrations/${filed.id}/Approve`, { token: normal.token, body: {} })).status).toBe(403);
    expect((await call(app(), 'GET', '/api/Admin/Registrations', { token: normal.token })).status).toBe(403);

    expect((await call(app(), 'POST', `/api/Admin/Registrations/${filed.id}/Reject`, { token: adminToken, body: { reason: '' } })).status).toBe(400);
    const rejected = await ok(app(), 'POST', `/api/Admin/Registrations/${filed.id}/Reject`, { token: adminToken, body: { reason: '非本公司员工' } });
    expect(rejected).toMatchObject({ status: 'rejected', decisionNote: '非本公司员工', userId: null });
    expect((await call(app(), 'POST', '/api/login', { body: { userName, password: 'Rejected-Passw0rd-1' } })).status).toBe(400);
    expectError(await call(app(), 'POST', `/api/Admin/Registrations/${filed.id}/Approve`, { token: adminToken, body: {} }), 409, '该申请已处理');
  });

  test('codes are limited: once a minute and five an hour per phone, twenty an hour per address; five wrong tries end a code; a bad number is refused', async () => {
    expectError(await sendCode('12345'), 400, '请输入正确的 11 位手机号');
    const phone = nextPhone();
    const address = nextAddress();
    expect((await sendCode(phone, address)).status).toBe(200);
    const soon = await sendCode(phone, address);
    expect(soon.status).toBe(429);
    expect(soon.body.message).toMatch(/验证码已发送，请 \d+ 秒后再试/);
    // a minute passes, four times
    for (let i = 0; i < 4; i++) {
      await server.app.db.updateTable('verify_codes').set((eb) => ({ created_at: eb('created_at', '-', 61_000) })).where('phone', '=', phone).execute();
      expect((await sendCode(phone, address)).status).toBe(200);
    }
    await server.app.db.updateTable('verify_codes').set((eb) => ({ created_at: eb('created_at', '-', 61_000) })).where('phone', '=', phone).execute();
    expectError(await sendCode(phone, address), 429, '该手机号获取验证码过于频繁，请 1 小时后再试');

    // twenty phones from one address in an hour, then no more from there
    const busy = nextAddress();
    for (let i = 0; i < 20; i++) expect((await sendCode(nextPhone(), busy)).status).toBe(200);
    expectError(await sendCode(nextPhone(), busy), 429, '获取验证码过于频繁，请稍后再试');

    const tried = nextPhone();
    await sendCode(tried, nextAddress());
    const right = await codeFor(tried);
    const wrong = right === '000000' ? '111111' : '000000';
    const body = { phone: tried, userName: `tries_${phoneSeq}_${kind}`, nickName: '试', password: 'Tries-Passw0rd-1' };
    for (let i = 0; i < 4; i++) expectError(await apply({ ...body, code: wrong }), 400, '验证码错误');
    expectError(await apply({ ...body, code: wrong }), 400, '验证码错误次数过多，请重新获取');
    expectError(await apply({ ...body, code: right }), 400, '验证码已失效，请重新获取');
  });
});
