// A request that reaches an instance while it shuts down (on a keep-alive connection, or
// pipelined) is turned away before any handler runs, so that nothing starts that the closing
// database could cut short: HTTP 503 with the connection closed, and for /api calls the
// contract's envelope with a Chinese message (Fastify's own answer would be English JSON).
// A balancer or the client sends it again to another instance.
import http from 'node:http';

export const DRAINING_MESSAGE = '服务正在重启，请稍后重试';

export interface Draining {
  /** Fastify's serverFactory: the HTTP server with the check in front of Fastify's handler. */
  serverFactory(handler: http.RequestListener, options: { http?: http.ServerOptions }): http.Server;
  /** From now on requests are turned away. */
  start(): void;
}

/**
 * `httpOptions`: Node's server settings; `keepAliveTimeoutMs`: how long an idle keep-alive
 * connection stays (what Fastify sets on a server it makes itself).
 */
export function draining(httpOptions: http.ServerOptions, keepAliveTimeoutMs: number): Draining {
  let closing = false;
  return {
    serverFactory(handler) {
      const server = http.createServer(httpOptions, (req, res) => {
        if (!closing) return handler(req, res);
        const api = (req.url ?? '').startsWith('/api/');
        const body = api ? JSON.stringify({ code: 503, result: null, message: DRAINING_MESSAGE }) : `${DRAINING_MESSAGE}。`;
        res.writeHead(503, {
          'Content-Type': api ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(body)),
          'Retry-After': '1',
          Connection: 'close',
        });
        res.end(body);
        // the request's body, if any, is not read: the connection goes
        req.socket.on('error', () => undefined);
      });
      server.keepAliveTimeout = keepAliveTimeoutMs;
      // no socket idle limit (connectionTimeout 0)
      server.setTimeout(0);
      return server;
    },
    start() {
      closing = true;
    },
  };
}
