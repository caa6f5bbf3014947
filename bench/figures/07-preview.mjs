// Figure 7: preview, each line against a baseline measured in the same run.
// 1. A 20-page .docx (Chinese paragraphs, a page break after each page's worth) through the
//    server: the first view (CreateComponentData, the conversion status until ready, the whole
//    PDF) of a document nobody viewed before, against LibreOffice's own command line on the same
//    file (`soffice --headless --convert-to pdf`, a fresh profile each run, as the server's runs
//    have); then the second view (the same three calls for a copy of the same content, the PDF
//    made once), against a GET /api/User/Files/{id}. Goals: first view within 1.2× of the command
//    line; second view under 50 ms.
// 2. A 500 MB video (a WebM clip recorded by Chromium, padded with an EBML Void element: no
//    encoder is installed here) in headless Chromium: the time to its first frame on the preview
//    page (from navigation) and in a bare <video> of the preview URL, against the whole download
//    of the same file through the same URL.
// 3. A 20-megapixel JPEG (5472 × 3648, Gaussian noise over grey): its first thumbnail through
//    GET …/Thumbnail (made on that request) against sharp making the same 256 px WebP in this
//    process; then the thumbnail again (stored) against a GET /api/User/Files/{id}.
// BENCH_PREVIEW_RUNS (default 3) and BENCH_PREVIEW_VIDEO_MB (default 500) make it smaller.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiOk, createUser, launchBrowser, login, personalRoot, signInThroughPage, startServer } from '../../e2e/harness.mjs';
import { uploadFile } from '../../e2e/uploadClient.mjs';
import { ROOT, median, printTable, ratio } from '../lib/util.mjs';
import { recordWebm, writeDocx } from '../../e2e/documents.mjs';
import { documentText } from './06-search.mjs';
import { rng } from '../lib/util.mjs';

export const id = 'preview';
export const title = 'Figure 7: preview of a 20-page docx (first and second view) against soffice on the command line; the thumbnail of a 20-megapixel JPEG against sharp alone; a 500 MB video: the first frame against the whole download (SQLite)';

const RUNS = Number(process.env.BENCH_PREVIEW_RUNS || 3);
const VIDEO_MB = Number(process.env.BENCH_PREVIEW_VIDEO_MB || 500);
const PAGES = 20;
const SECOND_VIEWS = 20;
const MB = 1024 * 1024;
const f1 = (n) => `${n.toFixed(1)} ms`;
const serverRequire = createRequire(path.join(ROOT, 'server', 'package.json'));

function soffice() {
  for (const dir of (process.env.PATH || '').split(':')) {
    const file = path.join(dir, 'soffice');
    if (fs.existsSync(file)) return file;
  }
  return fs.existsSync('/usr/lib/libreoffice/program/soffice') ? '/usr/lib/libreoffice/program/soffice' : null;
}

/** The 20 pages: about a page of paragraphs each, then a page break; `seed` makes each document differ. */
function pagesText(seed) {
  const r = rng(seed);
  const pages = [];
  for (let p = 1; p <= PAGES; p++) pages.push(`第 ${p} 页 经营分析`, ...documentText(r, 1800).split('\n'));
  return pages.map((p, i) => (i && p.startsWith('第 ') ? `\f\n${p}` : p)).join('\n');
}

async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { ms: performance.now() - t0, result };
}

