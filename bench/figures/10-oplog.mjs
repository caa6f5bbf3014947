// Figure 10: the operation log and 系统公告, each line against a baseline measured in the same run.
// The built server runs as e2e starts it, on SQLite (a fresh DATA_DIR), or on a fresh PostgreSQL
// database per server when BENCH_DATABASE_URL is set (databases yd_bench_oplog_* next to it,
// dropped at the end).
// 1. What recording costs: 20 signed-in people run bench/lib/cluster-load.mjs's closed loop
//    (no think time) of listings, small uploads through the real calls, downloads and renames
//    for BENCH_OPLOG_SECONDS (default 20) against a server with OPLOG_RECORDING=off (the
//    baseline) and, at the same time, one with the log on, each under its own load generator,
//    in BENCH_OPLOG_ROUNDS rounds (default 5: a single round's ratio varies by ±3 % on SQLite
//    and ±6 % on PostgreSQL; the background search indexer off in both). The
//    cost is the processor time each server (and, on PostgreSQL, the backends serving its
//    database) spends per request within the measured window, read from /proc; each round gives on / off, and the figure is the median
//    of those ratios. Goal: ≤ 1.05. The requests per second are printed too, off / on the same
//    way. Both servers run at once because on these shared two-core machines the same server's
//    rate varies by ±20 % from one run to the next, four times the margin; side by side, what
//    the machine does weighs on both alike.
// 2. The log page's query over BENCH_OPLOG_ROWS records (default 10,000,000: 1,000 people over
//    six months, written straight into the database as sealed rows): 200 × GET
//    /api/Admin/OperationLogs?userId=<a person>&from=<first of a month>&to=<its last day>&page=1..5,
//    each right after GET /api/Admin/Scope (the baseline); p50 / p99. Goal: p99 ≤ 200 ms.
// 3. A 系统公告 to everyone at BENCH_OPLOG_PEOPLE people (default 10,000, written straight into
//    the database): the time from POST /api/Admin/Announcements until all of their in-app
//    notices are there (counted in the database every 50 ms) and one person's GET /api/Notices
//    shows it, against GET /api/Notices/UnreadCount of that person. Goal: ≤ 10 s.
// BENCH_OPLOG_PARTS=cost,query,announce runs only those parts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { apiOk, login } from '../../e2e/harness.mjs';
import { ROOT, median, printTable, ratio } from '../lib/util.mjs';
import { callOk, freshServer as freshServerNextTo, percentile, seedUsers } from '../lib/load-users.mjs';

export const id = 'oplog';
export const title = 'Figure 10: the operation log — what recording costs, the log page over 10,000,000 records, a 系统公告 to 10,000 people';

const SECONDS = Number(process.env.BENCH_OPLOG_SECONDS || 20);
const ROWS = Number(process.env.BENCH_OPLOG_ROWS || 10_000_000);
const PEOPLE = Number(process.env.BENCH_OPLOG_PEOPLE || 10_000);
const QUERIES = Number(process.env.BENCH_OPLOG_QUERIES || 200);
const USERS = 20;
/** off/on pairs of the cost part */
const ROUNDS = Number(process.env.BENCH_OPLOG_ROUNDS || 5);
const LOG_PEOPLE = 1_000;
const DAYS = 180;
const DATABASE_URL = process.env.BENCH_DATABASE_URL || '';
const PARTS = new Set((process.env.BENCH_OPLOG_PARTS || 'cost,query,announce').split(',').map((p) => p.trim()));
const MIX = { list: 40, upload: 20, download: 25, rename: 15 };
const GOAL = { cost: 1.05, p99Ms: 200, announceS: 10 };
const DIALECT = DATABASE_URL ? 'PostgreSQL' : 'SQLite';
/** what the processor time counts */
const serverCpu = DATABASE_URL ? 'the server’s and its PostgreSQL backends’ processor time' : 'the server’s processor time';
const DAY = 86_400_000;

const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));
const n = (x) => Number(x).toLocaleString('en');
const f1 = (ms) => `${ms.toFixed(1)} ms`;
const s2 = (ms) => `${(ms / 1000).toFixed(2)} s`;
const pass = (ok) => (ok ? 'PASS' : 'MISS');
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** printTable with a header row and rows of cells (the first column left-aligned, the rest right). */
const table = (headers, rows) =>
  printTable(headers.map((title, i) => ({ key: i, title, align: i ? 'right' : undefined })), rows.map((r) => Object.fromEntries(r.map((v, i) => [i, v]))));

