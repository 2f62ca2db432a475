import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../infra/config.ts';
import { ConfigSchema } from '../infra/config.ts';

/**
 * How long a client may take and how many connections the partners' port holds (README
 * "Configuration": the HTTP_* settings). A slow client is cut by node's http server: the headers
 * within `headersTimeoutMs`, the whole request within `requestTimeoutMs` (408, then the connection
 * is closed; node checks every 250 ms here), an idle keep-alive connection after
 * `keepAliveTimeoutMs`, any connection silent both ways after `idleTimeoutMs`. Connections past
 * `maxConnections` are closed as they are accepted.
 */
export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleTimeoutMs: number;
  maxConnections: number;
  /** 0: no limit */
  maxRequestsPerSocket: number;
  /** the peers whose X-Forwarded-For gives the client address (false: none; a hop count; addresses or ranges) */
  trustProxy: false | number | string[];
}

export function httpLimitsOf(config: Pick<Config, `HTTP_${string}` & keyof Config>): HttpLimits {
  return {
    headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    idleTimeoutMs: config.HTTP_IDLE_TIMEOUT_MS,
    maxConnections: config.HTTP_MAX_CONNECTIONS,
    maxRequestsPerSocket: config.HTTP_MAX_REQUESTS_PER_SOCKET,
    trustProxy: config.HTTP_TRUST_PROXY,
  };
}

/** the configuration's defaults */
export const DEFAULT_HTTP_LIMITS: HttpLimits = httpLimitsOf(ConfigSchema.parse({}));

/** fastify's server options for the limits (the connection cap is set on the server: `capConnections`) */
export function serverOptions(limits: HttpLimits): FastifyHttpOptions<Server> {
  // node refuses a headers timeout longer than the request timeout
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerSocket,
    // a hop count as proxy-addr's function form (fastify's types omit the number it accepts)
    trustProxy: typeof limits.trustProxy === 'number' ? trustHops(limits.trustProxy) : limits.trustProxy,
    http: { headersTimeout, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: 250 },
  };
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/** the base URL of a listening server's address (an IPv6 address in brackets) */
export function baseUrlOf(addr: AddressInfo): string {
  return `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`;
}

export function capConnections(app: FastifyInstance, limits: HttpLimits): void {
  app.server.maxConnections = limits.maxConnections;
}

/**
 * On every answer: no content sniffing, no caching of what a key was answered, and for JSON no
 * document a browser may render or frame (the docs page has its own policy: api/docs/plugin.ts `DOCS_CSP`).
 */
export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
} as const;

