// Marks a Fastify plugin as not encapsulated, so what it decorates or hooks is visible to
// the whole 云文档 app (what fastify-plugin does, without the extra dependency).
import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

export function globalPlugin<O extends FastifyPluginOptions = Record<never, never>>(
  name: string,
  fn: FastifyPluginAsync<O>,
): FastifyPluginAsync<O> {
  const marked = fn as FastifyPluginAsync<O> & Record<symbol, unknown>;
  marked[Symbol.for('skip-override')] = true;
  marked[Symbol.for('fastify.display-name')] = name;
  return fn;
}
