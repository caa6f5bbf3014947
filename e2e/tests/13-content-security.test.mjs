// The security headers of 云文档's pages hold in the real composed app: with the
// Content-Security-Policy the server sends, the login page, the file list (an upload through
// the page, hashed by hash-wasm in its worker, and a download through its hidden frame),
// previews (a picture, a PDF drawn by pdf.js with its worker and font data, a text file) and an
// external share page raise no policy violation — first with every remote on the server's own
// origin, then with the files and share remotes on another origin (REMOTE_FILES_URL,
// REMOTE_SHARE_URL). A share page sends no Referer.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pdfOf } from '../documents.mjs';
import {
  ROOT, apiOk, createFolder, createUser, listRow, login, missingBuilds, pdfDrawn, personalRoot, signInThroughPage,
  startServer, startStatic, waitForPath, withBrowser,
} from '../harness.mjs';
import { uploadFile } from '../uploadClient.mjs';

const T = { timeout: 300_000 };
const notBuilt = missingBuilds('server/dist/server.js', 'shell/dist/index.html', 'remote-files/dist/mf-manifest.json', 'remote-share/dist/mf-manifest.json');
const sharp = createRequire(path.join(ROOT, 'server', 'package.json'))('sharp');

/**
 * Collects every policy violation of the browser context: the `securitypolicyviolation` events
 * of every document and frame, and the console's "Refused to …" lines of pages and workers.
 */
async function watchViolations(context) {
  const violations = [];
  await context.exposeBinding('__yunwendangCspViolation', (_source, v) => violations.push(v));
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = window.__yunwendangCspViolation;
        if (typeof report === 'function') {
          void report({ page: location.href, directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber, sample: e.sample });
        }
      },
      true,
    );
  });
  const fromConsole = (where) => (m) => {
    if (/Content Security Policy|Refused to (load|execute|connect|frame|create|apply|compile|evaluate)/i.test(m.text())) violations.push({ console: m.text(), where });
  };
  const watchPage = (p) => {
    p.on('console', fromConsole(p.url()));
    p.on('worker', (w) => w.on('console', fromConsole(w.url())));
  };
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  return violations;
}

/** Clicks the file's name in the list and returns the preview tab it opens. */
async function openFromList(page, name) {
  const [popup] = await Promise.all([page.waitForEvent('popup', { timeout: 15_000 }), listRow(page, name).getByText(name, { exact: true }).click()]);
  await popup.waitForLoadState('domcontentloaded');
  return popup;
}

