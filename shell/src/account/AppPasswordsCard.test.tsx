// 个人设置 → WebDAV 与应用密码: the address and the instructions, the list, 新建 (the password shown
// once with a copy button, the server's refusal in the form) and 撤销 after a confirmation.
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { fakeModules } from '../testing/fakeRemotes';
import { fakeApi, renderShell, resetShell, signedIn } from '../testing/shellHarness';
import { useInlineStylesOnly } from '@app/shared/test';
import { davsAddress } from './AppPasswordsCard';

jest.mock('@ant-design/colors/es/generate', () => jest.requireActual('@ant-design/colors/lib/generate'));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);
useInlineStylesOnly();

const envelope = (result: unknown) => ({ data: { code: 200, message: null, result } });
const refusal = (message: string) => ({ status: 400, data: { code: 40001, result: null, message } });
const security = { totpBound: false, totpRequired: false, passwordChangedAt: '2026-11-01 09:00', passwordExpiresAt: null, passwordElsewhere: null };
const policy = {
  minLength: 8, requireDigit: true, requireLetter: true, requireSymbol: false, requireMixedCase: false,
  historyCount: 3, expiryDays: 0, lockoutThreshold: 5, lockoutMinutes: 15, totpRequired: false, webdavAccountPassword: false,
};

beforeEach(() => {
  (loadRemote as jest.Mock).mockImplementation(async (id: string) => fakeModules[id] ?? null);
  resetShell();
  signedIn();
});

function setup(o: { policy?: Partial<typeof policy>; security?: Partial<typeof security> } = {}) {
  let list = [
    { id: '11', name: '家里的电脑', scope: 'readWrite', createdAt: '2026-11-20 09:00:00', lastUsedAt: '2026-11-26 21:30:00', lastUsedIp: '203.0.113.7' },
    { id: '12', name: 'rclone 备份', scope: 'readOnly', createdAt: '2026-11-21 10:00:00', lastUsedAt: null, lastUsedIp: '' },
  ];
  const bodies: any[] = [];
  const api = fakeApi({
    handlers: {
      'GET /api/account/Security': () => envelope({ ...security, ...o.security }),
      'GET /api/account/Sessions': () => envelope([]),
      'GET /api/Login/PasswordPolicy': () => envelope({ ...policy, ...o.policy }),
      'GET /api/account/Clients': () => envelope([]),
      'GET /api/Account/NoticeSettings': () => envelope({ kinds: [], channels: [], rows: [], digest: 'hourly', dailyHour: 8, email: '' }),
      'GET /api/Account/SignIns': () => envelope({ data: [], total: 0, more: false }),
      'GET /api/Account/AppPasswords': () => envelope(list),
      'POST /api/Account/AppPasswords': (config) => {
        const body = JSON.parse(String(config.data));
        bodies.push(body);
        if (body.name === '重复') return refusal('最多保留 50 个应用密码，请先撤销不再使用的');
        const made = { id: '13', name: body.name, scope: body.scope, createdAt: '2026-11-27 08:00:00', lastUsedAt: null, lastUsedIp: '' };
        list = [made, ...list];
        return envelope({ ...made, password: 'abcde-fghjk-mnpqr-stvwx-yz012-34567', userName: 'zhangsan' });
      },
      'DELETE /api/Account/AppPasswords/11': () => {
        const gone = list.find((p) => p.id === '11');
        list = list.filter((p) => p.id !== '11');
        return envelope(gone);
      },
    },
  });
  return { api, bodies };
}

