/**
 * A Store adapter for a thread that does not own the store: every call goes over the port to the
 * thread that does (infra/bridge/host.ts). It passes the store contract suite like the adapters it
 * fronts; a StoreUnavailableError there is one here.
 */
import type { Store } from '../store/types.ts';
import type { Rpc } from './rpc.ts';
import { STORE_METHODS } from './host.ts';

export function bridgedStore(rpc: Rpc, kind: Store['kind']): Store {
  const methods = Object.fromEntries(STORE_METHODS.map((m) => [m, (...args: unknown[]) => rpc.call(`store.${m}`, ...args)]));
  return {
    ...(methods as Omit<Store, 'kind' | 'close'>),
    kind,
    /** ends nothing but this thread's use: the store stays open (its owner closes it) */
    async close() {},
  };
}
