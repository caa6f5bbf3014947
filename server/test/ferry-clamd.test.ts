// 云文档's antivirus through clamd (CLAMD_SOCKET): a real clamd from Debian's clamav-daemon,
// started on a private socket with a hand-made signature database (signature updates need the
// internet), answers VERSION and INSTREAM scans; a socket nobody listens on says what is missing.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClamdScanner } from '../src/modules/ferry/antivirus';

const CLAMD = '/usr/sbin/clamd';
const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
const maybe = fs.existsSync(CLAMD) ? describe : describe.skip;

maybe('clamd', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-clamd-'));
  const socket = path.join(dir, 'clamd.sock');
  let proc: ChildProcess;

  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, 'db'));
    fs.writeFileSync(path.join(dir, 'db', 'test.hdb'), `${crypto.createHash('md5').update(EICAR).digest('hex')}:${EICAR.length}:Test.EICAR.Clamd\n`);
    const conf = path.join(dir, 'clamd.conf');
    fs.writeFileSync(
      conf,
      [`Foreground yes`, `LocalSocket ${socket}`, `DatabaseDirectory ${path.join(dir, 'db')}`, `TemporaryDirectory ${dir}`, `PidFile ${path.join(dir, 'clamd.pid')}`].join('\n') + '\n',
    );
    proc = spawn(CLAMD, ['-c', conf], { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    while (!fs.existsSync(socket)) {
      if (Date.now() > deadline) throw new Error('clamd did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => {
    proc?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('names its engine, passes a clean file, finds the signature in another, streamed in chunks', async () => {
    const scanner = new ClamdScanner(socket);
    expect(await scanner.engine()).toMatch(/^ClamAV [\d.]+ \(clamd\)$/);
    expect(await scanner.missing()).toBe('');
    const clean = path.join(dir, 'clean.bin');
    fs.writeFileSync(clean, crypto.randomBytes(300 * 1024));
    expect(await scanner.scan(clean)).toEqual({ verdict: 'clean', detail: '' });
    const bad = path.join(dir, 'eicar.txt');
    fs.writeFileSync(bad, EICAR);
    expect(await scanner.scan(bad)).toEqual({ verdict: 'infected', detail: expect.stringMatching(/Test\.EICAR\.Clamd/) });
  });

  test('a socket nobody listens on: no engine, the reason in Chinese, a scan that cannot pass', async () => {
    const scanner = new ClamdScanner(path.join(dir, 'nobody.sock'));
    expect(await scanner.engine()).toBe('');
    expect(await scanner.missing()).toMatch(/无法连接 clamd/);
    expect((await scanner.scan(__filename)).verdict).toBe('error');
  });
});
