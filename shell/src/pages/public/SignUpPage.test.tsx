import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { fakeModules } from '../../testing/fakeRemotes';
import { fakeApi, renderShell, resetShell } from '../../testing/shellHarness';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

jest.mock('@ant-design/colors/es/generate', () => jest.requireActual('@ant-design/colors/lib/generate'));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(30_000);

const envelope = (result: unknown) => ({ data: { code: 200, message: null, result } });
const policy = {
  minLength: 8, requireDigit: true, requireLetter: true, requireSymbol: false, requireMixedCase: false,
  historyCount: 3, expiryDays: 0, lockoutThreshold: 5, lockoutMinutes: 15, totpRequired: false, webdavAccountPassword: false,
};

beforeEach(() => {
  (loadRemote as jest.Mock).mockImplementation(async (id: string) => fakeModules[id] ?? null);
  resetShell();
});
afterEach(() => {
  jest.useRealTimers();
});

it('asks for a code with a 60-second resend timer, checks every field, files the application and shows the result', async () => {
  jest.useFakeTimers();
  const codeCalls: string[] = [];
  const bodies: any[] = [];
  fakeApi({
    handlers: {
      'GET /api/Login/PasswordPolicy': () => envelope(policy),
      'POST /api/User/Register/SendVerifyCode': (config) => {
        codeCalls.push(String(config.params.phone));
        return envelope({ resendAfter: 60, expiresIn: 600 });
      },
      'POST /api/User/Register': (config) => {
        const body = JSON.parse(String(config.data));
        bodies.push(body);
        if (body.code === '000000') return { status: 400, data: { code: 40001, result: null, message: '验证码错误' } };
        return envelope({
          id: '5', phone: body.phone, userName: body.userName, nickName: body.nickName, department: body.department, reason: body.reason,
          status: 'pending', createdAt: '2026-11-24 10:00', decidedAt: null, decisionNote: '', userId: null,
        });
      },
    },
  });
  const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
  renderShell('/signUp');
  expect(await screen.findByRole('heading', { name: '申请注册' })).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: '获取验证码' }));
  expect(screen.getByRole('alert')).toHaveTextContent('请输入正确的 11 位手机号');
  expect(codeCalls).toEqual([]);
  await user.type(screen.getByLabelText('手机号'), '13912345678');
  await user.click(screen.getByRole('button', { name: '获取验证码' }));
  expect(await screen.findByRole('button', { name: '60 秒后重新获取' })).toBeDisabled();
  expect(screen.getByText('验证码已发送至 139****5678，10 分钟内有效')).toBeInTheDocument();
  expect(codeCalls).toEqual(['13912345678']);
  // the timer ticks once a second
  const tick = () =>
    act(async () => {
      jest.advanceTimersByTime(1_000);
    });
  for (let i = 0; i < 59; i++) await tick();
  expect(screen.getByRole('button', { name: '1 秒后重新获取' })).toBeDisabled();
  await tick();
  expect(screen.getByRole('button', { name: '重新获取' })).toBeEnabled();

  const submit = () => user.click(screen.getByRole('button', { name: '提交申请' }));
  await submit();
  expect(screen.getByRole('alert')).toHaveTextContent('请输入 6 位短信验证码');
  await user.type(screen.getByLabelText('短信验证码'), '000000');
  await user.type(screen.getByLabelText('用户名'), ' lisi ');
  await user.type(screen.getByLabelText('姓名'), '李四');
  await user.type(screen.getByLabelText('密码'), 'weak');
  const checklist = screen.getByRole('list', { name: '密码要求' });
  expect(within(checklist).getByRole('checkbox', { name: /至少 8 位/ })).not.toBeChecked();
  await submit();
  expect(screen.getByRole('alert')).toHaveTextContent('密码不符合密码要求');
  await user.clear(screen.getByLabelText('密码'));
  await user.type(screen.getByLabelText('密码'), 'Lisi-Passw0rd');
  await user.type(screen.getByLabelText('确认密码'), 'Lisi-Passw0rd');
  await user.type(screen.getByLabelText('所在部门'), '市场部');
  await submit();
  expect(screen.getByRole('alert')).toHaveTextContent('请先阅读并同意服务协议和隐私政策');
  expect(bodies).toEqual([]);
  await user.click(screen.getByRole('checkbox', { name: /我已阅读并同意/ }));
  await submit();
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('验证码错误'));

  await user.clear(screen.getByLabelText('短信验证码'));
  await user.type(screen.getByLabelText('短信验证码'), '246810');
  await submit();
  expect(await screen.findByRole('heading', { name: '申请已提交' })).toBeInTheDocument();
  expect(screen.getByText(/正在等待管理员审批/)).toHaveTextContent('批准后即可使用用户名“lisi”和您设置的密码登录');
  expect(bodies.at(-1)).toEqual({
    phone: '13912345678', code: '246810', userName: 'lisi', nickName: '李四', password: 'Lisi-Passw0rd', department: '市场部', reason: '',
  });
});
