// End-to-end harness: starts the BUILT product the way README starts it
// (`node server/dist/server.js`), a remote alone through scripts/serve-static.mjs,
// headless Debian chromium through playwright-core, and small API helpers.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ADMIN_USER = 'admin';
export const ADMIN_PASSWORD = 'E2e-Admin-Passw0rd!';
export const REMOTES = ['files', 'workflow', 'swapspace', 'ferry', 'share'];

/** Placeholders, labels and texts the pages show (docs/integration.md). */
export const TEXT = {
  userPlaceholder: '请输入用户名',
  passwordPlaceholder: '请输入密码',
  loginButton: '登录',
  loginFailed: '登录失败，请稍后重试',
  productName: '云文档',
  menuFiles: '云文档',
  menuWorkflow: '流程',
  menuSwap: '交换空间',
  signOut: '退出登录',
  personalTitle: '个人文件',
  empty: '暂无数据',
  expired: '您的登录已过期，为了保证您的使用安全，请重新登录',
  relogin: '重新登录',
  remoteFailed: '模块加载失败',
  notFound: '页面不存在',
};

const children = new Set();
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}
// Never leave a server behind, even when a test file crashes.
process.on('exit', () => {
  for (const c of children) killGroup(c, 'SIGKILL');
});

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls cond() until it is truthy; rejects after timeoutMs. */
export async function waitFor(cond, timeoutMs = 15_000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** A TCP port that was free a moment ago (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A port nothing listens on: taken from the OS, then released. */
export const closedPort = freePort;

function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Spawns a process in its own process group, collecting its output.
 * @returns {{ child, output: () => string, exited: Promise<number|null>, stop: () => Promise<void> }}
 */
function spawnGroup(cmd, args, { env, cwd = ROOT, name }) {
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const chunks = [];
  let size = 0;
  const keep = (d) => {
    chunks.push(d);
    size += d.length;
    while (size > 2_000_000 && chunks.length > 1) size -= chunks.shift().length;
    if (process.env.E2E_VERBOSE) process.stderr.write(`[${name}] ${d}`);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exitCode;
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exitCode = code ?? signal;
      children.delete(child);
      resolve(exitCode);
    });
    child.on('error', (err) => {
      keep(Buffer.from(`spawn error: ${err.message}\n`));
      children.delete(child);
      resolve(-1);
    });
  });
  const output = () => Buffer.concat(chunks).toString('utf8');
  const stop = async () => {
    if (exitCode !== undefined) return;
    killGroup(child, 'SIGTERM');
    const t = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
    // the group may hold grandchildren even after the leader exited
    killGroup(child, 'SIGKILL');
  };
  return { child, output, exited, stop, hasExited: () => exitCode !== undefined };
}

async function waitForHttp(url, proc, { timeoutMs = 60_000, what }) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (proc.hasExited()) throw new Error(`${what} exited before it answered ${url}:\n${tail(proc.output())}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code || err.message;
    }
    await sleep(150);
  }
  await proc.stop();
  throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms (last: ${last}):\n${tail(proc.output())}`);
}

function tail(text, lines = 60) {
  return text.split('\n').slice(-lines).join('\n');
}

/**
 * Starts `node server/dist/server.js` as README does, on a free port with a fresh DATA_DIR.
 * @param {object} [o]
 * @param {'full'|'simple'} [o.mode]
 * @param {Partial<Record<'files'|'workflow'|'swapspace'|'ferry'|'share', string>>} [o.remotes] REMOTE_<NAME>_URL values
 * @param {Record<string,string>} [o.env] more environment
 */
