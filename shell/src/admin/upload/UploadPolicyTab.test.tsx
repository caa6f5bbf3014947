// 上传策略: the switches, the largest file size (GB on screen, bytes saved) and the file count
// saved as edited, the personal quota kept; 秒传范围 unavailable while 秒传 is off.
import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUploadPolicy } from '@app/shared';
import { adminApi } from '@app/shared/admin';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { UploadPolicyTab } from './UploadPolicyTab';

useInlineStylesOnly();

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

const GB = 1024 ** 3;
const policy: AdminUploadPolicy = {
  rapidUpload: true,
  rapidUploadOrganization: false,
  personalQuota: 20 * GB,
  chunkCheck: false,
  maxFileSize: 4 * GB,
  maxFileCount: 500,
};

afterEach(() => jest.restoreAllMocks());

it('saves the policy as edited, the file size in bytes and the personal quota unchanged', async () => {
  jest.spyOn(adminApi, 'getUploadPolicy').mockResolvedValue(policy);
  const set = jest.spyOn(adminApi, 'setUploadPolicy').mockImplementation(async (body) => body);
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<UploadPolicyTab />, { session: true });

  const size = await screen.findByRole('spinbutton', { name: '单个文件大小上限' });
  expect(size).toHaveValue('4.0');
  expect(screen.getByRole('spinbutton', { name: '一次选择的文件数上限' })).toHaveValue('500');
  expect(screen.getByText('开启后每个分片都计算并校验 MD5，更安全但更慢')).toBeInTheDocument();
  expect(screen.getByText('超出时只提醒')).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: '仅限本人可见的文件' })).toBeChecked();

  await user.click(screen.getByRole('switch', { name: '分片校验' }));
  await user.click(screen.getByRole('radio', { name: '全组织' }));
  await user.clear(size);
  await user.type(size, '2.5');
  const count = screen.getByRole('spinbutton', { name: '一次选择的文件数上限' });
  await user.clear(count);
  await user.type(count, '1000');
  await user.click(screen.getByRole('button', { name: '保 存' }));

  await waitFor(() => expect(set).toHaveBeenCalledTimes(1));
  expect(set).toHaveBeenCalledWith({
    rapidUpload: true,
    rapidUploadOrganization: true,
    personalQuota: 20 * GB,
    chunkCheck: true,
    maxFileSize: 2684354560,
    maxFileCount: 1000,
  });
  expect(await screen.findByText('上传策略已保存')).toBeInTheDocument();
});

it('makes 秒传范围 unavailable while 秒传 is off', async () => {
  jest.spyOn(adminApi, 'getUploadPolicy').mockResolvedValue(policy);
  const set = jest.spyOn(adminApi, 'setUploadPolicy').mockImplementation(async (body) => body);
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<UploadPolicyTab />, { session: true });

  const rapid = await screen.findByRole('switch', { name: '秒传' });
  expect(screen.getByRole('radio', { name: '全组织' })).toBeEnabled();
  await user.click(rapid);
  expect(rapid).not.toBeChecked();
  await waitFor(() => expect(screen.getByRole('radio', { name: '全组织' })).toBeDisabled());
  expect(screen.getByRole('radio', { name: '仅限本人可见的文件' })).toBeDisabled();
  expect(screen.getByText('开启秒传后才能选择')).toBeInTheDocument();

  await user.click(screen.getByRole('button', { name: '保 存' }));
  await waitFor(() => expect(set).toHaveBeenCalledTimes(1));
  expect(set).toHaveBeenCalledWith({ ...policy, rapidUpload: false });

  await user.click(rapid);
  await waitFor(() => expect(screen.getByRole('radio', { name: '全组织' })).toBeEnabled());
});
