import type { WalletSnapshot, TraderStyle, HoldBand, SizeBand } from '../../schemas/wallet.ts';
import type { Verdict } from '../../schemas/common.ts';
import type { TokenLookup } from '../../schemas/token.ts';
import type { WalletState } from './state.ts';
import { EDGE_HORIZON_S, HOLD_BUCKETS_S, LAUNCH_WINDOW_BLOCKS, addTokenToSums, copyTokenSums } from './state.ts';
import { returnBandOfPct } from './bands.ts';
import type { ReturnBandT } from './bands.ts';
import { FinalThresholds, finishWalletSnapshot } from './final.ts';
import { clusterTrades, takeOutCluster, washWins } from './cluster.ts';
import type { ClusterTrades } from './cluster.ts';
import type { MeasuredWallet } from './final.ts';

/**
 * From wallet state to the derived snapshot: style, edge, consistency, copyability,
 * disqualifiers, PnL quality and the grade, then the final values every operation serves
 * (final.ts). Pure; formulas in engine/wallet/README.md.
 */

/** Facts about the wallet the wallet's own swaps cannot tell, injected by the caller. */
export interface WalletContext {
  /** pool-creation block per token (merged over state.poolCreatedBlock) */
  poolCreatedBlock?: Record<string, number>;
  /** deployer per token */
  deployers?: Record<string, string>;
  /** address that first funded this wallet, when known */
  funder?: string | null;
  /** its funding chain: who funded it, who funded that one, … (nearest first); `funder` is its first */
  funders?: readonly string[];
  /** the token-facts table: final bands and flags of the tokens in the open book */
  tokens?: TokenLookup;
  /** whether a counterparty is of this wallet's cluster (cluster.ts clusterOf over the funding table) */
  inCluster?: (wallet: string) => boolean;
}

export const Thresholds = {
  minClosedRoundTrips: 10,
  minDaysActive: 7,
  minTokens: 3,
  /** first buy within this many blocks after pool creation = launch-window buy */
  launchWindowBlocks: LAUNCH_WINDOW_BLOCKS,
  sniperMinTokens: 2,
  sniperMinShare: 0.3,
  insiderCreationBlockMinTokens: 2,
  insiderCreationBlockMinShare: 0.5,
  botMinTrades: 20,
  botTradesPerBlock: 1.5,
  botTradesPerMinute: 4,
  botSameBlockRoundTrips: 3,
  botSameBlockShare: 0.2,
  botSubMinuteHoldShare: 0.6,
  botSubMinuteMinClosed: 10,
  botTinyMinTrades: 50,
  /** copier latency: round trips shorter than this cannot be mirrored */
  copierLatencyS: 300,
  /** a buy above this share of the token's liquidity cannot be copied at its price */
  copySizeShareMax: 0.02,
  /** edge score = 50 + 50 tanh(shrunk excess / edgeScale) */
  edgeScale: 0.1,
  /**
   * shrinkage of the edge toward none: the excess is weighed by n / (n + edgeShrink), n the
   * observations behind it (closed round trips, and resolved forward observations when used), so
   * a short lucky streak does not score like a long record
   */
  edgeShrink: 10,
  edgeNegative: -0.02,
  edgePositive: 0.02,
  edgeStrong: 0.1,
  minForwardSamples: 10,
  mirrorEdgeScore: 65,
  mirrorProfitFactor: 1.5,
  mirrorConsistency: 50,
  mirrorCopyability: 50,
  avoidProfitFactor: 0.5,
  /**
   * a grade before the full sample: this many round trips, all won, on minTokens tokens, over
   * earlyMinDays, won against counterparties outside its cluster (at least this share of the wins
   * attributed to them)
   */
  earlyMinRoundTrips: 5,
  earlyMinDays: 2,
  earlyOutsideShare: 0.8,
  /** avoid: at least this many wins, and this share of them, traded against its own cluster */
  washMinWins: 2,
  washWinShare: 0.5,
  /** tokens summarised in `positions`, newest first */
  positionsKept: 30,
} as const;

