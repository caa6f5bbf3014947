import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { appStore, userInfoAtom } from '@app/shared';
import { fakeModules } from '../testing/fakeRemotes';
import { fakeApi, renderShell, resetShell, signedIn } from '../testing/shellHarness';
import { useInlineStylesOnly } from '@app/shared/test';

jest.mock('@ant-design/colors/es/generate', () => jest.requireActual('@ant-design/colors/lib/generate'));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);
useInlineStylesOnly();

const envelope = (result: unknown) => ({ data: { code: 200, message: null, result } });
const refusal = (message: string, status = 400) => ({ status, data: { code: status === 400 ? 40001 : 40301, result: null, message } });
const policy = {
  minLength: 8, requireDigit: true, requireLetter: true, requireSymbol: false, requireMixedCase: false,
  historyCount: 3, expiryDays: 90, lockoutThreshold: 5, lockoutMinutes: 15, totpRequired: false, webdavAccountPassword: false,
};
const security = { totpBound: false, totpRequired: false, passwordChangedAt: '2026-11-01 09:00', passwordExpiresAt: '2027-01-30 09:00', passwordElsewhere: null };
const sessions = [
  { id: '7', current: true, createdAt: '2026-11-24 08:00', lastSeenAt: '2026-11-24 10:00', ip: '10.0.0.7', device: 'Chrome · Windows' },
  { id: '9', current: false, createdAt: '2026-11-20 19:00', lastSeenAt: '2026-11-21 08:00', ip: '10.0.0.9', device: 'Safari · iOS' },
];

const signInRecord = (o: Record<string, unknown>) => ({
  id: '1', seq: 1, at: 0, time: '2026-11-24 08:00:00', userId: '5', userName: 'zhangsan', deptPath: '', onBehalfName: '', ip: '10.0.0.7',
  userAgent: 'Mozilla/5.0', device: 'Chrome · Windows', action: 'auth.login', actionName: '登录', objectType: '', objectId: '', objectName: '',
  objectPath: '', result: 'ok', reason: '', requestId: 'r1', detail: { how: '密码' }, ...o,
});
const signIns = [
  signInRecord({ id: '3', time: '2026-11-25 22:10:00', ip: '203.0.113.9', device: 'Firefox · Linux', action: 'auth.login.fail', actionName: '登录失败', result: 'fail', reason: '用户名或密码错误' }),
  signInRecord({ id: '2' }),
];

beforeEach(() => {
  (loadRemote as jest.Mock).mockImplementation(async (id: string) => fakeModules[id] ?? null);
  resetShell();
  signedIn();
});

const noticeSettings = (o: Record<string, unknown> = {}) => ({
  kinds: ['approval.waiting', 'share.received'],
  channels: [
    { key: 'inApp', name: '站内消息', available: true, note: '' },
    { key: 'mail', name: '邮件', available: true, note: '' },
  ],
  rows: [
    { kind: 'approval.waiting', urgent: true, channels: { inApp: { enabled: true, fixed: false }, mail: { enabled: true, fixed: true } } },
    { kind: 'share.received', urgent: false, channels: { inApp: { enabled: true, fixed: false }, mail: { enabled: true, fixed: false } } },
  ],
  digest: 'hourly',
  dailyHour: 8,
  email: 'zhangsan@example.com',
  ...o,
});

function accountApi(extra: Record<string, (config: any) => any> = {}) {
  return fakeApi({
    handlers: {
      'GET /api/account/Security': () => envelope(security),
      'GET /api/account/Sessions': () => envelope(sessions),
      'GET /api/Login/PasswordPolicy': () => envelope(policy),
      'GET /api/account/Clients': () => envelope([]),
      'GET /api/Account/NoticeSettings': () => envelope(noticeSettings()),
      'GET /api/Account/SignIns': () => envelope({ data: signIns, total: signIns.length, more: false }),
      'GET /api/Account/AppPasswords': () => envelope([]),
      ...extra,
    },
  });
}

it('is reached from the user menu and shows the password dates and the sessions', async () => {
  accountApi();
  const user = userEvent.setup();
  renderShell('/file/personal');
  await user.click(await screen.findByRole('button', { name: '用户菜单' }));
  await user.click(await screen.findByText('个人设置'));
  expect(await screen.findByRole('heading', { name: '个人设置' })).toBeInTheDocument();
  expect(screen.getByTestId('location')).toHaveTextContent('/account');
  // the tab is named after the page
  expect(await screen.findByRole('tab', { name: /个人设置/ })).toBeInTheDocument();
  expect(await screen.findByText('上次修改：2026-11-01 09:00，将于 2027-01-30 09:00 到期')).toBeInTheDocument();
  const table = screen.getByRole('table', { name: '我的会话' });
  expect(within(table).getByText('Chrome · Windows')).toBeInTheDocument();
  expect(within(table).getByText('当前')).toBeInTheDocument();
  expect(within(table).getByText('10.0.0.9')).toBeInTheDocument();
});

