/** What every failed call of `http` rejects with. */
export class ApiError extends Error {
  /** envelope code, or the HTTP status when there is no envelope, or 0 */
  readonly code: number;
  /** HTTP status, when a response arrived */
  readonly status?: number;
  /** true when a newer identical request cancelled this one */
  readonly canceled: boolean;
  /** the envelope result of a failed call, if any */
  readonly result?: unknown;
  /** the server's own message, when it sent one (`message` may be a fallback text) */
  readonly serverMessage: string | null;

  constructor(
    message: string,
    code: number,
    options: { status?: number; canceled?: boolean; result?: unknown; serverMessage?: string | null } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status;
    this.canceled = options.canceled ?? false;
    this.result = options.result;
    this.serverMessage = options.serverMessage ?? null;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
