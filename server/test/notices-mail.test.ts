// 云文档's notice mails on SQLite and PostgreSQL, against a real SMTP server on 127.0.0.1
// (smtp-server, read back with mailparser): an approval waiting is mailed at once to the
// approvers whose settings allow it; share notices wait for the digest and go out together,
// without one read in the app first; a person without an address is skipped and listed for
// administrators; a fixed policy row wins over the person's choice, and 站内消息 off hides the
// notice from the bell; the mail server down is retried with backoff, then failed and listed;
// the test mail and its Chinese errors; the password never returned; administrators only; two
// senders, or a sender stopped between claiming and sending, never mail a notice twice.
import crypto from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { call, createUser, databaseKinds, login, ok, startServer, type TestServer, type TestUser } from './support/harness';
import { defineOneStepFlow, startRequest } from './support/workflow';
import { makeFolder } from './support/content';
import { CLAIM_TTL_MS, digestTime, MAX_ATTEMPTS, retryBackoffMs } from '../src/modules/notice-delivery/sender';
import { DIGEST_LIMIT, digestMail } from '../src/modules/notice-delivery/templates';

interface Received {
  to: string[];
  subject: string;
  html: string;
  text: string;
}

const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-secret-Passw0rd';
const EXTERNAL = 'https://docs.example.com';

