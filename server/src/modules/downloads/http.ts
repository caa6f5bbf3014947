// How 云文档 answers a download: content type, Content-Disposition with a UTF-8 name, ETag and
// Last-Modified, conditional requests (If-None-Match, If-Range) and one byte
// range (206). The bytes stream from the content's source (the object store, a local file).
import type { ContentSource } from '../storage/source';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { noteItem } from '../oplog/plugin';
import type { LoggedItem } from '../oplog/repository';

/** Content types by lower-case extension; anything else is application/octet-stream. */
const CONTENT_TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
  ofd: 'application/ofd',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  gz: 'application/gzip',
  tar: 'application/x-tar',
};

export function contentTypeOf(extension: string): string {
  return CONTENT_TYPES[extension.toLowerCase()] ?? 'application/octet-stream';
}

/** RFC 5987 value characters: everything else is percent-encoded. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded name>`. */
export function contentDisposition(name: string): string {
  // eslint-disable-next-line no-control-regex
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_').trim() || 'download';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

export type ByteRange = { start: number; end: number };

/**
 * The Range header against a size: one range to serve, 'unsatisfiable', or null to serve the
 * whole content (no header, a header that is not a byte range, or several ranges, which are
 * answered with the whole content rather than multipart/byteranges).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!m) return null;
  const spec = m[1].trim();
  if (spec.includes(',')) return null;
  const parts = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!parts || (parts[1] === '' && parts[2] === '')) return null;
  if (parts[1] === '') {
    // the last n bytes
    const n = Number(parts[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(parts[1]);
  const end = parts[2] === '' ? size - 1 : Number(parts[2]);
  if (parts[2] !== '' && end < start) return null; // not a valid range: ignored
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** Entity tags of an If-None-Match header (weak comparison: W/ is dropped). */
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * If-Range: only a strong ETag equal to ours keeps the range. A date is never taken as a match:
 * Last-Modified has one-second resolution and content can change twice within a second.
 */
function ifRangeMatches(header: string, etag: string): boolean {
  return header.trim() === etag;
}

export interface Content {
  /** where the bytes are (a blob of the store, a local file); null for empty content, which has none */
  source: ContentSource | null;
  size: number;
  /** strong entity tag, quoted */
  etag: string;
  lastModifiedMs: number;
  /** the name the browser saves the content under */
  fileName: string;
  contentType: string;
  /** shown in the browser (Content-Disposition inline) when the type is safe to show: see inlineSafe */
  inline?: boolean;
  /** the item whose content this is, as read for the download (its operation-log record names it) */
  item?: LoggedItem;
}

/**
 * Types a browser may show in place without running anything of the file's: pictures (not SVG,
 * which carries script), PDF, plain text, audio and video. Everything else is a download.
 */
export function inlineSafe(contentType: string): boolean {
  return /^(image\/(jpeg|png|gif|bmp|webp)|application\/pdf|text\/plain|audio\/|video\/)/.test(contentType);
}

export const RANGE_NOT_SATISFIABLE = '请求的内容范围无效';
export const CONTENT_MISSING = '文件内容已丢失，请联系管理员';

/**
 * Answers a GET or HEAD for a content: 304 when the client's copy is current, 206 for one
 * satisfiable byte range, 416 (envelope) for an unsatisfiable one, else 200 with everything.
 */
export async function sendContent(req: FastifyRequest, reply: FastifyReply, c: Content): Promise<FastifyReply> {
  if (c.item) noteItem(req, c.item);
  if (c.source !== null) {
    // the stored content must be there and whole before any header goes out
    const stored = await c.source.stat().catch(() => null);
    if (stored !== c.size) {
      req.log.error({ size: c.size }, '云文档下载：存储的文件内容缺失或大小不符');
      throw new AppError(500, 50001, CONTENT_MISSING);
    }
  }
  reply.header('cache-control', 'private, no-cache');
  reply.header('etag', c.etag);
  reply.header('last-modified', new Date(c.lastModifiedMs).toUTCString());
  reply.header('accept-ranges', 'bytes');

  // the entity tag decides (If-Modified-Since is not honoured, for the reason given at If-Range)
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && noneMatch(inm, c.etag)) return reply.code(304).send();

  const disposition = contentDisposition(c.fileName);
  reply.header('content-disposition', c.inline && inlineSafe(c.contentType) ? disposition.replace(/^attachment/, 'inline') : disposition);
  reply.type(c.contentType);

  const ifRangeHeader = req.headers['if-range'];
  const ifRange = Array.isArray(ifRangeHeader) ? ifRangeHeader[0] : ifRangeHeader;
  const range = ifRange !== undefined && !ifRangeMatches(ifRange, c.etag) ? null : parseRange(req.headers.range, c.size);
  if (range === 'unsatisfiable') {
    reply.removeHeader('content-disposition');
    throw new AppError(416, 416, RANGE_NOT_SATISFIABLE, { 'content-range': `bytes */${c.size}` });
  }
  const head = req.method === 'HEAD';
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${c.size}`);
    reply.header('content-length', String(range.end - range.start + 1));
    if (head || c.source === null) return reply.send();
    return reply.send(await c.source.open({ start: range.start, end: range.end }));
  }
  reply.code(200);
  reply.header('content-length', String(c.size));
  if (head || c.source === null || c.size === 0) return reply.send(head ? undefined : '');
  return reply.send(await c.source.open());
}

/**
 * True when a GET starts a download (HEAD never does, nor a Range request that continues one
 * from beyond its first byte): a download limit counts each download once.
 */
export function startsDownload(req: FastifyRequest): boolean {
  if (req.method !== 'GET') return false;
  const range = req.headers.range;
  return typeof range !== 'string' || /^bytes=0-/i.test(range.trim());
}
