// Slow and idle clients against a real listening 云文档 server (raw sockets on 127.0.0.1):
// trickled headers and bodies, idle keep-alive connections and clients that stop reading are
// cut within bounded times; one address may hold only HTTP_CONN_PER_IP connections, trusted
// proxies excepted; a chunk upload on a slow but steady link and a download read slowly are
// not cut. The limits are scaled down so that every case takes a few seconds.
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { App } from '../src/app';
import { login, ok, startServer, type TestServer } from './support/harness';
import { createTask, md5, merge, multipartBody, uploadFile } from './support/uploads';

jest.setTimeout(60_000);

const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '600',
  HTTP_BODY_TIMEOUT_MS: '800',
  HTTP_BODY_MIN_BYTES: '4096',
  HTTP_SEND_TIMEOUT_MS: '1500',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
  HTTP_CONN_PER_IP: '0',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function listen(app: App): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as net.AddressInfo).port;
}

interface RawClient {
  socket: net.Socket;
  /** everything received so far */
  received: () => string;
  /** resolves with the milliseconds from `start` to the close */
  closed: Promise<number>;
  isClosed: () => boolean;
}

function connect(port: number, start = Date.now()): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    let done = false;
    const closed = new Promise<number>((r) =>
      socket.once('close', () => {
        done = true;
        r(Date.now() - start);
      }),
    );
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => data, closed, isClosed: () => done }));
    socket.once('error', reject);
  });
}

/** Sends one GET on the client's connection and waits for the whole (small) answer. */
async function get(c: RawClient, path: string): Promise<string> {
  const before = c.received().length;
  c.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
  const deadline = Date.now() + 5000;
  for (;;) {
    const text = c.received().slice(before);
    const head = text.indexOf('\r\n\r\n');
    if (head !== -1) {
      const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, head))?.[1] ?? 0);
      if (text.length >= head + 4 + length) return text;
    }
    if (c.isClosed() || Date.now() > deadline) throw new Error(`no answer to GET ${path}: ${JSON.stringify(text.slice(0, 200))}`);
    await sleep(10);
  }
}

/** Resolves once the server holds `n` open connections. */
async function serverConnections(app: App, n: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const count = await new Promise<number>((r, j) => app.server.getConnections((err, c) => (err ? j(err) : r(c))));
    if (count === n || Date.now() > deadline) return count;
    await sleep(50);
  }
}

