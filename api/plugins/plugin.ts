import type { FastifyPluginAsync, FastifyPluginOptions, RouteOptions, onRequestHookHandler, onSendHookHandler, preHandlerHookHandler } from 'fastify';

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

/**
 * Appends a hook to one route's own hooks (after those already there): the plugins key, limit,
 * meter and count the operation routes this way, from their `onRoute` hooks.
 */
export function addRouteHook(route: RouteOptions, name: 'onRequest', hook: onRequestHookHandler): void;
export function addRouteHook(route: RouteOptions, name: 'preHandler', hook: preHandlerHookHandler): void;
export function addRouteHook(route: RouteOptions, name: 'onSend', hook: onSendHookHandler): void;
export function addRouteHook(route: RouteOptions, name: 'onRequest' | 'preHandler' | 'onSend', hook: unknown): void {
  const hooks = route as unknown as Record<typeof name, unknown>;
  const existing = hooks[name];
  hooks[name] = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
}
