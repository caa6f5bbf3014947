import { StorageKey } from '@app/shared';
import { hasCachedClientConfig, loadRuntimeConfig, validateRuntimeConfig } from './runtimeConfig';
import { fetchRuntimeConfig, startRuntimeConfigRequest } from './runtimeConfigRequest';

const good = {
  mode: 'full',
  appTitle: '云文档',
  apiUrl: '',
  apiUrlPrefix: '/api',
  fileUrl: '',
  workflowFileNumber: 20,
  remotes: [
    { name: 'files', entry: '/remotes/files/mf-manifest.json' },
    { name: 'ferry', entry: 'http://127.0.0.1:3004/mf-manifest.json' },
  ],
};

describe('validateRuntimeConfig', () => {
  it('accepts the documented shape', () => {
    const r = validateRuntimeConfig(good);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.config.remotes).toHaveLength(2);
  });

  it('fills defaults for the optional fields', () => {
    const r = validateRuntimeConfig({ remotes: [] });
    expect(r).toEqual({
      ok: true,
      config: { mode: 'full', appTitle: '云文档', apiUrl: '', apiUrlPrefix: '/api', fileUrl: '', workflowFileNumber: 20, remotes: [], dingtalk: null },
    });
  });

  it('keeps the DingTalk sign-in when it is given', () => {
    const r = validateRuntimeConfig({ ...good, dingtalk: { appId: 'dingkey', authorizeUrl: 'https://login.dingtalk.com/oauth2/auth' } });
    expect(r.ok && r.config.dingtalk).toEqual({ appId: 'dingkey', authorizeUrl: 'https://login.dingtalk.com/oauth2/auth', mode: 'redirect' });
    const qr = validateRuntimeConfig({ ...good, dingtalk: { appId: 'dingkey', authorizeUrl: 'https://login.dingtalk.com/oauth2/auth', mode: 'qr', sdkUrl: 'https://cdn.example.com/ddlogin.js' } });
    expect(qr.ok && qr.config.dingtalk).toEqual({ appId: 'dingkey', authorizeUrl: 'https://login.dingtalk.com/oauth2/auth', mode: 'qr', sdkUrl: 'https://cdn.example.com/ddlogin.js' });
  });

  it.each([
    ['not an object', [1, 2], '运行配置应为 JSON 对象'],
    ['a bad mode', { ...good, mode: 'tiny' }, 'mode 只能是 "full" 或 "simple"'],
    ['remotes missing', { ...good, remotes: undefined }, 'remotes 应为数组'],
    ['an unknown remote', { ...good, remotes: [{ name: 'evil', entry: '/x/mf-manifest.json' }] }, 'remotes[0].name 无效：evil'],
    ['a bad entry', { ...good, remotes: [{ name: 'files', entry: 'javascript:alert(1)' }] }, 'remotes[0].entry 应为 mf-manifest.json 的地址'],
    ['a duplicate', { ...good, remotes: [good.remotes[0], good.remotes[0]] }, 'remotes 中 files 重复'],
    ['a wrong type', { ...good, apiUrlPrefix: 5 }, 'apiUrlPrefix 应为字符串'],
    ['a bad number', { ...good, workflowFileNumber: -1 }, 'workflowFileNumber 应为非负整数'],
    ['a DingTalk entry without its address', { ...good, dingtalk: { appId: 'k', authorizeUrl: 'javascript:alert(1)' } }, 'dingtalk 应包含 appId 与 http(s) 地址 authorizeUrl'],
    ['an unknown DingTalk mode', { ...good, dingtalk: { appId: 'k', authorizeUrl: 'https://l/x', mode: 'popup' } }, 'dingtalk.mode 只能是 redirect 或 qr'],
    ['the QR mode without its script', { ...good, dingtalk: { appId: 'k', authorizeUrl: 'https://l/x', mode: 'qr' } }, 'dingtalk.mode 为 qr 时应给出钉钉登录脚本的 http(s) 地址 sdkUrl'],
  ])('rejects %s with a Chinese reason', (_name, doc, reason) => {
    const r = validateRuntimeConfig(doc);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toContain(reason);
  });
});

describe('loadRuntimeConfig', () => {
  beforeEach(() => localStorage.clear());

  it('fetches without cache, validates, and caches the client configuration', async () => {
    const fetchImpl = jest.fn(async () => ({ ok: true, status: 200, json: async () => good }) as unknown as Response);
    expect(hasCachedClientConfig()).toBe(false);
    const r = await loadRuntimeConfig(fetchImpl);
    expect(r.ok).toBe(true);
    expect(fetchImpl).toHaveBeenCalledWith('/runtime-config.json', { cache: 'no-store' });
    expect(hasCachedClientConfig()).toBe(true);
    expect(localStorage.getItem(StorageKey.ClientConfig)).toContain('mf-manifest.json');
  });

  it('reports an unreachable or broken document', async () => {
    const down = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await loadRuntimeConfig(down)).toEqual({ ok: false, errors: ['无法读取运行配置，请检查网络或服务器'] });
    const missing = jest.fn(async () => ({ ok: false, status: 404, json: async () => ({}) }) as unknown as Response);
    expect(await loadRuntimeConfig(missing)).toEqual({ ok: false, errors: ['无法读取运行配置（HTTP 404）'] });
    expect(hasCachedClientConfig()).toBe(false);
  });
});

const response = (status: number, body: string) => ({ ok: status >= 200 && status < 300, status, json: () => Promise.resolve().then(() => JSON.parse(body)) }) as unknown as Response;

describe('the runtime configuration requested as main.js runs', () => {
  const realFetch = global.fetch;
  let fetchMock: jest.Mock;
  beforeEach(() => {
    localStorage.clear();
    fetchMock = jest.fn(async () => response(200, JSON.stringify(good)));
    global.fetch = fetchMock as unknown as typeof fetch;
  });
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('is fetched once, never from the cache, and start-up uses that answer; a later load asks again', async () => {
    startRuntimeConfigRequest();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/runtime-config.json', { cache: 'no-store' });
    const first = await loadRuntimeConfig(fetchRuntimeConfig);
    expect(first).toEqual({ ok: true, config: expect.objectContaining({ appTitle: '云文档', mode: 'full' }) });
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const again = await loadRuntimeConfig(fetchRuntimeConfig);
    expect(again.ok).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('a failed request, an error status or a body that is not JSON, answered before start-up asks, reach it as its Chinese errors', async () => {
    fetchMock.mockImplementationOnce(async () => {
      throw new TypeError('Failed to fetch');
    });
    startRuntimeConfigRequest();
    await new Promise((r) => setTimeout(r, 10));
    expect(await loadRuntimeConfig(fetchRuntimeConfig)).toEqual({ ok: false, errors: ['无法读取运行配置，请检查网络或服务器'] });

    fetchMock.mockImplementationOnce(async () => response(502, 'Bad Gateway'));
    startRuntimeConfigRequest();
    expect(await loadRuntimeConfig(fetchRuntimeConfig)).toEqual({ ok: false, errors: ['无法读取运行配置（HTTP 502）'] });

    fetchMock.mockImplementationOnce(async () => response(200, '<html>'));
    startRuntimeConfigRequest();
    await new Promise((r) => setTimeout(r, 10));
    expect(await loadRuntimeConfig(fetchRuntimeConfig)).toEqual({ ok: false, errors: ['无法读取运行配置，请检查网络或服务器'] });
  });
});
