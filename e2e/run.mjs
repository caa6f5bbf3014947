#!/usr/bin/env node
// Runs the end-to-end tests: `node --test --test-concurrency=1 e2e/tests/`.
// Prints node:test's own report and summary (spec reporter) and keeps a TAP copy in
// e2e/artifacts/e2e.tap, from which it prints `e2e: N passed, N failed, N skipped`.
// With E2E_RESULTS=<file> it also writes those counts as JSON (scripts/test-all.mjs reads it).
// Extra arguments are passed to node --test (e.g. --test-name-pattern=simple).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');
fs.rmSync(ARTIFACTS, { recursive: true, force: true }); // only this run's screenshots
fs.mkdirSync(ARTIFACTS, { recursive: true });
const tapFile = path.join(ARTIFACTS, 'e2e.tap');

const args = [
  '--test',
  '--test-concurrency=1',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tapFile}`,
  ...process.argv.slice(2),
  'e2e/tests/',
];

const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: process.env });
const forward = (sig) => () => child.kill(sig);
process.on('SIGINT', forward('SIGINT'));
process.on('SIGTERM', forward('SIGTERM'));

child.on('exit', (code, signal) => {
  const counts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  let tap = '';
  try {
    tap = fs.readFileSync(tapFile, 'utf8');
  } catch {
    /* the run died before writing */
  }
  const num = (name) => {
    const m = tap.match(new RegExp(`^# ${name} (\\d+)$`, 'm'));
    return m ? Number(m[1]) : 0;
  };
  if (tap) {
    counts.total = num('tests');
    counts.passed = num('pass');
    counts.failed = num('fail') + num('cancelled');
    counts.skipped = num('skipped') + num('todo');
  }
  const ok = code === 0 && counts.failed === 0;
  if (!ok && counts.failed === 0) counts.failed = 1; // the runner itself failed (crash, signal)
  console.log(`\ne2e: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` +
    (signal ? ` (runner killed by ${signal})` : '') +
    (fs.readdirSync(ARTIFACTS).some((f) => f.endsWith('.png')) && counts.failed ? ` — screenshots in ${path.relative(ROOT, ARTIFACTS)}/` : ''));
  if (process.env.E2E_RESULTS) fs.writeFileSync(process.env.E2E_RESULTS, JSON.stringify({ ...counts, exitCode: code, signal }));
  process.exit(ok ? 0 : 1);
});
