// Where the upload panel and the drag mask live (spec section 2), and the simple mode's only
// page, 文件摆渡, where files to send are uploaded (they need the same progress, pause and retry).

export const UPLOAD_PANEL_PATH_PREFIXES = ['/file', '/s/', '/swapSpace/', '/ai/', '/preview/', '/ferry/'] as const;

/** The panel shows (and drops are taken) on paths beginning /file, /s/, /swapSpace/, /ai/, /preview/ and /ferry/. */
export function isUploadPanelPath(pathname: string): boolean {
  return UPLOAD_PANEL_PATH_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}
