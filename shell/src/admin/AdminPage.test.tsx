// 系统管理 in the shell: reached from the user menu by administrators only; the password policy
// saved as edited; a user's TOTP required and reset; a registration approved into a department
// and another rejected with a reason; a client registered and removed; the system name and a
// logo set (and shown in the menu bar at once); an agreement edited with its preview.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { appStore, envConfigAtom } from '@app/shared';
import { fakeModules } from '../testing/fakeRemotes';
import { fakeApi, homeOf, allOn, renderShell, resetShell, signedIn } from '../testing/shellHarness';
import { useInlineStylesOnly } from '@app/shared/test';

jest.mock('@ant-design/colors/es/generate', () => jest.requireActual('@ant-design/colors/lib/generate'));
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

configure({ asyncUtilTimeout: 8000 });
// seven whole flows through the shell with typing: on a loaded 2-core machine one takes close to a minute
jest.setTimeout(120_000);
useInlineStylesOnly();

const envelope = (result: unknown) => ({ data: { code: 200, message: null, result } });
const policy = {
  minLength: 8, requireDigit: true, requireLetter: true, requireSymbol: false, requireMixedCase: false,
  historyCount: 3, expiryDays: 0, lockoutThreshold: 5, lockoutMinutes: 15, totpRequired: false, webdavAccountPassword: false,
};
const adminUser = (o: Record<string, unknown>) => ({
  userId: '5', userName: 'lisi', nickName: '李四', deptId: null, isDocAdmin: false, isFlowAdmin: false, isTagAdmin: false,
  disabled: false, totpRequired: false, totpBound: true, mustChangePassword: false, ...o,
});
const application = (o: Record<string, unknown>) => ({
  id: '11', phone: '13800000001', userName: 'wangwu', nickName: '王五', department: '市场部', reason: '新入职',
  status: 'pending', createdAt: '2026-11-24 09:00', decidedAt: null, decisionNote: '', userId: null, ...o,
});
const body = (config: any) => JSON.parse(String(config.data));

beforeEach(() => {
  (loadRemote as jest.Mock).mockImplementation(async (id: string) => fakeModules[id] ?? null);
  resetShell();
});

it('only administrators see 系统管理 in the user menu; others who open /admin are told they may not', async () => {
  fakeApi();
  signedIn();
  const user = userEvent.setup();
  const { unmount } = renderShell('/file/personal');
  await user.click(await screen.findByRole('button', { name: '用户菜单' }));
  expect(await screen.findByText('个人设置')).toBeInTheDocument();
  expect(screen.queryByText('系统管理')).not.toBeInTheDocument();
  unmount();

  resetShell();
  fakeApi();
  signedIn();
  const second = renderShell('/admin');
  expect(await screen.findByText('只有系统管理员、部门管理员或审计管理员可以进入系统管理。')).toBeInTheDocument();
  second.unmount();

  resetShell();
  fakeApi({ handlers: { 'GET /api/Login/PasswordPolicy': () => envelope(policy) } });
  signedIn(homeOf(), allOn, { isAdmin: true });
  const admin = userEvent.setup();
  renderShell('/file/personal');
  await admin.click(await screen.findByRole('button', { name: '用户菜单' }));
  await admin.click(await screen.findByText('系统管理'));
  expect(await screen.findByRole('heading', { name: '系统管理' })).toBeInTheDocument();
  expect(screen.getByTestId('location')).toHaveTextContent('/admin');
});

it('saves the password policy as edited, TOTP for everyone and WebDAV with the account password included', async () => {
  const saved: any[] = [];
  fakeApi({
    handlers: {
      'GET /api/Login/PasswordPolicy': () => envelope(policy),
      'PUT /api/Admin/PasswordPolicy': (config) => {
        saved.push(body(config));
        return envelope(body(config));
      },
    },
  });
  signedIn(homeOf(), allOn, { isAdmin: true });
  const user = userEvent.setup();
  renderShell('/admin?tab=policy');
  const min = await screen.findByLabelText('最短长度');
  expect(min).toHaveValue('8');
  await user.clear(min);
  await user.type(min, '12');
  await user.click(screen.getByRole('checkbox', { name: '符号' }));
  await user.click(screen.getByRole('switch', { name: '所有人都须使用动态口令' }));
  const webdav = screen.getByRole('switch', { name: '允许以登录密码连接' });
  expect(webdav).not.toBeChecked();
  await user.click(webdav);
  await user.click(screen.getByRole('button', { name: '保 存' }));
  await waitFor(() => expect(saved).toHaveLength(1));
  expect(saved[0]).toEqual({ ...policy, minLength: 12, requireSymbol: true, totpRequired: true, webdavAccountPassword: true });
  expect(await screen.findByText('密码策略已保存')).toBeInTheDocument();
});

