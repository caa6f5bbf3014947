// Figure 4: 云文档 measured the way the figures to beat (shared/notes/figures-to-beat.md) were
// measured, line by line, each against its baseline in the same run, on the built server
// (SQLite, local disk):
// 1. a 256 MB file of random bytes uploaded through the API (5 MB chunks, 3 in flight, the
//    whole-file MD5 passed in, so the time is CheckAndCreateFileInfo, UploadRapid2, the chunks
//    and UploadMerge2) against the very same chunk requests (same client code) sent to a
//    minimal Node server, in its own process, that only parses the multipart body (busboy)
//    and writes the part `file` at its offset; interleaved runs, each after `sync`, medians;
// 2. instant upload (秒传) of those 256 MB again into another folder: the client's MD5 of the
//    file, CheckAndCreateFileInfo and UploadRapid2, with the MD5 part shown apart;
// 3. the first and last page (100 items, by name) of a 20,000-item folder against a
//    100-item folder (both seeded as figure 2 seeds its large folder);
// 4. a zip of a folder of 1,000 files of 256 KB, from the DownloadTask request until the zip
//    is on disk, against `zip -0 -r` of the same files;
// 5. 4 concurrent workers creating folders on one session: failures, and how many replies
//    said the session was gone;
// 6. the server's resident memory during line 1's uploads (VmRSS every 20 ms), against the
//    minimal server's during its runs.
// A summary table puts each line next to its figure to beat.
// BENCH_PEER_RUNS (default 3: interleaved upload runs of each kind), BENCH_PEER_REQUESTS
// (default 20000: line 5), BENCH_PEER_MB (default 256), BENCH_PEER_ITEMS (default 20000) and
// BENCH_PEER_ZIP_FILES (default 1000) make the figure smaller for a quick look.
import crypto from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import {
  api, apiOk, createFolder, isUnauthorized, login, personalRoot, startServer,
} from '../../e2e/harness.mjs';
import { createUpload, md5File, sendChunks, uploadFile } from '../../e2e/uploadClient.mjs';
import { pool } from '../lib/load-users.mjs';
import { ROOT, median, ms, printTable, ratio } from '../lib/util.mjs';
import { fillLargeFolder, timeApi } from './02-folder-listing.mjs';
import { peakRss, stamp } from './03-transfer.mjs';

export const id = 'peer';
export const title = 'Figure 4: the lines of the figures to beat, measured the same way (SQLite)';

const MB = 1024 * 1024;
const BASE = '/api/User/FileTransfer';
const RUNS = Number(process.env.BENCH_PEER_RUNS || 3);
const REQUESTS = Number(process.env.BENCH_PEER_REQUESTS || 20_000);
const UPLOAD_MB = Number(process.env.BENCH_PEER_MB || 256);
const ITEMS = Number(process.env.BENCH_PEER_ITEMS || 20_000);
const ZIP_FILES = Number(process.env.BENCH_PEER_ZIP_FILES || 1000);
const ZIP_FILE_KB = 256;
const INSTANT_RUNS = 3;
const RSS_EVERY_MS = 20;
const CONCURRENCY = 4;
const PAGE_SIZE = 100; // as in figure 2's timeApi

/** The figures to beat (shared/notes/figures-to-beat.md). */
const TO_BEAT = {
  uploadMbps: 200, uploadShare: [0.55, 0.70],
  instantMs: 452, instantMd5Ms: 418,
  pageMs: 62.7, pageRatio: 11, smallPageMs: 5.6, lastPageMs: 83.6,
  zipMs: 5840, zipRatio: 7.1,
  sessionLost: 4, sessionRequests: 20_000,
  memoryMb: 34,
};

const mbps = (bytes, millis) => bytes / MB / (millis / 1000);
const mbOf = (n) => `${(n / MB).toFixed(0)} MB`;
const secs = (millis) => `${(millis / 1000).toFixed(2)} s`;
const yes = (b) => (b ? 'yes' : 'NO');

