// rclone (Debian's, the tool people back up with) against /dav/ (issue 29): a tree of 1,000
// files (folders three deep, Chinese names with spaces and signs, empty files, one of 100 MB)
// synced up, then down into an empty folder and compared with the original, byte-exact (SHA-256
// of every file); a second sync up transfers nothing; a change, a new file and a removal locally
// are exactly what the next sync sends (the removed file goes to the recycle bin), and the tree
// synced down again is the changed one. Skipped where rclone is not installed (.ci/run installs it).
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { databaseKinds, login, ok, startServer, userWithToken, type TestServer } from './support/harness';

const RCLONE = '/usr/bin/rclone';
const FILES = 1000;
const BIG = 100 * 1024 * 1024;

interface RcloneRun {
  code: number;
  output: string;
}

/** The tree: 10 folders × 10 sub-folders (some with a third level) and the files spread over them. */
function makeTree(root: string): Map<string, string> {
  const digests = new Map<string, string>();
  const write = (rel: string, content: Buffer) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    digests.set(rel, crypto.createHash('sha256').update(content).digest('hex'));
  };
  const signs = ['', ' 副本', '（终稿）', ' #1', ' 100%', '＆合同'];
  let n = 0;
  for (let a = 0; a < 10; a++) {
    for (let b = 0; b < 10; b++) {
      const dir = b % 3 === 2 ? `部门 ${a}/项目-${b}/第三层 资料` : `部门 ${a}/项目-${b}`;
      for (let c = 0; c < 10 && n < FILES - 1; c++, n++) {
        // every 20th file empty, the rest 1–6 KB of random bytes
        const size = n % 20 === 0 ? 0 : 1024 + ((n * 7919) % 5120);
        write(`${dir}/文件 ${n}${signs[n % signs.length]}.${['txt', 'md', 'bin', 'docx'][n % 4]}`, crypto.randomBytes(size));
      }
    }
  }
  // the one large file, written in pieces (never 100 MB in memory at once)
  const big = path.join(root, '大文件/备份 2026.bin');
  fs.mkdirSync(path.dirname(big), { recursive: true });
  const fd = fs.openSync(big, 'w');
  const hash = crypto.createHash('sha256');
  for (let left = BIG; left > 0; left -= 4 * 1024 * 1024) {
    const piece = crypto.randomBytes(Math.min(left, 4 * 1024 * 1024));
    fs.writeSync(fd, piece);
    hash.update(piece);
  }
  fs.closeSync(fd);
  digests.set('大文件/备份 2026.bin', hash.digest('hex'));
  return digests;
}

/** The SHA-256 of a file, read as a stream. */
async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file under `root` by its relative path, with its SHA-256. */
async function digestsOf(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out.set(path.relative(root, full).split(path.sep).join('/'), await sha256Of(full));
    }
  };
  await walk(root);
  return out;
}

