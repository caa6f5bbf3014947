// The addresses of a preview payload (paths from the site root, /api/User/Preview/…) as the
// browser fetches them: from the API base of the runtime configuration, with an external
// share's 提取码 appended (the paths already carry ?shareId=).
import { apiUrl, type HttpConfig } from '@app/shared';

export function previewUrl(path: string, accessKey: string | null): string {
  return apiUrl(path, accessKey ? { accessKey } : undefined);
}

/** How a viewer asks the API for a payload's JSON (text, conversion state): its errors are shown in place. */
export function previewRequestConfig(accessKey: string | null): HttpConfig {
  return accessKey
    ? { params: { accessKey }, withToken: false, silentLogout: true, errorMode: 'none' }
    : { errorMode: 'none' };
}
