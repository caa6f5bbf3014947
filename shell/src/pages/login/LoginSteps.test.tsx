import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appStore, tokenAtom } from '@app/shared';
import { fakeModules } from '../../testing/fakeRemotes';
import { allOn, fakeApi, fullConfig, homeOf, renderShell, resetShell, signedInResult } from '../../testing/shellHarness';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { browserExit } from './browserExit';
import { resetDingtalkSdkForTests } from './DingtalkQrPanel';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.mock('@ant-design/colors/es/generate', () => jest.requireActual('@ant-design/colors/lib/generate'));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(20_000);

const location = () => screen.getByTestId('location').textContent;
const envelope = (result: unknown) => ({ data: { code: 200, message: null, result } });
const refusal = (message: string) => ({ status: 400, data: { code: 40001, result: null, message } });

const session = signedInResult;
const stepOf = (flag: 'passwordReset' | 'totpBind' | 'totpCode', extra: Record<string, unknown> = {}) => ({
  userName: 'zhangsan', nickName: '张三', passwordReset: false, totpBind: false, totpCode: false, [flag]: true, actionToken: `act-${flag}`, ...extra,
});
const policy = {
  minLength: 10, requireDigit: true, requireLetter: true, requireSymbol: true, requireMixedCase: false,
  historyCount: 3, expiryDays: 90, lockoutThreshold: 5, lockoutMinutes: 15, totpRequired: false,
};

beforeEach(() => {
  (loadRemote as jest.Mock).mockImplementation(async (id: string) => fakeModules[id] ?? null);
  resetShell();
});

async function signInWith(user: ReturnType<typeof userEvent.setup>) {
  renderShell('/login');
  await user.type(await screen.findByPlaceholderText('请输入用户名'), 'zhangsan');
  await user.type(screen.getByPlaceholderText('请输入密码'), 'Given-Passw0rd{Enter}');
}

