#!/usr/bin/env node
// The load generator of figure 9 (bench/figures/09-cluster.mjs), run as a process of its own so
// that its CPU time can be read from /proc apart from everything else:
//   node bench/lib/cluster-load.mjs <config.json>
// The configuration (written by the figure): { url, seconds, warmupSeconds, timeoutMs, chunkSize,
// chunkCheck, zipPollMs, thinkMs, runTag (a prefix of uploaded names), mix: { list, search, download, upload, zip, rename }, keywords: string[],
// users: [{ index, token, rootId, docsId, uploadsId, fileIds }] }.
//
// Every simulated user is signed in (its token), has its own keep-alive connections (an
// http.Agent of at most 6 sockets, as a browser per host) and runs a closed loop: the next action
// starts when the previous one has its answer (after an exponential think time of mean thinkMs,
// when it is not 0). Actions, drawn by weight
// with a seeded generator per user (the same sequence in every run):
//   list      GET /api/User/Folders/{id}/Items?page=1&pageSize=50 (its root, its 资料 folder or its
//             上传 folder, which grows)
//   search    GET /api/User/Search/Files?keyword=…&page=1&pageSize=20
//   download  GET /api/User/FileTransfer/Download/{id} of one of its files, read to the end
//   upload    a 2–8 KB text file as shell/src/upload/engine sends a file of one chunk:
//             CheckAndCreateFileInfo, UploadRapid2 when rapidPossible (it is, for one chunk: the
//             page hashes first and asks), UploadChunk2 (multipart), UploadMerge2
//   zip       POST DownloadTask [its 资料 folder], Status at once and then every zipPollMs (3 s,
//             DOWNLOAD_POLL_INTERVAL_MS of shared/src/constants.ts) until downloadUrl, then the zip
//   rename    PUT /api/User/Files/Rename/{id} of one of its files (a new name each time)
// Prints JSON lines on stdout: {"event":"warm"}, {"event":"start"} when the measured window
// opens, {"event":"end"} when it closes, then {"event":"result", …}. Only requests that finish
// inside the window count; the window's requests that fail (HTTP status, envelope code, network
// error or timeout) are counted by kind, with the first messages kept.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { rng } from './util.mjs';

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const BASE = '/api/User/FileTransfer';
const target = new URL(config.url);
const emit = (obj) => process.stdout.write(`${JSON.stringify(obj)}\n`);

/* ---------------------------------------------------------------- bookkeeping */

let phase = 'warm'; // warm | window | drain
let windowStart = 0;
let windowEnd = Infinity;
const latencies = {}; // kind -> ms[] (inside the window)
const actions = {}; // action -> ms[] (whole actions that ended inside the window)
const errors = {}; // kind -> count (inside the window)
const warmErrors = {}; // kind -> count (during the warm-up)
const errorSamples = [];
let bytesIn = 0;
let bytesOut = 0;

function record(kind, startedAt, ok, message) {
  const end = performance.now();
  if (end >= windowStart && end <= windowEnd && phase !== 'warm') {
    if (ok) (latencies[kind] ||= []).push(end - startedAt);
    else errors[kind] = (errors[kind] || 0) + 1;
  } else if (!ok && phase === 'warm') warmErrors[kind] = (warmErrors[kind] || 0) + 1;
  if (!ok && errorSamples.length < 20) errorSamples.push(`${phase}: ${kind}: ${message}`);
}

function recordAction(name, startedAt) {
  const end = performance.now();
  if (phase !== 'warm' && startedAt >= windowStart && end <= windowEnd) (actions[name] ||= []).push(end - startedAt);
}

/** A failed action; `recorded` when request() has already counted it under its request's kind. */
class RequestFailed extends Error {
  constructor(message, recorded = false) {
    super(message);
    this.recorded = recorded;
  }
}

/**
 * One request on the user's agent. `json`: parse the envelope and demand code 200 (returns its
 * result); otherwise the body is read and counted (returns { status, bytes, headers }).
 */