/** GET a URL of the server, reading the body to its end; returns the bytes read. */
async function fetchAll(server, token, url, headers = {}) {
  const res = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  if (res.status !== 200 && res.status !== 206) throw new Error(`GET ${url} -> ${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  return bytes;
}

/** One view: the payload, the conversion until ready, the whole PDF. */
async function view(server, token, fileId) {
  const payload = await apiOk(server, 'POST', '/api/User/FileTransfer/CreateComponentData', { token, body: { fileId } });
  for (let i = 0; ; i++) {
    const state = await apiOk(server, 'GET', payload.data.conversionUrl, { token });
    if (state.status === 'ready') break;
    if (state.status === 'failed') throw new Error(`conversion failed: ${state.message}`);
    if (i > 400) throw new Error('the conversion did not end');
  }
  return fetchAll(server, token, payload.data.url);
}

async function partOffice(server, token, folderId, tmp) {
  const binary = soffice();
  if (!binary) {
    console.log('LibreOffice (soffice) is not installed: the office line is left out');
    return null;
  }
  const cli = [];
  const first = [];
  let pdfBytes = 0;
  let lastFile = null;
  let lastId = null;
  for (let run = 0; run < RUNS; run++) {
    const file = path.join(tmp, `报告-${run}.docx`);
    await writeDocx(file, pagesText(700 + run));
    // the baseline: LibreOffice's command line, a fresh profile as every server run has
    const out = path.join(tmp, `cli-${run}`);
    const t = await timed(async () =>
      execFileSync(binary, ['--headless', '--norestore', `-env:UserInstallation=file://${path.join(tmp, `profile-${run}`)}`, '--convert-to', 'pdf', '--outdir', out, file], { stdio: 'ignore' }),
    );
    cli.push(t.ms);
    const cliPdf = path.join(out, `报告-${run}.pdf`);
    if (!fs.existsSync(cliPdf)) throw new Error('soffice on the command line made no PDF');
    // the server: a document nobody viewed before
    const { item } = await uploadFile(server, token, folderId, file, { fileName: `报告-${run}.docx` });
    const v = await timed(() => view(server, token, item.id));
    first.push(v.ms);
    pdfBytes = v.result;
    lastFile = file;
    lastId = item.id;
  }
  // the second view: a copy of the same content (another file, the PDF made once)
  const copies = await apiOk(server, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId: folderId, name: '副本', type: 'folder' } });
  const copy = (await apiOk(server, 'POST', '/api/User/Files/Copy', { token, body: { ids: [lastId], targetId: copies.id } })).items[0];
  const byId = [];
  const second = [];
  for (let i = 0; i < SECOND_VIEWS + 2; i++) {
    const b = await timed(() => apiOk(server, 'GET', `/api/User/Files/${copy.id}`, { token }));
    const s = await timed(() => view(server, token, copy.id));
    if (i >= 2) {
      byId.push(b.ms);
      second.push(s.ms);
    }
  }
  const cliMs = median(cli);
  const firstMs = median(first);
  const secondMs = median(second);
  const byIdMs = median(byId);
  console.log(`Office: a ${PAGES}-page .docx (${(fs.statSync(lastFile).size / 1024).toFixed(0)} KB; its PDF ${(pdfBytes / 1024).toFixed(0)} KB), ${RUNS} documents, medians`);
  printTable([
    { key: 'what', title: 'what' }, { key: 'runs', title: 'runs', align: 'right' }, { key: 'm', title: 'median', align: 'right' },
    { key: 'r', title: 'vs baseline', align: 'right' }, { key: 'goal', title: 'goal', align: 'right' },
  ], [
    { what: 'baseline: soffice --headless --convert-to pdf (fresh profile)', runs: cli.map(f1).join(', '), m: f1(cliMs), r: '1.00×', goal: '' },
    { what: 'first view: CreateComponentData, Conversion until ready, the PDF', runs: first.map(f1).join(', '), m: f1(firstMs), r: ratio(firstMs, cliMs), goal: firstMs <= 1.2 * cliMs ? 'yes (≤ 1.2×)' : 'NO (≤ 1.2×)' },
    { what: `baseline: GET /api/User/Files/{id} (${SECOND_VIEWS} runs)`, runs: '', m: f1(byIdMs), r: '1.00×', goal: '' },
    { what: `second view: the same three calls, PDF made once (${SECOND_VIEWS} runs)`, runs: '', m: f1(secondMs), r: ratio(secondMs, byIdMs), goal: secondMs < 50 ? 'yes (< 50 ms)' : 'NO (< 50 ms)' },
  ]);
  return { pages: PAGES, cliMs: cli, firstMs: first, secondMs: second, byIdMs: byId, pdfBytes };
}

/**
 * A WebM of VIDEO_MB: a short clip recorded by Chromium (MediaRecorder), then an EBML Void
 * element (ID 0xEC, 8-byte size) filling it up. The file is a valid WebM whose player needs
 * only its head; a film whose index lies at its end would add one Range request for it.
 */
async function bigWebm(page, file) {
  const clip = await recordWebm(page);
  const size = VIDEO_MB * MB;
  const pad = size - clip.length - 9;
  if (pad < 0) throw new Error('the recorded clip is larger than the video asked for');
  const head = Buffer.alloc(9);
  head[0] = 0xec;
  head[1] = 0x01; // an 8-byte size
  head.writeUIntBE(Math.floor(pad / 2 ** 32), 2, 3);
  head.writeUInt32BE(pad % 2 ** 32, 5);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, clip);
  fs.writeSync(fd, head);
  const zeros = Buffer.alloc(MB);
  for (let left = pad; left > 0; left -= MB) fs.writeSync(fd, zeros, 0, Math.min(MB, left));
  fs.closeSync(fd);
  return size;
}

