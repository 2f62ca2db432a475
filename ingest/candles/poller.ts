/**
 * Polls the candle source for the tokens the EVM ingesters follow and publishes their hourly
 * candles to the `candles` topic (the engine's candle table; price action reads them for hours in
 * which the token's pools saw no swap). Each token is asked for what it lacks since its last
 * candle (7 days on first sight), the open hour included (a provider revises it), paced under the
 * provider's requests per minute; a 429 waits its Retry-After. Re-publishing a candle is harmless
 * (the table keeps one per hour).
 */
import type { Candle } from '../../schemas/events.ts';
import { sleep } from '../../infra/retry.ts';
import { CandleSourceError, fetchHourlyCandles } from './geckoterminal.ts';

export interface CandleTarget {
  chain: string;
  token: string;
  pool: string;
  /** the chain's time the token's events stand at (unix s): candles are asked up to it; the wall clock when absent */
  asOf?: number;
}

export interface CandlePollerOptions {
  baseUrl: string;
  /** the tokens to follow now */
  targets: () => CandleTarget[];
  publish: (candles: Candle[]) => Promise<void>;
  /** seconds between two rounds over the targets */
  intervalSec: number;
  /** requests per minute the provider allows */
  requestsPerMinute: number;
  now?: () => number;
  fetchFn?: typeof fetch;
  onError?: (target: CandleTarget, err: unknown) => void;
}

const FIRST_LOOKBACK_S = 7 * 86400;

export function createCandlePoller(opts: CandlePollerOptions) {
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  /** newest candle published per token */
  const newest = new Map<string, number>();
  const gapMs = Math.ceil(60_000 / opts.requestsPerMinute);
  let published = 0;

  /** one round: every target once; returns the candles published */
  async function round(signal?: AbortSignal): Promise<number> {
    let n = 0;
    for (const t of opts.targets()) {
      if (signal?.aborted) break;
      const key = `${t.chain}:${t.token}`;
      const ts = t.asOf ?? now();
      const since = newest.get(key) ?? ts - FIRST_LOOKBACK_S;
      try {
        const candles = await fetchHourlyCandles(opts.baseUrl, { chain: t.chain, pool: t.pool, token: t.token, beforeTs: ts, limit: Math.ceil((ts - since) / 3600) + 1 }, opts.fetchFn);
        const fresh = candles.filter((c) => c.openTime >= since);
        if (fresh.length > 0) {
          await opts.publish(fresh.sort((a, b) => a.openTime - b.openTime));
          newest.set(key, Math.max(...fresh.map((c) => c.openTime)));
          n += fresh.length;
        }
      } catch (err) {
        opts.onError?.(t, err);
        if (err instanceof CandleSourceError && err.status === 429) await sleep((err.retryAfterS ?? 60) * 1000, signal).catch(() => {});
      }
      await sleep(gapMs, signal).catch(() => {});
    }
    published += n;
    return n;
  }

  return {
    round,
    published: () => published,
    async run(signal: AbortSignal): Promise<void> {
      while (!signal.aborted) {
        await round(signal);
        await sleep(opts.intervalSec * 1000, signal).catch(() => {});
      }
    },
  };
}
export type CandlePoller = ReturnType<typeof createCandlePoller>;
