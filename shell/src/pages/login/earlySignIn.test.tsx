// The sign-in form of index.html, before any script has arrived: its inline script shows it to a
// signed-out visitor of / or /login only, with the markup the sign-in page's React renders (so
// that the take-over does not show), and the page takes it over with what was typed, the cursor,
// and a press of 登录 or 钉钉登录 made while the scripts were still on their way.
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore, localStore, runtimeConfigAtom, StorageKey, tokenAtom, type RuntimeConfig } from '@app/shared';
import { fakeApi, fullConfig, homeOf, resetSignInPage, signedInResult } from '../../testing/fakeApi';
import { browserExit } from './browserExit';
import { earlyFormShown } from './earlyForm';
import { standaloneLogin } from './StandaloneLogin';

jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

const SHELL = path.join(__dirname, '..', '..', '..');
const INDEX_HTML = fs.readFileSync(path.join(SHELL, 'public', 'index.html'), 'utf8');
const SCRIPT = fs.readFileSync(path.join(__dirname, 'earlySignIn.inline.js'), 'utf8');
const DINGTALK: RuntimeConfig['dingtalk'] = { appId: 'ding-app', authorizeUrl: 'https://login.dingtalk.com/oauth2/auth', mode: 'redirect' };

const session = signedInResult;

/** index.html's body as the browser parses it, then its inline script run, at `url`. */
function loadIndexAt(url: string): HTMLElement {
  window.history.replaceState(null, '', url);
  const body = INDEX_HTML.slice(INDEX_HTML.indexOf('<body>') + 6, INDEX_HTML.indexOf('</body>'));
  expect(body).toContain('<script><%= earlySignInScript %></script>');
  document.body.innerHTML = body.replace('<script><%= earlySignInScript %></script>', '');
  new Function(SCRIPT)();
  return document.getElementById('root')!;
}

/** A node as a string that ignores attribute order, split text and autofocus (React focuses by script). */
function canonical(node: Node): string {
  const copy = node.cloneNode(true);
  copy.normalize();
  const walk = (n: Node): string => {
    if (n.nodeType === Node.TEXT_NODE) return n.textContent ?? '';
    if (n.nodeType !== Node.ELEMENT_NODE) return '';
    const el = n as Element;
    const attrs = [...el.attributes].filter((a) => a.name !== 'autofocus').map((a) => `${a.name}="${a.value}"`).sort();
    return `<${el.localName} ${attrs.join(' ')}>${[...el.childNodes].map(walk).join('')}</${el.localName}>`;
  };
  return walk(copy);
}

/** What an element holds, as canonical() writes it. */
const contentOf = (el: Element) => [...el.childNodes].map(canonical).join('');

/** What the sign-in page's React renders at first, in a container of its own. */
async function reactMarkup(config: RuntimeConfig): Promise<string> {
  appStore.set(runtimeConfigAtom, config);
  const holder = document.createElement('div');
  document.body.appendChild(holder);
  const view = render(standaloneLogin(() => undefined), { container: holder });
  await screen.findAllByPlaceholderText('请输入用户名');
  const markup = contentOf(holder);
  view.unmount();
  holder.remove();
  return markup;
}

beforeEach(() => {
  resetSignInPage();
  delete window.__ywEarlySignIn;
});
afterEach(() => {
  cleanup();
  jest.restoreAllMocks();
});

test('a signed-out visitor of /login or / gets the form at once, as the page will render it', async () => {
  fakeApi();
  for (const url of ['/login', '/', '/login?authorize=abc']) {
    const root = loadIndexAt(url);
    expect(root.querySelector('[role="progressbar"]')).toBeNull();
    expect(earlyFormShown()).toBe(true);
    const early = contentOf(root);
    expect(early).toContain('请输入用户名');
    expect(early).toContain(`© ${new Date().getFullYear()} 云文档`);
    expect(early).not.toContain('钉钉登录');
    expect({ url, early }).toEqual({ url, early: await reactMarkup(fullConfig) });
    // the browser puts the cursor there (jsdom does not do autofocus; e2e/tests/01-session checks it)
    expect(root.querySelector('#login-user')?.hasAttribute('autofocus')).toBe(true);
  }
});

test('the cached configuration names the product and brings 钉钉登录, as the page will', async () => {
  fakeApi({ handlers: { 'GET /api/Client/Branding': () => ({ data: { code: 200, message: null, result: { systemName_Client: '星河文档' } } }) } });
  const config: RuntimeConfig = { ...fullConfig, appTitle: '星河文档', dingtalk: DINGTALK };
  localStore.set(StorageKey.ClientConfig, config);
  const root = loadIndexAt('/login');
  expect(document.title).toBe('星河文档');
  const early = contentOf(root);
  expect(early).toContain('钉钉登录');
  expect(early).toContain('<h1 class="yw-brand__name">星河文档</h1>');
  expect(early).toEqual(await reactMarkup(config));
});

