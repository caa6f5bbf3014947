import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@app/shared/test';
import { ConflictDialog, fileNameError, splitFileName, FILE_NAME_MESSAGES } from './index';

jest.setTimeout(30_000);

const strategies = [
  { name: '新版本', value: 0 as const },
  { name: '覆盖', value: 1 as const },
  { name: '重命名', value: 2 as const },
  { name: '跳过', value: 3 as const },
];

function renderDialog(props: Partial<Parameters<typeof ConflictDialog>[0]> = {}) {
  const onOk = jest.fn();
  const onCancel = jest.fn();
  renderWithProviders(
    <ConflictDialog
      open
      conflictInfo={{ fileName: '季度报告.docx' }}
      conflictStrategies={strategies}
      onOk={onOk}
      onCancel={onCancel}
      {...props}
    />,
  );
  return { onOk, onCancel };
}

describe('ConflictDialog', () => {
  it('shows the title, the conflicting name and every strategy from the server, 500 wide', async () => {
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    expect(screen.getByText('文件名重复')).toBeInTheDocument();
    expect(screen.getByText('季度报告.docx')).toBeInTheDocument();
    expect(screen.getAllByRole('radio').map((r) => r.closest('label')?.textContent)).toEqual(['新版本', '覆盖', '重命名', '跳过']);
    expect(dialog.closest('.ant-modal')).toHaveStyle({ width: '500px' });
  });

  it('shows the rename input only for rename (2), pre-filled name（1） with the extension kept, and hides apply-to-all', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { onOk } = renderDialog({ defaultOperation: 1 });
    await screen.findByRole('dialog');
    expect(screen.queryByLabelText('重命名为')).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: '后续冲突均执行此操作' })).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: '重命名' }));
    const input = screen.getByLabelText('重命名为');
    expect(input).toHaveValue('季度报告（1）');
    expect(screen.getByText('.docx')).toBeInTheDocument();
    expect(screen.getByText(/^7\s*\/\s*145$/)).toBeInTheDocument(); // word counter
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(onOk).toHaveBeenCalledWith({ operation: 2, operationAll: false, newFileName: '季度报告（1）.docx', fileExtension: '.docx' });
  });

  it('returns the chosen strategy and the apply-to-all choice', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { onOk } = renderDialog();
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('radio', { name: '跳过' }));
    await user.click(screen.getByRole('checkbox', { name: '后续冲突均执行此操作' }));
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(onOk).toHaveBeenCalledWith({ operation: 3, operationAll: true });
  });

  it('refuses an empty or invalid new name', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { onOk } = renderDialog({ defaultOperation: 2 });
    const input = await screen.findByLabelText('重命名为');
    await user.clear(input);
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(await screen.findByText(FILE_NAME_MESSAGES.required)).toBeInTheDocument();
    await user.type(input, 'a/b');
    expect(await screen.findByText(FILE_NAME_MESSAGES.badChars)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    expect(onOk).not.toHaveBeenCalled();
  });

  it('keeps a folder name whole', async () => {
    renderDialog({ conflictInfo: { fileName: '资料 v1.2' }, isFolder: true, defaultOperation: 2 });
    expect(await screen.findByLabelText('重命名为')).toHaveValue('资料 v1.2（1）');
  });

  it('取消 calls onCancel', async () => {
    const user = userEvent.setup({ delay: null, pointerEventsCheck: 0 });
    const { onCancel, onOk } = renderDialog();
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(onCancel).toHaveBeenCalled());
    expect(onOk).not.toHaveBeenCalled();
  });
});

describe('file names', () => {
  it.each([
    ['', FILE_NAME_MESSAGES.required],
    ['   ', FILE_NAME_MESSAGES.required],
    ['a'.repeat(151), FILE_NAME_MESSAGES.tooLong],
    ['a/b', FILE_NAME_MESSAGES.badChars],
    ['a\\b', FILE_NAME_MESSAGES.badChars],
    ['a\u0007b', FILE_NAME_MESSAGES.badChars],
    ['.', FILE_NAME_MESSAGES.dots],
    [' .. ', FILE_NAME_MESSAGES.dots],
    ['invoice\u202Efdp.exe', FILE_NAME_MESSAGES.invisible],
    ['a\u200Fb', FILE_NAME_MESSAGES.invisible],
    ['a:b', FILE_NAME_MESSAGES.windowsChars],
    ['what?', FILE_NAME_MESSAGES.windowsChars],
    ['a|b<c>', FILE_NAME_MESSAGES.windowsChars],
    ['报告.', FILE_NAME_MESSAGES.trailingDot],
    ['CON', FILE_NAME_MESSAGES.reserved],
    ['nul.txt', FILE_NAME_MESSAGES.reserved],
    ['Com1.tar.gz', FILE_NAME_MESSAGES.reserved],
  ])('%j → %s', (name, message) => {
    expect(fileNameError(name)).toBe(message);
  });

  it('accepts ordinary names up to 150 characters', () => {
    expect(fileNameError(' 项目文档 ')).toBeNull();
    expect(fileNameError('a'.repeat(150))).toBeNull();
    expect(fileNameError('.gitignore')).toBeNull();
    expect(fileNameError('console.log')).toBeNull();
    expect(fileNameError('com10.txt')).toBeNull();
  });

  it('splits off the extension, not a leading dot', () => {
    expect(splitFileName('季度报告.final.docx')).toEqual({ base: '季度报告.final', extension: '.docx' });
    expect(splitFileName('.gitignore')).toEqual({ base: '.gitignore', extension: '' });
    expect(splitFileName('README')).toEqual({ base: 'README', extension: '' });
  });
});
