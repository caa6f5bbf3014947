// Approvals in the browser against the real server: a flow admin defines a two-step flow in
// 流程管理; a user starts it with a file from their space, seeing the route before submitting;
// the first approver finds it in 待我审批, views the attached file and approves; the second
// rejects with a reason; the initiator sees the 已驳回 stamp with the instance number. A second
// instance revoked by its initiator shows 已撤销.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  ADMIN_PASSWORD, ADMIN_USER, OK_BUTTON, apiOk, createUser, listRow, login, missingBuilds, personalRoot, signInThroughPage, startServer, withBrowser,
} from '../harness.mjs';
import { uploadFile } from '../uploadClient.mjs';

const T = { timeout: 300_000 };
const notBuilt = missingBuilds();
/** antd puts a space between the two characters of a two-character button label */
const button = (label) => new RegExp(`^${[...label].join('\\s*')}$`);

describe('approvals', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  let admin;
  let work;

  before(async () => {
    if (notBuilt) throw new Error(notBuilt);
    server = await startServer();
    admin = await login(server);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-flow-'));
  });
  after(async () => {
    await server?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** Picks `who` in the shared user picker that is open on the page. */
  async function pickUser(page, who) {
    const picker = page.getByRole('dialog').filter({ has: page.getByRole('list', { name: '用户列表' }) });
    const search = picker.getByPlaceholder('搜索用户名或姓名');
    await search.fill(who.userName);
    await search.press('Enter');
    await picker.getByRole('checkbox', { name: new RegExp(who.nickName) }).click();
    await picker.getByRole('button', { name: OK_BUTTON }).click();
  }

  async function openDetails(page, id) {
    await page.goto(`${server.url}/workflow/informationDetails?id=${id}`);
    await page.getByText('审批记录').first().waitFor();
  }

  test('a two-step flow defined in the page, started with a file, approved then rejected: the initiator sees 已驳回; a revoked one shows 已撤销', T, async (t) => {
    const tag = Date.now().toString(36);
    const first = await createUser(server, admin.token, { nickName: `一审${tag}` });
    const second = await createUser(server, admin.token, { nickName: `二审${tag}` });
    const initiator = await createUser(server, admin.token, { nickName: `发起人${tag}` });
    const session = await login(server, initiator.userName, initiator.password);
    const root = await personalRoot(server, session.token);
    const content = Buffer.from(`%PDF-1.4\n用章申请附件 ${tag}\n`);
    const local = path.join(work, `方案-${tag}.pdf`);
    fs.writeFileSync(local, content);
    await uploadFile(server, session.token, root.id, local, { fileName: '方案.pdf' });
    const flowName = `用章申请${tag}`;
    const title = `合同用章-${tag}`;

    // the flow admin defines the flow
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, ADMIN_USER, ADMIN_PASSWORD);
      await page.goto(`${server.url}/workflow/list/definitions`);
      await page.getByRole('button', { name: '新建流程' }).click();
      const drawer = page.getByRole('dialog').filter({ hasText: '新建流程' });
      await drawer.getByLabel('流程名称').fill(flowName);
      await drawer.getByLabel('允许附加文件').click();
      // the switch shows it on before anything else is filled (the start form offers 选择文件 only then)
      await drawer.getByRole('switch', { name: '允许附加文件', checked: true }).waitFor();
      await drawer.getByRole('button', { name: '添加字段' }).click();
      await drawer.getByLabel('字段 1 名称').fill('用途');
      for (const [n, who, stepName] of [[1, first, '部门审批'], [2, second, '法务审批']]) {
        const step = drawer.getByRole('group', { name: `第 ${n} 步`, exact: true });
        if (!(await step.count())) await drawer.getByRole('button', { name: '添加审批步骤' }).click();
        await step.getByLabel(`第 ${n} 步名称`).fill(stepName);
        await step.getByRole('button', { name: '添加审批人' }).click();
        await page.getByRole('menuitem', { name: '指定成员' }).click();
        await pickUser(page, who);
        await step.getByText(`指定成员：${who.nickName}`).waitFor();
      }
      await drawer.getByRole('button', { name: button('保存') }).click();
      await page.getByText('流程已创建').waitFor();
      await listRow(page, flowName).waitFor();
    }, { server });

    // the initiator starts it with the file, seeing who will approve
    let instanceId;
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, initiator.userName, initiator.password);
      await page.goto(`${server.url}/workflow/list`);
      await page.waitForURL(/\/workflow\/list\/todo/);
      await page.getByRole('button', { name: '发起审批' }).click();
      await page.getByRole('dialog').filter({ hasText: '选择要发起的流程' }).getByRole('button', { name: new RegExp(flowName) }).click();
      const drawer = page.getByRole('dialog').filter({ hasText: `发起审批：${flowName}` });
      await drawer.getByLabel('标题').fill(title);
      await drawer.getByLabel('用途').fill('对外合同用章');
      await drawer.getByRole('button', { name: '选择文件' }).click();
      const picker = page.getByRole('dialog').filter({ hasText: '选择附件' });
      await picker.getByRole('tree', { name: '文件夹' }).locator('.ant-tree-node-content-wrapper').first().click();
      await picker.getByRole('checkbox', { name: /方案\.pdf/ }).check();
      await picker.getByRole('button', { name: OK_BUTTON }).click();
      await drawer.getByRole('list', { name: '已选附件' }).getByText('方案.pdf').waitFor();
      const route = drawer.getByRole('region', { name: '审批流程' });
      await route.getByText(first.nickName).waitFor();
      await route.getByText(second.nickName).waitFor();
      await drawer.getByRole('button', { name: button('提交') }).click();
      await page.getByText('已提交审批').waitFor();
      await page.waitForURL(/\/workflow\/informationDetails\?id=\d+/);
      instanceId = new URL(page.url()).searchParams.get('id');
      await page.getByText(title).first().waitFor();
      await page.getByText('审批中').first().waitFor();
    }, { server });
    assert.ok(instanceId);

    // the first approver: 待我审批, the file as attached, 同意
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, first.userName, first.password);
      // the main menu's 流程 carries the number waiting
      await page.getByRole('menu', { name: '主菜单' }).locator('[title="待我审批 1 条"]').waitFor();
      await page.goto(`${server.url}/workflow/list/todo`);
      const row = listRow(page, title);
      await row.waitFor();
      await row.getByText(flowName).waitFor();
      await row.getByRole('link', { name: title }).click();
      await page.waitForURL(/\/workflow\/informationDetails\?id=\d+/);
      const view = page.getByRole('link', { name: '查看 方案.pdf' });
      const href = await view.getAttribute('href');
      const res = await page.request.get(new URL(href, server.url).toString());
      assert.equal(res.status(), 200);
      assert.deepEqual(Buffer.from(await res.body()), content);
      await page.getByRole('toolbar', { name: '审批操作' }).getByRole('button', { name: button('同意') }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '同意审批' });
      await dialog.getByLabel('审批意见（选填）').fill('同意用章');
      await dialog.getByRole('button', { name: button('同意') }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('同意用章').first().waitFor();
      // nothing left to decide for this approver, and nothing waiting on the menu
      await page.getByRole('toolbar', { name: '审批操作' }).getByRole('button', { name: button('同意') }).waitFor({ state: 'detached' });
      await page.getByRole('menu', { name: '主菜单' }).locator('[title^="待我审批"]').waitFor({ state: 'detached' });
    }, { server });

    // the second approver rejects with a reason (a reason is required)
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, second.userName, second.password);
      await openDetails(page, instanceId);
      await page.getByRole('toolbar', { name: '审批操作' }).getByRole('button', { name: button('驳回') }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '驳回审批' });
      await dialog.getByRole('button', { name: button('驳回') }).click();
      await dialog.getByText('请填写驳回理由').waitFor();
      await dialog.getByLabel('驳回理由').fill('合同金额需重新核对');
      await dialog.getByRole('button', { name: button('驳回') }).click();
      // the reason typed in the dialog is text too, so the dialog must be gone before the timeline counts
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('合同金额需重新核对').first().waitFor();
    }, { server });

    const detail = await apiOk(server, 'GET', `/api/Workflow/Instances/${instanceId}`, { token: session.token });
    assert.equal(detail.status, 3);
    assert.deepEqual(detail.timeline.map((e) => e.kind), ['start', 'approve', 'reject', 'finish']);

    // the initiator sees the stamp; then revokes a second request and sees 已撤销
    const revocable = await apiOk(server, 'POST', '/api/Workflow/Instances', {
      token: session.token,
      body: { definitionId: detail.definitionId, title: `${title}-2`, form: {}, fileIds: [] },
    });
    const revocableNumber = (await apiOk(server, 'GET', `/api/Workflow/Instances/${revocable.instanceId}`, { token: session.token })).number;
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, initiator.userName, initiator.password);
      await openDetails(page, instanceId);
      await page.getByRole('img', { name: new RegExp(`已驳回.*${detail.number}`) }).waitFor();
      await page.getByText('合同金额需重新核对').first().waitFor();

      await page.goto(`${server.url}/workflow/list/mine`);
      await listRow(page, `${title}-2`).getByRole('link', { name: `${title}-2` }).click();
      await page.waitForURL(new RegExp(`informationDetails\\?id=${revocable.instanceId}$`));
      await page.getByRole('toolbar', { name: '审批操作' }).getByRole('button', { name: button('撤销') }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '撤销审批' });
      await dialog.getByRole('button', { name: button('撤销') }).click();
      await page.getByRole('img', { name: new RegExp(`已撤销.*${revocableNumber}`) }).waitFor();
    }, { server });
    const revoked = await apiOk(server, 'GET', `/api/Workflow/Instances/${revocable.instanceId}`, { token: session.token });
    assert.equal(revoked.status, 4);
  });
});
