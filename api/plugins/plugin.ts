import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/**
 * A plugin whose hooks, decorators and handlers apply to the context that registers it rather
 * than to a child context: what the fastify-plugin package does, by the same documented
 * `skip-override` symbol, without a dependency for three lines.
 */
export function shared<O extends FastifyPluginOptions>(name: string, fn: FastifyPluginAsync<O>): FastifyPluginAsync<O> {
  const f = fn as FastifyPluginAsync<O> & Record<symbol, unknown>;
  f[Symbol.for('skip-override')] = true;
  f[Symbol.for('fastify.display-name')] = name;
  return fn;
}