it('a forced password change shows the policy as a checklist, checks the fields, then signs in', async () => {
  const bodies: unknown[] = [];
  fakeApi({
    home: homeOf(),
    policy: allOn,
    handlers: {
      'POST /api/login': () => envelope(stepOf('passwordReset', { message: '管理员设置的密码需要您修改后才能继续使用' })),
      'GET /api/Login/PasswordPolicy': () => envelope(policy),
      'POST /api/login/ResetPassword': (config) => {
        const body = JSON.parse(String(config.data));
        bodies.push(body);
        return body.password === 'Used-Before-1!' ? refusal('新密码不能与最近 3 次使用过的密码相同') : envelope(session);
      },
    },
  });
  const user = userEvent.setup();
  await signInWith(user);

  expect(await screen.findByRole('heading', { name: '设置新密码' })).toBeInTheDocument();
  expect(screen.getByText('管理员设置的密码需要您修改后才能继续使用')).toBeInTheDocument();
  expect(appStore.get(tokenAtom)).toBeNull();
  const checklist = await screen.findByRole('list', { name: '密码要求' });
  const rule = (name: string) => within(checklist).getByRole('checkbox', { name: new RegExp(name) });
  expect(rule('至少 10 位')).not.toBeChecked();
  expect(within(checklist).getByText(/不能与最近 3 次使用过的密码相同/)).toBeInTheDocument();

  await user.type(screen.getByLabelText('新密码'), 'short1');
  expect(rule('包含数字')).toBeChecked();
  expect(rule('包含符号')).not.toBeChecked();
  await user.click(screen.getByRole('button', { name: '确认并登录' }));
  expect(screen.getByRole('alert')).toHaveTextContent('新密码不符合密码要求');
  expect(bodies).toEqual([]);

  await user.clear(screen.getByLabelText('新密码'));
  await user.type(screen.getByLabelText('新密码'), 'Used-Before-1!');
  expect(rule('至少 10 位')).toBeChecked();
  await user.type(screen.getByLabelText('确认新密码'), 'Used-Before-2!');
  await user.click(screen.getByRole('button', { name: '确认并登录' }));
  expect(screen.getByRole('alert')).toHaveTextContent('两次输入的密码不一致');

  await user.clear(screen.getByLabelText('确认新密码'));
  await user.type(screen.getByLabelText('确认新密码'), 'Used-Before-1!');
  await user.click(screen.getByRole('button', { name: '确认并登录' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('新密码不能与最近 3 次使用过的密码相同');

  await user.clear(screen.getByLabelText('新密码'));
  await user.type(screen.getByLabelText('新密码'), 'Brand-New-9!x');
  await user.clear(screen.getByLabelText('确认新密码'));
  await user.type(screen.getByLabelText('确认新密码'), 'Brand-New-9!x{Enter}');
  await waitFor(() => expect(appStore.get(tokenAtom)).toBe('new-token'));
  expect(bodies.at(-1)).toEqual({ actionToken: 'act-passwordReset', password: 'Brand-New-9!x' });
  await waitFor(() => expect(location()).not.toBe('/login'));
});

it('binding TOTP shows the QR code and the key, refuses a malformed code, then signs in', async () => {
  const uri = 'otpauth://totp/%E4%BA%91%E6%96%87%E6%A1%A3:zhangsan?issuer=%E4%BA%91%E6%96%87%E6%A1%A3&secret=JBSWY3DPEHPK3PXPJBSWY3DP&algorithm=SHA1&digits=6&period=30';
  const codes: string[] = [];
  fakeApi({
    home: homeOf(),
    policy: allOn,
    handlers: {
      'POST /api/login': () => envelope(stepOf('totpBind', { totpUri: uri, totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DP' })),
      'POST /api/login/TotpBind': (config) => {
        const { code, actionToken } = JSON.parse(String(config.data));
        expect(actionToken).toBe('act-totpBind');
        codes.push(code);
        return code === '123456' ? refusal('动态口令错误，请确认手机时间准确后重新输入') : envelope(session);
      },
    },
  });
  const user = userEvent.setup();
  await signInWith(user);
  expect(await screen.findByRole('heading', { name: '绑定动态口令' })).toBeInTheDocument();
  expect(screen.getByLabelText('密钥')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
  expect(await screen.findByLabelText('绑定动态口令的二维码')).toBeInTheDocument();

  await user.type(screen.getByLabelText('动态口令'), '12a3');
  expect(screen.getByLabelText('动态口令')).toHaveValue('123');
  await user.click(screen.getByRole('button', { name: '绑定并登录' }));
  expect(screen.getByRole('alert')).toHaveTextContent('请输入 6 位动态口令');
  await user.type(screen.getByLabelText('动态口令'), '456{Enter}');
  expect(await screen.findByRole('alert')).toHaveTextContent('动态口令错误');
  await user.clear(screen.getByLabelText('动态口令'));
  await user.type(screen.getByLabelText('动态口令'), '654321{Enter}');
  await waitFor(() => expect(appStore.get(tokenAtom)).toBe('new-token'));
  expect(codes).toEqual(['123456', '654321']);
});

it('a TOTP code step that the server ends goes back to the sign-in form with its message', async () => {
  fakeApi({
    handlers: {
      'POST /api/login': () => envelope(stepOf('totpCode')),
      'POST /api/login/TotpCode': () => refusal('动态口令错误次数过多，请重新登录'),
    },
  });
  const user = userEvent.setup();
  await signInWith(user);
  expect(await screen.findByRole('heading', { name: '两步验证' })).toBeInTheDocument();
  await user.type(screen.getByLabelText('动态口令'), '111111{Enter}');
  expect(await screen.findByRole('alert')).toHaveTextContent('动态口令错误次数过多，请重新登录');
  expect(screen.getByPlaceholderText('请输入用户名')).toHaveValue('zhangsan');
  expect(screen.getByPlaceholderText('请输入密码')).toHaveValue('');
  expect(appStore.get(tokenAtom)).toBeNull();

  // 返回登录 leaves a step without a word
  await user.type(screen.getByPlaceholderText('请输入密码'), 'again{Enter}');
  await user.click(await screen.findByRole('button', { name: '返回登录' }));
  expect(screen.getByRole('button', { name: '登录' })).toBeEnabled();
  expect(location()).toBe('/login');
});

describe('钉钉登录', () => {
  const withDingtalk = { ...fullConfig, dingtalk: { appId: 'dingapp', authorizeUrl: 'https://login.dingtalk.com/oauth2/auth' } };

  it('sends the browser to DingTalk with a state, and signs in with the code it brings back', async () => {
    resetShell(withDingtalk);
    const assign = jest.spyOn(browserExit, 'leaveFor').mockImplementation(() => undefined);
    try {
      fakeApi();
      const user = userEvent.setup();
      renderShell('/login');
      await user.click(await screen.findByRole('button', { name: '钉钉登录' }));
      const target = new URL(assign.mock.calls[0][0]);
      expect(target.origin + target.pathname).toBe('https://login.dingtalk.com/oauth2/auth');
      expect(Object.fromEntries(target.searchParams)).toMatchObject({
        client_id: 'dingapp', response_type: 'code', scope: 'openid', redirect_uri: `${window.location.origin}/login`, prompt: 'consent',
      });
      const state = target.searchParams.get('state') as string;
      expect(state).toMatch(/^[0-9a-f]{32}$/);

      // DingTalk comes back to /login with the code and the same state
      const sent: unknown[] = [];
      fakeApi({
        home: homeOf(),
        policy: allOn,
        handlers: {
          'POST /api/login/LoginWithDingtalk': (config) => {
            sent.push(config.params);
            return envelope(session);
          },
        },
      });
      cleanup();
      renderShell(`/login?authCode=dt-code-1&state=${state}`);
      await waitFor(() => expect(appStore.get(tokenAtom)).toBe('new-token'));
      expect(sent).toEqual([{ code: 'dt-code-1', appId: 'dingapp' }]);
    } finally {
      assign.mockRestore();
    }
  });

  it('a code with a state this tab never sent signs nobody in', async () => {
    resetShell(withDingtalk);
    const api = fakeApi();
    renderShell('/login?authCode=dt-code-2&state=forged');
    expect(await screen.findByRole('alert')).toHaveTextContent('钉钉登录已失效');
    expect(api.calls).not.toContain('POST /api/login/LoginWithDingtalk');
    expect(location()).toBe('/login');
    expect(appStore.get(tokenAtom)).toBeNull();
  });

  describe('in the QR mode', () => {
    const withQr = {
      ...fullConfig,
      dingtalk: { appId: 'dingapp', authorizeUrl: 'https://login.dingtalk.com/oauth2/auth', mode: 'qr' as const, sdkUrl: 'https://cdn.example.com/ddlogin.js' },
    };
    type Draw = (frame: { id: string }, params: Record<string, string>, ok: (r: { authCode: string; state: string; redirectUrl: string }) => void, fail: (m: string) => void) => void;
    afterEach(() => resetDingtalkSdkForTests());

    it('draws DingTalk’s QR code in the page and signs in with the code it hands back; a foreign state signs nobody in', async () => {
      resetShell(withQr);
      const drawn: { frame: { id: string }; params: Record<string, string>; ok: Parameters<Draw>[2] }[] = [];
      // DingTalk's script (it cannot be fetched here): records what the page asks it to draw
      (window as unknown as { DTFrameLogin: Draw }).DTFrameLogin = (frame, params, ok) => drawn.push({ frame, params, ok });
      const leave = jest.spyOn(browserExit, 'leaveFor').mockImplementation(() => undefined);
      const sent: unknown[] = [];
      fakeApi({
        home: homeOf(),
        policy: allOn,
        handlers: {
          'POST /api/login/LoginWithDingtalk': (config) => {
            sent.push(config.params);
            return envelope(session);
          },
        },
      });
      try {
        const user = userEvent.setup();
        renderShell('/login');
        await user.click(await screen.findByRole('button', { name: '钉钉登录' }));
        expect(await screen.findByRole('region', { name: '钉钉扫码登录' })).toHaveTextContent('请使用钉钉扫描二维码登录');
        expect(leave).not.toHaveBeenCalled();
        await waitFor(() => expect(drawn).toHaveLength(1));
        expect(document.getElementById(drawn[0].frame.id)).not.toBeNull();
        expect(drawn[0].params).toMatchObject({
          client_id: 'dingapp', response_type: 'code', scope: 'openid', prompt: 'consent',
          redirect_uri: encodeURIComponent(`${window.location.origin}/login`),
        });
        const state = drawn[0].params.state;
        expect(state).toMatch(/^[0-9a-f]{32}$/);

        // a code with another state (not this tab's): refused, nothing sent
        drawn[0].ok({ authCode: 'dt-forged', state: 'f'.repeat(32), redirectUrl: '' });
        await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('钉钉登录已失效'));
        expect(sent).toEqual([]);

        // again, with the state the page gave
        await user.click(screen.getByRole('button', { name: '钉钉登录' }));
        await waitFor(() => expect(drawn).toHaveLength(2));
        drawn[1].ok({ authCode: 'dt-code-qr', state: drawn[1].params.state, redirectUrl: '' });
        await waitFor(() => expect(appStore.get(tokenAtom)).toBe('new-token'));
        expect(sent).toEqual([{ code: 'dt-code-qr', appId: 'dingapp' }]);
      } finally {
        leave.mockRestore();
      }
    });

    it('says so when DingTalk’s script cannot be loaded, and the password form stays', async () => {
      resetShell(withQr);
      fakeApi();
      const user = userEvent.setup();
      renderShell('/login');
      await user.click(await screen.findByRole('button', { name: '钉钉登录' }));
      const script = await waitFor(() => {
        const el = document.head.querySelector('script[src="https://cdn.example.com/ddlogin.js"]');
        expect(el).not.toBeNull();
        return el as HTMLScriptElement;
      });
      script.dispatchEvent(new Event('error'));
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('钉钉扫码组件加载失败'));
      expect(screen.queryByRole('region', { name: '钉钉扫码登录' })).toBeNull();
      expect(screen.getByPlaceholderText('请输入用户名')).toBeInTheDocument();
      expect(document.head.querySelector('script[src="https://cdn.example.com/ddlogin.js"]')).toBeNull();
    });
  });

  it('no button without DingTalk in the configuration', async () => {
    fakeApi();
    renderShell('/login');
    await screen.findByRole('button', { name: '登录' });
    expect(screen.queryByRole('button', { name: '钉钉登录' })).toBeNull();
  });
});

it('a sign-in that carries a client’s authorize request goes on to /authorization, not home', async () => {
  fakeApi({
    home: homeOf(),
    policy: allOn,
    handlers: {
      'POST /api/login': () => envelope(session),
      'GET /api/OAuth/Request': () =>
        envelope({ clientId: 'c1', clientName: '云文档桌面同步', redirectUri: 'http://127.0.0.1:1/cb', scopes: [{ name: 'profile', description: '账号信息' }] }),
    },
  });
  const user = userEvent.setup();
  renderShell('/login?authorize=client_id%3Dc1');
  await user.type(await screen.findByPlaceholderText('请输入用户名'), 'zhangsan');
  await user.type(screen.getByPlaceholderText('请输入密码'), 'secret{Enter}');
  expect(await screen.findByText('云文档桌面同步')).toBeInTheDocument();
  expect(location()).toBe('/authorization');
  // and it stays there
  await new Promise((r) => setTimeout(r, 300));
  expect(location()).toBe('/authorization');
});
