// A fake 云文档 API behind the real HTTP client (no router: the sign-in page's own tests use it
// too), and the data the shell's tests start from.
import type { AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import {
  appStore, resetAppState, resetHttpState, resetSessionState, runtimeConfigAtom, setHttpAdapter, type FeaturePolicy, type HomeInfo,
  type RuntimeConfig,
} from '@app/shared';
import { resetBrandingForTests } from '../branding/branding';

export const fullConfig: RuntimeConfig = {
  mode: 'full',
  appTitle: '云文档',
  apiUrl: '',
  apiUrlPrefix: '/api',
  fileUrl: '',
  workflowFileNumber: 20,
  remotes: [
    { name: 'files', entry: '/remotes/files/mf-manifest.json' },
    { name: 'workflow', entry: '/remotes/workflow/mf-manifest.json' },
    { name: 'swapspace', entry: '/remotes/swapspace/mf-manifest.json' },
    { name: 'ferry', entry: '/remotes/ferry/mf-manifest.json' },
    { name: 'share', entry: '/remotes/share/mf-manifest.json' },
  ],
};

export const allOn: FeaturePolicy = { personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: true };

export const homeOf = (overrides: Partial<Record<'file' | 'workflow' | 'swapSpace' | 'setting', boolean>> = {}): HomeInfo => {
  const menus = [
    { name: 'file' as const, path: '/file/personal', title: '云文档', isShow: overrides.file ?? true },
    { name: 'workflow' as const, path: '/workflow/list', title: '流程', isShow: overrides.workflow ?? true },
    { name: 'swapSpace' as const, path: '/swapSpace/myFerry/processing', title: '交换空间', isShow: overrides.swapSpace ?? true },
    { name: 'setting' as const, path: '/setting/tag', title: '设置', isShow: overrides.setting ?? true },
  ];
  const first = menus.find((m) => m.isShow);
  return { baseHome: first?.path ?? '/404', roles: { personalSpace: true, publicSpace: true }, menus };
};

/** What POST /api/login answers for 张三, signed in at once (no second step). */
export const signedInResult = {
  userId: '1', userName: 'zhangsan', nickName: '张三', avatar: '', deptName: '', token: 'new-token', jwtId: 'j',
  isTagAdmin: false, isDocAdmin: false, isLdapUser: false, allowBackendLogin: false, allowRepositoryLogin: false,
  isFlowAdmin: false, showGuide: false, passwordReset: false, totpBind: false, totpCode: false,
};

/** The sign-in page's tests start from nothing: state, session, HTTP client, branding and storage; the full configuration, at /login. */
export function resetSignInPage(): void {
  resetAppState();
  resetSessionState();
  resetHttpState();
  resetBrandingForTests();
  localStorage.clear();
  sessionStorage.clear();
  appStore.set(runtimeConfigAtom, fullConfig);
  window.history.replaceState(null, '', '/login');
}

export type Handler = (config: InternalAxiosRequestConfig) => { status?: number; data: unknown } | undefined;

export interface FakeApi {
  calls: string[];
  handlers: Record<string, Handler>;
}

const ok = (result: unknown) => ({ data: { code: 200, result, message: null } });

/** Routes `METHOD /api/path` to handlers; defaults answer the start-up calls. */
export function fakeApi(options: { home?: HomeInfo; policy?: FeaturePolicy; handlers?: Record<string, Handler> } = {}): FakeApi {
  const api: FakeApi = {
    calls: [],
    handlers: {
      'GET /api/User/Home': () => ok(options.home ?? homeOf()),
      'GET /api/User/GlobalPolicies/FeaturePolicy': () => ok(options.policy ?? allOn),
      'GET /api/EnvironmentConfig': () => ok({ personalFolderName: '个人文件', publicFolderName: '企业文件' }),
      'GET /api/Client/Branding': () => ok({ systemName_Client: '云文档' }),
      'GET /api/Client/Agreements/service': () => ok({ kind: 'service', title: '服务协议', content: '欢迎使用云文档。\n\n# 一、账号\n- 妥善保管密码', updatedAt: null }),
      'GET /api/Client/Agreements/privacy': () => ok({ kind: 'privacy', title: '隐私政策', content: '云文档只收集必需的信息。', updatedAt: null }),
      'POST /api/login/quit': () => ok(null),
      ...options.handlers,
    },
  };
  setHttpAdapter(async (config: InternalAxiosRequestConfig) => {
    const key = `${(config.method ?? 'get').toUpperCase()} ${config.url}`;
    api.calls.push(key);
    const handler = api.handlers[key];
    const out = handler?.(config) ?? { status: 404, data: { code: 404, result: null, message: '接口不存在' } };
    const response = { data: out.data, status: out.status ?? 200, statusText: '', headers: {}, config } as AxiosResponse;
    if (response.status >= 400) {
      const { AxiosError } = await import('axios');
      throw new AxiosError(`HTTP ${response.status}`, 'ERR_BAD_RESPONSE', config, null, response);
    }
    return response;
  });
  // the calls sent with fetch (the sign-in page's branding) reach the same handlers
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const key = `${method} ${url.pathname}`;
    api.calls.push(key);
    const config = { method: method.toLowerCase(), url: url.pathname, params: Object.fromEntries(url.searchParams), headers: init?.headers ?? {} };
    const out = api.handlers[key]?.(config as unknown as InternalAxiosRequestConfig) ?? { status: 404, data: { code: 404, result: null, message: '接口不存在' } };
    return { ok: (out.status ?? 200) < 400, status: out.status ?? 200, json: async () => out.data } as Response;
  }) as typeof fetch;
  return api;
}
