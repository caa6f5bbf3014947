// 操作日志 in the browser against the real server: a person's sign-in, a failed sign-in and a
// rename are recorded; the administrator filters the log by that person, opens a record, exports
// the filtered log as CSV (the file holds exactly those records) and checks the chain.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiOk, createUser, login, missingBuilds, OK_BUTTON, signInThroughPage, startServer, waitForPath, withBrowser } from '../harness.mjs';

const T = { timeout: 180_000 };
const notBuilt = missingBuilds();

describe('operation log', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  let admin;

  before(async () => {
    if (notBuilt) throw new Error(notBuilt);
    server = await startServer();
    admin = await login(server);
  });
  after(async () => {
    await server?.stop();
  });

  test('the administrator filters the log by a person, reads a record and exports what the filter shows', T, async (t) => {
    const tag = Date.now().toString(36);
    const person = await createUser(server, admin.token, { nickName: `日志人${tag}` });
    // a failed sign-in, a sign-in, a folder made and renamed
    const refused = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: person.userName, password: 'wrong-password-1', mode: 'password' }),
    });
    assert.equal(refused.status, 400);
    const session = await login(server, person.userName, person.password);
    const [root] = await apiOk(server, 'GET', '/api/User/Folders/Personal/RootFolders', { token: session.token });
    const folder = await apiOk(server, 'POST', '/api/User/Files/CreateFile', { token: session.token, body: { parentId: root.id, name: `预算-${tag}`, type: 'folder' } });
    await apiOk(server, 'PUT', `/api/User/Files/Rename/${folder.id}?fileName=${encodeURIComponent(`预算定稿-${tag}`)}`, { token: session.token });

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, server.adminUser, server.adminPassword);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/admin?tab=oplog`);
      await page.getByRole('tab', { name: '操作日志', selected: true }).waitFor();

      // filter by the person through the user picker
      await page.getByRole('button', { name: '选择人员' }).click();
      const picker = page.getByRole('dialog').filter({ has: page.getByRole('list', { name: '用户列表' }) });
      const search = picker.getByPlaceholder('搜索用户名或姓名');
      await search.fill(person.userName);
      await search.press('Enter');
      await picker.getByRole('checkbox', { name: new RegExp(person.nickName) }).click();
      await picker.getByRole('button', { name: OK_BUTTON }).click();
      await page.getByRole('button', { name: new RegExp(`人员：${person.nickName}`) }).waitFor();

      const table = page.locator('.ant-table').first();
      await table.getByText('登录失败').waitFor();
      await table.getByText('重命名').waitFor();
      const rows = table.locator('tbody tr.ant-table-row');
      const names = await rows.locator('td:nth-child(2)').allTextContents();
      assert.ok(names.length >= 4, `records of the person: ${names.join(', ')}`);
      assert.ok(names.every((n) => n === person.userName), `only the person's records: ${names.join(', ')}`);

      // a record's details
      await rows.filter({ hasText: '重命名' }).first().click();
      const drawer = page.locator('.ant-drawer-open');
      await drawer.getByText(`预算-${tag}`, { exact: true }).waitFor();
      await drawer.getByText(`"newName": "预算定稿-${tag}"`).waitFor();
      await drawer.locator('.ant-drawer-close').click();
      await drawer.waitFor({ state: 'hidden' });

      // export what the filter shows
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: '导出 CSV' }).click();
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'oplog-')), 'log.csv');
      const got = await download;
      assert.match(got.suggestedFilename(), /^操作日志-\d{8}\.csv$/);
      await got.saveAs(file);
      const lines = fs.readFileSync(file, 'utf8').replace(/^\ufeff/, '').trim().split('\r\n');
      assert.match(lines[0], /^序号,时间,操作人/);
      assert.equal(lines.length - 1, names.length, 'the export holds the filtered records');
      assert.ok(lines.slice(1).every((l) => l.split(',')[2] === person.userName));
      assert.ok(lines.some((l) => l.includes('登录失败') && l.includes('用户名或密码错误')));

      // the chain
      await page.getByRole('button', { name: '校验完整性' }).click();
      await page.getByText(/操作日志完整：\d+ 条记录的哈希链校验通过/).waitFor();
    });
  });
});
