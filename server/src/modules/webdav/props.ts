// WebDAV properties of 云文档 (RFC 4918 §15, RFC 4331): what a PROPFIND asks for, and the
// multistatus answer. Live properties are computed from the item; dead ones (PROPPATCH,
// dead-props.ts) come with the resource when the request asks for them.
import { DAV_NS, escapeXml, parseXml, XmlError, type XmlElement } from './xml';
import { SUPPORTED_LOCK } from './locks';

/** A resource as WebDAV shows it. */
export interface DavResource {
  /** the resource's href, percent-encoded (collections end with '/') */
  href: string;
  collection: boolean;
  displayName: string;
  /** files */
  size?: number;
  contentType?: string;
  /** files: the same strong entity tag a GET answers */
  etag?: string;
  /** epoch ms */
  lastModified?: number;
  created?: number;
  /** RFC 4331, on collections of the personal space and /dav/ itself */
  quota?: { used: number; available: number };
  /** the item behind it (not for /dav/ and 与我共享) */
  itemId?: number;
  /** the item's id path (the locks of the folders above it) */
  idPath?: string;
  /** the D:activelock elements of the locks covering it, when read */
  locks?: string;
  /** its dead properties (PROPPATCH), when read */
  dead?: { ns: string; name: string; value: string }[];
}

export interface PropName {
  ns: string;
  name: string;
}

export type PropfindRequest = { kind: 'allprop'; include: PropName[] } | { kind: 'propname' } | { kind: 'prop'; props: PropName[] };

export class BadPropfind extends Error {}

/** RFC 4918 §14.20: an empty body asks for allprop. */
export function parsePropfind(body: string): PropfindRequest {
  if (!body.trim()) return { kind: 'allprop', include: [] };
  let root: XmlElement;
  try {
    root = parseXml(body);
  } catch (err) {
    if (err instanceof XmlError) throw new BadPropfind(err.message);
    throw err;
  }
  if (root.ns !== DAV_NS || root.name !== 'propfind') throw new BadPropfind('请求体应为 DAV:propfind');
  const dav = root.children.filter((c) => c.ns === DAV_NS);
  const names = (e: XmlElement) => e.children.map((c) => ({ ns: c.ns, name: c.name }));
  const prop = dav.find((c) => c.name === 'prop');
  if (prop) return { kind: 'prop', props: names(prop) };
  if (dav.some((c) => c.name === 'propname')) return { kind: 'propname' };
  if (dav.some((c) => c.name === 'allprop')) {
    const include = dav.find((c) => c.name === 'include');
    return { kind: 'allprop', include: include ? names(include) : [] };
  }
  throw new BadPropfind('DAV:propfind 中应有 prop、propname 或 allprop');
}