test('no form where start-up goes elsewhere: signed in, a temporary sign-in, other pages, DingTalk coming back', () => {
  const cases: [string, () => void][] = [
    ['/login', () => localStore.set(StorageKey.Token, 'a-token')],
    ['/', () => localStore.set(StorageKey.Token, 'a-token')],
    ['/login', () => localStorage.setItem(StorageKey.TemporaryToken, 'temp-1')],
    ['/file/personal', () => undefined],
    ['/signUp', () => undefined],
    ['/#/authorization?authorize=x', () => undefined],
    ['/login?authCode=c0de&state=s', () => undefined],
    ['/login?code=c0de&state=s', () => undefined],
  ];
  for (const [url, arrange] of cases) {
    localStorage.clear();
    delete window.__ywEarlySignIn;
    arrange();
    const root = loadIndexAt(url);
    expect({ url, loading: !!root.querySelector('[role="progressbar"]'), form: !!root.querySelector('form') }).toEqual({ url, loading: true, form: false });
    expect(earlyFormShown()).toBe(false);
  }
  // a session past its 7 days is no session: the form
  localStorage.clear();
  localStorage.setItem(StorageKey.Token, JSON.stringify({ value: 'old', time: 0, expire: Date.now() - 1000 }));
  expect(loadIndexAt('/login').querySelector('form')).not.toBeNull();
});

test('what was typed, and the cursor, go over to the page when it takes the form over', async () => {
  const api = fakeApi();
  const root = loadIndexAt('/login');
  const user = userEvent.setup();
  await user.type(screen.getByPlaceholderText('请输入用户名'), 'zhangsan');
  await user.type(screen.getByPlaceholderText('请输入密码'), 'Given-Pass');
  const early = screen.getByPlaceholderText('请输入密码') as HTMLInputElement;
  early.setSelectionRange(2, 5);

  render(standaloneLogin(() => undefined), { container: root });
  const name = (await screen.findByPlaceholderText('请输入用户名')) as HTMLInputElement;
  const password = screen.getByPlaceholderText('请输入密码') as HTMLInputElement;
  expect(password).not.toBe(early);
  expect([name.value, password.value]).toEqual(['zhangsan', 'Given-Pass']);
  expect(document.activeElement).toBe(password);
  expect([password.selectionStart, password.selectionEnd]).toEqual([2, 5]);
  expect(earlyFormShown()).toBe(false);
  expect(api.calls).not.toContain('POST /api/login');

  // and it goes on as the page's own form
  await user.type(password, '{End}w0rd{Enter}');
  await waitFor(() => expect(api.calls).toContain('POST /api/login'));
});

test('a press of 登录 before the script arrives signs in once the page takes over, once', async () => {
  const bodies: unknown[] = [];
  const api = fakeApi({
    home: homeOf({ file: false }),
    handlers: {
      'POST /api/login': (config) => {
        bodies.push(JSON.parse(String(config.data)));
        return { data: { code: 200, message: null, result: session } };
      },
    },
  });
  const root = loadIndexAt('/login');
  const user = userEvent.setup();
  await user.type(screen.getByPlaceholderText('请输入用户名'), 'zhangsan');
  await user.type(screen.getByPlaceholderText('请输入密码'), 'Given-Passw0rd{Enter}');
  // busy, as the page shows a sign-in under way; a second press waits too
  const button = screen.getByRole('button', { name: /登录中/ });
  expect(button).toBeDisabled();
  expect(screen.getByPlaceholderText('请输入密码')).toBeDisabled();
  await user.click(button);
  expect(window.__ywEarlySignIn?.pending).toBe('submit');
  expect(api.calls).not.toContain('POST /api/login');

  const handOver = jest.fn();
  render(standaloneLogin(handOver), { container: root });
  await waitFor(() => expect(window.location.pathname).toBe('/workflow/list'));
  expect(bodies).toEqual([expect.objectContaining({ userName: 'zhangsan', password: 'Given-Passw0rd' })]);
  expect(appStore.get(tokenAtom)).toBe('new-token');
  expect(handOver).toHaveBeenCalledTimes(1);
});

test('an empty form pressed early gets the page’s own message, and the form back', async () => {
  const api = fakeApi();
  const root = loadIndexAt('/login');
  await userEvent.setup().click(screen.getByRole('button', { name: '登录' }));
  render(standaloneLogin(() => undefined), { container: root });
  expect(await screen.findByText('请输入用户名')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '登录' })).toBeEnabled();
  expect(screen.getByPlaceholderText('请输入用户名')).toBeEnabled();
  expect(api.calls).not.toContain('POST /api/login');
});

test('钉钉登录 pressed early leaves for DingTalk once the page takes over', async () => {
  fakeApi();
  const config: RuntimeConfig = { ...fullConfig, dingtalk: DINGTALK };
  localStore.set(StorageKey.ClientConfig, config);
  appStore.set(runtimeConfigAtom, config);
  const leave = jest.spyOn(browserExit, 'leaveFor').mockImplementation(() => undefined);
  const root = loadIndexAt('/login');
  await userEvent.setup().click(screen.getByRole('button', { name: '钉钉登录' }));
  expect(screen.getByRole('button', { name: '钉钉登录' })).toBeDisabled();
  expect(leave).not.toHaveBeenCalled();
  render(standaloneLogin(() => undefined), { container: root });
  await waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
  expect(leave.mock.calls[0][0]).toMatch(/^https:\/\/login\.dingtalk\.com\/oauth2\/auth\?.*client_id=ding-app/);
});
