// The jotai atoms of 云文档 and the one store that the shell and every remote share.
import { atom, createStore, type WritableAtom } from 'jotai';
import type {
  ClientBranding,
  EnvironmentConfig,
  FeaturePolicy,
  HomeInfo,
  Roles,
  RuntimeConfig,
  UserInfo,
} from '../api/types';
import { StorageKey } from '../constants';
import { localStore } from '../storage';

/** The one store: AppProviders hands it to the jotai Provider; non-React code uses it directly. */
export const appStore = createStore();

type Persisted<T> = WritableAtom<T, [T], void>;

const persistedBases: Array<() => void> = [];

/** An atom kept in localStorage under `key` with the 7-day expiry of spec section 9. */
function persistedAtom<T>(key: string, initial: T): Persisted<T> {
  const base = atom<T>(localStore.get<T>(key) ?? initial);
  persistedBases.push(() => appStore.set(base, localStore.get<T>(key) ?? initial));
  return atom(
    (get) => get(base),
    (_get, set, next: T) => {
      set(base, next);
      if (next == null) localStore.remove(key);
      else localStore.set(key, next);
    },
  );
}

export const tokenAtom = persistedAtom<string | null>(StorageKey.Token, null);
export const userInfoAtom = persistedAtom<UserInfo | null>(StorageKey.UserInfo, null);
export const rolesAtom = persistedAtom<Roles | null>(StorageKey.Roles, null);

export const featurePolicyAtom = atom<FeaturePolicy | null>(null);
export const DEFAULT_ENV_CONFIG: EnvironmentConfig = { personalFolderName: '个人文件', publicFolderName: '企业文件' };
export const envConfigAtom = atom<EnvironmentConfig>(DEFAULT_ENV_CONFIG);
export const homeAtom = atom<HomeInfo | null>(null);
export const runtimeConfigAtom = atom<RuntimeConfig | null>(null);
export const brandingAtom = atom<ClientBranding | null>(null);
/** Ferry-only mode: runtime mode `simple`, or a home path containing `ferry`. */
export const simpleModeAtom = atom<boolean>(false);

/** Full-screen overlay 正在读取文件/文件夹 while picked or dropped files are read. */
export const readingFilesAtom = atom<boolean>(false);

export interface ErrorLogEntry {
  /** YYYY-MM-DD HH:mm */
  time: string;
  type: 'ajax' | 'script' | 'promise' | 'resource' | 'remote';
  message: string;
  url?: string;
  method?: string;
  code?: number;
  status?: number;
  detail?: string;
}
/** Every error of this tab, newest first. */
export const errorLogAtom = atom<ErrorLogEntry[]>([]);

/** Re-reads token, user info and roles from localStorage into the store (no expiry refresh). */
export function loadSessionFromStorage(): void {
  for (const reload of persistedBases) reload();
}

/** Puts every atom back to its initial value (tests, and a full sign-out). */
export function resetAppState(): void {
  appStore.set(tokenAtom, null);
  appStore.set(userInfoAtom, null);
  appStore.set(rolesAtom, null);
  appStore.set(featurePolicyAtom, null);
  appStore.set(envConfigAtom, DEFAULT_ENV_CONFIG);
  appStore.set(homeAtom, null);
  appStore.set(brandingAtom, null);
  appStore.set(simpleModeAtom, false);
  appStore.set(readingFilesAtom, false);
  appStore.set(errorLogAtom, []);
}
