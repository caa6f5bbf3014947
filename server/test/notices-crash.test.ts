// The notices' outbox across kill -9, with the real server as a child process: a request is
// started while the dispatcher's lease is held by an instance that has gone away, so its event is
// committed and not yet worked; the server is killed with SIGKILL, started again, takes the lease
// once it runs out, and the approver gets exactly one notice and exactly one mail.
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { api, CHILD_ADMIN_PASSWORD, childData, type ChildData, type ChildServer } from './support/child-server';

jest.setTimeout(240_000);

const kinds: ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startSmtp() {
  const inbox: { to: string[]; subject: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((m) => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: m.subject ?? '' });
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { inbox, port: (server.server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Runs one statement on the child's database from here. */
async function sql(data: ChildData, text: string, params: unknown[]): Promise<any[]> {
  if (data.databaseUrl) {
    const c = new pg.Client({ connectionString: data.databaseUrl });
    await c.connect();
    try {
      let i = 0;
      return (await c.query(text.replace(/\?/g, () => `$${++i}`), params)).rows;
    } finally {
      await c.end();
    }
  }
  const db = new Database(path.join(data.dataDir, 'app.db'));
  try {
    db.pragma('busy_timeout = 10000');
    const st = db.prepare(text);
    return st.reader ? st.all(...params) : (st.run(...params), []);
  } finally {
    db.close();
  }
}

describe.each(kinds)('notices across kill -9 (%s)', (kind) => {
  let data: ChildData;
  let server: ChildServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    data = await childData(kind);
    server = await data.start();
  });
  afterAll(async () => {
    await data?.dispose();
    await smtp?.close();
  });

  test('an event committed before the kill is dispatched once after the restart: one notice, one mail', async () => {
    const ok = async (method: string, url: string, o: { token?: string; body?: unknown } = {}) => {
      const r = await api(server.url, method, url, o);
      if (r.status !== 200 || r.body?.code !== 200) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.result;
    };
    const signIn = async (userName: string, password: string) => (await ok('POST', '/api/login', { body: { userName, password, mode: 'password' } })).token as string;
    const admin = await signIn('admin', CHILD_ADMIN_PASSWORD);
    await ok('PUT', '/api/Admin/MailSettings', {
      token: admin,
      body: { enabled: true, host: '127.0.0.1', port: smtp.port, security: 'none', user: '', from: 'noreply@example.com', fromName: '', externalUrl: 'https://docs.example.com/' },
    });
    const tag = crypto.randomUUID().slice(0, 6);
    const person = async (label: string) => {
      const password = `Crash-Passw0rd-${label}-${tag}`;
      const { userId } = await ok('POST', '/api/Admin/Users', { token: admin, body: { userName: `${label}${tag}`, nickName: `${label}${tag}`, password, deptId: null, mustChangePassword: false } });
      await ok('PUT', `/api/Admin/Users/${userId}`, { token: admin, body: { email: `${label}${tag}@example.com` } });
      return { userId, token: await signIn(`${label}${tag}`, password) };
    };
    const approver = await person('approver');
    const initiator = await person('initiator');
    const definition = await ok('POST', '/api/Workflow/Definitions', {
      token: admin,
      body: {
        name: `采购-${tag}`, category: '采购', description: '', enabled: true,
        fields: [{ key: 'reason', label: '事由', type: 'textarea', required: true }], allowFiles: false,
        steps: [{ name: '主管', mode: 'sequential', approvers: [{ type: 'user', id: approver.userId }] }], cc: [], revoke: 'processing',
      },
    });

    // the dispatcher's lease belongs to an instance that went away: it runs out in a few seconds
    const until = Date.now() + 6_000;
    await sql(data, 'delete from job_leases where name = ?', ['notice-dispatch']);
    await sql(data, 'insert into job_leases (name, holder, until) values (?, ?, ?)', ['notice-dispatch', 'gone-instance', until]);
    const title = `采购申请-${tag}`;
    await ok('POST', '/api/Workflow/Instances', { token: initiator.token, body: { definitionId: definition.id, title, form: { reason: '急需' }, fileIds: [] } });
    await sleep(1_500);
    const pending = await sql(data, 'select id, dispatched_at from events where kind = ?', ['workflow.changed']);
    expect(pending).toHaveLength(1);
    expect(pending[0].dispatched_at).toBeNull();
    expect(await sql(data, 'select id from notices where user_id = ?', [Number(approver.userId)])).toHaveLength(0);

    await data.kill(server);
    server = await data.start();

    const waitingFor = async () => (await ok('GET', '/api/Notices?page=1&pageSize=20', { token: approver.token })).data.filter((n: any) => n.title === `待审批：${title}`);
    const deadline = Date.now() + 30_000;
    while ((await waitingFor()).length === 0 || !smtp.inbox.some((m) => m.subject.includes(title))) {
      if (Date.now() > deadline) throw new Error(`not delivered after the restart:\n${server.output()}`);
      await sleep(250);
    }
    expect(Date.now()).toBeGreaterThanOrEqual(until);
    // a few more rounds change nothing
    await sleep(3_000);
    expect(await waitingFor()).toHaveLength(1);
    expect(smtp.inbox.filter((m) => m.subject.includes(title)).map((m) => m.to)).toEqual([[`approver${tag}@example.com`]]);
    const events = await sql(data, 'select dispatched_at from events where kind = ?', ['workflow.changed']);
    expect(events[0].dispatched_at).not.toBeNull();
  });
});
