// A reply sent before its request's body was read to the end (a chunk refused part-way, a
// disk that filled up, a call refused before its body mattered) must not leave the rest of
// that body sitting in the socket: the next request on the same keep-alive connection would
// wait behind it until the keep-alive ran out. The rest is read and dropped while it is small;
// a larger rest closes the connection after the reply (and says so in `Connection: close`).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { globalPlugin } from '../lib/plugin';

/** The most of a refused body that is still read and dropped to keep its connection. */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

function drain(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed || raw.readableEnded) return;
  // whatever read the body (a multipart parser) stopped: detach it
  raw.unpipe();
  raw.removeAllListeners('data');
  const declared = Number(raw.headers['content-length']);
  if (!Number.isFinite(declared) || declared > DRAIN_LIMIT_BYTES) {
    // a large or unbounded rest: not worth reading; the connection ends after the reply
    reply.header('connection', 'close');
    return;
  }
  raw.resume();
}

export const bodyDrainPlugin = globalPlugin('yunwendang-body-drain', async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    drain(request, reply);
    return payload;
  });
});