const card = async () => (await screen.findByText('WebDAV 与应用密码', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;

it('shows the WebDAV address, the user name and per-system instructions, and lists the passwords without secrets', async () => {
  setup();
  const user = userEvent.setup();
  renderShell('/account');
  const c = await card();
  expect(within(c).getByLabelText('WebDAV 地址')).toHaveTextContent(`${location.origin}/dav/`);
  expect(await within(c).findByText(/（登录密码不能用于 WebDAV）/)).toBeInTheDocument();
  expect(within(c).getByText(/上传（覆盖已有文件时保留历史版本）/)).toBeInTheDocument();
  const table = await within(c).findByRole('table', { name: '应用密码' });
  expect(await within(table).findByText('家里的电脑')).toBeInTheDocument();
  expect(within(table).getByText('读写')).toBeInTheDocument();
  expect(within(table).getByText('只读')).toBeInTheDocument();
  expect(within(table).getByText('2026-11-26 21:30:00 · 203.0.113.7')).toBeInTheDocument();
  expect(within(table).getByText('从未使用')).toBeInTheDocument();
  for (const label of ['Windows：映射网络驱动器', 'macOS：连接服务器', 'Linux：文件管理器', 'rclone']) expect(within(c).getByText(label)).toBeInTheDocument();
  await user.click(within(c).getByText('Linux：文件管理器'));
  expect(await within(c).findByText(davsAddress(`${location.origin}/dav/`))).toBeInTheDocument();
  expect(davsAddress('https://pan.example.com/dav/')).toBe('davs://pan.example.com/dav/');
  await user.click(within(c).getByText('rclone'));
  expect(await within(c).findByText(/rclone config create yunwendang webdav url=.*\/dav\/ vendor=other user=zhangsan/)).toBeInTheDocument();
});

it('新建 checks the name, shows the server’s refusal, then shows the password once with 复制; the list gains it', async () => {
  const { bodies } = setup();
  const user = userEvent.setup();
  renderShell('/account');
  const c = await card();
  await user.click(within(c).getByRole('button', { name: /新建应用密码/ }));
  let dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
  expect(await within(dialog).findByText('请填写名称，例如“家里的电脑”')).toBeInTheDocument();
  expect(bodies).toEqual([]);
  await user.type(within(dialog).getByLabelText('名称'), '重复');
  await user.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
  expect(await within(dialog).findByText('最多保留 50 个应用密码，请先撤销不再使用的')).toBeInTheDocument();

  await user.clear(within(dialog).getByLabelText('名称'));
  await user.type(within(dialog).getByLabelText('名称'), '办公室 Mac');
  await user.click(within(dialog).getByLabelText('读写'));
  await user.click(within(dialog).getByRole('button', { name: /创\s*建/ }));
  await waitFor(() => expect(bodies.at(-1)).toEqual({ name: '办公室 Mac', scope: 'readWrite' }));
  dialog = await screen.findByRole('dialog');
  expect(await within(dialog).findByText('应用密码只显示这一次，关闭后无法再查看；请立即填入 WebDAV 客户端。')).toBeInTheDocument();
  expect(within(dialog).getByText('abcde-fghjk-mnpqr-stvwx-yz012-34567')).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: /复\s*制/ }));
  expect(await screen.findByText('应用密码已复制')).toBeInTheDocument();
  expect(await navigator.clipboard.readText()).toBe('abcde-fghjk-mnpqr-stvwx-yz012-34567');
  await user.click(within(dialog).getByRole('button', { name: '我已记下' }));
  await waitFor(() => expect(screen.queryByText('abcde-fghjk-mnpqr-stvwx-yz012-34567')).not.toBeInTheDocument());
  const table = within(c).getByRole('table', { name: '应用密码' });
  expect(await within(table).findByText('办公室 Mac')).toBeInTheDocument();
});

it('says the account password works too where the administrator allows it, and that application passwords are safer', async () => {
  setup({ policy: { webdavAccountPassword: true } });
  renderShell('/account');
  const c = await card();
  expect(await within(c).findByText(/管理员也允许使用登录密码，但应用密码更安全/)).toBeInTheDocument();
});

it('with TOTP bound, the account password is not offered even where it is allowed', async () => {
  setup({ policy: { webdavAccountPassword: true }, security: { totpBound: true } });
  renderShell('/account');
  const c = await card();
  expect(await within(c).findByText(/你已启用动态口令，登录密码不能用于 WebDAV/)).toBeInTheDocument();
});

it('撤销 asks first, then the password is gone from the list', async () => {
  const { api } = setup();
  const user = userEvent.setup();
  renderShell('/account');
  const c = await card();
  const table = await within(c).findByRole('table', { name: '应用密码' });
  await user.click(await within(table).findByRole('button', { name: '撤销 家里的电脑' }));
  const confirm = await screen.findByRole('dialog');
  expect(within(confirm).getByText(/使用“家里的电脑”的设备和程序将无法再连接 WebDAV/)).toBeInTheDocument();
  expect(api.calls).not.toContain('DELETE /api/Account/AppPasswords/11');
  await user.click(within(confirm).getByRole('button', { name: /撤\s*销/ }));
  await waitFor(() => expect(api.calls).toContain('DELETE /api/Account/AppPasswords/11'));
  expect(await screen.findByText('已撤销“家里的电脑”')).toBeInTheDocument();
  await waitFor(() => expect(within(table).queryByText('家里的电脑')).not.toBeInTheDocument());
  expect(within(table).getByText('rclone 备份')).toBeInTheDocument();
});
