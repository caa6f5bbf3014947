import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { fakeModules } from '../../testing/fakeRemotes';
import { fakeApi, renderShell, resetShell, signedIn } from '../../testing/shellHarness';
import { browserExit } from '../login/browserExit';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.mock('@ant-design/colors/es/generate', () => jest.requireActual('@ant-design/colors/lib/generate'));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

configure({ asyncUtilTimeout: 8000 });

const envelope = (result: unknown) => ({ data: { code: 200, message: null, result } });
const request = 'client_id=client_1&redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcb&scope=profile+files&state=s1&code_challenge=abc&code_challenge_method=S256';
const path = `/authorization?authorize=${encodeURIComponent(request)}`;
const info = {
  clientId: 'client_1',
  clientName: '云文档桌面同步',
  redirectUri: 'http://127.0.0.1:5000/cb',
  scopes: [
    { name: 'profile', description: '账号信息：用户名、姓名、部门和头像' },
    { name: 'files', description: '文件：以你的身份查看、上传、下载和管理你有权访问的个人与企业文件' },
  ],
};

let leave: jest.SpyInstance;
beforeEach(() => {
  (loadRemote as jest.Mock).mockImplementation(async (id: string) => fakeModules[id] ?? null);
  resetShell();
  leave = jest.spyOn(browserExit, 'leaveFor').mockImplementation(() => undefined);
});
afterEach(() => leave.mockRestore());

it('names the client, the account and the scopes; 授权 sends the browser to the address the server gives', async () => {
  signedIn();
  const answers: unknown[] = [];
  fakeApi({
    handlers: {
      'GET /api/OAuth/Request': (config) => {
        expect(config.params.request).toBe(request);
        return envelope(info);
      },
      'POST /api/OAuth/Authorize': (config) => {
        const body = JSON.parse(String(config.data));
        answers.push(body);
        return envelope({ redirectTo: `http://127.0.0.1:5000/cb?state=s1&${body.approve ? 'code=c-1' : 'error=access_denied'}` });
      },
    },
  });
  const user = userEvent.setup();
  renderShell(path);
  expect(await screen.findByText('云文档桌面同步')).toBeInTheDocument();
  expect(screen.getByText('当前账号：张三')).toBeInTheDocument();
  expect(screen.getByRole('list', { name: '授权范围' })).toHaveTextContent('账号信息：用户名、姓名、部门和头像');
  await user.click(screen.getByRole('button', { name: '授权' }));
  await waitFor(() => expect(leave).toHaveBeenCalledWith('http://127.0.0.1:5000/cb?state=s1&code=c-1'));
  expect(answers).toEqual([{ request, approve: true }]);
});

it('拒绝 answers access_denied; a bad request shows the server’s reason and no buttons', async () => {
  signedIn();
  fakeApi({
    handlers: {
      'GET /api/OAuth/Request': () => envelope(info),
      'POST /api/OAuth/Authorize': () => envelope({ redirectTo: 'http://127.0.0.1:5000/cb?state=s1&error=access_denied' }),
    },
  });
  const user = userEvent.setup();
  const { unmount } = renderShell(path);
  await user.click(await screen.findByRole('button', { name: '拒绝' }));
  await waitFor(() => expect(leave).toHaveBeenCalledWith('http://127.0.0.1:5000/cb?state=s1&error=access_denied'));
  unmount();

  fakeApi({ handlers: { 'GET /api/OAuth/Request': () => ({ status: 400, data: { code: 40001, result: null, message: '授权请求无效：回调地址未登记' } }) } });
  renderShell(path);
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('授权请求无效：回调地址未登记'));
  expect(screen.queryByRole('button', { name: '授权' })).toBeNull();
});

it('without a session it asks to sign in first, keeping the request', async () => {
  fakeApi();
  renderShell(path);
  const link = await screen.findByRole('link', { name: '登录' });
  expect(link).toHaveAttribute('href', `/login?authorize=${encodeURIComponent(request)}`);
});