async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

/** The server on a fresh database (a new PostgreSQL database when BENCH_DATABASE_URL is set), the administrator signed in. */
const freshServer = (env = {}) => freshServerNextTo(DATABASE_URL, 'yd_bench_oplog', DATABASE_URL ? serverRequire('pg') : null, env);

/** SQL on the server's database: better-sqlite3 on its file, or a pg client. */
async function openDatabase(app) {
  if (app.database.url) {
    const pg = serverRequire('pg');
    const c = new pg.Client({ connectionString: app.database.url });
    await c.connect();
    return {
      pg: true,
      run: (sql, params = []) => c.query(sql, params),
      one: async (sql, params = []) => (await c.query(sql, params)).rows[0],
      close: () => c.end(),
    };
  }
  const Database = serverRequire('better-sqlite3');
  const db = new Database(path.join(app.server.dataDir, 'app.db'));
  db.pragma('busy_timeout = 10000');
  return {
    pg: false,
    run: async (sql, params = []) => db.prepare(sql).run(...params),
    one: async (sql, params = []) => db.prepare(sql).get(...params),
    close: async () => db.close(),
  };
}

/* ---------------------------------------------------------------- 1. what recording costs */

const TICKS_PER_SECOND = 100; // Linux's USER_HZ, in which /proc/<pid>/stat counts

/** The processor time (user and system, in seconds) these processes and their waited children have used. */
function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // after the `(comm)` field: state is field 3, utime 14, stime 15, cutime 16, cstime 17
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // gone (a PostgreSQL backend that ended): its time is lost to both readings alike
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** The server's process and, on PostgreSQL, the backends serving its database (their title names it). */
function serverPids(app) {
  const pids = [app.server.pid];
  if (app.database.url) {
    const name = decodeURIComponent(new URL(app.database.url).pathname.slice(1));
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // "postgres: <user> <database> <address> <state>"
        const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
        if (title.startsWith('postgres: ') && title.split(' ')[2] === name) pids.push(Number(entry));
      } catch {
        // ended meanwhile
      }
    }
  }
  return pids;
}

/**
 * Runs the load generator against `url` with `users`; resolves with its result line and the
 * processor time `pids()` used within its measured window.
 */
function runLoad(url, users, runTag, pids = () => []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-oplog-'));
  const configFile = path.join(dir, 'config.json');
  fs.writeFileSync(configFile, JSON.stringify({
    url, seconds: SECONDS, warmupSeconds: 3, timeoutMs: 60_000, chunkSize: 5 * 1024 * 1024, chunkCheck: false,
    zipPollMs: 3000, thinkMs: 0, runTag, mix: MIX, keywords: ['合同'], users,
  }));
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'lib', 'cluster-load.mjs'), configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    if (stderr.length < 64 * 1024) stderr += d;
  });
  return new Promise((resolve, reject) => {
    let result = null;
    let watched = [];
    let cpuAtStart = 0;
    let cpu = 0;
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const ev = JSON.parse(line);
      if (ev.event === 'start') {
        watched = pids();
        cpuAtStart = cpuSeconds(watched);
      }
      if (ev.event === 'end') cpu = cpuSeconds(watched) - cpuAtStart;
      if (ev.event === 'result') result = ev;
    });
    child.once('exit', (code) => {
      fs.rmSync(dir, { recursive: true, force: true });
      if (result) resolve({ ...result, cpuSeconds: cpu });
      else reject(new Error(`the load generator ended (${code}) without a result:\n${stderr}`));
    });
  });
}

const totalRequests = (r) => Object.values(r.latencies ?? {}).reduce((s, k) => s + k.length, 0);
const totalErrors = (r) => Object.values(r.errors ?? {}).reduce((s, k) => s + k, 0);

/** A server with the log on or off, its people and files made, ready for the load. */
async function costServer(recording) {
  // the background search indexer is off in both (SEARCH_INDEX_POLL_MS=0): its bursts over the uploaded
  // text files are the same work either way and only add noise to a comparison of a few percent
  const app = await freshServer({ OPLOG_RECORDING: recording ? 'on' : 'off', SEARCH_INDEX_POLL_MS: '0' });
  try {
    const options = await apiOk(app.server, 'GET', '/api/User/FileTransfer/FileUploadOptions', { token: app.token });
    const users = await seedUsers(app.server.url, app.token, options.chunkSize, { count: USERS, files: 5, concurrency: 8, prefix: 'cost' });
    return { app, users, recording };
  } catch (err) {
    await app.stop();
    throw err;
  }
}

