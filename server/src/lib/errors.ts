// 云文档 API errors. `code` is either a plain HTTP status or a five-digit product code whose
// first three digits are the HTTP status (api-contract.md, "Envelope and status").
// Every message is a Chinese sentence a person can act on.

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const MESSAGES = {
  sessionExpired: '登录信息已失效，请重新登录',
  accountDisabled: '该账号已被停用，请联系管理员',
  wrongCredentials: '用户名或密码错误',
  forbidden: '没有权限执行此操作',
  notFound: '文件或文件夹不存在',
  routeNotFound: '请求的接口不存在',
  internal: '服务器内部错误，请稍后重试',
} as const;

/** HTTP 400, code 40001: a bad field. */
export const badRequest = (message: string) => new AppError(400, 40001, message);
/** HTTP 401, code 401: missing, expired or revoked session. */
export const unauthorized = () => new AppError(401, 401, MESSAGES.sessionExpired);
/** HTTP 403, code 403: the account may no longer use the system (the client signs out). */
export const accountDisabled = () => new AppError(403, 403, MESSAGES.accountDisabled);
/** HTTP 403, code 40301: an action on a visible object that the caller's rights do not allow. */
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(403, 40301, message);
/** HTTP 404: an object the caller may not see answers as if it did not exist. */
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, 404, message);
/** HTTP 409, code 40901: a name conflict. */
export const conflict = (message: string) => new AppError(409, 40901, message);
/** HTTP 429, code 42901: too many attempts. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 42901, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** True when a database error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown } | null;
  return !!e && (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e.code === '23505');
}