/** RFC 3339 without fractions (creationdate). */
function isoDate(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The live properties: DAV: name → its value as XML, or undefined when the resource has none. */
const LIVE: Record<string, (r: DavResource) => string | undefined> = {
  displayname: (r) => escapeXml(r.displayName),
  resourcetype: (r) => (r.collection ? '<D:collection/>' : ''),
  getcontentlength: (r) => (r.collection || r.size === undefined ? undefined : String(r.size)),
  getcontenttype: (r) => (r.collection ? undefined : r.contentType && escapeXml(r.contentType)),
  getetag: (r) => (r.etag === undefined ? undefined : escapeXml(r.etag)),
  getlastmodified: (r) => (r.lastModified === undefined ? undefined : new Date(r.lastModified).toUTCString()),
  creationdate: (r) => (r.created === undefined ? undefined : isoDate(r.created)),
  lockdiscovery: (r) => r.locks,
  supportedlock: (r) => (r.itemId === undefined ? undefined : SUPPORTED_LOCK),
  'quota-available-bytes': (r) => (r.quota ? String(Math.max(0, Math.floor(r.quota.available))) : undefined),
  'quota-used-bytes': (r) => (r.quota ? String(Math.max(0, Math.floor(r.quota.used))) : undefined),
};

/** allprop leaves out the quota properties (RFC 4331 §3, §4). */
const ALLPROP = ['displayname', 'resourcetype', 'getcontentlength', 'getcontenttype', 'getetag', 'getlastmodified', 'creationdate', 'lockdiscovery', 'supportedlock'];

const REASONS: Record<number, string> = { 200: 'OK', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 424: 'Failed Dependency' };

export function statusLine(code: number): string {
  return `<D:status>HTTP/1.1 ${code} ${REASONS[code] ?? ''}</D:status>`;
}

/** Whether answering `req` needs the locks covering the resources. */
export function wantsLocks(req: PropfindRequest): boolean {
  return req.kind === 'allprop' || (req.kind === 'prop' && req.props.some((p) => p.ns === DAV_NS && p.name === 'lockdiscovery'));
}

/** Whether answering `req` needs the resources' dead properties. */
export function wantsDead(req: PropfindRequest): boolean {
  return req.kind !== 'prop' || req.props.some((p) => p.ns !== DAV_NS);
}

/** An element for a property name, declaring its namespace when it is not DAV:. */
export function element(p: PropName, value: string | null, n: number): string {
  if (p.ns === DAV_NS) return value === null || value === '' ? `<D:${p.name}/>` : `<D:${p.name}>${value}</D:${p.name}>`;
  const open = p.ns === '' ? `${p.name} xmlns=""` : `X${n}:${p.name} xmlns:X${n}="${escapeXml(p.ns)}"`;
  const close = p.ns === '' ? p.name : `X${n}:${p.name}`;
  return value === null || value === '' ? `<${open}/>` : `<${open}>${value}</${close}>`;
}

/** One D:response of a multistatus. */
export function responseXml(r: DavResource, req: PropfindRequest): string {
  const found: string[] = [];
  const missing: string[] = [];
  if (req.kind === 'propname') {
    for (const name of Object.keys(LIVE)) if (LIVE[name](r) !== undefined || (name === 'lockdiscovery' && r.itemId !== undefined)) found.push(`<D:${name}/>`);
    (r.dead ?? []).forEach((d, n) => found.push(element(d, null, n)));
  } else {
    const wanted: PropName[] =
      req.kind === 'prop'
        ? req.props
        : [...ALLPROP.map((name) => ({ ns: DAV_NS, name })), ...req.include.filter((p) => !(p.ns === DAV_NS && ALLPROP.includes(p.name)))];
    // allprop: the dead properties too (RFC 4918 §9.1)
    if (req.kind === 'allprop') for (const d of r.dead ?? []) if (!wanted.some((p) => p.ns === d.ns && p.name === d.name)) wanted.push({ ns: d.ns, name: d.name });
    wanted.forEach((p, n) => {
      const value =
        p.ns === DAV_NS && Object.prototype.hasOwnProperty.call(LIVE, p.name) ? LIVE[p.name](r) : r.dead?.find((d) => d.ns === p.ns && d.name === p.name)?.value;
      if (value !== undefined) found.push(element(p, value, n));
      // allprop names only what the resource has
      else if (req.kind === 'prop' || (req.kind === 'allprop' && req.include.some((q) => q.ns === p.ns && q.name === p.name))) missing.push(element(p, null, n));
    });
  }
  let out = `<D:response><D:href>${escapeXml(r.href)}</D:href>`;
  if (found.length) out += `<D:propstat><D:prop>${found.join('')}</D:prop>${statusLine(200)}</D:propstat>`;
  if (missing.length) out += `<D:propstat><D:prop>${missing.join('')}</D:prop>${statusLine(404)}</D:propstat>`;
  if (!found.length && !missing.length) out += `<D:propstat><D:prop/>${statusLine(200)}</D:propstat>`;
  return `${out}</D:response>`;
}

export const MULTISTATUS_START = '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">';
export const MULTISTATUS_END = '</D:multistatus>\n';

/** RFC 4918 §9.1: the precondition a Depth: infinity PROPFIND fails. */
export const FINITE_DEPTH_ERROR = '<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>\n';
