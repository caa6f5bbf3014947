#!/usr/bin/env node
// A small, dependency-free static server for deploying one web build on its own
// (a remote, or the shell as its own service).
//
//   node scripts/serve-static.mjs <dir> [--port N] [--host H] [--proxy http://api-origin]
//
// - CORS (`Access-Control-Allow-Origin: *`) on every response: a host on another origin
//   fetch()es a remote's mf-manifest.json and loads its chunks.
// - SPA fallback: a missing extensionless path answers <dir>/index.html.
// - Caching: html, json, remoteEntry.js are `no-cache` (they name the current build);
//   content-hashed assets (`name.0123abcd.js`) are cached for a year, immutable.
// - Compression: a client that accepts gzip gets the build's gzip copy of a file (`name.gz`,
//   made at build time by shared/build/gzip-plugin.cjs) where there is one.
// - --proxy forwards /api/*, /runtime-config.json, /json/config.json (and /remotes/*, the
//   remotes the server hosts itself) to the API origin: the shell deployed as its own
//   service in front of the server.
// - Port: --port, else $PORT, else the standalone port of integration.md for a known
//   package folder (remote-files 3001 ... remote-share 3005, shell 3000), else 3000.
import crypto from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import fs from 'node:fs';
import path from 'node:path';

const KNOWN_PORTS = {
  shell: 3000,
  'remote-files': 3001,
  'remote-workflow': 3002,
  'remote-swapspace': 3003,
  'remote-ferry': 3004,
  'remote-share': 3005,
};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

