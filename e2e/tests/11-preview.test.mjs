// Preview in the browser against the real server: a picture, a PDF (pdf.js), a video (recorded
// by Chromium itself, so that it really plays), a text file and, through LibreOffice, a .docx
// open in a new tab from the file list; a type without a viewer warns; a phone's screen fits the
// picture; an external link that only allows preview shows the picture without any 下载.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pdfOf, recordWebm, writeDocx } from '../documents.mjs';
import { ROOT, apiOk, createUser, launchBrowser, listRow, login, missingBuilds, pdfDrawn, personalRoot, signInThroughPage, startServer, withBrowser } from '../harness.mjs';
import { uploadFile } from '../uploadClient.mjs';

const T = { timeout: 300_000 };
const notBuilt = missingBuilds();
const sharp = createRequire(path.join(ROOT, 'server', 'package.json'))('sharp');
const hasLibreOffice = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'].some((f) => fs.existsSync(f));
/** antd puts a space between the two characters of a two-character button label */
const button = (label) => new RegExp(`^${[...label].join('\\s*')}$`);

describe('preview', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  let user;
  let session;
  let root;
  let work;
  let picture;
  const tag = Date.now().toString(36);
  const files = { image: '平面图.png', pdf: 'manual.pdf', text: '说明.txt', video: '演示录像.webm', docx: '季度报告.docx', exe: '安装程序.exe' };

  const upload = async (name, bytes) => {
    const local = path.join(work, name);
    fs.writeFileSync(local, bytes);
    return (await uploadFile(server, session.token, root.id, local, { fileName: name })).item;
  };
  /** Clicks the file's name in the list and returns the preview tab it opens. */
  const openFromList = async (page, name) => {
    const [popup] = await Promise.all([page.waitForEvent('popup', { timeout: 15_000 }), listRow(page, name).getByText(name, { exact: true }).click()]);
    await popup.waitForLoadState('domcontentloaded');
    return popup;
  };

  before(async () => {
    if (notBuilt) throw new Error(notBuilt);
    server = await startServer();
    const admin = await login(server);
    user = await createUser(server, admin.token, { nickName: `预览者${tag}` });
    session = await login(server, user.userName, user.password);
    root = await personalRoot(server, session.token);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-preview-'));
    const png = await sharp({ create: { width: 640, height: 400, channels: 3, background: '#36cfc9' } }).png().toBuffer();
    picture = await upload(files.image, png);
    await upload(files.pdf, pdfOf(`Quarterly preview ${tag}`));
    await upload(files.text, `第一行：预览文本 ${tag}\n第二行\n第三行`);
    await upload(files.exe, Buffer.from('MZ not really a program'));
    await writeDocx(path.join(work, files.docx), `第三季度经营分析 ${tag}\n\f\n第二页：结论`);
    await uploadFile(server, session.token, root.id, path.join(work, files.docx), { fileName: files.docx });
  });
  after(async () => {
    await server?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('a picture, a PDF, a video and a text file preview in a new tab; a type without a viewer warns', T, async (t) => {
    await withBrowser(t, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await upload(files.video, await recordWebm(page));
      await signInThroughPage(page, server, user.userName, user.password);
      await page.goto(`${server.url}/file/personal`);
      await listRow(page, files.image).waitFor();

      const image = await openFromList(page, files.image);
      const img = image.getByRole('img', { name: files.image });
      await img.waitFor();
      await image.waitForFunction((name) => [...document.images].some((i) => i.alt === name && i.complete && i.naturalWidth === 640), files.image);
      // the owner may download: the bar offers it
      await image.getByRole('button', { name: '下载' }).waitFor();
      await image.close();

      const pdf = await openFromList(page, files.pdf);
      // pdf.js drew something on the page's canvas (not a blank one)
      await pdfDrawn(pdf);
      await pdf.close();

      const video = await openFromList(page, files.video);
      await video.locator('video').waitFor();
      // its first frame is there (HAVE_CURRENT_DATA), fetched through Range from the server
      await video.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2, undefined, { timeout: 20_000 });
      await video.close();

      const text = await openFromList(page, files.text);
      await text.getByText(`第一行：预览文本 ${tag}`).waitFor();
      await text.getByText('第三行').waitFor();
      await text.close();

      // no viewer: a warning, and no tab
      let opened = false;
      page.once('popup', () => (opened = true));
      await listRow(page, files.exe).getByText(files.exe, { exact: true }).click();
      await page.getByText('该文件暂不支持预览').first().waitFor();
      await page.waitForTimeout(500);
      assert.equal(opened, false);
    }, { server });
  });

  test('a .docx previews as the PDF LibreOffice makes of it', { ...T, skip: hasLibreOffice ? false : 'LibreOffice is not installed' }, async (t) => {
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, user.userName, user.password);
      await page.goto(`${server.url}/file/personal`);
      const doc = await openFromList(page, files.docx);
      // converted on the server (the first view of this content), then drawn by pdf.js: two pages
      await doc.getByLabel('第 2 页').waitFor({ timeout: 90_000 });
      await doc.waitForFunction(() => {
        const c = document.querySelector('[data-page="1"] canvas');
        if (!c || !c.width) return false;
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 4) if (d[i] < 128) return true;
        return false;
      }, undefined, { timeout: 30_000 });
      await doc.close();
    }, { server });
  });

  test('on a phone, /mobilityPreview fits the picture to the screen', T, async () => {
    const b = await launchBrowser({ viewport: { width: 375, height: 740 } });
    try {
      await signInThroughPage(b.page, server, user.userName, user.password);
      const data = Buffer.from(JSON.stringify({ fileId: picture.id, name: files.image })).toString('base64url');
      await b.page.goto(`${server.url}/mobilityPreview?previewData=${data}`);
      // loaded at its own 640 px, then drawn fitted to the 375 px screen
      await b.page.waitForFunction(
        (name) => {
          const img = [...document.images].find((i) => i.alt === name && i.complete && i.naturalWidth === 640);
          return !!img && img.getBoundingClientRect().width > 0 && img.getBoundingClientRect().width <= window.innerWidth;
        },
        files.image,
        { timeout: 10_000 },
      );
      assert.ok((await b.page.evaluate(() => document.documentElement.scrollWidth)) <= 375, 'the page scrolls sideways');
    } finally {
      await b.close();
    }
  });

  test('an external link that only allows preview shows the picture without any download', T, async (t) => {
    const shared = await apiOk(server, 'POST', '/api/User/Files/CreateFile', { token: session.token, body: { parentId: root.id, name: `外链${tag}`, type: 'folder' } });
    const local = path.join(work, 'shared.png');
    fs.writeFileSync(local, await sharp({ create: { width: 640, height: 400, channels: 3, background: '#ff7a45' } }).png().toBuffer());
    await uploadFile(server, session.token, shared.id, local, { fileName: files.image });
    const link = await apiOk(server, 'POST', '/api/User/Shares', {
      token: session.token,
      body: { fileIds: [shared.id], shareType: 2, level: 1, expireAt: null, accessKey: '', downloadLimit: null },
    });
    await withBrowser(t, async ({ page }) => {
      // an outside visitor: no session in this browser
      await page.goto(`${server.url}/s/${link.shareId}?key=${link.accessKey}`);
      // one shared folder opens straight into its content
      await listRow(page, files.image).waitFor();
      assert.equal(await page.getByRole('button', { name: button('下载') }).count(), 0);
      const image = await openFromList(page, files.image);
      await image.waitForFunction((name) => [...document.images].some((i) => i.alt === name && i.complete && i.naturalWidth === 640), files.image);
      assert.equal(await image.getByRole('button', { name: '下载' }).count(), 0);
      await image.close();
    }, { server });
  });
});