it('修改密码 checks the policy and the confirmation in the page, puts the server’s refusal on its field, then succeeds', async () => {
  const bodies: any[] = [];
  const api = accountApi({
    'POST /api/account/changepassword': (config) => {
      const body = JSON.parse(String(config.data));
      bodies.push(body);
      return body.oldPassword === 'wrong-one1' ? refusal('原密码错误') : envelope({ revoked: 2 });
    },
  });
  const user = userEvent.setup();
  /** Replaces a field's text in one input event (typing key by key re-renders the whole page each time). */
  const fill = async (el: HTMLElement, text: string) => {
    await user.clear(el);
    await user.click(el);
    await user.paste(text);
  };
  renderShell('/account');
  const card = (await screen.findByText('修改密码', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;
  const inCard = within(card);
  await fill(inCard.getByLabelText('原密码'), 'wrong-one1');
  await fill(inCard.getByLabelText('新密码'), 'short');
  expect(inCard.getByRole('checkbox', { name: /至少 8 位/ })).not.toBeChecked();
  await fill(inCard.getByLabelText('确认新密码'), 'short');
  await user.click(inCard.getByRole('button', { name: '修改密码' }));
  expect(await inCard.findByText('新密码不符合密码要求')).toBeInTheDocument();
  expect(bodies).toEqual([]);

  await fill(inCard.getByLabelText('新密码'), 'Better-pass1');
  expect(inCard.getByRole('checkbox', { name: /至少 8 位/ })).toBeChecked();
  await fill(inCard.getByLabelText('确认新密码'), 'Better-pass1');
  await user.click(inCard.getByRole('button', { name: '修改密码' }));
  expect(await inCard.findByText('原密码错误')).toBeInTheDocument();

  await fill(inCard.getByLabelText('原密码'), 'Right-one1');
  await user.click(inCard.getByRole('button', { name: '修改密码' }));
  expect(await screen.findByText('密码已修改，其他 2 处登录已退出')).toBeInTheDocument();
  expect(bodies.at(-1)).toEqual({ oldPassword: 'Right-one1', newPassword: 'Better-pass1' });
  await waitFor(() => expect(inCard.getByLabelText('原密码')).toHaveValue(''));
  expect(api.calls.filter((c) => c === 'GET /api/account/Sessions').length).toBeGreaterThan(1);
});

it('a directory account is told to change its password in the directory, with no form to fill', async () => {
  const note = '你的账号使用公司目录（LDAP）的密码登录，请在目录中修改密码';
  accountApi({ 'GET /api/account/Security': () => envelope({ ...security, passwordElsewhere: note }) });
  renderShell('/account');
  expect(await screen.findByText(note)).toBeInTheDocument();
  expect(screen.queryByLabelText('原密码')).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /确认修改|修改密码|保\s*存/ })).not.toBeInTheDocument();
});

it('binds TOTP from the dialog with the key shown, and signs another browser out', async () => {
  let bound = false;
  const api = accountApi({
    'GET /api/account/Security': () => envelope({ ...security, totpBound: bound }),
    'POST /api/account/Totp/Begin': () =>
      envelope({ actionToken: 'act-1', totpUri: 'otpauth://totp/x:zhangsan?secret=JBSWY3DPEHPK3PXP&issuer=x', totpSecret: 'JBSWY3DPEHPK3PXP' }),
    'POST /api/account/Totp/Confirm': (config) => {
      const body = JSON.parse(String(config.data));
      if (body.code !== '246810') return refusal('动态口令错误，请确认手机时间准确后重新输入');
      bound = true;
      return envelope(null);
    },
    'DELETE /api/account/Sessions/9': () => envelope(null),
  });
  const user = userEvent.setup();
  renderShell('/account');
  await user.click(await screen.findByRole('button', { name: '绑定动态口令' }));
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
  await user.type(within(dialog).getByLabelText('动态口令'), '135790');
  await user.click(within(dialog).getByRole('button', { name: '确认绑定' }));
  expect(await within(dialog).findByText('动态口令错误，请确认手机时间准确后重新输入')).toBeInTheDocument();
  await user.clear(within(dialog).getByLabelText('动态口令'));
  await user.type(within(dialog).getByLabelText('动态口令'), '246810{Enter}');
  expect(await screen.findByText('动态口令已绑定，以后登录时须输入')).toBeInTheDocument();
  expect(await screen.findByText('已绑定')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '解除绑定' })).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: '退出 Safari · iOS' }));
  await waitFor(() => expect(api.calls).toContain('DELETE /api/account/Sessions/9'));
  expect(await screen.findByText('该处登录已退出')).toBeInTheDocument();
});