// /remotes/* too: with no REMOTE_*_URL set, runtime-config.json names the server's /remotes/<name>/
const PROXIED = [/^\/api(\/|$)/, /^\/runtime-config\.json$/, /^\/json\/config\.json$/, /^\/remotes\//];
const HASHED = /[.-][0-9a-f]{8,}\.[a-z0-9]+$/i;
const NO_CACHE_NAMES = new Set(['remoteEntry.js', 'mf-manifest.json', 'mf-stats.json', 'index.html']);

function usage(msg) {
  if (msg) console.error(`serve-static: ${msg}`);
  console.error('usage: node scripts/serve-static.mjs <dir> [--port N] [--host H] [--proxy http://api-origin]');
  process.exit(2);
}

export function parseArgs(argv) {
  const opts = { dir: undefined, port: undefined, host: undefined, proxy: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const take = () => {
      const eq = a.indexOf('=');
      if (eq > 0) return a.slice(eq + 1);
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--port' || a.startsWith('--port=')) opts.port = Number(take());
    else if (a === '--host' || a.startsWith('--host=')) opts.host = take();
    else if (a === '--proxy' || a.startsWith('--proxy=')) opts.proxy = take();
    else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else if (!opts.dir) opts.dir = a;
    else usage(`unexpected argument ${a}`);
  }
  if (!opts.dir) usage('missing <dir>');
  return opts;
}

function defaultPort(root) {
  if (process.env.PORT) return Number(process.env.PORT);
  const pkg = path.basename(path.basename(root) === 'dist' ? path.dirname(root) : root);
  return KNOWN_PORTS[pkg] ?? 3000;
}

function cacheControl(file) {
  const base = path.basename(file);
  const ext = path.extname(file).toLowerCase();
  if (NO_CACHE_NAMES.has(base) || ext === '.html' || ext === '.json') return 'no-cache';
  if (HASHED.test(base)) return 'public, max-age=31536000, immutable';
  return 'public, max-age=300';
}

function baseHeaders() {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
    'Access-Control-Allow-Headers': '*',
    'X-Content-Type-Options': 'nosniff',
  };
}

/**
 * The security headers of an HTML page. With --proxy the API decides them (its Content-Security-
 * Policy names the remote origins and DingTalk's login script from its configuration): they are
 * copied from the API's answer for its own page, asked again at most once a minute. Without an
 * API, or while it cannot be asked, the page still may not be framed and sends no Referer.
 */
const PAGE_HEADER_NAMES = ['content-security-policy'];
const pageHeaderCache = { at: 0, headers: null, pending: null };
async function apiPageHeaders(proxy) {
  if (!proxy) return {};
  if (pageHeaderCache.headers && Date.now() - pageHeaderCache.at < 60_000) return pageHeaderCache.headers;
  pageHeaderCache.pending ??= fetch(new URL('/', proxy), { method: 'HEAD', signal: AbortSignal.timeout(3000) })
    .then((r) => {
      const found = Object.fromEntries(PAGE_HEADER_NAMES.filter((n) => r.headers.get(n)).map((n) => [n, r.headers.get(n)]));
      if (found['content-security-policy']) Object.assign(pageHeaderCache, { at: Date.now(), headers: found });
      return found;
    })
    .catch(() => ({}))
    .finally(() => (pageHeaderCache.pending = null));
  return pageHeaderCache.pending;
}

/**
 * The hashes of a page's inline scripts (the shell's sign-in form before any script), made as the
 * server's inlineScriptHashes (server/src/modules/web/security.ts) makes them: this script stays
 * free of the server's code, which the web image lacks. Read again only when the file changes
 * (its modification time and size).
 */
const inlineHashCache = new Map();
async function inlineScriptHashes(file, st) {
  const stamp = `${st.mtimeMs}:${st.size}`;
  const cached = inlineHashCache.get(file);
  if (cached?.stamp === stamp) return cached.hashes;
  const hashes = [];
  for (const m of (await fs.promises.readFile(file, 'utf8')).matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]) || !m[2]) continue;
    hashes.push(`'sha256-${crypto.createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  inlineHashCache.set(file, { stamp, hashes });
  return hashes;
}

/** The API's policy, allowing also these hashes in script-src, should the API's own build differ. */
function allowingInlineScripts(policy, hashes) {
  return policy
    .split(';')
    .map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name !== 'script-src') return directive.trim();
      return [name, ...sources, ...hashes.filter((h) => !sources.includes(h))].join(' ');
    })
    .join('; ');
}

/** The headers of an HTML page (`file`, whose stat is `st`) at `urlPath`. */
async function pageHeaders(proxy, urlPath, file, st) {
  const fromApi = { ...(await apiPageHeaders(proxy)) };
  const policy = fromApi['content-security-policy'];
  if (policy) fromApi['content-security-policy'] = allowingInlineScripts(policy, await inlineScriptHashes(file, st));
  return {
    'x-frame-options': 'DENY',
    // a share page's address carries its key: no Referer at all
    'referrer-policy': urlPath.startsWith('/s/') ? 'no-referrer' : 'strict-origin-when-cross-origin',
    ...fromApi,
  };
}

/** Whether an Accept-Encoding header admits gzip (and does not refuse it with q=0). */
export function acceptsGzip(header) {
  return String(header || '')
    .split(',')
    .map((part) => part.trim().split(/\s*;\s*/))
    .some(([coding, ...params]) => {
      if (coding.toLowerCase() !== 'gzip' && coding !== '*') return false;
      const q = params.find((p) => p.toLowerCase().startsWith('q='));
      return !q || Number(q.slice(2)) > 0;
    });
}

function sendText(res, status, text, extra = {}) {
  const body = Buffer.from(text + '\n');
  res.writeHead(status, { ...baseHeaders(), 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-store', ...extra });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

async function statFile(p) {
  try {
    const st = await fs.promises.stat(p);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

/** Resolves a request path to a file inside root, or null. Never leaves root. */
async function resolveFile(root, urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return { status: 400 };
  }
  if (rel.includes('\0')) return { status: 400 };
  const abs = path.resolve(root, '.' + path.posix.normalize('/' + rel));
  if (abs !== root && !abs.startsWith(root + path.sep)) return { status: 403 };
  let st = await statFile(abs);
  if (st) return { file: abs, st };
  // a folder: its index.html
  const idx = path.join(abs, 'index.html');
  st = await statFile(idx);
  if (st) return { file: idx, st };
  // SPA fallback for extensionless paths (deep links)
  if (!path.extname(abs)) {
    const spa = path.join(root, 'index.html');
    st = await statFile(spa);
    if (st) return { file: spa, st, fallback: true };
  }
  return { status: 404 };
}

function proxyRequest(req, res, target) {
  const origin = new URL(target);
  const lib = origin.protocol === 'https:' ? https : http;
  const basePath = origin.pathname.replace(/\/$/, '');
  const headers = { ...req.headers };
  headers.host = origin.host;
  const fwd = req.socket.remoteAddress || '';
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${fwd}` : fwd;
  headers['x-forwarded-host'] = req.headers.host || '';
  headers['x-forwarded-proto'] = req.socket.encrypted ? 'https' : 'http';
  const upstream = lib.request(
    {
      protocol: origin.protocol,
      hostname: origin.hostname,
      port: origin.port || (origin.protocol === 'https:' ? 443 : 80),
      method: req.method,
      path: basePath + req.url,
      headers,
    },
    (up) => {
      const h = { ...up.headers };
      if (!h['access-control-allow-origin']) h['access-control-allow-origin'] = '*';
      res.writeHead(up.statusCode || 502, h);
      up.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) sendText(res, 502, `bad gateway: ${err.code || err.message}`);
    else res.destroy(err);
  });
  req.on('aborted', () => upstream.destroy());
  req.pipe(upstream);
}

