import { AxiosError, CanceledError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import dayjs from 'dayjs';
import { getWithoutSession, setHttpAdapter, http, resetHttpState } from './client';
import { ApiError } from './errors';
import { setNotifier, type Notifier } from '../notify';
import { appStore, errorLogAtom, resetAppState, runtimeConfigAtom, tokenAtom } from '../state/atoms';
import { setNavigate } from '../navigation';
import { resetSessionState } from '../state/session';
import { Messages } from '../constants';

type Reply = { status?: number; data?: unknown } | Error | ((config: InternalAxiosRequestConfig) => Promise<AxiosResponse>);

const seen: InternalAxiosRequestConfig[] = [];

function reply(r: Reply) {
  setHttpAdapter(async (config: InternalAxiosRequestConfig) => {
    seen.push(config);
    if (typeof r === 'function') return r(config);
    if (r instanceof Error) throw r;
    const response = { data: r.data, status: r.status ?? 200, statusText: '', headers: {}, config } as AxiosResponse;
    if (response.status >= 400) throw new AxiosError(`HTTP ${response.status}`, 'ERR_BAD_RESPONSE', config, null, response);
    return response;
  });
}

function fakeNotifier() {
  const calls: Record<keyof Notifier, unknown[]> = {
    error: [], warning: [], success: [], info: [], modalError: [], confirmExpired: [],
  };
  let expiredOk: (() => void) | null = null;
  setNotifier({
    error: (m) => calls.error.push(m),
    warning: (m) => calls.warning.push(m),
    success: (m) => calls.success.push(m),
    info: (m) => calls.info.push(m),
    modalError: (m) => calls.modalError.push(m),
    confirmExpired: (onOk) => {
      calls.confirmExpired.push(onOk);
      expiredOk = onOk;
    },
  });
  return { calls, clickRelogin: () => expiredOk?.() };
}

let navigate: jest.Mock;

beforeEach(() => {
  seen.length = 0;
  resetAppState();
  resetHttpState();
  resetSessionState();
  localStorage.clear();
  navigate = jest.fn();
  setNavigate(navigate);
  appStore.set(runtimeConfigAtom, null);
});

afterEach(() => {
  jest.useRealTimers();
});

describe('http client', () => {
  it('resolves with the envelope result on code 200 and sends prefix, bearer and timestamp', async () => {
    const { calls } = fakeNotifier();
    appStore.set(tokenAtom, 'abc');
    reply({ data: { code: 200, result: { hello: '世界' }, message: null } });
    await expect(http.get('/User/Home', { params: { q: 1 } })).resolves.toEqual({ hello: '世界' });
    expect(seen[0].url).toBe('/api/User/Home');
    expect(seen[0].headers.Authorization).toBe('Bearer abc');
    expect(seen[0].params.q).toBe(1);
    expect(typeof seen[0].params.timestamp).toBe('number');
    expect(seen[0].timeout).toBe(60_000);
    expect(calls.error).toHaveLength(0);
  });

  it('uses the runtime configuration for base URL and prefix, and omits the token when asked', async () => {
    fakeNotifier();
    appStore.set(tokenAtom, 'abc');
    appStore.set(runtimeConfigAtom, {
      mode: 'full', appTitle: '云文档', apiUrl: 'http://api.example', apiUrlPrefix: '/gateway', fileUrl: '', workflowFileNumber: 20, remotes: [],
    });
    reply({ data: { code: 200, result: 1, message: null } });
    await http.post('/login', { a: 1 }, { withToken: false });
    expect(seen[0].baseURL).toBe('http://api.example');
    expect(seen[0].url).toBe('/gateway/login');
    expect(seen[0].headers.Authorization).toBeUndefined();
    expect(seen[0].params).toBeUndefined();
  });

  it('trims payload strings and formats dates as YYYY-MM-DD HH:mm:ss', async () => {
    fakeNotifier();
    reply({ data: { code: 200, result: null, message: null } });
    const when = new Date(2024, 0, 2, 3, 4, 5);
    await http.post('/x', { name: '  报告.docx  ', nested: { at: dayjs(when), list: [' a ', when] }, n: 3 });
    const body = typeof seen[0].data === 'string' ? JSON.parse(seen[0].data) : seen[0].data;
    expect(body).toEqual({
      name: '报告.docx',
      nested: { at: '2024-01-02 03:04:05', list: ['a', '2024-01-02 03:04:05'] },
      n: 3,
    });
  });

  it('envelope 401 opens the expired-session dialog; 重新登录 clears the token and signs out', async () => {
    const { calls, clickRelogin } = fakeNotifier();
    appStore.set(tokenAtom, 'old');
    reply({ data: { code: 401, result: null, message: '登录已失效' } });
    await expect(http.get('/User/Home')).rejects.toMatchObject({ code: 401 });
    // a second failure while the dialog is open does not open another one
    await expect(http.get('/User/Other')).rejects.toBeInstanceOf(ApiError);
    expect(calls.confirmExpired).toHaveLength(1);
    expect(navigate).not.toHaveBeenCalled();
    reply({ data: { code: 200, result: null, message: null } }); // quit
    clickRelogin();
    expect(appStore.get(tokenAtom)).toBeNull();
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('envelope 401 with the share-expired message shows it as an error instead', async () => {
    const { calls } = fakeNotifier();
    reply({ data: { code: 401, result: null, message: Messages.shareExpired } });
    await expect(http.get('/share')).rejects.toMatchObject({ code: 401, message: Messages.shareExpired });
    expect(calls.confirmExpired).toHaveLength(0);
    expect(calls.error).toEqual([Messages.shareExpired]);
  });

  it('envelope 401 with silentLogout opens no dialog', async () => {
    const { calls } = fakeNotifier();
    reply({ data: { code: 401, result: null, message: null } });
    await expect(http.get('/x', { silentLogout: true })).rejects.toMatchObject({ code: 401 });
    expect(calls.confirmExpired).toHaveLength(0);
  });

  it('envelope 403 shows the message and signs out with the expiry warning', async () => {
    jest.useFakeTimers();
    const { calls } = fakeNotifier();
    appStore.set(tokenAtom, 'tok');
    reply({ data: { code: 403, result: null, message: '账号已停用' } });
    await expect(http.get('/User/Home')).rejects.toMatchObject({ code: 403, message: '账号已停用' });
    expect(calls.error).toEqual(['账号已停用']);
    expect(calls.warning).toEqual([Messages.expiredWarning]);
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1_000);
    await jest.advanceTimersByTimeAsync(0);
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('other envelope codes show the message, or the fallback; modal mode uses the modal', async () => {
    const { calls } = fakeNotifier();
    reply({ data: { code: 40901, result: null, message: '名称已存在' } });
    await expect(http.post('/User/Files/CreateFile', {})).rejects.toMatchObject({ code: 40901, message: '名称已存在' });
    reply({ data: { code: 500, result: null, message: null } });
    await expect(http.get('/y', { errorMode: 'modal' })).rejects.toMatchObject({ message: Messages.requestError });
    reply({ data: { code: 40001, result: null, message: '字段错误' } });
    await expect(http.get('/z', { errorMode: 'none' })).rejects.toMatchObject({ code: 40001 });
    expect(calls.error).toEqual(['名称已存在']);
    expect(calls.modalError).toEqual([Messages.requestError]);
  });

  it('a response without an envelope gives the fallback message', async () => {
    const { calls } = fakeNotifier();
    reply({ data: '<html>' });
    await expect(http.get('/x')).rejects.toMatchObject({ message: Messages.requestError });
    expect(calls.error).toEqual([Messages.requestError]);
  });

  it('HTTP errors carrying an envelope follow its code (400 → message, 403/40301 → message, no sign-out)', async () => {
    const { calls } = fakeNotifier();
    appStore.set(tokenAtom, 't');
    reply({ status: 400, data: { code: 40001, result: null, message: '用户名或密码错误' } });
    await expect(http.post('/login', {})).rejects.toMatchObject({ code: 40001, status: 400, message: '用户名或密码错误' });
    reply({ status: 403, data: { code: 40301, result: null, message: '没有权限' } });
    await expect(http.get('/x')).rejects.toMatchObject({ code: 40301, status: 403 });
    expect(calls.error).toEqual(['用户名或密码错误', '没有权限']);
    expect(appStore.get(tokenAtom)).toBe('t');
  });

  it('HTTP 500 without an envelope shows the server message', async () => {
    const { calls } = fakeNotifier();
    reply({ status: 502, data: { message: '网关错误' } });
    await expect(http.get('/x')).rejects.toMatchObject({ status: 502, message: '网关错误' });
    expect(calls.error).toEqual(['网关错误']);
  });

  it('HTTP 401 without an envelope clears the token and signs out', async () => {
    fakeNotifier();
    appStore.set(tokenAtom, 't');
    reply({ status: 401, data: '' });
    await expect(http.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(appStore.get(tokenAtom)).toBeNull();
    await new Promise((r) => setTimeout(r, 0));
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('timeouts and network failures show 接口请求超时，请刷新页面重试 and are logged', async () => {
    const { calls } = fakeNotifier();
    reply(new AxiosError('timeout of 60000ms exceeded', 'ECONNABORTED'));
    await expect(http.get('/slow')).rejects.toMatchObject({ message: Messages.requestTimeout });
    reply(new AxiosError('Network Error', 'ERR_NETWORK'));
    await expect(http.get('/down')).rejects.toMatchObject({ message: Messages.requestTimeout });
    expect(calls.error).toEqual([Messages.requestTimeout, Messages.requestTimeout]);
    const log = appStore.get(errorLogAtom);
    expect(log).toHaveLength(2);
    expect(log[0].url).toBe('/api/down'); // newest first
    expect(log[0].time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  it('a second identical request cancels the first when cancellation is not ignored', async () => {
    const { calls } = fakeNotifier();
    reply((config) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => resolve({ data: { code: 200, result: config.params.n, message: null }, status: 200, statusText: '', headers: {}, config } as AxiosResponse),
          20,
        );
        config.signal?.addEventListener?.('abort', () => {
          clearTimeout(timer);
          reject(new CanceledError(undefined, undefined, config));
        });
      }),
    );
    const first = http.get('/Search', { ignoreCancel: false, params: { n: 1 } });
    const second = http.get('/Search', { ignoreCancel: false, params: { n: 2 } });
    await expect(first).rejects.toMatchObject({ canceled: true });
    await expect(second).resolves.toBe(2);
    // by default (cancellation ignored) both complete
    const a = http.get('/Search', { params: { n: 3 } });
    const b = http.get('/Search', { params: { n: 4 } });
    await expect(Promise.all([a, b])).resolves.toEqual([3, 4]);
    expect(calls.error).toHaveLength(0);
  });

  it('getWithoutSession sends the same address with fetch, without the token, and shows nothing on a failure', async () => {
    const { calls } = fakeNotifier();
    appStore.set(tokenAtom, 'abc');
    appStore.set(runtimeConfigAtom, {
      mode: 'full', appTitle: '云文档', apiUrl: 'http://api.example', apiUrlPrefix: '/gateway', fileUrl: '', workflowFileNumber: 20, remotes: [],
    });
    const asked: Array<{ url: string; init?: RequestInit }> = [];
    let answer: { status: number; body: unknown } = { status: 200, body: { code: 200, result: { systemName_Client: '星河' }, message: null } };
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string, init?: RequestInit) => {
      asked.push({ url, init });
      return { ok: answer.status < 400, status: answer.status, json: async () => answer.body } as Response;
    }) as typeof fetch;
    try {
      await expect(getWithoutSession('/Client/Branding')).resolves.toEqual({ systemName_Client: '星河' });
      expect(asked[0].url).toMatch(/^http:\/\/api\.example\/gateway\/Client\/Branding\?timestamp=\d+$/);
      expect(JSON.stringify(asked[0].init?.headers ?? {})).not.toContain('abc');

      answer = { status: 500, body: { code: 500, result: null, message: '服务器忙' } };
      await expect(getWithoutSession('/Client/Branding')).rejects.toMatchObject({ message: '服务器忙', code: 500, status: 500 });
      answer = { status: 502, body: null };
      await expect(getWithoutSession('/Client/Branding')).rejects.toMatchObject({ message: Messages.requestError, code: 502 });
      globalThis.fetch = (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof fetch;
      await expect(getWithoutSession('/Client/Branding')).rejects.toMatchObject({ message: Messages.requestTimeout, code: 0 });
      expect(calls.error).toHaveLength(0);
      expect(calls.modalError).toHaveLength(0);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
