// Figure 11: WebDAV (/dav/) with Debian's rclone, each line against a baseline measured in the
// same run, on the built server started as e2e starts it (SQLite and local disk, or PostgreSQL
// when BENCH_DATABASE_URL is set).
// 1. One file of BENCH_DAV_MB (default 1024) MB: `rclone copyto` to /dav/ (one PUT, streamed
//    through the upload path: hashed, stored, a version made) against one plain PUT of the same
//    bytes (curl --upload-file) to a minimal Node server that writes the body to a file (timed
//    before and after; the faster counts). Goal: ≥ 0.8 of its rate. Shown too: the same minimal
//    server when it fsyncs the file before answering (云文档 answers only once the file is on
//    disk), and curl's PUT of the same file to /dav/ (the server alone, without rclone).
// 2. BENCH_DAV_FILES (default 1,000) small files (1–8 KB) in 10 folders: `rclone copy` with 4
//    transfers against the same files sent through the web upload protocol (create, the chunk,
//    merge, as the page sends a one-chunk file) with 4 at a time, folders made first.
// 3. PROPFIND Depth: 1 of a folder of BENCH_DAV_ITEMS (default 10,000) files (made straight
//    through the API) against one of 100: the median of 5 of each, and the time per entry.
import crypto from 'node:crypto';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import { apiOk, createFolder, login, personalRoot, startServer } from '../../e2e/harness.mjs';
import { median, ms, printTable } from '../lib/util.mjs';
import { freshDatabase, pool, uploadSmall } from '../lib/load-users.mjs';
import { createRequire } from 'node:module';
import { ROOT } from '../lib/util.mjs';

export const id = 'webdav';
export const title = 'Figure 11: WebDAV — a 1 GB file and 1,000 small files with rclone, PROPFIND of 10,000 items';

const MB = 1024 * 1024;
const BIG_MB = Number(process.env.BENCH_DAV_MB || 1024);
const FILES = Number(process.env.BENCH_DAV_FILES || 1000);
const ITEMS = Number(process.env.BENCH_DAV_ITEMS || 10_000);
const DATABASE_URL = process.env.BENCH_DATABASE_URL || '';
const RCLONE = '/usr/bin/rclone';
const GOAL = 0.8;
const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));

const mbps = (bytes, msTaken) => `${(bytes / MB / (msTaken / 1000)).toFixed(1)} MB/s`;
const exec = (cmd, args, env) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    execFile(cmd, args, { env, maxBuffer: 64 * MB }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.slice(0, 3).join(' ')}…: ${stderr || err.message}`));
      else resolve({ ms: performance.now() - t0, stdout });
    });
  });

/** The minimal server: PUT writes the body to a file (and, under /synced/, fsyncs it before answering, as 云文档 does). */
async function startPlainServer(dir) {
  const server = http.createServer(async (req, res) => {
    const file = path.join(dir, 'plain-put.bin');
    await pipeline(req, fs.createWriteStream(file));
    if (req.url.startsWith('/synced/')) {
      const fh = await fs.promises.open(file, 'r+');
      await fh.sync();
      await fh.close();
    }
    res.statusCode = 201;
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

/** A file of `mb` random megabytes, written a piece at a time. */
function randomFile(file, mb) {
  const fd = fs.openSync(file, 'w');
  const piece = crypto.randomBytes(4 * MB);
  for (let i = 0; i < mb; i += 4) {
    piece[0] = i & 255;
    fs.writeSync(fd, piece, 0, Math.min(4, mb - i) * MB);
  }
  fs.closeSync(fd);
}

const curlPut = (url, file, auth) => exec('curl', ['-sS', '-f', '-o', '/dev/null', '-T', file, ...(auth ? ['-u', auth] : []), url]);

/** PROPFIND Depth: 1 of `url`; its milliseconds and the entries answered. */
function propfind(url, auth) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(url, { method: 'PROPFIND', headers: { depth: '1', authorization: `Basic ${Buffer.from(auth).toString('base64')}` } }, (res) => {
      let entries = 0;
      let tail = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        const text = tail + c;
        entries += text.split('<D:response>').length - 1;
        tail = text.slice(-12);
      });
      res.on('end', () => (res.statusCode === 207 ? resolve({ ms: performance.now() - t0, entries }) : reject(new Error(`PROPFIND ${url}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