const r2 = (x: number): number => Math.round(x * 100) / 100;
const pct = (x: number): number => r2(x * 100);

/** index of the histogram bucket that holds the median (null: empty histogram) */
export function medianBucket(hist: readonly number[]): number | null {
  const total = hist.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i] as number;
    if (acc * 2 >= total) return i;
  }
  return hist.length - 1;
}

/** Hold bucket index (HOLD_BUCKETS_S) to band. */
function holdBand(bucket: number): HoldBand {
  return (['seconds', 'minutes', 'minutes', 'hours', 'hours', 'days', 'weeks'] as const)[bucket] ?? 'weeks';
}

/** Size bucket index (SIZE_BUCKETS_USD) to band. */
function sizeBand(bucket: number): SizeBand {
  return (['micro', 'micro', 'small', 'medium', 'large', 'whale'] as const)[bucket] ?? 'whale';
}

/** A return as a fraction to its band. */
function returnBand(r: number): ReturnBandT {
  return returnBandOfPct(r * 100);
}

function qualityBand(score: number): 'low' | 'moderate' | 'high' {
  return score < 40 ? 'low' : score < 65 ? 'moderate' : 'high';
}

/**
 * Skill found before the full sample: every round trip won, on enough tokens and days, against
 * counterparties outside its cluster (a streak against its own wallets proves nothing).
 */
function skilledEarly(
  m: { closed: number; wins: number; losses: number; tokens: number; profitableTokens: number; daysActive: number },
  c: ClusterTrades,
  T: typeof Thresholds,
): boolean {
  return (
    m.closed >= T.earlyMinRoundTrips &&
    m.losses === 0 &&
    m.wins === m.closed &&
    m.tokens >= T.minTokens &&
    m.profitableTokens >= T.minTokens &&
    m.daysActive >= T.earlyMinDays &&
    c.wins === 0 &&
    c.outsideWins >= T.earlyOutsideShare * m.wins
  );
}

/** the early grade's reason: its sample and the confidence it allows (final.ts edge confidence bands) */
function earlyReason(closed: number, tokens: number): string {
  const F = FinalThresholds;
  const confidence = closed < F.confidenceLow ? 'low' : closed < F.confidenceModerate ? 'moderate' : 'high';
  return `graded early, confidence ${confidence}: won all ${closed} round trips on ${tokens} tokens against outside counterparties`;
}

