// The one cookie 云文档 uses: `token` = jwtId (spec sections 4 and 9). Parsing and writing it
// here keeps the server free of @fastify/cookie, whose cookie parser is an ES module loaded
// with a dynamic import() that Jest's CommonJS runtime cannot run.
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
}

/** The value of a cookie from the request's Cookie header (first occurrence), or undefined. */
export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

function appendSetCookie(reply: FastifyReply, line: string) {
  const existing = reply.getHeader('set-cookie');
  const lines = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...lines, line]);
}

/** Sets an HttpOnly, SameSite=Lax cookie on the whole site. */
export function setCookie(reply: FastifyReply, name: string, value: string, o: CookieOptions) {
  const expires = new Date(Date.now() + o.maxAgeSeconds * 1000).toUTCString();
  const attrs = [`${name}=${encodeURIComponent(value)}`, `Max-Age=${o.maxAgeSeconds}`, `Expires=${expires}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (o.secure) attrs.push('Secure');
  appendSetCookie(reply, attrs.join('; '));
}

/** Tells the browser to drop the cookie. */
export function clearCookie(reply: FastifyReply, name: string, o: Pick<CookieOptions, 'secure'>) {
  const attrs = [`${name}=`, 'Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (o.secure) attrs.push('Secure');
  appendSetCookie(reply, attrs.join('; '));
}
