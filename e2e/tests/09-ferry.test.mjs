// The file ferry in the browser, across two deployments started side by side (内网: full mode;
// 外网: simple mode), each with its own data folder and database, sharing only a spool
// directory, their background workers moving packages and receipts. A user of 内网 uploads a
// file in 发起摆渡 and submits; the approver sees the file's SHA-256 and checks on the approval
// and approves; the recipient on 外网 finds it in 收到的文件 on the simple mode's only page and
// downloads it byte-exact; the sender sees 已下载. A disguised program sent back from 外网 is
// blocked with its real type named. The administrator's audit log verifies.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ADMIN_PASSWORD, ADMIN_USER, createUser, listRow, login, missingBuilds, signInThroughPage, startServer, waitFor, withBrowser } from '../harness.mjs';

const T = { timeout: 300_000 };
const notBuilt = missingBuilds();
const button = (label) => new RegExp(`^${[...label].join('\\s*')}$`);
const sha256 = (b) => crypto.createHash('sha256').update(b).digest('hex');

describe('file ferry between two zones', () => {
  let inner;
  let outer;
  let work;

  before(async () => {
    if (notBuilt) throw new Error(notBuilt);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-e2e-ferry-'));
    const spool = path.join(work, 'spool');
    const common = { FERRY_SECRET: 'e2e-ferry-secret-0123456789', FERRY_POLL_MS: '300' };
    inner = await startServer({ env: { ...common, FERRY_ZONE: '内网', FERRY_PEERS: `外网=spool:${spool}/to-outer`, FERRY_SPOOL_IN: `${spool}/to-inner` } });
    outer = await startServer({ mode: 'simple', env: { ...common, FERRY_ZONE: '外网', FERRY_PEERS: `内网=spool:${spool}/to-inner`, FERRY_SPOOL_IN: `${spool}/to-outer` } });
  });
  after(async () => {
    await inner?.stop();
    await outer?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** Fills the send form open on the page: one uploaded file, a recipient, a reason. */
  async function fillSendForm(page, scope, file, recipient, reason) {
    await scope.locator('input[data-ferry-upload]').setInputFiles(file);
    await scope.getByRole('list', { name: '已选文件' }).getByText(path.basename(file)).waitFor({ timeout: 60_000 });
    const recipients = scope.getByLabel('接收人');
    await recipients.fill(recipient);
    await recipients.press('Enter');
    await scope.getByLabel('摆渡原因').fill(reason);
    await scope.getByRole('button', { name: '提交摆渡申请' }).click();
  }

  test('sent from 内网 after approval, received and downloaded byte-exact on 外网, 已下载 seen by the sender; a disguised program is blocked', T, async (t) => {
    const tag = Date.now().toString(36);
    const innerAdmin = await login(inner);
    const outerAdmin = await login(outer);
    const alice = await createUser(inner, innerAdmin.token, { nickName: `爱丽丝${tag}` });
    const bob = await createUser(outer, outerAdmin.token, { nickName: `鲍勃${tag}` });
    const content = Buffer.from(`季度交付清单 ${tag}\n`.repeat(2000));
    const local = path.join(work, `交付清单-${tag}.txt`);
    fs.writeFileSync(local, content);

    // 内网: alice asks to send a new file to bob on 外网
    let number;
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, inner, alice.userName, alice.password);
      await page.goto(`${inner.url}/swapSpace/myFerry/processing`);
      await page.getByRole('button', { name: '发起摆渡' }).click();
      const drawer = page.getByRole('dialog').filter({ hasText: '提交摆渡申请' });
      await fillSendForm(page, drawer, local, bob.userName, `交付给外网合作方 ${tag}`);
      await page.getByText('已提交摆渡申请，等待审批').waitFor();
      const row = page.locator('.ant-table-row').filter({ hasText: `交付给外网合作方 ${tag}` });
      await row.getByText('审批中').waitFor();
      number = (await row.getByText(/^BD\d+$/).first().textContent()).trim();
    }, { server: inner });
    assert.match(number, /^BD\d{14}$/);

    // 内网: the approver sees what would leave and approves
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, inner, ADMIN_USER, ADMIN_PASSWORD);
      await page.goto(`${inner.url}/workflow/list/todo`);
      const row = listRow(page, `文件摆渡 ${number}（内网 → 外网）`);
      await row.waitFor();
      await row.getByRole('link').first().click();
      await page.waitForURL(/\/workflow\/informationDetails\?id=\d+/);
      const panel = page.getByRole('region', { name: '摆渡内容' });
      const file = panel.getByRole('listitem', { name: path.basename(local) });
      await file.getByText(sha256(content)).waitFor();
      await file.getByText('txt', { exact: true }).first().waitFor();
      await page.getByRole('toolbar', { name: '审批操作' }).getByRole('button', { name: button('同意') }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '同意审批' });
      await dialog.getByRole('button', { name: button('同意') }).click();
      await page.getByRole('toolbar', { name: '审批操作' }).getByRole('button', { name: button('同意') }).waitFor({ state: 'detached' });
    }, { server: inner });

    // 外网 (simple mode): bob finds it in 收到的文件 and downloads it
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, outer, bob.userName, bob.password);
      await page.waitForURL(/\/ferry\/file/);
      await page.getByRole('tab', { name: '收到的文件' }).click();
      const row = page.locator('.ant-table-row').filter({ hasText: path.basename(local) });
      // the workers carry the package across within a few polls
      await waitFor(async () => {
        if (await row.count()) return true;
        await page.waitForTimeout(1000);
        await page.getByRole('tab', { name: '发送文件' }).click();
        await page.getByRole('tab', { name: '收到的文件' }).click();
        return false;
      }, 30_000, 'the package on 外网');
      await row.getByText('内网').first().waitFor();
      const link = row.getByRole('link', { name: path.basename(local) });
      const href = await link.getAttribute('href');
      const res = await page.request.get(new URL(href, outer.url).toString());
      assert.equal(res.status(), 200);
      assert.equal(sha256(Buffer.from(await res.body())), sha256(content));
      await row.getByText('已下载').waitFor({ timeout: 20_000 }).catch(async () => {
        await page.reload();
        await page.getByRole('tab', { name: '收到的文件' }).click();
        await page.locator('.ant-table-row').filter({ hasText: path.basename(local) }).getByText('已下载').waitFor();
      });

      // and sends a program disguised as a PDF back: blocked, its real type named
      const fake = path.join(work, `说明-${tag}.pdf`);
      fs.writeFileSync(fake, Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(200)]));
      await page.getByRole('tab', { name: '发送文件' }).click();
      const form = page.getByRole('tabpanel', { name: '发送文件' });
      await fillSendForm(page, form, fake, alice.userName, `回传说明 ${tag}`);
      await page.getByText('摆渡申请已被拦截').waitFor();
      await page.getByRole('list', { name: '被拦截的文件' }).getByText(/实际类型为 exe/).waitFor();
    }, { server: outer });

    // 内网: alice sees it downloaded, under 已完成
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, inner, alice.userName, alice.password);
      await page.goto(`${inner.url}/swapSpace/myFerry/completed`);
      const row = page.locator('.ant-table-row').filter({ hasText: number });
      // the receipt comes back through the spool within a few polls: look again until it has
      await waitFor(async () => {
        await row.waitFor({ timeout: 20_000 });
        if (await row.getByText('已下载').count()) return true;
        await page.waitForTimeout(1000);
        await page.reload();
        return false;
      }, 30_000, 'the download receipt on 内网');
    }, { server: inner });

    // 内网: the administrator's audit log verifies
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, inner, ADMIN_USER, ADMIN_PASSWORD);
      await page.goto(`${inner.url}/swapSpace/audit?tab=log`);
      await page.getByRole('button', { name: '校验完整性' }).click();
      await page.getByText(/审计日志完整，共 \d+ 条记录，哈希链校验通过/).waitFor();
      await page.locator('.ant-table-row').filter({ hasText: '接收人已下载' }).first().waitFor();
    }, { server: inner });
  });
});