export function deriveWalletSnapshot(state: WalletState, ctx: WalletContext = {}): WalletSnapshot {
  const T = Thresholds;
  const created: Record<string, number> = { ...state.poolCreatedBlock, ...(ctx.poolCreatedBlock ?? {}) };
  // the sums of the tokens retired from a long history (state.ts, RetiredTokens), with the tokens
  // kept added by the same function that retires a token
  const sums = copyTokenSums(state.retired);
  let openCost = 0, openValue = 0, openPositions = 0;
  let deployerTraded = false;
  /** hops between the wallet and the deployer of a token it traded that funded it (0: directly), the nearest */
  let deployerHops: number | null = null;
  const chainUp = ctx.funders ?? (ctx.funder ? [ctx.funder] : []);
  const positions: MeasuredWallet['positions'] = [];

  for (const [token, t] of Object.entries(state.tokens)) {
    const b = t.book;
    if (b.buys + b.sells === 0) continue;
    addTokenToSums(sums, t, created[token]);
    const isOpen = b.qty > 0 && b.costUsd > 0;
    const mark = isOpen ? (t.edge.lastObsPrice > 0 ? t.edge.lastObsPrice : b.costUsd / b.qty) : 0;
    if (isOpen) {
      openPositions++;
      openCost += b.costUsd;
      openValue += b.qty * mark;
    }
    const cbPos = created[token];
    positions.push({
      token,
      status: isOpen ? 'open' : 'closed',
      firstTradeTs: b.firstTs,
      lastTradeTs: b.lastTs,
      buys: b.buys,
      sells: b.sells,
      roundTrips: b.closed,
      wins: b.wins,
      losses: b.losses,
      realisedReturnPct: b.costSoldUsd > 0 ? pct(b.realisedUsd / b.costSoldUsd) : null,
      unrealisedReturnPct: isOpen ? pct((b.qty * mark) / b.costUsd - 1) : null,
      avgHoldSeconds: b.closed > 0 ? Math.round(b.rtHoldSum / b.closed) : null,
      sizeBand: sizeBand(medianBucket(b.sizeHist) ?? 0),
      avgBuyUsd: b.buys > 0 ? r2(b.buyUsd / b.buys) : 0,
      openCostUsd: isOpen ? r2(b.costUsd) : 0,
      launchWindowBuy: cbPos !== undefined && b.firstBuyBlock >= 0 && b.firstBuyBlock - cbPos <= T.launchWindowBlocks,
    });
    const dep = ctx.deployers?.[token];
    if (dep !== undefined) {
      if (dep === state.wallet) deployerTraded = true;
      const hops = chainUp.indexOf(dep);
      if (hops >= 0 && (deployerHops === null || hops < deployerHops)) deployerHops = hops;
    }
  }
  // round trips traded against its own cluster are no edge: out of the sums graded (cluster.ts)
  const cluster = clusterTrades(state, ctx.inCluster);
  const wash = washWins(cluster, sums.wins, T);
  takeOutCluster(sums, cluster);
  const { tokens, buys, sells, closed, wins, losses, winPctSum, lossPctSum, distinctBlocks, distinctMinutes, holdHist, sizeHist, pnlByWeek } = sums;
  const { firstTs, lastTs, fwdN, profitableTokens, creationBlockBuys, launchWindowBuys, tokensWithCreation } = sums;
  const { grossWinUsd: grossWin, grossLossUsd: grossLoss, bestPnlUsd: best, sameBlockRoundTrips: sameBlockRt, realisedUsd: realised, costSoldUsd: costSold } = sums;
  const { fwdExcessSum: fwdSum, rtExcessSum: rtSum, profitUsd: tokenProfitPos, bestTokenProfitUsd: tokenProfitMax } = sums;

  const trades = buys + sells;
  const daysActive = trades > 0 ? Math.max(0, (lastTs - firstTs) / 86400) : 0;
  const tradesPerBlock = distinctBlocks > 0 ? trades / distinctBlocks : 0;
  const tradesPerMinute = distinctMinutes > 0 ? trades / distinctMinutes : 0;
  const medHold = medianBucket(holdHist);
  const medSize = medianBucket(sizeHist);
  const copierBucket = HOLD_BUCKETS_S.indexOf(T.copierLatencyS as (typeof HOLD_BUCKETS_S)[number]) + 1;
  const copyableClosed = holdHist.slice(copierBucket).reduce((a, b) => a + b, 0);
  const subMinute = holdHist[0] ?? 0;

  // Disqualifiers.
  const dqReasons: string[] = [];
  let bot = false;
  if (trades >= T.botMinTrades && tradesPerBlock >= T.botTradesPerBlock) {
    bot = true;
    dqReasons.push(`bot: ${r2(tradesPerBlock)} trades per block`);
  }
  if (trades >= T.botMinTrades && tradesPerMinute >= T.botTradesPerMinute) {
    bot = true;
    dqReasons.push(`bot: ${r2(tradesPerMinute)} trades per active minute`);
  }
  if (sameBlockRt >= T.botSameBlockRoundTrips && sameBlockRt >= T.botSameBlockShare * closed) {
    bot = true;
    dqReasons.push(`bot: ${sameBlockRt} same-block round trips`);
  }
  if (closed >= T.botSubMinuteMinClosed && subMinute >= T.botSubMinuteHoldShare * closed) {
    bot = true;
    dqReasons.push(`bot: ${pct(subMinute / closed)}% of round trips held under a minute`);
  }
  if (trades >= T.botTinyMinTrades && medSize === 0) {
    bot = true;
    dqReasons.push('bot: many trades of tiny size');
  }
  let insider = false;
  if (deployerHops !== null) {
    insider = true;
    const through = deployerHops === 0 ? '' : ` through ${deployerHops} wallet${deployerHops > 1 ? 's' : ''} it funded`;
    dqReasons.push(`insider: funded by the deployer of a traded token${through}`);
  }
  if (deployerTraded) {
    insider = true;
    dqReasons.push('insider: trades a token it deployed');
  }
  if (
    creationBlockBuys >= T.insiderCreationBlockMinTokens &&
    creationBlockBuys >= T.insiderCreationBlockMinShare * tokensWithCreation
  ) {
    insider = true;
    dqReasons.push(`insider: bought ${creationBlockBuys} tokens in their pool-creation block`);
  }
  let sniper = false;
  if (launchWindowBuys >= T.sniperMinTokens && launchWindowBuys >= T.sniperMinShare * tokens) {
    sniper = true;
    dqReasons.push(`sniper: first buy within ${T.launchWindowBlocks} blocks of launch on ${launchWindowBuys} tokens`);
  }

  // Style.
  let style: TraderStyle;
  if (bot) style = 'bot';
  else if (sniper) style = 'sniper';
  else {
    let bucket = medHold;
    if (bucket === null) {
      const ages = Object.values(state.tokens)
        .filter((t) => t.book.qty > 0)
        .map((t) => Math.max(0, state.asOfTs - t.book.openTs))
        .sort((a, b) => a - b);
      const mid = ages[Math.floor(ages.length / 2)];
      bucket = mid === undefined ? 3 : HOLD_BUCKETS_S.findIndex((x) => mid < x);
      if (bucket < 0) bucket = HOLD_BUCKETS_S.length;
    }
    style = bucket <= 2 ? 'scalper' : bucket <= 5 ? 'swing' : 'holder';
  }

  // Edge.
  const fwd = fwdN >= T.minForwardSamples ? fwdSum / fwdN : null;
  const rt = closed > 0 ? rtSum / closed : null;
  const rawExcess = fwd !== null && rt !== null ? (fwd + rt) / 2 : (fwd ?? rt);
  const observations = (fwd !== null ? fwdN : 0) + closed;
  const excess = rawExcess === null ? null : (rawExcess * observations) / (observations + T.edgeShrink);
  const edgeScore = excess === null ? 50 : Math.round(50 + 50 * Math.tanh(excess / T.edgeScale));
  const edgeBand =
    excess === null || (excess > T.edgeNegative && excess < T.edgePositive)
      ? 'none'
      : excess <= T.edgeNegative
        ? 'negative'
        : excess < T.edgeStrong
          ? 'positive'
          : 'strong';
  const toPct = (x: number | null): number | null => (x === null ? null : pct(Math.expm1(x)));

  // Consistency.
  const weeks = Object.values(pnlByWeek);
  // graded on the weeks before, checked on the latest: an edge that lost in its latest active week has not held
  const weekKeys = Object.keys(pnlByWeek).map(Number).sort((a, b) => a - b);
  const latestWeekPnl = weekKeys.length >= 2 ? (pnlByWeek[weekKeys[weekKeys.length - 1] as number] ?? 0) : null;
  const weeksActive = weeks.length;
  const profitableWeeks = weeks.filter((p) => p > 0).length;
  const bestShare = grossWin > 0 ? best / grossWin : null;
  const topTokenShare = tokenProfitPos > 0 ? tokenProfitMax / tokenProfitPos : null;
  const weekShare = weeksActive > 0 ? profitableWeeks / weeksActive : null;
  const consistency =
    bestShare === null || topTokenShare === null
      ? 0
      : Math.round(100 * (0.4 * (1 - bestShare) + 0.3 * (1 - topTokenShare) + 0.3 * (weekShare ?? 0)));

  // Copyability.
  const copyShare = closed > 0 ? copyableClosed / closed : null;
  const launchShare = tokens > 0 ? launchWindowBuys / tokens : 0;
  // size against liquidity: a buy that took over 2 % of the pool cannot be copied at its price
  const sized = Object.values(state.tokens).filter((t) => t.sizeShareMax !== undefined);
  const oversized = sized.filter((t) => (t.sizeShareMax as number) > T.copySizeShareMax).length;
  const oversizedShare = sized.length > 0 ? oversized / sized.length : null;
  const copyability =
    copyShare === null ? 0 : Math.round(100 * copyShare * (1 - 0.7 * launchShare) * (1 - 0.7 * (oversizedShare ?? 0)) * (bot ? 0 : 1));

  // PnL quality.
  const winRate = closed > 0 ? wins / closed : null;
  const profitFactor = grossLoss > 0 ? grossWin / grossLoss : null;
  const pfBand =
    closed === 0
      ? null
      : profitFactor === null
        ? wins > 0
          ? 'strong'
          : 'breakeven'
        : profitFactor < 0.9
          ? 'losing'
          : profitFactor < 1.2
            ? 'breakeven'
            : profitFactor < 2
              ? 'profitable'
              : 'strong';
  const realisedReturn = costSold > 0 ? realised / costSold : null;
  const unrealisedReturn = openCost > 0 ? openValue / openCost - 1 : null;

  // Sample and grade.
  const fullSample = closed >= T.minClosedRoundTrips && daysActive >= T.minDaysActive && tokens >= T.minTokens;
  const early = !fullSample && skilledEarly({ closed, wins, losses, tokens, profitableTokens, daysActive }, cluster, T);
  const sampleMet = fullSample || early;
  const pfHigh = profitFactor === null ? wins > 0 : profitFactor >= T.mirrorProfitFactor;
  const reasons: string[] = [];
  let grade: Verdict;
  if (bot || insider || sniper) {
    grade = 'avoid';
    reasons.push(...dqReasons);
  } else if (wash !== null) {
    grade = 'avoid';
    reasons.push(wash);
  } else if (!sampleMet) {
    grade = 'unrated';
    if (closed < T.minClosedRoundTrips) reasons.push(`${closed} closed round trips (need ${T.minClosedRoundTrips})`);
    if (daysActive < T.minDaysActive) reasons.push(`${r2(daysActive)} days of history (need ${T.minDaysActive})`);
    if (tokens < T.minTokens) reasons.push(`${tokens} tokens traded (need ${T.minTokens})`);
  } else if (edgeBand === 'negative') {
    grade = 'avoid';
    reasons.push(`negative edge: ${toPct(excess)}% per trade versus the tokens' drift`);
  } else if (profitFactor !== null && profitFactor < T.avoidProfitFactor) {
    grade = 'avoid';
    reasons.push(`profit factor ${r2(profitFactor)}: losses far outweigh wins`);
  } else {
    const missing: string[] = [];
    if (edgeScore < T.mirrorEdgeScore) missing.push(`edge score ${edgeScore} below ${T.mirrorEdgeScore}`);
    if (!pfHigh) missing.push(`profit factor ${profitFactor === null ? 'n/a' : r2(profitFactor)} below ${T.mirrorProfitFactor}`);
    if (consistency < T.mirrorConsistency) missing.push(`consistency ${consistency} below ${T.mirrorConsistency}`);
    if (copyability < T.mirrorCopyability) {
      missing.push(
        `copyability ${copyability} below ${T.mirrorCopyability}${oversized > 0 ? ` (buys over ${pct(T.copySizeShareMax)}% of the pool's liquidity in ${oversized} of ${sized.length} tokens)` : ''}`,
      );
    }
    if (latestWeekPnl !== null && latestWeekPnl < 0) missing.push('the latest active week lost: the edge did not hold out of sample');
    if (missing.length === 0) {
      grade = 'mirror-worthy';
      reasons.push(`edge ${toPct(excess)}% per trade versus the tokens' drift`);
      reasons.push(`profit factor ${profitFactor === null ? 'without losses' : r2(profitFactor)} over ${closed} round trips`);
      reasons.push(`profits spread: best trade ${bestShare === null ? 0 : pct(bestShare)}% of gains`);
      reasons.push(`median hold ${medHold === null ? 'n/a' : holdBand(medHold)}, copyable`);
    } else {
      grade = 'watch';
      reasons.push(...missing);
    }
  }
  if (early && grade !== 'avoid') reasons.unshift(earlyReason(closed, tokens));

  return finishWalletSnapshot({
    chain: state.chain,
    wallet: state.wallet,
    asOf: new Date(state.asOfTs * 1000).toISOString(),
    version: state.version,
    grade,
    reasons,
    style,
    sample: { closedRoundTrips: closed, daysActive: r2(daysActive), distinctTokens: tokens, openPositions, trades, met: sampleMet },
    edge: {
      score: edgeScore,
      band: edgeBand,
      excessReturnPct: toPct(excess),
      forwardExcessPct: toPct(fwd),
      roundTripExcessPct: toPct(rt),
      forwardSamples: fwdN,
      roundTripSamples: closed,
      horizonMinutes: Math.round(EDGE_HORIZON_S / 60),
    },
    consistency: {
      score: Math.max(0, Math.min(100, consistency)),
      band: qualityBand(consistency),
      bestTradeSharePct: bestShare === null ? null : pct(bestShare),
      topTokenSharePct: topTokenShare === null ? null : pct(topTokenShare),
      profitableWeeksPct: weekShare === null ? null : pct(weekShare),
      weeksActive,
      profitableTokens,
    },
    copyability: {
      score: Math.max(0, Math.min(100, copyability)),
      band: qualityBand(copyability),
      medianHold: medHold === null ? null : holdBand(medHold),
      copyableHoldPct: copyShare === null ? null : pct(copyShare),
      oversizedTokensPct: oversizedShare === null ? null : pct(oversizedShare),
      medianSize: medSize === null ? null : sizeBand(medSize),
    },
    disqualifiers: { bot, insider, sniper, reasons: dqReasons },
    activity: {
      buys,
      sells,
      tradesPerBlock: r2(tradesPerBlock),
      tradesPerMinute: r2(tradesPerMinute),
      sameBlockRoundTrips: sameBlockRt,
      creationBlockBuys,
      launchWindowBuys,
    },
    pnlQuality: {
      winRatePct: winRate === null ? null : pct(winRate),
      profitFactor: profitFactor === null ? null : r2(profitFactor),
      profitFactorBand: pfBand,
      realisedReturnPct: realisedReturn === null ? null : pct(realisedReturn),
      realisedBand: realisedReturn === null ? null : returnBand(realisedReturn),
      unrealisedReturnPct: unrealisedReturn === null ? null : pct(unrealisedReturn),
      unrealisedBand: unrealisedReturn === null ? null : returnBand(unrealisedReturn),
      avgWinPct: wins > 0 ? pct(winPctSum / wins) : null,
      avgLossPct: losses > 0 ? pct(lossPctSum / losses) : null,
    },
    positions: positions
      .sort((a, b) => b.lastTradeTs - a.lastTradeTs || (a.token < b.token ? -1 : 1))
      .slice(0, T.positionsKept),
    basis: { realisedUsd: r2(realised), costSoldUsd: r2(costSold), closed, wins, losses },
  }, ctx.tokens);
}