export async function run() {
  if (!fs.existsSync(RCLONE)) {
    console.log('rclone is not installed (apt-get install rclone): figure 11 skipped');
    return { skipped: 'rclone not installed' };
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-dav-'));
  const database = await freshDatabase(DATABASE_URL, 'yd_bench_dav', DATABASE_URL ? serverRequire('pg') : null);
  const server = await startServer({ env: database.env });
  const plain = await startPlainServer(work);
  try {
    const { token: adminToken } = await login(server);
    // room for the 1 GB file (and its second copy) whatever the default quota
    await apiOk(server, 'POST', '/api/Admin/Users', { token: adminToken, body: { userName: 'davbench', nickName: '测量', password: 'Bench-Passw0rd-1', quota: 0, mustChangePassword: false } });
    const { token } = await login(server, 'davbench', 'Bench-Passw0rd-1');
    const { password } = await apiOk(server, 'POST', '/api/Account/AppPasswords', { token, body: { name: 'rclone 测量', scope: 'readWrite' } });
    const auth = `davbench:${password}`;
    const dav = `${server.url}/dav/${encodeURIComponent('个人文件')}`;
    const env = {
      PATH: process.env.PATH,
      HOME: work,
      RCLONE_CONFIG_YD_TYPE: 'webdav',
      RCLONE_CONFIG_YD_URL: dav,
      RCLONE_CONFIG_YD_VENDOR: 'other',
      RCLONE_CONFIG_YD_USER: 'davbench',
      RCLONE_CONFIG_YD_PASS: execFileSync(RCLONE, ['obscure', password]).toString().trim(),
    };
    const rclone = (...args) => exec(RCLONE, [...args, '--config', '/dev/null', '--retries', '1', '--low-level-retries', '1'], env);

    // ---- 1. one big file
    const big = path.join(work, 'big.bin');
    randomFile(big, BIG_MB);
    const bytes = fs.statSync(big).size;
    const plainRuns = [];
    const syncedRuns = [];
    plainRuns.push((await curlPut(`${plain.url}/plain.bin`, big)).ms);
    syncedRuns.push((await curlPut(`${plain.url}/synced/plain.bin`, big)).ms);
    const davCurl = (await curlPut(`${dav}/${encodeURIComponent('大文件-curl.bin')}`, big, auth)).ms;
    const davRclone = (await rclone('copyto', big, 'yd:大文件-rclone.bin')).ms;
    plainRuns.push((await curlPut(`${plain.url}/plain.bin`, big)).ms);
    syncedRuns.push((await curlPut(`${plain.url}/synced/plain.bin`, big)).ms);
    const plainMs = Math.min(...plainRuns);
    const syncedMs = Math.min(...syncedRuns);
    fs.rmSync(big, { force: true });
    fs.rmSync(path.join(work, 'plain-put.bin'), { force: true });
    const bigRatio = plainMs / davRclone;
    console.log(`1. One file of ${BIG_MB} MB (${DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, local disk)`);
    printTable(
      [
        { key: 'what', title: 'what' },
        { key: 'time', title: 'time', align: 'right' },
        { key: 'rate', title: 'rate', align: 'right' },
        { key: 'ratio', title: 'of the baseline', align: 'right' },
      ],
      [
        { what: `baseline: curl PUT to a minimal Node server writing to disk (faster of ${plainRuns.map(ms).join(', ')})`, time: ms(plainMs), rate: mbps(bytes, plainMs), ratio: '1.00' },
        { what: `the same server fsyncing the file before it answers (faster of ${syncedRuns.map(ms).join(', ')})`, time: ms(syncedMs), rate: mbps(bytes, syncedMs), ratio: (plainMs / syncedMs).toFixed(2) },
        { what: `rclone copyto to /dav/ (goal ≥ ${GOAL})`, time: ms(davRclone), rate: mbps(bytes, davRclone), ratio: `${bigRatio.toFixed(2)} ${bigRatio >= GOAL ? 'PASS' : 'MISS'}` },
        { what: 'curl PUT to /dav/', time: ms(davCurl), rate: mbps(bytes, davCurl), ratio: (plainMs / davCurl).toFixed(2) },
      ],
    );

    // ---- 2. small files
    const small = path.join(work, 'small');
    const names = [];
    for (let i = 0; i < FILES; i++) {
      const rel = `目录 ${i % 10}/文件 ${i}.txt`;
      fs.mkdirSync(path.join(small, path.dirname(rel)), { recursive: true });
      fs.writeFileSync(path.join(small, rel), crypto.randomBytes(1024 + ((i * 7919) % 7168)));
      names.push(rel);
    }
    const smallRclone = (await rclone('copy', small, 'yd:小文件-rclone', '--transfers', '4', '--checkers', '8')).ms;
    const options = await apiOk(server, 'GET', '/api/User/FileTransfer/FileUploadOptions', { token });
    const t0 = performance.now();
    const root = await personalRoot(server, token);
    const top = await createFolder(server, token, root.id, '小文件-网页');
    const folders = new Map();
    for (let d = 0; d < 10; d++) folders.set(`目录 ${d}`, (await createFolder(server, token, top.id, `目录 ${d}`)).id);
    await pool(names, 4, async (rel) => {
      const content = fs.readFileSync(path.join(small, rel));
      await uploadSmall(server.url, token, folders.get(path.dirname(rel)), path.basename(rel), content, options.chunkSize);
    });
    const smallWeb = performance.now() - t0;
    console.log(`\n2. ${FILES} small files (1–8 KB) in 10 folders, 4 at a time`);
    printTable(
      [
        { key: 'what', title: 'what' },
        { key: 'time', title: 'time', align: 'right' },
        { key: 'rate', title: 'files/s', align: 'right' },
        { key: 'ratio', title: 'time against the web protocol', align: 'right' },
      ],
      [
        { what: 'baseline: the web upload protocol (create, chunk, merge)', time: ms(smallWeb), rate: (FILES / (smallWeb / 1000)).toFixed(1), ratio: '1.00' },
        { what: 'rclone copy to /dav/ (one PUT each, folders by MKCOL)', time: ms(smallRclone), rate: (FILES / (smallRclone / 1000)).toFixed(1), ratio: (smallRclone / smallWeb).toFixed(2) },
      ],
    );

    // ---- 3. PROPFIND of a large folder
    const many = await createFolder(server, token, root.id, '一万个文件');
    const few = await createFolder(server, token, root.id, '一百个文件');
    await pool(Array.from({ length: ITEMS }, (_, i) => i), 16, (i) =>
      apiOk(server, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: many.id, name: `条目 ${String(i).padStart(5, '0')}.txt`, type: 'file' } }),
    );
    await pool(Array.from({ length: 100 }, (_, i) => i), 16, (i) =>
      apiOk(server, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: few.id, name: `条目 ${i}.txt`, type: 'file' } }),
    );
    const timesOf = async (name) => {
      const out = [];
      for (let i = 0; i < 5; i++) out.push(await propfind(`${dav}/${encodeURIComponent(name)}/`, auth));
      return { ms: median(out.map((r) => r.ms)), entries: out[0].entries };
    };
    await timesOf('一百个文件');
    const hundred = await timesOf('一百个文件');
    const tenThousand = await timesOf('一万个文件');
    console.log(`\n3. PROPFIND Depth: 1 (median of 5)`);
    printTable(
      [
        { key: 'what', title: 'folder' },
        { key: 'entries', title: 'entries', align: 'right' },
        { key: 'time', title: 'time', align: 'right' },
        { key: 'per', title: 'per entry', align: 'right' },
        { key: 'ratio', title: 'time against 100', align: 'right' },
      ],
      [
        { what: 'baseline: 100 files', entries: hundred.entries, time: ms(hundred.ms), per: `${((hundred.ms / hundred.entries) * 1000).toFixed(0)} µs`, ratio: '1.00' },
        { what: `${ITEMS.toLocaleString('en')} files`, entries: tenThousand.entries, time: ms(tenThousand.ms), per: `${((tenThousand.ms / tenThousand.entries) * 1000).toFixed(0)} µs`, ratio: (tenThousand.ms / hundred.ms).toFixed(1) },
      ],
    );
    return {
      big: { mb: BIG_MB, plainMs, syncedMs, davCurlMs: davCurl, davRcloneMs: davRclone, ratio: bigRatio, goal: GOAL, met: bigRatio >= GOAL },
      small: { files: FILES, webMs: smallWeb, rcloneMs: smallRclone },
      propfind: { hundredMs: hundred.ms, items: ITEMS, manyMs: tenThousand.ms },
    };
  } finally {
    await plain.close();
    await server.stop();
    await database.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
