import { render, screen, waitFor } from '@testing-library/react';
import { api } from '@app/shared';
import { DiskWarning } from './DiskWarning';
import { useInlineStylesOnly } from '@app/shared/test';

useInlineStylesOnly();

afterEach(() => jest.restoreAllMocks());

const GB = 1024 ** 3;

describe('DiskWarning', () => {
  it('warns a system administrator while the data volume runs short, and says when uploads are refused', async () => {
    const status = jest.spyOn(api, 'getDiskStatus').mockResolvedValue({ total: 100 * GB, free: 5 * GB, minFree: GB, level: 'low' });
    const { unmount } = render(<DiskWarning isAdmin />);
    expect(await screen.findByText('服务器存储空间不足')).toBeInTheDocument();
    expect(screen.getByText(/仅剩 5 GB（共 100 GB）/)).toBeInTheDocument();
    expect(status).toHaveBeenCalledTimes(1);
    unmount();

    status.mockResolvedValue({ total: 100 * GB, free: GB / 2, minFree: GB, level: 'full' });
    render(<DiskWarning isAdmin />);
    expect(await screen.findByText('服务器存储空间已满，新的上传已被拒绝')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toBeInTheDocument();
  });

  it('says nothing while there is room, and never asks for anyone but an administrator', async () => {
    const status = jest.spyOn(api, 'getDiskStatus').mockResolvedValue({ total: 100 * GB, free: 50 * GB, minFree: GB, level: 'ok' });
    const { container, unmount } = render(<DiskWarning isAdmin />);
    await waitFor(() => expect(status).toHaveBeenCalledTimes(1));
    expect(container).toBeEmptyDOMElement();
    unmount();
    status.mockClear();
    const other = render(<DiskWarning isAdmin={false} />);
    expect(other.container).toBeEmptyDOMElement();
    expect(status).not.toHaveBeenCalled();
  });
});
