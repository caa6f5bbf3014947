// Finding files in the browser against the real server: favourite and unfavourite from the file
// list, make a favourites category and move a favourite into it; tag a file from the list and
// find it on /file/tag; search a Chinese word inside a document from the advanced search page
// (the server extracts the text in the background), preview a result and open it in its folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  OK_BUTTON, apiOk, createUser, listRow, login, missingBuilds, personalRoot, signInThroughPage, startServer, waitFor, withBrowser,
} from '../harness.mjs';
import { uploadFile } from '../uploadClient.mjs';

const T = { timeout: 300_000 };
const notBuilt = missingBuilds();
/** antd puts a space between the two characters of a two-character button label */
const button = (label) => new RegExp(`^${[...label].join('\\s*')}$`);
/** …and a button with an icon is named after the icon too ("search 搜 索") */
const iconButton = (label) => new RegExp(`${[...label].join('\\s*')}$`);

describe('favourites, tags and search', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  let user;
  let session;
  let root;
  let work;
  const tag = Date.now().toString(36);
  const report = '季度经营报告.txt';
  const plan = '项目计划.txt';

  before(async () => {
    if (notBuilt) throw new Error(notBuilt);
    server = await startServer();
    const admin = await login(server);
    user = await createUser(server, admin.token, { nickName: `查找者${tag}` });
    session = await login(server, user.userName, user.password);
    root = await personalRoot(server, session.token);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-find-'));
    for (const [name, text] of [[report, `本季度鲲鹏项目的营业收入增长明显 ${tag}`], [plan, '下一阶段的里程碑与分工']]) {
      const local = path.join(work, name);
      fs.writeFileSync(local, text);
      await uploadFile(server, session.token, root.id, local, { fileName: name });
    }
  });
  after(async () => {
    await server?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('favourite from the list, a new category, move the favourite into it, then unfavourite', T, async (t) => {
    const category = `重要资料${tag}`;
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, user.userName, user.password);
      await page.goto(`${server.url}/file/personal`);
      await listRow(page, report).waitFor();
      // the toolbar acts on the selected rows
      await listRow(page, report).getByRole('checkbox').check();
      await page.getByRole('button', { name: iconButton('收藏') }).click();
      await page.getByText('收藏成功').first().waitFor();
      await listRow(page, report).getByLabel('已收藏').waitFor();
      assert.equal(await listRow(page, plan).getByLabel('已收藏').count(), 0);

      await page.goto(`${server.url}/file/favorite`);
      await listRow(page, report).waitFor();
      const side = page.getByRole('navigation', { name: '收藏分类' });
      await page.getByRole('button', { name: '新建分类' }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '新建分类' });
      await dialog.getByLabel('分类名称').fill(category);
      await dialog.getByRole('button', { name: OK_BUTTON }).click();
      // the new category is shown, empty; the favourite is under 全部收藏
      await side.getByRole('button', { name: new RegExp(`^${category}`) }).waitFor();
      await page.getByText('该分类下还没有收藏').first().waitFor();
      await side.getByRole('button', { name: /^全部收藏/ }).click();
      await listRow(page, report).getByLabel(`移动到 ${report}`).click();
      const move = page.getByRole('dialog').filter({ hasText: '移动到' });
      await move.getByRole('radio', { name: category }).check();
      await move.getByRole('button', { name: OK_BUTTON }).click();
      await side.getByRole('button', { name: new RegExp(`^${category}`) }).click();
      await listRow(page, report).waitFor();
      await side.getByRole('button', { name: /默认收藏夹/ }).click();
      await page.getByText('该分类下还没有收藏').first().waitFor();

      await side.getByRole('button', { name: new RegExp(`^${category}`) }).click();
      await listRow(page, report).getByLabel(`取消收藏 ${report}`).click();
      const confirm = page.getByRole('dialog').filter({ hasText: '确定取消收藏该文件（夹）吗？' });
      await confirm.getByRole('button', { name: OK_BUTTON }).click();
      await page.getByText('已取消收藏').first().waitFor();
      await waitFor(async () => (await listRow(page, report).count()) === 0, 15_000, 'the favourite leaves the list');
    }, { server });
    const favorites = await apiOk(server, 'GET', '/api/User/Favorites/-1', { token: session.token });
    assert.equal(favorites.total, 0);
  });

  test('tag a file from the list and find it on /file/tag', T, async (t) => {
    const label = `待归档${tag}`;
    await apiOk(server, 'POST', '/api/User/Tags', { token: session.token, body: { name: label, color: '#722ed1' } });
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, user.userName, user.password);
      await page.goto(`${server.url}/file/personal`);
      await listRow(page, plan).waitFor();
      await listRow(page, plan).getByRole('checkbox').check();
      await page.getByRole('button', { name: iconButton('标签') }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: `为“${plan}”选择标签` });
      await dialog.getByText(label, { exact: true }).click();
      await dialog.getByRole('button', { name: OK_BUTTON }).click();
      await listRow(page, plan).getByRole('list', { name: '标签' }).getByText(label).waitFor();

      await page.goto(`${server.url}/file/tag`);
      await page.getByRole('navigation').getByRole('button', { name: new RegExp(`^${label}`) }).click();
      await listRow(page, plan).waitFor();
      assert.equal(await listRow(page, report).count(), 0);
    }, { server });
  });

  test('search a Chinese word inside a document from the advanced search page and open the result', T, async (t) => {
    // the text is read in the background: wait until the server can find it
    await waitFor(
      async () => (await apiOk(server, 'GET', `/api/User/Search/Content?keyword=${encodeURIComponent('鲲鹏')}`, { token: session.token })).total === 1,
      30_000,
      'the document text to be indexed',
    );
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, user.userName, user.password);
      await page.goto(`${server.url}/file/advancedSearch`);
      const form = page.getByRole('form', { name: '搜索条件' }).or(page.getByLabel('搜索条件')).first();
      await form.getByLabel('关键字').fill('鲲鹏');
      await form.getByText('全文', { exact: true }).click();
      await form.getByRole('button', { name: iconButton('搜索') }).click();
      const row = listRow(page, report);
      await row.waitFor();
      await row.getByText(/鲲鹏项目的营业收入/).waitFor();
      assert.equal(await row.locator('mark').first().textContent(), '鲲鹏');
      assert.equal(await listRow(page, plan).count(), 0);

      // a name search of one Chinese character finds the plan by its name
      await form.getByLabel('关键字').fill('计');
      await form.getByText('文件名', { exact: true }).click();
      await form.getByRole('button', { name: iconButton('搜索') }).click();
      await listRow(page, plan).waitFor();

      // its name opens its preview in a new tab; 打开所在位置 shows it in its folder
      const [preview] = await Promise.all([page.waitForEvent('popup'), listRow(page, plan).getByText(plan, { exact: true }).click()]);
      await preview.getByText('下一阶段的里程碑与分工').waitFor();
      await preview.close();
      await listRow(page, plan).getByLabel(`打开所在位置 ${plan}`).click();
      await page.waitForURL((url) => url.pathname.startsWith('/file/personal') && url.search.includes('focus='));
      await listRow(page, plan).waitFor();
    }, { server });
  });
});
