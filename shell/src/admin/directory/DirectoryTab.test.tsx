// 系统管理 › 目录同步: the saved LDAP settings fill the form (the bind password never shown, its
// box saying one is saved) and 保存 sends them, the password only when one was typed; 测试连接
// saves first and shows the server's answer; 立即同步 shows the plan's counts, samples and
// skipped people, and 应用 asks before disabling anyone; a refused plan shows why and cannot be
// applied; the record of runs shows each status and source. 钉钉通讯录同步 says when DingTalk is not
// configured; configured, its settings are saved, and its 立即同步 shows the plan, applied on 应用.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import type { DingtalkSyncSettings, DirectoryRun, LdapSettings, SyncSummary } from '@app/shared';
import { directoryApi } from '@app/shared/admin';
import { button, renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { DirectoryTab } from './DirectoryTab';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

useInlineStylesOnly();

afterEach(() => jest.restoreAllMocks());

const saved: LdapSettings = {
  enabled: true,
  url: 'ldap://ldap.example.com:389',
  startTls: true,
  tlsVerify: true,
  bindDn: 'cn=reader,dc=example,dc=com',
  baseDn: 'dc=example,dc=com',
  userFilter: '(objectClass=inetOrgPerson)',
  attributes: { userName: 'uid', displayName: 'cn', mail: 'mail', mobile: 'mobile', employeeNo: 'employeeNumber' },
  departmentsFrom: 'ou',
  departmentAttribute: 'departmentNumber',
  intervalMinutes: 60,
  maxDisablePercent: 10,
  hasBindPassword: true,
};

const { hasBindPassword: _stored, ...savedBody } = saved;

const summary = (o: Partial<SyncSummary> = {}): SyncSummary => ({
  total: 120,
  adds: 5,
  updates: 2,
  moves: 1,
  disables: 3,
  unchanged: 109,
  conflicts: [{ userName: 'admin', reason: '该用户名是本地系统管理员账号，不与目录关联' }],
  departmentsToCreate: ['集团/研发中心/前端组'],
  samples: {
    adds: ['chenqi', 'zhouba', 'wujiu', 'zhengshi', 'fenglan'],
    updates: [
      { userName: 'lisi', changes: ['邮箱：空 → lisi@example.com', '手机：空 → 13800000005'] },
      { userName: 'wangwu', changes: ['昵称：王五 → 王武'] },
    ],
    moves: [{ userName: 'zhaoliu', from: '集团/财务部', to: '集团/研发中心/前端组' }],
    disables: ['qianyi', 'suner', 'sunsan'],
  },
  refused: null,
  ...o,
});

const at = (text: string) => dayjs(text).valueOf();
const runOf = (o: Partial<DirectoryRun> = {}): DirectoryRun => ({
  id: '12',
  source: 'ldap',
  trigger: 'manual',
  status: 'planned',
  startedAt: at('2026-03-02 09:30'),
  finishedAt: at('2026-03-02 09:30'),
  summary: summary(),
  error: '',
  ...o,
});

const TOO_MANY = '本次同步将停用 60 人（占已同步用户的 50%），超过设定的 10%，未做任何修改；如确属人员变动，请调高“停用比例上限”后重新同步';

const NOT_CONFIGURED: DingtalkSyncSettings = { configured: false, appKey: '', enabled: false, intervalMinutes: 60, maxDisablePercent: 10, rootDeptId: null };
const DINGTALK: DingtalkSyncSettings = { configured: true, appKey: 'dingapp', enabled: false, intervalMinutes: 60, maxDisablePercent: 10, rootDeptId: null };

let getRuns: jest.SpyInstance;

function setup(runs: DirectoryRun[] = [], dingtalk: DingtalkSyncSettings = NOT_CONFIGURED) {
  jest.spyOn(directoryApi, 'getLdap').mockResolvedValue(saved);
  jest.spyOn(directoryApi, 'getDingtalk').mockResolvedValue(dingtalk);
  getRuns = jest.spyOn(directoryApi, 'getRuns').mockResolvedValue(runs);
  renderWithProviders(<DirectoryTab />, { session: true });
}

/** The 钉钉通讯录同步 card. */
const dingtalkCard = async () => (await screen.findByText('钉钉通讯录同步', { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;

/** Sets a text box at once (typing is slow with antd in jsdom). */
const fill = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
/** The figure under a Statistic's title, e.g. “5人”. */
const stat = (title: string) =>
  (screen.getByText(title, { selector: '.ant-statistic-title' }).closest('.ant-statistic') as HTMLElement).querySelector('.ant-statistic-content')?.textContent;
/** The confirmation titled `title`. */
const confirmOf = (title: string) =>
  waitFor(() => {
    const found = Array.from(document.querySelectorAll('.ant-modal-confirm-title')).find((t) => t.textContent === title);
    if (!found) throw new Error(`no confirmation ${title}`);
    return found.closest('.ant-modal') as HTMLElement;
  });
const applyButtons = () => screen.queryAllByText(/^应\s*用$/, { selector: 'button, button *' });

it('loads the settings without the bind password, and saves the edits; the password only when typed', async () => {
  setup();
  const setLdap = jest.spyOn(directoryApi, 'setLdap').mockImplementation(async (body) => ({ ...saved, ...body, attributes: { ...saved.attributes, ...body.attributes } }) as LdapSettings);

  const address = await screen.findByLabelText('服务器地址');
  expect(address).toHaveValue('ldap://ldap.example.com:389');
  expect(screen.getByLabelText('启用 LDAP 同步与目录登录')).toBeChecked();
  expect(screen.getByLabelText('StartTLS')).toBeChecked();
  expect(screen.getByLabelText('校验服务器证书')).toBeChecked();
  expect(screen.getByLabelText('绑定 DN')).toHaveValue('cn=reader,dc=example,dc=com');
  const password = screen.getByLabelText('绑定密码');
  expect(password).toHaveValue('');
  expect(password).toHaveAttribute('placeholder', '已保存，留空则不修改');
  expect(screen.getByLabelText('用户名')).toHaveValue('uid');
  expect(screen.getByLabelText('工号')).toHaveValue('employeeNumber');
  expect(screen.getByLabelText('按 OU 层级')).toBeChecked();
  expect(screen.queryByLabelText('部门属性')).toBeNull();
  expect(screen.getByLabelText('自动同步间隔')).toHaveValue('60');
  expect(screen.getByLabelText('停用比例上限')).toHaveValue('10');

  // an address that is not LDAP is refused before anything is sent
  fill(address, 'http://ldap.example.com');
  fireEvent.click(button(document.body, '保存'));
  expect(await screen.findByText('地址应以 ldap:// 或 ldaps:// 开头，如 ldap://ldap.example.com:389')).toBeInTheDocument();
  expect(setLdap).not.toHaveBeenCalled();

  // ldaps:// encrypts by itself: StartTLS is not offered and not sent
  fill(address, 'ldaps://ad.example.com:636');
  await waitFor(() => expect(screen.getByLabelText('StartTLS')).toBeDisabled());
  fill(screen.getByLabelText('基准 DN'), 'ou=people,dc=example,dc=com');
  fill(screen.getByLabelText('用户名'), 'sAMAccountName');
  fireEvent.click(screen.getByLabelText('按属性'));
  const deptAttribute = await screen.findByLabelText('部门属性');
  expect(screen.getByText('属性值为部门路径，如 研发中心/前端组')).toBeInTheDocument();
  fill(deptAttribute, 'department');
  fill(screen.getByLabelText('自动同步间隔'), '30');
  fireEvent.click(button(document.body, '保存'));
  await waitFor(() => expect(setLdap).toHaveBeenCalledTimes(1));
  expect(setLdap.mock.calls[0][0]).toEqual({
    ...savedBody,
    url: 'ldaps://ad.example.com:636',
    startTls: false,
    baseDn: 'ou=people,dc=example,dc=com',
    attributes: { ...saved.attributes, userName: 'sAMAccountName' },
    departmentsFrom: 'attribute',
    departmentAttribute: 'department',
    intervalMinutes: 30,
  });
  expect(setLdap.mock.calls[0][0]).not.toHaveProperty('bindPassword');
  expect(await screen.findByText('LDAP 设置已保存')).toBeInTheDocument();

  fill(screen.getByLabelText('绑定密码'), 'R3ader#2026');
  fireEvent.click(button(document.body, '保存'));
  await waitFor(() => expect(setLdap).toHaveBeenCalledTimes(2));
  expect(setLdap.mock.calls[1][0]).toMatchObject({ url: 'ldaps://ad.example.com:636', bindPassword: 'R3ader#2026' });
  // saved: the box is emptied again
  await waitFor(() => expect(screen.getByLabelText('绑定密码')).toHaveValue(''));
});

it('saves before 测试连接 and shows the answer: the people found, or the reason in Chinese', async () => {
  setup();
  const setLdap = jest.spyOn(directoryApi, 'setLdap').mockResolvedValue(saved);
  const testLdap = jest
    .spyOn(directoryApi, 'testLdap')
    .mockResolvedValueOnce({ ok: true, people: 1980, sample: ['zhangsan（张三）', 'lisi（李四）'], message: '连接成功，找到 1980 个用户' })
    .mockResolvedValueOnce({ ok: false, people: 0, sample: [], message: '目录服务器拒绝了绑定账号（绑定 DN 或密码不正确）' });

  await screen.findByLabelText('服务器地址');
  fireEvent.click(button(document.body, '测试连接'));
  const ok = await screen.findByText('连接成功，找到 1980 个用户');
  expect(setLdap).toHaveBeenCalledTimes(1);
  expect(setLdap.mock.invocationCallOrder[0]).toBeLessThan(testLdap.mock.invocationCallOrder[0]);
  expect(ok.closest('.ant-alert')).toHaveClass('ant-alert-success');
  expect(screen.getByText('示例用户：zhangsan（张三）、lisi（李四）')).toBeInTheDocument();

  fireEvent.click(button(document.body, '测试连接'));
  const failed = await screen.findByText('目录服务器拒绝了绑定账号（绑定 DN 或密码不正确）');
  expect(failed.closest('.ant-alert')).toHaveClass('ant-alert-error');
  expect(screen.queryByText('连接成功，找到 1980 个用户')).toBeNull();
  expect(testLdap).toHaveBeenCalledTimes(2);
});

it('shows the plan of 立即同步 and applies it after confirming the disables', async () => {
  setup();
  const syncLdap = jest.spyOn(directoryApi, 'syncLdap').mockResolvedValue(runOf());
  const applyRun = jest.spyOn(directoryApi, 'applyRun').mockResolvedValue(runOf({ status: 'applied' }));
  const u = userEvent.setup({ delay: null });

  await screen.findByLabelText('服务器地址');
  await waitFor(() => expect(getRuns).toHaveBeenCalledWith('all'));
  fireEvent.click(button(document.body, /^立即同步$/));
  await waitFor(() => expect(syncLdap).toHaveBeenCalledTimes(1));
  await screen.findByText('目录中的用户', { selector: '.ant-statistic-title' });
  expect(stat('目录中的用户')).toBe('120人');
  expect(stat('新增')).toBe('5人');
  expect(stat('更新')).toBe('2人');
  expect(stat('调动部门')).toBe('1人');
  expect(stat('停用')).toBe('3人');
  expect(stat('无变化')).toBe('109人');
  expect(screen.getByText('集团/研发中心/前端组')).toBeInTheDocument();
  expect(screen.getByText('以下用户未同步：')).toBeInTheDocument();
  expect(screen.getByText('admin：该用户名是本地系统管理员账号，不与目录关联')).toBeInTheDocument();
  // the runs are loaded again: the plan is recorded
  await waitFor(() => expect(getRuns).toHaveBeenCalledTimes(2));

  await u.click(screen.getByText('更新（2）'));
  expect(await screen.findByText('lisi：邮箱：空 → lisi@example.com；手机：空 → 13800000005')).toBeInTheDocument();
  await u.click(screen.getByText('调动部门（1）'));
  expect(await screen.findByText('zhaoliu：集团/财务部 → 集团/研发中心/前端组')).toBeInTheDocument();
  await u.click(screen.getByText('停用（3）'));
  expect(await screen.findByText('qianyi、suner、sunsan')).toBeInTheDocument();

  expect(applyButtons()).toHaveLength(1);
  await u.click(button(document.body, '应用'));
  const confirm = await confirmOf('确认停用 3 个用户？');
  expect(confirm).toHaveTextContent('离开目录的用户将被停用（账号保留，会话立即结束）。');
  expect(applyRun).not.toHaveBeenCalled();
  await u.click(within(confirm).getByText('停用并应用'));
  await waitFor(() => expect(applyRun).toHaveBeenCalledWith('12'));
  expect((await screen.findAllByText('同步已应用')).length).toBeGreaterThan(0);
  await waitFor(() => expect(getRuns).toHaveBeenCalledTimes(3));
  await waitFor(() => expect(applyButtons()).toHaveLength(0));
});

it('applies a plan that disables nobody without asking', async () => {
  setup();
  const quiet = summary({ disables: 0, samples: { ...summary().samples, disables: [] } });
  jest.spyOn(directoryApi, 'syncLdap').mockResolvedValue(runOf({ id: '13', summary: quiet }));
  const applyRun = jest.spyOn(directoryApi, 'applyRun').mockResolvedValue(runOf({ id: '13', status: 'applied', summary: quiet }));
  await screen.findByLabelText('服务器地址');
  fireEvent.click(button(document.body, /^立即同步$/));
  await screen.findByText('目录中的用户', { selector: '.ant-statistic-title' });
  fireEvent.click(button(document.body, '应用'));
  await waitFor(() => expect(applyRun).toHaveBeenCalledWith('13'));
  expect(document.querySelector('.ant-modal-confirm-title')).toBeNull();
});

it('shows why a refused plan was not applied, and offers no 应用', async () => {
  setup();
  const refused = runOf({ id: '14', status: 'refused', error: TOO_MANY, summary: summary({ disables: 60, refused: TOO_MANY }) });
  jest.spyOn(directoryApi, 'syncLdap').mockResolvedValue(refused);
  const applyRun = jest.spyOn(directoryApi, 'applyRun');
  await screen.findByLabelText('服务器地址');
  fireEvent.click(button(document.body, /^立即同步$/));
  const reason = await screen.findByText(TOO_MANY);
  expect(reason.closest('.ant-alert')).toHaveClass('ant-alert-error');
  expect(stat('停用')).toBe('60人');
  expect(applyButtons()).toHaveLength(0);
  expect(applyRun).not.toHaveBeenCalled();
});

it('lists the runs with their time, trigger, status and result', async () => {
  setup([
    runOf({ id: '15', status: 'planned', startedAt: at('2026-03-02 09:30') }),
    runOf({ id: '14', status: 'applied', trigger: 'schedule', startedAt: at('2026-03-02 08:00'), summary: summary({ adds: 0, updates: 1, moves: 0, disables: 0 }) }),
    runOf({ id: '13', status: 'refused', trigger: 'schedule', error: TOO_MANY }),
    runOf({ id: '12', status: 'failed', trigger: 'schedule', summary: null, error: '无法连接目录服务器：连接超时' }),
  ]);
  const row = async (status: string) => (await screen.findByText(status, { selector: '.ant-tag' })).closest('tr') as HTMLElement;

  const planned = await row('待应用');
  expect(within(planned).getByText('2026-03-02 09:30')).toBeInTheDocument();
  expect(within(planned).getByText('手动')).toBeInTheDocument();
  expect(within(planned).getByText('新增 5，更新 2，调动 1，停用 3')).toBeInTheDocument();
  expect(within(planned).getByText('待应用').closest('.ant-tag')).toHaveClass('ant-tag-blue');

  const applied = await row('已应用');
  expect(within(applied).getByText('自动')).toBeInTheDocument();
  expect(within(applied).getByText('新增 0，更新 1，调动 0，停用 0')).toBeInTheDocument();
  expect(within(applied).getByText('已应用').closest('.ant-tag')).toHaveClass('ant-tag-green');

  const refused = await row('已拒绝');
  expect(within(refused).getByText(TOO_MANY)).toBeInTheDocument();
  expect(within(refused).getByText('已拒绝').closest('.ant-tag')).toHaveClass('ant-tag-orange');

  const failed = await row('失败');
  expect(within(failed).getByText('无法连接目录服务器：连接超时')).toBeInTheDocument();
  expect(within(failed).getByText('失败').closest('.ant-tag')).toHaveClass('ant-tag-red');
});

it('lists the runs of every source with their source, and of one source when chosen', async () => {
  setup([
    runOf({ id: '21', source: 'dingtalk', trigger: 'schedule', status: 'applied', summary: summary({ adds: 4, updates: 0, moves: 0, disables: 0 }) }),
    runOf({ id: '20', source: 'ldap', status: 'planned' }),
  ]);
  const dingtalkRow = (await screen.findByText('新增 4，更新 0，调动 0，停用 0')).closest('tr') as HTMLElement;
  expect(within(dingtalkRow).getByText('钉钉')).toBeInTheDocument();
  expect(within(dingtalkRow).getByText('自动')).toBeInTheDocument();
  const ldapRow = screen.getByText('新增 5，更新 2，调动 1，停用 3').closest('tr') as HTMLElement;
  expect(within(ldapRow).getByText('LDAP')).toBeInTheDocument();
  expect(getRuns).toHaveBeenLastCalledWith('all');

  const runsCard = screen.getByText('同步记录', { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;
  fireEvent.click(within(runsCard).getByText('钉钉', { selector: '.ant-segmented-item-label' }));
  await waitFor(() => expect(getRuns).toHaveBeenLastCalledWith('dingtalk'));
});

it('says when DingTalk is not configured, and offers no DingTalk settings or sync', async () => {
  setup();
  const card = await dingtalkCard();
  expect(await within(card).findByText('未配置钉钉（请设置 DINGTALK_APP_KEY 和 DINGTALK_APP_SECRET 环境变量）')).toBeInTheDocument();
  expect(within(card).queryByLabelText('自动同步')).toBeNull();
  expect(within(card).queryByText(/^立即同步$/, { selector: 'button, button *' })).toBeNull();
  // LDAP's 立即同步 is the only one on the page
  expect(button(document.body, /^立即同步$/)).toBeInTheDocument();
});

it('saves the DingTalk settings, and its 立即同步 shows the plan, applied on 应用', async () => {
  setup([], DINGTALK);
  const setDingtalk = jest
    .spyOn(directoryApi, 'setDingtalk')
    .mockImplementation(async (body) => ({ ...DINGTALK, ...body }) as DingtalkSyncSettings);
  const planned = runOf({ id: '31', source: 'dingtalk', summary: summary({ total: 253, conflicts: [], departmentsToCreate: ['总部/研发中心'] }) });
  const syncDingtalk = jest.spyOn(directoryApi, 'syncDingtalk').mockResolvedValue(planned);
  const syncLdap = jest.spyOn(directoryApi, 'syncLdap');
  const applyRun = jest.spyOn(directoryApi, 'applyRun').mockResolvedValue({ ...planned, status: 'applied' });
  const u = userEvent.setup({ delay: null });

  const card = await dingtalkCard();
  expect(await within(card).findByText('应用 AppKey：dingapp')).toBeInTheDocument();
  expect(within(card).getByLabelText('自动同步')).not.toBeChecked();
  expect(within(card).getByLabelText('同步间隔')).toHaveValue('60');
  expect(within(card).getByLabelText('停用比例上限')).toHaveValue('10');
  const root = within(card).getByLabelText('根部门 ID');
  expect(root).toHaveValue('');
  expect(root).toHaveAttribute('placeholder', '整个组织');

  fireEvent.click(within(card).getByLabelText('自动同步'));
  fill(within(card).getByLabelText('同步间隔'), '30');
  fill(root, '2');
  fireEvent.click(button(card, '保存'));
  await waitFor(() => expect(setDingtalk).toHaveBeenCalledTimes(1));
  expect(setDingtalk.mock.calls[0][0]).toEqual({ enabled: true, intervalMinutes: 30, maxDisablePercent: 10, rootDeptId: 2 });
  expect(await screen.findByText('钉钉同步设置已保存')).toBeInTheDocument();

  // emptied: the whole organisation again, sent as null
  fill(within(card).getByLabelText('根部门 ID'), '');
  fireEvent.click(button(card, '保存'));
  await waitFor(() => expect(setDingtalk).toHaveBeenCalledTimes(2));
  expect(setDingtalk.mock.calls[1][0]).toMatchObject({ rootDeptId: null });

  const runsBefore = getRuns.mock.calls.length;
  fireEvent.click(button(card, /^立即同步$/));
  await waitFor(() => expect(syncDingtalk).toHaveBeenCalledTimes(1));
  expect(syncLdap).not.toHaveBeenCalled();
  await within(card).findByText('目录中的用户', { selector: '.ant-statistic-title' });
  expect((within(card).getByText('目录中的用户', { selector: '.ant-statistic-title' }).closest('.ant-statistic') as HTMLElement).textContent).toContain('253');
  expect(within(card).getByText('总部/研发中心')).toBeInTheDocument();
  await waitFor(() => expect(getRuns.mock.calls.length).toBe(runsBefore + 1));

  await u.click(button(card, '应用'));
  const confirm = await confirmOf('确认停用 3 个用户？');
  expect(confirm).toHaveTextContent('已不在钉钉通讯录中的用户将被停用（账号保留，会话立即结束）。');
  await u.click(within(confirm).getByText('停用并应用'));
  await waitFor(() => expect(applyRun).toHaveBeenCalledWith('31'));
  expect((await within(card).findAllByText('同步已应用')).length).toBeGreaterThan(0);
  await waitFor(() => expect(getRuns.mock.calls.length).toBe(runsBefore + 2));
  await waitFor(() => expect(within(card).queryAllByText(/^应\s*用$/, { selector: 'button, button *' })).toHaveLength(0));
});