// On SQLite only: a thousand uploads take minutes on two cores, and the WebDAV paths it goes
// through are the same on PostgreSQL, where webdav.test.ts and its litmus suites run them.
describe.each(databaseKinds().filter((k) => k === 'sqlite'))('rclone against WebDAV (%s)', (kind) => {
  let server: TestServer;
  let work: string;
  let env: NodeJS.ProcessEnv;
  let token: string;

  const rclone = (...args: string[]): Promise<RcloneRun> =>
    new Promise((resolve) => {
      execFile(RCLONE, [...args, '--config', '/dev/null', '-v', '--stats', '0', '--retries', '1', '--low-level-retries', '1'], { env, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
      });
    });
  /** what a sync or copy says it transferred (its INFO lines) */
  const transferred = (run: RcloneRun) => run.output.split('\n').filter((l) => /: (Copied|Updated|Deleted)/.test(l));

  beforeAll(async () => {
    if (!fs.existsSync(RCLONE)) return;
    server = await startServer(kind);
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (server.app.server.address() as AddressInfo).port;
    const adminToken = (await login(server.app)).token as string;
    const person = await userWithToken(server.app, adminToken);
    token = person.token;
    // room for the tree and its versions
    await ok(server.app, 'PUT', `/api/Admin/Users/${person.userId}`, { token: adminToken, body: { quota: 1024 * 1024 * 1024 } });
    const { password } = await ok(server.app, 'POST', '/api/Account/AppPasswords', { token, body: { name: 'rclone 备份', scope: 'readWrite' } });
    const obscured: string = await new Promise((resolve, reject) =>
      execFile(RCLONE, ['obscure', password], (err, stdout) => (err ? reject(err) : resolve(stdout.trim()))),
    );
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-rclone-'));
    env = {
      PATH: process.env.PATH,
      HOME: work,
      RCLONE_CONFIG_YD_TYPE: 'webdav',
      RCLONE_CONFIG_YD_URL: `http://127.0.0.1:${port}/dav/${encodeURIComponent('个人文件')}`,
      RCLONE_CONFIG_YD_VENDOR: 'other',
      RCLONE_CONFIG_YD_USER: person.userName,
      RCLONE_CONFIG_YD_PASS: obscured,
    };
  }, 120_000);
  afterAll(async () => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
    if (server) await server.close();
  });

  (fs.existsSync(RCLONE) ? test : test.skip)(
    'a tree of 1,000 files with a 100 MB one syncs up and down byte-exact; a second sync transfers nothing; changes sync as changes',
    async () => {
      const up = path.join(work, 'up');
      const down = path.join(work, 'down');
      const made = makeTree(up);
      expect(made.size).toBe(FILES);

      const first = await rclone('sync', up, 'yd:备份', '--transfers', '4', '--checkers', '8');
      expect(first.output).not.toMatch(/ERROR/);
      expect(first.code).toBe(0);
      expect(transferred(first).filter((l) => l.includes('Copied (new)'))).toHaveLength(FILES);

      const second = await rclone('sync', up, 'yd:备份', '--transfers', '4', '--checkers', '8');
      expect(second.code).toBe(0);
      expect(transferred(second)).toEqual([]);

      const back = await rclone('sync', 'yd:备份', down, '--transfers', '4', '--checkers', '8');
      expect(back.code).toBe(0);
      expect(await digestsOf(down)).toEqual(made);

      // a change, a new file and a removal: exactly those travel
      const names = [...made.keys()];
      const changed = names.find((n) => n.includes('/文件 341'))!;
      const removed = names.find((n) => n.includes('/文件 990'))!;
      fs.writeFileSync(path.join(up, changed), '改过的内容，长度也不同了\n');
      fs.writeFileSync(path.join(up, '部门 0/新增 说明.md'), '# 新增\n');
      fs.rmSync(path.join(up, removed));
      const third = await rclone('sync', up, 'yd:备份', '--transfers', '4', '--checkers', '8');
      expect(third.code).toBe(0);
      const lines = transferred(third).sort();
      expect(lines).toHaveLength(3);
      expect(lines.some((l) => l.includes(changed) && /Copied \(replaced existing\)|Updated/.test(l))).toBe(true);
      expect(lines.some((l) => l.includes('新增 说明.md') && l.includes('Copied (new)'))).toBe(true);
      expect(lines.some((l) => l.includes(removed) && l.includes('Deleted'))).toBe(true);
      // the removed file is in the recycle bin, not gone
      const bin = await ok(server.app, 'GET', '/api/User/Recycle', { token });
      expect(JSON.stringify(bin)).toContain(path.basename(removed));
      // and what is there now is the tree as it is now, file for file and byte for byte
      for (const rel of [changed, '部门 0/新增 说明.md']) made.set(rel, await sha256Of(path.join(up, rel)));
      made.delete(removed);
      const again = await rclone('sync', 'yd:备份', down, '--transfers', '4', '--checkers', '8');
      expect(again.code).toBe(0);
      expect(await digestsOf(down)).toEqual(made);
    },
    600_000,
  );
});
