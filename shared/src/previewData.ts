// The `previewData` of a preview address (/preview/{previewData}, /mobilityPreview?previewData=):
// which file to show and the previewable files listed next to it (for 上一个/下一个), as
// base64url of UTF-8 JSON. Decoding also reads the older form, plain base64 of the same bytes
// (btoa(unescape(encodeURIComponent(json)))), possibly URI-encoded, with `fileName`/`id` keys.

/** The most neighbours an address carries (the URL stays well under common length limits). */
export const PREVIEW_LIST_LIMIT = 300;

export interface PreviewTarget {
  fileId: string;
  /** a version of the file (not through a share) */
  versionId?: string;
  /** through an internal share (与我共享) or an external share (/s/{shareId}) */
  shareId?: string;
  /** the file's name, shown while the preview loads */
  name?: string;
  /** ids of the previewable files next to it, in list order (it included), for 上一个/下一个 */
  list?: string[];
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64(text: string): Uint8Array {
  const plain = text.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  const padded = plain + '='.repeat((4 - (plain.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const idOf = (value: unknown): string | null => {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
};

/** A list of at most PREVIEW_LIST_LIMIT ids around `fileId` (the ones nearest it are kept). */
export function previewListAround(ids: string[], fileId: string): string[] {
  const unique = [...new Set(ids)];
  if (unique.length <= PREVIEW_LIST_LIMIT) return unique;
  const at = Math.max(0, unique.indexOf(fileId));
  const start = Math.min(Math.max(0, at - Math.floor(PREVIEW_LIST_LIMIT / 2)), unique.length - PREVIEW_LIST_LIMIT);
  return unique.slice(start, start + PREVIEW_LIST_LIMIT);
}

export function encodePreviewData(target: PreviewTarget): string {
  const body: PreviewTarget = { fileId: target.fileId };
  if (target.versionId) body.versionId = target.versionId;
  if (target.shareId) body.shareId = target.shareId;
  if (target.name) body.name = target.name;
  if (target.list && target.list.length > 1) body.list = previewListAround(target.list, target.fileId);
  return toBase64Url(new TextEncoder().encode(JSON.stringify(body)));
}

/** The target of a preview address, or null when it is not one. */
export function decodePreviewData(data: string | null | undefined): PreviewTarget | null {
  if (!data) return null;
  let text = data.trim();
  // the older links URI-encoded their base64 ('+', '/', '=' as %2B, %2F, %3D)
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64(text)));
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const o = json as Record<string, unknown>;
  const fileId = idOf(o.fileId) ?? idOf(o.id);
  if (!fileId) return null;
  const target: PreviewTarget = { fileId };
  const versionId = idOf(o.versionId);
  if (versionId) target.versionId = versionId;
  const shareId = idOf(o.shareId);
  if (shareId) target.shareId = shareId;
  const name = typeof o.name === 'string' && o.name ? o.name : typeof o.fileName === 'string' && o.fileName ? o.fileName : null;
  if (name) target.name = name;
  if (Array.isArray(o.list)) {
    const list = o.list.map(idOf).filter((id): id is string => id !== null);
    if (list.length > 1) target.list = previewListAround(list, fileId);
  }
  return target;
}
