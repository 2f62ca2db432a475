import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../schemas/errors.ts';
import type { MeteredRoute } from '../operations.ts';
import type { WalletAuth } from '../wallet-auth.ts';

/**
 * The execution relay as the auth, limits, metering and metrics plugins see it: keyed, rate
 * limited, counted against the key's daily quota and the global budget, and billed a unit per
 * successful call like the operations.
 */
export const agentRelayRoute: MeteredRoute = { id: 'copyAgent', cost: 1 };

export interface AgentRelayOptions {
  [k: string]: unknown;
  bases: readonly string[];
  walletAuth: WalletAuth;
}

/**
 * The copy-trading execution relay `/copy/agent/*`: registered among the operation routes, after
 * the auth, limits and metering plugins, so the key is checked and the call limited first; then
 * the end user's wallet authorization (api/wallet-auth.ts) over the partner of the key, the
 * method, the path and query as sent, and the raw body. Then it answers 503
 * execution_unavailable: execution is not built yet.
 */
export async function agentRelayRoutes(app: FastifyInstance, opts: AgentRelayOptions): Promise<void> {
  for (const base of opts.bases) {
    app.route({
      method: ['GET', 'POST'],
      url: `${base}/copy/agent/*`,
      config: { operation: agentRelayRoute },
      handler: async (req) => {
        const key = req.apiKey;
        if (!key) throw new ApiError('invalid_api_key', 'the API key is unknown or revoked');
        const q = req.url.indexOf('?');
        const path = (q < 0 ? req.url : req.url.slice(0, q)).slice(base.length);
        const query = q < 0 ? '' : req.url.slice(q + 1);
        await opts.walletAuth.authorize({ partner: key.orgId, method: req.method, path, query, rawBody: req.rawBody ?? '', headers: req.headers });
        throw new ApiError('execution_unavailable', 'the copy-trading execution relay is not available on this deployment yet; the read operations under /copy/ work');
      },
    });
  }
}
