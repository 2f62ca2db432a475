import { backoffMs, doubling, sleep } from '../infra/retry.ts';

/**
 * Runs a source's pump until it ends or the signal aborts. A pump that fails (the log or the store
 * unreachable: Kafka or ClickHouse stopped) is run again after a backoff, `attempt` counting the
 * failures in a row; the pump resumes after its cursor, so nothing is lost, and what it publishes
 * again between its cursor and the failure the folds drop by event identity. Without it a source
 * stopped for good on the first outage, and a process left with nothing to do exited.
 * (The EVM chains have the same loop of their own: runtime/evm.ts.)
 */
export async function resumeOnFailure(
  pump: () => Promise<void>,
  o: { signal: AbortSignal; onFailure: (err: unknown, retryInMs: number) => void; baseMs?: number; maxMs?: number },
): Promise<void> {
  const baseMs = o.baseMs ?? 500;
  const maxMs = o.maxMs ?? 10_000;
  for (let attempt = 0; !o.signal.aborted; ) {
    const started = Date.now();
    try {
      await pump();
      return;
    } catch (err) {
      if (o.signal.aborted) return;
      // a pump that ran a while before it failed starts the backoff over
      if (Date.now() - started > maxMs) attempt = 0;
      const wait = backoffMs({ cap: doubling(baseMs, maxMs), jitter: 'half' }, attempt++);
      o.onFailure(err, wait);
      await sleep(wait, o.signal).catch(() => {});
    }
  }
}
