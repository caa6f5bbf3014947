// 系统管理 for an organisation, in the browser against the real server: 批量导入 of an Excel
// file whose bad rows are listed with their lines and reasons, then fixed and applied, the
// initial passwords shown once and one of them used (the first sign-in asks for a new
// password); a department created under 总部 and an imported person dragged onto it from the
// department's people list; a leaver handed over to a successor, who finds the files in
// 个人文件 and the approval in 待我审批; LDAP 目录同步 against a private OpenLDAP (settings,
// 测试连接, 立即同步, 应用), after which a directory person signs in with the directory's password.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  OK_BUTTON, ROOT, apiOk, createUser, listRow, login, missingBuilds, personalRoot, signInThroughPage, startServer, waitForPath, withBrowser,
} from '../harness.mjs';
import { uploadFile } from '../uploadClient.mjs';

const ExcelJS = createRequire(path.join(ROOT, 'server', 'package.json'))('exceljs');

const T = { timeout: 150_000 };
const notBuilt = missingBuilds();
const SLAPD = '/usr/sbin/slapd';
const noSlapd = fs.existsSync(SLAPD) ? null : `${SLAPD} is missing (apt-get install -y slapd ldap-utils): the LDAP flow is not run`;

/** antd puts a space between the two characters of a two-character button label */
const button = (label) => new RegExp(`^${[...label].join('\\s*')}$`);

const COLUMNS = ['用户名', '昵称', '部门', '工号', '手机', '邮箱', '角色', '个人空间配额(GB)', '状态'];

/** The six people of the file; `bad` puts a mistake in three of them. */
function importRows(bad) {
  return [
    ['imp_zhao', '赵一帆', '总部/测试部', 'T1001', '13800138001', 'zhao@example.com', '', '', '正常'],
    ['imp_qian', '钱二宝', '总部/测试部', 'T1002', bad ? '1380013' : '13800138002', 'qian@example.com', '', '', '正常'],
    ['imp_sun', '孙三木', '总部/市场部', 'T1003', '13800138003', 'sun@example.com', bad ? '超级管理员' : '文档管理员', '', '正常'],
    ['imp_li', '李四海', bad ? '总部//测试' : '总部/测试部/自动化组', 'T1004', '13800138004', 'li@example.com', '', '5', '正常'],
    ['imp_zhou', '周五洲', '总部/测试部', 'T1005', '13800138005', 'zhou@example.com', '', '', '正常'],
    ['imp_wu', '吴六合', '总部/市场部', 'T1006', '13800138006', 'wu@example.com', '', '', '正常'],
  ];
}

/** The rows as an .xlsx file in the template's columns. */
async function xlsxOf(rows) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(COLUMNS);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The number an antd Statistic with this title shows. */
async function statistic(page, scope, title) {
  const box = scope.locator('.ant-statistic').filter({ has: page.getByText(title, { exact: true }) });
  return Number((await box.locator('.ant-statistic-content-value').innerText()).replace(/[^\d]/g, ''));
}

/** Picks `who` in the shared user picker that is open on the page. */
async function pickUser(page, who) {
  const picker = page.getByRole('dialog').filter({ has: page.getByRole('list', { name: '用户列表' }) });
  const search = picker.getByPlaceholder('搜索用户名或姓名');
  await search.fill(who.userName);
  await search.press('Enter');
  await picker.getByRole('checkbox', { name: new RegExp(who.nickName) }).click();
  await picker.getByRole('button', { name: OK_BUTTON }).click();
}

/** Signs in as the administrator and opens a tab of 系统管理. */
async function openAdmin(page, server, tab) {
  await signInThroughPage(page, server, server.adminUser, server.adminPassword);
  await waitForPath(page, '/file/personal');
  await page.goto(`${server.url}/admin?tab=${tab}`);
  await page.getByRole('tab', { name: { users: '用户', departments: '部门', directory: '目录同步' }[tab], selected: true }).waitFor();
}

/** The row of the 用户 list after a search for `keyword`. */
async function searchUser(page, keyword) {
  const search = page.getByLabel('搜索用户（用户名、昵称、工号、手机或邮箱）', { exact: true });
  await search.fill(keyword);
  await search.press('Enter');
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: keyword, exact: true }) });
  await row.waitFor();
  return row;
}

