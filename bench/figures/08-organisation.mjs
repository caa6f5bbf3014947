// Figure 8: organisation administration at scale, each line against a baseline measured in the
// same run. The built server runs as e2e starts it, on SQLite (a fresh DATA_DIR), or on a fresh
// PostgreSQL database per part when BENCH_DATABASE_URL is set (postgres://…/any: databases
// yd_bench_org_* are created next to it and dropped at the end).
// 1. 目录同步 of 10,000 people in 500 departments from a private OpenLDAP (the fixture of the
//    server's tests, run by server/test/support/slapd-launcher.ts): LDAP settings saved with base ou=总部, then the first
//    sync (POST /api/Admin/Directory/Ldap/Sync, the plan, + POST …/Runs/{id}/Apply) and a
//    re-sync without changes (plan + apply), against the raw paged read of the same people with
//    ldapsearch (-E pr=500). Goals: first sync ≤ 60 s, re-sync ≤ 10 s.
// 2. The 用户 page's call at 100,000 people in ~500 departments (50 centres of ~2,000 people, 9
//    groups each), written straight into the database: 200 × GET /api/Admin/Users?deptId=<a
//    centre>&page=1..5&pageSize=20, each right after a GET /api/Admin/Scope (auth + one query:
//    the baseline), p50 / p99; goal p99 ≤ 50 ms. The same with keyword= inside the centre, and
//    keyword= over everybody, for information.
// 3. 批量导入 of a 10,000-row XLSX made with exceljs in the template's columns (10,000 new people
//    in 100 department paths 总部/中心N/组M): POST /api/Admin/Users/Import (the check) and
//    POST …/Import/{importId}/Apply on a fresh server, the server's RSS read from /proc every
//    50 ms, against exceljs loading the same file in this process. Goals: check + apply ≤ 30 s,
//    server RSS growth ≤ 100 MB.
// BENCH_ORG_PEOPLE (default 10000), BENCH_ORG_USERS (100000), BENCH_ORG_IMPORT_ROWS (10000) and
// BENCH_ORG_QUERIES (200) make it smaller; BENCH_ORG_PARTS=directory,users,import runs only those parts.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { apiOk } from '../../e2e/harness.mjs';
import { ROOT, median, printTable, ratio, rng } from '../lib/util.mjs';
import { freshServer as freshServerNextTo, percentile } from '../lib/load-users.mjs';

export const id = 'organisation';
export const title = 'Figure 8: organisation administration at scale — LDAP sync of 10,000 people, the 用户 page at 100,000, import of a 10,000-row XLSX';

const PEOPLE = Number(process.env.BENCH_ORG_PEOPLE || 10_000);
const USERS = Number(process.env.BENCH_ORG_USERS || 100_000);
const IMPORT_ROWS = Number(process.env.BENCH_ORG_IMPORT_ROWS || 10_000);
const QUERIES = Number(process.env.BENCH_ORG_QUERIES || 200);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || '';
const PARTS = new Set((process.env.BENCH_ORG_PARTS || 'directory,users,import').split(',').map((p) => p.trim()));
const DIRECTORY_DEPARTMENTS = Math.max(1, Math.min(500, Math.round(PEOPLE / 20)));
const DIRECTORY_SEED = 8;
const CENTRES = Math.max(1, Math.min(50, Math.round(USERS / 2_000)));
const GROUPS_PER_CENTRE = 9;
const SEED_TX_ROWS = 5_000;
const PAGE_SIZE = 20;
const WARMUPS = 10;
const RSS_EVERY_MS = 50;
const GOAL = { firstSyncS: 60, resyncS: 10, p99Ms: 50, importS: 30, rssMB: 100 };

const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));
const DIALECT = DATABASE_URL ? 'PostgreSQL' : 'SQLite';

/* ---------------------------------------------------------------- small helpers */

