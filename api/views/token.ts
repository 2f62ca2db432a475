import type {
  ExitRiskResponse,
  PriceActionBody,
  Resolution,
  TokenChangesResponse,
  TokenHoldersInsightResponse,
  TokenInflectionResponse,
  TokenIntelResponse,
  TokenNarrativeResponse,
  TokenPriceActionResponse,
  TokenRiskResponse,
  TokenSignalResponse,
  TokenSnapshot,
  TokenSparkResponse,
  TokenValuationResponse,
} from '../../schemas/token.ts';
import { PRICE_ACTION_HOURS, PRICE_ACTION_WINDOWS, SPARK_HOURS, STANDARD_SIZE_USD, priceActionKey } from '../../schemas/token.ts';

/**
 * Token operations as projections of the snapshot the engine wrote: they select and rename
 * fields and decide nothing. Parameters select among what the engine computed (the exit ladder
 * for a size, the price-action window for hours and resolution, a suffix of the spark). `now` is
 * the request time in unix seconds, only for `ageSeconds`.
 */

export function fresh(s: TokenSnapshot, now: number) {
  return { chain: s.chain, token: s.token, symbol: s.symbol, asOf: s.asOf, ageSeconds: Math.max(0, Math.round(now - s.asOfTs)) };
}

/** The exit-ladder rung for a caller's size: the first at or above it (the largest for sizes past the ladder). */
export function exitRungFor(s: TokenSnapshot, sizeUsd: number | undefined) {
  const size = sizeUsd ?? STANDARD_SIZE_USD;
  const rung = s.exit.ladder.find((r) => r.sizeUsd >= size) ?? s.exit.ladder[s.exit.ladder.length - 1];
  if (!rung) throw new Error(`snapshot of ${s.token} has no exit ladder`);
  return { size, rung };
}

export function tokenIntelView(s: TokenSnapshot, params: { sizeUsd?: number }, now: number): TokenIntelResponse {
  const { size, rung } = exitRungFor(s, params.sizeUsd);
  return {
    ...fresh(s, now),
    verdict: s.verdict,
    risk: { band: s.risk.band, score: s.risk.score, flags: s.risk.flags, contract: s.risk.contract ?? null },
    momentum: {
      band: s.momentum.band,
      score: s.momentum.score,
      priceChange1hPct: s.momentum.priceChange1hPct,
      priceChange24hPct: s.momentum.priceChange24hPct,
      volumeTrend: s.momentum.volumeTrend,
    },
    entry: {
      sizeUsd: size,
      ratedAtUsd: rung.sizeUsd,
      exitRisk: rung.band,
      priceImpactPct: rung.priceImpactPct,
      liquidity: s.risk.signals.liquidityBand,
      inflection: s.inflection.state,
      stance: s.valuation.stance,
    },
    activity: { m5: s.activity.m5, h1: s.activity.h1, h24: s.activity.h24, holders: s.holders.count, holderTrend: s.holders.trend },
  };
}

export function tokenSignalView(s: TokenSnapshot, now: number): TokenSignalResponse {
  return {
    ...fresh(s, now),
    signal: s.signal.value,
    conviction: s.signal.conviction,
    pillars: s.pillars,
    pillarsLit: s.pillarsLit,
    rationale: s.texts.rationale,
  };
}

export function tokenRiskView(s: TokenSnapshot, now: number): TokenRiskResponse {
  const r = s.risk.signals;
  return {
    ...fresh(s, now),
    risk: s.risk.band,
    score: s.risk.score,
    signals: {
      liquidity: r.liquidityBand,
      liquidityChange1hPct: r.liquidityChange1hPct,
      largestLiquidityDropPct: r.largestLiquidityDropPct,
      deployerLiquiditySharePct: r.deployerLiquiditySharePct,
      top10SharePct: r.top10SharePct,
      largestSharePct: r.largestSharePct,
      sellTaxPct: r.sellTaxPct,
      buyers: r.buyers,
      nonInsiderSellers: r.nonInsiderSellers,
      insiders: r.insiders,
    },
    flags: s.risk.flags,
    contract: s.risk.contract ?? null,
  };
}

export function tokenHoldersInsightView(s: TokenSnapshot, now: number): TokenHoldersInsightResponse {
  return {
    ...fresh(s, now),
    verdict: s.holders.verdict,
    trend: { direction: s.holders.trend, holders: s.holders.count, growth24hPct: s.holders.growth24hPct, newBuyersPct: s.activity.newBuyersPct },
    organic: {
      band: s.organic.band,
      volumeSharePct: s.organic.volumeSharePct,
      buyerSharePct: s.organic.buyerSharePct,
      botWallets: s.organic.botWallets,
      insiderWallets: s.organic.insiderWallets,
    },
    whaleShape: {
      shape: s.holders.whaleShape,
      top10SharePct: s.holders.top10SharePct,
      largestSharePct: s.holders.largestSharePct,
      concentration: s.holders.concentrationBand,
    },
    // the launch's snipers and bundles (null on a snapshot written before they were kept)
    launch: s.holders.launch ?? null,
  };
}

