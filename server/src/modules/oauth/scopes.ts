// What a client's token may do (docs/integration.md, "Client authorization"). A client acts for
// the user, never as the user's own browser: it cannot change the password, TOTP or sessions,
// administer, or authorize other clients. `profile` alone reads who the user is; `files` adds
// the rest of the API with the user's rights.
export const SCOPES = {
  profile: '账号信息：用户名、姓名、部门和头像',
  files: '文件：以你的身份查看、上传、下载和管理你有权访问的个人与企业文件',
} as const;
export type ScopeName = keyof typeof SCOPES;

export const isScope = (s: string): s is ScopeName => Object.prototype.hasOwnProperty.call(SCOPES, s);

const NEVER = [/^\/api\/account(\/|$)/i, /^\/api\/Admin(\/|$)/i, /^\/api\/OAuth\/(Authorize|Request|Clients)/i, /^\/api\/login\/(?!quit$)/i];
const PROFILE_ONLY: [string, RegExp][] = [
  ['GET', /^\/api\/User\/Home$/],
  ['GET', /^\/api\/OAuth\/UserInfo$/],
  ['GET', /^\/api\/User\/Avatar\/[^/]+$/],
  ['POST', /^\/api\/login\/quit$/],
];

/** Whether a client token with these scopes may call the route (its path pattern and method). */
export function clientMayCall(scope: string, method: string, routeUrl: string): boolean {
  if (NEVER.some((re) => re.test(routeUrl))) return false;
  const granted = new Set(scope.split(' ').filter(Boolean));
  if (granted.has('files')) return true;
  return granted.has('profile') && PROFILE_ONLY.some(([m, re]) => (m === method || (m === 'GET' && method === 'HEAD')) && re.test(routeUrl));
}
