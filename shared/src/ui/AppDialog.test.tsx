import { configure, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppDialog } from './AppDialog';

configure({ asyncUtilTimeout: 8000 });

describe('AppDialog', () => {
  it('has 确定 / 取消 and a full-screen toggle', async () => {
    const user = userEvent.setup();
    const onCancel = jest.fn();
    render(
      <AppDialog open title="重命名" onCancel={onCancel}>
        内容
      </AppDialog>,
    );
    expect(await screen.findByRole('button', { name: /确\s?定/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '全屏' }));
    expect(screen.getByRole('button', { name: '退出全屏' })).toBeInTheDocument();
    expect(document.querySelector('.ant-modal')).toHaveStyle({ width: '100vw' });
    await user.click(screen.getByRole('button', { name: /取\s?消/ }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  }, 15_000);

  it('cannot be closed while its confirm action runs', async () => {
    const user = userEvent.setup();
    let finish: () => void = () => undefined;
    const onOk = jest.fn(() => new Promise<void>((r) => (finish = r)));
    const onCancel = jest.fn();
    render(
      <AppDialog open title="保存" onOk={onOk} onCancel={onCancel}>
        内容
      </AppDialog>,
    );
    await user.click(await screen.findByRole('button', { name: /确\s?定/ }));
    expect(onOk).toHaveBeenCalledTimes(1);
    const cancel = screen.getByRole('button', { name: /取\s?消/ });
    expect(cancel).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(onCancel).not.toHaveBeenCalled();
    finish();
    await waitFor(() => expect(screen.getByRole('button', { name: /取\s?消/ })).toBeEnabled());
  }, 15_000);
});
