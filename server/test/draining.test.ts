// An instance that shuts down turns away the requests that still reach it (on a keep-alive
// connection, pipelined, or in the moment before its socket stops listening): HTTP 503 with
// the connection closed, the contract's envelope with a Chinese message for /api calls, plain
// Chinese text for pages; requests before the shutdown are answered as usual.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { DRAINING_MESSAGE } from '../src/lib/draining';

function get(port: number, urlPath: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

test('while the instance closes, an /api call gets 503 in the envelope and a page 503 in Chinese; before, the usual answers', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yunwendang-draining-'));
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Admin-pass-123' }));
  const during: Array<Awaited<ReturnType<typeof get>>> = [];
  let port = 0;
  // runs after the application's own preClose hooks, while the socket still listens
  app.addHook('preClose', async () => {
    during.push(await get(port, '/api/runtime/Features'), await get(port, '/login'));
  });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    const before = await get(port, '/api/login');
    expect(before.status).not.toBe(503);
    expect(JSON.parse(before.body)).toHaveProperty('code');
    expect((await get(port, '/runtime-config.json')).status).toBe(200);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const [api, page] = during;
  expect(api.status).toBe(503);
  expect(api.headers['content-type']).toMatch(/^application\/json/);
  expect(api.headers.connection).toBe('close');
  expect(api.headers['retry-after']).toBe('1');
  expect(JSON.parse(api.body)).toEqual({ code: 503, result: null, message: DRAINING_MESSAGE });
  expect(page.status).toBe(503);
  expect(page.headers['content-type']).toMatch(/^text\/plain/);
  expect(page.body).toBe(`${DRAINING_MESSAGE}。`);
});