const s1 = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
const f1 = (ms) => `${ms.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const n = (x) => Number(x).toLocaleString('en');
const pass = (ok) => (ok ? 'PASS' : 'MISS');
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

/**
 * One API call over plain node:http without any client timeout (a sync or an import may take
 * longer than fetch's limits); returns { status, body } with the envelope parsed.
 */
function call(server, method, urlPath, { token, json, body, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const h = { Accept: 'application/json', ...headers };
    if (token) h.Authorization = `Bearer ${token}`;
    let payload = body;
    if (json !== undefined) {
      payload = Buffer.from(JSON.stringify(json));
      h['Content-Type'] = 'application/json';
    }
    if (payload) h['Content-Length'] = payload.length;
    const req = http.request(`${server.url}${urlPath}`, { method, headers: h, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function callOk(server, method, urlPath, opts) {
  const { status, body } = await call(server, method, urlPath, opts);
  if (status !== 200 || !body || typeof body !== 'object' || body.code !== 200) {
    throw new Error(`${method} ${urlPath} -> HTTP ${status} ${JSON.stringify(body).slice(0, 600)}`);
  }
  return body.result;
}

/** The resident set of a process, in bytes (VmRSS of /proc/<pid>/status). */
function rssOf(pid) {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** Reads a process's RSS every RSS_EVERY_MS until stop(): the peak and the number of readings. */
function sampleRss(read) {
  let peak = read();
  let readings = 1;
  const timer = setInterval(() => {
    const v = read();
    readings++;
    if (v > peak) peak = v;
  }, RSS_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      const v = read();
      if (v > peak) peak = v;
      return { peak, readings: readings + 1, last: v };
    },
  };
}

/* ---------------------------------------------------------------- databases */

/** The server on a fresh database (a new PostgreSQL database when BENCH_DATABASE_URL is set), the administrator signed in. */
const freshServer = (env = {}) => freshServerNextTo(DATABASE_URL, 'yd_bench_org', DATABASE_URL ? serverRequire('pg') : null, env);

/* ---------------------------------------------------------------- 1. directory sync */

/** Starts server/test/support/slapd-launcher.ts under tsx; resolves with its connection data and stop(). */
function startDirectory(people, departments, seed) {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, [path.join(ROOT, 'server', 'test', 'support', 'slapd-launcher.ts'), String(people), String(departments), String(seed)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    if (stderr.length < 64 * 1024) stderr += d;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const info = JSON.parse(line);
      const active = info.people.filter((p) => !p.disabled).length;
      resolve({
        ...info,
        // counts: the figure prints and records these
        people: info.people.length,
        active,
        departments: info.departments.length,
        async stop() {
          child.stdin.end();
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(timer);
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`the directory did not start (exit ${code}):\n${stderr}`)));
  });
}

/** ldapsearch's paged read of the people under `base` (output discarded); resolves with the time. */
function ldapsearch(dir, base, toDevNull = true) {
  const args = ['-x', '-LLL', '-H', dir.url, '-D', dir.bindDn, '-w', dir.bindPassword, '-b', base, '-E', 'pr=500/noprompt',
    '(objectClass=inetOrgPerson)', 'uid', 'cn', 'mail', 'mobile', 'employeeNumber', 'entryUUID'];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    if (toDevNull) {
      const child = spawn('ldapsearch', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve({ ms: performance.now() - t0 }) : reject(new Error(`ldapsearch exited ${code}: ${err}`))));
    } else {
      execFile('ldapsearch', args, { maxBuffer: 512 * 1024 * 1024 }, (err, stdout) => {
        if (err) reject(err);
        else resolve({ ms: performance.now() - t0, entries: (stdout.match(/^dn:/gm) || []).length });
      });
    }
  });
}

async function syncOnce(server, token, label) {
  const plan = await timed(() => callOk(server, 'POST', '/api/Admin/Directory/Ldap/Sync', { token }));
  if (plan.result.status !== 'planned') throw new Error(`${label}: the plan is ${plan.result.status}: ${plan.result.error}`);
  const apply = await timed(() => callOk(server, 'POST', `/api/Admin/Directory/Runs/${plan.result.id}/Apply`, { token }));
  if (apply.result.status !== 'applied') throw new Error(`${label}: the apply ended ${apply.result.status}: ${apply.result.error}`);
  return { planMs: plan.ms, applyMs: apply.ms, summary: plan.result.summary, applied: apply.result.summary };
}

async function partDirectory() {
  console.log(`1. 目录同步 from OpenLDAP (${DIALECT}; load average ${load()})`);
  const dir = await startDirectory(PEOPLE, DIRECTORY_DEPARTMENTS, DIRECTORY_SEED);
  let app;
  try {
    const base = `ou=总部,${dir.baseDn}`;
    app = await freshServer();
    const { server, token } = app;
    // warm-up (and the count of what the directory answers), then the timed reads
    const counted = await ldapsearch(dir, base, false);
    const reads = [];
    for (let i = 0; i < 3; i++) reads.push((await ldapsearch(dir, base)).ms);
    const readMs = median(reads);

    await apiOk(server, 'PUT', '/api/Admin/Directory/Ldap', {
      token,
      body: {
        enabled: true, url: dir.url, bindDn: dir.bindDn, bindPassword: dir.bindPassword, baseDn: base,
        userFilter: '(objectClass=inetOrgPerson)', maxDisablePercent: 10,
        // no scheduled sync in the middle of the measured ones
        intervalMinutes: 0,
      },
    });
    const loadBefore = load();
    const first = await syncOnce(server, token, 'first sync');
    const again = await syncOnce(server, token, 're-sync');
    const after = await ldapsearch(dir, base);
    const s = first.summary;
    const r = again.summary;
    if (s.adds !== counted.entries) console.log(`note: the plan adds ${s.adds} people, ldapsearch read ${counted.entries} entries (conflicts: ${s.conflicts.length})`);
    if (r.adds || r.updates || r.moves || r.disables) console.log(`note: the re-sync was not empty: ${JSON.stringify({ adds: r.adds, updates: r.updates, moves: r.moves, disables: r.disables })}`);

    const firstMs = first.planMs + first.applyMs;
    const againMs = again.planMs + again.applyMs;
    const per = (ms, count) => (count ? `${(ms / count).toFixed(2)} ms` : '');
    console.log(`${n(dir.people)} people generated (${n(dir.active)} in 总部, ${n(dir.people - dir.active)} moved to ou=离职), ${n(dir.departments)} OUs under 总部; slapd started with slapadd in ${s1(dir.startMs)}`);
    console.log(`baseline: ldapsearch -E pr=500/noprompt of the ${n(counted.entries)} inetOrgPerson entries under ou=总部, 6 attributes, output to /dev/null, median of 3 after a warm-up (${reads.map(s1).join(', ')}; once more after the syncs: ${s1(after.ms)})`);
    console.log(`load average before the syncs: ${loadBefore}`);
    printTable([
      { key: 'what', title: 'step' }, { key: 't', title: 'time', align: 'right' }, { key: 'per', title: 'per person', align: 'right' },
      { key: 'r', title: 'vs ldapsearch', align: 'right' }, { key: 'plan', title: 'plan' }, { key: 'goal', title: 'goal', align: 'right' },
      { key: 'res', title: 'result', align: 'right' },
    ], [
      { what: 'baseline: ldapsearch (paged, 500)', t: s1(readMs), per: per(readMs, counted.entries), r: '1.00×', plan: `${n(counted.entries)} entries` },
      { what: 'first sync: plan (Ldap/Sync)', t: s1(first.planMs), per: per(first.planMs, s.total), r: ratio(first.planMs, readMs), plan: `total ${n(s.total)}, adds ${n(s.adds)}, departments to create ${n(s.departmentsToCreate.length)}, conflicts ${s.conflicts.length}` },
      { what: 'first sync: apply (Runs/{id}/Apply)', t: s1(first.applyMs), per: per(first.applyMs, s.adds), r: ratio(first.applyMs, readMs), plan: 'plan again, then departments, people' },
      { what: 'first sync: plan + apply', t: s1(firstMs), per: per(firstMs, s.total), r: ratio(firstMs, readMs), plan: '', goal: `≤ ${GOAL.firstSyncS} s`, res: pass(firstMs <= GOAL.firstSyncS * 1000) },
      { what: 're-sync, no change: plan', t: s1(again.planMs), per: per(again.planMs, r.total), r: ratio(again.planMs, readMs), plan: `unchanged ${n(r.unchanged)}, adds ${r.adds}, updates ${r.updates}, moves ${r.moves}, disables ${r.disables}` },
      { what: 're-sync, no change: apply', t: s1(again.applyMs), per: per(again.applyMs, r.total), r: ratio(again.applyMs, readMs), plan: '' },
      { what: 're-sync, no change: plan + apply', t: s1(againMs), per: per(againMs, r.total), r: ratio(againMs, readMs), plan: '', goal: `≤ ${GOAL.resyncS} s`, res: pass(againMs <= GOAL.resyncS * 1000) },
    ]);
    return {
      people: dir.people, active: dir.active, departments: dir.departments, ldapsearchMs: readMs, ldapsearchRuns: reads,
      first: { planMs: first.planMs, applyMs: first.applyMs, totalMs: firstMs, adds: s.adds, departments: s.departmentsToCreate.length, pass: firstMs <= GOAL.firstSyncS * 1000 },
      resync: { planMs: again.planMs, applyMs: again.applyMs, totalMs: againMs, unchanged: r.unchanged, pass: againMs <= GOAL.resyncS * 1000 },
    };
  } finally {
    if (app) await app.stop();
    await dir.stop();
  }
}

/* ---------------------------------------------------------------- 2. the 用户 page at 100,000 */

const SURNAMES = [['王', 'wang'], ['李', 'li'], ['张', 'zhang'], ['刘', 'liu'], ['陈', 'chen'], ['杨', 'yang'], ['黄', 'huang'], ['赵', 'zhao'],
  ['吴', 'wu'], ['周', 'zhou'], ['徐', 'xu'], ['孙', 'sun'], ['马', 'ma'], ['朱', 'zhu'], ['胡', 'hu'], ['郭', 'guo'], ['何', 'he'], ['高', 'gao'],
  ['林', 'lin'], ['罗', 'luo'], ['郑', 'zheng'], ['梁', 'liang'], ['谢', 'xie'], ['宋', 'song'], ['唐', 'tang'], ['韩', 'han'], ['冯', 'feng'],
  ['邓', 'deng'], ['曹', 'cao'], ['彭', 'peng'], ['欧阳', 'ouyang'], ['司马', 'sima']];
const GIVEN = [['伟', 'wei'], ['芳', 'fang'], ['娜', 'na'], ['敏', 'min'], ['静', 'jing'], ['丽', 'li'], ['强', 'qiang'], ['磊', 'lei'], ['军', 'jun'],
  ['洋', 'yang'], ['勇', 'yong'], ['艳', 'yan'], ['杰', 'jie'], ['娟', 'juan'], ['涛', 'tao'], ['明', 'ming'], ['超', 'chao'], ['秀', 'xiu'],
  ['霞', 'xia'], ['平', 'ping'], ['刚', 'gang'], ['华', 'hua'], ['文', 'wen'], ['建', 'jian'], ['国', 'guo'], ['志', 'zhi'], ['海', 'hai'],
  ['鹏', 'peng'], ['辉', 'hui'], ['宇', 'yu'], ['浩', 'hao'], ['晨', 'chen'], ['欣', 'xin'], ['婷', 'ting'], ['雪', 'xue'], ['佳', 'jia']];
const CENTRE_NAMES = ['研发中心', '市场中心', '职能中心', '销售中心', '产品中心', '运营中心', '财务中心', '客户服务中心', '供应链中心', '质量管理中心'];
const GROUP_NAMES = ['综合组', '前端组', '后端组', '测试组', '运维组', '产品组', '设计组', '数据组', '销售组'];
const MOBILE_HEADS = ['13', '15', '17', '18', '19'];

/** A person: Chinese name, pinyin user name (numbered: unique), an 11-digit mobile and an employee number, all unique by `i`. */
function personOf(r, i, prefix, employeePrefix, multiplier) {
  const [sn, snPy] = SURNAMES[Math.floor(r() * r() * SURNAMES.length)];
  const given = Array.from({ length: r() < 0.35 ? 1 : 2 }, () => GIVEN[Math.floor(r() * GIVEN.length)]);
  const userName = `${prefix}${snPy}${given.map((g) => g[1]).join('')}${i + 1}`;
  // 9 digits from a bijection of i (the multiplier is prime to 10^9): unique
  const mobile = `${MOBILE_HEADS[i % MOBILE_HEADS.length]}${String((i * multiplier + 123_457) % 1_000_000_000).padStart(9, '0')}`;
  return {
    userName,
    nickName: sn + given.map((g) => g[0]).join(''),
    mobile,
    email: `${userName}@example.com`,
    employeeNo: `${employeePrefix}${String(i + 1).padStart(6, '0')}`,
  };
}

const key = (s) => s.trim().normalize('NFKC').toLowerCase();

/** The organisation of part 2: centres of ~2,000 people, each with 9 groups; a tenth of its people sit in the centre itself. */
function organisationPlan() {
  const perCentre = Math.floor(USERS / CENTRES);
  const centres = Array.from({ length: CENTRES }, (_, c) => ({
    name: `${CENTRE_NAMES[c % CENTRE_NAMES.length]}${c >= CENTRE_NAMES.length ? Math.floor(c / CENTRE_NAMES.length) + 1 : ''}`,
    people: c === CENTRES - 1 ? USERS - perCentre * (CENTRES - 1) : perCentre,
    groups: GROUP_NAMES.slice(0, GROUPS_PER_CENTRE),
  }));
  return centres;
}

const USER_COLUMNS = ['user_name', 'user_name_key', 'nick_name', 'nick_name_key', 'password_hash', 'dept_id', 'disabled', 'created_at',
  'updated_at', 'password_changed_at', 'mobile', 'email', 'employee_no', 'source'];

/** Every person's row (in USER_COLUMNS order), centre by centre: ids of departments from `deptIds`. */
function* personRows(centres, deptIds) {
  const r = rng(82);
  const now = Date.now();
  let i = 0;
  for (let c = 0; c < centres.length; c++) {
    const { people, groups } = centres[c];
    const direct = Math.round(people / 10);
    for (let k = 0; k < people; k++, i++) {
      const dept = k < direct ? deptIds[c].centre : deptIds[c].groups[(k - direct) % groups.length];
      const p = personOf(r, i, '', 'E', 7_919);
      const created = now - Math.floor(r() * 3 * 365) * 86_400_000;
      yield [p.userName, key(p.userName), p.nickName, key(p.nickName), '!seeded', dept, i % 50 === 49 ? 1 : 0, created, created, created,
        p.mobile, p.email, p.employeeNo, 'local'];
    }
  }
}

/** Writes the departments and the people straight into the server's SQLite file, 5,000 people per transaction. */
function seedSqlite(server, centres) {
  const Database = serverRequire('better-sqlite3');
  const db = new Database(path.join(server.dataDir, 'app.db'));
  db.pragma('busy_timeout = 10000');
  db.pragma('synchronous = NORMAL');
  try {
    const root = db.prepare('select id, path from departments where parent_id is null order by id limit 1').get();
    const now = Date.now();
    const insertDept = db.prepare(`insert into departments (parent_id, name, path, sort_order, created_at) values (?, ?, '', 0, ?) returning id`);
    const setPath = db.prepare('update departments set path = ? where id = ?');
    // as insertDepartment makes them: the row, then its path of ids from the root
    const dept = (parentId, parentPath, name) => {
      const { id } = insertDept.get(parentId, name, now);
      const p = `${parentPath}/${id}`;
      setPath.run(p, id);
      return { id, path: p };
    };
    const deptIds = db.transaction(() => centres.map((c) => {
      const centre = dept(root.id, root.path, c.name);
      return { centre: centre.id, path: centre.path, groups: c.groups.map((g) => dept(centre.id, centre.path, g).id) };
    }))();
    const insert = db.prepare(`insert into users (${USER_COLUMNS.join(', ')}) values (${USER_COLUMNS.map(() => '?').join(', ')})`);
    const writeBatch = db.transaction((rows) => {
      for (const row of rows) insert.run(row);
    });
    let batch = [];
    for (const row of personRows(centres, deptIds)) {
      batch.push(row);
      if (batch.length === SEED_TX_ROWS) {
        writeBatch(batch);
        batch = [];
      }
    }
    if (batch.length) writeBatch(batch);
    db.pragma('wal_checkpoint(TRUNCATE)');
    return deptIds;
  } finally {
    db.close();
  }
}

/** The same into PostgreSQL: 500 rows per statement, 5,000 per transaction; then ANALYZE, as autovacuum would soon. */
async function seedPostgres(url, centres) {
  const pg = serverRequire('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const root = (await c.query('select id, path from departments where parent_id is null order by id limit 1')).rows[0];
    const now = Date.now();
    const dept = async (parentId, parentPath, name) => {
      const { id } = (await c.query(`insert into departments (parent_id, name, path, sort_order, created_at) values ($1, $2, '', 0, $3) returning id`, [parentId, name, now])).rows[0];
      const p = `${parentPath}/${id}`;
      await c.query('update departments set path = $1 where id = $2', [p, id]);
      return { id: Number(id), path: p };
    };
    await c.query('begin');
    const deptIds = [];
    for (const ct of centres) {
      const centre = await dept(root.id, root.path, ct.name);
      const groups = [];
      for (const g of ct.groups) groups.push((await dept(centre.id, centre.path, g)).id);
      deptIds.push({ centre: centre.id, path: centre.path, groups });
    }
    await c.query('commit');
    const width = USER_COLUMNS.length;
    const flush = async (rows) => {
      const values = rows.map((_, r) => `(${USER_COLUMNS.map((__, k) => `$${r * width + k + 1}`).join(', ')})`).join(', ');
      await c.query(`insert into users (${USER_COLUMNS.join(', ')}) values ${values}`, rows.flat());
    };
    let tx = 0;
    let stmt = [];
    await c.query('begin');
    for (const row of personRows(centres, deptIds)) {
      stmt.push(row);
      if (stmt.length === 500) {
        await flush(stmt);
        stmt = [];
      }
      if (++tx === SEED_TX_ROWS) {
        if (stmt.length) await flush(stmt);
        stmt = [];
        await c.query('commit');
        await c.query('begin');
        tx = 0;
      }
    }
    if (stmt.length) await flush(stmt);
    await c.query('commit');
    await c.query('analyze users');
    await c.query('analyze departments');
    return deptIds;
  } finally {
    await c.end();
  }
}

/**
 * Runs the calls of `urls` once each, every one right after a GET /api/Admin/Scope (the
 * baseline), after a warm-up of both; returns the times and the totals.
 */
async function timeCalls(server, token, urls) {
  const get = (url) => apiOk(server, 'GET', url, { token });
  for (let i = 0; i < Math.min(WARMUPS, urls.length); i++) {
    await get('/api/Admin/Scope');
    await get(urls[urls.length - 1 - i]);
  }
  const out = [];
  for (const url of urls) {
    const base = await timed(() => get('/api/Admin/Scope'));
    const t = await timed(() => get(url));
    out.push({ url, ms: t.ms, baseMs: base.ms, total: t.result.total, rows: t.result.data.length });
  }
  return out;
}

async function partUsersPage() {
  console.log(`\n2. The 用户 page's call at ${n(USERS)} people (${DIALECT}; load average ${load()})`);
  const app = await freshServer();
  try {
    const { server, token, database } = app;
    const centres = organisationPlan();
    const seeded = await timed(async () => (database.url ? seedPostgres(database.url, centres) : seedSqlite(server, centres)));
    const deptIds = seeded.result;
    // let the server's event loop see the idle time (no request on a socket it is closing)
    await new Promise((resolve) => setTimeout(resolve, 200));
    const departments = centres.length * (1 + GROUPS_PER_CENTRE) + 1;
    console.log(`${n(USERS)} people (2 % disabled) and ${n(departments)} departments (总部, ${centres.length} centres of ~${n(Math.floor(USERS / CENTRES))} people, ${GROUPS_PER_CENTRE} groups each) written straight into the database in ${s1(seeded.ms)}, ${n(SEED_TX_ROWS)} people per transaction${database.url ? ', then ANALYZE' : ' (no ANALYZE: the server never runs one)'}`);
    console.log(`load average after the writes: ${load()}`);

    // the centre rotates among the first ten, the page among 1..5
    const r = rng(83);
    const centreOf = (i) => deptIds[i % Math.min(10, deptIds.length)].centre;
    const KEYWORDS = ['zhang', 'wei', '王', '李娜', '138', 'e0012', 'li', 'ouyang', '@example', 'xiao', '刚', 'hao1'];
    const pageOf = (i) => 1 + (i % 5);
    const lines = [
      { what: 'deptId (subtree of a centre), page 1–5', urls: Array.from({ length: QUERIES }, (_, i) => `/api/Admin/Users?${new URLSearchParams({ deptId: String(centreOf(i)), page: String(pageOf(i)), pageSize: String(PAGE_SIZE) })}`), goal: true },
      { what: 'deptId + keyword (substring), page 1–5', urls: Array.from({ length: QUERIES }, (_, i) => `/api/Admin/Users?${new URLSearchParams({ deptId: String(centreOf(i)), keyword: KEYWORDS[Math.floor(r() * KEYWORDS.length)], page: String(pageOf(i)), pageSize: String(PAGE_SIZE) })}`) },
      { what: `keyword over all ${n(USERS)}, page 1–5`, urls: Array.from({ length: QUERIES }, (_, i) => `/api/Admin/Users?${new URLSearchParams({ keyword: KEYWORDS[Math.floor(r() * KEYWORDS.length)], page: String(pageOf(i)), pageSize: String(PAGE_SIZE) })}`) },
    ];
    const rows = [];
    const summary = {};
    for (const line of lines) {
      const res = await timeCalls(server, token, line.urls);
      const t = res.map((x) => x.ms);
      const b = res.map((x) => x.baseMs);
      const p50 = percentile(t, 50);
      const p99 = percentile(t, 99);
      const b50 = percentile(b, 50);
      const b99 = percentile(b, 99);
      summary[line.what] = { n: res.length, p50, p99, max: Math.max(...t), scopeP50: b50, scopeP99: b99, medianTotal: median(res.map((x) => x.total)) };
      rows.push({
        what: `GET /api/Admin/Users: ${line.what}`, n: res.length, total: n(Math.round(median(res.map((x) => x.total)))),
        p50: f1(p50), p99: f1(p99), max: f1(Math.max(...t)), b50: f1(b50), b99: f1(b99), r50: ratio(p50, b50), r99: ratio(p99, b99),
        goal: line.goal ? `≤ ${GOAL.p99Ms} ms` : '(info)', res: line.goal ? pass(p99 <= GOAL.p99Ms) : '',
      });
      if (line.goal) summary.pass = p99 <= GOAL.p99Ms;
    }
    const first = summary[lines[0].what];
    console.log(`${QUERIES} calls per line after ${WARMUPS} warm-ups, pageSize ${PAGE_SIZE}, deptId among the first ${Math.min(10, deptIds.length)} centres (with their groups), each call right after a GET /api/Admin/Scope (the baseline: auth + one query); p99 by nearest rank`);
    printTable([
      { key: 'what', title: 'call' }, { key: 'n', title: 'calls', align: 'right' }, { key: 'total', title: 'median total', align: 'right' },
      { key: 'p50', title: 'p50', align: 'right' }, { key: 'p99', title: 'p99', align: 'right' }, { key: 'max', title: 'max', align: 'right' },
      { key: 'b50', title: 'Scope p50', align: 'right' }, { key: 'b99', title: 'Scope p99', align: 'right' },
      { key: 'r50', title: 'p50 ratio', align: 'right' }, { key: 'r99', title: 'p99 ratio', align: 'right' },
      { key: 'goal', title: 'goal p99', align: 'right' }, { key: 'res', title: 'result', align: 'right' },
    ], [
      { what: 'baseline: GET /api/Admin/Scope (interleaved with line 1)', n: first.n, p50: f1(first.scopeP50), p99: f1(first.scopeP99), b50: f1(first.scopeP50), b99: f1(first.scopeP99), r50: '1.00×', r99: '1.00×' },
      ...rows,
    ]);
    return { users: USERS, departments, seedMs: seeded.ms, lines: summary };
  } finally {
    await app.stop();
  }
}

