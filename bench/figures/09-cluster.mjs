// Figure 9: several instances (README "docker-compose", cluster; docs/integration.md "Object
// storage and several instances"), each line against a baseline measured in the same run. The
// built server runs as e2e starts it, on PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres: databases yd_bench_cluster_* are created next to
// it and dropped at the end) with its contents in a private S3 store (scripts/rgw.sh: Ceph's
// RADOS Gateway, objects in memory), one SECRET_KEY, TRUST_PROXY=1, LOG_LEVEL=warn.
// 1. Load: N simulated users (bench/lib/cluster-load.mjs, a process of its own), each signed in
//    and in a closed loop, doing folder listings, name searches, downloads,
//    small uploads (the web client's calls for a file of one chunk) and now and then a zip task
//    (create, Status every 3 s like the page, the zip), through nginx (deploy/nginx/cluster.conf
//    itself, its upstream servers replaced and its per-address limit_conn left out: every
//    simulated user comes from 127.0.0.1) to ONE instance, then the same through nginx
//    round-robin to TWO instances (same database, same bucket, separate DATA_DIRs). Each
//    configuration starts from a fresh database and bucket, seeded alike, and is measured twice:
//    as people use it (think times of 3 s on average between a user's actions: the latency, goal
//    p95 of the metadata calls ≤ 100 ms with one instance) and at capacity (no think time: every
//    user sends its next request as soon as the last is answered; goal requests/s two/one ≥ 1.3×).
//    Printed for both: requests, errors (goal 0), p50/p95/p99 of the metadata calls (listings and
//    searches), requests/s, and the CPU seconds every process used
//    in the measured window, read from /proc: the load generator, nginx, each instance, the
//    PostgreSQL backends of the database (and the server's other processes), rgw (its monitor,
//    OSD and gateway), and the rest of the machine.
// 2. Transfer: a file of BENCH_CLUSTER_TRANSFER_MB (1024) random bytes uploaded through the chunk
//    API (CheckAndCreateFileInfo, 5 MB chunks 3 in flight with e2e/uploadClient.mjs, UploadMerge2;
//    the whole-file MD5 is made beforehand and not counted) and downloaded with one plain GET,
//    to one instance with S3 storage against one with local storage (both on PostgreSQL), in the
//    same run, alternating. MB/s and S3/local (goal ≥ 0.8).
// BENCH_CLUSTER_USERS (200), BENCH_CLUSTER_SECONDS (60 per configuration),
// BENCH_CLUSTER_WARMUP_SECONDS (a sixth of it, 2–10 s), BENCH_CLUSTER_USER_THINK_MS (3000: the mean
// of the exponential pauses between a user's actions in the latency run), BENCH_CLUSTER_THINK_MS
// (0: the pauses of the capacity run), BENCH_CLUSTER_TRANSFER_MB (1024),
// BENCH_CLUSTER_TRANSFER_RUNS (1) and BENCH_CLUSTER_PARTS=load,transfer change it.
import crypto from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import {
  apiOk, freePort, login, personalRoot, sleep, startServer,
} from '../../e2e/harness.mjs';
import { createUpload, md5File, sendChunks } from '../../e2e/uploadClient.mjs';
import { startObjectStore, warmObjectStore } from '../../e2e/support/rgw.mjs';
import { ROOT, median, printTable, ratio } from '../lib/util.mjs';
import { WORDS, callOk, percentile, seedUsers } from '../lib/load-users.mjs';

export const id = 'cluster';
export const title = 'Figure 9: several instances — 200 users through nginx to one instance, then two (PostgreSQL, S3); a 1 GB transfer on S3 against local storage';

const USERS = Number(process.env.BENCH_CLUSTER_USERS || 200);
const SECONDS = Number(process.env.BENCH_CLUSTER_SECONDS || 60);
const WARMUP_SECONDS = Number(process.env.BENCH_CLUSTER_WARMUP_SECONDS || Math.min(10, Math.max(2, Math.round(SECONDS / 6))));
const TRANSFER_MB = Number(process.env.BENCH_CLUSTER_TRANSFER_MB || 1024);
const TRANSFER_RUNS = Number(process.env.BENCH_CLUSTER_TRANSFER_RUNS || 1);
const THINK_MS = Number(process.env.BENCH_CLUSTER_THINK_MS || 0);
const USER_THINK_MS = Number(process.env.BENCH_CLUSTER_USER_THINK_MS || 3000);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PARTS = new Set((process.env.BENCH_CLUSTER_PARTS || 'load,transfer').split(',').map((p) => p.trim()));
const NGINX = process.env.NGINX || '/usr/sbin/nginx';
const MIX = { list: 40, search: 25, download: 20, upload: 14, zip: 1 };
const SEED_FILES = 5;
const SEED_CONCURRENCY = 16;
const ZIP_POLL_MS = 3_000; // DOWNLOAD_POLL_INTERVAL_MS (shared/src/constants.ts)
const REQUEST_TIMEOUT_MS = 60_000;
const GOAL = { p95Ms: 100, scale: 1.3, s3: 0.8 };
const MB = 1024 * 1024;
const BASE = '/api/User/FileTransfer';
// words of the seeded file names, and the search keywords (with a one-character one and a miss)
const KEYWORDS = [...WORDS, '合', '纪要', 'repo', '不存在的词'];

const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/* ---------------------------------------------------------------- small helpers */

const f1 = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : '');
const s1 = (ms) => `${(ms / 1000).toFixed(1)} s`;
const n = (x) => Number(x).toLocaleString('en');
const pass = (ok) => (ok ? 'PASS' : 'MISS');
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const cpuS = (x) => (Number.isFinite(x) ? x.toFixed(1) : '');
const cores = (x, windowS) => (Number.isFinite(x) ? (x / windowS).toFixed(2) : '');

