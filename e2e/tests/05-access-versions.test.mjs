// Access policies, versions and shortcuts in the browser against the real server: a folder
// of the enterprise space shown read-only to a previewer and hidden from an outsider; a copy
// saved as a new version, then rolled back in the versions drawer; a shortcut that opens its
// target.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ADMIN_PASSWORD, ADMIN_USER, OK_BUTTON, api, apiOk, chooseFromContextMenu, contextMenu, createFolder, createUser, itemsOf, listRow, login, missingBuilds, personalRoot, signInThroughPage, startServer, waitForPath, withBrowser,
} from '../harness.mjs';

const T = { timeout: 240_000 };
const notBuilt = missingBuilds();

async function publicRoot(server, token) {
  const [root] = await apiOk(server, 'GET', '/api/User/Folders/Public/RootFolders', { token });
  return root;
}

async function createFile(server, token, parentId, name) {
  return apiOk(server, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type: 'file' } });
}


describe('access policies, versions and shortcuts', () => {
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

  test('a previewer sees an enterprise folder read-only, an outsider not at all; the manager edits the policy in the page', T, async (t) => {
    const bob = await createUser(server, admin.token, { nickName: '预览者鲍勃' });
    const carol = await createUser(server, admin.token, { nickName: '局外人卡罗' });
    const bobSession = await login(server, bob.userName, bob.password);
    const carolSession = await login(server, carol.userName, carol.password);
    const root = await publicRoot(server, admin.token);
    const finance = await createFolder(server, admin.token, root.id, '财务部资料');
    await createFolder(server, admin.token, finance.id, '月度报表');
    await apiOk(server, 'POST', '/api/User/FileAccessPolicies/Policies', {
      token: admin.token,
      body: { fileId: finance.id, policies: [{ subjectType: 1, subjectId: bob.userId, level: 1 }] },
    });

    // through the API: bob may look but not change; carol does not learn it exists
    assert.deepEqual((await itemsOf(server, bobSession.token, finance.id)).map((i) => i.name), ['月度报表']);
    const refused = await api(server, 'POST', '/api/User/Files/CreateFile', {
      token: bobSession.token,
      body: { parentId: finance.id, name: '鲍勃的文件夹', type: 'folder' },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 40301);
    assert.deepEqual((await itemsOf(server, admin.token, finance.id)).map((i) => i.name), ['月度报表'], 'nothing was created');
    const hidden = await api(server, 'GET', `/api/User/Folders/${finance.id}/Items`, { token: carolSession.token });
    assert.equal(hidden.status, 404);
    assert.doesNotMatch(JSON.stringify(hidden.body), /财务部资料|月度报表/);
    assert.ok(!(await itemsOf(server, carolSession.token, root.id)).some((i) => i.name === '财务部资料'), 'carol does not see it listed');

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, bob.userName, bob.password);
      await page.goto(`${server.url}/file/public`);
      await listRow(page, '财务部资料').waitFor();
      assert.equal(await page.getByLabel('重命名 财务部资料', { exact: true }).count(), 0, 'no rename for a previewer');
      assert.equal(await page.getByLabel('删除 财务部资料', { exact: true }).count(), 0, 'no delete for a previewer');
      const menu = await contextMenu(page, '财务部资料');
      const entries = (await menu.getByRole('menuitem').allInnerTexts()).map((s) => s.trim());
      assert.ok(entries.includes('打开'), `menu: ${entries}`);
      for (const refusedEntry of ['重命名', '移动到', '删除', '权限设置']) assert.ok(!entries.includes(refusedEntry), `menu: ${entries}`);
    }, { server });

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, carol.userName, carol.password);
      await page.goto(`${server.url}/file/public/${finance.idPath}`);
      await page.getByText('文件夹不存在或已被删除').first().waitFor();
      assert.equal(await page.getByText('月度报表').count(), 0);
    }, { server });

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, ADMIN_USER, ADMIN_PASSWORD);
      await page.goto(`${server.url}/file/public`);
      await chooseFromContextMenu(page, '财务部资料', '权限设置');
      const dialog = page.getByRole('dialog').filter({ hasText: '权限设置' });
      await dialog.getByText('预览者鲍勃').first().waitFor();
      await dialog.getByRole('button', { name: /恢复继承/ }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: '恢复继承后，此处单独设置的权限将被清除。' });
      await confirm.getByRole('button', { name: OK_BUTTON }).click();
      await dialog.waitFor({ state: 'hidden' });
    }, { server });

    const own = await apiOk(server, 'GET', `/api/User/FileAccessPolicies/${finance.id}/Policies?validOnly=false`, { token: admin.token });
    assert.deepEqual(own.policies, [], 'the folder inherits again');
    // back to the default of the enterprise space: carol may now read it
    assert.deepEqual((await itemsOf(server, carolSession.token, finance.id)).map((i) => i.name), ['月度报表']);
  });

  test('a copy saved as a new version, rolled back in the versions drawer; a shortcut opens its target', T, async (t) => {
    const alice = await createUser(server, admin.token);
    const session = await login(server, alice.userName, alice.password);
    const root = await personalRoot(server, session.token);
    const drafts = await createFolder(server, session.token, root.id, '草稿');
    const finals = await createFolder(server, session.token, root.id, '定稿');
    await createFile(server, session.token, drafts.id, '年度报告.docx');
    const target = await createFile(server, session.token, finals.id, '年度报告.docx');

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, alice.userName, alice.password);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/file/personal/${drafts.idPath}`);
      await page.getByText('年度报告.docx', { exact: true }).first().waitFor();

      // 复制到 定稿 → conflict → 新版本
      await page.getByLabel('复制到 年度报告.docx', { exact: true }).click();
      const picker = page.getByRole('dialog');
      await picker.locator('.ant-tree').getByText('定稿', { exact: true }).click();
      await picker.getByRole('button', { name: OK_BUTTON }).click();
      const conflict = page.getByRole('dialog').filter({ has: page.getByRole('radiogroup', { name: '处理方式' }) });
      await conflict.getByText('新版本', { exact: true }).click();
      await conflict.getByRole('button', { name: OK_BUTTON }).click();
      await page.getByText('复制成功').first().waitFor();
      const versions = await apiOk(server, 'GET', `/api/User/Files/${target.id}/Versions`, { token: session.token });
      assert.deepEqual(versions.map((v) => [v.version, v.isMaster]), [[2, true], [1, false]]);
      assert.deepEqual((await itemsOf(server, session.token, finals.id)).map((i) => i.name), ['年度报告.docx'], 'no second file');

      // 历史版本 → 回滚到 V1
      await page.goto(`${server.url}/file/personal/${finals.idPath}`);
      await chooseFromContextMenu(page, '年度报告.docx', '历史版本');
      const drawer = page.locator('.ant-drawer-open');
      await drawer.getByText('历史版本 - 年度报告.docx').waitFor();
      await drawer.getByText('主版本').first().waitFor();
      const v1 = drawer.locator('.ant-list-item, tr').filter({ hasText: 'V1' }).first();
      await v1.getByText('回滚到此版本').click();
      const confirm = page.getByRole('dialog').filter({ hasText: '确定将文件回滚到版本 V1 吗？' });
      await confirm.getByRole('button', { name: OK_BUTTON }).click();
      await drawer.getByText('V3').first().waitFor();
      const after = await apiOk(server, 'GET', `/api/User/Files/${target.id}/Versions`, { token: session.token });
      assert.deepEqual(after.map((v) => [v.version, v.isMaster]), [[3, true], [2, false], [1, false]]);
      await drawer.locator('.ant-drawer-close').click();
      await drawer.waitFor({ state: 'hidden' });

      // 创建快捷方式 of 定稿 in 草稿, then open it
      await page.goto(`${server.url}/file/personal`);
      await chooseFromContextMenu(page, '定稿', '创建快捷方式');
      const destination = page.getByRole('dialog');
      await destination.locator('.ant-tree').getByText('草稿', { exact: true }).click();
      await destination.getByRole('button', { name: OK_BUTTON }).click();
      await page.getByText('快捷方式已创建').first().waitFor();
      const shortcut = (await itemsOf(server, session.token, drafts.id)).find((i) => i.type === 'shortcut');
      assert.ok(shortcut, 'the shortcut is in 草稿');
      assert.equal(shortcut.targetId, finals.id);
      await page.goto(`${server.url}/file/personal/${drafts.idPath}`);
      await listRow(page, '定稿').getByText('定稿', { exact: true }).click();
      await waitForPath(page, `/file/personal/${finals.idPath}`);
      await page.getByText('年度报告.docx', { exact: true }).first().waitFor();
    }, { server });
  });
});
