// Test harness of the 云文档 shell: a fake API behind the real HTTP client, the real router
// in memory, and a probe showing the current location.
import { Provider as JotaiProvider } from 'jotai';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { render } from '@testing-library/react';
import type { AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import {
  appStore,
  featurePolicyAtom,
  homeAtom,
  httpInstance,
  resetAppState,
  resetHttpState,
  resetSessionState,
  rolesAtom,
  runtimeConfigAtom,
  setNotifier,
  setSession,
  type FeaturePolicy,
  type HomeInfo,
  type RuntimeConfig,
  type UserInfo,
} from '@app/shared';
import { ShellRoutes } from '../App';
import { resetBrandingForTests } from '../branding/branding';
import { resetRegisteredRemotes, resetRemoteMetaCache } from '../federation/remotes';
import { resetLoadedMetas } from '../layout/MainLayout';
import { tabsAtom } from '../layout/tabs/tabsState';
import { applyModeAndRemotes } from '../startup/startup';

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
  httpInstance.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
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
  };
  return api;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

export function resetShell(config: RuntimeConfig = fullConfig): void {
  resetAppState();
  resetSessionState();
  resetHttpState();
  resetRegisteredRemotes();
  resetRemoteMetaCache();
  resetLoadedMetas();
  localStorage.clear();
  sessionStorage.clear();
  setNotifier(null);
  appStore.set(tabsAtom, []);
  resetBrandingForTests();
  appStore.set(runtimeConfigAtom, config);
  applyModeAndRemotes();
}

export function renderShell(path: string) {
  return render(
    <JotaiProvider store={appStore}>
      <MemoryRouter initialEntries={[path]}>
        <ShellRoutes />
        <LocationProbe />
      </MemoryRouter>
    </JotaiProvider>,
  );
}

/** A signed-in 张三 with the given home and feature policy in the store. */
export function signedIn(home = homeOf(), policy = allOn, user: Partial<UserInfo> = {}): void {
  setSession({
    userId: '1', userName: 'zhangsan', nickName: '张三', avatar: '', deptName: '研发部', token: 'tok',
    isTagAdmin: false, isDocAdmin: false, isLdapUser: false, allowBackendLogin: false, allowRepositoryLogin: false,
    isFlowAdmin: false, jwtId: 'jwt', passwordReset: false, totpBind: false, totpCode: false,
    ...user,
  });
  appStore.set(homeAtom, home);
  appStore.set(rolesAtom, home.roles);
  appStore.set(featurePolicyAtom, policy);
}
