import { api } from '../api';
import { SESSION_CHANNEL_NAME, StorageKey, STORAGE_EXPIRE_SECONDS } from '../constants';
import { setHttpAdapter } from '../http/client';
import { setNavigate } from '../navigation';
import { setNotifier } from '../notify';
import { getCookie, localStore } from '../storage';
import {
  appStore,
  featurePolicyAtom,
  homeAtom,
  loadSessionFromStorage,
  resetAppState,
  rolesAtom,
  tokenAtom,
  userInfoAtom,
} from './atoms';
import { applyTemporaryToken, logout, resetSessionState, setSession, startSessionSync } from './session';
import type { LoginResult } from '../api/types';

const login: LoginResult = {
  userId: '7', userName: 'lisi', nickName: '李四', avatar: '', deptName: '市场部', token: 'tok-1',
  isTagAdmin: false, isDocAdmin: true, isLdapUser: false, allowBackendLogin: false, allowRepositoryLogin: false,
  isFlowAdmin: false, jwtId: 'jwt-1', showGuide: false, passwordReset: false, totpBind: false, totpCode: false,
};

let navigate: jest.Mock;
let requests: string[];

beforeEach(() => {
  resetAppState();
  resetSessionState();
  localStorage.clear();
  sessionStorage.clear();
  document.cookie = 'token=; max-age=0; path=/';
  navigate = jest.fn();
  setNavigate(navigate);
  setNotifier({ warning: jest.fn(), error: jest.fn() });
  requests = [];
  setHttpAdapter(async (config) => {
    requests.push(`${config.method} ${config.url} ${String(config.headers.Authorization ?? '')}`);
    return { data: { code: 200, result: null, message: null }, status: 200, statusText: '', headers: {}, config };
  });
});

afterEach(() => jest.useRealTimers());

