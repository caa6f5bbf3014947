// Sign-in, sign-out, wrong password, revoked session, route guards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import {
  CHROMIUM, CHROMIUM_ARGS, TEXT, api, createFolder, dialogsSettled, openUserMenu, createUser, isUnauthorized, login, missingBuilds, navigateInApp, pathOf,
  personalRoot, revokeSessions, signInThroughPage, startServer, waitForPath, withBrowser,
} from '../harness.mjs';

const T = { timeout: 180_000 };
const notBuilt = missingBuilds();

describe('session', () => {
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

  test('admin signs in through the page, sees personal files, signs out', T, async (t) => {
    const folderName = `端到端文件夹-${Date.now().toString(36)}`;
    const root = await personalRoot(server, admin.token);
    await createFolder(server, admin.token, root.id, folderName);

    await withBrowser(t, async ({ page }) => {
      const result = await signInThroughPage(page, server, server.adminUser, server.adminPassword);
      assert.ok(result?.token, 'the page received a token from /api/login');
      await waitForPath(page, '/file/personal');

      // the files remote is loaded: the title, then the table (or the empty state) and our folder
      await page.getByText(TEXT.personalTitle).first().waitFor();
      await page.locator('.ant-table, .ant-empty').or(page.getByText(TEXT.empty)).first().waitFor();
      await page.getByText(folderName, { exact: true }).first().waitFor();

      // the product name and the main menu are there
      await page.getByText(TEXT.productName).first().waitFor();
      // the layout fills the window edge to edge: no browser margin, nothing to scroll
      const fit = await page.evaluate(() => ({ margin: getComputedStyle(document.body).margin, scrolls: document.documentElement.scrollHeight > innerHeight }));
      assert.deepEqual(fit, { margin: '0px', scrolls: false });

      // the fixed home tab is the landing page itself; a bare section path opens no tab
      await page.goto(`${server.url}/swapSpace`);
      await waitForPath(page, '/swapSpace/myFerry/processing');
      // the shell's tab bar only: the page itself (in <main>) has tabs of its own (我的摆渡, 摆渡设置, 统计审计)
      // (their titles; given a title, whether it is among them)
      const shellTabs = (title) => {
        const titles = [...document.querySelectorAll('[role="tab"]')].filter((el) => !el.closest('main')).map((el) => el.textContent.trim());
        return title === undefined ? titles : titles.includes(title);
      };
      await page.waitForFunction(shellTabs, '我的摆渡');
      const tabTitles = await page.evaluate(shellTabs);
      assert.deepEqual(tabTitles, [TEXT.personalTitle, '我的摆渡'], `tabs: ${tabTitles.join(' | ')}`);
      await page.goto(`${server.url}/file/personal`);
      await page.getByText(folderName, { exact: true }).first().waitFor();

      // sign out through the user menu
      const nick = result.nickName || result.userName || server.adminUser;
      await openUserMenu(page, nick);
      await page.getByText(TEXT.signOut, { exact: true }).click();
      await waitForPath(page, '/login');
      await page.getByPlaceholder(TEXT.userPlaceholder).waitFor();

      // the old token no longer works
      const res = await api(server, 'GET', '/api/User/Home', { token: result.token });
      assert.ok(isUnauthorized(res), `old token after sign-out: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }, { server });
  });

  /** Holds main.js back (and so every script of the page) until `release` is called. */
  async function holdScripts(page) {
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await page.route(/\/main\.[0-9a-f]{8}\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    return release;
  }

  test('the sign-in page: its form shows before any script runs and keeps what is typed; every script it runs was preloaded, and came gzip-compressed', T, async (t) => {
    await withBrowser(t, async ({ page }) => {
      const scripts = [];
      page.on('response', (res) => {
        if (res.request().resourceType() === 'script') scripts.push({ path: new URL(res.url()).pathname, encoding: res.headers()['content-encoding'] });
      });
      // main.js held back: what shows is index.html alone, with its inline script
      const release = await holdScripts(page);
      await page.goto(`${server.url}/login`, { waitUntil: 'commit' });
      await page.getByPlaceholder(TEXT.userPlaceholder).waitFor();
      const early = await page.evaluate(() => ({
        card: getComputedStyle(document.querySelector('.yw-card')).maxWidth,
        input: getComputedStyle(document.querySelector('#login-user')).height,
        focused: document.activeElement?.id,
        loading: document.querySelectorAll('[role="progressbar"]').length,
        footer: document.querySelector('.yw-footer').textContent,
        scrolls: document.documentElement.scrollHeight > innerHeight,
        scripted: window.__ywEarlySignIn?.taken,
      }));
      assert.deepEqual(
        early,
        { card: '400px', input: '40px', focused: 'login-user', loading: 0, footer: `© ${new Date().getFullYear()} 云文档`, scrolls: false, scripted: false },
        'the form is styled by index.html alone, the cursor in 用户名',
      );
      await page.keyboard.type('zhang');
      await page.getByPlaceholder(TEXT.passwordPlaceholder).fill('not-yet-sent');

      release();
      await page.waitForFunction(() => window.__ywEarlySignIn?.taken === true);
      await page.getByRole('button', { name: TEXT.loginButton, exact: true }).waitFor();
      const taken = await page.evaluate(() => ({
        user: document.querySelector('#login-user').value,
        password: document.querySelector('#login-password').value,
        focused: document.activeElement?.id,
      }));
      assert.deepEqual(taken, { user: 'zhang', password: 'not-yet-sent', focused: 'login-password' }, 'what was typed, and the cursor, stay');
      assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /需要 JavaScript|加载中/);
      await page.waitForLoadState('networkidle');
      const preloaded = await page.evaluate(() => [
        ...[...document.querySelectorAll('head script[src]')].map((el) => new URL(el.src).pathname),
        ...[...document.querySelectorAll('link[rel="preload"][as="script"]')].map((el) => new URL(el.href).pathname),
      ]);
      const late = scripts.filter((s) => !preloaded.includes(s.path)).map((s) => s.path);
      assert.deepEqual(late, [], `scripts the page found only as it ran: ${late.join(', ')}`);
      const unused = preloaded.filter((p) => !scripts.some((s) => s.path === p));
      assert.deepEqual(unused, [], `preloaded but not run: ${unused.join(', ')}`);
      const plain = scripts.filter((s) => s.encoding !== 'gzip').map((s) => s.path);
      assert.deepEqual(plain, [], `scripts sent uncompressed: ${plain.join(', ')}`);
      assert.ok(scripts.length <= 6, `${scripts.length} scripts before the form: ${scripts.map((s) => s.path).join(', ')}`);
    }, { server });
  });

  test('登录 pressed before the scripts arrive signs in when they do; a wrong password then gets its message', T, async (t) => {
    await withBrowser(t, async ({ page }) => {
      const logins = [];
      page.on('request', (r) => r.method() === 'POST' && /\/api\/login$/.test(new URL(r.url()).pathname) && logins.push(r.url()));
      const release = await holdScripts(page);
      await page.goto(`${server.url}/login`, { waitUntil: 'commit' });
      await page.getByPlaceholder(TEXT.userPlaceholder).fill(server.adminUser);
      await page.getByPlaceholder(TEXT.passwordPlaceholder).fill(server.adminPassword);
      await page.getByPlaceholder(TEXT.passwordPlaceholder).press('Enter');
      const busy = page.getByRole('button', { name: '登录中…' });
      await busy.waitFor();
      assert.equal(await busy.isDisabled(), true);
      assert.deepEqual(logins, [], 'nothing is sent before the script');
      release();
      await waitForPath(page, '/file/personal');
      assert.equal(logins.length, 1, 'one sign-in');
    }, { server });

    // at / this time, and someone else's account with a wrong password
    const user = await createUser(server, admin.token);
    await withBrowser(t, async ({ page }) => {
      const release = await holdScripts(page);
      await page.goto(`${server.url}/`, { waitUntil: 'commit' });
      await page.getByPlaceholder(TEXT.userPlaceholder).fill(user.userName);
      await page.getByPlaceholder(TEXT.passwordPlaceholder).fill('wrong-Passw0rd!');
      await page.getByRole('button', { name: TEXT.loginButton, exact: true }).click();
      await page.getByRole('button', { name: '登录中…' }).waitFor();
      release();
      await page.getByRole('alert').filter({ hasText: /[\u4e00-\u9fff]/ }).waitFor();
      assert.equal(pathOf(page), '/login');
      assert.equal(await page.getByPlaceholder(TEXT.passwordPlaceholder).isEnabled(), true);
      assert.equal(await page.getByPlaceholder(TEXT.userPlaceholder).inputValue(), user.userName);
    }, { server });
  });

  test('signed in, /login shows the loading screen before any script runs, styled by index.html alone, and no sign-in form', T, async (t) => {
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, server.adminUser, server.adminPassword);
      await waitForPath(page, '/file/personal');
      const release = await holdScripts(page);
      await page.goto(`${server.url}/login`, { waitUntil: 'commit' });
      await page.getByText('加载中', { exact: true }).waitFor();
      const screen = await page.evaluate(() => ({
        width: getComputedStyle(document.querySelector('.yw-loading')).width,
        bar: document.querySelector('[role="progressbar"]').getAttribute('aria-valuenow'),
        inputs: document.querySelectorAll('input').length,
      }));
      assert.deepEqual(screen, { width: '320px', bar: '0', inputs: 0 }, 'the loading screen is styled by index.html alone, not a form');
      release();
      await waitForPath(page, '/file/personal');
      assert.equal(await page.getByText('加载中', { exact: true }).count(), 0, 'the app replaced the loading screen');
    }, { server });
  });

  test('with JavaScript turned off, the page says that it needs it', T, async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const page = await (await browser.newContext({ javaScriptEnabled: false, locale: 'zh-CN' })).newPage();
      await page.goto(`${server.url}/login`);
      // what the page shows, read as a person would (innerText holds only what is rendered)
      const shown = await page.evaluate(() => document.body.innerText);
      assert.match(shown, /^云文档需要 JavaScript：请在浏览器设置中启用后刷新本页。/);
    } finally {
      await browser.close();
    }
  });

  test('a slow runtime configuration: React takes the loading screen over, its bar gaining 1 % every 30 ms, until the form can show', T, async (t) => {
    await withBrowser(t, async ({ page }) => {
      await page.route('**/runtime-config.json', async (route) => {
        await new Promise((r) => setTimeout(r, 2500));
        await route.continue();
      });
      // signed out at a page of the app (at /login the form would show at once): the app decides
      await page.goto(`${server.url}/file/public`, { waitUntil: 'commit' });
      const bar = page.getByRole('progressbar');
      await page.waitForFunction(() => Number(document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')) >= 10);
      const shown = Number(await bar.getAttribute('aria-valuenow'));
      assert.ok(shown < 40, `about 1 % every 30 ms: ${shown} % at the first check past 10 %`);
      assert.equal(await page.getByPlaceholder(TEXT.userPlaceholder).count(), 0, 'no form before the configuration');
      await page.getByPlaceholder(TEXT.userPlaceholder).waitFor();
      assert.equal(await page.getByText('加载中', { exact: true }).count(), 0, 'the sign-in page replaced the loading screen');
    }, { server });
  });

  test('once the configuration is in, the loading bar is full while the app itself still loads', T, async (t) => {
    await withBrowser(t, async ({ page }) => {
      let release;
      const held = new Promise((resolve) => (release = resolve));
      await page.route(/\/app\.[0-9a-f]{8}\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      // timers held too, so that React never takes the screen over: index.html's copy shows it
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
      await page.goto(`${server.url}/file/public`, { waitUntil: 'commit' });
      await page.waitForFunction(() => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') === '100');
      assert.equal(await page.locator('.yw-loading__percent').textContent(), '100%');
      await page.clock.resume();
      release();
      await waitForPath(page, '/login');
      await page.getByPlaceholder(TEXT.userPlaceholder).waitFor();
    }, { server });
  });

  test('a wrong password shows the Chinese error and stays on /login', T, async (t) => {
    const user = await createUser(server, admin.token);
    // what the server says to a wrong password (this also counts toward throttling: 2 of 5)
    const direct = await api(server, 'POST', '/api/login', { body: { userName: user.userName, password: 'wrong-Passw0rd!', mode: 'password' } });
    assert.notEqual(direct.status, 401, 'wrong credentials must not answer 401 (contract: 400/40001)');
    const serverMessage = direct.body?.message;

    await withBrowser(t, async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.getByPlaceholder(TEXT.userPlaceholder).fill(user.userName);
      await page.getByPlaceholder(TEXT.passwordPlaceholder).fill('wrong-Passw0rd!');
      await page.getByRole('button', { name: TEXT.loginButton, exact: true }).click();
      const expected = serverMessage ? page.getByText(serverMessage).or(page.getByText(TEXT.loginFailed)) : page.getByText(TEXT.loginFailed);
      await expected.first().waitFor();
      const shown = (await expected.first().innerText()).trim();
      assert.match(shown, /[\u4e00-\u9fff]/, `the error is Chinese: ${shown}`);
      await page.waitForTimeout(500);
      assert.equal(pathOf(page), '/login');
    }, { server });
  });

  test('a session revoked on the server brings up the expired-session dialog; 重新登录 goes to /login', T, async (t) => {
    const user = await createUser(server, admin.token);
    await withBrowser(t, async ({ page }) => {
      const result = await signInThroughPage(page, server, user.userName, user.password);
      assert.ok(result?.token);
      await waitForPath(page, '/file/personal');
      await page.getByText(TEXT.personalTitle).first().waitFor();

      const { revoked } = (await revokeSessions(server, admin.token, user.userId)) ?? {};
      assert.ok(revoked >= 1, `RevokeSessions revoked ${revoked}`);
      const res = await api(server, 'GET', '/api/User/Home', { token: result.token });
      assert.ok(isUnauthorized(res), `revoked token: HTTP ${res.status}`);

      // the next call the app makes (moving to the enterprise space inside the app)
      await navigateInApp(page, '/file/public');
      await page.getByText(TEXT.expired).first().waitFor({ timeout: 20_000 });
      // clicked once the dialog has come in, as a person does (a click in its first frames can be lost)
      await dialogsSettled(page);
      await page.getByRole('button', { name: TEXT.relogin }).click();
      await waitForPath(page, '/login');
      await page.getByPlaceholder(TEXT.userPlaceholder).waitFor();
    }, { server });
  });

  test('an unauthenticated deep link to /file/public goes to /login', T, async (t) => {
    await withBrowser(t, async ({ page }) => {
      await page.goto(`${server.url}/file/public`);
      await waitForPath(page, '/login');
      await page.getByPlaceholder(TEXT.userPlaceholder).waitFor();
    }, { server });
  });

  test('an unknown path shows 页面不存在 when signed in', T, async (t) => {
    const user = await createUser(server, admin.token);
    await withBrowser(t, async ({ page }) => {
      await signInThroughPage(page, server, user.userName, user.password);
      await waitForPath(page, '/file/personal');
      await page.goto(`${server.url}/no-such-page-${Date.now().toString(36)}`);
      await page.getByText(TEXT.notFound).first().waitFor();
    }, { server });
  });
});
