// scripts/serve-static.mjs, the static server for a web build deployed on its own: it sends the
// build's gzip copy of a file to a client that accepts gzip, and the file itself otherwise.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Server } from 'node:http';

const SCRIPT = `/* 云文档 */ ${'var start = "云文档";\n'.repeat(300)}`;

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose answer is not decoded (fetch would gunzip it silently). */
function get(base: string, urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('scripts/serve-static.mjs', () => {
  let dir: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-serve-static-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>云文档</title>');
    fs.writeFileSync(path.join(dir, 'start.0123abcd.js'), SCRIPT);
    fs.writeFileSync(path.join(dir, 'start.0123abcd.js.gz'), zlib.gzipSync(SCRIPT, { level: 9 }));
    fs.writeFileSync(path.join(dir, 'small.0123abcd.js'), 'var small;');
    const { createStaticServer } = await import('../../scripts/serve-static.mjs');
    server = createStaticServer({ dir, log: false });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('reads Accept-Encoding as browsers and proxies send it', async () => {
    const { acceptsGzip } = await import('../../scripts/serve-static.mjs');
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('deflate, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip; q=0.000, identity')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  test('a client that accepts gzip gets the gzip copy, with its own ETag; a second request is a 304', async () => {
    const gz = await get(base, '/start.0123abcd.js', { 'accept-encoding': 'gzip, deflate' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gz.headers['content-type']).toMatch(/javascript/);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(gz.body.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 10);
    expect(zlib.gunzipSync(gz.body).toString()).toBe(SCRIPT);

    const plain = await get(base, '/start.0123abcd.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(plain.headers.etag).not.toBe(gz.headers.etag);

    const again = await get(base, '/start.0123abcd.js', { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) });
    expect(again.status).toBe(304);
    const head = await get(base, '/start.0123abcd.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.body.length).toBe(0);
  });

  test('gzip refused with q=0, or a file without a gzip copy: the file itself', async () => {
    const refused = await get(base, '/start.0123abcd.js', { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString()).toBe(SCRIPT);

    const small = await get(base, '/small.0123abcd.js', { 'accept-encoding': 'gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(small.body.toString()).toBe('var small;');
  });
});
