import type { FastifyInstance } from 'fastify';
import type { AnyOperation } from '../operations.ts';
import { createOperationHandler } from '../pipeline.ts';
import type { ResponseCache } from '../served.ts';
import type { WalletAuth } from '../wallet-auth.ts';

export interface OperationRoutesOptions {
  [k: string]: unknown;
  /** the operations of one group */
  operations: AnyOperation[];
  bases: readonly string[];
  responses: ResponseCache;
  /** the execution relay's operations (`walletAuth`) authorize the end user's wallet with it */
  walletAuth?: WalletAuth;
}

/** The routes of one group of operations, under every base; auth, limits and metering act on them by their `operation` config. */
export async function operationRoutes(app: FastifyInstance, opts: OperationRoutesOptions): Promise<void> {
  for (const base of opts.bases) {
    for (const op of opts.operations) {
      app.route({
        method: op.method,
        url: `${base}${op.path}`,
        config: { operation: op },
        // a snapshot read compresses its own answers, once per encoding and age (api/served.ts):
        // @fastify/compress's two hooks would only look at every one of them again
        ...(op.served ? { compress: false as const } : {}),
        handler: createOperationHandler(op, { responses: opts.responses, walletAuth: opts.walletAuth, base }),
      });
    }
  }
}
