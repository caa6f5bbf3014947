import { fetchRuntimeConfig, startRuntimeConfigRequest } from './runtimeConfigRequest';
import { loadRuntimeConfig } from './runtimeConfig';

const good = {
  mode: 'full',
  appTitle: '云文档',
  apiUrl: '',
  apiUrlPrefix: '/api',
  fileUrl: '',
  workflowFileNumber: 20,
  remotes: [{ name: 'files', entry: '/remotes/files/mf-manifest.json' }],
};

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
