// Sign-in beyond the password, in the browser against the real server: a user whom the
// administrator requires to use TOTP binds it (QR code and key on the page, the code computed
// from that key) and signs in again with a fresh code; an account the administrator made
// must choose its own password first, against the policy's checklist; 个人设置 changes the
// avatar and signs another browser out; 申请注册 with an SMS code (read by the administrator
// from the log sender), approved by an administrator in 系统管理 (where the text message is
// listed too), then the new user signs in; a desktop client is authorized through
// /#/login?authorize=, exchanges its code with PKCE, and is revoked in 个人设置.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { ROOT, api, apiOk, createUser, login, missingBuilds, signInThroughPage, startServer, waitForPath, withBrowser } from '../harness.mjs';

const sharp = createRequire(path.join(ROOT, 'server', 'package.json'))('sharp');

const T = { timeout: 180_000 };
const notBuilt = missingBuilds();

/** The code of a base32 key for a moment (the authenticator app's part). */
const codeAt = (secret, timestamp) =>
  new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp });

describe('sign-in steps', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  let admin;

  before(async () => {
    if (notBuilt) return;
    server = await startServer();
    admin = await login(server);
  });
  after(async () => {
    await server?.stop();
  });

  test('a user required to use TOTP binds it from the QR code page, then signs in again with a code', { ...T, skip: notBuilt || false }, async (t) => {
    const user = await createUser(server, admin.token);
    await apiOk(server, 'PUT', `/api/Admin/Users/${user.userId}/Totp`, { token: admin.token, body: { required: true } });

    let secret = '';
    await withBrowser(t, async ({ page }) => {
      const step = await signInThroughPage(page, server, user.userName, user.password);
      assert.equal(step?.totpBind, true);
      assert.equal(step.token, undefined);
      await page.getByRole('heading', { name: '绑定动态口令' }).waitFor();
      await page.getByLabel('绑定动态口令的二维码').waitFor();
      // the key as the page shows it, typed into the "authenticator" by hand
      secret = (await page.getByLabel('密钥').innerText()).replace(/\s+/g, '');
      assert.match(secret, /^[A-Z2-7]{32}$/);
      await page.getByLabel('动态口令', { exact: true }).fill('000000');
      await page.getByRole('button', { name: '绑定并登录' }).click();
      await page.getByRole('alert').filter({ hasText: '动态口令错误' }).waitFor();
      await page.getByLabel('动态口令', { exact: true }).fill(codeAt(secret, Date.now()));
      await page.getByRole('button', { name: '绑定并登录' }).click();
      await waitForPath(page, '/file/personal');
    }, { server });

    // next time: the code step, and a code of the next 30-second step signs in; used once, it is spent
    let fresh = '';
    await withBrowser(t, async ({ page }) => {
      const step = await signInThroughPage(page, server, user.userName, user.password);
      assert.equal(step?.totpCode, true);
      await page.getByRole('heading', { name: '两步验证' }).waitFor();
      const bound = Math.floor(Date.now() / 30_000);
      fresh = codeAt(secret, (bound + 1) * 30_000);
      await page.getByLabel('动态口令', { exact: true }).fill(fresh);
      await page.getByRole('button', { name: '验证并登录' }).click();
      await waitForPath(page, '/file/personal');
      const cookies = await page.context().cookies();
      assert.ok(cookies.some((c) => c.name === 'token'), 'the token cookie is set after the second step');
    }, { server });
    const replay = await api(server, 'POST', '/api/login', { body: { userName: user.userName, password: user.password, mode: 'password' } });
    const again = await api(server, 'POST', '/api/login/TotpCode', { body: { actionToken: replay.body.result.actionToken, code: fresh } });
    assert.equal(again.status, 400, 'a code already used does not sign in again');
  });

  test('an account the administrator made chooses its own password first, guided by the policy checklist', { ...T, skip: notBuilt || false }, async (t) => {
    const user = await createUser(server, admin.token, { mustChangePassword: true });
    const mine = `Own-Choice-${Date.now().toString(36)}-9`;
    await withBrowser(t, async ({ page }) => {
      const step = await signInThroughPage(page, server, user.userName, user.password);
      assert.equal(step?.passwordReset, true);
      await page.getByRole('heading', { name: '设置新密码' }).waitFor();
      await page.getByText('管理员设置的密码需要您修改后才能继续使用').waitFor();
      const rule = page.getByRole('list', { name: '密码要求' }).getByRole('checkbox', { name: /至少 8 位/ });
      assert.equal(await rule.getAttribute('aria-checked'), 'false');

      // the password the administrator gave is refused by the history rule
      await page.getByLabel('新密码', { exact: true }).fill(user.password);
      assert.equal(await rule.getAttribute('aria-checked'), 'true');
      await page.getByLabel('确认新密码').fill(user.password);
      await page.getByRole('button', { name: '确认并登录' }).click();
      await page.getByRole('alert').filter({ hasText: '不能与最近' }).waitFor();

      await page.getByLabel('新密码', { exact: true }).fill(mine);
      await page.getByLabel('确认新密码').fill(mine);
      await page.getByRole('button', { name: '确认并登录' }).click();
      await waitForPath(page, '/file/personal');
    }, { server });

    assert.equal((await api(server, 'POST', '/api/login', { body: { userName: user.userName, password: user.password, mode: 'password' } })).status, 400);
    const next = await apiOk(server, 'POST', '/api/login', { body: { userName: user.userName, password: mine, mode: 'password' } });
    assert.ok(next.token, 'the chosen password signs in without another step');
  });

  test('个人设置: a new avatar shows in the user menu, and another browser is signed out from 我的会话', { ...T, skip: notBuilt || false }, async (t) => {
    const user = await createUser(server, admin.token);
    const elsewhere = await apiOk(server, 'POST', '/api/login', { body: { userName: user.userName, password: user.password, mode: 'password' } });
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#2f7d32' } }).png().toBuffer();
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, user.userName, user.password);
      await waitForPath(page, '/file/personal');
      await page.getByRole('button', { name: '用户菜单' }).click();
      await page.getByRole('menuitem', { name: '个人设置' }).click();
      await waitForPath(page, '/account');
      await page.getByLabel('选择头像图片').setInputFiles({ name: '我.png', mimeType: 'image/png', buffer: png });
      await page.getByText('头像已更新').first().waitFor();
      const menuAvatar = page.getByRole('button', { name: '用户菜单' }).locator('img');
      await menuAvatar.waitFor();
      assert.match(await menuAvatar.getAttribute('src'), /^\/api\/User\/Avatar\/\d+\?v=[0-9a-f]{16}$/);
      // the picture really loads (the cookie carries the session for <img>)
      await page.waitForFunction(() => {
        const img = document.querySelector('[aria-label="用户菜单"] img');
        return img instanceof HTMLImageElement && img.complete && img.naturalWidth === 256;
      });

      const sessions = page.getByRole('table', { name: '我的会话' });
      await sessions.getByText('当前').waitFor();
      const others = sessions.locator('tr', { hasNotText: '当前' }).getByRole('button', { name: /^退出 / });
      assert.equal(await others.count(), 1);
      await others.click();
      await page.getByText('该处登录已退出').first().waitFor();
    }, { server });
    assert.equal((await api(server, 'GET', '/api/User/Home', { token: elsewhere.token })).status, 401);
  });

  test('申请注册 with an SMS code, approved by an administrator, then the new user signs in', { ...T, skip: notBuilt || false }, async (t) => {
    const phone = `138${String(Date.now()).slice(-8)}`;
    const userName = `applicant_${Date.now().toString(36)}`;
    const password = 'Applicant-Passw0rd-7';
    await withBrowser(t, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.getByRole('link', { name: '申请注册' }).click();
      await waitForPath(page, '/signUp');
      await page.getByLabel('手机号').fill(phone);
      await page.getByRole('button', { name: '获取验证码' }).click();
      await page.getByRole('button', { name: /秒后重新获取/ }).waitFor();
      // the log sender keeps the message; the administrator reads the code there
      const [message] = await apiOk(server, 'GET', `/api/Admin/Sms?phone=${phone}`, { token: admin.token });
      const code = /验证码是 (\d{6})/.exec(message.text)[1];
      await page.getByLabel('短信验证码').fill(code);
      await page.getByLabel('用户名').fill(userName);
      await page.getByLabel('姓名').fill('赵申请');
      await page.getByLabel('密码', { exact: true }).fill(password);
      await page.getByLabel('确认密码').fill(password);
      await page.getByLabel('所在部门').fill('财务部');
      await page.getByRole('checkbox', { name: /我已阅读并同意/ }).check();
      await page.getByRole('button', { name: '提交申请' }).click();
      await page.getByRole('heading', { name: '申请已提交' }).waitFor();
    }, { server });

    assert.equal((await api(server, 'POST', '/api/login', { body: { userName, password, mode: 'password' } })).status, 400, 'no account before the approval');
    // the administrator: 系统管理 from the user menu, 注册申请, the SMS in the log, 批准
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, server.adminUser, server.adminPassword);
      await waitForPath(page, '/file/personal');
      await page.getByRole('button', { name: '用户菜单' }).click();
      await page.getByRole('menuitem', { name: '系统管理' }).click();
      await waitForPath(page, '/admin');
      await page.getByRole('tab', { name: '注册申请' }).click();
      await page.getByRole('cell', { name: /注册验证码是 \d{6}/ }).first().waitFor();
      const row = page.getByRole('row').filter({ hasText: userName });
      await row.getByText('财务部').waitFor();
      await row.getByRole('button', { name: '批准' }).click();
      const dialog = page.getByRole('dialog', { name: '批准注册申请' });
      await dialog.getByText('申请人填写的部门：财务部').waitFor();
      await dialog.getByRole('button', { name: /批\s*准/ }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row.waitFor({ state: 'detached' });
    }, { server });
    const approved = await apiOk(server, 'GET', '/api/Admin/Registrations?status=approved', { token: admin.token });
    assert.ok(approved.data.find((r) => r.userName === userName)?.userId, 'the account is made by the approval');

    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, userName, password);
      await waitForPath(page, '/file/personal');
      await page.getByRole('button', { name: '用户菜单' }).getByText('赵申请').waitFor();
    }, { server });
  });

  test('a desktop client asks through /#/login?authorize=, the user grants it, the client exchanges its code with PKCE, then the user revokes it', { ...T, skip: notBuilt || false }, async (t) => {
    // the client's side: a loopback address that records where the browser was sent
    const arrivals = [];
    const callback = http.createServer((req, res) => {
      arrivals.push(new URL(req.url, 'http://127.0.0.1'));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<p>授权完成，可以关闭此页。</p>');
    });
    await new Promise((resolve) => callback.listen(0, '127.0.0.1', resolve));
    const redirectUri = `http://127.0.0.1:${callback.address().port}/callback`;
    try {
      const client = await apiOk(server, 'POST', '/api/Admin/Clients', { token: admin.token, body: { name: '云文档桌面同步', redirectUris: [redirectUri] } });
      const verifier = crypto.randomBytes(32).toString('base64url');
      const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
      const request = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'profile files',
        state: 'desk-42',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString();
      const user = await createUser(server, admin.token);

      let accessToken = '';
      await withBrowser(t, async ({ page }) => {
        await page.goto(`${server.url}/#/login?authorize=${encodeURIComponent(request)}`);
        await page.getByPlaceholder('请输入用户名').fill(user.userName);
        await page.getByPlaceholder('请输入密码').fill(user.password);
        await page.getByRole('button', { name: '登录', exact: true }).click();
        await waitForPath(page, '/authorization');
        await page.getByText('云文档桌面同步').waitFor();
        await page.getByRole('list', { name: '授权范围' }).getByText(/^文件：/).waitFor();
        await page.getByRole('button', { name: '授权', exact: true }).click();
        await page.waitForURL((url) => url.toString().startsWith(redirectUri));
        const back = arrivals.filter((u) => u.pathname === '/callback').at(-1);
        assert.equal(back.searchParams.get('state'), 'desk-42');
        const code = back.searchParams.get('code');
        assert.ok(code, 'the browser brought a code to the client');

        // the client exchanges the code, with its verifier, for its own token
        const tokenRes = await api(server, 'POST', '/api/OAuth/Token', {
          body: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: client.clientId, code_verifier: verifier },
        });
        // the token endpoint answers in OAuth 2.0's own shape (RFC 6749), not in the envelope
        assert.equal(tokenRes.status, 200);
        assert.equal(tokenRes.body.token_type, 'Bearer');
        assert.ok(tokenRes.body.refresh_token, 'a refresh token comes with the access token');
        accessToken = tokenRes.body.access_token;
        assert.equal((await apiOk(server, 'GET', '/api/OAuth/UserInfo', { token: accessToken })).userName, user.userName);

        // 个人设置 → 已授权的客户端 → 撤销授权
        await page.goto(`${server.url}/account`);
        const clients = page.getByRole('table', { name: '已授权的客户端' });
        await clients.getByText('云文档桌面同步').waitFor();
        await clients.getByRole('button', { name: '撤销 云文档桌面同步 的授权' }).click();
        await page.getByRole('dialog').getByRole('button', { name: /^撤\s*销$/ }).click();
        await page.getByText('已撤销“云文档桌面同步”的授权').first().waitFor();
        await clients.getByText('没有授权过任何客户端').waitFor();
      }, { server });
      assert.equal((await api(server, 'GET', '/api/OAuth/UserInfo', { token: accessToken })).status, 401, 'the revoked token no longer works');
    } finally {
      await new Promise((resolve) => callback.close(resolve));
    }
  });
});
