// 空间与配额: the default quota saved in bytes with the rest of the upload policy unchanged; the
// totals, deduplication and the largest users and folders shown formatted, people near or over
// their quota flagged.
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUploadPolicy, QuotaOverview } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { QuotaTab } from './QuotaTab';

useInlineStylesOnly();

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const overview: QuotaOverview = {
  defaultQuota: 10 * GB,
  totals: { personal: 5 * GB, public: 1.5 * 1024 * GB, recycleBin: 512 * MB, uploading: 0 },
  dedup: { logical: 12 * GB, stored: 9 * GB, saved: 3 * GB },
  largestUsers: [
    { userId: 'u6', userName: 'zhaoliu', nickName: '赵六', used: 11 * GB, quota: 10 * GB },
    { userId: 'u5', userName: 'wangwu', nickName: '王五', used: 9 * GB, quota: 10 * GB },
    { userId: 'u2', userName: 'lisi', nickName: '李四', used: 2 * GB, quota: 0 },
  ],
  largestFolders: [
    { id: 'f1', name: '项目资料', space: 'public', ownerName: '张三', size: 800 * MB },
    { id: 'f2', name: '我的照片', space: 'personal', ownerName: '李四', size: 1.25 * GB },
  ],
};
const policy: AdminUploadPolicy = {
  rapidUpload: true,
  rapidUploadOrganization: false,
  personalQuota: 10 * GB,
  chunkCheck: true,
  maxFileSize: 4 * GB,
  maxFileCount: 500,
};

afterEach(() => jest.restoreAllMocks());

const cardOf = (title: string) => screen.getByText(title).closest('.ant-card') as HTMLElement;
const rowOf = (scope: HTMLElement, text: string | RegExp) => within(scope).getByText(text).closest('tr') as HTMLElement;

it('shows the totals, deduplication and the largest users and folders, flagging full quotas', async () => {
  jest.spyOn(adminApi, 'getQuotaOverview').mockResolvedValue(overview);
  renderWithProviders(<QuotaTab />, { session: true });

  await screen.findByText('个人空间合计');
  expect(within(cardOf('个人空间合计')).getByText('5 GB')).toBeInTheDocument();
  expect(within(cardOf('企业空间合计')).getByText('1.5 TB')).toBeInTheDocument();
  expect(within(cardOf('回收站')).getByText('512 MB')).toBeInTheDocument();
  expect(within(cardOf('上传中')).getByText('0 B')).toBeInTheDocument();
  const dedup = cardOf('去重节省');
  expect(within(dedup).getByText('3 GB')).toBeInTheDocument();
  expect(within(dedup).getByText('逻辑 12 GB，实际存储 9 GB')).toBeInTheDocument();
  expect(screen.getByText(/个人配额优先于部门配额，部门配额优先于默认配额/)).toBeInTheDocument();

  const users = cardOf('占用最多的用户');
  const wang = rowOf(users, '王五（wangwu）');
  expect(within(wang).getByText('即将用满')).toBeInTheDocument();
  expect(within(wang).getByText('9 GB / 10 GB')).toBeInTheDocument();
  expect(within(wang).getByText('90%')).toBeInTheDocument();
  expect(within(wang).getByLabelText('王五（wangwu）已用 90%')).toBeInTheDocument();
  const zhao = rowOf(users, '赵六（zhaoliu）');
  expect(within(zhao).getByText('已超额')).toBeInTheDocument();
  expect(within(zhao).queryByText('即将用满')).not.toBeInTheDocument();
  expect(within(zhao).getByText('110%')).toBeInTheDocument();
  const li = rowOf(users, '李四（lisi）');
  expect(within(li).getByText('2 GB / 不限')).toBeInTheDocument();
  expect(within(li).queryByText('即将用满')).not.toBeInTheDocument();
  expect(within(li).queryByRole('progressbar')).not.toBeInTheDocument();

  const folders = cardOf('占用最多的文件夹');
  const project = rowOf(folders, '项目资料');
  expect(within(project).getByText('企业空间')).toBeInTheDocument();
  expect(within(project).getByText('张三')).toBeInTheDocument();
  expect(within(project).getByText('800 MB')).toBeInTheDocument();
  const photos = rowOf(folders, '我的照片');
  expect(within(photos).getByText('个人空间')).toBeInTheDocument();
  expect(within(photos).getByText('1.25 GB')).toBeInTheDocument();
});

it('saves the default quota in bytes and leaves the rest of the upload policy as it is', async () => {
  const load = jest.spyOn(adminApi, 'getQuotaOverview').mockResolvedValue(overview);
  jest.spyOn(adminApi, 'getUploadPolicy').mockResolvedValue(policy);
  const set = jest.spyOn(adminApi, 'setUploadPolicy').mockImplementation(async (body) => body);
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<QuotaTab />, { session: true });

  const input = await screen.findByRole('spinbutton', { name: '默认个人空间配额' });
  await waitFor(() => expect(input).toHaveValue('10.00'));
  await user.clear(input);
  await user.type(input, '20');
  await user.click(screen.getByRole('button', { name: '保 存' }));

  await waitFor(() => expect(set).toHaveBeenCalledTimes(1));
  expect(set).toHaveBeenCalledWith({ ...policy, personalQuota: 21474836480 });
  expect(await screen.findByText('默认个人空间配额已设为 20 GB')).toBeInTheDocument();
  // the overview is read again after the change
  await waitFor(() => expect(load).toHaveBeenCalledTimes(2));

  // emptied: unlimited
  await user.clear(input);
  await user.click(screen.getByRole('button', { name: '保 存' }));
  await waitFor(() => expect(set).toHaveBeenCalledTimes(2));
  expect(set).toHaveBeenLastCalledWith({ ...policy, personalQuota: 0 });
  expect(await screen.findByText('默认个人空间配额已设为不限')).toBeInTheDocument();
});
