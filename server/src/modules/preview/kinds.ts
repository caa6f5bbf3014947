// Which viewer of 云文档's preview shows a file, by its extension (docs/integration.md,
// "Preview"). Pictures, PDF, video and audio are shown by the browser from the file's own
// bytes; text and code are sent as decoded text; office documents only through the PDF that
// LibreOffice makes of them (their original bytes never go to a preview-only viewer).
import { TEXT_EXTENSIONS } from '../../lib/text-types';

export type PreviewSource = 'image' | 'pdf' | 'video' | 'audio' | 'text' | 'office';

const BY_SOURCE: Record<Exclude<PreviewSource, 'text'>, string[]> = {
  image: ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg', 'ico', 'avif'],
  pdf: ['pdf'],
  // what Chromium, Firefox and Safari play natively (MOV and M4V when they hold H.264)
  video: ['mp4', 'm4v', 'webm', 'ogv', 'mov'],
  audio: ['mp3', 'wav', 'ogg', 'oga', 'opus', 'm4a', 'aac', 'flac'],
  office: ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp', 'rtf'],
};

const SOURCES = new Map<string, PreviewSource>();
for (const [source, extensions] of Object.entries(BY_SOURCE)) for (const e of extensions) SOURCES.set(e, source as PreviewSource);
for (const e of TEXT_EXTENSIONS) if (!SOURCES.has(e)) SOURCES.set(e, 'text');

/** The viewer for a lower-case extension, or null when none shows it. */
export function previewSource(extension: string): PreviewSource | null {
  return SOURCES.get(extension.trim().replace(/^\./, '').toLowerCase()) ?? null;
}

/** Content types the preview sends the bytes of a file with. */
const MEDIA_TYPES: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', bmp: 'image/bmp', webp: 'image/webp',
  svg: 'image/svg+xml', ico: 'image/x-icon', avif: 'image/avif', pdf: 'application/pdf',
  mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', ogv: 'video/ogg', mov: 'video/mp4',
  mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/ogg', m4a: 'audio/mp4', aac: 'audio/aac', flac: 'audio/flac',
};

export function previewMediaType(extension: string): string {
  return MEDIA_TYPES[extension.toLowerCase()] ?? 'application/octet-stream';
}

/** Bytes of a text file the preview decodes and sends (the rest is left out, and said so). */
export const TEXT_PREVIEW_LIMIT = 2 * 1024 * 1024;
