// Sharing in the browser against the real server: a folder shared internally through the share
// dialog, opened by the recipient in 与我共享 and downloaded byte-exact; an external link made in
// the dialog, opened in a fresh browser with no session, its key entered, a file downloaded
// byte-exact and one uploaded at level 3; a wrong key; an expired link.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  OK_BUTTON, apiOk, createFolder, createUser, dialogsSettled, itemsOf, listRow, login, missingBuilds, personalRoot, signInThroughPage, startServer, waitFor, waitForPath, withBrowser,
} from '../harness.mjs';
import { uploadFile } from '../uploadClient.mjs';

const T = { timeout: 300_000 };
const notBuilt = missingBuilds();
const md5 = (buf) => crypto.createHash('md5').update(buf).digest('hex');

describe('sharing', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  let admin;
  let work;

  before(async () => {
    if (notBuilt) throw new Error(notBuilt);
    server = await startServer();
    admin = await login(server);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-share-'));
  });
  after(async () => {
    await server?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** A user with a folder 合同资料 holding 合同.bin (random bytes); returns the pieces. */
  async function sharerWithFolder() {
    const owner = await createUser(server, admin.token, { nickName: `分享人${Date.now().toString(36)}` });
    const session = await login(server, owner.userName, owner.password);
    const root = await personalRoot(server, session.token);
    const folder = await createFolder(server, session.token, root.id, '合同资料');
    const content = crypto.randomBytes(300 * 1024 + 17);
    const local = path.join(work, `合同-${owner.userName}.bin`);
    fs.writeFileSync(local, content);
    await uploadFile(server, session.token, folder.id, local, { fileName: '合同.bin' });
    return { owner, session, root, folder, content };
  }

  test('a folder shared internally in the dialog; the recipient opens it in 与我共享 and downloads byte-exact', T, async (t) => {
    const { owner, root, content } = await sharerWithFolder();
    const recipient = await createUser(server, admin.token, { nickName: `接收人${Date.now().toString(36)}` });

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, owner.userName, owner.password);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/file/personal/${root.idPath}`);
      await listRow(page, '合同资料').waitFor();
      await page.getByLabel('分享 合同资料', { exact: true }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '分享“合同资料”' });
      await dialog.getByRole('tab', { name: '内部分享' }).waitFor();
      await dialogsSettled(page);
      await dialog.getByRole('button', { name: '选择用户、部门或用户组' }).click();
      const picker = page.getByRole('dialog').filter({ has: page.getByRole('list', { name: '用户列表' }) });
      const search = picker.getByPlaceholder('搜索用户名或姓名');
      await search.fill(recipient.userName);
      await search.press('Enter');
      await picker.getByRole('checkbox', { name: new RegExp(recipient.nickName) }).click();
      await picker.getByRole('button', { name: OK_BUTTON }).click();
      await dialog.getByText(recipient.nickName).waitFor();
      await dialog.getByRole('button', { name: /创建分享/ }).click();
      await page.getByText('分享成功，对方可在“与我共享”中查看').waitFor();

      // 分享记录 lists it
      await page.goto(`${server.url}/file/sharelist`);
      const record = listRow(page, '合同资料');
      await record.waitFor();
      await record.getByText(recipient.nickName).waitFor();
      await record.getByText('有效').waitFor();
    }, { server });

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, recipient.userName, recipient.password);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/file/shareme`);
      await listRow(page, '合同资料').getByText(owner.nickName).waitFor();
      await listRow(page, '合同资料').getByText('合同资料').click();
      await listRow(page, '合同.bin').waitFor();
      await page.getByRole('navigation', { name: '分享路径' }).getByText('与我共享').waitFor();
      // a refresh stays in the shared folder
      await page.reload();
      await listRow(page, '合同.bin').waitFor();
      const download = page.waitForEvent('download');
      await page.getByLabel('下载 合同.bin', { exact: true }).click();
      const file = path.join(work, 'internal.bin');
      await (await download).saveAs(file);
      assert.equal(md5(fs.readFileSync(file)), md5(content), 'the download through 与我共享 is byte-exact');
    }, { server });
  });

  test('an external link with a key: a fresh browser enters it, downloads byte-exact and uploads at level 3; a wrong key; an expired link', T, async (t) => {
    const { owner, session, root, folder, content } = await sharerWithFolder();
    let link = '';
    let key = '';

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, owner.userName, owner.password);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/file/personal/${root.idPath}`);
      await listRow(page, '合同资料').waitFor();
      await page.getByLabel('分享 合同资料', { exact: true }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '分享“合同资料”' });
      await dialog.getByRole('tab', { name: '外链分享' }).click();
      await dialog.getByText('上传和编辑').click();
      await dialog.getByText('自定义', { exact: true }).click();
      await dialog.getByRole('textbox', { name: '提取码' }).fill('Hetong2026');
      await dialog.getByRole('button', { name: /创建分享/ }).click();
      const result = page.getByTestId('share-result');
      await result.waitFor();
      link = await result.getByRole('textbox', { name: '分享链接' }).inputValue();
      key = await result.getByRole('textbox', { name: '提取码' }).inputValue();
    }, { server });
    assert.match(link, /\/s\/[A-Za-z0-9_-]{22}$/);
    assert.equal(key, 'Hetong2026');
    const shareId = link.split('/s/')[1];

    // a fresh browser with no session
    const upload = path.join(work, '回执.txt');
    fs.writeFileSync(upload, '已收到合同，谢谢。\n');
    await withBrowser(t, async ({ page }) => {
      await page.goto(link);
      await page.getByText(`${owner.nickName} 给你分享了文件，请输入提取码查看。`).waitFor();
      assert.equal(await page.getByText('合同.bin').count(), 0, 'nothing of the content shows before the key');
      await page.getByRole('textbox', { name: '提取码' }).fill('wrong1');
      await page.getByRole('button', { name: '提取文件' }).click();
      await page.getByRole('alert').getByText('提取码错误').waitFor();

      await page.getByRole('textbox', { name: '提取码' }).fill(key);
      await page.getByRole('button', { name: '提取文件' }).click();
      await listRow(page, '合同.bin').waitFor();
      const download = page.waitForEvent('download');
      await page.getByLabel('下载 合同.bin', { exact: true }).click();
      const file = path.join(work, 'external.bin');
      await (await download).saveAs(file);
      assert.equal(md5(fs.readFileSync(file)), md5(content), 'the external download is byte-exact');

      // level 3: upload through the shell's upload panel
      await page.getByRole('button', { name: /上传/ }).first().waitFor();
      await page.locator('input[data-upload-input="files"]').setInputFiles(upload);
      await page.getByTestId('upload-panel').getByTestId('upload-panel-status').getByText('全部上传成功').waitFor({ timeout: 60_000 });
      await listRow(page, '回执.txt').waitFor({ timeout: 20_000 });
    }, { server });
    const names = (await itemsOf(server, session.token, folder.id)).map((i) => i.name).sort();
    assert.deepEqual(names, ['合同.bin', '回执.txt']);

    // the owner sees the visit, the download and the upload
    const events = (await apiOk(server, 'GET', `/api/User/Shares/${shareId}/Events`, { token: session.token })).data;
    assert.deepEqual([...new Set(events.map((e) => e.kind))].sort(), ['download', 'upload', 'visit']);

    // expired (a link made to expire in 3 s) and cancelled: the page shows the message and nothing else
    const shanghai = (ms) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
    const expired = await apiOk(server, 'POST', '/api/User/Shares', {
      token: session.token,
      body: { fileIds: [folder.id], shareType: 2, level: 2, expireAt: shanghai(Date.now() + 3000), accessKey: 'Abcd1234' },
    });
    const cancelled = await apiOk(server, 'POST', '/api/User/Shares', {
      token: session.token,
      body: { fileIds: [folder.id], shareType: 2, level: 2, expireAt: null, accessKey: 'Abcd1234' },
    });
    await apiOk(server, 'DELETE', '/api/User/Shares', { token: session.token, body: [cancelled.shareId] });
    await new Promise((r) => setTimeout(r, 4000));
    await withBrowser(t, async ({ page }) => {
      await page.goto(`${server.url}/s/${expired.shareId}?key=Abcd1234`);
      await page.getByText('指定的分享不存在或已过期。').waitFor();
      assert.equal(await page.getByRole('textbox').count(), 0);
      await page.goto(`${server.url}/s/${cancelled.shareId}`);
      await page.getByText('指定的分享不存在或已过期。').waitFor();
      await page.goto(`${server.url}/s/${'x'.repeat(22)}`);
      await page.getByText('指定的分享不存在或已过期。').waitFor();
      await waitFor(async () => (await page.getByText(owner.nickName).count()) === 0, 5_000, 'no owner name on a gone share');
    }, { server });
  });
});