it('requires TOTP of one user and resets another’s after a confirmation', async () => {
  const calls: string[] = [];
  fakeApi({
    handlers: {
      'GET /api/Admin/Users': (config) =>
        envelope({
          data: config.params?.keyword === '王' ? [adminUser({ userId: '6', userName: 'wangwu', nickName: '王五', totpBound: false })] : [adminUser({})],
          total: 1,
        }),
      'PUT /api/Admin/Users/5/Totp': (config) => {
        calls.push(`require ${body(config).required}`);
        return envelope(adminUser({ totpRequired: body(config).required }));
      },
      'DELETE /api/Admin/Users/5/Totp': () => {
        calls.push('reset');
        return envelope(adminUser({ totpBound: false }));
      },
    },
  });
  signedIn(homeOf(), allOn, { isAdmin: true });
  const user = userEvent.setup();
  renderShell('/admin?tab=users');
  const row = (await screen.findByText('lisi')).closest('tr') as HTMLElement;
  expect(within(row).getByText('已绑定')).toBeInTheDocument();
  await user.click(within(row).getByRole('switch', { name: '要求lisi使用动态口令' }));
  await waitFor(() => expect(within(row).getByRole('switch')).toBeChecked());
  expect(calls).toEqual(['require true']);

  await user.click(within(row).getByRole('button', { name: '重置动态口令' }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog).toHaveTextContent('“李四”已绑定的身份验证器将失效');
  await user.click(within(dialog).getByRole('button', { name: '重 置' }));
  await waitFor(() => expect(within(row).getByText('未绑定')).toBeInTheDocument());
  expect(calls).toEqual(['require true', 'reset']);
  expect(within(row).getByRole('button', { name: '重置动态口令' })).toBeDisabled();

  fireEvent.change(screen.getByPlaceholderText('搜索用户名或昵称'), { target: { value: '王' } });
  fireEvent.keyDown(screen.getByPlaceholderText('搜索用户名或昵称'), { key: 'Enter', code: 'Enter', keyCode: 13 });
  expect(await screen.findByText('wangwu')).toBeInTheDocument();
  expect(screen.queryByText('lisi')).not.toBeInTheDocument();
});

it('approves an application into the department chosen and rejects another with a reason; the SMS log is shown', async () => {
  const decisions: string[] = [];
  let pending = [application({}), application({ id: '12', userName: 'zhaoliu', nickName: '赵六' })];
  fakeApi({
    handlers: {
      'GET /api/Admin/Registrations': (config) => envelope({ data: config.params?.status === 'pending' ? pending : [], total: pending.length }),
      'GET /api/Admin/Sms': () => envelope([{ phone: '13800000001', text: '【云文档】您的注册验证码是 482913，10 分钟内有效。', createdAt: '2026-11-24 08:58' }]),
      'GET /api/User/Organizations/Departments/Tree': () =>
        envelope([{ id: '1', name: '总部', parentId: null, children: [{ id: '3', name: '市场部', parentId: '1', children: [] }] }]),
      'POST /api/Admin/Registrations/11/Approve': (config) => {
        decisions.push(`approve 11 ${body(config).deptId}`);
        pending = pending.filter((p) => p.id !== '11');
        return envelope(application({ status: 'approved' }));
      },
      'POST /api/Admin/Registrations/12/Reject': (config) => {
        decisions.push(`reject 12 ${body(config).reason}`);
        pending = pending.filter((p) => p.id !== '12');
        return envelope(application({ id: '12', status: 'rejected' }));
      },
    },
  });
  signedIn(homeOf(), allOn, { isAdmin: true });
  const user = userEvent.setup();
  renderShell('/admin?tab=registrations');
  expect(await screen.findByText('【云文档】您的注册验证码是 482913，10 分钟内有效。')).toBeInTheDocument();

  const first = (await screen.findByText('wangwu')).closest('tr') as HTMLElement;
  await user.click(within(first).getByRole('button', { name: '批准' }));
  const approve = await screen.findByRole('dialog', { name: '批准注册申请' });
  expect(approve).toHaveTextContent('申请人填写的部门：市场部');
  await user.click(within(approve).getByRole('combobox', { name: '放入部门' }));
  await user.click(await screen.findByTitle('市场部'));
  await user.click(within(approve).getByRole('button', { name: '批 准' }));
  await waitFor(() => expect(screen.queryByText('wangwu')).not.toBeInTheDocument());
  expect(decisions).toEqual(['approve 11 3']);

  const second = screen.getByText('zhaoliu').closest('tr') as HTMLElement;
  await user.click(within(second).getByRole('button', { name: '驳回' }));
  const reject = await screen.findByRole('dialog', { name: '驳回注册申请' });
  await user.click(within(reject).getByRole('button', { name: '驳 回' }));
  expect(await within(reject).findByText('请填写驳回理由')).toBeInTheDocument();
  await user.type(within(reject).getByLabelText('驳回理由'), '非本单位员工');
  await user.click(within(reject).getByRole('button', { name: '驳 回' }));
  await waitFor(() => expect(screen.queryByText('zhaoliu')).not.toBeInTheDocument());
  expect(decisions).toEqual(['approve 11 3', 'reject 12 非本单位员工']);
  expect(await screen.findByText('没有待审批的申请')).toBeInTheDocument();
});

it('registers a client with its callback addresses and removes it', async () => {
  let clients: any[] = [];
  const sent: any[] = [];
  fakeApi({
    handlers: {
      'GET /api/Admin/Clients': () => envelope(clients),
      'POST /api/Admin/Clients': (config) => {
        sent.push(body(config));
        clients = [{ clientId: 'c-123', name: body(config).name, redirectUris: body(config).redirectUris, createdAt: '2026-11-24 10:00' }];
        return envelope(clients[0]);
      },
      'DELETE /api/Admin/Clients/c-123': () => {
        clients = [];
        return envelope(null);
      },
    },
  });
  signedIn(homeOf(), allOn, { isAdmin: true });
  const user = userEvent.setup();
  renderShell('/admin?tab=clients');
  expect(await screen.findByText('还没有登记客户端')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: '登记客户端' }));
  const dialog = await screen.findByRole('dialog', { name: '登记客户端' });
  await user.click(within(dialog).getByRole('button', { name: '登 记' }));
  expect(await within(dialog).findByText('请输入客户端名称')).toBeInTheDocument();
  expect(sent).toHaveLength(0);
  await user.type(within(dialog).getByLabelText('名称'), '桌面同步');
  fireEvent.change(within(dialog).getByLabelText('回调地址'), { target: { value: 'http://127.0.0.1:8765/cb\n\n  yunwendang://auth  \n' } });
  await user.click(within(dialog).getByRole('button', { name: '登 记' }));
  await waitFor(() => expect(sent).toEqual([{ name: '桌面同步', redirectUris: ['http://127.0.0.1:8765/cb', 'yunwendang://auth'] }]));
  const row = (await screen.findByText('c-123')).closest('tr') as HTMLElement;
  expect(row).toHaveTextContent('yunwendang://auth');

  await user.click(within(row).getByRole('button', { name: '停用' }));
  const confirm = await screen.findByRole('dialog', { name: '停用客户端' });
  await user.click(within(confirm).getByRole('button', { name: '停 用' }));
  expect(await screen.findByText('还没有登记客户端')).toBeInTheDocument();
});

