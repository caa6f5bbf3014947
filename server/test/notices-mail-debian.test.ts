// Notice mails to an SMTP server from Debian's packages: aiosmtpd (python3-aiosmtpd, which
// .ci/run installs) listening on 127.0.0.1 and writing what it receives into a maildir. The
// product's test mail and an approval waiting arrive there, read back with mailparser, on SQLite
// and PostgreSQL.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { createUser, databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { defineOneStepFlow, startRequest } from './support/workflow';

const PYTHON = '/usr/bin/python3';
/** Debian's python3-aiosmtpd (.ci/run installs it); without it this suite is skipped and says so. */
const available = spawnSync(PYTHON, ['-c', 'import aiosmtpd'], { stdio: 'ignore' }).status === 0;
if (!available) console.warn('未安装 Debian 软件包 python3-aiosmtpd：跳过经 aiosmtpd 收信的测试');

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** aiosmtpd on a free port with its Mailbox handler: every message a file in `<dir>/box/new`. */
async function startAiosmtpd() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-maildir-'));
  const box = path.join(dir, 'box');
  const port = await freePort();
  const child: ChildProcess = spawn(PYTHON, ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, '-c', 'aiosmtpd.handlers.Mailbox', box], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (i > 100 || child.exitCode !== null) throw new Error(`aiosmtpd (Debian package python3-aiosmtpd) did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const received = async () => {
    const dirNew = path.join(box, 'new');
    const files = fs.existsSync(dirNew) ? fs.readdirSync(dirNew) : [];
    return Promise.all(files.map(async (f) => simpleParser(fs.readFileSync(path.join(dirNew, f)))));
  };
  return {
    port,
    received,
    async close() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

(available ? describe.each(databaseKinds()) : describe.skip.each(databaseKinds()))('notice mails through Debian’s aiosmtpd (%s)', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let smtp: Awaited<ReturnType<typeof startAiosmtpd>>;

  beforeAll(async () => {
    smtp = await startAiosmtpd();
    server = await startServer(kind);
    await server.app.services.dispatcher.stop();
    await server.app.services.noticeMailer.stop();
    adminToken = (await login(server.app)).token;
    await ok(server.app, 'PUT', '/api/Admin/MailSettings', {
      token: adminToken,
      body: { enabled: true, host: '127.0.0.1', port: smtp.port, security: 'none', user: '', from: 'noreply@example.com', fromName: '云文档', externalUrl: 'https://docs.example.com/' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  test('the test mail and an approval waiting arrive, in Chinese, with a link back to the request', async () => {
    const app = server.app;
    const sent = await ok(app, 'POST', '/api/Admin/MailSettings/Test', { token: adminToken, body: { to: 'ops@example.com' } });
    expect(sent.message).toBe('测试邮件已发送到 ops@example.com，请查收');

    const tag = crypto.randomUUID().slice(0, 6);
    const approver = await createUser(app, adminToken, { nickName: `审批人${tag}` });
    await ok(app, 'PUT', `/api/Admin/Users/${approver.userId}`, { token: adminToken, body: { email: `approver-${tag}@example.com` } });
    const initiator = await createUser(app, adminToken, { nickName: `申请人${tag}` });
    const definitionId = await defineOneStepFlow(app, adminToken, [approver.userId], `报销-${tag}`);
    const session = await login(app, initiator.userName, initiator.password);
    const instanceId = await startRequest(app, session.token, definitionId, `差旅报销-${tag}`);
    await app.services.dispatcher.runOnce();
    await app.services.noticeMailer.runOnce();

    const mails = await smtp.received();
    const test = mails.find((m) => m.subject === '【云文档】测试邮件');
    expect(test).toBeTruthy();
    const waiting = mails.find((m) => (m.subject ?? '').includes(`差旅报销-${tag}`));
    expect(waiting).toBeTruthy();
    expect(waiting!.to && 'text' in waiting!.to ? waiting!.to.text : '').toContain(`approver-${tag}@example.com`);
    expect(waiting!.text).toContain(`https://docs.example.com/workflow/informationDetails?id=${instanceId}`);
    expect(waiting!.text).toContain(`申请人${tag}`);
  });
});