describe('slow and idle connections', () => {
  let server: TestServer;
  let port: number;

  beforeAll(async () => {
    server = await startServer('sqlite', { env: LIMITS });
    port = await listen(server.app);
  });
  afterAll(async () => {
    await server?.close();
  });

  test('a connection trickling its headers, or sending nothing, is closed within the header timeout', async () => {
    const start = Date.now();
    const trickling = await connect(port, start);
    const silent = await connect(port, start);
    trickling.socket.write('GET /runtime-config.json HTTP/1.1\r\nHost: localhost\r\n');
    const timer = setInterval(() => trickling.isClosed() || trickling.socket.write('X-Slow: 1\r\n'), 100);
    try {
      const [t1, t2] = await Promise.all([trickling.closed, silent.closed]);
      // 600 ms, checked every 150 ms; never before the limit
      for (const t of [t1, t2]) {
        expect(t).toBeGreaterThanOrEqual(500);
        expect(t).toBeLessThan(2500);
      }
      expect(trickling.received()).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(timer);
    }
  });

  test('a request body trickled a byte at a time is cut; the request never reaches its end', async () => {
    const c = await connect(port);
    c.socket.write(`POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const start = Date.now();
    const timer = setInterval(() => c.isClosed() || c.socket.write(' '), 200);
    try {
      await c.closed;
      const elapsed = Date.now() - start;
      // fewer than 4096 bytes in the first 800 ms period; the sweep runs every 200 ms
      expect(elapsed).toBeGreaterThanOrEqual(700);
      expect(elapsed).toBeLessThan(3000);
      expect(c.received()).toBe('');
    } finally {
      clearInterval(timer);
    }
  });

  test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const c = await connect(port);
    expect(await get(c, '/runtime-config.json')).toMatch(/^HTTP\/1\.1 200/);
    const answered = Date.now();
    // still usable a moment later
    await sleep(200);
    expect(await get(c, '/runtime-config.json')).toMatch(/^HTTP\/1\.1 200/);
    const again = Date.now();
    await c.closed;
    const idle = Date.now() - again;
    expect(idle).toBeGreaterThanOrEqual(400);
    expect(idle).toBeLessThan(2500);
    expect(Date.now() - answered).toBeGreaterThan(600);
  });

  test('a chunk uploaded at a slow but steady rate, two at a time, is not cut', async () => {
    const app = server.app;
    const chunkSize = 128 * 1024;
    const saved = app.services.uploads.limits.chunkSize;
    app.services.uploads.limits.chunkSize = chunkSize;
    try {
      const { token } = await login(app);
      const root = (await ok(app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0];
      const content = crypto.randomBytes(chunkSize * 2);
      const created = await createTask(app, { token }, { folderId: root.id, fileName: '慢速上传.bin', size: content.length });
      const fileId = created.body.result.fileInfo.fileId as string;

      // 8 KB every 200 ms (40 KB/s): each body takes over 3 s, four body periods, five
      // header timeouts and six keep-alive timeouts, but brings 32 KB in every 800 ms
      const slowChunk = async (n: number) => {
        const data = content.subarray((n - 1) * chunkSize, n * chunkSize);
        const fields = { chunkNumber: n, totalChunks: 2, chunkSize, currentChunkSize: data.length, totalSize: content.length, identifier: 'x', filename: '慢速上传.bin', relativePath: '慢速上传.bin' };
        const { payload, contentType } = await multipartBody(fields, data, '慢速上传.bin');
        const query = new URLSearchParams({ fileId, RelativePath: '慢速上传.bin', ChunkHash: md5(data) });
        const started = Date.now();
        const body = await new Promise<string>((resolve, reject) => {
          const req = http.request(
            { host: '127.0.0.1', port, method: 'POST', path: `/api/User/FileTransfer/UploadChunk2?${query}`, agent: false, headers: { 'content-type': contentType, 'content-length': payload.length, authorization: `Bearer ${token}` } },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (d) => (text += d));
              res.on('end', () => resolve(text));
            },
          );
          req.on('error', reject);
          void (async () => {
            for (let at = 0; at < payload.length; at += 8192) {
              req.write(payload.subarray(at, at + 8192));
              await sleep(200);
            }
            req.end();
          })();
        });
        return { took: Date.now() - started, body: JSON.parse(body) };
      };
      const results = await Promise.all([slowChunk(1), slowChunk(2)]);
      for (const r of results) {
        expect(r.took).toBeGreaterThan(3000);
        expect(r.body.code).toBe(200);
      }
      const merged = await merge(app, { token }, fileId, md5(content), '慢速上传.bin');
      expect(merged.body.code).toBe(200);
      expect(merged.body.result.size).toBe(content.length);
    } finally {
      app.services.uploads.limits.chunkSize = saved;
    }
  });

  describe('a client that stops reading a download', () => {
    const size = 24 * 1024 * 1024;
    let token: string;
    let fileId: string;
    beforeAll(async () => {
      token = (await login(server.app)).token;
      const root = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0];
      fileId = (await uploadFile(server.app, { token }, root.id, '大文件.bin', crypto.randomBytes(size), 5 * 1024 * 1024)).id;
    });

    const request = () => `GET /api/User/FileTransfer/Download/${fileId} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`;

    test('is cut after the send timeout', async () => {
      await serverConnections(server.app, 0, 5000);
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((r) => socket.once('connect', r));
      socket.pause();
      socket.write(request());
      expect(await serverConnections(server.app, 1, 1000)).toBe(1);
      // the response fills the buffers, then nothing moves for 1.5 s
      const start = Date.now();
      expect(await serverConnections(server.app, 0, 10_000)).toBe(0);
      expect(Date.now() - start).toBeGreaterThanOrEqual(1400);
      socket.destroy();
    });

    /** A download whose reader is paused; `readFor` takes a short read every `every` ms. */
    async function pausedDownload() {
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((r) => socket.once('connect', r));
      let head = '';
      let body = 0;
      let closed = false;
      socket.on('data', (d: Buffer) => {
        if (head.endsWith('\r\n\r\n')) {
          body += d.length;
          return;
        }
        const text = head + d.toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) head = text;
        else {
          head = text.slice(0, end + 4);
          body += d.length - (head.length - (text.length - d.length));
        }
      });
      socket.once('close', () => (closed = true));
      socket.pause();
      socket.write(request());
      const readFor = async (ms: number, every = 500) => {
        const start = Date.now();
        while (!closed && body < size && Date.now() - start < ms) {
          await sleep(every);
          socket.resume();
          await sleep(20); // a short read (2 ms received too little on a loaded machine)
          socket.pause();
        }
      };
      return { socket, readFor, body: () => body, head: () => head, closed: () => closed };
    }

    test('read slowly but steadily, it is received whole', async () => {
      const d = await pausedDownload();
      // a short read every 500 ms: the server waits on the client most of the time, never 1.5 s
      await d.readFor(30_000);
      expect(d.head()).toMatch(/^HTTP\/1\.1 200/);
      expect(d.body()).toBe(size);
      d.socket.destroy();
    });

    test('a pause of the server’s own (its event loop blocked for 2.5 s) does not cut a client that had stopped reading just before', async () => {
      const d = await pausedDownload();
      // the buffers fill and nothing moves; before the client’s 1.5 s are up, the whole process blocks
      await sleep(600);
      const blockedUntil = Date.now() + 2500;
      while (Date.now() < blockedUntil) {
        // the server does nothing else either
      }
      await d.readFor(30_000, 300);
      expect(d.closed() && d.body() < size).toBe(false);
      expect(d.body()).toBe(size);
      d.socket.destroy();
    });
  });
});

describe('connections per address', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer('sqlite', { env: { ...LIMITS, HTTP_KEEP_ALIVE_TIMEOUT_MS: '20000', HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_CONN_PER_IP: '4' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('the fifth connection from one address is closed at once while the first four keep working', async () => {
    const port = await listen(server.app);
    const clients = await Promise.all([1, 2, 3, 4].map(() => connect(port)));
    for (const c of clients) expect(await get(c, '/runtime-config.json')).toMatch(/^HTTP\/1\.1 200/);

    const start = Date.now();
    const fifth = await connect(port, start);
    fifth.socket.write('GET /runtime-config.json HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await fifth.closed).toBeLessThan(1000);
    expect(fifth.received()).toBe('');

    for (const c of clients) expect(await get(c, '/runtime-config.json')).toMatch(/^HTTP\/1\.1 200/);

    // one of them goes away: a new connection is taken again
    clients[0].socket.destroy();
    await serverConnections(server.app, 3, 2000);
    const next = await connect(port);
    expect(await get(next, '/runtime-config.json')).toMatch(/^HTTP\/1\.1 200/);
    for (const c of [...clients, next]) c.socket.destroy();
  });

  test('a trusted proxy (TRUST_PROXY) is not limited; an address outside TRUST_PROXY still is', async () => {
    const proxied = await server.restart({ TRUST_PROXY: '127.0.0.1' });
    const port = await listen(proxied);
    const clients = await Promise.all([1, 2, 3, 4, 5, 6].map(() => connect(port)));
    for (const c of clients) expect(await get(c, '/runtime-config.json')).toMatch(/^HTTP\/1\.1 200/);
    for (const c of clients) c.socket.destroy();

    const elsewhere = await server.restart({ TRUST_PROXY: '10.0.0.0/8' });
    const port2 = await listen(elsewhere);
    const four = await Promise.all([1, 2, 3, 4].map(() => connect(port2)));
    for (const c of four) expect(await get(c, '/runtime-config.json')).toMatch(/^HTTP\/1\.1 200/);
    const fifth = await connect(port2, Date.now());
    expect(await fifth.closed).toBeLessThan(1000);
    expect(fifth.received()).toBe('');
    for (const c of four) c.socket.destroy();
  });

  test('HTTP_CONN_PER_IP=0 sets no ceiling', async () => {
    const open = await server.restart({ HTTP_CONN_PER_IP: '0' });
    const port = await listen(open);
    const clients = await Promise.all(Array.from({ length: 8 }, () => connect(port)));
    for (const c of clients) expect(await get(c, '/runtime-config.json')).toMatch(/^HTTP\/1\.1 200/);
    for (const c of clients) c.socket.destroy();
  });
});