describe('session', () => {
  it('setSession stores token, user info and the token cookie, persisted for 7 days', () => {
    const user = setSession(login);
    expect(user).toMatchObject({ userId: '7', nickName: '李四', token: 'tok-1' });
    expect(user).not.toHaveProperty('jwtId');
    expect(appStore.get(tokenAtom)).toBe('tok-1');
    expect(getCookie('token')).toBe('jwt-1');
    const raw = JSON.parse(localStorage.getItem(StorageKey.Token)!);
    expect(raw.value).toBe('tok-1');
    expect(raw.expire - raw.time).toBe(STORAGE_EXPIRE_SECONDS * 1000);
    expect(localStore.get(StorageKey.UserInfo)).toMatchObject({ nickName: '李四' });
  });

  it('a sign-in that needs a second step stores nothing', () => {
    expect(setSession({ passwordReset: true, totpBind: false, totpCode: false, actionToken: 'a' })).toBeNull();
    expect(appStore.get(tokenAtom)).toBeNull();
  });

  it('stored session items expire after 7 days', () => {
    jest.useFakeTimers({ now: new Date('2025-03-01T08:00:00Z') });
    setSession(login);
    resetAppState(); // as if the page were reloaded...
    localStore.set(StorageKey.Token, 'tok-1'); // (resetAppState cleared it; store again at t0)
    jest.setSystemTime(new Date('2025-03-07T08:00:00Z'));
    loadSessionFromStorage();
    expect(appStore.get(tokenAtom)).toBe('tok-1');
    jest.setSystemTime(new Date('2025-03-08T08:00:01Z'));
    loadSessionFromStorage();
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(localStorage.getItem(StorageKey.Token)).toBeNull();
  });

  it('logout calls quit with the token, clears everything and goes to login', async () => {
    setSession(login);
    appStore.set(rolesAtom, { personalSpace: true, publicSpace: false });
    appStore.set(featurePolicyAtom, { personalSpace: true, publicSpace: false, workflow: true, ferrySpaces: false });
    appStore.set(homeAtom, { baseHome: '/file/personal', roles: { personalSpace: true, publicSpace: false }, menus: [] });
    sessionStorage.setItem('tree', 'x');
    localStorage.setItem(StorageKey.Permission, 'cache');
    await logout();
    expect(requests).toEqual(['post /api/login/quit Bearer tok-1']);
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(appStore.get(userInfoAtom)).toBeNull();
    expect(appStore.get(rolesAtom)).toBeNull();
    expect(appStore.get(homeAtom)).toBeNull();
    expect(localStorage.getItem(StorageKey.Token)).toBeNull();
    expect(localStorage.getItem(StorageKey.UserInfo)).toBeNull();
    expect(localStorage.getItem(StorageKey.Roles)).toBeNull();
    expect(localStorage.getItem(StorageKey.Permission)).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(getCookie('token')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('logout goes on when quit fails', async () => {
    setSession(login);
    setHttpAdapter(async () => {
      throw new Error('network');
    });
    await logout();
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('an expired logout warns, waits 1 s, and runs once at a time', async () => {
    jest.useFakeTimers();
    const warning = jest.fn();
    setNotifier({ warning });
    setSession(login);
    const a = logout({ expired: true });
    const b = logout({ expired: true });
    expect(a).toBe(b);
    expect(warning).toHaveBeenCalledTimes(1);
    expect(warning).toHaveBeenCalledWith('登录信息已过期，即将返回登录页...');
    await jest.advanceTimersByTimeAsync(999);
    expect(navigate).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    await a;
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('applies the temporarily-token start-up record and removes the pointer', () => {
    localStorage.setItem('temporarily-token', 'handoff');
    localStorage.setItem('handoff', JSON.stringify({ accessToken: 'tmp-9', accessUserInfo: { userId: '9', nickName: '王五' } }));
    expect(applyTemporaryToken()).toBe(true);
    expect(localStorage.getItem('temporarily-token')).toBeNull();
    expect(appStore.get(tokenAtom)).toBe('tmp-9');
    expect(appStore.get(userInfoAtom)).toMatchObject({ nickName: '王五', token: 'tmp-9' });
    localStorage.setItem('temporarily-token', 'missing');
    expect(applyTemporaryToken()).toBe(false);
    localStorage.setItem('temporarily-token', 'bad');
    localStorage.setItem('bad', '{not json');
    expect(applyTemporaryToken()).toBe(false);
  });

  it('the api helpers use the documented paths', async () => {
    await api.getRootFolders('Personal');
    await api.getItems('15', { page: 1, pageSize: 50, keyword: '报告' });
    await api.createFile({ parentId: '15', name: '新建文件夹', type: 'folder' });
    expect(requests.map((r) => r.split(' ').slice(0, 2).join(' '))).toEqual([
      'get /api/User/Folders/Personal/RootFolders',
      'get /api/User/Folders/15/Items',
      'post /api/User/Files/CreateFile',
    ]);
  });
});

describe('cross-tab sync', () => {
  class FakeChannel {
    static all: FakeChannel[] = [];
    onmessage: ((e: { data: unknown }) => void) | null = null;
    closed = false;
    constructor(readonly name: string) {
      FakeChannel.all.push(this);
    }
    postMessage(data: unknown) {
      for (const c of FakeChannel.all) if (c !== this && !c.closed && c.name === this.name) c.onmessage?.({ data });
    }
    close() {
      this.closed = true;
    }
  }
  const original = (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
  let stop: () => void;
  let otherTab: FakeChannel;
  let received: unknown[];

  beforeEach(() => {
    FakeChannel.all = [];
    (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel = FakeChannel;
    stop = startSessionSync();
    otherTab = new FakeChannel(SESSION_CHANNEL_NAME);
    received = [];
    otherTab.onmessage = (e) => received.push(e.data);
  });
  afterEach(() => {
    stop();
    (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel = original;
  });

  it('a sign-in here is announced with its token', () => {
    setSession(login);
    expect(received).toEqual([{ type: 'session', token: 'tok-1' }]);
  });

  it('a sign-in in another tab loads that session here', () => {
    localStore.set(StorageKey.UserInfo, { ...login, token: 'tok-2', nickName: '别的标签页' });
    otherTab.postMessage({ type: 'session', token: 'tok-2' });
    expect(appStore.get(tokenAtom)).toBe('tok-2');
    expect(appStore.get(userInfoAtom)).toMatchObject({ nickName: '别的标签页' });
  });

  it('a sign-out in another tab ends the session here', () => {
    setSession(login);
    otherTab.postMessage({ type: 'session', token: null });
    expect(appStore.get(tokenAtom)).toBeNull();
    expect(appStore.get(userInfoAtom)).toBeNull();
  });
});