async function costMeasured({ app, users, recording }, load) {
  const r = await load;
  const db = await openDatabase(app);
  const records = Number((await db.one('select count(*) as n from operation_logs')).n);
  await db.close();
  const requests = totalRequests(r);
  const windowSeconds = r.windowMs / 1000;
  const meanMs = Object.fromEntries(Object.entries(r.latencies ?? {}).map(([k, v]) => [k, v.reduce((a, b) => a + b, 0) / Math.max(1, v.length)]));
  return { recording, requests, perSecond: requests / windowSeconds, errors: totalErrors(r), records, windowSeconds, meanMs, cpuMsPerRequest: (r.cpuSeconds * 1000) / requests };
}

async function partCost() {
  console.log(`\n1. What recording costs (${DIALECT}; ${USERS} people on each server, no think time, ${SECONDS} s a round; load average ${load()})`);
  const runs = [];
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // both servers at once, each under its own load generator: whatever the machine does
    // meanwhile (it is shared, and its speed varies by ±20 % from one minute to the next) weighs
    // on both alike
    const off = await costServer(false);
    let on;
    try {
      on = await costServer(true);
      const [a, b] = await Promise.all(
        [off, on].map((side) => costMeasured(side, runLoad(side.app.server.url, side.users, `r${round}-`, () => serverPids(side.app)))),
      );
      const pair = { off: a, on: b };
      for (const r of [a, b]) {
        runs.push(r);
        console.log(`  log ${r.recording ? 'on ' : 'off'}: ${n(r.requests)} requests in ${r.windowSeconds.toFixed(1)} s = ${r.perSecond.toFixed(1)} req/s, ${r.cpuMsPerRequest.toFixed(3)} ms of ${serverCpu} per request, ${r.errors} errors, ${n(r.records)} records in the log; mean ms: ${Object.entries(r.meanMs).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
      }
      const cpu = pair.on.cpuMsPerRequest / pair.off.cpuMsPerRequest;
      const rate = pair.off.perSecond / pair.on.perSecond;
      rounds.push({ cpu, rate });
      console.log(`  round ${round}: processor time per request on / off = ${cpu.toFixed(3)}; requests per second off / on = ${rate.toFixed(3)}`);
    } finally {
      await off.app.stop();
      await on?.app.stop();
    }
  }
  const side = (recording, key) => median(runs.filter((r) => r.recording === recording).map((r) => r[key]));
  const cost = median(rounds.map((r) => r.cpu));
  const rate = median(rounds.map((r) => r.rate));
  table(['', `requests/s (median of ${ROUNDS})`, `ms of ${serverCpu} per request`, 'errors'], [
    ['log off (OPLOG_RECORDING=off, baseline)', side(false, 'perSecond').toFixed(1), side(false, 'cpuMsPerRequest').toFixed(3), String(runs.filter((r) => !r.recording).reduce((s, r) => s + r.errors, 0))],
    ['log on', side(true, 'perSecond').toFixed(1), side(true, 'cpuMsPerRequest').toFixed(3), String(runs.filter((r) => r.recording).reduce((s, r) => s + r.errors, 0))],
    [`requests per second off / on (median of the rounds' ratios)`, `${rate.toFixed(3)}×`, '', ''],
    [`cost: processor time per request on / off (median of the rounds' ratios; goal ≤ ${GOAL.cost})`, '', `${cost.toFixed(3)}× ${pass(cost <= GOAL.cost)}`, ''],
  ]);
  return { cost, rate, rounds, runs, goal: GOAL.cost, met: cost <= GOAL.cost };
}

/* ---------------------------------------------------------------- 2. the log page over ROWS records */

const ACTIONS = ['file.download', 'file.upload', 'file.preview', 'file.rename', 'auth.login', 'share.create', 'file.move', 'file.delete'];

/**
 * ROWS sealed records (seq 1..ROWS, made-up hashes) of LOG_PEOPLE people over DAYS days up to
 * now, written with the database's own row generator in batches of 200,000; the head then
 * points past them (so the server's sealer has nothing to do).
 */
async function writeRecords(db, now) {
  const start = now - DAYS * DAY;
  const step = Math.floor((DAYS * DAY) / ROWS);
  const batch = 200_000;
  const actionCase = `case x % 8 ${ACTIONS.map((a, i) => `when ${i} then '${a}'`).join(' ')} end`;
  for (let base = 0; base < ROWS; base += batch) {
    const size = Math.min(batch, ROWS - base);
    const select = (x) => `select ${x} + 1, ${start} + ${x} * ${step}, (${x} % ${LOG_PEOPLE}) + 1000, 'person' || (${x} % ${LOG_PEOPLE}), '', '10.0.' || (${x} % 250) || '.' || (${x} % 7),
      'Mozilla/5.0', ${actionCase.replaceAll('x %', `${x} %`)}, 'file', ${db.pg ? `(${x} % 50000)::text` : `cast(${x} % 50000 as text)`}, '文件' || (${x} % 50000) || '.txt', '企业空间/资料', 'ok', '', '', '{}', '', 'h'`;
    const columns = 'seq, at, user_id, user_name, dept_path, ip, user_agent, action, object_type, object_id, object_name, object_path, result, reason, request_id, detail, prev_hash, hash';
    if (db.pg) {
      await db.run(`insert into operation_logs (${columns}) ${select('g')} from generate_series(${base}, ${base + size - 1}) as g`);
    } else {
      await db.run('begin');
      await db.run(`insert into operation_logs (${columns}) with recursive c(x) as (select ${base} union all select x + 1 from c where x < ${base + size - 1}) ${select('x')} from c`);
      await db.run('commit');
    }
    if ((base / batch) % 10 === 9) console.log(`  … ${n(base + size)} records written`);
  }
  await db.run(`update operation_log_head set seq = ${ROWS}, hash = 'h' where id = 1`);
  if (db.pg) await db.run('analyze operation_logs');
}

async function partQuery() {
  console.log(`\n2. The log page's query over ${n(ROWS)} records (${DIALECT}; load average ${load()})`);
  const app = await freshServer();
  try {
    const db = await openDatabase(app);
    const now = Date.now();
    const written = await timed(() => writeRecords(db, now));
    await db.close();
    console.log(`${n(ROWS)} records of ${n(LOG_PEOPLE)} people over ${DAYS} days written straight into the database in ${s2(written.ms)}`);
    // the months inside the span, as the page's date range sends them
    const months = [];
    for (let d = new Date(now - (DAYS - 31) * DAY); d.getTime() < now - 31 * DAY; d.setUTCMonth(d.getUTCMonth() + 1)) {
      const y = d.getUTCFullYear();
      const m = d.getUTCMonth();
      const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
      const mm = String(m + 1).padStart(2, '0');
      months.push({ from: `${y}-${mm}-01`, to: `${y}-${mm}-${last}` });
    }
    const urls = Array.from({ length: QUERIES }, (_, i) => {
      const month = months[i % months.length];
      const person = 1000 + ((i * 7919) % LOG_PEOPLE);
      return `/api/Admin/OperationLogs?${new URLSearchParams({ userId: String(person), from: month.from, to: month.to, page: String(1 + (i % 5)), pageSize: '20' })}`;
    });
    const get = (url) => callOk(app.server.url, 'GET', url, { token: app.token });
    for (let i = 0; i < 10; i++) {
      await get('/api/Admin/Scope');
      await get(urls[urls.length - 1 - i]);
    }
    const times = [];
    const bases = [];
    let rowsSeen = 0;
    let totals = 0;
    for (const url of urls) {
      bases.push((await timed(() => get('/api/Admin/Scope'))).ms);
      const t = await timed(() => get(url));
      times.push(t.ms);
      rowsSeen += t.result.data.length;
      totals += t.result.total;
    }
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    const b50 = percentile(bases, 50);
    const b99 = percentile(bases, 99);
    table(['', 'p50', 'p99', 'p99 / baseline'], [
      ['GET /api/Admin/Scope (baseline)', f1(b50), f1(b99), ''],
      [`one person, one month, pages 1–5 (goal p99 ≤ ${GOAL.p99Ms} ms)`, f1(p50), `${f1(p99)} ${pass(p99 <= GOAL.p99Ms)}`, ratio(p99, b99)],
    ]);
    console.log(`  ${QUERIES} calls answered ${n(rowsSeen)} rows; a person's month holds ${n(Math.round(totals / QUERIES))} records on average`);
    return { rows: ROWS, writeMs: written.ms, p50, p99, baseP50: b50, baseP99: b99, goal: GOAL.p99Ms, met: p99 <= GOAL.p99Ms };
  } finally {
    await app.stop();
  }
}

/* ---------------------------------------------------------------- 3. 系统公告 to PEOPLE people */

async function writePeople(db) {
  const now = Date.now();
  // 7 parameters a row stay under SQLite's 32,766
  const batch = 2_000;
  for (let base = 0; base < PEOPLE; base += batch) {
    const size = Math.min(batch, PEOPLE - base);
    const rows = [];
    const params = [];
    for (let i = base; i < base + size; i++) {
      const name = `notice${i}`;
      rows.push(db.pg ? `($${params.length + 1}, $${params.length + 1}, $${params.length + 2}, $${params.length + 2}, '!seeded', ${now}, ${now}, ${now})` : '(?, ?, ?, ?, \'!seeded\', ?, ?, ?)');
      if (db.pg) params.push(name, `公告读者${i}`);
      else params.push(name, name, `公告读者${i}`, `公告读者${i}`, now, now, now);
    }
    const sql = `insert into users (user_name, user_name_key, nick_name, nick_name_key, password_hash, created_at, updated_at, password_changed_at) values ${rows.join(', ')}`;
    if (db.pg) await db.run(sql, params);
    else {
      await db.run('begin');
      await db.run(sql, params);
      await db.run('commit');
    }
  }
  if (db.pg) await db.run('analyze users');
}

async function partAnnounce() {
  console.log(`\n3. A 系统公告 to ${n(PEOPLE)} people (${DIALECT}; load average ${load()})`);
  const app = await freshServer();
  try {
    const db = await openDatabase(app);
    const written = await timed(() => writePeople(db));
    const active = Number((await db.one('select count(*) as n from users where disabled = 0')).n);
    console.log(`${n(PEOPLE)} people written straight into the database in ${s2(written.ms)} (${n(active)} active with the administrator)`);
    // one of them signs in to read it (a password of their own)
    const reader = await apiOk(app.server, 'POST', '/api/Admin/Users', {
      token: app.token,
      body: { userName: 'notice-reader', nickName: '公告读者', password: 'Bench-Notice-Passw0rd-1', deptId: null, mustChangePassword: false },
    });
    const { token } = await login(app.server, 'notice-reader', 'Bench-Notice-Passw0rd-1');
    const base = await timed(() => callOk(app.server.url, 'GET', '/api/Notices/UnreadCount', { token }));
    const count = async () => Number((await db.one("select count(*) as n from notices where kind = 'announcement'")).n);
    const t0 = performance.now();
    await callOk(app.server.url, 'POST', '/api/Admin/Announcements', { token: app.token, json: { title: '系统维护通知', body: '本周六 22:00–24:00 系统维护，期间暂停服务。', scope: 'all' } });
    let all = 0;
    for (;;) {
      all = await count();
      if (all >= active || performance.now() - t0 > 120_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const allMs = performance.now() - t0;
    const page = await callOk(app.server.url, 'GET', '/api/Notices?page=1&pageSize=5', { token });
    const seenMs = performance.now() - t0;
    await db.close();
    const shown = page.data.some((x) => x.kind === 'announcement');
    const ok = all >= active && shown && seenMs <= GOAL.announceS * 1000;
    table(['', 'time'], [
      ['GET /api/Notices/UnreadCount of one person (baseline)', f1(base.ms)],
      [`all ${n(all)} in-app notices made`, s2(allMs)],
      [`the reader's 消息中心 shows it (goal ≤ ${GOAL.announceS} s)`, `${s2(seenMs)} ${pass(ok)}`],
    ]);
    if (!shown) console.log('  the reader did not see the announcement');
    void reader;
    return { people: PEOPLE, notices: all, allMs, seenMs, baseMs: base.ms, goal: GOAL.announceS, met: ok };
  } finally {
    await app.stop();
  }
}

export async function run() {
  console.log(`database: ${DIALECT} (set BENCH_DATABASE_URL=postgres://… for PostgreSQL); ${os.cpus().length} CPUs`);
  const out = {};
  if (PARTS.has('cost')) out.cost = await partCost();
  if (PARTS.has('query')) out.query = await partQuery();
  if (PARTS.has('announce')) out.announce = await partAnnounce();
  return out;
}
