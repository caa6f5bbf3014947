// Test harness of the 云文档 shell: a fake API behind the real HTTP client (fakeApi.ts), the
// real router in memory, and a probe showing the current location.
import { Provider as JotaiProvider } from 'jotai';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { render } from '@testing-library/react';
import {
  appStore,
  featurePolicyAtom,
  homeAtom,
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
import { allOn, fullConfig, homeOf } from './fakeApi';
export { allOn, fakeApi, fullConfig, homeOf, signedInResult, type FakeApi, type Handler } from './fakeApi';
import { resetBrandingForTests } from '../branding/branding';
import { resetRegisteredRemotes, resetRemoteMetaCache } from '../federation/remotes';
import { resetLoadedMetas } from '../layout/MainLayout';
import { tabsAtom } from '../layout/tabs/tabsState';
import { applyModeAndRemotes } from '../startup/modeAndRemotes';

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
