// 系统管理 › 操作日志: the records are listed with person, address, action, object and result;
// a filter reaches the server (back to page 1); a row opens its details; the export asks for the
// same filters; 校验完整性 shows the server's verdict, and only to system and audit administrators.
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DOWNLOAD_FRAME_ATTR, type OplogPage, type OplogRecord } from '@app/shared';
import { adminApi, oplogApi } from '@app/shared/admin';
import { pickOption, renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { OperationLogTab } from './OperationLogTab';

configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);
useInlineStylesOnly();

const record = (o: Partial<OplogRecord>): OplogRecord => ({
  id: '1', seq: 1, at: 0, time: '2026-11-26 09:30:00', userId: '5', userName: 'lisi', deptPath: '1/2', onBehalfName: '', ip: '10.0.0.5',
  userAgent: 'Mozilla/5.0', device: 'Chrome · Windows', action: 'file.download', actionName: '下载', objectType: 'file', objectId: '77',
  objectName: '采购合同.docx', objectPath: '企业空间/法务/采购合同.docx', result: 'ok', reason: '', requestId: 'req-1', detail: {}, ...o,
});
const page: OplogPage = {
  data: [record({}), record({ id: '2', action: 'file.rename', actionName: '重命名', result: 'fail', reason: '您没有重命名该文件或文件夹的权限', userName: 'wangwu' })],
  total: 2,
  more: false,
};

let getLogs: jest.SpyInstance;
function setup(userInfo: Record<string, unknown> = { isAdmin: true }) {
  jest.spyOn(adminApi, 'getDepartments').mockResolvedValue([]);
  jest.spyOn(oplogApi, 'getOperationLogCatalog').mockResolvedValue({
    actions: [
      { code: 'file.download', name: '下载' },
      { code: 'file.rename', name: '重命名' },
    ],
    groups: [{ code: 'file.', name: '文件' }],
  });
  getLogs = jest.spyOn(oplogApi, 'getOperationLogs').mockResolvedValue(page);
  renderWithProviders(<OperationLogTab />, { session: { userInfo } as never });
}
afterEach(() => jest.restoreAllMocks());
const user = () => userEvent.setup({ delay: null, pointerEventsCheck: 0 });

it('lists the records, filters by result and action, and opens a record’s details', async () => {
  setup();
  expect(await screen.findAllByText('采购合同.docx', { selector: 'span' })).toHaveLength(2);
  expect(screen.getByText('wangwu')).toBeInTheDocument();
  expect(screen.getByText('失败')).toHaveAttribute('title', '您没有重命名该文件或文件夹的权限');
  expect(getLogs).toHaveBeenLastCalledWith({ page: 1, pageSize: 20 });

  await pickOption(screen.getByLabelText('按结果筛选'), '失败');
  await waitFor(() => expect(getLogs).toHaveBeenLastCalledWith({ result: 'fail', page: 1, pageSize: 20 }));
  await pickOption(screen.getByLabelText('按操作筛选'), '全部文件');
  await waitFor(() => expect(getLogs).toHaveBeenLastCalledWith({ result: 'fail', action: 'file.', page: 1, pageSize: 20 }));

  await user().click(screen.getByText('wangwu'));
  const drawer = await screen.findByRole('dialog');
  expect(within(drawer).getByText('失败：您没有重命名该文件或文件夹的权限')).toBeInTheDocument();
  expect(within(drawer).getByText('企业空间/法务/采购合同.docx')).toBeInTheDocument();
  expect(within(drawer).getByText('req-1')).toBeInTheDocument();
});

it('exports with the same filters, and verifies the chain', async () => {
  setup();
  await screen.findByText('wangwu');
  await pickOption(screen.getByLabelText('按结果筛选'), '失败');
  await user().click(screen.getByRole('button', { name: '导出 Excel' }));
  const frame = document.querySelector(`[${DOWNLOAD_FRAME_ATTR}]`);
  expect(frame).toHaveAttribute('src', '/api/Admin/OperationLogs/Export?format=xlsx&result=fail');

  jest.spyOn(oplogApi, 'verifyOperationLogs').mockResolvedValue({ ok: false, checked: 41, pending: 0, brokenAt: 42, message: '操作日志在第 42 条处被修改或插入，完整性校验未通过' });
  await user().click(screen.getByRole('button', { name: '校验完整性' }));
  expect(await screen.findByText('操作日志在第 42 条处被修改或插入，完整性校验未通过')).toBeInTheDocument();
});

it('a department administrator reads the log but is not offered the chain check', async () => {
  setup({ isAdmin: false, isDeptAdmin: true });
  await screen.findByText('wangwu');
  expect(screen.queryByRole('button', { name: '校验完整性' })).not.toBeInTheDocument();
});