export async function startServer(o = {}) {
  // E2E_SERVER_ENTRY: another entry file (a dev build, or a stub to test this harness)
  const entry = path.resolve(ROOT, process.env.E2E_SERVER_ENTRY || 'server/dist/server.js');
  if (!fs.existsSync(entry)) throw new Error(`${path.relative(ROOT, entry)} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const dataDir = tempDir('yunwendang-e2e-data-');
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^REMOTE_[A-Z]+_URL$/.test(k) || k === 'DATABASE_URL' || k === 'WEB_ROOT') delete env[k];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_USER,
    ADMIN_PASSWORD,
    MODE: o.mode || 'full',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL || 'warn',
    NODE_ENV: 'production',
  });
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  for (const [name, url] of Object.entries(o.remotes || {})) env[`REMOTE_${name.toUpperCase()}_URL`] = url;
  Object.assign(env, o.env || {});
  const proc = spawnGroup(process.execPath, [entry], { env, name: `server:${port}` });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/runtime-config.json`, proc, { what: 'the server' });
  return {
    url,
    port,
    dataDir,
    /** the server process, for memory readings */
    pid: proc.child.pid,
    adminUser: ADMIN_USER,
    adminPassword: ADMIN_PASSWORD,
    output: proc.output,
    async stop() {
      await proc.stop();
      if (!process.env.E2E_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Serves a folder alone with scripts/serve-static.mjs (CORS, SPA fallback) on a free port. */
export async function startStatic(dir, { proxy } = {}) {
  const abs = path.resolve(ROOT, dir);
  if (!fs.existsSync(abs)) throw new Error(`${path.relative(ROOT, abs)} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const args = [path.join(ROOT, 'scripts', 'serve-static.mjs'), abs, '--port', String(port), '--host', '127.0.0.1'];
  if (proxy) args.push('--proxy', proxy);
  const proc = spawnGroup(process.execPath, args, { env: { ...process.env, SERVE_STATIC_QUIET: '1' }, name: `static:${port}` });
  const url = `http://127.0.0.1:${port}`;
  const probe = fs.existsSync(path.join(abs, 'mf-manifest.json')) ? '/mf-manifest.json' : '/';
  await waitForHttp(url + probe, proc, { what: `serve-static ${dir}`, timeoutMs: 15_000 });
  return { url, port, output: proc.output, stop: proc.stop };
}

/* ---------------------------------------------------------------- browser */

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh headless chromium profile (cold cache, empty storage) and its first page. */
export async function launchBrowser({ viewport = { width: 1366, height: 860 } } = {}) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const userDataDir = tempDir('yunwendang-e2e-chrome-');
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(30_000);
  const page = context.pages()[0] || (await context.newPage());
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
  return {
    context,
    page,
    consoleLines,
    async close() {
      await context.close().catch(() => {});
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

function safeName(s) {
  return s.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 120);
}

/**
 * Runs fn with a fresh browser; on failure saves a screenshot, the page's HTML and its
 * console into e2e/artifacts/, and adds the server's output to the error.
 * @param {import('node:test').TestContext} t
 * @param {(b: Awaited<ReturnType<typeof launchBrowser>>) => Promise<void>} fn
 * @param {{ server?: { output: () => string } }} [o]
 */
export async function withBrowser(t, fn, o = {}) {
  const b = await launchBrowser();
  try {
    await fn(b);
  } catch (err) {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const base = path.join(ARTIFACTS, safeName(t.name));
    const notes = [];
    try {
      await b.page.screenshot({ path: `${base}.png`, fullPage: true, timeout: 10_000 });
      notes.push(`screenshot: ${path.relative(ROOT, base)}.png`);
    } catch (e) {
      notes.push(`no screenshot: ${e.message}`);
    }
    try {
      fs.writeFileSync(`${base}.html`, await b.page.content());
      fs.writeFileSync(`${base}.console.txt`, `url: ${b.page.url()}\n${b.consoleLines.join('\n')}\n`);
      if (o.server) fs.writeFileSync(`${base}.server.txt`, o.server.output());
    } catch {
      /* page gone */
    }
    notes.push(`url: ${b.page.url()}`);
    if (b.consoleLines.length) notes.push(`console (last 15):\n  ${b.consoleLines.slice(-15).join('\n  ')}`);
    err.message += `\n  ${notes.join('\n  ')}`;
    throw err;
  } finally {
    await b.close();
  }
}

/** Records every request URL the page makes. */
export function recordRequests(page) {
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

/** URL path of a page, e.g. '/file/personal'. */
export const pathOf = (page) => new URL(page.url()).pathname;

/** Waits until the page's path matches (string prefix-exact or RegExp). */
export async function waitForPath(page, expected, timeout = 20_000) {
  const re = expected instanceof RegExp ? expected : new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`);
  await page.waitForURL((u) => re.test(new URL(u).pathname), { timeout });
}

/**
 * Signs in through the login page. Returns the /api/login result the page received
 * (token, nickName, ...).
 */
export async function signInThroughPage(page, server, userName, password) {
  await page.goto(`${server.url}/login`);
  await page.getByPlaceholder(TEXT.userPlaceholder).fill(userName);
  await page.getByPlaceholder(TEXT.passwordPlaceholder).fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/login$/i.test(new URL(r.url()).pathname), { timeout: 20_000 }),
    page.getByRole('button', { name: TEXT.loginButton, exact: true }).click(),
  ]);
  const body = await response.json().catch(() => null);
  return body?.result ?? null;
}

/** Clicks a main-menu entry (an antd Menu item, else a link, else plain text). */
export async function clickMainMenu(page, title) {
  const candidates = [
    page.getByRole('menuitem', { name: title, exact: true }),
    page.getByRole('link', { name: title, exact: true }),
    page.locator('nav, header, .ant-menu, .ant-layout-header').getByText(title, { exact: true }),
  ];
  for (const loc of candidates) {
    const visible = loc.filter({ visible: true });
    if ((await visible.count()) > 0) {
      await visible.first().click();
      return;
    }
  }
  throw new Error(`main menu entry ${title} not found`);
}

/** Opens the user menu by clicking the user's nickname in the top bar. */
export async function openUserMenu(page, nickName) {
  await page.getByText(nickName, { exact: true }).first().waitFor();
  const inHeader = page.locator('header, .ant-layout-header, [role="banner"]').getByText(nickName, { exact: true }).filter({ visible: true });
  if ((await inHeader.count()) > 0) return inHeader.first().click();
  // no recognisable top bar: the nickname outside any table (file lists show owners)
  const anywhere = page.getByText(nickName, { exact: true }).filter({ visible: true });
  const n = await anywhere.count();
  for (let i = 0; i < n; i++) {
    const el = anywhere.nth(i);
    if (await el.evaluate((e) => !e.closest('table, .ant-table'))) return el.click();
  }
  throw new Error(`the nickname ${nickName} is not shown outside the file list`);
}

/** Client-side navigation (no reload): what a click on an in-app link does. */
export async function navigateInApp(page, to) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, to);
}

/* ---------------------------------------------------------------- API */

/** Calls the API; returns { status, body } where body is the envelope (or text). */
export async function api(server, method, urlPath, { token, body, headers = {} } = {}) {
  const h = { Accept: 'application/json', ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  let payload;
  if (body !== undefined) {
    h['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(server.url + urlPath, { method, headers: h, body: payload, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
}

/** Like api() but demands envelope code 200 and returns its result. */
export async function apiOk(server, method, urlPath, opts) {
  const { status, body } = await api(server, method, urlPath, opts);
  if (status !== 200 || !body || typeof body !== 'object' || body.code !== 200) {
    throw new Error(`${method} ${urlPath} -> HTTP ${status} ${JSON.stringify(body).slice(0, 400)}`);
  }
  return body.result;
}

/** Signs in over HTTP; returns the login result ({ token, userId, nickName, ... }). */
export async function login(server, userName = ADMIN_USER, password = ADMIN_PASSWORD) {
  const result = await apiOk(server, 'POST', '/api/login', { body: { userName, password, mode: 'password' } });
  if (!result?.token) throw new Error(`sign-in of ${userName} returned no token: ${JSON.stringify(result)}`);
  return result;
}

let userSeq = 0;
/** Creates a user through POST /api/Admin/Users; returns { userId, userName, nickName, password }. */
export async function createUser(server, adminToken, o = {}) {
  const n = `${Date.now().toString(36)}${++userSeq}`;
  const user = {
    userName: o.userName || `e2e_${n}`,
    nickName: o.nickName || `测试用户${n}`,
    password: o.password || `E2e-User-Passw0rd-${n}!`,
  };
  const deptId = o.deptId ?? null; // null: the root department
  const result = await apiOk(server, 'POST', '/api/Admin/Users', { token: adminToken, body: { ...user, deptId, mustChangePassword: o.mustChangePassword ?? false } });
  if (result?.userId === undefined) throw new Error(`POST /api/Admin/Users returned no userId: ${JSON.stringify(result)}`);
  return { ...user, userId: result.userId };
}

export async function revokeSessions(server, adminToken, userId) {
  return apiOk(server, 'POST', `/api/Admin/Users/${encodeURIComponent(userId)}/RevokeSessions`, { token: adminToken });
}

export async function disableUser(server, adminToken, userId) {
  return apiOk(server, 'POST', `/api/Admin/Users/${encodeURIComponent(userId)}/Disable`, { token: adminToken });
}

/** The caller's personal root folder (GET /api/User/Folders/Personal/RootFolders)[0]. */
export async function personalRoot(server, token) {
  const roots = await apiOk(server, 'GET', '/api/User/Folders/Personal/RootFolders', { token });
  if (!Array.isArray(roots) || !roots[0]) throw new Error(`no personal root folder: ${JSON.stringify(roots)}`);
  return roots[0];
}

export async function createFolder(server, token, parentId, name) {
  return apiOk(server, 'POST', '/api/User/Files/CreateFile', { token, body: { parentId, name, type: 'folder' } });
}

/** The live items of a folder (up to 1,000), through the API. */
export async function itemsOf(server, token, folderId) {
  return (await apiOk(server, 'GET', `/api/User/Folders/${folderId}/Items?pageSize=1000`, { token })).items.data;
}

/** antd's OK button (it may put a space between the two characters). */
export const OK_BUTTON = /^确\s*定$/;

/**
 * Waits until no antd dialog is still zooming in. A click in the first frames of a dialog's
 * entrance was lost about once in 40 tries (the picker it should open never came), something a
 * person, who clicks what they have seen, does not do.
 */
export async function dialogsSettled(page) {
  await page.waitForFunction(() => !document.querySelector('.ant-modal.ant-zoom-enter, .ant-modal.ant-zoom-appear'));
}

/** The row of the file list (not the folder tree) that shows `name`. */
export const listRow = (page, name) => page.locator('.ant-table-row').filter({ has: page.getByText(name, { exact: true }) }).first();

/** True when an API answer means "session expired" (HTTP 401 or envelope code 401). */
export function isUnauthorized({ status, body }) {
  return status === 401 || (body && typeof body === 'object' && body.code === 401);
}

/* ---------------------------------------------------------------- build checks */

/** The built files a test needs, or a message naming the missing ones. */
export function missingBuilds(...rel) {
  const need = rel.length ? rel : ['server/dist/server.js', 'shell/dist/index.html', 'remote-files/dist/mf-manifest.json'];
  const entry = process.env.E2E_SERVER_ENTRY;
  const missing = need.filter((p) => !fs.existsSync(path.resolve(ROOT, entry && p === 'server/dist/server.js' ? entry : p)));
  return missing.length ? `not built: ${missing.join(', ')} (run \`npm run build\`)` : null;
}

/** The context menu of a row of the file list, opened with a right click on its name. */
export async function contextMenu(page, name) {
  await listRow(page, name).getByText(name, { exact: true }).click({ button: 'right' });
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu').last();
  await menu.waitFor();
  // the menu's entrance (antd's slide-up motion) ends before an entry is clicked: a click during
  // it once left the menu open, another entry under the pointer, and no drawer opened
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').last().evaluate((el) =>
    Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))),
  );
  return menu;
}

/**
 * Opens the row's context menu and clicks an entry. The list may still re-render just after a
 * navigation and close a menu opened meanwhile; then the menu is opened again (three tries).
 */
export async function chooseFromContextMenu(page, name, entry) {
  for (let attempt = 1; ; attempt++) {
    const menu = await contextMenu(page, name);
    try {
      await menu.getByRole('menuitem', { name: entry }).click({ timeout: 5_000 });
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/** Waits until pdf.js has drawn something dark on the first page's canvas (not a blank page). */
export async function pdfDrawn(page) {
  await page.getByLabel('第 1 页').waitFor();
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-page="1"] canvas');
    if (!c || !c.width) return false;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 128) return true;
    return false;
  }, undefined, { timeout: 20_000 });
}