export function tokenNarrativeView(s: TokenSnapshot, now: number): TokenNarrativeResponse {
  return { ...fresh(s, now), stance: s.valuation.stance, thesis: s.texts.thesis };
}

export function tokenInflectionView(s: TokenSnapshot, now: number): TokenInflectionResponse {
  return {
    ...fresh(s, now),
    state: s.inflection.state,
    earlyScore: s.inflection.earlyScore,
    signals: { rangePercentile: s.inflection.rangePercentile, volumeRatio: s.inflection.volumeRatio },
  };
}

export function tokenValuationView(s: TokenSnapshot, now: number): TokenValuationResponse {
  return {
    ...fresh(s, now),
    stance: s.valuation.stance,
    signals: {
      turnover: s.valuation.turnoverBand,
      turnoverPct: s.valuation.turnoverPct,
      holderGrowthVsPricePct: s.valuation.holderGrowthVsPricePct,
      distanceFromHighPct: s.valuation.distanceFromHighPct,
      priceChange24hPct: s.momentum.priceChange24hPct,
    },
  };
}

export function exitRiskView(s: TokenSnapshot, params: { sizeUsd?: number }, now: number): ExitRiskResponse {
  const { size, rung } = exitRungFor(s, params.sizeUsd);
  return {
    ...fresh(s, now),
    exitRisk: rung.band,
    direction: s.exit.direction,
    signals: {
      sizeUsd: size,
      ratedAtUsd: rung.sizeUsd,
      priceImpactPct: rung.priceImpactPct,
      liquidity: s.risk.signals.liquidityBand,
      sellPressurePct: s.exit.sellPressurePct,
      whaleSupplyPct: s.exit.whaleSupplyPct,
      score: rung.score,
      blocked: s.exit.blocked,
    },
  };
}

export function tokenChangesView(s: TokenSnapshot, now: number): TokenChangesResponse {
  return {
    ...fresh(s, now),
    since: s.changes.since,
    changes: s.changes.items,
    current: { verdict: s.verdict, signal: s.signal.value, risk: s.risk.band, momentum: s.momentum.band, inflection: s.inflection.state },
    headline: s.changes.headline,
  };
}

/** The analysed window for a request: the first the engine computed at or above the hours asked for. */
export function priceActionWindow(resolution: Resolution, hours: number | undefined): number {
  const windows = PRICE_ACTION_WINDOWS[resolution];
  const want = hours ?? PRICE_ACTION_HOURS.default;
  return windows.find((w) => w >= want) ?? (windows[windows.length - 1] as number);
}

export function tokenPriceActionView(s: TokenSnapshot, params: { hours?: number; resolution?: Resolution }, now: number): TokenPriceActionResponse {
  const resolution = params.resolution ?? '1h';
  const window = priceActionWindow(resolution, params.hours);
  const body: PriceActionBody | undefined = s.priceAction[priceActionKey(resolution, window)];
  if (!body) throw new Error(`snapshot of ${s.token} has no price action for ${resolution}:${window}`);
  return { ...fresh(s, now), ...body, requestedHours: params.hours ?? PRICE_ACTION_HOURS.default };
}

/** The last `hours` points of the engine's 72-hour spark, rebased to their own first point. */
export function tokenSparkView(s: TokenSnapshot, params: { hours?: number }, now: number): TokenSparkResponse {
  // whole hours: the body may say 71.5 (SPEC: a number), the answer's hours is the integer covered
  const hours = Math.floor(params.hours ?? SPARK_HOURS.default);
  const tail = s.spark.slice(-hours);
  const base = tail[0];
  // a close of zero (a price gone to nothing) cannot be a base
  const series = base === undefined || base <= -100 ? [] : tail.map((p, i) => (i === 0 ? 0 : Math.round(10_000 * ((100 + p) / (100 + base) - 1)) / 100));
  return {
    ...fresh(s, now),
    available: series.length >= 2,
    hours,
    points: series.length,
    changePct: series.length >= 2 ? (series[series.length - 1] as number) : null,
    series,
  };
}

/**
 * smart-money-flow: the engine's smart-money reading (buyers inside its window graded
 * mirror-worthy) and the token's one verdict; `sample` selects how many of the most recent
 * buyers' grades are reported, and changes nothing else.
 */
export function smartMoneyFlowView(s: TokenSnapshot, sample: number, now: number) {
  const recent = s.smartMoney.recent.slice(0, sample);
  return {
    ...fresh(s, now),
    smartMoneyBuying: s.smartMoney.buying,
    mirrorWorthyBuyers: s.smartMoney.mirrorWorthyBuyers,
    windowHours: s.smartMoney.windowHours,
    buyersInWindow: s.smartMoney.buyers,
    verdict: s.verdict,
    sample: {
      requested: sample,
      buyers: recent.length,
      graded: recent.filter((b) => b.grade !== null && b.grade !== 'unrated').length,
      mirrorWorthy: recent.filter((b) => b.grade === 'mirror-worthy').length,
    },
  };
}
