// Renders a component the way the 云文档 shell does: router + the shared providers, with an
// optional signed-in session.
import type { ReactElement } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import {
  appStore,
  envConfigAtom,
  featurePolicyAtom,
  homeAtom,
  resetAppState,
  rolesAtom,
  setNotifier,
  tokenAtom,
  userInfoAtom,
  type EnvironmentConfig,
  type FeaturePolicy,
  type HomeInfo,
  type Roles,
  type UserInfo,
} from '@app/shared';
import { AppProviders } from '@app/shared/ui';

export const testUser: UserInfo = {
  userId: '1',
  userName: 'zhangsan',
  nickName: '张三',
  avatar: '',
  deptName: '研发部',
  token: 'test-token',
  isTagAdmin: false,
  isDocAdmin: false,
  isLdapUser: false,
  allowBackendLogin: false,
  allowRepositoryLogin: false,
  isFlowAdmin: false,
};

export const testFeaturePolicy: FeaturePolicy = { personalSpace: true, publicSpace: true, workflow: true, ferrySpaces: true };

export const testHome: HomeInfo = {
  baseHome: '/file/personal',
  roles: { personalSpace: true, publicSpace: true },
  menus: [
    { name: 'file', path: '/file/personal', title: '云文档', isShow: true },
    { name: 'workflow', path: '/workflow/list', title: '流程', isShow: true },
    { name: 'swapSpace', path: '/swapSpace/myFerry/processing', title: '交换空间', isShow: true },
    { name: 'setting', path: '/setting/tag', title: '设置', isShow: true },
  ],
};

export interface TestSession {
  token?: string;
  userInfo?: Partial<UserInfo>;
  roles?: Roles;
  featurePolicy?: FeaturePolicy;
  envConfig?: EnvironmentConfig;
  home?: HomeInfo;
}

/** Puts a signed-in session in the shared store (defaults: 张三 with every space on). */
export function signIn(session: TestSession | true = true): UserInfo {
  const s = session === true ? {} : session;
  const token = s.token ?? testUser.token;
  const user = { ...testUser, ...s.userInfo, token };
  appStore.set(tokenAtom, token);
  appStore.set(userInfoAtom, user);
  appStore.set(rolesAtom, s.roles ?? { personalSpace: true, publicSpace: true });
  appStore.set(featurePolicyAtom, s.featurePolicy ?? testFeaturePolicy);
  appStore.set(homeAtom, s.home ?? testHome);
  if (s.envConfig) appStore.set(envConfigAtom, s.envConfig);
  return user;
}

export interface RenderWithProvidersOptions extends Omit<RenderOptions, 'wrapper'> {
  /** initial URL of the MemoryRouter (default '/') */
  route?: string;
  /** a signed-in session: true for the default test user, or parts of it */
  session?: TestSession | true;
  /** keep the store as it is instead of resetting it first (default false) */
  keepState?: boolean;
}

export function renderWithProviders(ui: ReactElement, options: RenderWithProvidersOptions = {}) {
  const { route = '/', session, keepState = false, ...rest } = options;
  if (!keepState) {
    resetAppState();
    window.localStorage.clear();
    window.sessionStorage.clear();
    setNotifier(null);
  }
  if (session) signIn(session);
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </AppProviders>,
    rest,
  );
}