function request(user, kind, method, urlPath, { body, headers = {}, json = true } = {}) {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const h = { Accept: json ? 'application/json' : '*/*', Authorization: `Bearer ${user.token}`, ...headers };
    if (body) h['Content-Length'] = body.length;
    const req = http.request({
      host: target.hostname, port: target.port, path: urlPath, method, headers: h, agent: user.agent,
    }, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (c) => {
        size += c.length;
        if (json || res.statusCode !== 200) chunks.push(c);
      });
      res.on('error', (err) => fail(err.message));
      res.on('end', () => {
        bytesIn += size;
        if (!json && res.statusCode === 200) {
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared !== size) return fail(`HTTP 200 with ${size} of ${declared} bytes`);
          record(kind, startedAt, true);
          return resolve({ status: res.statusCode, bytes: size, headers: res.headers });
        }
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        if (res.statusCode !== 200 || !parsed || parsed.code !== 200) return fail(`HTTP ${res.statusCode} ${text.slice(0, 200)}`);
        record(kind, startedAt, true);
        resolve(parsed.result);
      });
    });
    let failed = false;
    const fail = (message) => {
      if (failed) return;
      failed = true;
      record(kind, startedAt, false, message);
      reject(new RequestFailed(message, true));
    };
    req.setTimeout(config.timeoutMs, () => {
      req.destroy(new Error(`no answer within ${config.timeoutMs} ms`));
    });
    req.on('error', (err) => fail(err.message));
    if (body) bytesOut += body.length;
    req.end(body);
  });
}

const jsonBody = (obj) => ({ body: Buffer.from(JSON.stringify(obj)), headers: { 'Content-Type': 'application/json' } });

/* ---------------------------------------------------------------- actions */

const LISTING = (id) => `/api/User/Folders/${id}/Items?page=1&pageSize=50`;

async function list(user) {
  const folders = [user.rootId, user.docsId, user.uploadsId];
  await request(user, 'list', 'GET', LISTING(folders[Math.floor(user.r() * folders.length)]));
}

async function search(user) {
  const keyword = config.keywords[Math.floor(user.r() * config.keywords.length)];
  await request(user, 'search', 'GET', `/api/User/Search/Files?${new URLSearchParams({ keyword, page: '1', pageSize: '20' })}`);
}

async function download(user) {
  const ids = user.uploaded.length && user.r() < 0.3 ? user.uploaded : user.fileIds;
  const id = ids[Math.floor(user.r() * ids.length)];
  await request(user, 'download', 'GET', `${BASE}/Download/${id}`, { json: false });
}

// text made of the keywords and filler, sliced for each upload (with a unique first line)
const WORDS = [...config.keywords, 'lorem', 'ipsum', 'dolor', 'amet', '数据', '文件', '项目', '客户', '年度', '部门'];
const TEXT = Buffer.from(Array.from({ length: 12_000 }, (_, i) => WORDS[(i * 7919) % WORDS.length]).join(' '));