/* ---------------------------------------------------------------- 3. import of a 10,000-row XLSX */

const IMPORT_COLUMNS = ['用户名', '昵称', '部门', '工号', '手机', '邮箱', '角色', '个人空间配额(GB)', '状态'];

async function importWorkbook(ExcelJS) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(IMPORT_COLUMNS);
  const r = rng(84);
  for (let i = 0; i < IMPORT_ROWS; i++) {
    const p = personOf(r, i, 'im', 'B', 104_729);
    const path = i % 100;
    sheet.addRow([
      p.userName, p.nickName, `总部/中心${Math.floor(path / 10) + 1}/组${(path % 10) + 1}`, p.employeeNo, p.mobile, p.email,
      i % 50 === 0 ? '文档管理员' : '', i % 20 === 0 ? '20' : '', '正常',
    ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

function multipart(fields, file) {
  const boundary = `----yunwendang-bench-${Date.now().toString(16)}`;
  const parts = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function partImport() {
  console.log(`\n3. 批量导入 of a ${n(IMPORT_ROWS)}-row XLSX (${DIALECT}; load average ${load()})`);
  const ExcelJS = serverRequire('exceljs');
  const made = await timed(() => importWorkbook(ExcelJS));
  const bytes = made.result;

  // baseline: the same file loaded by exceljs here (median of 3, RSS of this process read alongside)
  const loads = [];
  let baseGrowth = 0;
  for (let i = 0; i < 3; i++) {
    if (global.gc) global.gc();
    const before = process.memoryUsage().rss;
    const sampler = sampleRss(() => process.memoryUsage().rss);
    const t = await timed(() => new ExcelJS.Workbook().xlsx.load(bytes));
    const { peak } = sampler.stop();
    loads.push(t.ms);
    baseGrowth = Math.max(baseGrowth, peak - before);
    if (t.result.worksheets[0].rowCount !== IMPORT_ROWS + 1) throw new Error(`exceljs read ${t.result.worksheets[0].rowCount} rows`);
  }
  const loadMs = median(loads);

  const app = await freshServer();
  try {
    const { server, token } = app;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssBefore = rssOf(server.pid);
    const form = multipart({ mode: 'upsert' }, { name: 'bench-users.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes });
    let sampler = sampleRss(() => rssOf(server.pid));
    const check = await timed(() => callOk(server, 'POST', '/api/Admin/Users/Import', { token, body: form.body, headers: { 'Content-Type': form.contentType } }));
    const checkRss = sampler.stop();
    const plan = check.result;
    if (plan.errors.length) throw new Error(`the check refused ${plan.errors.length} rows, e.g. ${JSON.stringify(plan.errors.slice(0, 3))}`);
    if (plan.adds !== IMPORT_ROWS) throw new Error(`the check plans ${plan.adds} adds, not ${IMPORT_ROWS}`);
    sampler = sampleRss(() => rssOf(server.pid));
    const apply = await timed(() => callOk(server, 'POST', `/api/Admin/Users/Import/${plan.importId}/Apply`, { token, json: { confirmDisable: 0 } }));
    const applyRss = sampler.stop();
    const done = apply.result;
    if (done.added !== IMPORT_ROWS) throw new Error(`the apply added ${done.added}, not ${IMPORT_ROWS}`);
    const totalMs = check.ms + apply.ms;
    const growth = Math.max(checkRss.peak, applyRss.peak) - rssBefore;
    console.log(`file: ${n(IMPORT_ROWS)} new people in ${plan.departmentsToCreate.length} departments to create (100 paths 总部/中心N/组M), ${mb(bytes.length)}, made with exceljs in ${s1(made.ms)} (not counted)`);
    console.log(`baseline: new ExcelJS.Workbook().xlsx.load(buffer) in the bench process, median of 3 (${loads.map(s1).join(', ')}); this process's RSS growth during it: up to ${mb(baseGrowth)}`);
    console.log(`server RSS read every ${RSS_EVERY_MS} ms from /proc/${server.pid}/status: ${mb(rssBefore)} before the check, ${mb(applyRss.last)} after the apply (${checkRss.readings + applyRss.readings} readings)`);
    printTable([
      { key: 'what', title: 'step' }, { key: 't', title: 'time', align: 'right' }, { key: 'per', title: 'per row', align: 'right' },
      { key: 'r', title: 'vs exceljs load', align: 'right' }, { key: 'peak', title: 'server RSS peak', align: 'right' },
      { key: 'grow', title: 'growth', align: 'right' }, { key: 'goal', title: 'goal', align: 'right' }, { key: 'res', title: 'result', align: 'right' },
    ], [
      { what: 'baseline: exceljs load in the bench process', t: s1(loadMs), per: f1(loadMs / IMPORT_ROWS), r: '1.00×', grow: `(${mb(baseGrowth)})` },
      { what: 'check (POST Users/Import)', t: s1(check.ms), per: f1(check.ms / IMPORT_ROWS), r: ratio(check.ms, loadMs), peak: mb(checkRss.peak), grow: mb(checkRss.peak - rssBefore) },
      { what: 'apply (Import/{id}/Apply)', t: s1(apply.ms), per: f1(apply.ms / IMPORT_ROWS), r: ratio(apply.ms, loadMs), peak: mb(applyRss.peak), grow: mb(applyRss.peak - rssBefore) },
      { what: 'check + apply: time', t: s1(totalMs), per: f1(totalMs / IMPORT_ROWS), r: ratio(totalMs, loadMs), goal: `≤ ${GOAL.importS} s`, res: pass(totalMs <= GOAL.importS * 1000) },
      { what: 'check + apply: server RSS growth', peak: mb(Math.max(checkRss.peak, applyRss.peak)), grow: mb(growth), goal: `≤ ${GOAL.rssMB} MB`, res: pass(growth <= GOAL.rssMB * 1024 * 1024) },
    ]);
    return {
      rows: IMPORT_ROWS, fileBytes: bytes.length, exceljsLoadMs: loadMs, exceljsLoadRuns: loads, benchRssGrowth: baseGrowth,
      checkMs: check.ms, applyMs: apply.ms, totalMs, rssBefore, checkPeak: checkRss.peak, applyPeak: applyRss.peak, rssGrowth: growth,
      departmentsCreated: done.departmentsCreated, pass: { time: totalMs <= GOAL.importS * 1000, rss: growth <= GOAL.rssMB * 1024 * 1024 },
    };
  } finally {
    await app.stop();
  }
}

/* ---------------------------------------------------------------- figure */

export async function run() {
  console.log(`database: ${DIALECT}${DATABASE_URL ? ' (a fresh database per part, from BENCH_DATABASE_URL)' : ' (set BENCH_DATABASE_URL=postgres://… for PostgreSQL)'}; ${os.cpus().length} CPUs\n`);
  const directory = PARTS.has('directory') ? await partDirectory() : null;
  const usersPage = PARTS.has('users') ? await partUsersPage() : null;
  const importing = PARTS.has('import') ? await partImport() : null;
  return { database: DIALECT, directory, usersPage, import: importing };
}
