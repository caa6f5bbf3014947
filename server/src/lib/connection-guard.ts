// Guards the 云文档 HTTP server against clients that hold connections without using them
// (slowloris and its relatives). Node itself cuts slow request headers (headersTimeout) and
// idle connections between requests (keepAliveTimeout); this adds what it lacks:
// - a ceiling on the open connections of one address, not applied to trusted proxies;
// - a minimum rate for request bodies, in the manner of Apache's mod_reqtimeout MinRate:
//   in every period of bodyTimeoutMs a body still arriving must deliver bodyMinBytes, so a
//   body trickled a byte at a time is cut while a chunk on a slow but live link never is.
//   While the server itself does not read (backpressure: the handler is busy, the disk is
//   slow) the period starts again: only the client's slowness counts;
// - a send timeout, as nginx's send_timeout: a client that takes none of a response waiting
//   for it during sendTimeoutMs is cut. A download that keeps moving, however long, is not;
//   nor is a request that the server takes long to answer, as nothing is waiting to be sent.
// One interval timer walks the open connections; nothing is kept per request beyond them.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { plainAddress } from './address-list';

export interface ConnectionGuardOptions {
  /** open connections per client address; 0: no ceiling */
  perAddress: number;
  /** addresses the ceiling does not apply to (trusted proxies) */
  exempt: (address: string) => boolean;
  /** 0: no body rate check */
  bodyTimeoutMs: number;
  bodyMinBytes: number;
  /** 0: no send timeout */
  sendTimeoutMs: number;
}

export interface GuardLog {
  warn(obj: object, msg: string): void;
}

interface BodyWatch {
  req: IncomingMessage;
  since: number;
  /** socket.bytesRead when the period began */
  mark: number;
}

/** The part of libuv's stream handle that tells how much of a write the kernel has not yet taken. */
interface StreamHandle {
  writeQueueSize?: number;
}

/**
 * How far the client has taken the response: bytes handed over whole, less what Node still
 * holds, plus what libuv has written of the write in progress (a write may be a 64 KB piece
 * that a slow reader takes over several seconds).
 */
function sentProgress(socket: Socket): number {
  const queued = (socket as unknown as { _handle?: StreamHandle | null })._handle?.writeQueueSize ?? 0;
  return socket.bytesWritten - socket.writableLength - queued;
}

interface Watched {
  socket: Socket;
  address: string;
  /** counted against the address's ceiling */
  counted: boolean;
  body: BodyWatch | null;
  sendSince: number;
  /** bytes of the response the client has taken so far */
  sendMark: number;
}

type CutReason = 'refused' | 'body' | 'send';

const REASON_TEXT: Record<CutReason, string> = {
  refused: '同一地址的连接数超过上限（HTTP_CONN_PER_IP），已拒绝新连接',
  body: '请求体传输过慢（HTTP_BODY_TIMEOUT_MS、HTTP_BODY_MIN_BYTES），已断开连接',
  send: '客户端长时间不接收响应（HTTP_SEND_TIMEOUT_MS），已断开连接',
};

/** At most one warning a minute, with the counts since the last one. */
const LOG_EVERY_MS = 60_000;

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** How often the connections are walked: a quarter of the shortest period, 100 ms to 1 s. */
export function sweepIntervalMs(o: Pick<ConnectionGuardOptions, 'bodyTimeoutMs' | 'sendTimeoutMs'>): number {
  const periods = [o.bodyTimeoutMs, o.sendTimeoutMs].filter((p) => p > 0);
  if (!periods.length) return 1000;
  return Math.max(100, Math.min(1000, Math.floor(Math.min(...periods) / 4)));
}

export function guardConnections(server: Server, options: ConnectionGuardOptions, log: GuardLog) {
  const watched = new Map<Socket, Watched>();
  const perAddress = new Map<string, number>();
  const cuts: Record<CutReason, number> = { refused: 0, body: 0, send: 0 };
  let lastLog = 0;
  let timer: NodeJS.Timeout | null = null;
  let lastSweep = 0;
  const interval = sweepIntervalMs(options);

  const noteCut = (reason: CutReason, address: string, now: number) => {
    cuts[reason] += 1;
    if (now - lastLog < LOG_EVERY_MS) return;
    lastLog = now;
    for (const r of Object.keys(cuts) as CutReason[]) {
      if (cuts[r]) log.warn({ count: cuts[r], lastAddress: address }, `云文档：${REASON_TEXT[r]}`);
      cuts[r] = 0;
    }
  };

  const onConnection = (socket: Socket) => {
    const address = plainAddress(socket.remoteAddress ?? '');
    const counted = options.perAddress > 0 && address !== '' && !options.exempt(address);
    if (counted) {
      const open = perAddress.get(address) ?? 0;
      if (open >= options.perAddress) {
        noteCut('refused', address, Date.now());
        socket.destroy();
        return;
      }
      perAddress.set(address, open + 1);
    }
    const w: Watched = { socket, address, counted, body: null, sendSince: Date.now(), sendMark: 0 };
    watched.set(socket, w);
    socket.once('close', () => {
      watched.delete(socket);
      if (!w.counted) return;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  };

  const onRequest = (req: IncomingMessage) => {
    const w = watched.get(req.socket);
    if (!w || options.bodyTimeoutMs <= 0 || !hasBody(req)) return;
    w.body = { req, since: Date.now(), mark: req.socket.bytesRead };
  };

  const sweep = () => {
    const now = Date.now();
    // The server's own pause (a long garbage collection, a blocked event loop) is not the
    // client's delay: after a sweep that came far too late, every clock starts again.
    const stalled = lastSweep > 0 && now - lastSweep > interval * 3;
    lastSweep = now;
    for (const w of watched.values()) {
      if (stalled) {
        if (w.body) {
          w.body.since = now;
          w.body.mark = w.socket.bytesRead;
        }
        w.sendSince = now;
        w.sendMark = sentProgress(w.socket);
        continue;
      }
      const { socket } = w;
      if (socket.destroyed) continue;
      const body = w.body;
      if (body) {
        if (body.req.complete || body.req.destroyed) w.body = null;
        else if (socket.isPaused()) {
          // the server is not reading (backpressure): not the client's delay
          body.since = now;
          body.mark = socket.bytesRead;
        } else if (now - body.since >= options.bodyTimeoutMs) {
          if (socket.bytesRead - body.mark < options.bodyMinBytes) {
            noteCut('body', w.address, now);
            socket.destroy();
            continue;
          }
          body.since = now;
          body.mark = socket.bytesRead;
        }
      }
      if (options.sendTimeoutMs > 0) {
        const waiting = socket.writableLength;
        const taken = sentProgress(socket);
        if (waiting === 0 || taken !== w.sendMark) {
          w.sendMark = taken;
          w.sendSince = now;
        } else if (now - w.sendSince >= options.sendTimeoutMs) {
          noteCut('send', w.address, now);
          socket.destroy();
        }
      }
    }
  };

  server.on('connection', onConnection);
  server.on('request', onRequest);
  const start = () => {
    if (timer || (options.bodyTimeoutMs <= 0 && options.sendTimeoutMs <= 0)) return;
    lastSweep = 0;
    timer = setInterval(sweep, interval);
    timer.unref();
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  server.on('listening', start);
  server.on('close', stop);
  if (server.listening) start();

  return {
    stop,
    /** open connections of an address that count against the ceiling (for tests) */
    openConnections: (address: string) => perAddress.get(plainAddress(address)) ?? 0,
  };
}
