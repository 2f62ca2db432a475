import type { AnyOperation } from '../operations.ts';
import type { RouteDeps } from './context.ts';
import { createInfraOperations } from './infra.ts';
import { createMarketOperations } from './market.ts';
import { createTokenOperations } from './token.ts';

/** Every operation of the API, in catalog order. */
export function createOperations(deps: RouteDeps): AnyOperation[] {
  const token = createTokenOperations(deps);
  const ops = [...createInfraOperations(deps), ...token.operations, ...createMarketOperations(deps, token.gradeOf)];
  const ids = new Set<string>();
  for (const op of ops) {
    if (ids.has(op.id)) throw new Error(`duplicate operationId ${op.id}`);
    ids.add(op.id);
  }
  return ops;
}
