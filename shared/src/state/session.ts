// Session of 云文档 (spec section 4 "Session"): sign-in, sign-out, expiry, cross-tab sync.
import { api } from '../api';
import type { HomeInfo, LoginResult, TemporaryLogin, UserInfo } from '../api/types';
import {
  EXPIRED_REDIRECT_DELAY_MS,
  LOGIN_PATH,
  Messages,
  SESSION_CHANNEL_NAME,
  StorageKey,
  TOKEN_COOKIE_DAYS,
  TOKEN_COOKIE_NAME,
} from '../constants';
import { cancelAllPending } from '../http/client';
import { navigateTo } from '../navigation';
import { notify } from '../notify';
import { localStore, removeCookie, sessionStore, setCookie } from '../storage';
import {
  appStore,
  envConfigAtom,
  featurePolicyAtom,
  homeAtom,
  loadSessionFromStorage,
  rolesAtom,
  tokenAtom,
  userInfoAtom,
} from './atoms';

const USER_FIELDS: Array<keyof UserInfo> = [
  'userId', 'userName', 'nickName', 'avatar', 'deptName', 'token', 'isTagAdmin', 'isDocAdmin',
  'isLdapUser', 'allowBackendLogin', 'allowRepositoryLogin', 'isFlowAdmin', 'isAdmin',
];

function pickUserInfo(source: Partial<UserInfo>, token: string): UserInfo {
  const info = {} as Record<string, unknown>;
  for (const f of USER_FIELDS) info[f] = source[f];
  info.token = token;
  return info as unknown as UserInfo;
}

let logoutFlag = false;
let logoutRun: Promise<void> | null = null;

/** True from the start of a sign-out until the next sign-in: failures are then not shown. */
export function isLogoutInProgress(): boolean {
  return logoutFlag;
}

// ---- cross-tab sync ---------------------------------------------------------------------
interface SessionMessage {
  type: 'session';
  token: string | null;
}

let channel: BroadcastChannel | null = null;

function broadcast(token: string | null): void {
  try {
    channel?.postMessage({ type: 'session', token } satisfies SessionMessage);
  } catch {
    /* a closed channel: ignored */
  }
}

/**
 * Listens to sign-ins and sign-outs of other tabs. A message carries the token: a new token
 * loads that session (user info and roles from localStorage); null ends this tab's session.
 * Returns a function that stops listening.
 */
export function startSessionSync(onChange?: (token: string | null) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  channel?.close();
  const own = new BroadcastChannel(SESSION_CHANNEL_NAME);
  channel = own;
  own.onmessage = (event: MessageEvent<SessionMessage>) => {
    const data = event.data;
    if (!data || data.type !== 'session') return;
    if (data.token) {
      if (data.token === appStore.get(tokenAtom)) return;
      logoutFlag = false;
      loadSessionFromStorage();
      appStore.set(tokenAtom, data.token);
    } else {
      if (!appStore.get(tokenAtom)) return;
      clearSession();
    }
    onChange?.(data.token);
  };
  return () => {
    own.close();
    if (channel === own) channel = null;
  };
}

// ---- sign-in ----------------------------------------------------------------------------
/**
 * Stores a successful sign-in: token, user info, the cookie `token` (jwtId, 720 days);
 * clears the logout flag and tells the other tabs. A result without a token (password
 * reset or TOTP required) stores nothing and returns null.
 */
export function setSession(login: LoginResult | TemporaryLogin): UserInfo | null {
  const isTemp = 'accessToken' in login;
  const token = isTemp ? login.accessToken : login.token;
  if (!token) return null;
  const info = pickUserInfo(isTemp ? login.accessUserInfo ?? {} : login, token);
  logoutFlag = false;
  appStore.set(tokenAtom, token);
  appStore.set(userInfoAtom, info);
  if (!isTemp && login.jwtId) setCookie(TOKEN_COOKIE_NAME, login.jwtId, TOKEN_COOKIE_DAYS);
  broadcast(token);
  return info;
}

/** Loads what the signed-in layout needs: home and menus, roles, feature policy, folder names. */
export async function loadUserContext(): Promise<HomeInfo> {
  const [home, policy, env] = await Promise.all([
    api.getHome(),
    api.getFeaturePolicy(),
    api.getEnvironmentConfig().catch(() => null),
  ]);
  appStore.set(homeAtom, home);
  appStore.set(rolesAtom, home.roles);
  appStore.set(featurePolicyAtom, policy);
  if (env) {
    appStore.set(envConfigAtom, {
      personalFolderName: env.personalFolderName || '个人文件',
      publicFolderName: env.publicFolderName || '企业文件',
    });
  }
  return home;
}

/**
 * Start-up rule of spec section 4: if a `temporarily-token` item exists it names another
 * key whose JSON value `{ accessToken, accessUserInfo }` becomes the session; the item is
 * removed. Errors are swallowed. Returns true when a session was taken over.
 */
export function applyTemporaryToken(): boolean {
  try {
    const pointer = window.localStorage.getItem(StorageKey.TemporaryToken);
    if (!pointer) return false;
    window.localStorage.removeItem(StorageKey.TemporaryToken);
    const raw = window.localStorage.getItem(pointer);
    if (!raw) return false;
    const record = JSON.parse(raw) as Partial<TemporaryLogin>;
    if (!record || typeof record.accessToken !== 'string' || !record.accessToken) return false;
    return setSession({ accessToken: record.accessToken, accessUserInfo: record.accessUserInfo ?? {} }) !== null;
  } catch {
    return false;
  }
}

// ---- sign-out ---------------------------------------------------------------------------
/** Clears session storage, the permission cache, the cookie, token, roles and user info. */
export function clearSession(): void {
  sessionStore.clear();
  localStore.remove(StorageKey.Permission);
  removeCookie(TOKEN_COOKIE_NAME);
  appStore.set(tokenAtom, null);
  appStore.set(rolesAtom, null);
  appStore.set(userInfoAtom, null);
  appStore.set(homeAtom, null);
  appStore.set(featurePolicyAtom, null);
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Signs out (spec section 4): sets the logout flag, calls quit (failure ignored), clears the
 * session and goes to the login page. With `expired` it first warns
 * 登录信息已过期，即将返回登录页... and goes on after 1 s. One sign-out at a time.
 */
export function logout(options: { expired?: boolean } = {}): Promise<void> {
  if (logoutRun) return logoutRun;
  logoutRun = (async () => {
    try {
      if (options.expired) {
        notify.warning(Messages.expiredWarning);
        await delay(EXPIRED_REDIRECT_DELAY_MS);
      }
      logoutFlag = true;
      const token = appStore.get(tokenAtom) ?? appStore.get(userInfoAtom)?.token ?? null;
      cancelAllPending();
      if (token) {
        // The session ends server-side; a slow or failed answer does not keep the user here.
        const quit = api
          .quit({ withToken: false, headers: { Authorization: `Bearer ${token}` } })
          .catch(() => undefined);
        await Promise.race([quit, delay(2_000)]);
      }
      clearSession();
      broadcast(null);
      navigateTo(LOGIN_PATH, { replace: true });
      // late failures of requests sent before the sign-out stay quiet for a moment
      setTimeout(() => {
        if (!appStore.get(tokenAtom)) logoutFlag = false;
      }, 1_000);
    } finally {
      logoutRun = null;
    }
  })();
  return logoutRun;
}

/** Only for tests: forget the logout flag and any sign-out in progress. */
export function resetSessionState(): void {
  logoutFlag = false;
  logoutRun = null;
}
