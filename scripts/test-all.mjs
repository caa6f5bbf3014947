#!/usr/bin/env node
// `npm test`: every check of the repository, in order, with streamed output:
//   1. typecheck (web packages, then the server)
//   2. jest, all projects (TEST_DATABASE_URL is passed through to the server tests)
//   3. docker-compose config validation (skipped when docker-compose is not installed)
//   4. npm run build
//   5. end-to-end tests against the built product (node e2e/run.mjs)
// Ends with one line `N passed, N failed, N skipped` and exits non-zero if anything failed.
// A typecheck, validation or build step counts as one test.
//
// Options: --skip-e2e, --skip-build (use the existing dist/ folders), --only=<step,...>
// (step ids: typecheck-web, typecheck-server, jest, compose, build, e2e).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',').filter(Boolean);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-test-all-'));

const totals = { passed: 0, failed: 0, skipped: 0 };
const rows = [];

function hasCommand(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (err) => {
      console.error(`cannot run ${cmd}: ${err.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function fmt(ms) {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * @param {string} id
 * @param {string} title
 * @param {() => Promise<{passed:number, failed:number, skipped:number, note?:string}>} fn
 */
async function step(id, title, fn) {
  if (only && !only.includes(id)) return null;
  console.log(process.stdout.isTTY ? `\n\u001b[1m━━ ${title}\u001b[0m  (${id})\n` : `\n━━ ${title}  (${id})\n`);
  const t0 = Date.now();
  let r;
  try {
    r = await fn();
  } catch (err) {
    console.error(err);
    r = { passed: 0, failed: 1, skipped: 0, note: `crashed: ${err.message}` };
  }
  const ms = Date.now() - t0;
  totals.passed += r.passed;
  totals.failed += r.failed;
  totals.skipped += r.skipped;
  rows.push({ id, ...r, ms });
  const status = r.failed ? 'FAILED' : r.passed ? 'ok' : 'skipped';
  console.log(`\n── ${id}: ${status} — ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${r.note ? ` (${r.note})` : ''} in ${fmt(ms)}`);
  return r;
}

const single = (code, note) => (code === 0 ? { passed: 1, failed: 0, skipped: 0, note } : { passed: 0, failed: 1, skipped: 0, note: note ?? `exit code ${code}` });

const started = Date.now();

await step('typecheck-web', 'Typecheck: shared, shell, remotes (tsc -p tsconfig.json)', async () =>
  single(await run('npx', ['--no', '--', 'tsc', '-p', 'tsconfig.json'])));

await step('typecheck-server', 'Typecheck: server (tsc -p server/tsconfig.json --noEmit)', async () => {
  if (!fs.existsSync(path.join(ROOT, 'server', 'tsconfig.json'))) return single(1, 'server/tsconfig.json is missing');
  return single(await run('npx', ['--no', '--', 'tsc', '-p', 'server/tsconfig.json', '--noEmit']));
});

await step('jest', 'Unit and API tests (jest, all projects)', async () => {
  const out = path.join(tmp, 'jest.json');
  const env = {};
  if (process.env.TEST_DATABASE_URL) console.log(`TEST_DATABASE_URL=${process.env.TEST_DATABASE_URL.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}`);
  else console.log('TEST_DATABASE_URL is not set: the server tests run on SQLite only');
  // both cores: the suites are independent (each server suite has its own data folder and database)
  const code = await run('npx', ['--no', '--', 'jest', '--ci', '--maxWorkers=2', '--passWithNoTests', '--json', `--outputFile=${out}`], env);
  let j;
  try {
    j = JSON.parse(fs.readFileSync(out, 'utf8'));
  } catch {
    return { passed: 0, failed: 1, skipped: 0, note: `jest wrote no results (exit code ${code})` };
  }
  // suites that could not run (syntax error, failing import) have no failing test: count each once
  const brokenSuites = (j.testResults || []).filter((s) => s.status === 'failed' && !(s.assertionResults || []).some((a) => a.status === 'failed')).length;
  const r = {
    passed: j.numPassedTests || 0,
    failed: (j.numFailedTests || 0) + brokenSuites,
    skipped: (j.numPendingTests || 0) + (j.numTodoTests || 0),
  };
  if (code !== 0 && r.failed === 0) {
    r.failed = 1;
    r.note = `jest exited with ${code}`;
  } else if (brokenSuites) r.note = `${brokenSuites} suite(s) failed to run`;
  return r;
});

await step('compose', 'Deployment: docker-compose -f docker-compose.yml config -q', async () => {
  if (!hasCommand('docker-compose')) {
    console.log('docker-compose is not installed: skipped (.ci/run installs it)');
    return { passed: 0, failed: 0, skipped: 1, note: 'docker-compose not installed' };
  }
  return single(await run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q']));
});

let buildOk = true;
if (flag('skip-build')) {
  console.log('\n--skip-build: using the existing dist/ folders');
} else {
  const r = await step('build', 'Build every package (npm run build)', async () => single(await run('npm', ['run', 'build'])));
  if (r && r.failed) buildOk = false;
}

if (!flag('skip-e2e')) {
  await step('e2e', 'End-to-end tests in headless chromium (node e2e/run.mjs)', async () => {
    if (!buildOk) {
      console.log('not run: the build failed, so there is no product to test');
      return { passed: 0, failed: 0, skipped: 1, note: 'build failed' };
    }
    const out = path.join(tmp, 'e2e.json');
    const code = await run(process.execPath, ['e2e/run.mjs'], { E2E_RESULTS: out });
    try {
      const j = JSON.parse(fs.readFileSync(out, 'utf8'));
      const r = { passed: j.passed, failed: j.failed, skipped: j.skipped };
      if (code !== 0 && r.failed === 0) r.failed = 1;
      return r;
    } catch {
      return { passed: 0, failed: 1, skipped: 0, note: `e2e wrote no results (exit code ${code})` };
    }
  });
}

fs.rmSync(tmp, { recursive: true, force: true });

console.log('\n━━ Summary');
const w = Math.max(...rows.map((r) => r.id.length), 4);
console.log(`${'step'.padEnd(w)}  ${'passed'.padStart(6)}  ${'failed'.padStart(6)}  ${'skipped'.padStart(7)}  time`);
for (const r of rows) {
  console.log(`${r.id.padEnd(w)}  ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${String(r.skipped).padStart(7)}  ${fmt(r.ms)}${r.note ? `  ${r.note}` : ''}`);
}
console.log(`total time ${fmt(Date.now() - started)}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed ? 1 : 0);
