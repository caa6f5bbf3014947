// The security headers of the 云文档 HTML pages (the shell at / and its deep links, a remote's
// own index.html): a Content-Security-Policy the composed app passes, no framing by other
// sites, and a Referrer-Policy that keeps a share page's key (/s/{id}?key=…) to itself.
//
// What the pages load, and so what the policy allows:
// - scripts, styles, pictures and fonts of the shell (same origin) and of every remote, which
//   REMOTE_<NAME>_URL may place on another origin; the remotes' mf-manifest.json and pdf.js's
//   data files (character maps, fonts, wasm) are fetched from there too (connect-src);
// - antd's CSS-in-JS: <style> elements and style attributes ('unsafe-inline' for styles only);
// - WebAssembly: hash-wasm's MD5 and pdf.js's decoders ('wasm-unsafe-eval', not 'unsafe-eval');
// - workers: the MD5 worker (same origin) and pdf.js's worker, which is a blob: wrapper when the
//   files remote lives on another origin; blob: and data: pictures (thumbnails, QR codes,
//   watermarks) and blob: media;
// - hidden same-origin frames that start downloads (frame-src 'self');
// - with DINGTALK_LOGIN_MODE=qr, DingTalk's login script and the frame it draws the QR code in;
// - the inline script of the shell's index.html that shows the sign-in form before any script
//   has arrived, by its hash (no 'unsafe-inline' for scripts).
import crypto from 'node:crypto';
import type { AppConfig } from '../../config';

type PolicyConfig = Pick<AppConfig, 'remoteUrls' | 'dingtalk'>;

/** The origin of an absolute http(s) URL, or null (a relative URL is the page's own origin). */
function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

function unique(values: (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => v !== null))];
}

/** The `'sha256-…'` sources of the inline scripts of a page (those without `src`). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]) || !m[2]) continue;
    hashes.push(`'sha256-${crypto.createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The Content-Security-Policy of the pages, from the runtime configuration; `scriptHashes`
 * allow the shell's own inline scripts (index.html's sign-in form before any script).
 */
export function pageContentSecurityPolicy(config: PolicyConfig, scriptHashes: string[] = []): string {
  const remotes = unique(Object.values(config.remoteUrls).map((u) => originOf(u ?? '')));
  const qr = config.dingtalk?.loginMode === 'qr' ? config.dingtalk : null;
  const dingtalkScript = qr ? unique([originOf(qr.qrSdkUrl)]) : [];
  const dingtalkFrame = qr ? unique([originOf(qr.loginBase), originOf(qr.qrSdkUrl)]) : [];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", "'wasm-unsafe-eval'", ...scriptHashes, ...remotes, ...dingtalkScript]],
    ['style-src', ["'self'", "'unsafe-inline'", ...remotes]],
    ['img-src', ["'self'", 'data:', 'blob:', ...remotes]],
    ['font-src', ["'self'", 'data:', ...remotes]],
    ['connect-src', ["'self'", 'blob:', ...remotes]],
    ['media-src', ["'self'", 'blob:']],
    ['worker-src', ["'self'", 'blob:']],
    ['frame-src', ["'self'", ...dingtalkFrame]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${unique(sources).join(' ')}`).join('; ');
}

/**
 * A share page's address carries its key (`/s/{id}?key=…`): it sends no Referer at all. Other
 * pages send only their origin to other sites.
 */
export function pageReferrerPolicy(urlPath: string): string {
  return urlPath.startsWith('/s/') ? 'no-referrer' : 'strict-origin-when-cross-origin';
}

/** Every header of a page, for one request path. */
export function pageSecurityHeaders(policy: string, urlPath: string): Record<string, string> {
  return {
    'content-security-policy': policy,
    'x-frame-options': 'DENY',
    'referrer-policy': pageReferrerPolicy(urlPath),
  };
}