it('sets the system name and a logo (the menu bar shows them at once) and renames the spaces', async () => {
  let branding = { systemName_Client: '云文档', favroiteIcon: '', login_Background: '', logo_Dark: '', logo_Dark_Large: '', logo_Light: '' };
  const uploads: string[] = [];
  const envBodies: unknown[] = [];
  fakeApi({
    handlers: {
      'PUT /api/Admin/EnvironmentConfig': (config) => {
        envBodies.push(body(config));
        return envelope(body(config));
      },
      'GET /api/Client/Branding': () => envelope(branding),
      'PUT /api/Admin/Branding': (config) => {
        branding = { ...branding, systemName_Client: body(config).systemName_Client };
        return envelope(branding);
      },
      'PUT /api/Admin/Branding/Images/logoLight': (config) => {
        uploads.push((config.data as FormData).get('file') instanceof File ? 'file' : 'none');
        branding = { ...branding, logo_Light: '/api/Client/Branding/Images/logoLight-0123456789abcdef.webp' };
        return envelope(branding);
      },
    },
  });
  signedIn(homeOf(), allOn, { isAdmin: true });
  const user = userEvent.setup();
  renderShell('/admin?tab=branding');
  const name = await screen.findByLabelText('系统名称');
  expect(name).toHaveValue('云文档');
  await user.clear(name);
  await user.type(name, '星河文档中心');
  await user.click(screen.getByRole('button', { name: '保 存' }));
  await waitFor(() => expect(screen.getByTestId('product-name')).toHaveTextContent('星河文档中心'));
  expect(document.title).toBe('星河文档中心');

  const input = (screen.getByRole('button', { name: '上传浅色背景 Logo' }).closest('.ant-upload') as HTMLElement).querySelector('input[type=file]') as HTMLInputElement;
  await user.upload(input, new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' }));
  expect(await screen.findByAltText('浅色背景 Logo')).toHaveAttribute('src', '/api/Client/Branding/Images/logoLight-0123456789abcdef.webp');
  expect(uploads).toEqual(['file']);
  // the menu bar's mark is the logo now
  expect(document.querySelector('header img')).toHaveAttribute('src', '/api/Client/Branding/Images/logoLight-0123456789abcdef.webp');

  // the spaces' names
  expect(screen.getByRole('button', { name: '保存名称' })).toBeDisabled();
  fireEvent.change(screen.getByLabelText('个人空间名称'), { target: { value: '我的文档' } });
  await user.click(screen.getByRole('button', { name: '保存名称' }));
  await waitFor(() => expect(appStore.get(envConfigAtom)).toEqual({ personalFolderName: '我的文档', publicFolderName: '企业文件' }));
  expect(envBodies).toEqual([{ personalFolderName: '我的文档', publicFolderName: '企业文件' }]);
  expect(await screen.findByText('空间名称已保存')).toBeInTheDocument();
});

it('edits an agreement with a live preview and brings the built-in text back', async () => {
  const puts: string[] = [];
  let service = { kind: 'service', title: '服务协议', content: '欢迎使用云文档。', updatedAt: null as number | null };
  fakeApi({
    handlers: {
      'GET /api/Client/Agreements/service': () => envelope(service),
      'PUT /api/Admin/Agreements/service': (config) => {
        const content = body(config).content as string;
        puts.push(content);
        service = content ? { ...service, content, updatedAt: Date.parse('2026-11-24T10:30:00+08:00') } : { ...service, content: '欢迎使用云文档。', updatedAt: null };
        return envelope(service);
      },
    },
  });
  signedIn(homeOf(), allOn, { isAdmin: true });
  const user = userEvent.setup();
  renderShell('/admin?tab=agreements');
  const text = await screen.findByLabelText('服务协议正文');
  expect(screen.getByText(/当前为内置文本/)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '恢复内置文本' })).toBeDisabled();
  fireEvent.change(text, { target: { value: '星河集团服务协议\n\n# 一、适用范围\n- 全体员工\n- <b>外包</b>人员' } });
  // the preview: a heading and a list, markup shown as text
  expect(await screen.findByRole('heading', { name: '一、适用范围' })).toBeInTheDocument();
  expect(screen.getByText('<b>外包</b>人员')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: '保 存' }));
  await waitFor(() => expect(puts).toEqual(['星河集团服务协议\n\n# 一、适用范围\n- 全体员工\n- <b>外包</b>人员']));
  expect(await screen.findByText(/最后修改于 2026-11-24/)).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: '恢复内置文本' }));
  const dialog = await screen.findByRole('dialog', { name: '恢复内置文本' });
  await user.click(within(dialog).getByRole('button', { name: '恢 复' }));
  await waitFor(() => expect(screen.getByLabelText('服务协议正文')).toHaveValue('欢迎使用云文档。'));
  expect(puts).toEqual(['星河集团服务协议\n\n# 一、适用范围\n- 全体员工\n- <b>外包</b>人员', '']);
});
