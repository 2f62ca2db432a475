import { eventPosition } from '../schemas/events.ts';
import type { Swap, TokenEvent } from '../schemas/events.ts';
import { AGAINST_KEPT } from './wallet/against.ts';
import type { Against } from './wallet/against.ts';
import type { FundingRecord, WalletMessage } from '../schemas/topics.ts';
import { ZERO_ADDRESS } from './token/state.ts';
import type { TokenState } from './token/state.ts';
import { EDGE_HORIZON_S, foldPoolCreated, foldPriceMarkInPlace, foldWalletSwapInPlace } from './wallet/state.ts';
import type { WalletState } from './wallet/state.ts';

/**
 * What the token worker re-keys for the wallet worker, and how the wallet worker folds it: pure,
 * so the runtime, the benchmark and the tests run the one definition.
 */

/**
 * The wallet messages of a token event: a swap re-keyed by trader (with its pool's creation
 * block) and, once per token-hour, a price mark for every wallet that traded the token within the
 * edge horizon, so wallets can measure forward returns after their trades. The hour of the last
 * mark lives in the token's state (`lastMarkHour`, updated here), so a replay sends the same marks.
 */
export function walletMessagesOf(s: TokenState, e: TokenEvent): WalletMessage[] {
  if (e.type !== 'swap') return [];
  const against = e.removed ? undefined : againstOf(s, e);
  const out: WalletMessage[] = [{ kind: 'swap', swap: e, poolBlock: s.meta.createdBlock, liquidityUsd: s.liquidity.usd, ...(against ? { against } : {}) }];
  const hour = Math.floor(e.timestamp / 3600);
  if (!e.removed && s.lastMarkHour < hour) {
    s.lastMarkHour = hour;
    const since = e.timestamp - EDGE_HORIZON_S - 3600;
    for (const [wallet, t] of Object.entries(s.traders)) {
      if (wallet === e.trader || t.lastMinute * 60 < since) continue;
      out.push({ kind: 'mark', wallet, chain: e.chain, mark: { token: e.token, timestamp: e.timestamp, priceUsd: e.priceUsd } });
    }
  }
  return out;
}

/**
 * The token's buyers since the trader's previous trade of it (its latest buy before this one, or
 * its sell before this one), the largest AGAINST_KEPT by the USD of their latest buy: who was on
 * the other side while it held (engine/wallet/against.ts). `s` has folded the swap.
 */
export function againstOf(s: TokenState, e: Swap): Against | undefined {
  const tr = s.traders[e.trader];
  if (!tr) return undefined;
  const prev = e.side === 'buy' ? Math.max(tr.prevBuy?.ts ?? -1, tr.lastSellTs) : Math.max(tr.lastBuy?.ts ?? -1, tr.prevSellTs);
  const found: [string, number][] = [];
  for (const b of s.recentBuyers) {
    if (b.ts <= prev) break;
    if (b.wallet !== e.trader && b.ts <= e.timestamp) found.push([b.wallet, b.usd]);
  }
  if (found.length === 0) return undefined;
  found.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return Object.fromEntries(found.slice(0, AGAINST_KEPT));
}

/**
 * A wallet's first funding, when `e` is a quote asset's first transfer to it (a token without a
 * pool, or a transfer an EVM ingester marked `funding`: WETH has pools against stablecoins); mints
 * and self-transfers are not funding. The asset's state remembers whom it funded
 * (`funded`, updated here), so only the first transfer to a wallet is a record.
 */
export function firstFundingOf(s: TokenState, e: TokenEvent): FundingRecord | undefined {
  if (e.type !== 'transfer' || (s.meta.pool !== null && e.funding !== true) || e.removed || e.from === ZERO_ADDRESS || e.to === ZERO_ADDRESS || e.from === e.to) return undefined;
  const funded = (s.funded ??= {});
  if (funded[e.to] !== undefined) return undefined;
  funded[e.to] = 1;
  return { chain: e.chain, wallet: e.to, asset: e.token, funder: e.from, position: eventPosition(e) };
}

/** The wallet worker's fold of a message: a price mark, or a swap with its pool's creation block. */
export function foldWalletMessage(s: WalletState, m: WalletMessage): WalletState {
  if (m.kind === 'mark') return foldPriceMarkInPlace(s, m.mark);
  const withPool = m.poolBlock === null ? s : foldPoolCreated(s, { token: m.swap.token, block: m.poolBlock });
  const { duplicates, stale } = withPool.counters;
  const out = foldWalletSwapInPlace(withPool, m.against ? { ...m.swap, against: m.against } : m.swap);
  // a swap delivered again (the ingest publishes again after a failure) was re-keyed from a later
  // state of its token: only its first delivery says how large the buy was against the pool
  const again = out.counters.duplicates !== duplicates || out.counters.stale !== stale;
  const tok = out.tokens[m.swap.token];
  if (tok && !again && m.swap.side === 'buy' && !m.swap.removed && m.liquidityUsd && m.liquidityUsd > 0 && m.swap.trader === out.wallet) {
    tok.sizeShareMax = Math.max(tok.sizeShareMax ?? 0, m.swap.usd / m.liquidityUsd);
  }
  return out;
}
