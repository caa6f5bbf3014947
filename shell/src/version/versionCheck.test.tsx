import { screen, waitFor, configure } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StorageKey } from '@app/shared';
import { antdUpdatePrompt, checkVersion, isDynamicImportFailure, readStoredVersion, resetVersionCheck, startVersionCheck } from './versionCheck';

configure({ asyncUtilTimeout: 8000 });

const serve = (version: string | null, ok = true) =>
  jest.fn(async () => ({ ok, status: ok ? 200 : 500, json: async () => (version ? { VITE_GLOB_APP_VERSION: version } : {}) }) as unknown as Response);

const store = (version: string) => localStorage.setItem(StorageKey.Version, JSON.stringify({ value: { version, isRefresh: false }, time: 0, expire: null }));

beforeEach(() => {
  localStorage.clear();
  resetVersionCheck();
});

describe('version-update check', () => {
  it('stores the first version it sees and prompts nothing', async () => {
    const prompt = jest.fn();
    const fetchImpl = serve('1.1.0+a');
    expect(await checkVersion({ fetchImpl, prompt })).toBe('stored');
    expect(readStoredVersion()).toEqual({ version: '1.1.0+a', isRefresh: false });
    expect(prompt).not.toHaveBeenCalled();
    expect((fetchImpl.mock.calls[0] as unknown[])[0]).toMatch(/^\/json\/config\.json\?timestamp=\d+$/);
  });

  it('does nothing when the versions match, or when the file cannot be read', async () => {
    const prompt = jest.fn();
    store('v1');
    expect(await checkVersion({ fetchImpl: serve('v1'), prompt })).toBe('same');
    expect(await checkVersion({ fetchImpl: serve('v2', false), prompt })).toBe('skipped');
    expect(await checkVersion({ fetchImpl: serve(null), prompt })).toBe('skipped');
    expect(prompt).not.toHaveBeenCalled();
  });

  it('shows the antd modal when versions differ; 立即升级 stores the new version and reloads', async () => {
    store('v1');
    const reload = jest.fn();
    const user = userEvent.setup();
    expect(await checkVersion({ fetchImpl: serve('v2'), reload, prompt: antdUpdatePrompt })).toBe('prompted');
    expect((await screen.findAllByText('系统更新提示')).length).toBeGreaterThan(0);
    expect(screen.getByText('检测到系统已发布新版本，为了保证最佳体验，系统将为您自动升级。')).toBeInTheDocument();
    // one button, no close control
    expect(screen.queryByRole('button', { name: /close|关闭/i })).toBeNull();
    expect(document.querySelector('.ant-modal')).toHaveStyle({ width: '430px' });
    // a second check while the prompt is open shows nothing more
    expect(await checkVersion({ fetchImpl: serve('v2'), reload, prompt: antdUpdatePrompt })).toBe('skipped');
    await user.click(screen.getByRole('button', { name: '立即升级' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(readStoredVersion()).toEqual({ version: 'v2', isRefresh: true });
  }, 20_000);

  it('another dismissal keeps the old version', async () => {
    store('v1');
    await checkVersion({ fetchImpl: serve('v2'), prompt: ({ onDismiss }) => onDismiss() });
    expect(readStoredVersion()).toEqual({ version: 'v1', isRefresh: false });
  });

  it('re-checks 3 s after a failed dynamic import, once at a time', async () => {
    jest.useFakeTimers();
    store('v1');
    const fetchImpl = serve('v1');
    const stop = startVersionCheck({ fetchImpl, prompt: jest.fn() });
    await jest.advanceTimersByTimeAsync(0);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    const fire = (reason: unknown) => {
      const event = new Event('unhandledrejection') as PromiseRejectionEvent;
      Object.defineProperty(event, 'reason', { value: reason });
      window.dispatchEvent(event);
    };
    fire(new TypeError('Failed to fetch dynamically imported module: /x.js'));
    fire(new Error('ChunkLoadError: Loading chunk 42 failed.'));
    fire(new Error('something else'));
    await jest.advanceTimersByTimeAsync(2_999);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    stop();
    jest.useRealTimers();
  });

  it('recognises failed dynamic imports', () => {
    expect(isDynamicImportFailure(new TypeError('Failed to fetch dynamically imported module: https://a/b.js'))).toBe(true);
    expect(isDynamicImportFailure(new Error('Loading chunk 735 failed.'))).toBe(true);
    expect(isDynamicImportFailure(new Error('other'))).toBe(false);
  });
});
