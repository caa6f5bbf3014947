// The HTTP client of 云文档 (spec sections 7 and 8): URL prefix and base from the runtime
// configuration, GET timestamp, bearer token, 60 s timeout, payload trimming and date
// formatting, duplicate-request cancelling, the envelope and the error catalogue.
import type {
  AxiosAdapter,
  AxiosError,
  AxiosInstance,
  AxiosRequestConfig,
  AxiosResponse,
  AxiosStatic,
  InternalAxiosRequestConfig,
} from 'axios';
import type { ApiEnvelope } from '../api/types';
import { DEFAULT_API_URL_PREFIX, Messages, REQUEST_TIMEOUT_MS } from '../constants';
import { appendErrorLog } from '../errorLog';
import { notify } from '../notify';
import { appStore, runtimeConfigAtom, tokenAtom } from '../state/atoms';
import { isLogoutInProgress, logout } from '../state/session';
import { ApiError } from './errors';
import { preparePayload } from './transform';

export type ErrorMode = 'toast' | 'modal' | 'none';

export interface RequestOptions {
  /** how a failure is shown: toast (default), modal (titled 错误提示) or not at all */
  errorMode?: ErrorMode;
  /** an expired session (envelope 401) does not open the re-login dialog */
  silentLogout?: boolean;
  /** send the bearer token (default true) */
  withToken?: boolean;
  /** do not cancel an earlier identical pending request (default true) */
  ignoreCancel?: boolean;
  /** add the API prefix and base URL (default true) */
  joinPrefix?: boolean;
}

export type HttpConfig = AxiosRequestConfig & RequestOptions;

type InternalConfig = InternalAxiosRequestConfig & RequestOptions & { __pendingKey?: string };

// ---- duplicate-request cancelling ---------------------------------------------------------
const pending = new Map<string, AbortController>();
const pendingKey = (c: AxiosRequestConfig) => `${(c.method ?? 'get').toLowerCase()}&${c.url ?? ''}`;

function addPending(config: InternalConfig): void {
  if (config.ignoreCancel !== false) return;
  const key = pendingKey(config);
  pending.get(key)?.abort();
  const controller = new AbortController();
  if (config.signal) {
    const outer = config.signal as AbortSignal;
    if (outer.aborted) controller.abort();
    else outer.addEventListener?.('abort', () => controller.abort());
  }
  config.signal = controller.signal;
  config.__pendingKey = key;
  pending.set(key, controller);
}

function removePending(config: InternalConfig | undefined): void {
  const key = config?.__pendingKey;
  if (!key) return;
  const controller = pending.get(key);
  if (controller && controller.signal === config.signal) pending.delete(key);
}

/** Cancels every pending cancellable request (on sign-out). */
export function cancelAllPending(): void {
  for (const c of pending.values()) c.abort();
  pending.clear();
}