async function partVideo(server, user, folderId, tmp) {
  const browser = await launchBrowser();
  try {
    const { page } = browser;
    await page.goto(`${server.url}/login`);
    const file = path.join(tmp, '会议录像.webm');
    const size = await bigWebm(page, file);
    const { item } = await uploadFile(server, user.token, folderId, file, { fileName: '会议录像.webm' });
    await signInThroughPage(page, server, user.userName, user.password);
    const previewData = Buffer.from(JSON.stringify({ fileId: item.id, name: '会议录像.webm' })).toString('base64url');
    const content = `/api/User/Preview/${item.id}/Content`;
    const page1 = [];
    const bare = [];
    const whole = [];
    for (let run = 0; run < RUNS + 1; run++) {
      // the preview page: from navigation to the first frame (the page's own chunks included)
      await page.goto(`${server.url}/login`);
      const t0 = performance.now();
      await page.goto(`${server.url}/preview/${previewData}`);
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, undefined, { timeout: 120_000 });
      const p = performance.now() - t0;
      // the media alone: a <video> on a page of the same origin, until its first frame
      const b = await page.evaluate(async (url) => {
        const t = performance.now();
        const v = document.createElement('video');
        v.preload = 'auto';
        v.muted = true;
        const ready = new Promise((resolve, reject) => {
          v.onloadeddata = resolve;
          v.onerror = () => reject(new Error('the video did not load'));
        });
        v.src = `${url}?run=${Math.random()}`;
        document.body.append(v);
        await ready;
        const ms = performance.now() - t;
        v.remove();
        return { ms };
      }, content);
      // the baseline: the whole file through the same URL, read to its end
      const w = await page.evaluate(async (url) => {
        const t = performance.now();
        const res = await fetch(url, { cache: 'no-store' });
        const reader = res.body.getReader();
        let n = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          n += value.length;
        }
        return { ms: performance.now() - t, n };
      }, content);
      if (w.n !== size) throw new Error(`the whole download gave ${w.n} bytes, not ${size}`);
      if (run > 0) {
        page1.push(p);
        bare.push(b.ms);
        whole.push(w.ms);
      }
    }
    const pageMs = median(page1);
    const bareMs = median(bare);
    const wholeMs = median(whole);
    console.log(`\nVideo: a ${VIDEO_MB} MB WebM (a Chromium-recorded clip, then padding the player never reads) in headless Chromium, medians of ${RUNS} after a warm-up`);
    printTable([
      { key: 'what', title: 'what' }, { key: 'm', title: 'median', align: 'right' }, { key: 'r', title: 'vs the whole download', align: 'right' },
    ], [
      { what: `baseline: the whole ${VIDEO_MB} MB through fetch(), read to its end`, m: f1(wholeMs), r: '1.00×' },
      { what: 'first frame: the preview page, from navigation (its own chunks included)', m: f1(pageMs), r: ratio(pageMs, wholeMs) },
      { what: 'first frame: a <video> of the preview URL on a loaded page', m: f1(bareMs), r: ratio(bareMs, wholeMs) },
    ]);
    return { videoMb: VIDEO_MB, pageMs: page1, bareMs: bare, wholeMs: whole };
  } finally {
    await browser.close();
  }
}

async function partThumbnail(server, token, folderId, tmp) {
  const sharp = serverRequire('sharp');
  const library = [];
  const first = [];
  const again = [];
  const byId = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const file = path.join(tmp, `照片-${run}.jpg`);
    await sharp({ create: { width: 5472, height: 3648, channels: 3, background: { r: 120 + run, g: 130, b: 140 }, noise: { type: 'gaussian', mean: 128, sigma: 20 } } })
      .jpeg({ quality: 85 })
      .toFile(file);
    bytes = fs.statSync(file).size;
    const out = path.join(tmp, `照片-${run}.webp`);
    library.push((await timed(() => sharp(file).rotate().resize(256, 256, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 75 }).toFile(out))).ms);
    const { item } = await uploadFile(server, token, folderId, file, { fileName: `照片-${run}.jpg` });
    const url = `/api/User/Preview/${item.id}/Thumbnail`;
    first.push((await timed(() => fetchAll(server, token, url))).ms);
    for (let i = 0; i < 5; i++) {
      byId.push((await timed(() => apiOk(server, 'GET', `/api/User/Files/${item.id}`, { token }))).ms);
      again.push((await timed(() => fetchAll(server, token, url))).ms);
    }
  }
  const libMs = median(library);
  const firstMs = median(first);
  console.log(`\nThumbnail: a 20-megapixel JPEG (${(bytes / MB).toFixed(1)} MB), ${RUNS} pictures, medians`);
  printTable([
    { key: 'what', title: 'what' }, { key: 'm', title: 'median', align: 'right' }, { key: 'r', title: 'vs baseline', align: 'right' },
  ], [
    { what: 'baseline: sharp → 256 px WebP in this process', m: f1(libMs), r: '1.00×' },
    { what: 'first GET …/Thumbnail (made on that request)', m: f1(firstMs), r: ratio(firstMs, libMs) },
    { what: 'baseline: GET /api/User/Files/{id}', m: f1(median(byId)), r: '1.00×' },
    { what: 'GET …/Thumbnail again (stored)', m: f1(median(again)), r: ratio(median(again), median(byId)) },
  ]);
  return { jpegBytes: bytes, libraryMs: library, firstMs: first, againMs: again, byIdMs: byId };
}

export async function run() {
  const server = await startServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-bench-preview-'));
  try {
    const admin = await login(server);
    const made = await createUser(server, admin.token, { userName: 'bench_preview', nickName: '预览基准', password: 'Bench-Preview-Passw0rd!' });
    const { token } = await login(server, made.userName, made.password);
    const user = { ...made, token };
    const root = await personalRoot(server, token);
    const office = await partOffice(server, token, root.id, tmp);
    const thumbnail = await partThumbnail(server, token, root.id, tmp);
    const video = await partVideo(server, user, root.id, tmp);
    return { office, thumbnail, video };
  } catch (err) {
    err.message += `\nserver output (last lines):\n${server.output().split('\n').slice(-30).join('\n')}`;
    throw err;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await server.stop();
  }
}