export function createStaticServer({ dir, proxy, log = true }) {
  const root = path.resolve(dir);
  return http.createServer(async (req, res) => {
    const started = Date.now();
    if (log) res.on('finish', () => console.log(`${req.method} ${req.url} ${res.statusCode} ${Date.now() - started}ms`));
    try {
      const url = new URL(req.url || '/', 'http://localhost');
      if (proxy && PROXIED.some((re) => re.test(url.pathname))) return proxyRequest(req, res, proxy);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { ...baseHeaders(), 'Access-Control-Max-Age': '86400', 'Content-Length': 0 });
        return res.end();
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed', { Allow: 'GET, HEAD, OPTIONS' });
      const found = await resolveFile(root, url.pathname);
      if (!found.file) return sendText(res, found.status, found.status === 404 ? 'not found' : found.status === 403 ? 'forbidden' : 'bad request');
      const { file } = found;
      // the build's gzip copy, for a client that takes it
      const gzipped = await statFile(`${file}.gz`);
      const useGzip = gzipped !== null && acceptsGzip(req.headers['accept-encoding']);
      const st = useGzip ? gzipped : found.st;
      const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}${useGzip ? '-gz' : ''}"`;
      const isPage = ['.html', '.htm'].includes(path.extname(file).toLowerCase());
      const headers = {
        ...baseHeaders(),
        ...(isPage ? await pageHeaders(proxy, url.pathname, file, found.st) : {}),
        'Content-Type': TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'Cache-Control': cacheControl(file),
        'Last-Modified': st.mtime.toUTCString(),
        ETag: etag,
        ...(gzipped ? { Vary: 'Accept-Encoding' } : {}),
        ...(useGzip ? { 'Content-Encoding': 'gzip' } : {}),
      };
      const inm = req.headers['if-none-match'];
      if (inm && inm.split(/\s*,\s*/).includes(etag)) {
        res.writeHead(304, headers);
        return res.end();
      }
      headers['Content-Length'] = st.size;
      res.writeHead(200, headers);
      if (req.method === 'HEAD') return res.end();
      const stream = fs.createReadStream(useGzip ? `${file}.gz` : file);
      stream.on('error', (err) => res.destroy(err));
      stream.pipe(res);
    } catch (err) {
      if (!res.headersSent) sendText(res, 500, 'internal error');
      else res.destroy();
      console.error(err);
    }
  });
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const opts = parseArgs(process.argv.slice(2));
  const root = path.resolve(opts.dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) usage(`${root} is not a folder (build it first)`);
  if (opts.proxy) {
    try {
      new URL(opts.proxy);
    } catch {
      usage(`--proxy must be an absolute URL, got ${opts.proxy}`);
    }
  }
  const port = Number.isInteger(opts.port) && opts.port >= 0 ? opts.port : defaultPort(root);
  const host = opts.host || process.env.HOST || '0.0.0.0';
  const server = createStaticServer({ dir: root, proxy: opts.proxy, log: process.env.SERVE_STATIC_QUIET !== '1' });
  server.listen(port, host, () => {
    const addr = server.address();
    console.log(`serve-static: ${root} on http://${host}:${addr.port}${opts.proxy ? ` (proxy /api -> ${opts.proxy})` : ''}`);
  });
  server.on('error', (err) => {
    console.error(`serve-static: ${err.message}`);
    process.exit(1);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