/**
 * Starts the private directory (server/test/support/slapd.ts through tsx); resolves with its
 * description and a stop().
 */
async function startDirectory(people) {
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, 'server', 'test', 'support', 'slapd-launcher.ts'), String(people)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const info = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the directory did not start within 60 s:\n${err}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(JSON.parse(out.slice(0, nl)));
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the directory exited (${code}):\n${err}`));
    });
  });
  return {
    ...info,
    async stop() {
      child.stdin.end();
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

describe('organisation administration', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  let admin;
  let work;
  /** initial passwords of the imported people, as the import showed them */
  const initial = new Map();

  before(async () => {
    if (notBuilt) throw new Error(notBuilt);
    server = await startServer();
    admin = await login(server);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-org-'));
  });
  after(async () => {
    await server?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('批量导入: the bad rows are listed by line with their reasons; the fixed file is checked, applied, and an initial password signs in', T, async (t) => {
    const badFile = { name: '人员-有错.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await xlsxOf(importRows(true)) };
    const goodFile = { name: '人员.xlsx', mimeType: badFile.mimeType, buffer: await xlsxOf(importRows(false)) };

    await withBrowser(t, async ({ page }) => {
      await openAdmin(page, server, 'users');
      await page.getByRole('button', { name: '批量导入' }).click();
      const dialog = page.getByRole('dialog', { name: '批量导入用户' });
      await dialog.locator('input[type="file"]').setInputFiles(badFile);
      await dialog.getByText(badFile.name).waitFor();
      await dialog.getByRole('button', { name: button('检查') }).click();

      // three lines refused, each with its reason; nothing can be applied
      await dialog.getByText('共 3 行有问题，未写入任何数据。请修改文件后重新上传。').waitFor();
      const errorRow = (line) => dialog.getByRole('row').filter({ has: page.getByRole('cell', { name: String(line), exact: true }) });
      for (const [line, userName, column, reason] of [
        [3, 'imp_qian', '手机', '手机号格式不正确，应为 11 位中国大陆手机号'],
        [4, 'imp_sun', '角色', /^未知的角色“超级管理员”（可用：.*文档管理员.*）$/],
        [5, 'imp_li', '部门', '部门路径“总部//测试”中有空的部门名称'],
      ]) {
        const row = errorRow(line);
        await row.getByRole('cell', { name: userName, exact: true }).waitFor();
        await row.getByRole('cell', { name: column, exact: true }).waitFor();
        await row.getByRole('cell', { name: reason, exact: typeof reason === 'string' }).waitFor();
      }
      assert.equal(await dialog.getByRole('row').filter({ has: page.getByRole('cell') }).count(), 3, 'only the three bad rows are listed');
      assert.equal(await dialog.getByRole('button', { name: '应用导入' }).count(), 0, 'a file with bad rows cannot be applied');

      // the fixed file
      await dialog.getByRole('button', { name: '重新选择文件' }).click();
      await dialog.locator('input[type="file"]').setInputFiles(goodFile);
      await dialog.getByText(goodFile.name).waitFor();
      await dialog.getByRole('button', { name: button('检查') }).click();
      await dialog.getByText('检查通过，尚未写入任何数据。确认以下变更后点击“应用导入”。').waitFor();
      assert.equal(await statistic(page, dialog, '新增'), 6);
      assert.equal(await statistic(page, dialog, '更新'), 0);
      assert.equal(await statistic(page, dialog, '无变化'), 0);
      const toCreate = dialog.getByRole('row').filter({ hasText: '将新建的部门' }).getByRole('listitem');
      assert.deepEqual(await toCreate.allInnerTexts(), ['总部/测试部', '总部/市场部', '总部/测试部/自动化组']);
      await dialog.getByRole('row').filter({ hasText: '新增用户' }).getByText('imp_zhao、imp_qian、imp_sun、imp_li、imp_zhou、imp_wu').waitFor();

      await dialog.getByRole('button', { name: '应用导入' }).click();
      await dialog.getByText('导入完成').waitFor();
      await dialog.getByText('新增 6 人，更新 0 人，停用 0 人，新建部门 3 个').waitFor();
      await dialog.getByText('初始密码只显示这一次').waitFor();
      for (const [userName, nickName] of importRows(false)) {
        const row = dialog.getByRole('row').filter({ has: page.getByRole('cell', { name: userName, exact: true }) });
        await row.getByRole('cell', { name: nickName, exact: true }).waitFor();
        const password = (await row.getByRole('cell').nth(2).innerText()).trim();
        assert.ok(password.length >= 12, `an initial password of ${userName} is shown (${password.length} characters)`);
        initial.set(userName, password);
      }
      assert.equal(new Set(initial.values()).size, 6, 'every person has their own initial password');

      // closing before exporting is confirmed: the passwords are not shown again
      await dialog.getByRole('button', { name: button('完成') }).click();
      const warning = page.getByRole('dialog').filter({ hasText: '初始密码尚未导出' });
      await warning.getByText('关闭后将无法再次查看这些初始密码。确定关闭吗？').waitFor();
      await warning.getByRole('button', { name: '仍然关闭' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // the people are in the list, in their departments
      const row = await searchUser(page, 'imp_li');
      await row.getByRole('cell', { name: '李四海', exact: true }).waitFor();
      await row.getByRole('cell', { name: '总部/测试部/自动化组', exact: true }).waitFor();
      await row.getByRole('cell', { name: 'T1004', exact: true }).waitFor();
      await row.getByRole('cell', { name: '13800138004', exact: true }).waitFor();
      const sun = await searchUser(page, 'imp_sun');
      await sun.getByText('文档管理员').waitFor();
    }, { server });

    // an imported person signs in with the initial password and must choose their own
    const mine = `Own-Choice-${Date.now().toString(36)}-7`;
    await withBrowser(t, async ({ page }) => {
      const step = await signInThroughPage(page, server, 'imp_zhao', initial.get('imp_zhao'));
      assert.equal(step?.passwordReset, true, 'the first sign-in asks for a new password');
      await page.getByRole('heading', { name: '设置新密码' }).waitFor();
      await page.getByText('管理员设置的密码需要您修改后才能继续使用').waitFor();
      await page.getByLabel('新密码', { exact: true }).fill(mine);
      await page.getByLabel('确认新密码').fill(mine);
      await page.getByRole('button', { name: '确认并登录' }).click();
      await waitForPath(page, '/file/personal');
      await page.getByRole('button', { name: '用户菜单' }).getByText('赵一帆').waitFor();
    }, { server });
    assert.ok((await login(server, 'imp_zhao', mine)).token, 'the chosen password signs in');
  });

  test('部门: 新建下级部门 under 总部, then an imported person is dragged onto it from the people list', T, async (t) => {
    assert.ok(initial.has('imp_zhou'), 'the people of the import are there (the import flow passed)');
    await withBrowser(t, async ({ page }) => {
      await openAdmin(page, server, 'departments');
      const tree = page.getByRole('tree', { name: '部门树' });
      // a node's title: the name, then the number of people directly in it
      const titled = (name) => new RegExp(`^${name}\\d*$`);
      const titleOf = (name) => tree.getByText(titled(name));
      const node = (name) => tree.getByRole('treeitem').filter({ has: page.getByText(titled(name)) });
      // 总部 is chosen first
      await page.getByRole('heading', { name: '总部', level: 4 }).waitFor();
      await page.getByRole('button', { name: '新建下级部门' }).click();
      const create = page.getByRole('dialog', { name: '在“总部”下新建部门' });
      await create.getByLabel('部门名称').fill('质量部');
      await create.getByRole('button', { name: button('新建') }).click();
      await page.getByText('已新建部门“质量部”').first().waitFor();
      await create.waitFor({ state: 'hidden' });
      await node('质量部').waitFor();

      // 测试部 and its people
      await titleOf('测试部').click();
      await page.getByRole('heading', { name: '测试部', level: 4 }).waitFor();
      const people = page.getByRole('list', { name: '直属人员' });
      const zhou = people.getByRole('listitem').filter({ hasText: 'imp_zhou' });
      await zhou.waitFor();
      assert.equal(await people.getByRole('listitem').count(), 3, '测试部 holds its three imported people');

      // the person dragged onto 质量部 in the tree (HTML5 drag and drop): the drop asks to confirm
      await zhou.getByText('周五洲').dragTo(titleOf('质量部'));
      const confirm = page.getByRole('dialog').filter({ hasText: '将“周五洲”调到“质量部”？' });
      await confirm.getByRole('button', { name: button('调整') }).click();
      await page.getByText('已将“周五洲”调到“质量部”').first().waitFor();
      await zhou.waitFor({ state: 'detached' });
      await node('质量部').getByLabel('1 人').waitFor();

      // 质量部 now lists them; 查看成员 opens 用户 filtered by it
      await titleOf('质量部').click();
      await page.getByRole('heading', { name: '质量部', level: 4 }).waitFor();
      await page.getByRole('list', { name: '直属人员' }).getByRole('listitem').filter({ hasText: 'imp_zhou' }).waitFor();
      await page.getByText('查看成员').click();
      await page.getByRole('tab', { name: '用户', selected: true }).waitFor();
      assert.match(page.url(), /[?&]tab=users&dept=\d+/);
      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'imp_zhou', exact: true }) });
      await row.getByRole('cell', { name: '总部/质量部', exact: true }).waitFor();
      await page.getByText('共 1 个用户').waitFor();
    }, { server });
    const [zhou] = (await apiOk(server, 'GET', '/api/Admin/Users?keyword=imp_zhou', { token: admin.token })).data;
    assert.equal(zhou.deptName, '总部/质量部');
  });

  test('离职交接: the leaver’s files and pending approval go to the successor picked in the dialog', T, async (t) => {
    const tag = Date.now().toString(36);
    const leaver = await createUser(server, admin.token, { nickName: `离职者${tag}` });
    const successor = await createUser(server, admin.token, { nickName: `接任者${tag}` });
    const applicant = await createUser(server, admin.token, { nickName: `申请人${tag}` });

    // the leaver's personal space holds a file
    const leaverSession = await login(server, leaver.userName, leaver.password);
    const local = path.join(work, `交接清单-${tag}.txt`);
    fs.writeFileSync(local, `交接清单 ${tag}\n`);
    await uploadFile(server, leaverSession.token, (await personalRoot(server, leaverSession.token)).id, local, { fileName: '交接清单.txt' });

    // an approval waits for the leaver
    const definition = await apiOk(server, 'POST', '/api/Workflow/Definitions', {
      token: admin.token,
      body: {
        name: `采购审批${tag}`,
        category: '行政',
        description: '',
        enabled: true,
        fields: [],
        allowFiles: false,
        steps: [{ name: '部门审批', mode: 'sequential', approvers: [{ type: 'user', id: leaver.userId }] }],
        cc: [],
        revoke: 'untouched',
      },
    });
    const applicantSession = await login(server, applicant.userName, applicant.password);
    const title = `采购笔记本-${tag}`;
    await apiOk(server, 'POST', '/api/Workflow/Instances', { token: applicantSession.token, body: { definitionId: definition.id, title, form: {}, fileIds: [] } });

    let folderName = '';
    await withBrowser(t, async ({ page }) => {
      await openAdmin(page, server, 'users');
      const row = await searchUser(page, leaver.userName);
      await row.getByRole('button', { name: `更多操作 ${leaver.userName}` }).click();
      await page.getByRole('menuitem', { name: '离职交接' }).click();
      const dialog = page.getByRole('dialog', { name: `离职交接：${leaver.nickName}（${leaver.userName}）` });
      const held = dialog.getByRole('list', { name: '此人持有' });
      await held.getByText(/^个人文件 1 个（/).waitFor();
      await held.getByText('待审批 1 项').waitFor();

      // a successor is required
      await dialog.getByRole('button', { name: '确认交接' }).click();
      await dialog.getByRole('alert').filter({ hasText: '请选择接任者' }).waitFor();
      await dialog.getByRole('button', { name: '选择接任者' }).click();
      await pickUser(page, successor);
      await dialog.getByText(`${successor.nickName}（${successor.userName}）`).waitFor();

      await dialog.getByRole('button', { name: '确认交接' }).click();
      const confirm = page.getByRole('dialog').filter({ hasText: `确认为“${leaver.nickName}”办理离职交接？` });
      await confirm.getByText(`将交给“${successor.nickName}”`).waitFor();
      await confirm.getByRole('button', { name: '确认交接' }).click();
      const done = page.getByText(new RegExp(`^已完成“${leaver.nickName}”的离职交接，文件已移入“${successor.nickName}”的“(离职交接-${leaver.nickName}-\\d{8})”$`)).first();
      await done.waitFor();
      folderName = /“(离职交接-[^”]+)”$/.exec(await done.innerText())[1];
      await dialog.waitFor({ state: 'hidden' });
      // the leaver stays in the list, disabled
      await row.getByText('已停用').waitFor();
    }, { server });

    // the successor finds the files and the approval
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, successor.userName, successor.password);
      await waitForPath(page, '/file/personal');
      await listRow(page, folderName).getByText(folderName, { exact: true }).click();
      await listRow(page, '交接清单.txt').waitFor();

      await page.goto(`${server.url}/workflow/list/todo`);
      const task = listRow(page, title);
      await task.waitFor();
      await task.getByText(definition.name).waitFor();
    }, { server });

    const left = (await apiOk(server, 'GET', `/api/Admin/Users?keyword=${leaver.userName}`, { token: admin.token })).data[0];
    assert.equal(left.disabled, true, 'the leaver’s account is disabled, not deleted');
  });

  test('目录同步: LDAP settings, 测试连接, 立即同步 and 应用; then a directory person signs in', { ...T, skip: noSlapd || false }, async (t) => {
    const directory = await startDirectory(200);
    t.after(() => directory.stop());
    const active = directory.people.filter((p) => !p.disabled);
    const centres = directory.departments.filter((d) => d.length === 2).map((d) => d.join('/'));
    const person = active.find((p) => p.ouPath.length > 1);

    await withBrowser(t, async ({ page }) => {
      await openAdmin(page, server, 'directory');
      await page.getByRole('switch', { name: '启用 LDAP 同步与目录登录' }).click();
      await page.getByLabel('服务器地址').fill(directory.url);
      await page.getByLabel('绑定 DN').fill(directory.bindDn);
      await page.getByLabel('绑定密码').fill(directory.bindPassword);
      await page.getByLabel('基准 DN').fill(`ou=总部,${directory.baseDn}`);
      // no scheduled run while the plan is being looked at
      await page.getByLabel('自动同步间隔').fill('0');
      await page.getByRole('button', { name: button('保存') }).click();
      await page.getByText('LDAP 设置已保存').first().waitFor();
      await page.getByLabel('绑定密码').and(page.getByPlaceholder('已保存，留空则不修改')).waitFor();

      await page.getByRole('button', { name: '测试连接' }).click();
      const tab = page.getByRole('tabpanel', { name: '目录同步' });
      await tab.getByRole('alert').filter({ hasText: `连接成功，找到 ${active.length} 个用户` }).waitFor();

      await page.getByRole('button', { name: '立即同步' }).click();
      await page.getByText('以下为同步计划，尚未修改任何账号；确认无误后点击“应用”。').waitFor();
      assert.equal(await statistic(page, page, '目录中的用户'), active.length);
      assert.equal(await statistic(page, page, '新增'), active.length);
      assert.equal(await statistic(page, page, '停用'), 0);
      await page.getByText(`新建部门（${centres.length}）`).waitFor();
      for (const c of centres) await page.getByRole('listitem').filter({ hasText: new RegExp(`^${c}$`) }).waitFor();

      await page.getByRole('button', { name: button('应用') }).click();
      await tab.getByRole('alert').filter({ hasText: '同步已应用' }).waitFor();
      await page.getByRole('button', { name: button('应用') }).waitFor({ state: 'detached' });
      await page.getByRole('row').filter({ hasText: '已应用' }).filter({ hasText: `新增 ${active.length}，更新 0，调动 0，停用 0` }).waitFor();
    }, { server });

    const synced = (await apiOk(server, 'GET', `/api/Admin/Users?source=ldap&pageSize=200`, { token: admin.token }));
    assert.equal(synced.total, active.length);
    assert.equal(synced.data.find((u) => u.userName === person.uid)?.deptName, ['总部', ...person.ouPath.slice(1)].join('/'));

    // a directory person signs in with the directory's password
    await withBrowser(t, async ({ page }) => {
      const result = await signInThroughPage(page, server, person.uid, `Passw0rd-${person.uid}`);
      assert.ok(result?.token, `${person.uid} signs in through the directory`);
      await waitForPath(page, '/file/personal');
      await page.getByRole('button', { name: '用户菜单' }).getByText(person.cn).waitFor();
    }, { server });
  });
});