const stats = (xs = []) => ({ n: xs.length, p50: percentile(xs, 50), p95: percentile(xs, 95), p99: percentile(xs, 99) });

/** Everything started is stopped here, last first, each once, even when another fails. */
class Cleanup {
  constructor() {
    this.steps = [];
  }

  add(name, fn) {
    const step = { name, fn, promise: null };
    this.steps.push(step);
    return () => this.#run(step);
  }

  /** Runs the step once; a second caller waits for the same run (a signal's cleanup and a finally's). */
  #run(step) {
    step.promise ??= (async () => {
      try {
        await step.fn();
      } catch (err) {
        console.error(`cleanup: ${step.name}: ${err.message}`);
      }
    })();
    return step.promise;
  }

  async all() {
    for (const step of [...this.steps].reverse()) await this.#run(step);
  }

  /** A nested list, ended with its own all() or with this one's. */
  scope(name) {
    const inner = new Cleanup();
    this.add(name, () => inner.all());
    return inner;
  }
}

let interrupted = null;

/** A process of ours to end on exit (a signal to its group), should nothing else have. */
const ours = new Set();
process.on('exit', () => {
  for (const p of ours) {
    try {
      process.kill(-p.pid, p.exitSignal);
    } catch {
      /* gone */
    }
  }
});

/* ---------------------------------------------------------------- CPU from /proc */

/** Every process: pid -> { ppid, comm, ticks (utime + stime), cmdline (postgres only) }. */
function readProcesses() {
  const procs = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const rest = stat.slice(close + 2).split(' ');
      // rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15
      const p = { pid: Number(name), ppid: Number(rest[1]), comm, ticks: Number(rest[11]) + Number(rest[12]) };
      if (comm === 'postgres') p.cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      procs.set(p.pid, p);
    } catch {
      /* exited meanwhile */
    }
  }
  return procs;
}

/** The busy and total ticks of the machine (/proc/stat's cpu line; idle and iowait are not busy). */
function readMachine() {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - f[4], total };
}

function descendants(procs, root) {
  const out = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs.values()) {
      if (!out.has(p.pid) && out.has(p.ppid)) {
        out.add(p.pid);
        grew = true;
      }
    }
  }
  return out;
}

function snapshot() {
  return { procs: readProcesses(), machine: readMachine(), at: performance.now() };
}

/**
 * CPU seconds of each group between two snapshots. `groups(procs)` gives name -> Set of pids
 * (from the end snapshot); a pid born inside the window counts from zero. A process that ended
 * inside the window is lost (nothing here ends one on purpose).
 */
function cpuBetween(a, b, groups) {
  const out = {};
  let accounted = 0;
  for (const [name, pids] of Object.entries(groups(b.procs))) {
    let ticks = 0;
    for (const pid of pids) {
      const end = b.procs.get(pid);
      if (!end) continue;
      const start = a.procs.get(pid);
      ticks += end.ticks - (start && start.comm === end.comm ? start.ticks : 0);
    }
    out[name] = ticks / CLK_TCK;
    accounted += ticks;
  }
  const machine = (b.machine.busy - a.machine.busy) / CLK_TCK;
  return { groups: out, machine, rest: machine - accounted / CLK_TCK, windowS: (b.at - a.at) / 1000 };
}

/* ---------------------------------------------------------------- PostgreSQL, rgw, nginx */

let dbSeq = 0;

