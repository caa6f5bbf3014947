// Upload and download in the browser against the real server: a folder with nested files
// picked through 上传文件夹 reaches 全部上传成功 and comes back byte-exact, one file directly
// and the folder as a zip; files dropped on the page go through the drag mask; a conflict
// answered with 重命名; an instant upload of content already held; pause and continue.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  OK_BUTTON, createFolder, createUser, itemsOf, listRow, login, missingBuilds, personalRoot, signInThroughPage, startServer, waitForPath, withBrowser,
} from '../harness.mjs';
import { watchUploadCalls } from '../uploadClient.mjs';
import { readZip } from '../support/zip.mjs';

const T = { timeout: 300_000 };
const notBuilt = missingBuilds();

const md5 = (buf) => crypto.createHash('md5').update(buf).digest('hex');

const panel = (page) => page.getByTestId('upload-panel');

async function waitAllUploaded(page) {
  await panel(page).getByTestId('upload-panel-status').getByText('全部上传成功').waitFor({ timeout: 120_000 });
}

describe('upload and download', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  let admin;
  let work;

  before(async () => {
    if (notBuilt) throw new Error(notBuilt);
    server = await startServer();
    admin = await login(server);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-upload-'));
  });
  after(async () => {
    await server?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('a picked folder with nested files uploads, then downloads byte-exact as a file and as a zip; dropped files go through the mask', T, async (t) => {
    const alice = await createUser(server, admin.token);
    const session = await login(server, alice.userName, alice.password);
    const root = await personalRoot(server, session.token);
    const target = await createFolder(server, session.token, root.id, '收件箱');

    // 项目资料/说明.txt, 项目资料/图纸/总图.bin (6 MB: more than one chunk), 项目资料/图纸/细部/节点.txt
    const local = path.join(work, '项目资料');
    const files = {
      '说明.txt': Buffer.from('项目说明：第一期。\n'.repeat(100)),
      '图纸/总图.bin': crypto.randomBytes(6 * 1024 * 1024 + 123),
      '图纸/细部/节点.txt': Buffer.from('节点详图\n'),
    };
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(local, rel)), { recursive: true });
      fs.writeFileSync(path.join(local, rel), content);
    }

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, alice.userName, alice.password);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/file/personal/${target.idPath}`);
      await page.getByRole('button', { name: /上传/ }).first().waitFor();

      await page.locator('input[data-upload-input="folder"]').setInputFiles(local);
      await waitAllUploaded(page);
      // the list refreshes by itself
      await listRow(page, '项目资料').waitFor();

      const [folder] = (await itemsOf(server, session.token, target.id)).filter((i) => i.name === '项目资料');
      assert.ok(folder, 'the picked folder was made on the server');
      const top = await itemsOf(server, session.token, folder.id);
      assert.deepEqual(top.map((i) => i.name).sort(), ['图纸', '说明.txt']);
      const drawings = await itemsOf(server, session.token, top.find((i) => i.name === '图纸').id);
      assert.deepEqual(drawings.map((i) => i.name).sort(), ['总图.bin', '细部']);

      // one file, straight from its row: the browser's own download, byte-exact
      await page.goto(`${server.url}/file/personal/${drawings.find((i) => i.name === '总图.bin').idPath.split('/').slice(0, -1).join('/')}`);
      await listRow(page, '总图.bin').waitFor();
      const single = page.waitForEvent('download');
      await page.getByLabel('下载 总图.bin', { exact: true }).click();
      const singleFile = path.join(work, 'single.bin');
      await (await single).saveAs(singleFile);
      assert.equal(md5(fs.readFileSync(singleFile)), md5(files['图纸/总图.bin']), 'the single download is byte-exact');

      // the whole folder: a zip built on the server, with a progress notification
      await page.goto(`${server.url}/file/personal/${target.idPath}`);
      await listRow(page, '项目资料').waitFor();
      const zipped = page.waitForEvent('download', { timeout: 60_000 });
      await page.getByLabel('下载 项目资料', { exact: true }).click();
      await page.getByText(/正在压缩文件|压缩完成，开始下载/).first().waitFor();
      const zipFile = path.join(work, 'folder.zip');
      await (await zipped).saveAs(zipFile);
      const entries = await readZip(zipFile);
      for (const [rel, content] of Object.entries(files)) {
        const entry = entries.get(`项目资料/${rel}`);
        assert.ok(entry, `the zip holds 项目资料/${rel}: ${[...entries.keys()]}`);
        assert.equal(md5(entry), md5(content), `项目资料/${rel} is byte-exact`);
      }

      // files dropped on the page: the mask shows, and the files land in the shown folder
      const dataTransfer = await page.evaluateHandle(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['拖进来的内容'], '拖放文件.txt', { type: 'text/plain' }));
        return dt;
      });
      await page.dispatchEvent('body', 'dragenter', { dataTransfer });
      await page.getByTestId('upload-drag-mask').waitFor();
      await page.getByTestId('upload-drag-mask').getByText('松开鼠标，将文件或文件夹上传到当前文件夹').waitFor();
      await page.dispatchEvent('[data-testid=upload-drag-mask]', 'drop', { dataTransfer });
      await listRow(page, '拖放文件.txt').waitFor({ timeout: 30_000 });
      assert.ok((await itemsOf(server, session.token, target.id)).some((i) => i.name === '拖放文件.txt' && i.size === Buffer.byteLength('拖进来的内容')));
    }, { server });
  });

  test('a same-named upload answered with 重命名; content already held finishes at once; pause and continue', T, async (t) => {
    const bob = await createUser(server, admin.token);
    const session = await login(server, bob.userName, bob.password);
    const root = await personalRoot(server, session.token);
    const inbox = await createFolder(server, session.token, root.id, '周报');
    const other = await createFolder(server, session.token, root.id, '备份');

    const report = path.join(work, '周报.txt');
    fs.writeFileSync(report, '第一版周报\n');
    const big = path.join(work, '大文件.bin');
    const bigContent = crypto.randomBytes(200 * 1024 * 1024);
    fs.writeFileSync(big, bigContent);

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, bob.userName, bob.password);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/file/personal/${inbox.idPath}`);
      const files = page.locator('input[data-upload-input="files"]');
      await page.getByRole('button', { name: /上传/ }).first().waitFor();

      await files.setInputFiles(report);
      await waitAllUploaded(page);
      await listRow(page, '周报.txt').waitFor();

      // the same name again: the conflict dialog, answered with 重命名
      fs.writeFileSync(report, '第二版周报\n');
      await files.setInputFiles(report);
      const dialog = page.getByRole('dialog').filter({ hasText: '文件名重复' });
      await dialog.waitFor();
      await dialog.getByText('重命名', { exact: true }).click();
      await dialog.getByRole('button', { name: OK_BUTTON }).click();
      await waitAllUploaded(page);
      await listRow(page, '周报（1）.txt').waitFor();
      const names = (await itemsOf(server, session.token, inbox.id)).map((i) => i.name).sort();
      assert.deepEqual(names, ['周报.txt', '周报（1）.txt']);

      // pause while the large file is being sent, then continue
      await files.setInputFiles(big);
      await panel(page).locator('[data-testid=upload-row][data-status=uploading]').first().waitFor({ timeout: 60_000 });
      await page.getByTestId('upload-pause-all').click();
      await panel(page).getByTestId('upload-panel-status').getByText('全部暂停').waitFor();
      const pausedItems = (await itemsOf(server, session.token, inbox.id)).map((i) => i.name);
      assert.ok(!pausedItems.includes('大文件.bin'), 'nothing visible before the merge');
      await page.getByTestId('upload-continue-all').click();
      await waitAllUploaded(page);
      const stored = (await itemsOf(server, session.token, inbox.id)).find((i) => i.name === '大文件.bin');
      assert.equal(stored?.size, bigContent.length);

      // the same content into another folder: no chunk is sent
      await page.goto(`${server.url}/file/personal/${other.idPath}`);
      await page.getByRole('button', { name: /上传/ }).first().waitFor();
      const calls = watchUploadCalls(page);
      await page.locator('input[data-upload-input="files"]').setInputFiles(big);
      await waitAllUploaded(page);
      calls.stop();
      const made = calls.calls.map((c) => c.name);
      assert.ok(made.includes('UploadRapid2'), `calls: ${made}`);
      assert.ok(!made.includes('UploadChunk2'), `an instant upload sends no chunk: ${made}`);
      await panel(page).getByText('秒传成功').first().waitFor();
      const copy = (await itemsOf(server, session.token, other.id)).find((i) => i.name === '大文件.bin');
      assert.equal(copy?.size, bigContent.length);
      const res = await fetch(`${server.url}/api/User/FileTransfer/Download/${copy.id}`, { headers: { Authorization: `Bearer ${session.token}` } });
      assert.equal(md5(Buffer.from(await res.arrayBuffer())), md5(bigContent), 'the instant copy is byte-exact');
    }, { server });
  });

  test('the page hashes with WebAssembly; where a Content-Security-Policy forbids it, spark-md5 takes over, the error log says so, and the file lands byte-exact', T, async (t) => {
    const carol = await createUser(server, admin.token);
    const session = await login(server, carol.userName, carol.password);
    const root = await personalRoot(server, session.token);
    const folder = await createFolder(server, session.token, root.id, '校验');
    const fallback = /已改用较慢的 JavaScript MD5（spark-md5）/;

    /**
     * Uploads `content` as a file into `name` (a new folder) through the page; returns the stored
     * file's MD5. No file of its size is there: no instant upload can come of it.
     */
    const uploadInto = async (page, name, content) => {
      const file = path.join(work, '合同扫描件.pdf');
      fs.writeFileSync(file, content);
      const target = await createFolder(server, session.token, folder.id, name);
      await page.goto(`${server.url}/file/personal/${target.idPath}`);
      await page.getByRole('button', { name: /上传/ }).first().waitFor();
      const calls = watchUploadCalls(page);
      await page.locator('input[data-upload-input="files"]').setInputFiles(file);
      await waitAllUploaded(page);
      calls.stop();
      // the chunks went while the file was hashed
      const order = calls.calls.map((c) => c.name);
      assert.equal(order.filter((c) => c === 'UploadChunk2').length, 3, `three chunks: ${order}`);
      assert.ok(order.indexOf('UploadChunk2') < order.indexOf('UploadRapid2'), `chunks are sent before the hash is done: ${order}`);
      assert.ok(calls.calls.filter((c) => c.name === 'UploadChunk2').every((c) => !new URL(c.request.url()).searchParams.has('ChunkHash')), 'no ChunkHash while chunk checks are off');
      const stored = (await itemsOf(server, session.token, target.id)).find((i) => i.name === '合同扫描件.pdf');
      const res = await fetch(`${server.url}/api/User/FileTransfer/Download/${stored.id}`, { headers: { Authorization: `Bearer ${session.token}` } });
      return md5(Buffer.from(await res.arrayBuffer()));
    };
    /** The messages of the error log, read through the user menu (the log lives in the page). */
    const errorLog = async (page) => {
      await page.getByRole('button', { name: '用户菜单' }).click();
      await page.getByText('错误日志', { exact: true }).click();
      await page.getByRole('heading', { name: '错误日志' }).waitFor();
      return page.locator('.ant-table-tbody').innerText();
    };

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, carol.userName, carol.password);
      await waitForPath(page, '/file/personal');
      const content = crypto.randomBytes(12 * 1024 * 1024 + 5); // 3 chunks
      assert.equal(await uploadInto(page, '默认', content), md5(content));
      assert.doesNotMatch(await errorLog(page), fallback);
    }, { server });

    // the same page under a policy that allows scripts from the site but not WebAssembly
    await withBrowser(t, async ({ context, page }) => {
      await context.route('**/*', async (route) => {
        const request = route.request();
        if (!['document', 'script'].includes(request.resourceType()) && !/\.js(\?|$)/.test(request.url())) return route.continue();
        const response = await route.fetch();
        await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': "script-src 'self'" } });
      });
      await signInThroughPage(page, server, carol.userName, carol.password);
      await waitForPath(page, '/file/personal');
      const content = crypto.randomBytes(12 * 1024 * 1024 + 77);
      assert.equal(await uploadInto(page, '无 WebAssembly', content), md5(content));
      assert.match(await errorLog(page), fallback);
    }, { server });
  });
});
