import type { Store } from '../infra/store/types.ts';
import { StoreUnavailableError } from '../infra/store/types.ts';
import { ApiError } from '../schemas/errors.ts';

/** seconds a client is asked to wait before it calls again while the store is unreachable */
export const STORE_RETRY_AFTER_S = 5;

/**
 * The store as the API's request paths use it (keys, operations, the agent relay): a call that
 * finds the store unreachable fails as the API's 503 `unavailable` with Retry-After, a clear
 * answer where it was a 500 internal error. What the replica serves needs no store and still
 * answers 200 (a key the cache knows, a snapshot); background work keeps the store itself and
 * retries.
 */
export function storeFor503(store: Store): Store {
  const unavailable = (err: unknown): never => {
    if (!(err instanceof StoreUnavailableError)) throw err;
    throw new ApiError('unavailable', 'the store is unreachable for the moment; retry shortly', { headers: { 'retry-after': String(STORE_RETRY_AFTER_S) } });
  };
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => (v as (...a: unknown[]) => Promise<unknown>).apply(target, args).catch(unavailable);
    },
  });
}