function multipart(fields, file, fileName) {
  const boundary = `----yunwendang-load-${crypto.randomBytes(8).toString('hex')}`;
  const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  return {
    body: Buffer.concat([
      Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${encodeURIComponent(fileName)}"\r\nContent-Type: text/plain\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function upload(user) {
  const seq = ++user.uploads;
  const size = 2048 + Math.floor(user.r() * 6144);
  const offset = Math.floor(user.r() * (TEXT.length - size));
  const content = Buffer.concat([Buffer.from(`${user.index}-${seq}-${crypto.randomBytes(6).toString('hex')}\n`), TEXT.subarray(offset, offset + size)]);
  const word = config.keywords[Math.floor(user.r() * config.keywords.length)];
  // runTag: a second run on the same data makes names of its own
  const fileName = `${word}-上传-${user.index}-${config.runTag ?? ''}${seq}.txt`;
  const fileHash = crypto.createHash('md5').update(content).digest('hex');
  const created = await request(user, 'create', 'POST', `${BASE}/CheckAndCreateFileInfo`, jsonBody({
    folderId: user.uploadsId, fileName, size: content.length, type: null, strategy: null, relativePath: fileName, taskId: crypto.randomUUID(), shareId: null,
  }));
  if (created.conflictType !== 0) throw new RequestFailed(`conflict on ${fileName}`);
  const fileId = created.fileInfo.fileId;
  if (created.rapidPossible !== false) {
    const rapid = await request(user, 'rapid', 'POST', `${BASE}/UploadRapid2`, jsonBody({ fileId, fileHash }));
    if (rapid.success) return;
  }
  const form = multipart({
    chunkNumber: 1, totalChunks: 1, chunkSize: config.chunkSize, currentChunkSize: content.length, totalSize: content.length,
    identifier: fileHash, filename: fileName, relativePath: fileName,
  }, content, fileName);
  const q = new URLSearchParams({ fileId, RelativePath: fileName });
  if (config.chunkCheck) q.set('ChunkHash', fileHash);
  await request(user, 'chunk', 'POST', `${BASE}/UploadChunk2?${q}`, { body: form.body, headers: { 'Content-Type': form.contentType } });
  const item = await request(user, 'merge', 'POST', `${BASE}/UploadMerge2`, jsonBody({ fileId, relativePath: fileName, fileHash }));
  if (item?.id && user.uploaded.length < 50) user.uploaded.push(item.id);
}

async function zip(user) {
  const { taskId } = await request(user, 'zipCreate', 'POST', `${BASE}/DownloadTask`, jsonBody([user.docsId]));
  for (;;) {
    const status = await request(user, 'zipStatus', 'GET', `${BASE}/DownloadTasks/${taskId}/Status`);
    if (status.state === 'failed' || status.error) throw new RequestFailed(`zip task failed: ${status.error}`);
    if (status.downloadUrl) {
      await request(user, 'zipFile', 'GET', status.downloadUrl, { json: false });
      return;
    }
    if (phase === 'drain') return;
    await new Promise((r) => setTimeout(r, config.zipPollMs));
  }
}

/** Renames one of the user's files (figure 10 only: its weight is 0 in figure 9). */
async function rename(user) {
  const ids = user.uploaded.length ? user.uploaded : user.fileIds;
  const id = ids[user.renames++ % ids.length];
  const fileName = `${config.runTag || ''}改名-${user.index}-${user.renames}.txt`;
  await request(user, 'rename', 'PUT', `/api/User/Files/Rename/${id}?fileName=${encodeURIComponent(fileName)}`);
}

const ACTIONS = { list, search, download, upload, zip, rename };
const weights = Object.entries(config.mix).filter(([, w]) => w > 0);
const totalWeight = weights.reduce((s, [, w]) => s + w, 0);
function pick(r) {
  let x = r() * totalWeight;
  for (const [name, w] of weights) {
    if ((x -= w) < 0) return name;
  }
  return weights[weights.length - 1][0];
}

/* ---------------------------------------------------------------- the run */

const users = config.users.map((u) => ({
  ...u,
  r: rng(9000 + u.index),
  agent: new http.Agent({ keepAlive: true, maxSockets: 6 }),
  uploads: 0,
  renames: 0,
  uploaded: [],
}));
const counts = {};

async function userLoop(user, startDelay) {
  await new Promise((r) => setTimeout(r, startDelay));
  while (phase !== 'drain') {
    const name = pick(user.r);
    const t0 = performance.now();
    try {
      await ACTIONS[name](user);
      recordAction(name, t0);
      if (phase === 'window') counts[name] = (counts[name] || 0) + 1;
    } catch (err) {
      if (!err.recorded && phase !== 'drain') {
        // not a failed request: a conflict, a failed zip task, a bug here
        if (errorSamples.length < 20) errorSamples.push(`${phase}: ${name}: ${err instanceof RequestFailed ? err.message : err.stack}`);
        const into = phase === 'warm' ? warmErrors : errors;
        into[name] = (into[name] || 0) + 1;
      }
      // a failed action: a short pause, as a person would look at the message
      await new Promise((r) => setTimeout(r, 100));
    }
    if (config.thinkMs > 0 && phase !== 'drain') {
      // exponential think time, at most ten times its mean
      await new Promise((r) => setTimeout(r, Math.min(10, -Math.log(1 - user.r())) * config.thinkMs));
    }
  }
}

const loops = users.map((u, i) => userLoop(u, (i * 1000) / users.length));
emit({ event: 'warm' });
await new Promise((r) => setTimeout(r, config.warmupSeconds * 1000));
phase = 'window';
windowStart = performance.now();
bytesIn = 0;
bytesOut = 0;
emit({ event: 'start' });
await new Promise((r) => setTimeout(r, config.seconds * 1000));
windowEnd = performance.now();
const windowBytesIn = bytesIn;
const windowBytesOut = bytesOut;
emit({ event: 'end' });
phase = 'drain';
const drainStart = performance.now();
await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, config.timeoutMs + 5_000))]);
emit({
  event: 'result',
  windowMs: windowEnd - windowStart,
  drainMs: performance.now() - drainStart,
  latencies,
  actions,
  actionCounts: counts,
  errors,
  warmErrors,
  errorSamples,
  bytesIn: windowBytesIn,
  bytesOut: windowBytesOut,
  users: users.length,
});
for (const u of users) u.agent.destroy();
// stdout is a pipe, written asynchronously: the result line (hundreds of KB of latencies) must
// be out before the process ends
process.stdout.write('', () => process.exit(0));
