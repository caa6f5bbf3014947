// The sign-in page before the app: it works without the router (which must not even load: the
// mock below throws when anything imports it), and hands the page over to the app when it moves
// on: signed in, a link followed, or a session begun in another tab.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore, navigateTo, tokenAtom } from '@app/shared';
import { fakeApi, homeOf, resetSignInPage, signedInResult } from '../../testing/fakeApi';
import { standaloneLogin } from './StandaloneLogin';

jest.mock('react-router-dom', () => {
  throw new Error('the router was loaded before sign-in');
});
jest.mock('react-router', () => {
  throw new Error('the router was loaded before sign-in');
});
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

const session = signedInResult;

beforeEach(resetSignInPage);
afterEach(cleanup);

function start() {
  const handOver = jest.fn();
  render(standaloneLogin(handOver));
  return handOver;
}

test('signing in goes to the home page and hands over to the app, once', async () => {
  const api = fakeApi({ home: homeOf({ file: false }), handlers: { 'POST /api/login': () => ({ data: { code: 200, message: null, result: session } }) } });
  const handOver = start();
  const user = userEvent.setup();
  await user.type(await screen.findByPlaceholderText('请输入用户名'), 'zhangsan');
  await user.type(screen.getByPlaceholderText('请输入密码'), 'Given-Passw0rd{Enter}');
  await waitFor(() => expect(window.location.pathname).toBe('/workflow/list'));
  expect(appStore.get(tokenAtom)).toBe('new-token');
  expect(api.calls).toContain('POST /api/login');
  expect(handOver).toHaveBeenCalledTimes(1);
});

test('a refused sign-in stays on the page with its message', async () => {
  fakeApi({ handlers: { 'POST /api/login': () => ({ status: 400, data: { code: 40001, result: null, message: '用户名或密码错误' } }) } });
  const handOver = start();
  const user = userEvent.setup();
  await user.type(await screen.findByPlaceholderText('请输入用户名'), 'zhangsan');
  await user.type(screen.getByPlaceholderText('请输入密码'), 'wrong{Enter}');
  expect(await screen.findByText('用户名或密码错误')).toBeInTheDocument();
  expect(window.location.pathname).toBe('/login');
  expect(handOver).not.toHaveBeenCalled();
});

test('a link of the page (服务协议) goes there through the app', async () => {
  fakeApi();
  const handOver = start();
  await userEvent.setup().click(await screen.findByRole('link', { name: '服务协议' }));
  expect(window.location.pathname).toBe('/service');
  expect(handOver).toHaveBeenCalledTimes(1);
});

test('a session begun elsewhere (another tab) hands over; code outside React navigates the same way', async () => {
  fakeApi();
  const handOver = start();
  await screen.findByPlaceholderText('请输入用户名');
  act(() => appStore.set(tokenAtom, 'from-another-tab'));
  expect(handOver).toHaveBeenCalledTimes(1);

  const second = start();
  navigateTo('/privacy');
  expect(window.location.pathname).toBe('/privacy');
  expect(second).toHaveBeenCalledTimes(1);
});
