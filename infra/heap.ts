import { Session } from 'node:inspector/promises';

/**
 * A catch-up (the simulator's history, a chain's backfill, a worker replaying its tail) leaves the
 * heap several times larger than the state it built, and V8 collects it only once the process has
 * been idle for a while. A service that goes live under load never is, so it carried the
 * backfill's heap: every request paid for it, and the collection came anyway, later, in the middle
 * of the load.
 *
 * `createHeapSettler` is told, every few seconds, how many records were folded since the last
 * time and how many wait: a period that folded at least `catchUpRecords` is a catch-up, and once
 * a catch-up has nothing left to fold, one full collection runs. A live stream folds far fewer
 * records a period and never triggers one.
 */
export interface HeapSettler {
  /**
   * records folded since the last observation, and how to count the records waiting (asked only
   * during a catch-up); resolves true when this ran a collection
   */
  observe(folded: number, backlog: () => Promise<number>): Promise<boolean>;
}

/**
 * Every garbage collection V8 can make, compacting the old space and returning its free pages to
 * the system: what DevTools' "collect garbage" does, through the in-process inspector session (no
 * port is opened, no flag needed). `global.gc()` frees the objects but keeps the pages: after the
 * history it left 630 MB of old space mapped for 142 MB live, this 223 MB (RSS 947 → 338 MB).
 */
export async function fullCollection(): Promise<void> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
  } finally {
    session.disconnect();
  }
}

export function createHeapSettler(opts: { catchUpRecords: number; collect?: () => Promise<void> }): HeapSettler {
  const run = opts.collect ?? fullCollection;
  let catchingUp = false;
  return {
    async observe(folded, backlog) {
      if (folded >= opts.catchUpRecords) catchingUp = true;
      if (!catchingUp || (await backlog()) > 0) return false;
      catchingUp = false;
      await run();
      return true;
    },
  };
}
