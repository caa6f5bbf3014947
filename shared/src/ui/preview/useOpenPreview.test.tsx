import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { api, ApiError, decodePreviewData, Messages } from '@app/shared';
import { renderWithProviders, toasts, useInlineStylesOnly } from '@app/shared/test';
import { resetPreviewableCache, useOpenPreview, type OpenPreviewTarget } from './useOpenPreview';

useInlineStylesOnly();

jest.setTimeout(20_000);

function Opener({ target }: { target: OpenPreviewTarget }) {
  const open = useOpenPreview();
  return <button onClick={() => void open(target)}>预览</button>;
}

const actions = (previewable: boolean) => ({ previewable, editable: false, actions: ['download'] });
let windowOpen: jest.Mock;

beforeEach(() => {
  resetPreviewableCache();
  windowOpen = jest.fn(() => ({}) as Window);
  window.open = windowOpen as unknown as typeof window.open;
});
afterEach(() => jest.restoreAllMocks());

/** The target encoded in the address the new tab was opened at. */
const openedTarget = () => {
  const [url, name, ...features] = windowOpen.mock.calls[0] as [string, string];
  expect(name).toBe('_blank');
  // no 'noopener': the new tab must get a copy of the session storage (an external share's key)
  expect(features).toEqual([]);
  expect(url).toMatch(/^\/preview\/[A-Za-z0-9_-]+$/);
  return decodePreviewData(url.slice('/preview/'.length));
};

describe('useOpenPreview', () => {
  it('warns 该文件暂不支持预览 for a type the server cannot show, and opens nothing', async () => {
    const ask = jest.spyOn(api, 'getFileActions').mockResolvedValue(actions(false));
    renderWithProviders(<Opener target={{ fileId: '1', extension: 'zip', name: '资料.zip' }} />, { session: true });
    fireEvent.click(screen.getByText('预览'));
    await waitFor(() => expect(toasts()).toContain(Messages.cannotPreview));
    expect(ask).toHaveBeenCalledWith('zip', expect.anything());
    expect(windowOpen).not.toHaveBeenCalled();
  });

  it('warns 预览失败 when the question fails, and asks again the next time', async () => {
    const ask = jest.spyOn(api, 'getFileActions').mockRejectedValueOnce(new ApiError('服务器错误', 500)).mockResolvedValue(actions(true));
    renderWithProviders(<Opener target={{ fileId: '1', extension: 'pdf' }} />, { session: true });
    fireEvent.click(screen.getByText('预览'));
    await waitFor(() => expect(toasts()).toContain(Messages.previewFailed));
    expect(windowOpen).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('预览'));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledTimes(1));
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it('opens /preview/… in a new tab with the previewable neighbours, asking once per extension', async () => {
    const ask = jest.spyOn(api, 'getFileActions').mockImplementation(async (ext: string) => actions(ext !== 'zip'));
    const siblings = [
      { id: '10', extension: '', type: 'folder' },
      { id: '11', extension: 'png' },
      { id: '12', extension: 'zip' },
      { id: '13', extension: 'PDF' },
      { id: '14', extension: 'pdf' },
    ];
    renderWithProviders(<Opener target={{ fileId: '13', extension: 'pdf', name: '年度总结.pdf', siblings }} />, { session: true });
    fireEvent.click(screen.getByText('预览'));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledTimes(1));
    expect(openedTarget()).toEqual({ fileId: '13', name: '年度总结.pdf', list: ['11', '13', '14'] });
    expect(ask.mock.calls.map((c) => c[0]).sort()).toEqual(['pdf', 'png', 'zip']);

    // the answers are kept: a second preview asks nothing
    fireEvent.click(screen.getByText('预览'));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledTimes(2));
    expect(ask).toHaveBeenCalledTimes(3);
    expect(toasts()).toEqual([]);
  });

  it('a visitor of an external share (no session) asks too: a type without a viewer warns, a previewable one opens', async () => {
    const ask = jest.spyOn(api, 'getFileActions').mockImplementation(async (extension: string) => actions(extension !== 'zip'));
    renderWithProviders(<Opener target={{ fileId: '6', shareId: 'S1', extension: 'zip' }} />);
    fireEvent.click(screen.getByText('预览'));
    await waitFor(() => expect(toasts()).toContain('该文件暂不支持预览'));
    expect(windowOpen).not.toHaveBeenCalled();
    cleanup();
    renderWithProviders(<Opener target={{ fileId: '5', shareId: 'S1', extension: 'docx', siblings: [{ id: '5', extension: 'docx' }, { id: '6', extension: 'zip' }] }} />);
    fireEvent.click(screen.getByText('预览'));
    await waitFor(() => expect(windowOpen).toHaveBeenCalledTimes(1));
    expect(openedTarget()).toEqual({ fileId: '5', shareId: 'S1' });
    expect(ask).toHaveBeenCalledWith('docx', expect.anything());
  });

  it('says so when the browser blocks the new tab', async () => {
    jest.spyOn(api, 'getFileActions').mockResolvedValue(actions(true));
    windowOpen.mockReturnValue(null);
    renderWithProviders(<Opener target={{ fileId: '1', extension: 'txt' }} />, { session: true });
    fireEvent.click(screen.getByText('预览'));
    await waitFor(() => expect(toasts()).toContain('浏览器阻止了新窗口，请允许本站弹出窗口后重试'));
  });
});