// ---- the axios instance -----------------------------------------------------------------
function joinUrl(url: string): { baseURL: string; url: string } {
  const rc = appStore.get(runtimeConfigAtom);
  const prefix = (rc?.apiUrlPrefix ?? DEFAULT_API_URL_PREFIX).replace(/\/$/, '');
  const base = (rc?.apiUrl ?? '').replace(/\/$/, '');
  if (/^https?:\/\//i.test(url)) return { baseURL: '', url };
  const rel = url.startsWith('/') ? url : `/${url}`;
  const withPrefix = prefix && !(rel === prefix || rel.startsWith(`${prefix}/`)) ? `${prefix}${rel}` : rel;
  return { baseURL: base, url: withPrefix };
}

/**
 * The full address of an API path, as requests are sent: the API base URL of the runtime
 * configuration, then its prefix (`/api`) unless the path carries it already. Absolute URLs are
 * kept.
 */
export function apiAddress(path: string): string {
  const joined = joinUrl(path);
  return `${joined.baseURL}${joined.url}`;
}

function prepareRequest(config: InternalConfig): InternalConfig {
  if (config.joinPrefix !== false && config.url) {
    const joined = joinUrl(config.url);
    config.url = joined.url;
    if (!config.baseURL) config.baseURL = joined.baseURL;
  }
  const method = (config.method ?? 'get').toLowerCase();
  if (method === 'get') {
    config.params = { ...preparePayload(config.params ?? {}), timestamp: Date.now() };
  } else {
    if (config.params) config.params = preparePayload(config.params);
    if (config.data !== undefined) config.data = preparePayload(config.data);
  }
  if (config.withToken !== false) {
    const token = appStore.get(tokenAtom);
    if (token && !config.headers.has?.('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
  }
  addPending(config);
  return config;
}

interface Client {
  axios: AxiosStatic;
  instance: AxiosInstance;
}

let client: Promise<Client> | null = null;
let testAdapter: AxiosAdapter | undefined;

/** axios, loaded with the first request: the sign-in page shows its form without it. */
function loadClient(): Promise<Client> {
  client ??= import('axios').then(
    ({ default: axios }) => {
      const instance = axios.create({
        timeout: REQUEST_TIMEOUT_MS,
        headers: { 'Content-Type': 'application/json;charset=UTF-8' },
      });
      instance.interceptors.request.use(prepareRequest, undefined, { synchronous: true });
      return { axios, instance };
    },
    (e: unknown) => {
      client = null; // tried again with the next request
      throw e;
    },
  );
  return client;
}

/** Only for tests: every request is answered by `adapter` (undefined: the network again). */
export function setHttpAdapter(adapter: AxiosAdapter | undefined): void {
  testAdapter = adapter;
}

// ---- error handling -----------------------------------------------------------------------
let expiredDialogOpen = false;

function show(message: string, mode: ErrorMode): void {
  if (mode === 'none' || isLogoutInProgress()) return;
  if (mode === 'modal') notify.modalError(message);
  else notify.error(message);
}

function openExpiredDialog(): void {
  if (expiredDialogOpen || isLogoutInProgress()) return;
  expiredDialogOpen = true;
  notify.confirmExpired(() => {
    expiredDialogOpen = false;
    appStore.set(tokenAtom, null);
    void logout();
  });
}

function handleEnvelopeFailure(body: ApiEnvelope<unknown>, config: HttpConfig, status: number | undefined): ApiError {
  const mode = config.errorMode ?? 'toast';
  const message = body.message || Messages.requestError;
  if (body.code === 401) {
    if (body.message && body.message.trim() === Messages.shareExpired) {
      show(body.message, mode);
    } else if (!config.silentLogout) {
      openExpiredDialog();
    }
  } else if (body.code === 403) {
    show(message, mode);
    appStore.set(tokenAtom, null);
    void logout({ expired: true });
  } else {
    show(message, mode);
  }
  return new ApiError(message, body.code, { status, result: body.result, serverMessage: body.message || null });
}

function isEnvelope(data: unknown): data is ApiEnvelope<unknown> {
  return !!data && typeof data === 'object' && typeof (data as { code?: unknown }).code === 'number';
}

function handleHttpFailure(error: AxiosError, config: HttpConfig): ApiError {
  const mode = config.errorMode ?? 'toast';
  const res = error.response;
  if (!res) {
    // timeout or network failure
    show(Messages.requestTimeout, mode);
    return new ApiError(Messages.requestTimeout, 0);
  }
  // A failure answered with an envelope is judged by its envelope code (spec section 8,
  // api-contract "Envelope and status").
  if (isEnvelope(res.data)) return handleEnvelopeFailure(res.data, config, res.status);
  const own =
    res.data && typeof res.data === 'object' && typeof (res.data as { message?: unknown }).message === 'string'
      ? (res.data as { message: string }).message
      : '';
  const serverMessage = own || Messages.requestError;
  if (res.status === 401) {
    appStore.set(tokenAtom, null);
    if (!config.silentLogout) void logout();
    return new ApiError(serverMessage, 401, { status: 401, serverMessage: own || null });
  }
  show(serverMessage, mode);
  return new ApiError(serverMessage, res.status, { status: res.status, serverMessage: own || null });
}

function logError(err: ApiError, config: HttpConfig): void {
  appendErrorLog({
    type: 'ajax',
    message: err.message,
    url: config.url && config.joinPrefix !== false ? joinUrl(config.url).url : config.url,
    method: (config.method ?? 'get').toUpperCase(),
    code: err.code,
    status: err.status,
  });
}

/** Sends a request and resolves with the envelope's `result` (envelope code 200). */
export async function request<T>(config: HttpConfig): Promise<T> {
  let loaded: Client;
  try {
    loaded = await loadClient();
  } catch {
    // the script of the client could not be loaded: the same as a network failure
    const apiError = new ApiError(Messages.requestTimeout, 0);
    show(apiError.message, config.errorMode ?? 'toast');
    logError(apiError, config);
    throw apiError;
  }
  const { axios, instance } = loaded;
  let response: AxiosResponse<unknown>;
  try {
    response = await instance.request(testAdapter ? { ...config, adapter: testAdapter } : config);
  } catch (e) {
    const err = e as AxiosError;
    removePending(err.config as InternalConfig | undefined);
    if (axios.isCancel(e)) {
      throw new ApiError('请求已取消', 0, { canceled: true });
    }
    const apiError = axios.isAxiosError(e) ? handleHttpFailure(err, config) : new ApiError(Messages.requestError, 0);
    logError(apiError, config);
    throw apiError;
  }
  removePending(response.config as InternalConfig);
  const body = response.data;
  if (isEnvelope(body)) {
    if (body.code === 200) return body.result as T;
    const apiError = handleEnvelopeFailure(body, config, response.status);
    logError(apiError, config);
    throw apiError;
  }
  const apiError = new ApiError(Messages.requestError, 0, { status: response.status });
  show(apiError.message, config.errorMode ?? 'toast');
  logError(apiError, config);
  throw apiError;
}

export const http = {
  request,
  get: <T>(url: string, config?: HttpConfig) => request<T>({ ...config, url, method: 'GET' }),
  post: <T>(url: string, data?: unknown, config?: HttpConfig) => request<T>({ ...config, url, data, method: 'POST' }),
  put: <T>(url: string, data?: unknown, config?: HttpConfig) => request<T>({ ...config, url, data, method: 'PUT' }),
  delete: <T>(url: string, config?: HttpConfig & { data?: unknown }) => request<T>({ ...config, url, method: 'DELETE' }),
};

/**
 * A GET without a session, sent with fetch rather than axios (the branding the sign-in page
 * shows before anyone signs in): the same address and envelope as `http.get`, nothing shown on
 * a failure, which rejects with an ApiError.
 */
export async function getWithoutSession<T>(url: string): Promise<T> {
  const base = apiAddress(url);
  const address = `${base}${base.includes('?') ? '&' : '?'}timestamp=${Date.now()}`;
  let res: Response;
  try {
    res = await fetch(address, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout?.(REQUEST_TIMEOUT_MS) });
  } catch {
    throw new ApiError(Messages.requestTimeout, 0);
  }
  const body: unknown = await res.json().catch(() => null);
  if (isEnvelope(body) && body.code === 200) return body.result as T;
  const message = (isEnvelope(body) && body.message) || Messages.requestError;
  throw new ApiError(message, isEnvelope(body) ? body.code : res.status, { status: res.status, serverMessage: isEnvelope(body) ? body.message || null : null });
}

/** Only for tests: forget the dialog guard between cases. */
export function resetHttpState(): void {
  expiredDialogOpen = false;
  cancelAllPending();
}
