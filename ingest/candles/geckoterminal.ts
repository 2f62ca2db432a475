/**
 * A third-party candle source speaking GeckoTerminal's public API (v2) wire format:
 *
 *   GET {base}/networks/{network}/pools/{pool}/ohlcv/{day|hour|minute}?aggregate=&before_timestamp=&limit=&currency=usd&token=
 *   200 {"data":{"id":…,"type":"ohlcv_request_response","attributes":{"ohlcv_list":[[ts,o,h,l,c,volumeUsd],…]}},
 *        "meta":{"base":{"address":…,"symbol":…},"quote":{…}}}
 *
 * newest first, timestamps in unix seconds, prices in USD of the token asked for. A 429 says to
 * slow down (Retry-After when given). Only the poller (poller.ts) calls it.
 */
import { z } from 'zod';
import type { Candle } from '../../schemas/events.ts';

/** GeckoTerminal's network ids for our chain slugs */
export const GECKOTERMINAL_NETWORKS: Record<string, string> = {
  ethereum: 'eth',
  base: 'base',
  arbitrum: 'arbitrum',
  optimism: 'optimism',
  polygon: 'polygon_pos',
  bsc: 'bsc',
  devnet: 'devnet',
};

export const OhlcvResponse = z.object({
  data: z.object({
    type: z.literal('ohlcv_request_response'),
    attributes: z.object({ ohlcv_list: z.array(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()])) }),
  }),
  meta: z.object({ base: z.object({ address: z.string() }).passthrough(), quote: z.object({ address: z.string() }).passthrough() }).partial().optional(),
});
export type OhlcvResponse = z.infer<typeof OhlcvResponse>;

export class CandleSourceError extends Error {
  override readonly name = 'CandleSourceError';
  constructor(
    message: string,
    readonly status: number,
    /** seconds to wait before the next call (a 429's Retry-After) */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export interface OhlcvRequest {
  chain: string;
  pool: string;
  token: string;
  /** hourly candles only (what price action reads) */
  beforeTs: number;
  limit: number;
}

/** one page of hourly candles of `token` in `pool`, newest first as the API sends them, as Candle events */
export async function fetchHourlyCandles(baseUrl: string, req: OhlcvRequest, fetchFn: typeof fetch = fetch): Promise<Candle[]> {
  const network = GECKOTERMINAL_NETWORKS[req.chain];
  if (!network) throw new CandleSourceError(`no GeckoTerminal network for chain ${req.chain}`, 0);
  const url = new URL(`${baseUrl.replace(/\/$/, '')}/networks/${network}/pools/${req.pool}/ohlcv/hour`);
  url.searchParams.set('aggregate', '1');
  url.searchParams.set('before_timestamp', String(req.beforeTs));
  url.searchParams.set('limit', String(Math.max(1, Math.min(1000, req.limit))));
  url.searchParams.set('currency', 'usd');
  url.searchParams.set('token', req.token);
  const res = await fetchFn(url, { headers: { accept: 'application/json;version=20230302' }, signal: AbortSignal.timeout(15_000) });
  if (!res.ok) {
    const after = Number(res.headers.get('retry-after'));
    throw new CandleSourceError(`GeckoTerminal answered ${res.status} for ${url.pathname}`, res.status, Number.isFinite(after) && after > 0 ? after : undefined);
  }
  const parsed = OhlcvResponse.safeParse(await res.json());
  if (!parsed.success) throw new CandleSourceError(`GeckoTerminal: unexpected OHLCV body (${parsed.error.issues[0]?.message ?? 'invalid'})`, res.status);
  return parsed.data.data.attributes.ohlcv_list
    .filter(([, o, h, l, c, v]) => [o, h, l, c, v].every((x) => Number.isFinite(x) && x >= 0))
    .map(([ts, o, h, l, c, v]) => ({
      type: 'candle' as const,
      chain: req.chain,
      token: req.token.toLowerCase(),
      interval: '1h' as const,
      openTime: ts,
      open: o,
      high: h,
      low: l,
      close: c,
      volumeUsd: v,
      source: 'geckoterminal',
    }));
}
