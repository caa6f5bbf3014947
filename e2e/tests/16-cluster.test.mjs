// Several instances (issue 27) behind a real nginx round-robin balancer: two API instances
// started with the e2e harness, each with its own DATA_DIR, on one fresh PostgreSQL database, one
// bucket of a private S3 server (Ceph's RADOS Gateway, scripts/rgw.sh) and one SECRET_KEY, with
// nginx as deploy/nginx/cluster.conf sets it up (no stickiness, proxy_request_buffering off,
// client_max_body_size 16m, proxy_next_upstream off, X-Forwarded-For; e2e/support/nginx.mjs).
// Everything goes over plain HTTP through nginx:
//   1. sign-in and listings, answered in turn by both instances;
//   2. a 20 MB upload in 5 MB chunks, one instance SIGKILLed after chunk 2, the rest through the
//      survivor, the merge sent twice at once, the bytes back whole and by range;
//   3. a zip task polled and fetched through nginx; another whose building instance is SIGKILLed
//      mid-build is taken over by the survivor (15 s of stale heartbeat) and is right;
//   4. a text preview and a JPEG's thumbnail, from both instances;
//   5. an instance stopped and started again (same DATA_DIR) while sign-ins and listings go on:
//      no 500, nothing lost.
//
// Which instance answered is told by nginx's X-Upstream header ($upstream_addr). nginx marks an
// instance it could not reach as failed for 30 s (max_fails=1 fail_timeout=30s), so after a kill
// at most one request per gap gets nginx's 502; the client sends such a request again, as a
// browser's upload engine does (only where a 502 is expected: after a kill and during the
// restart, where a 503 of the closing instance is sent again too; anywhere else they fail the
// test). An instance started again listens on a new port
// (the harness picks it), so nginx's upstream list is rewritten and reloaded (SIGHUP), as the
// docker-compose profile says to do after recreating an instance.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, ROOT, missingBuilds, sleep, startServer } from '../harness.mjs';
import { nginxMissing, startBalancer } from '../support/nginx.mjs';
import { objectStoreMissing, startObjectStore } from '../support/rgw.mjs';
import { readZip } from '../support/zip.mjs';

const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));
const pg = serverRequire('pg');
const sharp = serverRequire('sharp');

const MiB = 1024 * 1024;
const CHUNK = 5 * MiB;
const BASE = '/api/User/FileTransfer';
const T = { timeout: 120_000 };
/** the PostgreSQL server the fresh database is made on */
const PG_ADMIN_URL = process.env.E2E_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function pgMissing() {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return null;
  } catch (err) {
    return `PostgreSQL is not reachable at ${PG_ADMIN_URL} (${err.message})`;
  } finally {
    await c.end().catch(() => {});
  }
}

const skipReason = objectStoreMissing() || nginxMissing() || (await pgMissing());
if (skipReason) console.warn(`16-cluster: skipped: ${skipReason}`);

const md5 = (b) => crypto.createHash('md5').update(b).digest('hex');
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** A multipart body as a browser's FormData sends it. */
async function multipart(fields, bytes, filename) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  form.append('file', new Blob([bytes]), filename);
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type') };
}

