// The file manager in the browser against the real server: create, rename, move, delete and
// restore through the page; another user cannot see someone's personal files.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  OK_BUTTON, api, apiOk, createFolder, createUser, itemsOf, login, missingBuilds, personalRoot, signInThroughPage, startServer, waitForPath, withBrowser,
} from '../harness.mjs';

const T = { timeout: 240_000 };
const notBuilt = missingBuilds();

/** The live names in a folder, through the API. */
async function namesIn(server, token, folderId) {
  return (await itemsOf(server, token, folderId)).map((i) => i.name);
}

describe('files', () => {
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

  test('create, rename, move, delete and restore a folder through the page', T, async (t) => {
    const alice = await createUser(server, admin.token);
    const session = await login(server, alice.userName, alice.password);
    const root = await personalRoot(server, session.token);

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, alice.userName, alice.password);
      await waitForPath(page, '/file/personal');

      // 新建文件夹, twice
      for (const name of ['季度资料', '归档']) {
        await page.getByRole('button', { name: /新建文件夹/ }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('文件夹名称').fill(`  ${name} `);
        await dialog.getByRole('button', { name: OK_BUTTON }).click();
        await page.getByRole('link', { name }).or(page.getByText(name, { exact: true })).first().waitFor();
      }
      assert.deepEqual((await namesIn(server, session.token, root.id)).sort(), ['归档', '季度资料'].sort());

      // 重命名
      await page.getByLabel('重命名 季度资料', { exact: true }).click();
      const renameDialog = page.getByRole('dialog');
      const nameInput = renameDialog.getByRole('textbox');
      assert.equal(await nameInput.inputValue(), '季度资料', 'the rename field is pre-filled');
      await nameInput.fill('季度资料2026');
      await renameDialog.getByRole('button', { name: OK_BUTTON }).click();
      await page.getByText('季度资料2026', { exact: true }).first().waitFor();
      assert.deepEqual((await namesIn(server, session.token, root.id)).sort(), ['归档', '季度资料2026'].sort());

      // 移动到 归档
      await page.getByLabel('移动到 季度资料2026', { exact: true }).click();
      const picker = page.getByRole('dialog');
      await picker.locator('.ant-tree').getByText('归档', { exact: true }).click();
      await picker.getByRole('button', { name: OK_BUTTON }).click();
      await page.getByText('移动成功').first().waitFor();
      const archive = (await apiOk(server, 'GET', `/api/User/Folders/${root.id}/Items`, { token: session.token })).items.data.find((i) => i.name === '归档');
      assert.deepEqual(await namesIn(server, session.token, root.id), ['归档']);
      const moved = (await apiOk(server, 'GET', `/api/User/Folders/${archive.id}/Items`, { token: session.token })).items.data[0];
      assert.equal(moved.name, '季度资料2026');
      assert.equal(moved.namePath, '个人文件/归档/季度资料2026');
      assert.equal(moved.idPath, `${archive.idPath}/${moved.id}`);

      // open 归档 and delete the moved folder
      await page.getByText('归档', { exact: true }).first().click();
      await page.getByText('季度资料2026', { exact: true }).first().waitFor();
      await page.getByLabel('删除 季度资料2026', { exact: true }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: '确定删除该文件（夹）吗？' });
      await confirm.getByRole('button', { name: /^删\s*除$/ }).click();
      await page.getByText('删除成功').first().waitFor();
      assert.deepEqual(await namesIn(server, session.token, archive.id), []);

      // 回收站 → 还原
      await page.getByRole('menuitem', { name: /回收站/ }).click();
      await waitForPath(page, '/file/recycle');
      const row = page.getByRole('row').filter({ hasText: '季度资料2026' });
      await row.waitFor();
      await row.locator('.ant-checkbox-input').check();
      await page.getByRole('button', { name: /还\s*原/ }).click();
      await page.getByText('还原成功').first().waitFor();
      assert.deepEqual(await namesIn(server, session.token, archive.id), ['季度资料2026']);
    }, { server });
  });

  test("another user cannot see someone's personal files, through the API or the page", T, async (t) => {
    const alice = await createUser(server, admin.token);
    const bob = await createUser(server, admin.token);
    const aliceSession = await login(server, alice.userName, alice.password);
    const bobSession = await login(server, bob.userName, bob.password);
    const root = await personalRoot(server, aliceSession.token);
    const secret = await createFolder(server, aliceSession.token, root.id, '爱丽丝的机密');
    await createFolder(server, aliceSession.token, secret.id, '工资单');

    for (const path of [`/api/User/Folders/${secret.id}/Items`, `/api/User/Files/${secret.id}`, `/api/User/Folders/${root.id}/Items`]) {
      const res = await api(server, 'GET', path, { token: bobSession.token });
      assert.equal(res.status, 404, `${path} for another user: HTTP ${res.status}`);
      assert.equal(res.body?.code, 404);
      assert.doesNotMatch(JSON.stringify(res.body), /爱丽丝|工资单/);
    }
    const moveAway = await api(server, 'POST', '/api/User/Files/Move', {
      token: bobSession.token,
      body: { ids: [secret.id], targetId: (await personalRoot(server, bobSession.token)).id },
    });
    assert.equal(moveAway.status, 404);
    assert.deepEqual(await namesIn(server, aliceSession.token, root.id), ['爱丽丝的机密']);

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, bob.userName, bob.password);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/file/personal/${secret.idPath}`);
      await page.getByText('文件夹不存在或已被删除').first().waitFor();
      assert.equal(await page.getByText('工资单').count(), 0, "alice's files are not shown to bob");
      assert.equal(await page.getByText('爱丽丝的机密').count(), 0);
    }, { server });
  });
});