it('a new avatar is sent as a form and shows in the user menu', async () => {
  const sent: unknown[] = [];
  const api = accountApi({
    'PUT /api/account/avatar': (config) => {
      sent.push(config.data);
      return envelope({ avatar: '/api/User/Avatar/1?v=0123456789abcdef' });
    },
  });
  const user = userEvent.setup();
  renderShell('/account');
  const input = await screen.findByLabelText('选择头像图片');
  await user.upload(input, new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' }));
  await waitFor(() => expect(api.calls).toContain('PUT /api/account/avatar'));
  expect(sent[0]).toBeInstanceOf(FormData);
  expect((sent[0] as FormData).get('file')).toBeInstanceOf(File);
  await waitFor(() => expect(appStore.get(userInfoAtom)?.avatar).toBe('/api/User/Avatar/1?v=0123456789abcdef'));
  expect(api.calls).toContain('PUT /api/account/avatar');
  expect(await screen.findByText('头像已更新')).toBeInTheDocument();
});

it('通知设置: a switch per kind and channel is saved at once; a row the administrator fixed is disabled with 由管理员设定; the digest frequency is saved', async () => {
  const bodies: any[] = [];
  let current = noticeSettings();
  accountApi({
    'GET /api/Account/NoticeSettings': () => envelope(current),
    'PUT /api/Account/NoticeSettings': (config) => {
      const body = JSON.parse(String(config.data));
      bodies.push(body);
      const rows = current.rows.map((r) => ({
        ...r,
        channels: Object.fromEntries(Object.entries(r.channels).map(([c, cell]) => [c, { ...cell, enabled: body.settings?.[r.kind]?.[c] ?? cell.enabled }])),
      }));
      current = { ...current, rows, digest: body.digest ?? current.digest } as typeof current;
      return envelope(current);
    },
  });
  const user = userEvent.setup();
  renderShell('/account');
  const card = (await screen.findByText('通知设置', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;
  const table = await within(card).findByRole('table', { name: '通知设置' });
  expect(within(table).getByText('待我审批')).toBeInTheDocument();
  expect(within(table).getByText('分享给我')).toBeInTheDocument();
  expect(within(table).getByText('站内消息')).toBeInTheDocument();
  expect(within(table).getByText('邮件')).toBeInTheDocument();
  expect(within(card).getByText(/待我审批的邮件立即发送/)).toBeInTheDocument();

  const shareMail = within(table).getByRole('switch', { name: '分享给我 · 邮件' });
  expect(shareMail).toBeChecked();
  await user.click(shareMail);
  await waitFor(() => expect(bodies).toEqual([{ settings: { 'share.received': { mail: false } } }]));
  await waitFor(() => expect(within(table).getByRole('switch', { name: '分享给我 · 邮件' })).not.toBeChecked());
  expect(await screen.findByText('通知设置已保存')).toBeInTheDocument();

  // fixed by the administrator: disabled, and says so
  const fixed = within(table).getByRole('switch', { name: '待我审批 · 邮件' });
  expect(fixed).toBeChecked();
  expect(fixed).toBeDisabled();
  await user.hover(within(table).getByTestId('fixed-approval.waiting/mail'));
  expect(await screen.findByText('由管理员设定')).toBeInTheDocument();
  expect(within(table).getByRole('switch', { name: '待我审批 · 站内消息' })).toBeEnabled();

  await user.click(within(card).getByLabelText('每天（8:00）'));
  await waitFor(() => expect(bodies[1]).toEqual({ digest: 'daily' }));
  await waitFor(() => expect(within(card).getByLabelText('每天（8:00）')).toBeChecked());
});

it('通知设置 without an e-mail address: the mail column says why and cannot be turned', async () => {
  const note = '你没有邮箱地址，只能收到站内消息；请联系管理员填写邮箱';
  accountApi({
    'GET /api/Account/NoticeSettings': () =>
      envelope(noticeSettings({ email: '', channels: [{ key: 'inApp', name: '站内消息', available: true, note: '' }, { key: 'mail', name: '邮件', available: false, note }] })),
  });
  renderShell('/account');
  const card = (await screen.findByText('通知设置', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;
  expect(await within(card).findByText(`邮件：${note}`)).toBeInTheDocument();
  expect(within(card).getByRole('switch', { name: '分享给我 · 邮件' })).toBeDisabled();
  expect(within(card).getByRole('switch', { name: '分享给我 · 站内消息' })).toBeEnabled();
});

it('通知设置 with 钉钉 offered by the server: a third column, saved like the others; the texts name both channels; unbound, it says why and cannot be turned', async () => {
  const bodies: any[] = [];
  const three = (available: boolean, note = '') =>
    noticeSettings({
      channels: [
        { key: 'inApp', name: '站内消息', available: true, note: '' },
        { key: 'mail', name: '邮件', available: true, note: '' },
        { key: 'dingtalk', name: '钉钉', available, note },
      ],
      rows: [
        { kind: 'approval.waiting', urgent: true, channels: { inApp: { enabled: true, fixed: false }, mail: { enabled: true, fixed: false }, dingtalk: { enabled: true, fixed: false } } },
        { kind: 'share.received', urgent: false, channels: { inApp: { enabled: true, fixed: false }, mail: { enabled: true, fixed: false }, dingtalk: { enabled: true, fixed: false } } },
      ],
    });
  let current = three(true);
  accountApi({
    'GET /api/Account/NoticeSettings': () => envelope(current),
    'PUT /api/Account/NoticeSettings': (config) => {
      const body = JSON.parse(String(config.data));
      bodies.push(body);
      current = {
        ...current,
        rows: current.rows.map((r) => ({ ...r, channels: Object.fromEntries(Object.entries(r.channels).map(([c, cell]) => [c, { ...cell, enabled: body.settings?.[r.kind]?.[c] ?? cell.enabled }])) })),
      } as typeof current;
      return envelope(current);
    },
  });
  const user = userEvent.setup();
  const { unmount } = renderShell('/account');
  const card = (await screen.findByText('通知设置', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;
  const table = await within(card).findByRole('table', { name: '通知设置' });
  expect(within(table).getByText('钉钉')).toBeInTheDocument();
  expect(within(table).getByText('邮件、钉钉立即发送')).toBeInTheDocument();
  expect(within(card).getByText(/待我审批的邮件、钉钉消息立即发送；其他类型的邮件、钉钉消息按此频率合并为一封邮件、一条钉钉消息发送/)).toBeInTheDocument();
  expect(within(card).getByText('邮件、钉钉汇总频率')).toBeInTheDocument();
  await user.click(within(table).getByRole('switch', { name: '分享给我 · 钉钉' }));
  await waitFor(() => expect(bodies).toEqual([{ settings: { 'share.received': { dingtalk: false } } }]));
  await waitFor(() => expect(within(table).getByRole('switch', { name: '分享给我 · 钉钉' })).not.toBeChecked());
  expect(within(table).getByRole('switch', { name: '分享给我 · 邮件' })).toBeChecked();
  unmount();

  const note = '你的账号没有绑定钉钉，收不到钉钉消息；用钉钉登录一次，或由管理员同步钉钉通讯录后即可收到';
  current = three(false, note);
  renderShell('/account');
  const again = (await screen.findByText('通知设置', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;
  expect(await within(again).findByText(`钉钉：${note}`)).toBeInTheDocument();
  expect(within(again).getByText('钉钉（不可用）')).toBeInTheDocument();
  expect(within(again).getByRole('switch', { name: '待我审批 · 钉钉' })).toBeDisabled();
  expect(within(again).getByRole('switch', { name: '待我审批 · 邮件' })).toBeEnabled();
});

it('登录记录 lists my own sign-ins and failed attempts with the address and the device', async () => {
  accountApi();
  renderShell('/account');
  const table = await screen.findByRole('table', { name: '登录记录' });
  expect(await within(table).findByText('203.0.113.9')).toBeInTheDocument();
  expect(within(table).getByText('登录失败')).toBeInTheDocument();
  expect(within(table).getByText('用户名或密码错误')).toBeInTheDocument();
  expect(within(table).getByText('Firefox · Linux')).toBeInTheDocument();
  expect(within(table).getByText('Chrome · Windows')).toBeInTheDocument();
  expect(within(table).getByText('密码')).toBeInTheDocument();
});
