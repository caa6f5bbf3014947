// A chunk refused part-way through its body (more bytes than it declared) answers 400, and the
// connection it came on keeps working: the rest of the refused body is read and dropped (or,
// past a bound, the connection is closed), so the next request on the same keep-alive socket
// gets its answer at once instead of waiting for the keep-alive to run out.
import net from 'node:net';
import { databaseKinds, login, ok, startServer, type TestServer } from './support/harness';
import { createTask, multipartBody } from './support/uploads';

const CHUNK = 256 * 1024;

/** Sends raw HTTP/1.1 requests on one socket and reads the replies one after another. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;
  constructor(private readonly socket: net.Socket) {
    socket.on('data', (d) => {
      this.buffer = Buffer.concat([this.buffer, d]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }
  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(new RawConnection(s)));
      s.once('error', reject);
    });
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  write(data: Buffer | string) {
    this.socket.write(data);
  }
  /** The next reply (status and body), or null when the socket closed first or nothing came within `ms`. */
  async reply(ms: number): Promise<{ status: number; headers: string; body: string } | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const head = this.buffer.indexOf('\r\n\r\n');
      if (head >= 0) {
        const headers = this.buffer.subarray(0, head).toString('latin1');
        const length = Number(/content-length:\s*(\d+)/i.exec(headers)?.[1] ?? 0);
        if (this.buffer.length >= head + 4 + length) {
          const body = this.buffer.subarray(head + 4, head + 4 + length).toString('utf8');
          this.buffer = this.buffer.subarray(head + 4 + length);
          return { status: Number(headers.split(' ')[1]), headers, body };
        }
      }
      if (this.closed) return null;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
  end() {
    this.socket.destroy();
  }
}

describe.each(databaseKinds())('a refused chunk body does not stall its connection (%s)', (kind) => {
  let server: TestServer;
  let token: string;
  let port: number;

  beforeAll(async () => {
    server = await startServer(kind);
    server.app.services.uploads.limits.chunkSize = CHUNK;
    token = (await login(server.app)).token;
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function chunkRequest(fileId: string, declared: number, actual: number) {
    const { payload, contentType } = await multipartBody(
      { chunkNumber: 1, totalChunks: 1, chunkSize: CHUNK, currentChunkSize: declared, totalSize: declared, identifier: 'x', filename: 'a.bin', relativePath: 'a.bin' },
      Buffer.alloc(actual, 7),
      'a.bin',
    );
    const head =
      `POST /api/User/FileTransfer/UploadChunk2?fileId=${fileId} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\nConnection: keep-alive\r\n\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
  }
  const homeRequest = () => `GET /api/User/Home HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`;

  test('a chunk longer than it declared answers 400, and the next request on that socket answers at once', async () => {
    const root = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0];
    const created = await createTask(server.app, { token }, { folderId: root.id, fileName: 'a.bin', size: 1000 });
    const fileId = created.body.result.fileInfo.fileId;
    const conn = await RawConnection.open(port);
    try {
      // 1000 bytes declared, a quarter of a megabyte sent
      conn.write(await chunkRequest(fileId, 1000, 200 * 1024));
      const refused = await conn.reply(10_000);
      expect(refused?.status).toBe(400);
      expect(JSON.parse(refused!.body).message).toMatch(/超过声明的大小/);
      conn.write(homeRequest());
      const next = await conn.reply(5_000);
      if (next === null) {
        // the server chose to close the connection instead: then it said so in the refusal
        expect(refused!.headers).toMatch(/connection:\s*close/i);
        expect(conn.closed).toBe(true);
      } else {
        expect(next.status).toBe(200);
      }
    } finally {
      conn.end();
    }
  });

  test('a refused body too large to read away closes its connection after the answer', async () => {
    const root = (await ok(server.app, 'GET', '/api/User/Folders/Personal/RootFolders', { token }))[0];
    const fileId = (await createTask(server.app, { token }, { folderId: root.id, fileName: 'b.bin', size: 1000 })).body.result.fileInfo.fileId;
    const whole = await chunkRequest(fileId, 1000, 200 * 1024);
    const conn = await RawConnection.open(port);
    try {
      // the head claims 64 MB; a fraction of it is sent and the sender keeps the rest back
      const text = whole.toString('latin1').replace(/Content-Length: \d+/, `Content-Length: ${64 * 1024 * 1024}`);
      conn.write(Buffer.from(text, 'latin1'));
      const refused = await conn.reply(10_000);
      expect(refused?.status).toBe(400);
      expect(refused!.headers).toMatch(/connection:\s*close/i);
      expect(await conn.reply(5_000)).toBeNull();
      expect(conn.closed).toBe(true);
    } finally {
      conn.end();
    }
  });

  test('a refused chunk of an unknown session is drained too', async () => {
    const conn = await RawConnection.open(port);
    try {
      conn.write(await chunkRequest('0'.repeat(32), 1000, 200 * 1024));
      const refused = await conn.reply(10_000);
      expect(refused?.status).toBe(404);
      conn.write(homeRequest());
      const next = await conn.reply(5_000);
      expect(next === null ? /connection:\s*close/i.test(refused!.headers) && conn.closed : next.status === 200).toBe(true);
    } finally {
      conn.end();
    }
  });
});