function directives(policy) {
  const out = {};
  for (const part of String(policy ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources;
  }
  return out;
}

describe('content security policy of the composed app', () => {
  let work;
  const tag = Date.now().toString(36);
  const files = { image: '平面图.png', pdf: 'manual.pdf', text: '说明.txt' };
  const servers = [];
  const statics = [];

  before(() => {
    if (notBuilt) throw new Error(notBuilt);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-csp-'));
  });
  after(async () => {
    for (const s of [...servers, ...statics]) await s.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** A user with a folder of a picture, a PDF and a text file, shared by an external link. */
  async function prepare(server) {
    const admin = await login(server);
    const user = await createUser(server, admin.token, { nickName: `安全策略${tag}` });
    const session = await login(server, user.userName, user.password);
    const root = await personalRoot(server, session.token);
    const folder = await createFolder(server, session.token, root.id, `资料${tag}`);
    const put = async (name, bytes) => {
      const local = path.join(work, `${servers.length}-${name}`);
      fs.writeFileSync(local, bytes);
      await uploadFile(server, session.token, folder.id, local, { fileName: name });
    };
    await put(files.image, await sharp({ create: { width: 320, height: 200, channels: 3, background: '#36cfc9' } }).png().toBuffer());
    await put(files.pdf, pdfOf(`Policy check ${tag}`));
    await put(files.text, `第一行：安全策略 ${tag}\n第二行`);
    const link = await apiOk(server, 'POST', '/api/User/Shares', {
      token: session.token,
      body: { fileIds: [folder.id], shareType: 2, level: 2, expireAt: null, accessKey: '', downloadLimit: null },
    });
    return { user, folder, link };
  }

  /** The whole tour; every page and frame of the browser is watched for violations. */
  async function tour(t, server, { uploadThroughPage }) {
    const { user, folder, link } = await prepare(server);
    await withBrowser(t, async ({ context, page }) => {
      const violations = await watchViolations(context);
      try {
        await pages(page);
      } catch (err) {
        if (violations.length) err.message += `\n  policy violations so far:\n${JSON.stringify(violations, null, 2)}`;
        throw err;
      }
      // late reports (workers, frames) have a moment to arrive
      await page.waitForTimeout(500);
      assert.deepEqual(violations, [], `policy violations:\n${JSON.stringify(violations, null, 2)}`);
    }, { server });

    async function pages(page) {
      // an outside visitor on the share page: no Referer leaves it, even to the server itself
      const shareResponse = await page.goto(`${server.url}/s/${link.shareId}?key=${link.accessKey}`);
      assert.equal(shareResponse.headers()['referrer-policy'], 'no-referrer');
      assert.deepEqual(directives(shareResponse.headers()['content-security-policy'])['frame-ancestors'], ["'none'"]);
      const referers = [];
      const onRequest = (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/')) referers.push(r.headerValue('referer'));
      };
      page.on('request', onRequest);
      await listRow(page, files.pdf).waitFor();
      const sharedPdf = await openFromList(page, files.pdf);
      await pdfDrawn(sharedPdf);
      await sharedPdf.close();
      const sharedDownload = page.waitForEvent('download');
      await page.getByLabel(`下载 ${files.text}`, { exact: true }).click();
      await (await sharedDownload).path();
      page.off('request', onRequest);
      assert.ok(referers.length > 0, 'the share page called the API');
      assert.deepEqual((await Promise.all(referers)).filter((r) => r), [], 'no Referer from the share page');

      // the login page, then the file list
      const loginResponse = await page.goto(`${server.url}/login`);
      assert.equal(loginResponse.headers()['x-frame-options'], 'DENY');
      assert.equal(loginResponse.headers()['referrer-policy'], 'strict-origin-when-cross-origin');
      await signInThroughPage(page, server, user.userName, user.password);
      await waitForPath(page, '/file/personal');
      // the file list's own calls do carry it (the check above is not vacuous)
      const listCall = page.waitForRequest((r) => new URL(r.url()).pathname.startsWith('/api/'));
      await page.goto(`${server.url}/file/personal/${folder.idPath}`);
      assert.match((await (await listCall).headerValue('referer')) ?? '', /\/file\/personal/);
      await listRow(page, files.image).waitFor();

      if (uploadThroughPage) {
        const local = path.join(work, `上传${tag}.bin`);
        fs.writeFileSync(local, Buffer.alloc(6 * 1024 * 1024 + 7, 7));
        await page.locator('input[data-upload-input="files"]').setInputFiles(local);
        await page.getByTestId('upload-panel').getByTestId('upload-panel-status').getByText('全部上传成功').waitFor({ timeout: 120_000 });
        await listRow(page, path.basename(local)).waitFor({ timeout: 20_000 });
      }
      const download = page.waitForEvent('download');
      await page.getByLabel(`下载 ${files.pdf}`, { exact: true }).click();
      await (await download).path();

      // previews in new tabs
      const image = await openFromList(page, files.image);
      await image.waitForFunction((name) => [...document.images].some((i) => i.alt === name && i.complete && i.naturalWidth === 320), files.image);
      await image.close();
      const pdf = await openFromList(page, files.pdf);
      await pdfDrawn(pdf);
      await pdf.close();
      const text = await openFromList(page, files.text);
      await text.getByText(`第一行：安全策略 ${tag}`).waitFor();
      await text.close();
    }
  }

  test('every remote on the server: login, share page, file list with an upload and a download, previews', T, async (t) => {
    const server = await startServer();
    servers.push(server);
    await tour(t, server, { uploadThroughPage: true });
  });

  test('the files and share remotes on another origin: the same pages pass the policy built for them', T, async (t) => {
    const filesRemote = await startStatic(`${ROOT}/remote-files/dist`);
    const shareRemote = await startStatic(`${ROOT}/remote-share/dist`);
    statics.push(filesRemote, shareRemote);
    const server = await startServer({ remotes: { files: `${filesRemote.url}/mf-manifest.json`, share: `${shareRemote.url}/mf-manifest.json` } });
    servers.push(server);
    const policy = directives((await fetch(`${server.url}/file/personal`)).headers.get('content-security-policy'));
    for (const origin of [filesRemote.url, shareRemote.url]) assert.ok(policy['script-src'].includes(origin), `script-src names ${origin}`);
    await tour(t, server, { uploadThroughPage: false });
  });
});