const SUITE = 'several instances behind nginx (S3 store, one PostgreSQL)';
// a skipped test (not a skipped suite) so that the run's summary counts it as skipped
if (skipReason) test(SUITE, { skip: skipReason }, () => {});
else describe(SUITE, () => {
  const secretKey = crypto.randomBytes(32).toString('hex');
  const bucket = `yunwendang-e2e-${process.pid}`;
  const dbName = `yd_e2e_cluster_${process.pid}_${Date.now().toString(36)}`;
  let rgw;
  let lb;
  let commonEnv;
  let dataRoot;
  /** the two instances: name, DATA_DIR, current harness server, output of earlier processes */
  const inst = { a: { name: 'a', logs: [] }, b: { name: 'b', logs: [] } };
  /** port → instance name, over every process started */
  const portName = new Map();
  /** every answer through nginx: { part, method, path, status, upstream (instance name or address) } */
  const seen = [];
  const timings = [];
  let part = 'setup';
  let dbReady = false;
  /** the suite is being torn down: nothing started in the background may start an instance now */
  let closing = false;

  /* ------------------------------------------------------------- instances */

  async function startInstance(x) {
    const started = Date.now();
    x.server = await startServer({ env: { ...commonEnv, DATA_DIR: x.dataDir } });
    portName.set(x.server.port, x.name);
    return Date.now() - started;
  }

  /** SIGKILL of the instance's process group (the harness's child), waiting until it is gone. */
  async function kill9(x) {
    process.kill(-x.server.pid, 'SIGKILL');
    x.logs.push(x.server.output());
    await x.server.stop(); // only waits for the exit (and removes the harness's own empty DATA_DIR)
    x.server = null;
  }

  /**
   * A graceful stop: SIGTERM to the server alone, then up to 12 s for it to close (the server
   * gives itself 10 s); returns how long it took and what it said.
   */
  async function stopInstance(x) {
    const s = x.server;
    const started = Date.now();
    process.kill(s.pid, 'SIGTERM');
    const gone = () => {
      try {
        process.kill(s.pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    while (!gone() && Date.now() - started < 12_000) await sleep(50);
    const ms = Date.now() - started;
    await s.stop(); // the group's leftovers, the harness's own temp folder
    const output = s.output();
    x.logs.push(output);
    x.server = null;
    return { ms, closed: output.includes('云文档服务已关闭'), tail: output.split('\n').slice(-8).join('\n') };
  }

  /** nginx in front of the instances that run now. */
  const rebalance = () => lb.setUpstreams(Object.values(inst).filter((x) => x.server).map((x) => x.server.port));

  const allOutput = (x) => [...x.logs, x.server ? x.server.output() : ''].join('\n');
  /** error-level lines (pino level ≥ 50) and lines that name a 500 in an instance's output */
  const errorLines = (x) => allOutput(x).split('\n').filter((l) => /"level":\s*(50|60)\b|"statusCode":\s*500\b/.test(l));

  /* ------------------------------------------------------------- HTTP through nginx */

  const nameOf = (addr) => {
    const port = Number(String(addr || '').split(',').pop().trim().split(':').pop());
    return portName.get(port) ?? (addr || '-');
  };

  /**
   * One request through nginx on a fresh connection (so an nginx reload never meets a stale
   * keep-alive connection). Returns { status, headers, buf, body (JSON or text), upstream }.
   */
  function send(method, urlPath, { token, json, body, headers = {}, timeoutMs = 60_000 } = {}) {
    const h = { Accept: 'application/json', ...headers };
    if (token) h.Authorization = `Bearer ${token}`;
    let payload = body;
    if (json !== undefined) {
      h['Content-Type'] = 'application/json';
      payload = Buffer.from(JSON.stringify(json));
    }
    if (payload) h['Content-Length'] = String(payload.length);
    return new Promise((resolve, reject) => {
      const req = http.request(`${lb.url}${urlPath}`, { method, headers: h, agent: false, timeout: timeoutMs }, (res) => {
        const parts = [];
        res.on('data', (d) => parts.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const buf = Buffer.concat(parts);
          let parsed = buf.toString('utf8');
          if (/json/.test(res.headers['content-type'] || '')) {
            try {
              parsed = JSON.parse(parsed);
            } catch {
              /* not JSON after all */
            }
          }
          const upstream = nameOf(res.headers['x-upstream']);
          const entry = { part, method, path: urlPath.split('?')[0], status: res.statusCode, upstream };
          if (res.statusCode >= 400) entry.note = `${res.headers.server ?? ''} ${buf.toString('utf8').replace(/\s+/g, ' ').slice(0, 160)}`;
          seen.push(entry);
          resolve({ status: res.statusCode, headers: res.headers, buf, body: parsed, upstream });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath}: no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * send(), and the same request again when nginx answers 502 or 503 (it could not reach an
   * instance that was killed or is restarting), at most `tries` times. Returns the final answer
   * and how many such answers came before it.
   */
  async function sendRetrying(method, urlPath, opts = {}, { tries = 10 } = {}) {
    let failures = 0;
    for (;;) {
      const res = await send(method, urlPath, opts);
      if ((res.status !== 502 && res.status !== 503) || failures + 1 >= tries) return { ...res, failures };
      failures++;
      await sleep(100);
    }
  }

  const describeRes = (method, urlPath, res) =>
    `${method} ${urlPath} (instance ${res.upstream}) -> HTTP ${res.status} ${typeof res.body === 'string' ? res.body.slice(0, 300) : JSON.stringify(res.body).slice(0, 400)}`;

  /** The envelope's result of a 200 answer with code 200; anything else fails with the answer. */
  function ok(method, urlPath, res) {
    if (res.status !== 200 || !res.body || typeof res.body !== 'object' || res.body.code !== 200) throw new Error(describeRes(method, urlPath, res));
    return res.body.result;
  }
  const call = async (method, urlPath, opts) => ok(method, urlPath, await send(method, urlPath, opts));
  const callRetrying = async (method, urlPath, opts) => ok(method, urlPath, await sendRetrying(method, urlPath, opts));

  const signIn = (userName, password, retry = false) =>
    (retry ? callRetrying : call)('POST', '/api/login', { json: { userName, password, mode: 'password' } });
  const listing = async (token, folderId, retry = false) => {
    const urlPath = `/api/User/Folders/${folderId}/Items?pageSize=1000`;
    const res = await (retry ? sendRetrying : send)('GET', urlPath, { token });
    return Object.assign(ok('GET', urlPath, res).items.data, { upstream: res.upstream });
  };

  /* ------------------------------------------------------------- uploads */

  async function createSession(token, folderId, fileName, size) {
    const created = await call('POST', `${BASE}/CheckAndCreateFileInfo`, {
      token,
      json: { folderId, fileName, size, type: null, strategy: null, relativePath: fileName, taskId: crypto.randomUUID(), shareId: null },
    });
    assert.equal(created.conflictType, 0, `${fileName}: no conflict expected`);
    return created.fileInfo.fileId;
  }

  /** UploadChunk2 (multipart) of chunk n of `bytes`. */
  async function sendChunk(token, fileId, fileName, bytes, n, { retry = false } = {}) {
    const total = Math.max(1, Math.ceil(bytes.length / CHUNK));
    const piece = bytes.subarray((n - 1) * CHUNK, Math.min(bytes.length, n * CHUNK));
    const fields = {
      chunkNumber: n, totalChunks: total, chunkSize: CHUNK, currentChunkSize: piece.length, totalSize: bytes.length,
      identifier: fileId, filename: fileName, relativePath: fileName,
    };
    const { body, contentType } = await multipart(fields, piece, fileName);
    const q = new URLSearchParams({ fileId, RelativePath: fileName });
    const urlPath = `${BASE}/UploadChunk2?${q}`;
    const res = await (retry ? sendRetrying : send)('POST', urlPath, { token, body, headers: { 'Content-Type': contentType } });
    return { result: ok('POST', urlPath, res), upstream: res.upstream, failures: res.failures ?? 0 };
  }

  /** A whole upload through nginx (every chunk in turn, then the merge); returns the Item. */
  async function upload(token, folderId, fileName, bytes) {
    const fileId = await createSession(token, folderId, fileName, bytes.length);
    const total = Math.max(1, Math.ceil(bytes.length / CHUNK));
    for (let n = 1; n <= total; n++) await sendChunk(token, fileId, fileName, bytes, n);
    return call('POST', `${BASE}/UploadMerge2`, { token, json: { fileId, relativePath: fileName, fileHash: md5(bytes) } });
  }

  async function download(token, id, headers = {}) {
    const urlPath = `${BASE}/Download/${id}`;
    const res = await send('GET', urlPath, { token, headers: { Accept: '*/*', ...headers } });
    if (res.status !== 200 && res.status !== 206) throw new Error(describeRes('GET', urlPath, res));
    return res;
  }

  /* ------------------------------------------------------------- the database */

  const dbUrl = () => {
    const u = new URL(PG_ADMIN_URL);
    u.pathname = `/${dbName}`;
    return u.toString();
  };
  async function adminQuery(text) {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    try {
      return await c.query(text);
    } finally {
      await c.end();
    }
  }
  async function dbQuery(text, values) {
    const c = new pg.Client({ connectionString: dbUrl() });
    await c.connect();
    try {
      return (await c.query(text, values)).rows;
    } finally {
      await c.end();
    }
  }

  /* ------------------------------------------------------------- shared state of the parts */

  let alice; // { userName, password }
  let token; // alice's
  let work; // her folder 集群测试
  let big; // { bytes, item } of the 20 MB upload
  const countBy = (rows) => rows.reduce((m, r) => ((m[r.upstream] = (m[r.upstream] ?? 0) + 1), m), {});
  const timed = async (label, fn) => {
    const started = Date.now();
    try {
      return await fn();
    } finally {
      const ms = Date.now() - started;
      timings.push([label, ms]);
      console.log(`[16-cluster] ${label}: ${seconds(ms)}`);
    }
  };
  const setupStarted = Date.now();

  before(async () => {
    const notBuilt = missingBuilds('server/dist/server.js');
    if (notBuilt) throw new Error(notBuilt);
    await timed('setup (RGW, database, two instances, nginx)', async () => {
      dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-cluster-'));
      const [store] = await Promise.all([
        startObjectStore(),
        adminQuery(`CREATE DATABASE ${dbName}`).then(() => (dbReady = true)),
      ]);
      rgw = store;
      commonEnv = {
        DATABASE_URL: dbUrl(),
        ...rgw.env(bucket),
        SECRET_KEY: secretKey,
        TRUST_PROXY: '127.0.0.1',
      };
      for (const x of Object.values(inst)) {
        x.dataDir = path.join(dataRoot, x.name);
        fs.mkdirSync(x.dataDir);
      }
      // one after the other: the first one migrates the fresh database and makes the administrator
      // both at once, as docker-compose starts them: one migrates the fresh database and makes
      // the administrator, the other waits for the migration lock and finds them
      const [msA, msB] = await Promise.all([startInstance(inst.a), startInstance(inst.b)]);
      console.log(`[16-cluster] RGW ready in ${seconds(rgw.startMs)}; instance a started in ${seconds(msA)}, b in ${seconds(msB)}`);
      lb = await startBalancer({ upstreams: [inst.a.server.port, inst.b.server.port], maxFails: 1, failTimeout: '30s' });
    });
  });

  after(async () => {
    closing = true;
    const started = Date.now();
    await Promise.all(Object.values(inst).map((x) => x.server?.stop().catch(() => {})));
    const nginxErrors = lb?.errorLog().split('\n').filter((l) => l && !/buffered to a temporary file/.test(l)).join('\n');
    if (nginxErrors) console.log(`[16-cluster] nginx's error log:\n${nginxErrors.split('\n').slice(-40).join('\n')}`);
    if (process.env.E2E_KEEP_DATA && lb) fs.copyFileSync(path.join(lb.dir, 'access.log'), path.join(os.tmpdir(), `yunwendang-e2e-cluster-access-${process.pid}.log`));
    await Promise.all([
      lb?.stop().catch(() => {}),
      rgw?.stop().catch(() => {}),
      dbReady && adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((err) => console.warn(`16-cluster: could not drop ${dbName}: ${err.message}`)),
    ]);
    if (dataRoot) fs.rmSync(dataRoot, { recursive: true, force: true });
    timings.push(['teardown', Date.now() - started]);
    console.log(`[16-cluster] timings: ${timings.map(([l, ms]) => `${l} ${seconds(ms)}`).join('; ')}; total ${seconds(Date.now() - setupStarted)}`);
  });

  test('1. sign-in and listings through nginx, answered in turn by both instances', T, async () => {
    part = 'signin';
    await timed('part 1 (sign-in, listings)', async () => {
      const admin = await signIn(ADMIN_USER, ADMIN_PASSWORD);
      alice = { userName: `e2e_cluster_${Date.now().toString(36)}`, password: `E2e-Cluster-Passw0rd-${process.pid}!` };
      await call('POST', '/api/Admin/Users', { token: admin.token, json: { ...alice, nickName: '集群用户', deptId: null, mustChangePassword: false } });
      token = (await signIn(alice.userName, alice.password)).token;
      const roots = await call('GET', '/api/User/Folders/Personal/RootFolders', { token });
      const root = roots[0];
      work = await call('POST', '/api/User/Files/CreateFile', { token, json: { parentId: root.id, name: '集群测试', type: 'folder' } });

      // the folder made on one instance, listed on both, with one session token
      const from = seen.length;
      for (let i = 0; i < 10; i++) {
        const items = await listing(token, root.id);
        assert.ok(items.some((it) => it.id === work.id && it.name === '集群测试'), 'the new folder is listed');
      }
      // sign-ins land on both instances, and each token works on the other
      for (let i = 0; i < 4; i++) {
        const s = await signIn(alice.userName, alice.password);
        const items = await listing(s.token, root.id);
        assert.ok(items.some((it) => it.id === work.id));
      }
      const answered = seen.slice(from);
      const counts = countBy(answered);
      console.log(`[16-cluster] part 1: ${answered.length} requests through nginx, answered by ${JSON.stringify(counts)}`);
      assert.ok(counts.a >= answered.length * 0.4 && counts.b >= answered.length * 0.4, `round-robin uses both instances: ${JSON.stringify(counts)}`);
      // strictly in turn: a request never goes to the instance that answered the one before
      const turns = answered.slice(1).filter((r, i) => r.upstream !== answered[i].upstream).length;
      assert.equal(turns, answered.length - 1, `requests alternate: ${answered.map((r) => r.upstream).join('')}`);
    });
  });

  test('2. a 20 MB upload survives the SIGKILL of an instance after chunk 2; two merges at once; whole and ranged downloads', T, async () => {
    assert.ok(token, 'part 1 ran');
    part = 'upload';
    await timed('part 2 (upload across a SIGKILL, merge twice, download)', async () => {
      const options = await call('GET', `${BASE}/FileUploadOptions`, { token });
      assert.equal(Number(options.chunkSize), CHUNK);
      const bytes = crypto.randomBytes(20 * MiB);
      const name = '大文件-20MB.bin';
      const fileId = await createSession(token, work.id, name, bytes.length);

      const c1 = await sendChunk(token, fileId, name, bytes, 1);
      const c2 = await sendChunk(token, fileId, name, bytes, 2);
      assert.notEqual(c1.upstream, c2.upstream, 'chunks 1 and 2 went to different instances');
      // the instance that took chunk 2 (and may be adding it to the running MD5) dies at once
      const victim = inst[c2.upstream];
      const survivor = inst[victim.name === 'a' ? 'b' : 'a'];
      const killedAt = Date.now();
      await kill9(victim);
      console.log(`[16-cluster] part 2: chunk 1 on ${c1.upstream}, chunk 2 on ${c2.upstream}; instance ${victim.name} SIGKILLed`);
      // it starts again meanwhile (same DATA_DIR), but nginx sends it nothing before the reload below
      const restarting = startInstance(victim);
      restarting.catch(() => {});

      const c3 = await sendChunk(token, fileId, name, bytes, 3, { retry: true });
      const c4 = await sendChunk(token, fileId, name, bytes, 4, { retry: true });
      assert.equal(c3.upstream, survivor.name, 'chunk 3 ends on the survivor');
      assert.equal(c4.upstream, survivor.name, 'chunk 4 ends on the survivor');
      assert.ok(c3.failures + c4.failures <= 1, 'after one 502 nginx no longer sends to the dead instance (max_fails=1)');
      assert.deepEqual([...c4.result.uploadedChunks].map(Number).sort(), [1, 2, 3, 4], 'the survivor knows every chunk, those the dead one took too');
      console.log(`[16-cluster] part 2: chunks 3 and 4 on ${survivor.name}; nginx answered 502 ${c3.failures + c4.failures} time(s) (the client sent that chunk again)`);

      // the killed instance is back (a new port, so nginx is reloaded)
      const ms = await restarting;
      await rebalance();
      console.log(`[16-cluster] part 2: instance ${victim.name} started again in ${seconds(ms)} (${seconds(Date.now() - killedAt)} after the kill)`);

      // the merge sent twice at once: round-robin gives one to each instance; both answer the same file
      const mergePath = `${BASE}/UploadMerge2`;
      const json = { fileId, relativePath: name, fileHash: md5(bytes) };
      const merges = await Promise.all([send('POST', mergePath, { token, json }), send('POST', mergePath, { token, json })]);
      const items = merges.map((r) => ok('POST', mergePath, r));
      console.log(`[16-cluster] part 2: merges answered by ${merges.map((r) => r.upstream).join(' and ')}`);
      assert.deepEqual(new Set(merges.map((r) => r.upstream)), new Set(['a', 'b']), 'the two merges reached both instances');
      assert.equal(items[0].id, items[1].id, 'both merges answer the same file');
      assert.equal(items[0].name, name);
      assert.equal(Number(items[0].size), bytes.length);
      const listed = (await listing(token, work.id)).filter((it) => it.name.startsWith('大文件-20MB'));
      assert.deepEqual(listed.map((it) => [it.id, it.name, Number(it.size)]), [[items[0].id, name, bytes.length]], 'one file, not two');

      // the bytes back, from each instance
      for (let i = 0; i < 2; i++) {
        const res = await download(token, items[0].id);
        assert.equal(res.status, 200);
        assert.equal(res.buf.length, bytes.length, `whole download from ${res.upstream}`);
        assert.equal(md5(res.buf), md5(bytes), `the downloaded bytes equal the original (instance ${res.upstream})`);
      }
      // a range across the boundary of chunks 1 and 2, and one at the end of the file
      for (const [start, end] of [[CHUNK - 1000, 2 * CHUNK + 999], [bytes.length - 4096, bytes.length - 1]]) {
        const res = await download(token, items[0].id, { Range: `bytes=${start}-${end}` });
        assert.equal(res.status, 206, `Range answered 206 by ${res.upstream}`);
        assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${bytes.length}`);
        assert.ok(res.buf.equals(bytes.subarray(start, end + 1)), `the range ${start}-${end} is right (instance ${res.upstream})`);
      }
      big = { bytes, item: items[0] };
    });
  });

  test('3. zip tasks: one polled and fetched through nginx; one whose building instance is SIGKILLed is taken over by the survivor', T, async () => {
    assert.ok(work, 'part 1 ran');
    part = 'zip';
    const pollUntilDone = async (taskId, { timeoutMs, retry = false, onStatus = () => {} }) => {
      const urlPath = `${BASE}/DownloadTasks/${taskId}/Status`;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await (retry ? callRetrying : call)('GET', urlPath, { token });
        onStatus(status);
        if (status.state === 'ready' || status.state === 'failed' || status.error) return status;
        if (Date.now() > deadline) throw new Error(`zip task ${taskId} still ${status.state} (${status.percent} %) after ${timeoutMs} ms`);
        await sleep(250);
      }
    };
    const fetchZip = async (downloadUrl) => {
      const res = await send('GET', downloadUrl, { token, headers: { Accept: '*/*' } });
      if (res.status !== 200) throw new Error(describeRes('GET', downloadUrl, res));
      return { entries: await readZip(res.buf), upstream: res.upstream };
    };

    await timed('part 3a (zip task through nginx)', async () => {
      const folder = await call('POST', '/api/User/Files/CreateFile', { token, json: { parentId: work.id, name: '小文件夹', type: 'folder' } });
      const files = { '说明.txt': Buffer.from('集群中的打包下载\n'.repeat(200)), 'data.csv': Buffer.from('a,b\n1,2\n'.repeat(1000)), '空.txt': Buffer.alloc(0) };
      for (const [n, b] of Object.entries(files)) await upload(token, folder.id, n, b);
      const from = seen.length;
      const { taskId } = await call('POST', `${BASE}/DownloadTask`, { token, json: [folder.id] });
      assert.match(taskId, /^[0-9a-f]{32}$/);
      const status = await pollUntilDone(taskId, { timeoutMs: 20_000 });
      assert.equal(status.state, 'ready', `task ${JSON.stringify(status)}`);
      assert.equal(status.percent, 100);
      assert.equal(status.error, null);
      // two fetches: one from each instance
      for (let i = 0; i < 2; i++) {
        const { entries, upstream } = await fetchZip(status.downloadUrl);
        for (const [n, b] of Object.entries(files)) {
          assert.ok(entries.get(`小文件夹/${n}`)?.equals(b), `小文件夹/${n} is in the zip served by ${upstream}: ${[...entries.keys()]}`);
        }
      }
      console.log(`[16-cluster] part 3a: task made, polled and fetched with answers from ${JSON.stringify(countBy(seen.slice(from)))}`);
    });

    await timed('part 3b (zip task taken over after a SIGKILL)', async () => {
      const folder = await call('POST', '/api/User/Files/CreateFile', { token, json: { parentId: work.id, name: '大文件夹', type: 'folder' } });
      const files = {};
      // text that deflates: the build reads and compresses every byte (a stored file whose
      // CRC-32 was kept at upload is not read at all, and would be built before the kill)
      for (let i = 1; i <= 6; i++) files[`part-${i}.bin`] = Buffer.from(crypto.randomBytes(5 * MiB).toString('hex'));
      const uploadStarted = Date.now();
      const entries = Object.entries(files);
      // two at a time
      for (let i = 0; i < entries.length; i += 2) await Promise.all(entries.slice(i, i + 2).map(([n, b]) => upload(token, folder.id, n, b)));
      console.log(`[16-cluster] part 3b: 60 MB uploaded through nginx in ${seconds(Date.now() - uploadStarted)}`);

      const created = await send('POST', `${BASE}/DownloadTask`, { token, json: [folder.id] });
      const { taskId } = ok('POST', `${BASE}/DownloadTask`, created);
      // the instance that made the task claimed it at once and is building it now
      const builder = inst[created.upstream];
      const survivor = inst[builder.name === 'a' ? 'b' : 'a'];
      // mid-build: some of the content read, not all of it
      let first;
      for (const deadline = Date.now() + 10_000; ; await sleep(100)) {
        first = await call('GET', `${BASE}/DownloadTasks/${taskId}/Status`, { token });
        assert.equal(first.state, 'running', `the build is under way: ${JSON.stringify(first)}`);
        if (first.percent > 0 || Date.now() > deadline) break;
      }
      assert.ok(first.percent > 0 && first.percent < 90, `the build is under way: ${JSON.stringify(first)}`);
      const [row] = await dbQuery('select state, attempts from zip_tasks where id = $1', [taskId]);
      assert.deepEqual({ state: row.state, attempts: Number(row.attempts) }, { state: 'running', attempts: 1 });
      const killedAt = Date.now();
      await kill9(builder);
      // where the dead builder left the task: `first` may have come from its memory (ahead of its
      // last heartbeat), or a heartbeat may have written more after `first` was read and before
      // the kill; the survivor answers from the row (the status computes the percent the same way)
      const [left] = await dbQuery('select processed_bytes, total_bytes from zip_tasks where id = $1', [taskId]);
      const leftPercent = Math.min(99, Math.floor((Number(left.processed_bytes) / Number(left.total_bytes)) * 100));
      const killedPercent = Math.max(first.percent, leftPercent);
      console.log(`[16-cluster] part 3b: task made on ${builder.name}, SIGKILLed at ${first.percent} % (${leftPercent} % written before it died)`);
      // once the survivor (the only instance alive) has claimed the task again, the killed one
      // starts again (same DATA_DIR), while the survivor builds
      let claimedAt = null;
      const restarting = (async () => {
        for (const deadline = Date.now() + 45_000; ; await sleep(200)) {
          // a part that failed tore the suite down: an instance started now would outlive it
          if (closing) throw new Error('the suite was torn down before the task was claimed again');
          const [r] = await dbQuery('select attempts from zip_tasks where id = $1', [taskId]);
          if (Number(r?.attempts) >= 2) break;
          if (Date.now() > deadline) throw new Error(`zip task ${taskId} was not claimed again within 45 s`);
        }
        claimedAt = Date.now();
        if (closing) throw new Error('the suite was torn down before the killed instance started again');
        return startInstance(builder);
      })();
      restarting.catch(() => {});

      let queuedAt = null;
      const status = await pollUntilDone(taskId, {
        timeoutMs: 45_000,
        retry: true,
        onStatus: (s) => {
          if (s.state === 'queued' && queuedAt === null) queuedAt = Date.now();
          if (queuedAt === null && s.state === 'running' && s.percent > killedPercent + 1 && Date.now() - killedAt < 10_000) {
            // progress after the kill, before any stale heartbeat could free the task: someone else built it
            throw new Error(`the task progressed to ${s.percent} % right after its builder was killed: ${JSON.stringify(s)}`);
          }
        },
      });
      const tookMs = Date.now() - killedAt;
      assert.equal(status.state, 'ready', `taken over and finished: ${JSON.stringify(status)}`);
      assert.equal(status.error, null);
      assert.ok(tookMs >= 14_000, `finished ${seconds(tookMs)} after the kill: only a stale heartbeat (15 s) frees it`);
      const [done] = await dbQuery('select state, attempts from zip_tasks where id = $1', [taskId]);
      assert.deepEqual({ state: done.state, attempts: Number(done.attempts) }, { state: 'ready', attempts: 2 }, 'a second attempt built it');
      console.log(`[16-cluster] part 3b: claimed again ${seconds(claimedAt - killedAt)} after the kill by ${survivor.name} (the only instance alive then), ready after ${seconds(tookMs)}`);

      const { entries: zipped, upstream } = await fetchZip(status.downloadUrl);
      assert.equal(upstream, survivor.name);
      const names = [...zipped.keys()].filter((k) => !k.endsWith('/')).sort();
      assert.deepEqual(names, Object.keys(files).map((n) => `大文件夹/${n}`).sort());
      for (const [n, b] of Object.entries(files)) assert.equal(md5(zipped.get(`大文件夹/${n}`)), md5(b), `大文件夹/${n} is whole in the zip`);

      const ms = await restarting;
      await rebalance();
      console.log(`[16-cluster] part 3b: instance ${builder.name} started again in ${seconds(ms)}`);
    });
  });

  test('4. previews through nginx: the text of a .txt and the thumbnail of a JPEG, from both instances', T, async () => {
    assert.ok(work, 'part 1 ran');
    part = 'preview';
    await timed('part 4 (previews)', async () => {
      const text = `集群预览：第一行 ${process.pid}\n第二行：中文与 ASCII mixed\n`;
      const txt = await upload(token, work.id, '预览.txt', Buffer.from(text));
      const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#d4380d' } }).jpeg({ quality: 85 }).toBuffer();
      const jpg = await upload(token, work.id, '照片.jpg', jpeg);

      const data = await call('POST', `${BASE}/CreateComponentData`, { token, json: { fileId: txt.id } });
      assert.equal(data.source, 'text');
      const byInstance = new Set();
      for (let i = 0; i < 2; i++) {
        const res = await send('GET', data.data.url, { token });
        const r = ok('GET', data.data.url, res);
        byInstance.add(res.upstream);
        assert.equal(r.text, text, `the text preview from ${res.upstream}`);
        assert.equal(r.truncated, false);
      }
      assert.equal(byInstance.size, 2, 'both instances showed the text');

      const pic = await call('POST', `${BASE}/CreateComponentData`, { token, json: { fileId: jpg.id } });
      assert.equal(pic.source, 'image');
      assert.ok(pic.data.thumbnailUrl, `a thumbnail URL: ${JSON.stringify(pic.data)}`);
      // the page asks again while the thumbnail is being made (404 after 3 s of waiting)
      const thumbs = [];
      const deadline = Date.now() + 30_000;
      while (thumbs.length < 2) {
        const res = await send('GET', pic.data.thumbnailUrl, { token, headers: { Accept: 'image/*' } });
        if (res.status === 404 && Date.now() < deadline) continue;
        if (res.status !== 200) throw new Error(describeRes('GET', pic.data.thumbnailUrl, res));
        thumbs.push(res);
      }
      for (const res of thumbs) {
        assert.match(res.headers['content-type'], /image\/webp/);
        const meta = await sharp(res.buf).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 256, 192], `the thumbnail from ${res.upstream}`);
      }
      assert.deepEqual(new Set(thumbs.map((r) => r.upstream)), new Set(['a', 'b']), 'both instances served the thumbnail');
      assert.ok(thumbs[0].buf.equals(thumbs[1].buf), 'made once: the same bytes from both instances');
      // the picture itself
      const content = await send('GET', pic.data.url, { token, headers: { Accept: 'image/*' } });
      assert.equal(content.status, 200);
      assert.ok(content.buf.equals(jpeg), 'the picture preview is the JPEG');
    });
  });

  test('5. an instance restarts while sign-ins and listings go on through nginx: no 500, nothing lost', T, async () => {
    assert.ok(big, 'part 2 ran');
    part = 'restart';
    await timed('part 5 (restart under traffic)', async () => {
      const marker = await upload(token, work.id, '重启前.txt', Buffer.from('重启之前写入的内容'));
      const snapshot = (await listing(token, work.id)).map((it) => `${it.id} ${it.name} ${it.size}`).sort();
      assert.ok(snapshot.some((l) => l.includes('重启前.txt')));

      const from = seen.length;
      let stop = false;
      let rounds = 0;
      const problems = [];
      const loop = async () => {
        // a step below that fails leaves `stop` unset: the suite's teardown ends the loops then
        while (!stop && !closing) {
          try {
            const s = await signIn(alice.userName, alice.password, true);
            const items = await listing(s.token, work.id, true);
            const now = new Set(items.map((it) => `${it.id} ${it.name} ${it.size}`));
            const lost = snapshot.filter((l) => !now.has(l));
            if (lost.length) problems.push(`listing (instance ${items.upstream}) lacks ${lost.join(' | ')}`);
            rounds++;
          } catch (err) {
            problems.push(err.message);
            await sleep(200);
          }
        }
      };
      const loops = [loop(), loop()];
      await sleep(500);

      const victim = inst.b;
      const stopped = Date.now();
      const stopped1 = await stopInstance(victim);
      console.log(`[16-cluster] part 5: instance b stopped (SIGTERM) in ${seconds(stopped1.ms)}, ${stopped1.closed ? 'closed cleanly' : `NOT closed cleanly:\n${stopped1.tail}`}`);
      const restarting = startInstance(victim); // meanwhile only a answers
      restarting.catch(() => {});
      // a write while b is down (a 502 means nginx did not deliver it: sending it again is safe)
      const during1 = await callRetrying('POST', '/api/User/Files/CreateFile', { token, json: { parentId: work.id, name: '重启期间', type: 'folder' } });
      const ms = await restarting;
      await rebalance();
      const gap = Date.now() - stopped;
      await sleep(1000); // traffic on both again
      stop = true;
      await Promise.all(loops);

      const during = seen.slice(from);
      const statuses = during.reduce((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});
      const retried = during.filter((r) => r.status === 502 || r.status === 503).length;
      for (const r of during.filter((x) => x.status !== 200)) console.log(`[16-cluster] part 5: ${r.method} ${r.path} -> ${r.status} from ${r.upstream}: ${r.note ?? ''}`);
      console.log(
        `[16-cluster] part 5: instance b down ${seconds(gap)} (started again in ${seconds(ms)}); ${rounds} sign-in + listing rounds; ` +
          `statuses ${JSON.stringify(statuses)} (${retried} sent again after a 502/503); answered by ${JSON.stringify(countBy(during))}`,
      );
      assert.deepEqual(problems, [], 'every sign-in and listing succeeded (a 502/503 sent again) and lost no file');
      assert.ok(rounds >= 10, `traffic went on: ${rounds} rounds`);
      const bad = during.filter((r) => r.status !== 200 && r.status !== 502 && r.status !== 503);
      assert.deepEqual(bad, [], 'no answer other than 200, or during the gap 502 (nginx could not reach b) and 503 (b closing)');
      const afterRestart = during.filter((r) => r.status === 200).slice(-20);
      assert.ok(afterRestart.some((r) => r.upstream === 'b'), 'the restarted instance answers again');

      // nothing lost, read through each instance
      const again = await signIn(alice.userName, alice.password);
      for (let i = 0; i < 2; i++) {
        const items = await listing(again.token, work.id);
        const now = items.map((it) => `${it.id} ${it.name} ${it.size}`).sort();
        assert.deepEqual(now, [...snapshot, `${during1.id} 重启期间 ${during1.size}`].sort(), `the folder holds what it held and what was made during the gap (instance ${items.upstream})`);
        const res = await download(again.token, marker.id);
        assert.equal(res.buf.toString('utf8'), '重启之前写入的内容');
      }
      const whole = await download(again.token, big.item.id);
      assert.equal(md5(whole.buf), md5(big.bytes), 'the 20 MB file is still whole');
    });
  });

  test('no 500 anywhere: nginx\'s access log and the instances\' error lines', T, () => {
    const fives = seen.filter((r) => r.status >= 500 && r.status !== 502 && r.status !== 503);
    const logged = lb.accessLog().split('\n').filter((l) => / 500 /.test(l) || /upstream_status=500/.test(l));
    const errors = Object.values(inst).flatMap((x) => errorLines(x).map((l) => `[${x.name}] ${l.slice(0, 600)}`));
    if (errors.length) console.log(`[16-cluster] error lines of the instances:\n${errors.join('\n')}`);
    const by = seen.reduce((m, r) => ((m[`${r.part} ${r.status}`] = (m[`${r.part} ${r.status}`] ?? 0) + 1), m), {});
    console.log(`[16-cluster] answers through nginx by part and status: ${JSON.stringify(by)}`);
    assert.deepEqual(fives, [], 'no 5xx other than nginx\'s 502/503 while an instance was down');
    assert.deepEqual(logged, [], 'nginx logged no 500');
    assert.deepEqual(errors.filter((l) => /"statusCode":\s*500\b/.test(l)), [], 'no instance logged a 500');
  });
});
