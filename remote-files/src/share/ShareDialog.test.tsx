import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, type Item } from '@app/shared';
import { renderWithProviders, useInlineStylesOnly } from '@app/shared/test';
import { item, READ, report, WRITE } from '../__tests__/fixtures';
import { SHARE_TEXTS, ShareDialog, shareableLevels } from './ShareDialog';

useInlineStylesOnly();

jest.setTimeout(60_000);

const folder = item({ id: '11', name: '项目文档', type: 'folder', permissions: WRITE });
const doc: Item = { ...report, permissions: WRITE };

let createShare: jest.SpyInstance;
beforeEach(() => {
  createShare = jest.spyOn(api, 'createShare').mockResolvedValue({ shareId: 'AbCdEfGhIjKlMnOpQrStUv', url: '/s/AbCdEfGhIjKlMnOpQrStUv', accessKey: 'x7k2m9' });
  jest.spyOn(api, 'getDepartmentTree').mockResolvedValue([]);
  jest.spyOn(api, 'getUserGroups').mockResolvedValue([]);
  jest.spyOn(api, 'getOrgUsers').mockResolvedValue({
    data: [{ userId: '7', userName: 'lisi', nickName: '李四', deptId: null, deptName: '' }],
    total: 1,
  });
});
afterEach(() => jest.restoreAllMocks());

const dialog = () => screen.getAllByRole('dialog').find((d) => within(d).queryByText(/分享“|分享 \d/)) as HTMLElement;

function renderDialog(items: Item[]) {
  const onClose = jest.fn();
  renderWithProviders(<ShareDialog items={items} onClose={onClose} />, { session: true });
  return { onClose };
}

it('offers only the levels the user holds on every item', () => {
  expect(shareableLevels([{ permissions: WRITE }])).toEqual([1, 2, 3]);
  expect(shareableLevels([{ permissions: READ }, { permissions: WRITE }])).toEqual([1, 2]);
  expect(shareableLevels([{ permissions: ['view'] }])).toEqual([1]);
});

it('外链分享: a typed key is checked, then the link, the key, a QR code and the copy text are shown', async () => {
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  const writeText = jest.fn().mockResolvedValue(undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  renderDialog([folder, doc]);
  await user.click(within(dialog()).getByRole('tab', { name: SHARE_TEXTS.external }));
  await user.click(within(dialog()).getByRole('radio', { name: '30 天' }));
  await user.click(within(dialog()).getByRole('radio', { name: '自定义' }));
  await user.type(within(dialog()).getByRole('textbox', { name: SHARE_TEXTS.accessKey }), 'ab');
  await user.click(within(dialog()).getByRole('button', { name: SHARE_TEXTS.create }));
  expect(await within(dialog()).findByText(SHARE_TEXTS.keyInvalid)).toBeInTheDocument();
  expect(createShare).not.toHaveBeenCalled();

  await user.type(within(dialog()).getByRole('textbox', { name: SHARE_TEXTS.accessKey }), 'C123');
  await user.click(within(dialog()).getByRole('checkbox', { name: SHARE_TEXTS.unlimited }));
  const limit = within(dialog()).getByRole('spinbutton', { name: SHARE_TEXTS.limit });
  await user.clear(limit);
  await user.type(limit, '3');
  await user.click(within(dialog()).getByRole('button', { name: SHARE_TEXTS.create }));
  await waitFor(() => expect(createShare).toHaveBeenCalledTimes(1));
  const body = createShare.mock.calls[0][0];
  expect(body).toMatchObject({ fileIds: ['11', '12'], shareType: 2, level: 2, accessKey: 'abC123', downloadLimit: 3 });
  const days = (new Date(body.expireAt.replace(' ', 'T')).getTime() - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(29.9);
  expect(days).toBeLessThan(30.1);

  const result = await screen.findByTestId('share-result');
  expect(within(result).getByRole('textbox', { name: SHARE_TEXTS.link })).toHaveValue(`${location.origin}/s/AbCdEfGhIjKlMnOpQrStUv`);
  expect(within(result).getByRole('textbox', { name: SHARE_TEXTS.accessKey })).toHaveValue('x7k2m9');
  expect(within(result).getByText(SHARE_TEXTS.qr)).toBeInTheDocument();
  await user.click(within(result).getByRole('button', { name: new RegExp(SHARE_TEXTS.copyLink) }));
  await waitFor(() => expect(writeText).toHaveBeenCalledWith(`链接：${location.origin}/s/AbCdEfGhIjKlMnOpQrStUv 提取码：x7k2m9`));
});

it('内部分享: asks for someone, then shares with the users picked, permanently, at the level chosen', async () => {
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  const { onClose } = renderDialog([doc]);
  await user.click(within(dialog()).getByRole('button', { name: SHARE_TEXTS.create }));
  expect(await within(dialog()).findByText(SHARE_TEXTS.noTargets)).toBeInTheDocument();
  expect(createShare).not.toHaveBeenCalled();

  await user.click(within(dialog()).getByRole('button', { name: SHARE_TEXTS.pickTargets }));
  const picker = await screen.findByRole('list', { name: '用户列表' });
  await user.click(await within(picker).findByRole('checkbox', { name: /李四/ }));
  const pickerDialog = picker.closest('[role="dialog"]') as HTMLElement;
  await user.click(within(pickerDialog).getByRole('button', { name: /确\s*定/ }));
  expect(await within(dialog()).findByText('李四')).toBeInTheDocument();
  await user.click(within(dialog()).getByRole('radio', { name: '上传和编辑' }));
  await user.click(within(dialog()).getByRole('radio', { name: '永久有效' }));
  await user.click(within(dialog()).getByRole('button', { name: SHARE_TEXTS.create }));
  await waitFor(() => expect(createShare).toHaveBeenCalledWith({ fileIds: ['12'], shareType: 1, level: 3, expireAt: null, targets: [{ type: 1, id: '7' }] }));
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(await screen.findByText(SHARE_TEXTS.internalDone)).toBeInTheDocument();
});

it('a reader may share for preview and download only', async () => {
  renderDialog([{ ...doc, permissions: READ }]);
  expect(within(dialog()).getByRole('radio', { name: '上传和编辑' })).toBeDisabled();
  expect(within(dialog()).getByRole('radio', { name: '预览和下载' })).toBeChecked();
});
