// 系统管理 › 通知: the saved mail settings fill the form (the password never shown, its box saying
// one is saved) and 保存 sends them, the password only when one was typed; 发送测试邮件 saves first
// and shows the server's answer, or its Chinese refusal; a kind's channel set to 强制关闭 and the
// hour of daily digests are saved; the undelivered notices list the failed ones, and the skipped
// ones under 未发送.
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, type MailSettings, type NoticeDelivery, type NoticePolicy } from '@app/shared';
import { noticeSettingsApi } from '@app/shared/admin';
import { button, pickOption, renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { NoticesTab } from './NoticesTab';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

useInlineStylesOnly();

afterEach(() => jest.restoreAllMocks());

const saved: MailSettings = {
  enabled: true,
  host: 'smtp.example.com',
  port: 587,
  security: 'starttls',
  tlsVerify: true,
  user: 'noreply@example.com',
  from: 'noreply@example.com',
  fromName: '',
  externalUrl: 'https://docs.example.com',
  hasPassword: true,
};
const { hasPassword: _stored, ...savedBody } = saved;

const policy: NoticePolicy = {
  kinds: ['approval.waiting', 'share.received'],
  channels: [
    { key: 'inApp', name: '站内消息' },
    { key: 'mail', name: '邮件' },
  ],
  rules: { 'approval.waiting': { inApp: 'user', mail: 'on' }, 'share.received': { inApp: 'user', mail: 'user' } },
  dailyHour: 8,
  urgentKinds: ['approval.waiting'],
};

const delivery = (o: Partial<NoticeDelivery>): NoticeDelivery => ({
  id: '1',
  userId: '5',
  userName: 'lisi',
  nickName: '李四',
  email: 'lisi@example.com',
  kind: 'approval.waiting',
  title: '待审批：出差报销',
  channel: 'mail',
  channelName: '邮件',
  recipient: '',
  status: 'failed',
  reason: '无法连接邮件服务器 smtp.example.com:587：连接被拒绝，请检查服务器地址和端口（已尝试 8 次）',
  attempts: 8,
  createdAt: '2026-11-27 09:00:00',
  updatedAt: '2026-11-27 09:05:00',
  ...o,
});

function setup() {
  jest.spyOn(noticeSettingsApi, 'getMail').mockResolvedValue(saved);
  jest.spyOn(noticeSettingsApi, 'getPolicy').mockResolvedValue(policy);
  const getDeliveries = jest.spyOn(noticeSettingsApi, 'getDeliveries').mockImplementation(async (q) =>
    q.status === 'failed'
      ? { data: [delivery({})], total: 1 }
      : { data: [delivery({ id: '2', userName: 'wangwu', nickName: '王五', email: '', status: 'skipped', reason: '没有邮箱地址', attempts: 0 })], total: 1 },
  );
  renderWithProviders(<NoticesTab />, { session: true });
  return { getDeliveries };
}

const cardOf = async (title: string) => (await screen.findByText(title, { selector: '.ant-card-head-title' })).closest('.ant-card') as HTMLElement;
const fill = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

it('loads the mail settings without the password, and saves the edits; the password only when typed', async () => {
  setup();
  const saveMail = jest.spyOn(noticeSettingsApi, 'saveMail').mockImplementation(async (body) => ({ ...saved, ...body, hasPassword: true }) as MailSettings);
  const host = await screen.findByLabelText('服务器地址');
  expect(host).toHaveValue('smtp.example.com');
  expect(screen.getByLabelText('启用邮件通知')).toBeChecked();
  expect(screen.getByLabelText('STARTTLS')).toBeChecked();
  expect(screen.getByLabelText('端口')).toHaveValue('587');
  expect(screen.getByLabelText('外部访问地址')).toHaveValue('https://docs.example.com');
  const password = screen.getByLabelText('密码');
  expect(password).toHaveValue('');
  expect(password).toHaveAttribute('placeholder', '已保存，留空则不修改');

  const card = await cardOf('邮件服务器');
  fill(host, 'mail.example.com');
  // TLS moves the usual port along
  fireEvent.click(screen.getByLabelText('TLS'));
  await waitFor(() => expect(screen.getByLabelText('端口')).toHaveValue('465'));
  fireEvent.click(button(card, '保存'));
  await waitFor(() => expect(saveMail).toHaveBeenCalledTimes(1));
  expect(saveMail.mock.calls[0][0]).toEqual({ ...savedBody, host: 'mail.example.com', security: 'tls', port: 465 });

  fill(screen.getByLabelText('密码'), 'new-secret');
  fireEvent.click(button(card, '保存'));
  await waitFor(() => expect(saveMail).toHaveBeenCalledTimes(2));
  expect(saveMail.mock.calls[1][0]).toMatchObject({ password: 'new-secret' });
  // enabled without an external address: refused in the page
  fill(screen.getByLabelText('外部访问地址'), '');
  fireEvent.click(button(card, '保存'));
  expect(await screen.findByText('请填写外部访问地址')).toBeInTheDocument();
  expect(saveMail).toHaveBeenCalledTimes(2);
});

it('发送测试邮件 saves first and shows the answer; a refusal shows the server’s Chinese message', async () => {
  setup();
  const saveMail = jest.spyOn(noticeSettingsApi, 'saveMail').mockResolvedValue(saved);
  const testMail = jest
    .spyOn(noticeSettingsApi, 'testMail')
    .mockResolvedValueOnce({ message: '测试邮件已发送到 ops@example.com，请查收' })
    .mockRejectedValueOnce(
      new ApiError('测试邮件发送失败：无法连接邮件服务器 smtp.example.com:587：连接被拒绝，请检查服务器地址和端口', 50201, {
        status: 502,
        serverMessage: '测试邮件发送失败：无法连接邮件服务器 smtp.example.com:587：连接被拒绝，请检查服务器地址和端口',
      }),
    );
  const card = await cardOf('邮件服务器');
  await screen.findByLabelText('服务器地址');
  fill(within(card).getByLabelText('测试收件地址'), 'ops@example.com');
  fireEvent.click(button(card, '发送测试邮件'));
  expect(await within(card).findByText('测试邮件已发送到 ops@example.com，请查收')).toBeInTheDocument();
  expect(saveMail).toHaveBeenCalledTimes(1);
  expect(testMail).toHaveBeenCalledWith('ops@example.com', { errorMode: 'none' });

  fireEvent.click(button(card, '发送测试邮件'));
  expect(await within(card).findByText('测试邮件发送失败：无法连接邮件服务器 smtp.example.com:587：连接被拒绝，请检查服务器地址和端口')).toBeInTheDocument();

  // no address: told in the page, nothing sent
  fill(within(card).getByLabelText('测试收件地址'), 'not-an-address');
  fireEvent.click(button(card, '发送测试邮件'));
  expect(await within(card).findByText('请填写有效的收件邮箱地址')).toBeInTheDocument();
  expect(testMail).toHaveBeenCalledTimes(2);
});

it('the rules: 分享给我 by mail set to 强制关闭 and the daily hour are saved', async () => {
  setup();
  const savePolicy = jest.spyOn(noticeSettingsApi, 'savePolicy').mockImplementation(async (body) => ({ ...policy, rules: body.rules ?? policy.rules, dailyHour: body.dailyHour ?? policy.dailyHour }));
  const card = await cardOf('通知规则');
  const table = await within(card).findByRole('table', { name: '通知规则' });
  expect(within(table).getByText('待我审批')).toBeInTheDocument();
  expect(within(table).getByText('邮件立即发送')).toBeInTheDocument();
  expect(within(table).getByTitle('强制开启')).toBeInTheDocument();
  await pickOption(within(table).getByLabelText('分享给我 · 邮件'), '强制关闭');
  fill(within(card).getByLabelText('每日汇总发送时间'), '9');
  fireEvent.click(button(card, '保存'));
  await waitFor(() => expect(savePolicy).toHaveBeenCalledTimes(1));
  expect(savePolicy.mock.calls[0][0]).toEqual({
    rules: { 'approval.waiting': { inApp: 'user', mail: 'on' }, 'share.received': { inApp: 'user', mail: 'off' } },
    dailyHour: 9,
  });
  expect(await screen.findByText('通知规则已保存')).toBeInTheDocument();
});

it('the undelivered notices: the failed ones with the person, kind, title and reason; the skipped ones under 未发送', async () => {
  const { getDeliveries } = setup();
  const card = await cardOf('未送达的通知');
  const table = await within(card).findByRole('table', { name: '未送达的通知列表' });
  expect(await within(table).findByText('待审批：出差报销')).toBeInTheDocument();
  expect(within(table).getByText(/李四（lisi）/)).toBeInTheDocument();
  expect(within(table).getByText('待我审批')).toBeInTheDocument();
  expect(within(table).getByText(/连接被拒绝.*已尝试 8 次/)).toBeInTheDocument();
  expect(getDeliveries).toHaveBeenLastCalledWith({ status: 'failed', page: 1, pageSize: 20 });

  await userEvent.setup().click(within(card).getByText('未发送'));
  expect(await within(table).findByText('没有邮箱地址')).toBeInTheDocument();
  expect(within(table).getByText(/王五（wangwu）/)).toBeInTheDocument();
  expect(getDeliveries).toHaveBeenLastCalledWith({ status: 'skipped', page: 1, pageSize: 20 });
});

it('with 钉钉 offered by the server: a third column of rules saved with the others, and its undelivered messages listed as 钉钉 with the userid', async () => {
  const three: NoticePolicy = {
    ...policy,
    channels: [...policy.channels, { key: 'dingtalk', name: '钉钉' }],
    rules: { 'approval.waiting': { inApp: 'user', mail: 'on', dingtalk: 'user' }, 'share.received': { inApp: 'user', mail: 'user', dingtalk: 'user' } },
  };
  jest.spyOn(noticeSettingsApi, 'getMail').mockResolvedValue(saved);
  jest.spyOn(noticeSettingsApi, 'getPolicy').mockResolvedValue(three);
  jest.spyOn(noticeSettingsApi, 'getDeliveries').mockResolvedValue({
    data: [delivery({ id: '3', channel: 'dingtalk', channelName: '钉钉', recipient: 'dt-lisi', reason: '钉钉未送达：超出每日发送上限', attempts: 1 })],
    total: 1,
  });
  const savePolicy = jest.spyOn(noticeSettingsApi, 'savePolicy').mockImplementation(async (body) => ({ ...three, rules: body.rules ?? three.rules }));
  renderWithProviders(<NoticesTab />, { session: true });
  const card = await cardOf('通知规则');
  const table = await within(card).findByRole('table', { name: '通知规则' });
  expect(within(table).getByText('钉钉')).toBeInTheDocument();
  expect(within(table).getByText('邮件、钉钉立即发送')).toBeInTheDocument();
  expect(within(card).getByText('选择“每天”汇总的人在此时收到前一天的通知邮件、钉钉消息')).toBeInTheDocument();
  await pickOption(within(table).getByLabelText('待我审批 · 钉钉'), '强制关闭');
  fireEvent.click(button(card, '保存'));
  await waitFor(() => expect(savePolicy).toHaveBeenCalledTimes(1));
  expect(savePolicy.mock.calls[0][0].rules).toEqual({
    'approval.waiting': { inApp: 'user', mail: 'on', dingtalk: 'off' },
    'share.received': { inApp: 'user', mail: 'user', dingtalk: 'user' },
  });

  const list = await within(await cardOf('未送达的通知')).findByRole('table', { name: '未送达的通知列表' });
  expect(await within(list).findByText('钉钉未送达：超出每日发送上限')).toBeInTheDocument();
  expect(within(list).getByText('钉钉')).toBeInTheDocument();
  expect(within(list).getByText(/dt-lisi/)).toBeInTheDocument();
});
