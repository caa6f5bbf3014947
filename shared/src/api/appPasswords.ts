// 应用密码 (个人设置 → WebDAV 与应用密码, issue 29): passwords for WebDAV clients at /dav/, each
// named, read-only or read-write, shown once when created, revoked one by one. Changing the
// account password or the account being disabled ends them all.
import { http, type HttpConfig } from '@app/shared';

export type AppPasswordScope = 'readOnly' | 'readWrite';

export const APP_PASSWORD_SCOPE_LABELS: Record<AppPasswordScope, string> = { readOnly: '只读', readWrite: '读写' };
export const APP_PASSWORD_NAME_MAX = 50;

/** GET /api/Account/AppPasswords: never the password itself. */
export interface AppPassword {
  id: string;
  name: string;
  scope: AppPasswordScope;
  createdAt: string;
  /** null: never used */
  lastUsedAt: string | null;
  lastUsedIp: string;
}

/** POST /api/Account/AppPasswords: the password, this once, and the user name to pair it with. */
export interface NewAppPassword extends AppPassword {
  password: string;
  userName: string;
}

export interface NewAppPasswordBody {
  name: string;
  scope: AppPasswordScope;
}

/** The WebDAV address of this installation (where the browser reached it). */
export const webdavAddress = (origin: string = globalThis.location?.origin ?? '') => `${origin}/dav/`;

export const appPasswordsApi = {
  list: (config?: HttpConfig) => http.get<AppPassword[]>('/Account/AppPasswords', config),
  create: (body: NewAppPasswordBody, config?: HttpConfig) => http.post<NewAppPassword>('/Account/AppPasswords', body, config),
  revoke: (id: string, config?: HttpConfig) => http.delete<AppPassword>(`/Account/AppPasswords/${encodeURIComponent(id)}`, config),
};

export type AppPasswordsApi = typeof appPasswordsApi;