/** A file of `mb` MiB of random bytes (incompressible). */
async function randomFile(file, mb) {
  const out = fs.createWriteStream(file);
  for (let written = 0; written < mb * MB; written += 8 * MB) {
    const block = crypto.randomBytes(Math.min(8 * MB, mb * MB - written));
    if (!out.write(block)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
}

/* ---------------------------------------------------------------- the minimal chunk server */

/**
 * The baseline of line 1, run alone in a process of its own (`node -e`, as 云文档's server is a
 * process of its own; so this function uses nothing from this module): every POST is a
 * multipart UploadChunk2 request; busboy parses it and the part `file` is written at
 * (chunkNumber - 1) * chunkSize into one file opened r+ (no hashing, no fsync); the answer is
 * `{ code: 200 }`. POST /reset empties the file and opens it again. Prints its port on stdout.
 */
function minimalChunkServer(target, busboyPath) {
  /* global require */
  const fs = require('node:fs');
  const http = require('node:http');
  const Busboy = require(busboyPath);
  let fh = null;
  const writeAll = async (data, at) => {
    for (let done = 0; done < data.length;) {
      const { bytesWritten } = await fh.write(data, done, data.length - done, at + done);
      done += bytesWritten;
    }
  };
  const server = http.createServer((req, res) => {
    const answer = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(body));
    };
    const fail = (err) => answer(500, { code: 500, message: err.message });
    if (req.url === '/reset') {
      req.resume();
      (async () => {
        await fh?.close();
        fs.writeFileSync(target, '');
        fh = await fs.promises.open(target, 'r+');
        answer(200, { code: 200 });
      })().catch(fail);
      return;
    }
    const fields = {};
    let writing = null;
    let bb;
    try {
      bb = new Busboy({ headers: req.headers });
    } catch (err) {
      req.resume();
      answer(400, { code: 400, message: err.message });
      return;
    }
    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('file', (name, stream) => {
      if (name !== 'file' || writing) {
        stream.resume();
        return;
      }
      const offset = (Number(fields.chunkNumber) - 1) * Number(fields.chunkSize);
      writing = (async () => {
        let at = offset;
        for await (const data of stream) {
          await writeAll(data, at);
          at += data.length;
        }
      })();
      writing.catch(() => {}); // answered at 'finish'
    });
    bb.on('error', fail);
    bb.on('finish', () => {
      (writing ?? Promise.reject(new Error('no part file'))).then(() => answer(200, { code: 200 }), fail);
    });
    req.pipe(bb);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
}

/** Starts the minimal chunk server writing into `target`. */
async function startMinimal(target) {
  const busboy = createRequire(path.join(ROOT, 'package.json')).resolve('@fastify/busboy');
  const code = `(${minimalChunkServer})(${JSON.stringify(target)}, ${JSON.stringify(busboy)});`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((r) => child.once('exit', r));
  const port = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0]).port);
    });
    child.once('exit', (status) => reject(new Error(`the minimal chunk server exited (${status}) before it listened`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    pid: child.pid,
    async reset() {
      const res = await fetch(`${url}/reset`, { method: 'POST' });
      if (res.status !== 200) throw new Error(`minimal chunk server reset: HTTP ${res.status}`);
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/* ---------------------------------------------------------------- the lines */

/** Line 1 and 6: interleaved uploads of `big` through 云文档 and to the minimal server. */
async function uploadLines(server, token, folderId, minimal, big, minimalTarget) {
  const bytes = fs.statSync(big).size;
  const options = await apiOk(server, 'GET', `${BASE}/FileUploadOptions`, { token });
  const chunkSize = Number(options.chunkSize);
  if (chunkSize !== 5 * MB) console.log(`note: the server's chunk size is ${chunkSize} bytes, not 5 MB`);
  const ours = [];
  const plain = [];
  let rss = null;
  let minimalRss = null;
  let hash;
  // Every timed run starts after `sync`: without it, each of our runs (whose chunks are
  // fsync'ed) would pay for the minimal server's 256 MB still waiting to be written back,
  // while the minimal server never pays for ours.
  const settle = () => execFileSync('sync');
  for (let i = 1; i <= RUNS; i++) {
    stamp(big, i); // other content each run
    hash = await md5File(big);
    settle();
    const fileName = `上传测速-${i}.bin`;
    let result;
    const mem = await peakRss(server.pid, async () => {
      const t0 = performance.now();
      result = await uploadFile(server, token, folderId, big, { fileName, fileHash: hash, inFlight: 3 });
      ours.push(performance.now() - t0);
    }, RSS_EVERY_MS);
    if (result.rapid) throw new Error(`upload run ${i}: UploadRapid2 answered success, no chunks were sent`);
    if (Number(result.item?.size) !== bytes) throw new Error(`upload run ${i}: the merged item is ${result.item?.size} bytes, not ${bytes}`);
    rss = rss ? { before: rss.before, peak: Math.max(rss.peak, mem.peak) } : mem;

    await minimal.reset();
    settle();
    const plainMem = await peakRss(minimal.pid, async () => {
      const t0 = performance.now();
      await sendChunks({
        url: `${minimal.url}${BASE}/UploadChunk2`, token, fileId: crypto.randomUUID(), file: big, chunkSize, fileName, inFlight: 3,
      });
      plain.push(performance.now() - t0);
    }, RSS_EVERY_MS);
    minimalRss = minimalRss ? { before: minimalRss.before, peak: Math.max(minimalRss.peak, plainMem.peak) } : plainMem;
  }
  // the baseline really wrote the file
  if ((await md5File(minimalTarget)) !== hash) throw new Error('the minimal chunk server wrote another file than the one sent');
  const oursMs = median(ours);
  const plainMs = median(plain);
  const share = plainMs / oursMs;
  console.log(`Line 1: upload of ${UPLOAD_MB} MB through the API, ${(chunkSize / MB).toFixed(0)} MB chunks, 3 in flight, whole-file MD5 passed in; ${RUNS} interleaved runs of each, each after \`sync\`, medians`);
  printTable([
    { key: 'what', title: 'upload' }, { key: 'runs', title: 'runs', align: 'right' }, { key: 'time', title: 'median', align: 'right' },
    { key: 'rate', title: 'rate', align: 'right' }, { key: 'share', title: 'throughput vs minimal', align: 'right' },
  ], [
    { what: 'baseline: minimal Node server writing the chunks at their offsets', runs: plain.map(ms).join(', '), time: ms(plainMs), rate: `${mbps(bytes, plainMs).toFixed(0)} MB/s`, share: '1.00' },
    { what: '云文档: CheckAndCreateFileInfo, UploadRapid2 (false), chunks, UploadMerge2', runs: ours.map(ms).join(', '), time: ms(oursMs), rate: `${mbps(bytes, oursMs).toFixed(0)} MB/s`, share: share.toFixed(2) },
  ]);

  console.log(`\nLine 6: resident memory (VmRSS every ${RSS_EVERY_MS} ms) during the uploads above`);
  printTable([
    { key: 'what', title: 'process' }, { key: 'before', title: 'before', align: 'right' },
    { key: 'peak', title: 'peak', align: 'right' }, { key: 'ratio', title: 'peak / before', align: 'right' },
  ], [
    { what: 'baseline: the minimal chunk server', before: mbOf(minimalRss.before), peak: mbOf(minimalRss.peak), ratio: ratio(minimalRss.peak, minimalRss.before) },
    { what: '云文档 server', before: mbOf(rss.before), peak: mbOf(rss.peak), ratio: ratio(rss.peak, rss.before) },
  ]);
  return {
    bytes, chunkSize, oursMs: ours, plainMs: plain, oursMedianMs: oursMs, plainMedianMs: plainMs,
    oursMbps: mbps(bytes, oursMs), plainMbps: mbps(bytes, plainMs), share,
    rss: { before: rss.before, peak: rss.peak, minimalBefore: minimalRss.before, minimalPeak: minimalRss.peak },
  };
}

/** Line 2: the same content again, into another folder: MD5 in Node, then the two requests. */
async function instantLine(server, token, folderId, big) {
  const size = fs.statSync(big).size;
  const totals = [];
  const md5s = [];
  for (let i = 1; i <= INSTANT_RUNS; i++) {
    const t0 = performance.now();
    const fileHash = await md5File(big);
    const t1 = performance.now();
    const fileId = await createUpload(server, token, folderId, { fileName: `秒传-${i}.bin`, size });
    const rapid = await apiOk(server, 'POST', `${BASE}/UploadRapid2`, { token, body: { fileId, fileHash } });
    const t2 = performance.now();
    if (!rapid?.success) throw new Error(`instant upload run ${i}: UploadRapid2 answered ${JSON.stringify(rapid)} for content the caller holds`);
    totals.push(t2 - t0);
    md5s.push(t1 - t0);
  }
  const total = median(totals);
  const md5 = median(md5s);
  console.log(`\nLine 2: instant upload (秒传) of ${UPLOAD_MB} MB already held, into another folder, median of ${INSTANT_RUNS}`);
  printTable([
    { key: 'what', title: 'instant upload' }, { key: 'runs', title: 'runs', align: 'right' }, { key: 'time', title: 'median', align: 'right' },
  ], [
    { what: 'baseline: the client\'s MD5 of the file alone (md5File)', runs: md5s.map(ms).join(', '), time: ms(md5) },
    { what: '云文档: MD5 + CheckAndCreateFileInfo + UploadRapid2 (success)', runs: totals.map(ms).join(', '), time: ms(total) },
    { what: '  of which the two requests', runs: '', time: ms(median(totals.map((t, i) => t - md5s[i]))) },
  ]);
  return { totalMs: total, md5Ms: md5, requestsMs: median(totals.map((t, i) => t - md5s[i])), runs: totals };
}

/** Line 3: a page of a 20,000-item folder against a 100-item folder, by name. */
async function listingLine(server, token, rootId) {
  const small = await createFolder(server, token, rootId, '一百个项目');
  const large = await createFolder(server, token, rootId, '两万个项目');
  const dbFile = path.join(server.dataDir, 'app.db');
  fillLargeFolder(dbFile, small.id, 100);
  fillLargeFolder(dbFile, large.id, ITEMS);
  const byName = { sortField: 'name', sortOrder: 'asc' };
  // one round thrown away: the server's first listings are slower, and the baseline comes first
  await timeApi(server, token, small.id, { ...byName, page: '1' });
  const base = await timeApi(server, token, small.id, { ...byName, page: '1' });
  const first = await timeApi(server, token, large.id, { ...byName, page: '1' });
  const last = await timeApi(server, token, large.id, { ...byName, page: String(Math.ceil(ITEMS / PAGE_SIZE)) });
  if (base.total !== 100 || first.total !== ITEMS) throw new Error(`the folders report ${base.total} and ${first.total} items, not 100 and ${ITEMS}`);
  console.log(`\nLine 3: GET /api/User/Folders/{id}/Items, ${PAGE_SIZE} items a page, by name (figure 2's timeApi: median of 7 after a warm-up)`);
  printTable([
    { key: 'what', title: 'page' }, { key: 'time', title: 'median', align: 'right' },
    { key: 'n', title: 'rows', align: 'right' }, { key: 'ratio', title: 'vs 100 items', align: 'right' },
  ], [
    { what: 'baseline: 100-item folder, first page', time: `${base.median.toFixed(1)} ms`, n: base.rows, ratio: '1.00×' },
    { what: `${ITEMS.toLocaleString('en')}-item folder, first page`, time: `${first.median.toFixed(1)} ms`, n: first.rows, ratio: ratio(first.median, base.median) },
    { what: `${ITEMS.toLocaleString('en')}-item folder, last page`, time: `${last.median.toFixed(1)} ms`, n: last.rows, ratio: ratio(last.median, base.median) },
  ]);
  return { smallMs: base.median, firstMs: first.median, lastMs: last.median, ratio: first.median / base.median };
}

/** Line 4: zip of a folder of ZIP_FILES files of 256 KB, request to zip on disk, against zip -0 -r. */
async function zipLine(server, token, rootId, dir) {
  const source = path.join(dir, '打包源');
  fs.mkdirSync(source);
  const exts = ['jpg', 'png', 'mp4', 'zip', 'pdf', 'docx', 'txt', 'xlsx'];
  const block = crypto.randomBytes(ZIP_FILE_KB * 1024);
  for (let i = 0; i < ZIP_FILES; i++) {
    block.writeUInt32LE(i, 0); // no two files alike, so none is an instant upload
    fs.writeFileSync(path.join(source, `文件${String(i).padStart(4, '0')}.${exts[i % exts.length]}`), block);
  }
  const folder = await createFolder(server, token, rootId, '打包测速');
  let t = performance.now();
  await pool(fs.readdirSync(source), 4, (name) => uploadFile(server, token, folder.id, path.join(source, name)));
  console.log(`\n(uploaded ${ZIP_FILES} files of ${ZIP_FILE_KB} KB through the API, 4 at a time, in ${ms(performance.now() - t)})`);

  const zipT0 = performance.now();
  const { taskId } = await apiOk(server, 'POST', `${BASE}/DownloadTask`, { token, body: [folder.id] });
  let status;
  for (;;) {
    status = await apiOk(server, 'GET', `${BASE}/DownloadTasks/${taskId}/Status`, { token });
    if (status.downloadUrl) break;
    if (status.state === 'failed') throw new Error(`the zip task failed: ${status.error}`);
    if (performance.now() - zipT0 > 10 * 60_000) throw new Error('the zip task did not finish within 10 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
  const builtMs = performance.now() - zipT0;
  const res = await fetch(new URL(status.downloadUrl, server.url), { headers: { Authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`zip download: HTTP ${res.status}`);
  const ours = path.join(dir, 'ours.zip');
  await pipeline(res.body, fs.createWriteStream(ours));
  const zipMs = performance.now() - zipT0;
  t = performance.now();
  execFileSync('zip', ['-0', '-r', '-q', path.join(dir, 'plain.zip'), '打包源'], { cwd: dir });
  const plainMs = performance.now() - t;
  const bytes = ZIP_FILES * ZIP_FILE_KB * 1024;
  const ourSize = fs.statSync(ours).size;
  if (ourSize < bytes) throw new Error(`the zip is ${ourSize} bytes, less than the ${bytes} bytes of its files`);
  console.log(`\nLine 4: zip of a folder of ${ZIP_FILES} files, ${mbOf(bytes)} (zips of ${mbOf(ourSize)} and ${mbOf(fs.statSync(path.join(dir, 'plain.zip')).size)})`);
  printTable([
    { key: 'what', title: 'zip' }, { key: 'time', title: 'time', align: 'right' },
    { key: 'rate', title: 'rate', align: 'right' }, { key: 'ratio', title: 'vs zip -0 -r', align: 'right' },
  ], [
    { what: 'baseline: zip -0 -r of the same files', time: ms(plainMs), rate: `${mbps(bytes, plainMs).toFixed(0)} MB/s`, ratio: '1.00×' },
    { what: '云文档: DownloadTask until its downloadUrl', time: ms(builtMs), rate: `${mbps(bytes, builtMs).toFixed(0)} MB/s`, ratio: ratio(builtMs, plainMs) },
    { what: '云文档: DownloadTask until the zip is on disk', time: ms(zipMs), rate: `${mbps(bytes, zipMs).toFixed(0)} MB/s`, ratio: ratio(zipMs, plainMs) },
  ]);
  return { files: ZIP_FILES, bytes, plainMs, builtMs, zipMs, ratio: zipMs / plainMs };
}

/**
 * Line 5: CONCURRENCY workers creating folders on one session until REQUESTS requests are
 * made. A reply saying the session is gone is counted, and the workers sign in again so the
 * count goes on.
 */
async function sessionLine(server, rootId) {
  let token = (await login(server)).token;
  let relogin = null;
  const parent = await createFolder(server, token, rootId, '并发建文件夹');
  let made = 0;
  let failures = 0;
  let lost = 0;
  const samples = new Map();
  const note = (what) => samples.set(what, (samples.get(what) ?? 0) + 1);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (made < REQUESTS) {
      const n = made++;
      const used = token;
      let r;
      try {
        r = await api(server, 'POST', '/api/User/Files/CreateFile', {
          token: used, body: { parentId: parent.id, name: `文件夹${String(n).padStart(6, '0')}`, type: 'folder' },
        });
      } catch (err) {
        failures++;
        note(`no answer: ${err.cause?.code || err.message}`);
        continue;
      }
      if (r.status === 200 && r.body?.code === 200) continue;
      failures++;
      note(`HTTP ${r.status} code ${r.body?.code} ${String(r.body?.message ?? '').slice(0, 60)}`);
      if (isUnauthorized(r)) {
        lost++;
        if (token === used) {
          relogin ??= login(server).then((l) => {
            token = l.token;
            relogin = null;
          });
        }
        await relogin;
      }
    }
  }));
  const totalMs = performance.now() - t0;
  const rate = made / (totalMs / 1000);
  console.log(`\nLine 5: ${CONCURRENCY} concurrent workers creating folders (POST /api/User/Files/CreateFile) on one session`);
  printTable([
    { key: 'requests', title: 'requests', align: 'right' }, { key: 'failures', title: 'not success', align: 'right' },
    { key: 'lost', title: 'session lost', align: 'right' }, { key: 'rate', title: 'requests/s', align: 'right' },
    { key: 'time', title: 'time', align: 'right' },
  ], [{ requests: made.toLocaleString('en'), failures, lost, rate: rate.toFixed(0), time: secs(totalMs) }]);
  for (const [what, count] of samples) console.log(`  ${count} × ${what}`);
  return { requests: made, failures, lost, requestsPerSecond: rate, failuresByKind: Object.fromEntries(samples) };
}

/* ---------------------------------------------------------------- the figure */

export async function run() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-peer-'));
  const minimalTarget = path.join(dir, 'minimal-upload.bin');
  const server = await startServer();
  const minimal = await startMinimal(minimalTarget);
  try {
    const big = path.join(dir, `一个文件-${UPLOAD_MB}MB.bin`);
    const t = performance.now();
    await randomFile(big, UPLOAD_MB);
    console.log(`made a ${UPLOAD_MB} MB file in ${ms(performance.now() - t)}\n`);

    const admin = await login(server);
    const root = await personalRoot(server, admin.token);
    const upFolder = await createFolder(server, admin.token, root.id, '上传测速');
    const instantFolder = await createFolder(server, admin.token, root.id, '秒传测速');

    const upload = await uploadLines(server, admin.token, upFolder.id, minimal, big, minimalTarget);
    const instant = await instantLine(server, admin.token, instantFolder.id, big);
    fs.rmSync(big, { force: true });
    fs.rmSync(minimalTarget, { force: true });
    const listing = await listingLine(server, admin.token, root.id);
    const zip = await zipLine(server, admin.token, root.id, dir);
    const session = await sessionLine(server, root.id);

    const B = TO_BEAT;
    const growth = upload.rss.peak - upload.rss.before;
    const minimalGrowth = upload.rss.minimalPeak - upload.rss.minimalBefore;
    console.log('\nSummary: 云文档 against the figures to beat (shared/notes/figures-to-beat.md), each ratio against a baseline of the same run');
    printTable([
      { key: 'line', title: 'line' }, { key: 'ours', title: '云文档' }, { key: 'beat', title: 'to beat' }, { key: 'ahead', title: 'ahead?' },
    ], [
      {
        line: `1 upload ${UPLOAD_MB} MB, 5 MB chunks, 3 in flight`,
        ours: `${upload.oursMbps.toFixed(0)} MB/s, ${upload.share.toFixed(2)} of minimal (${upload.plainMbps.toFixed(0)} MB/s)`,
        beat: `${B.uploadMbps} MB/s, ${B.uploadShare[0].toFixed(2)}–${B.uploadShare[1].toFixed(2)} of minimal`,
        ahead: yes(upload.share > B.uploadShare[1]),
      },
      {
        line: `2 instant upload of ${UPLOAD_MB} MB held`,
        // the client's MD5 is the same work on both sides (and this machine's speed): what counts is the rest
        ours: `${ms(instant.totalMs)}, of which ${ms(instant.md5Ms)} MD5: ${ms(instant.totalMs - instant.md5Ms)} more (${(instant.totalMs / instant.md5Ms).toFixed(2)}×)`,
        beat: `${B.instantMs} ms, of which ${B.instantMd5Ms} ms MD5: ${B.instantMs - B.instantMd5Ms} ms more (${(B.instantMs / B.instantMd5Ms).toFixed(2)}×)`,
        ahead: yes(instant.totalMs - instant.md5Ms < B.instantMs - B.instantMd5Ms),
      },
      {
        line: `3 page of a ${ITEMS.toLocaleString('en')}-item folder`,
        ours: `${listing.firstMs.toFixed(1)} ms, ${listing.ratio.toFixed(1)}× 100 items (${listing.smallMs.toFixed(1)} ms); last ${listing.lastMs.toFixed(1)} ms`,
        beat: `${B.pageMs} ms, ${B.pageRatio}× (${B.smallPageMs} ms); last ${B.lastPageMs} ms`,
        ahead: yes(listing.firstMs < B.pageMs && listing.lastMs < B.lastPageMs && listing.ratio < B.pageRatio),
      },
      {
        line: `4 zip of ${ZIP_FILES} files, ${mbOf(zip.bytes)}`,
        ours: `${secs(zip.zipMs)}, ${zip.ratio.toFixed(1)}× zip -0 -r (${secs(zip.plainMs)})`,
        beat: `${secs(B.zipMs)}, ${B.zipRatio}× zip -0 -r (0.82 s)`,
        ahead: yes(zip.ratio < B.zipRatio),
      },
      {
        line: `5 ${CONCURRENCY} concurrent requests on one session`,
        ours: `session lost ${session.lost} times, ${session.failures} failures in ${session.requests.toLocaleString('en')} (${session.requestsPerSecond.toFixed(0)}/s)`,
        beat: `session lost ${B.sessionLost} times in ${B.sessionRequests.toLocaleString('en')}`,
        ahead: yes(session.lost === 0 && session.failures === 0),
      },
      {
        line: '6 server memory during the upload',
        ours: `${mbOf(upload.rss.before)} → peak ${mbOf(upload.rss.peak)} (+${mbOf(growth)}; minimal server +${mbOf(minimalGrowth)})`,
        beat: `flat, ~${B.memoryMb} MB per worker`,
        // "flat": it grows no more than the minimal server's does (plus 16 MB), in the same run
        ahead: growth <= minimalGrowth + 16 * MB ? 'flat' : 'NOT flat',
      },
    ]);

    const errors = server.output().split('\n').filter((l) => /"level":(50|60)/.test(l));
    if (errors.length) {
      console.log(`\nthe server logged ${errors.length} error lines; the first:`);
      for (const l of errors.slice(0, 3)) console.log(`  ${l.slice(0, 300)}`);
    }
    return { upload, instant, listing, zip, session, serverErrors: errors.length };
  } finally {
    await minimal.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
