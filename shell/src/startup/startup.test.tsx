import { act, render, screen } from '@testing-library/react';
import { registerRemotes } from '@module-federation/enhanced/runtime';
import { appStore, resetAppState, resetSessionState, simpleModeAtom, tokenAtom, userInfoAtom } from '@app/shared';
import { resetRegisteredRemotes } from '../federation/remotes';
import { LoadingScreen } from '../pages/LoadingScreen';
import { allOn, fakeApi, fullConfig, homeOf } from '../testing/shellHarness';
import { hashEntry, isSimpleMode, startsWithSignIn, startUp } from './startup';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));
const mockedRegister = registerRemotes as jest.MockedFunction<typeof registerRemotes>;
const registeredNames = () => mockedRegister.mock.calls.flatMap((c) => (c[0] as { name: string }[]).map((r) => r.name));

afterEach(() => jest.restoreAllMocks());

const at = (pathname: string, hash = '') => ({ pathname, search: '', hash });

beforeEach(() => {
  resetAppState();
  resetSessionState();
  resetRegisteredRemotes();
  mockedRegister.mockClear();
  localStorage.clear();
});

describe('start-up', () => {
  it('without a token: registers only what public pages need and redirects nothing', async () => {
    fakeApi();
    expect(await startUp(fullConfig, at('/workflow/list'))).toEqual({ replaceWith: null });
    expect(registeredNames()).toEqual(['files', 'share']);
  });

  it('signed out at /login or /: no remotes yet (the app registers them when it loads)', async () => {
    fakeApi();
    expect(await startUp(fullConfig, at('/login'))).toEqual({ replaceWith: null });
    expect(await startUp(fullConfig, at('/'))).toEqual({ replaceWith: null });
    expect(registeredNames()).toEqual([]);
  });

  it('a preview link opened without a session registers the files remote for the preview page', async () => {
    fakeApi();
    expect(await startUp(fullConfig, at('/preview/eyJmaWxlSWQiOiIxIn0'))).toEqual({ replaceWith: null });
    expect(registeredNames()).toContain('files');
  });

  it('takes over a temporarily-token session, loads menus, and applies the redirect rule', async () => {
    const api = fakeApi({ home: homeOf({ workflow: false }) });
    localStorage.setItem('temporarily-token', 'handoff');
    localStorage.setItem('handoff', JSON.stringify({ accessToken: 'tmp', accessUserInfo: { nickName: '访客' } }));
    const result = await startUp(fullConfig, at('/workflow/list'));
    expect(appStore.get(tokenAtom)).toBe('tmp');
    expect(appStore.get(userInfoAtom)?.nickName).toBe('访客');
    expect(localStorage.getItem('temporarily-token')).toBeNull();
    expect(api.calls).toContain('GET /api/User/Home');
    expect(result.replaceWith).toBe('/file/personal');
    expect(registeredNames().sort()).toEqual(['files', 'share', 'swapspace', 'workflow']);
  });

  it('paths of a shown menu, or of no menu, are left alone', async () => {
    fakeApi();
    appStore.set(tokenAtom, 't');
    expect((await startUp(fullConfig, at('/file/public/1/2'))).replaceWith).toBeNull();
    expect((await startUp(fullConfig, at('/error-log/list'))).replaceWith).toBeNull();
  });

  it('swallows start-up failures', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    fakeApi({ handlers: { 'GET /api/User/Home': () => ({ status: 500, data: 'down' }) } });
    appStore.set(tokenAtom, 't');
    await expect(startUp(fullConfig, at('/file/personal'))).resolves.toEqual({ replaceWith: null });
  });

  it('simple mode (runtime mode or a ferry home) registers only ferry', async () => {
    fakeApi({ home: { baseHome: '/ferry/file', roles: { personalSpace: true, publicSpace: true }, menus: [{ name: 'ferry', path: '/ferry/file', title: '文件摆渡', isShow: true }] }, policy: allOn });
    appStore.set(tokenAtom, 't');
    await startUp(fullConfig, at('/ferry/file'));
    expect(appStore.get(simpleModeAtom)).toBe(true);
    expect(registeredNames()).toEqual(['ferry']);
    expect(isSimpleMode({ ...fullConfig, mode: 'simple' }, null)).toBe(true);
    expect(isSimpleMode(fullConfig, homeOf())).toBe(false);
  });

  it('old hash links: authorize login and the authorization page', () => {
    expect(hashEntry('#/login?authorize=abc')).toBe('/login?authorize=abc');
    expect(hashEntry('#/authorization?x=1')).toBe('/authorization?x=1');
    expect(hashEntry('#/file')).toBeNull();
  });
});

describe('the first page', () => {
  it('signed out at / or /login: the sign-in page alone (no router yet); anything else: the app', () => {
    expect(startsWithSignIn('/login', false)).toBe(true);
    expect(startsWithSignIn('/', false)).toBe(true);
    expect(startsWithSignIn('/login', true)).toBe(false);
    expect(startsWithSignIn('/', true)).toBe(false);
    for (const path of ['/file/personal', '/s/AbCd', '/preview/x', '/authorization', '/signUp', '/service']) expect(startsWithSignIn(path, false)).toBe(false);
  });
});

describe('loading screen', () => {
  it('shows 加载中 and fills 1 % every 30 ms', () => {
    jest.useFakeTimers();
    const done = jest.fn();
    render(<LoadingScreen onComplete={done} />);
    expect(screen.getByText('加载中')).toBeInTheDocument();
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    for (let i = 0; i < 50; i += 1) act(() => jest.advanceTimersByTime(30));
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    for (let i = 0; i < 50; i += 1) act(() => jest.advanceTimersByTime(30));
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(done).toHaveBeenCalledTimes(1);
    jest.useRealTimers();
  });

  it('is complete at once when a client configuration is cached', () => {
    const done = jest.fn();
    render(<LoadingScreen immediate onComplete={done} />);
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(done).toHaveBeenCalledTimes(1);
  });
});