async function freshDatabase(cleanup) {
  const pg = serverRequire('pg');
  const name = `yd_bench_cluster_${process.pid}_${++dbSeq}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(`PostgreSQL at ${DATABASE_URL.replace(/:[^:@/]*@/, ':…@')} is not reachable (${err.message}): set BENCH_DATABASE_URL=postgres://…`);
  }
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(DATABASE_URL);
  u.pathname = `/${name}`;
  const drop = cleanup.add(`database ${name}`, async () => {
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  return { name, url: u.toString(), drop };
}

/** scripts/rgw.sh through the end-to-end tests' starter, stopped by the figure's cleanup. */
async function startRgw(cleanup) {
  const rgw = await startObjectStore();
  cleanup.add('rgw', () => rgw.stop());
  await warmObjectStore(rgw);
  return rgw;
}

/**
 * nginx as a child (daemon off), everything in a temporary folder, with the http context of
 * deploy/nginx/cluster.conf: its upstream servers replaced by `upstreams`, its listen port by a
 * free one, and its per-address connection limit left out (all the simulated users are one
 * address here).
 */
async function startNginx(cleanup, upstreams) {
  if (!fs.existsSync(NGINX)) throw new Error(`${NGINX} is missing (apt-get install nginx, or NGINX=<path>)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-nginx-'));
  const removeDir = cleanup.add('nginx folder', () => fs.rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  let conf = fs.readFileSync(path.join(ROOT, 'deploy', 'nginx', 'cluster.conf'), 'utf8');
  const swap = (re, to, what) => {
    if (!re.test(conf)) throw new Error(`deploy/nginx/cluster.conf has no ${what} any more: update bench/figures/09-cluster.mjs`);
    conf = conf.replace(re, to);
  };
  swap(/^([ \t]*)server server-a:8080;[ \t]*\n[ \t]*server server-b:8080;[^\n]*\n/m, (_, indent) => upstreams.map((u) => `${indent}server ${u};\n`).join(''), 'upstream servers server-a, server-b');
  swap(/listen 8088;/, `listen 127.0.0.1:${port};`, 'listen 8088');
  swap(/^[ \t]*limit_conn_zone [^\n]*\n/m, '', 'limit_conn_zone');
  swap(/^[ \t]*limit_conn yunwendang_conn [^\n]*\n/m, '', 'limit_conn');
  const t = (sub) => path.join(dir, sub);
  fs.writeFileSync(t('nginx.conf'), [
    // as root, the workers would otherwise run as nobody and could not write to this folder
    process.getuid?.() === 0 ? 'user root;' : '',
    'worker_processes auto;',
    `pid ${t('nginx.pid')};`,
    `error_log ${t('error.log')} warn;`,
    'events { worker_connections 4096; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${t('client_body')};`,
    `  proxy_temp_path ${t('proxy')};`,
    `  fastcgi_temp_path ${t('fastcgi')};`,
    `  uwsgi_temp_path ${t('uwsgi')};`,
    `  scgi_temp_path ${t('scgi')};`,
    conf,
    '}',
    '',
  ].join('\n'));
  const child = spawn(NGINX, ['-p', dir, '-c', t('nginx.conf'), '-e', t('error.log'), '-g', 'daemon off;'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const handle = { pid: child.pid, exitSignal: 'SIGTERM' };
  ours.add(handle);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let exitCode;
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exitCode = code ?? signal))));
  const stop = cleanup.add('nginx', async () => {
    if (exitCode === undefined) {
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    ours.delete(handle);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`nginx exited (${exitCode}): ${output}${fs.existsSync(t('error.log')) ? fs.readFileSync(t('error.log'), 'utf8') : ''}`);
    try {
      if ((await fetch(`${url}/nginx-health`)).ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer on ${url}: ${output}`);
    await sleep(100);
  }
  return {
    url, pid: child.pid, stop, removeDir,
    errors: () => (fs.existsSync(t('error.log')) ? fs.readFileSync(t('error.log'), 'utf8').split('\n').filter((l) => /\[(warn|error|crit|alert|emerg)\]/.test(l)) : []),
  };
}

/**
 * What an instance printed beyond its start banner: its log lines at warn or above (pino JSON,
 * level ≥ 40) and Node's process warnings (`(node:<pid>) Warning: …`, first line of each).
 */
function serverWarnings(server) {
  const logs = [];
  const node = new Set();
  for (const line of server.output().split('\n')) {
    if (line.startsWith('{')) {
      try {
        if (JSON.parse(line).level >= 40) logs.push(line);
      } catch {
        /* not JSON after all */
      }
    } else if (/^\(node:\d+\) /.test(line)) node.add(line.replace(/^\(node:\d+\) /, '').slice(0, 160));
  }
  return { logs, node: [...node] };
}

function printWarnings(what, w) {
  if (w.logs.length) console.log(`note: ${what} logged ${w.logs.length} lines at warn or above, e.g. ${w.logs[0].slice(0, 400)}`);
  for (const x of w.node) console.log(`note: ${what} printed the Node warning: ${x}`);
}

/** Starts an instance on `env`; stopped by the cleanup (its DATA_DIR removed by the harness). */
async function instance(cleanup, env, name) {
  const server = await startServer({ env });
  const stop = cleanup.add(`instance ${name}`, () => server.stop());
  return { ...server, name, stop };
}

/* ---------------------------------------------------------------- 1. load */

/** Runs the load generator against `url`; `groups` names the processes to read CPU of. */
async function runLoad(cleanup, url, users, options, groupsOf, thinkMs, runTag) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-load-'));
  cleanup.add('load configuration', () => fs.rmSync(dir, { recursive: true, force: true }));
  const configFile = path.join(dir, 'config.json');
  fs.writeFileSync(configFile, JSON.stringify({
    url, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, timeoutMs: REQUEST_TIMEOUT_MS, chunkSize: options.chunkSize,
    chunkCheck: options.chunkCheck, zipPollMs: ZIP_POLL_MS, thinkMs, runTag, mix: MIX, keywords: KEYWORDS, users,
  }));
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'lib', 'cluster-load.mjs'), configFile], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const handle = { pid: child.pid, exitSignal: 'SIGKILL' };
  ours.add(handle);
  let stderr = '';
  child.stderr.on('data', (d) => {
    if (stderr.length < 64 * 1024) stderr += d;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  cleanup.add('load generator', async () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* done */
    }
    await exited;
    ours.delete(handle);
  });
  let start;
  let cpu;
  let result;
  const lines = readline.createInterface({ input: child.stdout });
  for await (const line of lines) {
    const ev = JSON.parse(line);
    if (ev.event === 'start') start = snapshot();
    else if (ev.event === 'end') cpu = cpuBetween(start, snapshot(), (procs) => groupsOf(procs, child.pid));
    else if (ev.event === 'result') result = ev;
  }
  const code = await exited;
  if (interrupted) throw new Error(`interrupted (${interrupted})`);
  if (!result || !cpu) throw new Error(`the load generator ended (${code}) without a result:\n${stderr}`);
  return { ...result, cpu };
}

async function loadConfiguration(cleanup, rgw, secretKey, count) {
  const label = count === 1 ? 'one instance' : `${count} instances`;
  console.log(`\n${label}: load average ${load()}`);
  const local = cleanup.scope(label);
  try {
    const db = await freshDatabase(local);
    const bucket = `yd-bench-${process.pid}-${count}`;
    const env = {
      DATABASE_URL: db.url, SECRET_KEY: secretKey, TRUST_PROXY: '1', LOG_LEVEL: 'warn',
      S3_ENDPOINT: rgw.endpoint, S3_REGION: rgw.region, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: rgw.accessKeyId,
      S3_SECRET_ACCESS_KEY: rgw.secretAccessKey, S3_FORCE_PATH_STYLE: 'true',
    };
    const servers = [];
    // one after the other: the first makes the schema and the bucket
    for (let i = 0; i < count; i++) servers.push(await instance(local, env, String.fromCharCode(65 + i)));
    const nginx = await startNginx(local, servers.map((s) => `127.0.0.1:${s.port}`));
    const t0 = performance.now();
    const { token: adminToken } = await login({ url: nginx.url });
    const options = await apiOk({ url: nginx.url }, 'GET', `${BASE}/FileUploadOptions`, { token: adminToken });
    const chunkSize = Number(options.chunkSize);
    const users = await seedUsers(nginx.url, adminToken, chunkSize, { count: USERS, files: SEED_FILES, concurrency: SEED_CONCURRENCY });
    const setupMs = performance.now() - t0;
    console.log(`${n(USERS)} users made, signed in and seeded through nginx (${SEED_FILES} files of 2–5 KB each, with the upload calls) in ${s1(setupMs)}; database ${db.name}, bucket ${bucket}; load average ${load()}`);

    const groupsOf = (procs, loadPid) => {
      const g = { 'load generator (1 Node process)': descendants(procs, loadPid), 'nginx (master + workers)': descendants(procs, nginx.pid) };
      for (const s of servers) g[`instance ${s.name}`] = descendants(procs, s.pid);
      const pgMine = new Set();
      const pgOther = new Set();
      for (const p of procs.values()) {
        if (p.comm !== 'postgres') continue;
        (p.cmdline?.includes(` ${db.name} `) ? pgMine : pgOther).add(p.pid);
      }
      g['postgres: backends of the database'] = pgMine;
      g['postgres: its other processes (WAL, checkpoints, other databases)'] = pgOther;
      g['rgw (ceph-mon, ceph-osd, radosgw)'] = descendants(procs, rgw.pid);
      return g;
    };
    const loadOptions = { chunkSize, chunkCheck: options.chunkCheck === true };
    // as people use it (think times), then at capacity (none), on the same data
    const usersRun = await runLoad(local, nginx.url, users, loadOptions, groupsOf, USER_THINK_MS, 'a');
    const run = await runLoad(local, nginx.url, users, loadOptions, groupsOf, THINK_MS, 'b');
    const warnings = servers.map((s) => ({ name: s.name, ...serverWarnings(s) }));
    const nginxErrors = nginx.errors();
    return { label, count, setupMs, run, usersRun, warnings, nginxErrors, database: db.name, bucket };
  } finally {
    await local.all();
  }
}

function summarise(c, r = c.run) {
  const lat = r.latencies;
  const windowS = r.windowMs / 1000;
  const requests = Object.values(lat).reduce((s, xs) => s + xs.length, 0);
  const errors = Object.values(r.errors).reduce((s, x) => s + x, 0);
  const warmErrors = Object.values(r.warmErrors).reduce((s, x) => s + x, 0);
  const actionsDone = Object.values(r.actionCounts).reduce((s, x) => s + x, 0);
  return {
    ...c, run: r, windowS, requests, errors, warmErrors, rps: requests / windowS, actionsPerS: actionsDone / windowS,
    meta: stats([...(lat.list || []), ...(lat.search || [])]),
    kinds: Object.fromEntries(Object.entries(lat).map(([k, xs]) => [k, stats(xs)])),
    actionStats: Object.fromEntries(Object.entries(r.actions).map(([k, xs]) => [k, stats(xs)])),
  };
}

async function partLoad(cleanup, rgw) {
  console.log(`1. Load: ${n(USERS)} simulated users in a closed loop, measured twice per configuration: with think times of ${USER_THINK_MS} ms on average (exponential) between a user's actions (latency), then ${THINK_MS ? `with ${THINK_MS} ms` : 'without think time'} (capacity); ${SECONDS} s each after ${WARMUP_SECONDS} s of warm-up; mix by weight ${Object.entries(MIX).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log('   through nginx (deploy/nginx/cluster.conf without limit_conn: every simulated user is 127.0.0.1) to one instance, then round-robin to two;');
  console.log('   each configuration on a fresh database and bucket, seeded alike; same SECRET_KEY, separate DATA_DIRs');
  const secretKey = crypto.randomBytes(32).toString('base64url');
  const oneRaw = await loadConfiguration(cleanup, rgw, secretKey, 1);
  const oneUsers = summarise(oneRaw, oneRaw.usersRun);
  const one = summarise(oneRaw);
  printConfiguration(oneUsers, 'latency run');
  printConfiguration(one, 'capacity run');
  const twoRaw = await loadConfiguration(cleanup, rgw, secretKey, 2);
  const twoUsers = summarise(twoRaw, twoRaw.usersRun);
  const two = summarise(twoRaw);
  printConfiguration(twoUsers, 'latency run');
  printConfiguration(two, 'capacity run');
  return report(one, two, oneUsers, twoUsers);
}

function printConfiguration(c, what) {
  const errs = Object.entries(c.run.errors).map(([k, v]) => `${k} ${v}`).join(', ');
  console.log(`${c.label}, ${what}: ${n(c.requests)} requests in ${c.windowS.toFixed(1)} s (${c.rps.toFixed(0)}/s), ${c.errors} errors${errs ? ` (${errs})` : ''}, metadata p95 ${f1(c.meta.p95)}; ${c.warmErrors} errors during the warm-up; drained in ${s1(c.run.drainMs)}`);
  if (c.run.errorSamples.length) console.log(`  first errors: ${c.run.errorSamples.slice(0, 5).join(' | ')}`);
  for (const w of c.warnings) printWarnings(`instance ${w.name}`, w);
  if (c.nginxErrors.length) console.log(`note: nginx logged ${c.nginxErrors.length} warnings or errors, e.g. ${c.nginxErrors[0].slice(0, 300)}`);
}

const KIND_TITLES = {
  list: 'GET Folders/{id}/Items (listing)',
  search: 'GET Search/Files (name search)',
  download: 'GET FileTransfer/Download/{id} (2–5 KB)',
  create: 'POST CheckAndCreateFileInfo',
  rapid: 'POST UploadRapid2 (false)',
  chunk: 'POST UploadChunk2 (2–8 KB)',
  merge: 'POST UploadMerge2',
  zipCreate: 'POST DownloadTask',
  zipStatus: 'GET DownloadTasks/{id}/Status',
  zipFile: 'GET DownloadTasks/{id}/File',
};

function report(one, two, oneUsers, twoUsers) {
  const two1 = two.rps / one.rps;
  const errorsAll = one.errors + two.errors + oneUsers.errors + twoUsers.errors;
  console.log(`\nBaseline: one instance behind the same nginx, same users, same seeded data, same seeded sequence of actions per user. Metadata = listings + name searches. Percentiles by nearest rank over the requests that finished in the window.`);
  console.log(`\nLatency: ${n(USERS)} users with think times of ${USER_THINK_MS} ms on average`);
  printTable([
    { key: 'what', title: 'configuration' }, { key: 'req', title: 'requests', align: 'right' }, { key: 'err', title: 'errors', align: 'right' },
    { key: 'rps', title: 'requests/s', align: 'right' }, { key: 'p50', title: 'metadata p50', align: 'right' }, { key: 'p95', title: 'p95', align: 'right' },
    { key: 'p99', title: 'p99', align: 'right' }, { key: 'goal', title: 'goal', align: 'right' }, { key: 'res', title: 'result', align: 'right' },
  ], [
    { what: 'baseline: nginx → one instance', req: n(oneUsers.requests), err: oneUsers.errors, rps: oneUsers.rps.toFixed(0), p50: f1(oneUsers.meta.p50), p95: f1(oneUsers.meta.p95), p99: f1(oneUsers.meta.p99), goal: `p95 ≤ ${GOAL.p95Ms} ms`, res: pass(oneUsers.meta.p95 <= GOAL.p95Ms) },
    { what: 'nginx → two instances (round-robin)', req: n(twoUsers.requests), err: twoUsers.errors, rps: twoUsers.rps.toFixed(0), p50: f1(twoUsers.meta.p50), p95: f1(twoUsers.meta.p95), p99: f1(twoUsers.meta.p99) },
  ]);
  console.log(`\nCapacity: ${n(USERS)} users ${THINK_MS ? `with think times of ${THINK_MS} ms` : 'without think time'}`);
  printTable([
    { key: 'what', title: 'configuration' }, { key: 'req', title: 'requests', align: 'right' }, { key: 'err', title: 'errors', align: 'right' },
    { key: 'rps', title: 'requests/s', align: 'right' }, { key: 'aps', title: 'actions/s', align: 'right' },
    { key: 'p50', title: 'metadata p50', align: 'right' }, { key: 'p95', title: 'p95', align: 'right' }, { key: 'p99', title: 'p99', align: 'right' },
    { key: 'r', title: 'req/s vs one', align: 'right' }, { key: 'goal', title: 'goal', align: 'right' }, { key: 'res', title: 'result', align: 'right' },
  ], [
    { what: 'baseline: nginx → one instance', req: n(one.requests), err: one.errors, rps: one.rps.toFixed(0), aps: one.actionsPerS.toFixed(0), p50: f1(one.meta.p50), p95: f1(one.meta.p95), p99: f1(one.meta.p99), r: '1.00×' },
    { what: 'nginx → two instances (round-robin)', req: n(two.requests), err: two.errors, rps: two.rps.toFixed(0), aps: two.actionsPerS.toFixed(0), p50: f1(two.meta.p50), p95: f1(two.meta.p95), p99: f1(two.meta.p99), r: ratio(two.rps, one.rps), goal: `≥ ${GOAL.scale}×`, res: pass(two1 >= GOAL.scale) },
    { what: 'errors, both configurations and runs', err: errorsAll, goal: '0', res: pass(errorsAll === 0) },
  ]);

  console.log('\nBy request in the capacity run (p50 / p95), and whole actions:');
  const kindRows = Object.keys(KIND_TITLES).filter((k) => one.kinds[k] || two.kinds[k]).map((k) => {
    const a = one.kinds[k] || stats();
    const b = two.kinds[k] || stats();
    return { what: KIND_TITLES[k], n1: n(a.n), a50: f1(a.p50), a95: f1(a.p95), n2: n(b.n), b50: f1(b.p50), b95: f1(b.p95), r: Number.isFinite(a.p95) && Number.isFinite(b.p95) ? ratio(b.p95, a.p95) : '' };
  });
  for (const [k, what] of [['upload', 'action: upload (create, rapid, chunk, merge)'], ['zip', 'action: zip (create, Status every 3 s, File)']]) {
    const a = one.actionStats[k] || stats();
    const b = two.actionStats[k] || stats();
    kindRows.push({ what, n1: n(a.n), a50: f1(a.p50), a95: f1(a.p95), n2: n(b.n), b50: f1(b.p50), b95: f1(b.p95), r: Number.isFinite(a.p95) && Number.isFinite(b.p95) ? ratio(b.p95, a.p95) : '' });
  }
  printTable([
    { key: 'what', title: 'request' }, { key: 'n1', title: 'one: n', align: 'right' }, { key: 'a50', title: 'p50', align: 'right' }, { key: 'a95', title: 'p95', align: 'right' },
    { key: 'n2', title: 'two: n', align: 'right' }, { key: 'b50', title: 'p50', align: 'right' }, { key: 'b95', title: 'p95', align: 'right' },
    { key: 'r', title: 'p95 two/one', align: 'right' },
  ], kindRows);

  const cpuCores = os.cpus().length;
  console.log(`\nCPU seconds used in the measured window of the capacity run (utime + stime from /proc/<pid>/stat, summed over each process's descendants; cores = CPU s / window s; this machine has ${cpuCores} cores):`);
  const names = [...new Set([...Object.keys(two.run.cpu.groups), ...Object.keys(one.run.cpu.groups)])];
  const cpuRows = names.map((name) => ({
    what: name, a: cpuS(one.run.cpu.groups[name]), ac: cores(one.run.cpu.groups[name], one.run.cpu.windowS),
    b: cpuS(two.run.cpu.groups[name]), bc: cores(two.run.cpu.groups[name], two.run.cpu.windowS),
  }));
  cpuRows.push({ what: 'the rest of the machine (this bench, other runs…)', a: cpuS(one.run.cpu.rest), ac: cores(one.run.cpu.rest, one.run.cpu.windowS), b: cpuS(two.run.cpu.rest), bc: cores(two.run.cpu.rest, two.run.cpu.windowS) });
  cpuRows.push({ what: 'machine busy (/proc/stat)', a: cpuS(one.run.cpu.machine), ac: cores(one.run.cpu.machine, one.run.cpu.windowS), b: cpuS(two.run.cpu.machine), bc: cores(two.run.cpu.machine, two.run.cpu.windowS) });
  printTable([
    { key: 'what', title: 'process' }, { key: 'a', title: 'one: CPU s', align: 'right' }, { key: 'ac', title: 'cores', align: 'right' },
    { key: 'b', title: 'two: CPU s', align: 'right' }, { key: 'bc', title: 'cores', align: 'right' },
  ], cpuRows);

  // what bounded the throughput, from the CPU figures
  const notes = [];
  const coreOf = (c, name) => (c.run.cpu.groups[name] ?? 0) / c.run.cpu.windowS;
  const lg = 'load generator (1 Node process)';
  for (const c of [one, two]) {
    const x = coreOf(c, lg);
    if (x >= 0.85) notes.push(`${c.label}: the load generator used ${x.toFixed(2)} cores: one Node process saturates a core, so the client, not the servers, capped the offered load`);
  }
  const busyOne = one.run.cpu.machine / one.run.cpu.windowS;
  const busyTwo = two.run.cpu.machine / two.run.cpu.windowS;
  const instOne = coreOf(one, 'instance A');
  const instTwo = coreOf(two, 'instance A') + coreOf(two, 'instance B');
  notes.push(`with one instance the machine was busy ${busyOne.toFixed(2)} of ${cpuCores} cores (the instance ${instOne.toFixed(2)}, the load generator ${coreOf(one, lg).toFixed(2)}, the rest of the machine ${(one.run.cpu.rest / one.run.cpu.windowS).toFixed(2)}); with two, ${busyTwo.toFixed(2)} (the instances ${instTwo.toFixed(2)} together)`);
  const restOne = one.run.cpu.rest / one.run.cpu.windowS;
  const restTwo = two.run.cpu.rest / two.run.cpu.windowS;
  if (Math.max(restOne, restTwo) >= 0.25) {
    notes.push(`processes outside this figure (the rest of the machine) took ${restOne.toFixed(2)} cores during the one-instance window and ${restTwo.toFixed(2)} during the two-instance one, on the same ${cpuCores} cores${Math.abs(restTwo - restOne) >= 0.25 ? ': the two configurations did not run on equally quiet machines, so their ratio says more about that than about the instances; run it again on a quiet machine' : ''}`);
  }
  if (two1 < GOAL.scale) {
    if (busyOne >= 0.9 * cpuCores) notes.push(`the goal of ${GOAL.scale}× is missed on a machine whose ${cpuCores} cores were already ${Math.round((100 * busyOne) / cpuCores)} % busy with one instance: a second instance can only take the CPU the load generator, PostgreSQL, rgw, nginx and the rest leave; it says nothing of two instances on two hosts`);
    else if (instOne >= 0.9) notes.push(`one instance used ${instOne.toFixed(2)} cores (a Node process is one core plus its threads) while ${(cpuCores - busyOne).toFixed(2)} cores were idle, yet two instances did not scale ${GOAL.scale}×: the bound is elsewhere (database, locks, the client)`);
    else notes.push(`one instance used only ${instOne.toFixed(2)} cores with ${(cpuCores - busyOne).toFixed(2)} idle: it was not CPU-bound, so a second instance had little to add (latency-bound: ${n(USERS)} users without think time)`);
  }
  if (THINK_MS) notes.push(`with think times of ${THINK_MS} ms the users offer at most ${n(USERS)} / (${THINK_MS} ms + latency) actions per second: requests/s can only grow with a second instance where one could not keep up, so read the ratio with the latencies`);
  if (!THINK_MS) notes.push(`without think time each user waits only for its answers, so mean latency ≈ users / throughput (Little's law: ${n(USERS)} / ${one.rps.toFixed(0)} per s ≈ ${((USERS / one.rps) * 1000).toFixed(0)} ms per request with one instance): that run measures capacity, the latency run what people wait`);
  for (const x of notes) console.log(`note: ${x}`);

  const brief = (c) => ({
    label: c.label, windowS: c.windowS, setupMs: c.setupMs, requests: c.requests, errors: c.errors, errorsByKind: c.run.errors, warmErrors: c.warmErrors,
    errorSamples: c.run.errorSamples, rps: c.rps, actionsPerS: c.actionsPerS, meta: c.meta, kinds: c.kinds, actions: c.actionStats, cpu: c.run.cpu,
    bytesIn: c.run.bytesIn, bytesOut: c.run.bytesOut, serverWarnings: Object.fromEntries(c.warnings.map((w) => [w.name, w.logs.length])), nginxErrors: c.nginxErrors.length,
  });
  return {
    users: USERS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, mix: MIX, userThinkMs: USER_THINK_MS, thinkMs: THINK_MS,
    one: brief(one), two: brief(two), oneUsers: brief(oneUsers), twoUsers: brief(twoUsers), scale: two1,
    pass: { p95: oneUsers.meta.p95 <= GOAL.p95Ms, scale: two1 >= GOAL.scale, errors: errorsAll === 0 },
  };
}

/* ---------------------------------------------------------------- 2. transfer */

/** A file of `mb` MiB of random bytes (incompressible). */
async function randomFile(file, mb) {
  const out = fs.createWriteStream(file);
  for (let written = 0; written < mb * MB; written += 8 * MB) {
    const block = crypto.randomBytes(Math.min(8 * MB, mb * MB - written));
    if (!out.write(block)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
}

/** A plain GET of the whole file, read to the end; checks the status, the length and the ETag. */
function download(url, token, fileId, size, hash) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}${BASE}/Download/${fileId}`, { headers: { Authorization: `Bearer ${token}` }, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c) => (bytes += c.length));
      res.on('error', reject);
      res.on('end', () => {
        if (res.statusCode !== 200 || bytes !== size) reject(new Error(`download: HTTP ${res.statusCode}, ${bytes} of ${size} bytes`));
        else if (res.headers.etag !== `"${hash}-${size}"`) reject(new Error(`download: ETag ${res.headers.etag}, expected "${hash}-${size}"`));
        else resolve(bytes);
      });
    });
    req.on('error', reject);
  });
}

async function partTransfer(cleanup, rgw) {
  console.log(`\n2. Transfer of ${n(TRANSFER_MB)} MB: one instance with S3 storage (rgw) against one with local storage (DATA_DIR), both on PostgreSQL, no nginx (load average ${load()})`);
  const local = cleanup.scope('transfer');
  try {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-transfer-'));
    local.add('transfer folder', () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'transfer.bin');
    const made = performance.now();
    await randomFile(file, TRANSFER_MB);
    const size = fs.statSync(file).size;
    console.log(`file: ${n(size)} random bytes written in ${s1(performance.now() - made)} (not counted)`);

    const secretKey = crypto.randomBytes(32).toString('base64url');
    const apps = {};
    for (const kind of ['local', 's3']) {
      const db = await freshDatabase(local);
      const env = { DATABASE_URL: db.url, SECRET_KEY: secretKey, LOG_LEVEL: 'warn' };
      if (kind === 's3') {
        Object.assign(env, {
          S3_ENDPOINT: rgw.endpoint, S3_REGION: rgw.region, S3_BUCKET: `yd-bench-${process.pid}-transfer`, S3_ACCESS_KEY_ID: rgw.accessKeyId,
          S3_SECRET_ACCESS_KEY: rgw.secretAccessKey, S3_FORCE_PATH_STYLE: 'true',
        });
      }
      const server = await instance(local, env, kind);
      const { token } = await login(server);
      const root = await personalRoot(server, token);
      const options = await apiOk(server, 'GET', `${BASE}/FileUploadOptions`, { token });
      apps[kind] = { kind, server, token, rootId: root.id, chunkSize: Number(options.chunkSize), chunkCheck: options.chunkCheck === true };
    }
    const groupsOf = (app) => (procs) => ({ server: descendants(procs, app.server.pid), rgw: descendants(procs, rgw.pid) });
    const runs = { local: { up: [], down: [] }, s3: { up: [], down: [] } };
    for (let run = 1; run <= TRANSFER_RUNS; run++) {
      if (run > 1) {
        // another content for each run (no blob to reuse)
        const fh = await fs.promises.open(file, 'r+');
        await fh.write(crypto.randomBytes(64), 0, 64, 0);
        await fh.close();
      }
      const hashStart = performance.now();
      const hash = await md5File(file);
      const hashMs = performance.now() - hashStart;
      const items = {};
      for (const kind of ['local', 's3']) {
        const app = apps[kind];
        const name = `transfer-${run}.bin`;
        const before = snapshot();
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const fileId = await createUpload(app.server, app.token, app.rootId, { fileName: name, size });
        await sendChunks({ url: `${app.server.url}${BASE}/UploadChunk2`, token: app.token, fileId, file, chunkSize: app.chunkSize, fileName: name, inFlight: 3, chunkCheck: app.chunkCheck });
        const t1 = performance.now();
        const item = await callOk(app.server.url, 'POST', `${BASE}/UploadMerge2`, { token: app.token, json: { fileId, relativePath: name, fileHash: hash } });
        const ms = performance.now() - t0;
        const cpu = cpuBetween(before, snapshot(), groupsOf(app));
        const c = process.cpuUsage(cpu0);
        runs[kind].up.push({ ms, chunksMs: t1 - t0, mergeMs: ms - (t1 - t0), cpu: cpu.groups, client: (c.user + c.system) / 1e6 });
        items[kind] = item.id;
      }
      for (const kind of ['local', 's3']) {
        const app = apps[kind];
        const before = snapshot();
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await download(app.server.url, app.token, items[kind], size, hash);
        const ms = performance.now() - t0;
        const cpu = cpuBetween(before, snapshot(), groupsOf(app));
        const c = process.cpuUsage(cpu0);
        runs[kind].down.push({ ms, cpu: cpu.groups, client: (c.user + c.system) / 1e6 });
      }
      console.log(`run ${run}: MD5 of the file ${s1(hashMs)} (not counted); upload local ${s1(runs.local.up.at(-1).ms)}, S3 ${s1(runs.s3.up.at(-1).ms)}; download local ${s1(runs.local.down.at(-1).ms)}, S3 ${s1(runs.s3.down.at(-1).ms)}`);
    }
    const rate = (ms) => size / MB / (ms / 1000);
    const line = (kind, dir) => {
      const list = runs[kind][dir];
      const ms = median(list.map((x) => x.ms));
      const part = (k) => (list[0][k] === undefined ? undefined : median(list.map((x) => x[k])));
      return { ms, mbps: rate(ms), chunksMs: part('chunksMs'), mergeMs: part('mergeMs'), server: median(list.map((x) => x.cpu.server)), rgw: median(list.map((x) => x.cpu.rgw)), client: median(list.map((x) => x.client)) };
    };
    const res = { local: { up: line('local', 'up'), down: line('local', 'down') }, s3: { up: line('s3', 'up'), down: line('s3', 'down') } };
    const split = (x) => (x.chunksMs === undefined ? {} : { ch: s1(x.chunksMs), mg: s1(x.mergeMs) });
    const warnings = Object.values(apps).map((a) => ({ name: a.kind === 's3' ? 'S3' : a.kind, ...serverWarnings(a.server) }));
    console.log(`upload: CheckAndCreateFileInfo, ${Math.ceil(size / apps.local.chunkSize)} chunks of ${(apps.local.chunkSize / MB).toFixed(0)} MB 3 in flight (e2e/uploadClient.mjs sendChunks), UploadMerge2 with the MD5 made beforehand; download: one GET read to the end (length and ETag checked); ${TRANSFER_RUNS === 1 ? 'one run' : `median of ${TRANSFER_RUNS} runs`}, local and S3 alternating`);
    console.log('local storage writes into DATA_DIR on this disk (through the page cache, each chunk fsync\'ed); rgw keeps its objects in memory (memstore), so the S3 lines hold no disk write');
    printTable([
      { key: 'what', title: 'transfer' }, { key: 't', title: 'time', align: 'right' }, { key: 'ch', title: 'create + chunks', align: 'right' },
      { key: 'mg', title: 'merge', align: 'right' }, { key: 'rate', title: 'MB/s', align: 'right' },
      { key: 'r', title: 'S3/local', align: 'right' }, { key: 'srv', title: 'CPU s: instance', align: 'right' }, { key: 'rgw', title: 'rgw', align: 'right' },
      { key: 'cl', title: 'client', align: 'right' }, { key: 'goal', title: 'goal', align: 'right' }, { key: 'res', title: 'result', align: 'right' },
    ], [
      ['up', 'upload'], ['down', 'download'],
    ].flatMap(([dir, word]) => [
      { what: `baseline: ${word}, local storage`, t: s1(res.local[dir].ms), ...split(res.local[dir]), rate: res.local[dir].mbps.toFixed(0), r: '1.00×', srv: cpuS(res.local[dir].server), rgw: cpuS(res.local[dir].rgw), cl: cpuS(res.local[dir].client) },
      {
        what: `${word}, S3 storage`, t: s1(res.s3[dir].ms), ...split(res.s3[dir]), rate: res.s3[dir].mbps.toFixed(0), r: ratio(res.s3[dir].mbps, res.local[dir].mbps),
        srv: cpuS(res.s3[dir].server), rgw: cpuS(res.s3[dir].rgw), cl: cpuS(res.s3[dir].client), goal: `≥ ${GOAL.s3}×`, res: pass(res.s3[dir].mbps / res.local[dir].mbps >= GOAL.s3),
      },
    ]));
    for (const w of warnings) printWarnings(`the ${w.name} instance`, w);
    return {
      bytes: size, runs: TRANSFER_RUNS, local: res.local, s3: res.s3, all: runs,
      ratio: { upload: res.s3.up.mbps / res.local.up.mbps, download: res.s3.down.mbps / res.local.down.mbps },
      pass: { upload: res.s3.up.mbps / res.local.up.mbps >= GOAL.s3, download: res.s3.down.mbps / res.local.down.mbps >= GOAL.s3 },
    };
  } finally {
    await local.all();
  }
}

/* ---------------------------------------------------------------- figure */

export async function run() {
  const cleanup = new Cleanup();
  const onSignal = (signal) => {
    interrupted = signal;
    console.error(`\n${signal}: stopping the instances, nginx and rgw, dropping the databases`);
    cleanup.all().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    console.log(`PostgreSQL: ${DATABASE_URL.replace(/:[^:@/]*@/, ':…@')} (a fresh database per configuration); ${os.cpus().length} CPUs; load average ${load()}`);
    const started = performance.now();
    const rgw = await startRgw(cleanup);
    console.log(`S3: scripts/rgw.sh at ${rgw.endpoint} (started and its pools made by a first bucket, object and multipart upload in ${s1(performance.now() - started)})\n`);
    const loadResult = PARTS.has('load') ? await partLoad(cleanup, rgw) : null;
    const transfer = PARTS.has('transfer') ? await partTransfer(cleanup, rgw) : null;
    return { load: loadResult, transfer };
  } finally {
    await cleanup.all();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
