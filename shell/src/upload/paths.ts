// Where the upload panel and the drag mask live (spec section 2).

export const UPLOAD_PANEL_PATH_PREFIXES = ['/file', '/s/', '/swapSpace/', '/ai/', '/preview/'] as const;

/** The panel shows (and drops are taken) on paths beginning /file, /s/, /swapSpace/, /ai/, /preview/. */
export function isUploadPanelPath(pathname: string): boolean {
  return UPLOAD_PANEL_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}
