// The 消息中心 in the browser against the real server: an approver with the product open sees
// the bell's count rise within 5 s of a request someone else started, opens the notice from the
// drawer, lands on the request and approves it; the notice then reads 已处理 and the count is 0.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiOk, createUser, login, missingBuilds, signInThroughPage, startServer, withBrowser } from '../harness.mjs';

const T = { timeout: 180_000 };
const notBuilt = missingBuilds();
/** antd puts a space between the two characters of a two-character button label */
const button = (label) => new RegExp(`^${[...label].join('\\s*')}$`);

describe('notices', () => {
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

  test('the bell counts a request started elsewhere within 5 s; the notice opens it; approved, it reads 已处理', T, async (t) => {
    const tag = Date.now().toString(36);
    const approver = await createUser(server, admin.token, { nickName: `审批人${tag}` });
    const initiator = await createUser(server, admin.token, { nickName: `申请人${tag}` });
    const definition = await apiOk(server, 'POST', '/api/Workflow/Definitions', {
      token: admin.token,
      body: {
        name: `请假${tag}`,
        category: '人事',
        description: '',
        enabled: true,
        fields: [{ key: 'reason', label: '事由', type: 'textarea', required: true }],
        allowFiles: false,
        steps: [{ name: '主管审批', mode: 'sequential', approvers: [{ type: 'user', id: approver.userId }] }],
        cc: [],
        revoke: 'processing',
      },
    });
    const title = `年假三天-${tag}`;

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, approver.userName, approver.password);
      const bell = page.getByTestId('notice-bell');
      await bell.waitFor();
      assert.equal(await bell.getAttribute('aria-label'), '消息中心');

      // the initiator starts the request (another person, another session)
      const session = await login(server, initiator.userName, initiator.password);
      const startedAt = Date.now();
      const { instanceId } = await apiOk(server, 'POST', '/api/Workflow/Instances', {
        token: session.token,
        body: { definitionId: definition.id, title, form: { reason: '回家' }, fileIds: [] },
      });
      await page.getByRole('button', { name: '消息中心（1 条未读）' }).waitFor({ timeout: 5_000 });
      const seenMs = Date.now() - startedAt;
      console.log(`[17-notices] the bell showed the new notice ${seenMs} ms after the request was started`);
      assert.ok(seenMs <= 5_000);

      await bell.click();
      const drawer = page.getByRole('dialog').filter({ hasText: '消息中心' });
      const item = drawer.getByText(`待审批：${title}`);
      await item.waitFor();
      await drawer.getByText(`${initiator.nickName} 的申请等待你审批`).waitFor();
      await item.click();
      await page.waitForURL(new RegExp(`/workflow/informationDetails\\?id=${instanceId}$`));
      await page.getByRole('button', { name: '消息中心' }).waitFor();

      await page.getByRole('toolbar', { name: '审批操作' }).getByRole('button', { name: button('同意') }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '同意审批' });
      await dialog.getByRole('button', { name: button('同意') }).click();
      await dialog.waitFor({ state: 'hidden' });

      await bell.click();
      const again = page.getByRole('dialog').filter({ hasText: '消息中心' });
      await again.locator('.ant-list-item').filter({ hasText: `待审批：${title}` }).getByText('已处理').waitFor({ timeout: 10_000 });
      assert.equal(await bell.getAttribute('aria-label'), '消息中心');
    }, { server });

    // the initiator is told the request was approved
    const mine = await login(server, initiator.userName, initiator.password);
    let page = { data: [] };
    for (let i = 0; i < 50 && !page.data.length; i++) {
      page = await apiOk(server, 'GET', '/api/Notices?page=1&pageSize=10', { token: mine.token });
      if (!page.data.length) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(page.data.map((n) => [n.kind, n.title]), [['approval.approved', `审批通过：${title}`]]);
  });
});