/** An SMTP server on 127.0.0.1 that keeps what it is sent (sign-in required). */
async function startSmtp() {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return cb(null, { user: SMTP_USER });
      const err = new Error('Invalid username or password') as Error & { responseCode: number };
      err.responseCode = 535;
      return cb(err);
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((parsed) => {
          inbox.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            text: parsed.text ?? '',
          });
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { inbox, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('digest times and the digest mail', () => {
  const tz = 'Asia/Shanghai';
  const at = (text: string) => new Date(`${text}+08:00`).getTime();
  test('hourly: the top of the next hour; daily: the next time it is the hour set', () => {
    expect(digestTime(at('2026-11-27T10:20:00'), 'hourly', 8, tz)).toBe(at('2026-11-27T11:00:00'));
    expect(digestTime(at('2026-11-27T10:00:00'), 'hourly', 8, tz)).toBe(at('2026-11-27T11:00:00'));
    expect(digestTime(at('2026-11-27T10:20:00'), 'daily', 8, tz)).toBe(at('2026-11-28T08:00:00'));
    expect(digestTime(at('2026-11-27T07:59:00'), 'daily', 8, tz)).toBe(at('2026-11-27T08:00:00'));
  });
  test('backoff: 2, 4, 8… seconds, at most 10 minutes', () => {
    expect([1, 2, 3, 4].map(retryBackoffMs)).toEqual([2000, 4000, 8000, 16000]);
    expect(retryBackoffMs(30)).toBe(600_000);
  });
  test(`a digest lists at most ${DIGEST_LIMIT} notices and counts the others, with a link to 消息中心`, () => {
    const notices = Array.from({ length: 30 }, (_, i) => ({ title: `通知${i + 1}`, body: '', link: '/file/shareme', createdAt: '2026-11-27 10:00:00' }));
    const mail = digestMail({ product: '云文档', externalUrl: EXTERNAL }, 'a@example.com', notices);
    expect(mail.subject).toBe('【云文档】你有 30 条新消息');
    expect(mail.text).toContain('通知25');
    expect(mail.text).not.toContain('通知26');
    expect(mail.text).toContain('另有 5 条消息未列出');
    expect(mail.html).toContain(`${EXTERNAL}/`);
    expect(mail.text).toContain('个人设置 › 通知设置');
  });
});

describe.each(databaseKinds())('notice mails (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer(kind);
    // the tests drive the dispatcher and the sender themselves
    await server.app.services.dispatcher.stop();
    await server.app.services.noticeMailer.stop();
    adminToken = (await login(server.app)).token;
    await ok(server.app, 'PUT', '/api/Admin/Branding', { token: adminToken, body: { systemName_Client: '星河文档' } });
    await configure();
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });
  // each test's deliveries end with it (the sender works every due row in the database)
  afterEach(async () => {
    await app().db.updateTable('notice_deliveries').set({ status: 'cancelled' }).where('status', 'in', ['pending', 'sending']).execute();
  });

  const app = () => server.app;
  const dispatch = () => app().services.dispatcher.runOnce();
  const mailer = () => app().services.noticeMailer;
  const configure = (o: Record<string, unknown> = {}) =>
    ok(app(), 'PUT', '/api/Admin/MailSettings', {
      token: adminToken,
      body: {
        enabled: true,
        host: '127.0.0.1',
        port: smtp.port,
        security: 'none',
        user: SMTP_USER,
        password: SMTP_PASSWORD,
        from: 'noreply@example.com',
        fromName: '',
        externalUrl: `${EXTERNAL}/`,
        ...o,
      },
    });
  const mailsTo = (address: string) => smtp.inbox.filter((m) => m.to.includes(address));

  async function person(label: string, withEmail = true): Promise<TestUser & { email: string }> {
    const u = await createUser(app(), adminToken, { nickName: `${label}${crypto.randomUUID().slice(0, 4)}` });
    const email = withEmail ? `${u.userName}@example.com` : '';
    if (email) await ok(app(), 'PUT', `/api/Admin/Users/${u.userId}`, { token: adminToken, body: { email } });
    const session = await login(app(), u.userName, u.password);
    return { ...u, token: session.token, jwtId: session.jwtId, email };
  }
  const define = (approvers: TestUser[]) => defineOneStepFlow(app(), adminToken, approvers.map((a) => a.userId), '邮件流程');
  const start = (initiator: TestUser, definitionId: string, title: string) => startRequest(app(), initiator.token, definitionId, title);
  const notices = (u: TestUser) => ok(app(), 'GET', '/api/Notices', { token: u.token, query: { page: 1, pageSize: 50 } });
  const deliveriesOf = (u: TestUser) =>
    app()
      .db.selectFrom('notice_deliveries')
      .innerJoin('notices', 'notices.id', 'notice_deliveries.notice_id')
      .select(['notice_deliveries.id', 'notice_deliveries.status', 'notice_deliveries.reason', 'notice_deliveries.attempts', 'notice_deliveries.next_at', 'notices.title'])
      .where('notice_deliveries.user_id', '=', Number(u.userId))
      .orderBy('notice_deliveries.id')
      .execute();
  const setMine = (u: TestUser, body: Record<string, unknown>) => ok(app(), 'PUT', '/api/Account/NoticeSettings', { token: u.token, body });

  test('an approval waiting is mailed at once to the approver whose settings allow it, with the subject, the text and the link back', async () => {
    const [initiator, a1, a2] = await Promise.all([person('发起人'), person('审批甲'), person('审批乙')]);
    await setMine(a2, { settings: { 'approval.waiting': { mail: false } } });
    const def = await define([a1, a2]);
    const id = await start(initiator, def, '上海出差报销');
    await dispatch();
    const round = await mailer().runOnce();
    expect(round.messages).toBe(1);

    const [mail, ...more] = mailsTo(a1.email);
    expect(more).toEqual([]);
    expect(mail.subject).toBe('【星河文档】待审批：上海出差报销');
    const link = `${EXTERNAL}/workflow/informationDetails?id=${id}`;
    expect(mail.html).toContain(link);
    expect(mail.text).toContain(`${initiator.nickName} 的申请等待你审批`);
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('个人设置 › 通知设置');
    // a2 chose no mail for it: still told in the app, not mailed, nothing recorded as undelivered
    expect(mailsTo(a2.email)).toEqual([]);
    expect((await notices(a2)).data[0]).toMatchObject({ kind: 'approval.waiting', title: '待审批：上海出差报销' });
    expect(await deliveriesOf(a2)).toEqual([]);
    // nothing is sent twice
    expect((await mailer().runOnce()).messages).toBe(0);
    expect(mailsTo(a1.email)).toHaveLength(1);
    expect((await deliveriesOf(a1)).map((d) => [d.status, Number(d.attempts)])).toEqual([['sent', 1]]);
  });

  test('share notices wait for the hourly digest and go out in one mail; one read in the app before is left out; daily waits for its hour, 站内消息 off or not', async () => {
    const [owner, reader, daily] = await Promise.all([person('分享人'), person('收件人'), person('每日')]);
    // daily digests go out 12 hours from now: the hourly round below never reaches them, whatever
    // the time of day the test runs at, and the round a day on always does
    const hourNow = Number(new Intl.DateTimeFormat('en-US', { timeZone: server.config.tzName, hour: 'numeric', hourCycle: 'h23' }).format(Date.now()));
    await ok(app(), 'PUT', '/api/Admin/NoticePolicy', { token: adminToken, body: { rules: {}, dailyHour: (hourNow + 12) % 24 } });
    // the daily reader keeps shares out of 站内消息: mailed all the same
    await setMine(daily, { digest: 'daily', settings: { 'share.received': { inApp: false } } });
    const root = (await ok(app(), 'GET', '/api/User/Folders/Personal/RootFolders', { token: owner.token }))[0].id;
    for (const name of ['一季度', '二季度', '三季度']) {
      const folder = await makeFolder(app(), owner.token, root, name);
      await ok(app(), 'POST', '/api/User/Shares', {
        token: owner.token,
        body: {
          fileIds: [folder.id],
          shareType: 1,
          level: 1,
          expireAt: null,
          downloadLimit: null,
          targets: [
            { type: 1, id: reader.userId },
            { type: 1, id: daily.userId },
          ],
        },
      });
    }
    await dispatch();
    const t0 = Date.now();
    // not at once: they wait for the top of the hour
    const first = await mailer().runOnce(t0);
    expect(first.messages).toBe(0);
    expect(first.parked).toBe(6);
    expect(mailsTo(reader.email)).toEqual([]);

    const list = (await notices(reader)).data;
    expect(list).toHaveLength(3);
    const read = list.find((n: any) => n.title.includes('二季度'));
    await ok(app(), 'POST', '/api/Notices/Read', { token: reader.token, body: { ids: [read.id] } });

    const hourLater = await mailer().runOnce(t0 + 3600_000);
    expect(hourLater.messages).toBe(1);
    const mails = mailsTo(reader.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('【星河文档】你有 2 条新消息');
    expect(mails[0].text).toContain(`${owner.nickName} 分享给你：“一季度”`);
    expect(mails[0].text).toContain(`${owner.nickName} 分享给你：“三季度”`);
    expect(mails[0].text).not.toContain('二季度');
    expect(mails[0].html).toContain(`${EXTERNAL}/file/shareme`);
    expect((await deliveriesOf(reader)).map((d) => d.status).sort()).toEqual(['cancelled', 'sent', 'sent']);
    // the daily reader's come the next morning at 8 (at the latest 24 hours on); 全部已读 does not
    // count for notices kept out of 站内消息
    expect(mailsTo(daily.email)).toEqual([]);
    expect((await notices(daily)).total).toBe(0);
    await ok(app(), 'POST', '/api/Notices/ReadAll', { token: daily.token, body: {} });
    await mailer().runOnce(t0 + 25 * 3600_000);
    expect(mailsTo(daily.email)).toHaveLength(1);
    expect(mailsTo(daily.email)[0].subject).toBe('【星河文档】你有 3 条新消息');
    await ok(app(), 'PUT', '/api/Admin/NoticePolicy', { token: adminToken, body: { rules: {}, dailyHour: 8 } });
  });

  test('a person without an e-mail address gets the notice in the app only; the mail is skipped and listed for administrators', async () => {
    const [initiator, noMail] = await Promise.all([person('发起人'), person('无邮箱', false)]);
    const def = await define([noMail]);
    await start(initiator, def, '没有邮箱的审批');
    await dispatch();
    await mailer().runOnce();
    expect((await notices(noMail)).data[0]).toMatchObject({ title: '待审批：没有邮箱的审批' });
    expect((await deliveriesOf(noMail)).map((d) => [d.status, d.reason])).toEqual([['skipped', '没有邮箱地址']]);
    const mine = await ok(app(), 'GET', '/api/Account/NoticeSettings', { token: noMail.token });
    expect(mine.channels.find((c: any) => c.key === 'mail')).toMatchObject({ available: false, note: expect.stringContaining('没有邮箱地址') });

    const page = await ok(app(), 'GET', '/api/Admin/NoticeDeliveries', { token: adminToken, query: { status: 'skipped', page: 1, pageSize: 100 } });
    expect(page.data.find((d: any) => d.userId === noMail.userId)).toMatchObject({
      userName: noMail.userName,
      nickName: noMail.nickName,
      kind: 'approval.waiting',
      title: '待审批：没有邮箱的审批',
      channel: 'mail',
      channelName: '邮件',
      status: 'skipped',
      reason: '没有邮箱地址',
    });
    expect(page.data[0].updatedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  test('a fixed policy row wins over the person’s choice; 站内消息 off keeps the notice out of the bell but it is still mailed', async () => {
    const [initiator, a] = await Promise.all([person('发起人'), person('强制')]);
    await setMine(a, { settings: { 'approval.waiting': { inApp: false, mail: false } } });
    const policy = await ok(app(), 'PUT', '/api/Admin/NoticePolicy', { token: adminToken, body: { rules: { 'approval.waiting': { mail: 'on' } } } });
    expect(policy.rules['approval.waiting']).toEqual({ inApp: 'user', mail: 'on' });
    expect(policy.rules['share.received']).toEqual({ inApp: 'user', mail: 'user' });
    try {
      const mine = await ok(app(), 'GET', '/api/Account/NoticeSettings', { token: a.token });
      const row = mine.rows.find((r: any) => r.kind === 'approval.waiting');
      expect(row.channels).toEqual({ inApp: { enabled: false, fixed: false }, mail: { enabled: true, fixed: true } });
      expect(row.urgent).toBe(true);
      expect(mine.rows.find((r: any) => r.kind === 'share.received')).toMatchObject({ urgent: false, channels: { mail: { enabled: true, fixed: false } } });

      const def = await define([a]);
      await start(initiator, def, '管理员强制邮件');
      await dispatch();
      expect((await notices(a)).total).toBe(0);
      expect((await ok(app(), 'GET', '/api/Notices/UnreadCount', { token: a.token })).unread).toBe(0);
      await mailer().runOnce();
      expect(mailsTo(a.email).map((m) => m.subject)).toEqual(['【星河文档】待审批：管理员强制邮件']);

      // forced off: nobody is mailed, whatever they chose
      await ok(app(), 'PUT', '/api/Admin/NoticePolicy', { token: adminToken, body: { rules: { 'approval.waiting': { mail: 'off' } } } });
      await setMine(a, { settings: { 'approval.waiting': { inApp: true, mail: true } } });
      await start(initiator, def, '管理员关闭邮件');
      await dispatch();
      await mailer().runOnce();
      expect(mailsTo(a.email)).toHaveLength(1);
      expect((await notices(a)).data.map((n: any) => n.title)).toEqual(['待审批：管理员关闭邮件']);
    } finally {
      await ok(app(), 'PUT', '/api/Admin/NoticePolicy', { token: adminToken, body: { rules: { 'approval.waiting': { mail: 'user' } } } });
    }
  });

  test('the mail server down: retried after 2, 4, 8… seconds, then failed and listed for administrators', async () => {
    const [initiator, a] = await Promise.all([person('发起人'), person('待发')]);
    await configure({ port: await closedPort() });
    try {
      const def = await define([a]);
      await start(initiator, def, '服务器停机');
      await dispatch();
      let t = Date.now();
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const round = await mailer().runOnce(t);
        const [row] = await deliveriesOf(a);
        expect(Number(row.attempts)).toBe(attempt);
        if (attempt < MAX_ATTEMPTS) {
          expect(round.retried).toBe(1);
          expect(row.status).toBe('pending');
          expect(Number(row.next_at)).toBe(t + retryBackoffMs(attempt));
          expect(row.reason).toMatch(/连接被拒绝/);
          // not before its time
          expect((await mailer().runOnce(t + retryBackoffMs(attempt) - 1)).retried).toBe(0);
          t += retryBackoffMs(attempt);
        } else {
          expect(round.failed).toBe(1);
          expect(row.status).toBe('failed');
          expect(row.reason).toMatch(new RegExp(`^无法连接邮件服务器 127\\.0\\.0\\.1:\\d+：连接被拒绝.*（已尝试 ${MAX_ATTEMPTS} 次）$`));
        }
      }
      expect((await mailer().runOnce(t + 3600_000)).failed).toBe(0);
      const page = await ok(app(), 'GET', '/api/Admin/NoticeDeliveries', { token: adminToken, query: { status: 'failed' } });
      expect(page.data.find((d: any) => d.userId === a.userId)).toMatchObject({ title: '待审批：服务器停机', status: 'failed', attempts: MAX_ATTEMPTS, channelName: '邮件' });
    } finally {
      await configure();
    }
    expect(mailsTo(a.email)).toEqual([]);
  });

  test('the test mail goes out now; a wrong password or port answers a Chinese error; the password never comes back; administrators only', async () => {
    const sent = await ok(app(), 'POST', '/api/Admin/MailSettings/Test', { token: adminToken, body: { to: 'ops@example.com' } });
    expect(sent.message).toBe('测试邮件已发送到 ops@example.com，请查收');
    expect(mailsTo('ops@example.com').map((m) => m.subject)).toEqual(['【星河文档】测试邮件']);

    const got = await call(app(), 'GET', '/api/Admin/MailSettings', { token: adminToken });
    expect(got.body.result).toMatchObject({ enabled: true, host: '127.0.0.1', port: smtp.port, security: 'none', user: SMTP_USER, hasPassword: true, externalUrl: EXTERNAL });
    expect(got.body.result).not.toHaveProperty('password');
    expect(got.text).not.toContain(SMTP_PASSWORD);
    const stored = await app().db.selectFrom('settings').select('value').where('key', '=', 'mailSettings').executeTakeFirstOrThrow();
    expect(stored.value).not.toContain(SMTP_PASSWORD);
    // a save without a password keeps it
    expect((await ok(app(), 'PUT', '/api/Admin/MailSettings', { token: adminToken, body: { fromName: '文档通知' } })).hasPassword).toBe(true);

    try {
      await configure({ password: 'wrong-password' });
      const badAuth = await call(app(), 'POST', '/api/Admin/MailSettings/Test', { token: adminToken, body: { to: 'ops@example.com' } });
      expect([badAuth.status, badAuth.body.code, badAuth.body.result]).toEqual([502, 50201, null]);
      expect(badAuth.body.message).toMatch(/^测试邮件发送失败：登录邮件服务器失败：账号或密码错误/);

      await configure({ port: await closedPort() });
      const badPort = await call(app(), 'POST', '/api/Admin/MailSettings/Test', { token: adminToken, body: { to: 'ops@example.com' } });
      expect([badPort.status, badPort.body.code]).toEqual([502, 50201]);
      expect(badPort.body.message).toMatch(/^测试邮件发送失败：无法连接邮件服务器 127\.0\.0\.1:\d+：连接被拒绝，请检查服务器地址和端口$/);

      const badTo = await call(app(), 'POST', '/api/Admin/MailSettings/Test', { token: adminToken, body: { to: 'not-an-address' } });
      expect([badTo.status, badTo.body.message]).toEqual([400, '请填写有效的收件邮箱地址']);
      const badSave = await call(app(), 'PUT', '/api/Admin/MailSettings', { token: adminToken, body: { externalUrl: 'docs.example.com' } });
      expect(badSave.status).toBe(400);
      expect(badSave.body.message).toMatch(/外部访问地址/);
    } finally {
      await configure();
    }

    const user = await person('普通用户');
    for (const [method, url, body] of [
      ['GET', '/api/Admin/MailSettings', undefined],
      ['PUT', '/api/Admin/MailSettings', { enabled: false }],
      ['POST', '/api/Admin/MailSettings/Test', { to: 'x@example.com' }],
      ['GET', '/api/Admin/NoticePolicy', undefined],
      ['PUT', '/api/Admin/NoticePolicy', { dailyHour: 9 }],
      ['GET', '/api/Admin/NoticeDeliveries', undefined],
    ] as const) {
      const r = await call(app(), method, url, { token: user.token, body });
      expect([url, r.status, r.body.code]).toEqual([url, 403, 40301]);
      expect(r.body.message).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(mailsTo('x@example.com')).toEqual([]);
  });

  test('two senders at once never mail a notice twice; a sender stopped between claiming and sending leaves it failed, not sent again', async () => {
    const [initiator, a] = await Promise.all([person('发起人'), person('并发')]);
    const def = await define([a]);
    for (const t of ['并发一', '并发二', '并发三']) await start(initiator, def, t);
    await dispatch();
    const other = await server.restart();
    try {
      await other.services.dispatcher.stop();
      await other.services.noticeMailer.stop();
      const rounds = [() => other.services.noticeMailer.runOnce(), () => mailer().runOnce(), () => other.services.noticeMailer.runOnce()];
      // on PostgreSQL the instances' rounds run at once; on SQLite they take turns (see notices.test.ts)
      const results = kind === 'postgres' ? await Promise.all(rounds.map((r) => r())) : [await rounds[0](), await rounds[1](), await rounds[2]()];
      expect(results.reduce((s, r) => s + r.messages, 0)).toBe(3);
    } finally {
      await other.close();
    }
    expect(mailsTo(a.email).map((m) => m.subject).sort()).toEqual(['【星河文档】待审批：并发一', '【星河文档】待审批：并发三', '【星河文档】待审批：并发二'].sort());

    // a sender claims the row, then stops before sending
    await start(initiator, def, '中断');
    await dispatch();
    const now = Date.now();
    const [claimed] = (await deliveriesOf(a)).filter((d) => d.title === '待审批：中断');
    await app().db.updateTable('notice_deliveries').set({ status: 'sending', claimed_by: 'stopped-instance:1', claimed_at: now }).where('id', '=', claimed.id).execute();
    expect((await mailer().runOnce(now)).messages).toBe(0);
    expect((await mailer().runOnce(now + CLAIM_TTL_MS - 1)).failed).toBe(0);
    expect((await mailer().runOnce(now + CLAIM_TTL_MS + 1)).failed).toBe(1);
    const [after] = (await deliveriesOf(a)).filter((d) => d.title === '待审批：中断');
    expect(after.status).toBe('failed');
    expect(after.reason).toMatch(/无法确认是否已送达/);
    expect(mailsTo(a.email).filter((m) => m.subject.includes('中断'))).toEqual([]);
  });

  test('the sender’s own round mails an urgent notice within seconds', async () => {
    const [initiator, a] = await Promise.all([person('发起人'), person('自动')]);
    const def = await define([a]);
    app().services.dispatcher.start(200);
    mailer().start(200);
    try {
      const started = Date.now();
      await start(initiator, def, '自动发送');
      while (Date.now() - started < 8000 && !mailsTo(a.email).length) await new Promise((r) => setTimeout(r, 50));
      expect(mailsTo(a.email).map((m) => m.subject)).toEqual(['【星河文档】待审批：自动发送']);
    } finally {
      await app().services.dispatcher.stop();
      await mailer().stop();
    }
  });
});
