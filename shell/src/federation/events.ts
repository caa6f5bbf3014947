// Runtime plugins run before the shared modules exist, so they must not import
// @app/shared: they report failures with a DOM event that the shell logs.
export const REMOTE_ERROR_EVENT = 'yunwendang:remote-error';

export interface RemoteErrorDetail {
  id: string;
  lifecycle: string;
  message: string;
}

export function reportRemoteError(detail: RemoteErrorDetail): void {
  if (typeof window === 'undefined' || typeof CustomEvent === 'undefined') return;
  window.dispatchEvent(new CustomEvent<RemoteErrorDetail>(REMOTE_ERROR_EVENT, { detail }));
}
