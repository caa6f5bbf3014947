import { registerRemotes, loadRemote } from '@module-federation/enhanced/runtime';
import type { FeaturePolicy, RuntimeConfig } from '@app/shared';
import { handleRemoteError } from './errorPlugin';
import { REMOTE_ERROR_EVENT } from './events';
import { fetchWithRetry } from './retryPlugin';
import { RemoteLoadError } from './RemoteLoadError';
import { isRemoteRegistered, loadRemoteDefault, registerSelectedRemotes, resetRegisteredRemotes, selectRemotes } from './remotes';

jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

const mockedRegister = registerRemotes as jest.MockedFunction<typeof registerRemotes>;
const mockedLoad = loadRemote as jest.MockedFunction<typeof loadRemote>;

const config: Pick<RuntimeConfig, 'remotes'> = {
  remotes: (['files', 'workflow', 'swapspace', 'ferry', 'share'] as const).map((name) => ({ name, entry: `/remotes/${name}/mf-manifest.json` })),
};
const all: FeaturePolicy = { personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: true };
const names = (list: { name: string }[]) => list.map((r) => r.name);

beforeEach(() => {
  mockedRegister.mockClear();
  resetRegisteredRemotes();
});

describe('selectRemotes', () => {
  it('simple mode keeps only ferry', () => {
    expect(names(selectRemotes(config, { simple: true, policy: all }))).toEqual(['ferry']);
    expect(names(selectRemotes(config, { simple: true, policy: null }))).toEqual(['ferry']);
  });

  it('full mode drops ferry, and what the feature policy switches off', () => {
    expect(names(selectRemotes(config, { simple: false, policy: all }))).toEqual(['files', 'workflow', 'swapspace', 'share']);
    expect(names(selectRemotes(config, { simple: false, policy: { ...all, workflow: false, ferrySpaces: false } }))).toEqual(['files', 'share']);
  });

  it('before sign-in only what the public share and preview pages need', () => {
    expect(names(selectRemotes(config, { simple: false, policy: null }))).toEqual(['files', 'share']);
  });
});

describe('registerSelectedRemotes', () => {
  it('registers each remote once, with its manifest URL', () => {
    registerSelectedRemotes(selectRemotes(config, { simple: true, policy: all }));
    expect(mockedRegister).toHaveBeenCalledTimes(1);
    expect(mockedRegister.mock.calls[0][0]).toEqual([{ name: 'ferry', entry: '/remotes/ferry/mf-manifest.json' }]);
    expect(isRemoteRegistered('ferry')).toBe(true);
    expect(isRemoteRegistered('files')).toBe(false);
    registerSelectedRemotes(selectRemotes(config, { simple: true, policy: all }));
    expect(mockedRegister).toHaveBeenCalledTimes(1);
  });

  it('adds the rest after sign-in without registering share and files again', () => {
    registerSelectedRemotes(selectRemotes(config, { simple: false, policy: null }));
    registerSelectedRemotes(selectRemotes(config, { simple: false, policy: all }));
    expect(mockedRegister.mock.calls.map((c) => names(c[0] as { name: string }[]))).toEqual([['files', 'share'], ['workflow', 'swapspace']]);
  });
});

describe('loadRemoteDefault', () => {
  it('returns the default export and turns failures into RemoteLoadError', async () => {
    const App = () => null;
    mockedLoad.mockResolvedValueOnce({ default: App });
    await expect(loadRemoteDefault('files/App', 'component')).resolves.toBe(App);
    mockedLoad.mockRejectedValueOnce(new Error('boom'));
    await expect(loadRemoteDefault('files/App', 'component')).rejects.toBeInstanceOf(RemoteLoadError);
    mockedLoad.mockResolvedValueOnce(null);
    await expect(loadRemoteDefault('files/meta', 'object')).rejects.toThrow('模块 files/meta 加载失败：模块内容无效');
  });
});

describe('errorLoadRemote plugin', () => {
  it('reports every failure and ends the final one with a clean Chinese error', () => {
    const seen: unknown[] = [];
    const listener = (e: Event) => seen.push((e as CustomEvent).detail);
    window.addEventListener(REMOTE_ERROR_EVENT, listener);
    expect(handleRemoteError({ id: '/remotes/files/mf-manifest.json', error: new Error('Failed to fetch'), lifecycle: 'afterResolve' })).toBeUndefined();
    expect(() =>
      handleRemoteError({ id: 'files/App', error: new Error('[ Federation Runtime ]: RUNTIME-003 Failed to get manifest'), lifecycle: 'onLoad' }),
    ).toThrow('模块 files/App 加载失败：无法获取模块清单');
    window.removeEventListener(REMOTE_ERROR_EVENT, listener);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({ id: 'files/App', lifecycle: 'onLoad' });
  });
});

describe('retry plugin', () => {
  const response = (status: number) => ({ ok: status < 400, status }) as Response;

  it('retries network failures and 5xx answers, then succeeds', async () => {
    const fetchImpl = jest
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(response(503))
      .mockResolvedValueOnce(response(200));
    const res = await fetchWithRetry('/m.json', {}, { retries: 2, delayMs: 1, fetchImpl });
    expect(res.status).toBe(200);
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    expect(fetchImpl.mock.calls[1][1]).toMatchObject({ cache: 'no-store' });
  });

  it('gives up after the last retry', async () => {
    const fetchImpl = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(fetchWithRetry('/m.json', {}, { retries: 2, delayMs: 1, fetchImpl })).rejects.toThrow('Failed to fetch');
    expect(fetchImpl).toHaveBeenCalledTimes(3);
  });

  it('does not retry a client error other than 404/408', async () => {
    const fetchImpl = jest.fn().mockResolvedValue(response(403));
    expect((await fetchWithRetry('/m.json', {}, { retries: 2, delayMs: 1, fetchImpl })).status).toBe(403);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });
});
