// A restart (issue 30): README's `npm start`, run in the built tree, builds nothing (every
// package's sources are those of its build: scripts/build-changed.mjs) and serves the build
// that is there: the sign-in page and the API answer, on a fresh DATA_DIR (SQLite, local disk).
// How fast it answers is bench figure 1's restart line, not a timed test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, ROOT, freePort, missingBuilds, sleep } from '../harness.mjs';

const missing = missingBuilds();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-restart-'));
let child = null;

after(() => {
  if (child && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('npm start in a built tree builds nothing and serves the existing build', { skip: missing ?? false, timeout: 120_000 }, async () => {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_USER, ADMIN_PASSWORD, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  delete env.DATABASE_URL;
  child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  let answered = false;
  for (let i = 0; i < 600 && !answered; i++) {
    if (child.exitCode !== null) break;
    answered = await fetch(`${url}/runtime-config.json`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
    if (!answered) await sleep(100);
  }
  assert.ok(answered, `npm start did not answer:\n${output.slice(-3000)}`);
  assert.match(output, /源文件没有变化，使用已有的构建/);
  assert.doesNotMatch(output, /云文档：构建 /);
  const page = await fetch(`${url}/login`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<div id="root">|<!doctype html>/i);
  const policy = await (await fetch(`${url}/api/Login/PasswordPolicy`)).json();
  assert.equal(policy.code, 200);
});
