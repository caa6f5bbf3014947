// Figure 12: a restart. README's `npm start` in the built tree with unchanged sources
// (scripts/build-changed.mjs finds every build current and builds nothing), timed from the
// spawn until /runtime-config.json answers, on a fresh DATA_DIR each time (SQLite, local disk);
// against the server alone (`node server/dist/server.js`, what `npm start` ends in) started the
// same way. Median of BENCH_RESTART_RUNS (default 3) each, taken in turn. Goal: ≤ 5 s.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ADMIN_PASSWORD, ADMIN_USER, freePort, missingBuilds, sleep } from '../../e2e/harness.mjs';
import { ROOT, median, ms, printTable } from '../lib/util.mjs';

export const id = 'restart';
export const title = 'Figure 12: a restart with unchanged sources — npm start until the product answers';

const RUNS = Number(process.env.BENCH_RESTART_RUNS || 3);
const GOAL_MS = 5000;

/** Milliseconds from spawning `cmd args` until the server it starts answers; then it is stopped. */
async function timeToAnswer(cmd, args, cwd) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-restart-'));
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_USER, ADMIN_PASSWORD, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  delete env.DATABASE_URL;
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: 'ignore' });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited (${child.exitCode}) before it answered`);
      const ok = await fetch(`http://127.0.0.1:${port}/runtime-config.json`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
      if (ok) return performance.now() - t0;
      if (performance.now() - t0 > 600_000) throw new Error('no answer within 10 minutes');
      await sleep(20);
    }
  } finally {
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run() {
  const missing = missingBuilds('server/dist/server.js', 'shell/dist/index.html', 'shell/dist/.build-inputs');
  if (missing) throw new Error(missing);
  const npm = [];
  const alone = [];
  for (let i = 0; i < RUNS; i++) {
    npm.push(await timeToAnswer('npm', ['start'], ROOT));
    alone.push(await timeToAnswer(process.execPath, ['dist/server.js'], path.join(ROOT, 'server')));
  }
  const npmMs = median(npm);
  const aloneMs = median(alone);
  printTable(
    [
      { key: 'what', title: 'started with' },
      { key: 'runs', title: 'runs' },
      { key: 'median', title: 'until it answers (median)', align: 'right' },
      { key: 'ratio', title: 'against the server alone', align: 'right' },
    ],
    [
      { what: 'baseline: node server/dist/server.js', runs: alone.map(ms).join(', '), median: ms(aloneMs), ratio: '1.00×' },
      { what: `npm start, sources unchanged (goal ≤ ${GOAL_MS / 1000} s)`, runs: npm.map(ms).join(', '), median: `${ms(npmMs)} ${npmMs <= GOAL_MS ? 'PASS' : 'MISS'}`, ratio: `${(npmMs / aloneMs).toFixed(2)}×` },
    ],
  );
  return { npmMs, aloneMs, goalMs: GOAL_MS, met: npmMs <= GOAL_MS };
}
