// 全局功能策略: the four switches saved as toggled; a person chosen in the picker and their
// effective switches shown with where each comes from.
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, type EffectiveFeaturePolicy, type FeaturePolicy, type OrgUser } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { FeaturePolicyTab } from './FeaturePolicyTab';

useInlineStylesOnly();

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

const globalPolicy: FeaturePolicy = { personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: false };
const li: OrgUser = { userId: 'u2', userName: 'lisi', nickName: '李四', deptId: 'd2', deptName: '研发中心' };
const liPolicy: EffectiveFeaturePolicy = {
  own: { personalSpace: null, publicSpace: null, workflow: true, ferrySpaces: null },
  effective: { personalSpace: true, publicSpace: false, workflow: true, ferrySpaces: false },
  source: { personalSpace: '全局', publicSpace: '部门：研发中心', workflow: '个人', ferrySpaces: '全局' },
};

beforeEach(() => {
  jest.spyOn(adminApi, 'getFeaturePolicy').mockResolvedValue(globalPolicy);
});

afterEach(() => jest.restoreAllMocks());

it('saves the global switches as toggled', async () => {
  const set = jest.spyOn(adminApi, 'setFeaturePolicy').mockImplementation(async (body) => body);
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<FeaturePolicyTab />, { session: true });

  const workflow = await screen.findByRole('switch', { name: '审批流程' });
  expect(workflow).toBeChecked();
  expect(screen.getByRole('switch', { name: '个人空间' })).toBeChecked();
  expect(screen.getByRole('switch', { name: '企业空间' })).toBeChecked();
  expect(screen.getByRole('switch', { name: '摆渡' })).not.toBeChecked();
  expect(screen.getByText(/部门和个人可以覆盖全局设置/)).toBeInTheDocument();

  await user.click(workflow);
  await user.click(screen.getByRole('switch', { name: '摆渡' }));
  await user.click(screen.getByRole('button', { name: '保 存' }));

  await waitFor(() => expect(set).toHaveBeenCalledTimes(1));
  expect(set).toHaveBeenCalledWith({ personalSpace: true, publicSpace: true, workflow: false, ferrySpaces: true });
  expect(await screen.findByText('全局功能策略已保存')).toBeInTheDocument();
  expect(screen.getByRole('switch', { name: '审批流程' })).not.toBeChecked();
  expect(screen.getByRole('switch', { name: '摆渡' })).toBeChecked();
});

it('shows the effective switches of the person chosen, with their sources', async () => {
  jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([{ id: 'd2', name: '研发中心', parentId: null, children: [] }]);
  jest.spyOn(api, 'getUserGroups').mockResolvedValue([]);
  jest.spyOn(api, 'getOrgUsers').mockResolvedValue({ data: [li], total: 1 });
  const effective = jest.spyOn(adminApi, 'getUserFeaturePolicy').mockResolvedValue(liPolicy);
  const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
  renderWithProviders(<FeaturePolicyTab />, { session: true });

  expect(await screen.findByText(/在“部门”和“用户”页修改/)).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: '选择用户' }));
  const dialog = await screen.findByRole('dialog');
  // people only, one at a time
  expect(within(dialog).queryByRole('tab', { name: '部门' })).not.toBeInTheDocument();
  expect(within(dialog).queryByRole('tab', { name: '用户组' })).not.toBeInTheDocument();
  await user.click(await within(dialog).findByRole('checkbox', { name: /李四/ }));
  await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));

  await waitFor(() => expect(effective).toHaveBeenCalledWith('u2'));
  const table = await screen.findByRole('region', { name: '李四（lisi）的有效策略' });
  const row = async (label: string) => (await within(table).findByText(label)).closest('tr') as HTMLElement;

  const personal = await row('个人空间');
  expect(within(personal).getByText('开启')).toBeInTheDocument();
  expect(within(personal).getByText('全局')).toBeInTheDocument();
  const pub = await row('企业空间');
  expect(within(pub).getByText('关闭')).toBeInTheDocument();
  expect(within(pub).getByText('部门：研发中心')).toBeInTheDocument();
  const workflow = await row('审批流程');
  expect(within(workflow).getByText('开启')).toBeInTheDocument();
  expect(within(workflow).getByText('个人')).toBeInTheDocument();
  const ferry = await row('摆渡');
  expect(within(ferry).getByText('关闭')).toBeInTheDocument();
  expect(within(ferry).getByText('全局')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
});
