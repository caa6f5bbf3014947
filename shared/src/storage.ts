// Local and session storage with the 7-day expiry of spec section 9. Values are JSON
// `{ value, time, expire }`; an expired item reads as null and is removed.
import { STORAGE_EXPIRE_SECONDS } from './constants';

interface Stored<T> {
  value: T;
  time: number;
  expire: number | null;
}

export interface ExpiringStorage {
  get<T>(key: string): T | null;
  set<T>(key: string, value: T, expireSeconds?: number | null): void;
  remove(key: string): void;
  clear(): void;
}

export function createStorage(area: () => Storage | undefined): ExpiringStorage {
  return {
    get<T>(key: string): T | null {
      try {
        const raw = area()?.getItem(key);
        if (raw == null) return null;
        const data = JSON.parse(raw) as Stored<T>;
        if (data && typeof data === 'object' && 'value' in data) {
          if (data.expire != null && data.expire < Date.now()) {
            area()?.removeItem(key);
            return null;
          }
          return data.value;
        }
        return null;
      } catch {
        return null;
      }
    },
    set<T>(key: string, value: T, expireSeconds: number | null = STORAGE_EXPIRE_SECONDS): void {
      try {
        const now = Date.now();
        const data: Stored<T> = { value, time: now, expire: expireSeconds == null ? null : now + expireSeconds * 1000 };
        area()?.setItem(key, JSON.stringify(data));
      } catch {
        /* storage full or unavailable: ignored */
      }
    },
    remove(key: string): void {
      try {
        area()?.removeItem(key);
      } catch {
        /* ignored */
      }
    },
    clear(): void {
      try {
        area()?.clear();
      } catch {
        /* ignored */
      }
    },
  };
}

const safe = (name: 'localStorage' | 'sessionStorage') => () => {
  try {
    return typeof window === 'undefined' ? undefined : window[name];
  } catch {
    return undefined;
  }
};

export const localStore = createStorage(safe('localStorage'));
export const sessionStore = createStorage(safe('sessionStorage'));

export function setCookie(name: string, value: string, days: number): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${name}=${encodeURIComponent(value)}; max-age=${Math.round(days * 86_400)}; path=/; SameSite=Lax`;
}

export function removeCookie(name: string): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${name}=; max-age=0; path=/; SameSite=Lax`;
}

export function getCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
}
