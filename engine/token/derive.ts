import type { ContractFacts } from '../../schemas/events.ts';
import type {
  ActivityWindow,
  Bar,
  DepthBand,
  LevelBand,
  MomentumBand,
  Pillars,
  RiskBand,
  RiskFlag,
  TokenSignalValue,
  TokenSnapshot,
  Trend,
  ValuationStance,
  Verdict,
  VolumeBand,
  WhaleShape,
} from '../../schemas/token.ts';
import { EXIT_LADDER_USD, SMART_MONEY_WINDOW_HOURS, STANDARD_SIZE_USD, isSmartWindow, smartSizeBand } from '../../schemas/token.ts';
import type { Bucket, TokenState, TraderRec } from './state.ts';
import { BOT_TRADES_PER_MINUTE, contractWithHolders, isBotTrader, txTax } from './state.ts';
import { CONTRACT_THRESHOLDS, contractFlag, contractSummary, lpRugFlag, simulatedHoneypot } from './contract.ts';
import type { SnapshotDigest } from './changes.ts';
import type { CandleBar } from '../tables.ts';
import { changesBetween, digestOf, priorDigest } from './changes.ts';
import { barSpan, priceActionGrid, sparkSeries } from './priceaction.ts';
import { changeFacts, tokenTexts } from './texts.ts';
import { deployerSide, dropShare, poolRugFlag } from './rug.ts';
import { earlyWallets, launchBuyers } from './launch.ts';
import { holdingsView } from './holdings.ts';
import { writeTemplate } from '../writer/index.ts';

/**
 * From token state to its snapshot. Pure; called once per flush per token, so it may scan the
 * holders and traders. Formulas and thresholds are documented in engine/token/README.md.
 */

export interface DeriveOptions {
  /** wallets known from elsewhere to be insiders (e.g. first funded by the deployer with WETH) */
  insiders?: readonly string[];
  /** a wallet's grade (the wallet-grades table), for the smartMoney pillar; without it no buyer is graded */
  gradeOf?: (wallet: string) => Verdict | undefined;
  /** digests of the snapshots written before this one, oldest first (token-changes) */
  written?: readonly SnapshotDigest[];
  /** a third-party provider's hourly candles of the token (the candle table), for hours without a swap */
  candles?: readonly CandleBar[];
}

export const THRESHOLDS = {
  liquidityThinUsd: 20_000,
  liquidityDeepUsd: 200_000,
  honeypotMinBuyers: 10,
  honeypotMinSpanSec: 30 * 60,
  honeypotSellRatio: 0.03,
  hiddenTaxRed: 0.25,
  concentrationTop10: 0.5,
  concentrationLargest: 0.2,
  botTradesPerMinute: BOT_TRADES_PER_MINUTE,
  smartBuyersLit: 2,
  /** a coil: the last `coilWindowBars` hourly bars span at most this share of their mean close */
  coilMaxWidth: 0.1,
  /** hourly bars in the coil window, and in the window before it whose range it is compared with */
  coilWindowBars: 12,
  coilPriorBars: 36,
  /** the coil window's range versus the range of the bars before it: at most this share */
  coilContraction: 0.5,
  /** a coil goes sideways: 24 h price change within ± this many percent */
  coilMaxMove24hPct: 15,
  /** buying holds up over 24 h: distinct buyers versus distinct sellers, and buy share of volume (%) */
  coilBuyersPerSeller: 0.8,
  coilMinBuyShare: 45,
  /** quiet accumulation: holders grow by at least this much in 24 h (%) ... */
  accumHolderGrowthPct: 20,
  /** ... and faster than price by this many points, while price rises but stays below the cap */
  accumHolderOverPricePct: 20,
  accumMaxRise24hPct: 35,
  accumBuyersPerSeller: 0.8,
  /** not extended: BUY never fires after a 24 h rise above this (%) */
  extendedRise24hPct: 35,
  breakoutVolumeRatio: 2,
  breakoutMargin: 0.02,
  enoughSwaps: 20,
  enoughBuyers: 5,
  enoughHours: 1,
} as const;

const H = 3600;

export function deriveTokenSnapshot(state: TokenState, opts: DeriveOptions = {}): TokenSnapshot {
  const now = state.lastTs;
  const price = state.price;

  // --- bars and price changes
  // hours without a swap take the provider's candle when there is one (sparse pools), else the previous close
  const hourly = filledBars(state.hours, H, 168, now, opts.candles);
  const fiveMinute = filledBars(aggregate(state.minutes, 300), 300, 72, now);
  const ch5m = pctChange(priceBefore(state.minutes, 60, now - 300), price);
  const ch1h = pctChange(priceBefore(state.minutes, 60, now - H) ?? priceBefore(state.hours, H, now - H), price);
  const ch24h = pctChange(priceBefore(state.hours, H, now - 24 * H) ?? firstOpen(state.hours), price);

  // --- activity windows
  const m5 = windowAgg(state.minutes, now - 300 + 1, now);
  const h1 = windowAgg(state.minutes, now - H + 1, now);
  const h24 = windowAgg(state.hours, hourStart(now) - 23 * H, now);
  countDistinct(state.traders, [m5, h1, h24]);
  const prior = state.hours.filter((b) => b.t < hourStart(now - H) && b.t >= hourStart(now) - 25 * H);
  const avgHourlyVol = prior.length > 0 ? prior.reduce((s, b) => s + b.vol, 0) / prior.length : null;
  const volumeRatio = avgHourlyVol && avgHourlyVol > 0 ? h1.vol / avgHourlyVol : null;
  const volumeTrend: Trend = volumeRatio === null ? 'flat' : volumeRatio >= 1.3 ? 'growing' : volumeRatio <= 0.7 ? 'shrinking' : 'flat';

  // --- insiders, traders, organic share
  const deployer = state.meta.deployer;
  const insiderSet = new Set<string>([...Object.keys(state.insiders), ...(opts.insiders ?? [])]);
  if (deployer) insiderSet.add(deployer);
  // the sums of the trader records retired on a busy token (state.ts, RetiredTraders), then the records
  const R = state.retired;
  let buyers = R.buyers;
  let nonInsiderBuyers = R.nonInsiderBuyers;
  let nonInsiderSellers = R.nonInsiderSellers;
  let organicBuyers = R.organicBuyers;
  let totalVol = R.vol;
  let organicVol = R.organicVol;
  let bots = R.bots;
  let firstBuy: number | null = R.firstBuyTs;
  for (const [w, t] of Object.entries(state.traders)) {
    const insider = insiderSet.has(w);
    const bot = isBot(t);
    if (bot) bots += 1;
    const vol = t.buyUsd + t.sellUsd;
    totalVol += vol;
    if (!insider && !bot) organicVol += vol;
    if (t.buys > 0) {
      buyers += 1;
      if (!insider) nonInsiderBuyers += 1;
      if (!insider && !bot) organicBuyers += 1;
      if (t.firstBuyTs !== null && (firstBuy === null || t.firstBuyTs < firstBuy)) firstBuy = t.firstBuyTs;
    }
    if (t.sells > 0 && !insider) nonInsiderSellers += 1;
  }
  const organicVolPct = totalVol > 0 ? (100 * organicVol) / totalVol : 0;
  const organicBuyerPct = buyers > 0 ? (100 * organicBuyers) / buyers : 0;
  const organicBand: LevelBand =
    organicVolPct >= 70 && organicBuyerPct >= 70 ? 'high' : organicVolPct >= 40 && organicBuyerPct >= 40 ? 'moderate' : 'low';

  // --- holders: contracts holding supply for others (staking, vesting, timelocks) left out of the measures
  const facts = contractWithHolders(state);
  const held = holdingsView(state.holders.balances, facts, supplyOf(state));
  const hold = holderShape(state, held.balances);
  const holdersThen = holdersAt(state.hours, now - 24 * H);
  const growth24h = holdersThen !== null && holdersThen > 0 ? (100 * (state.holders.count - holdersThen)) / holdersThen : null;
  const holderTrend: Trend = growth24h === null ? 'flat' : growth24h > 5 ? 'growing' : growth24h < -5 ? 'shrinking' : 'flat';

  // --- liquidity
  const L = state.liquidity;
  const liqUsd = L.usd;
  const liquidityBand = depthBand(liqUsd);
  const liqThen = liquidityBefore(state.minutes, now - H);
  const liqChange1h = liqThen !== null && liqThen > 0 && liqUsd !== null ? (100 * (liqUsd - liqThen)) / liqThen : null;
  const offPeak = L.peakUsd > 0 && liqUsd !== null ? (100 * (L.peakUsd - liqUsd)) / L.peakUsd : null;
  const largestDrop = Math.max(0, ...L.drops.map(dropShare));
  let addedTotal = 0;
  for (const v of Object.values(L.providers)) if (v > 0) addedTotal += v;
  // the deployer side's liquidity: the pair's creator and whoever first supplied a pool (an attacker adds it from a fresh wallet)
  const side = deployerSide(state, insiderSet);
  for (const p of earlyWallets(state.earlyLp ?? {})) side.add(p);
  let deployerLp = 0;
  for (const w of side) deployerLp += Math.max(0, L.providers[w] ?? 0);
  const deployerLpShare = addedTotal > 0 ? deployerLp / addedTotal : 0;

  // --- hidden tax
  const sellTax = taxAverage(state, 'sell', insiderSet);

  // --- flags
  const fromTrades = { measuredAt: iso(now), source: 'trades' as const };
  const rugCtx = { liquidity: L, traders: state.traders, deployerSide: side, deployer };
  const fromPool = poolRugFlag(rugCtx);
  const tradesRug = rugFlag(fromPool, deployerLpShare, hold);
  const rug = withContractRug({ ...tradesRug, ...fromTrades }, facts, tradesRug === fromPool, now);
  const span = firstBuy === null ? 0 : now - firstBuy;
  const honeypot = withSimulation({ ...honeypotFlag(nonInsiderBuyers, nonInsiderSellers, span, sellTax), ...fromTrades }, facts);
  const concentration = { ...withHoldings(concentrationFlag(hold, state.holders.count), held.note), ...fromTrades };
  const contract = contractFlag(facts);

  // --- exit risk at the standard size
  const quoteReserveUsd = liqUsd !== null ? liqUsd / 2 : null;
  const sellPressure = h1.vol > 0 ? h1.sellVol / h1.vol : 0.5;
  // a token outside buyers cannot sell (a honeypot, or a prohibitive sell tax) has the highest
  // exit risk at every size, however deep its pool
  const blocked = honeypot.severity === 'red' ? honeypot.reason : null;
  const exitAt = (size: number) => {
    const e = exitScore(size, quoteReserveUsd, sellPressure, hold.top10Tokens, L.reserveToken);
    return blocked === null ? e : { ...e, score: 100, band: 'extreme' as const };
  };
  const exit = exitAt(STANDARD_SIZE_USD);
  const ladder = EXIT_LADDER_USD.map((sizeUsd) => {
    const e = exitAt(sizeUsd);
    return { sizeUsd, band: e.band, score: e.score, priceImpactPct: round2n(e.impact === null ? null : 100 * e.impact) };
  });
  const direction =
    (liqChange1h !== null && liqChange1h < -10) || sellPressure > 0.65
      ? 'worsening'
      : liqChange1h !== null && liqChange1h > 5 && sellPressure < 0.5
        ? 'improving'
        : 'stable';

  // --- risk score
  const flagScore = (f: RiskFlag, red: number, warn: number): number => (f.severity === 'red' ? red : f.severity === 'warning' ? warn : 0);
  const riskScore = Math.round(
    clamp(
      Math.max(
        flagScore(rug, 100, 60),
        flagScore(honeypot, 100, 55),
        flagScore(concentration, 75, 45),
        flagScore(contract, 100, 35),
        0.6 * exit.score + (liquidityBand === 'thin' ? 15 : 0),
      ),
    ),
  );
  const riskBand = scoreBand(riskScore);

  // --- inflection
  const infl = inflection(hourly, price, volumeRatio, h24, ch24h);

  // --- momentum
  const volAdj = volumeTrend === 'growing' ? 10 : volumeTrend === 'shrinking' ? -10 : 0;
  const momScore = Math.round(clamp(50 + 1.5 * (ch1h ?? 0) + 0.5 * (ch24h ?? 0) + volAdj));
  const momBand: MomentumBand = momScore >= 75 ? 'surging' : momScore >= 58 ? 'rising' : momScore <= 42 ? 'falling' : 'flat';

  // --- structure
  const structure = structureOf(hourly, price);

  // --- valuation
  const turnoverPct = liqUsd && liqUsd > 0 ? (100 * h24.vol) / liqUsd : null;
  const turnoverBand: LevelBand = turnoverPct === null || turnoverPct < 50 ? 'low' : turnoverPct < 300 ? 'moderate' : 'high';
  const high7d = hourly.length > 0 ? Math.max(...hourly.map((b) => b.h)) : null;
  const distanceFromHigh = price !== null && high7d ? (100 * (price - high7d)) / high7d : null;
  const holderVsPrice = growth24h !== null && ch24h !== null ? growth24h - ch24h : null;
  const stance = valuationStance(ch24h, holderVsPrice, distanceFromHigh, turnoverBand, holderTrend);

  // --- data sufficiency
  const hoursObserved = state.firstTs === null ? 0 : (now - state.firstTs) / H;
  const enough = state.swaps >= THRESHOLDS.enoughSwaps && buyers >= THRESHOLDS.enoughBuyers && hoursObserved >= THRESHOLDS.enoughHours;

  // --- smart money: distinct buyers inside the window graded mirror-worthy as of now
  let smartBuyers = 0;
  let smartUsd = 0;
  let windowBuyers = 0;
  let graded = 0;
  const recentGrades: TokenSnapshot['smartMoney']['recent'] = [];
  for (const b of state.recentBuyers) {
    const grade = opts.gradeOf?.(b.wallet) ?? null;
    recentGrades.push({ ageS: Math.max(0, now - b.ts), usd: round2(b.usd), grade });
    if (!isSmartWindow(now - b.ts, SMART_MONEY_WINDOW_HOURS)) continue;
    windowBuyers += 1;
    if (grade !== null && grade !== 'unrated') graded += 1;
    if (grade === 'mirror-worthy') {
      smartBuyers += 1;
      smartUsd += b.usd;
    }
  }

  const last24 = hourly.filter((b) => b.t >= hourStart(now) - 23 * H);
  const subjectName = state.meta.symbol ?? 'This token';
  const snapshot: TokenSnapshot = {
    kind: 'token',
    chain: state.chain,
    token: state.token,
    symbol: state.meta.symbol,
    version: state.lastPosition,
    asOf: iso(now),
    asOfTs: now,
    createdAt: state.meta.createdAt === null ? null : iso(state.meta.createdAt),
    ageHours: state.meta.createdAt === null ? null : round1((now - state.meta.createdAt) / H),
    data: { swaps: Math.max(0, state.swaps), hoursObserved: round1(hoursObserved), enough },
    verdict: 'unrated',
    signal: { value: 'HOLD', conviction: 0 },
    pillars: {
      smartMoney: smartBuyers >= THRESHOLDS.smartBuyersLit,
      coiling: infl.state === 'coiling',
      lowExit: exit.band === 'low',
      organic: organicBand === 'high',
      momentum: (momBand === 'rising' || momBand === 'surging') && volumeTrend !== 'shrinking',
      structure: structure.higherLows && structure.aboveBreakout,
    },
    pillarsLit: 0,
    smartBuyers,
    smartMoney: {
      windowHours: SMART_MONEY_WINDOW_HOURS,
      buyers: windowBuyers,
      graded,
      mirrorWorthyBuyers: smartBuyers,
      sizeBand: smartSizeBand(smartUsd),
      buying: smartBuyers >= THRESHOLDS.smartBuyersLit,
      recent: recentGrades,
    },
    risk: {
      band: riskBand,
      score: riskScore,
      flags: { rug, honeypot, concentration, contract },
      contract: contractSummary(facts, now),
      signals: {
        liquidityBand,
        liquidityChange1hPct: round1n(liqChange1h),
        liquidityOffPeakPct: round1n(offPeak),
        largestLiquidityDropPct: round1(100 * largestDrop),
        deployerLiquiditySharePct: round1(100 * deployerLpShare),
        top10SharePct: round1(100 * hold.top10Share),
        largestSharePct: round1(100 * hold.largestShare),
        hhi: Math.round(hold.hhi),
        buyers,
        nonInsiderSellers,
        // the simulated sell when the contract was read, else what the recent sells lost (all sells when few are recent)
        sellTaxPct: facts?.sim?.sell.taxPct ?? round1(100 * ((sellTax.recent && sellTax.recent.samples >= 3 ? sellTax.recent : sellTax.all)?.avg ?? 0)),
        insiders: insiderSet.size,
      },
    },
    momentum: {
      band: momBand,
      score: momScore,
      priceChange5mPct: round1n(ch5m),
      priceChange1hPct: round1n(ch1h),
      priceChange24hPct: round1n(ch24h),
      volumeTrend,
    },
    activity: {
      m5: activityWindow(m5, 300),
      h1: activityWindow(h1, H),
      h24: activityWindow(h24, 24 * H),
      newBuyersPct: h24.buyerCount > 0 ? round1((100 * Math.min(h24.newBuyers, h24.buyerCount)) / h24.buyerCount) : 0,
      returningBuyersPct: h24.buyerCount > 0 ? round1(100 - (100 * Math.min(h24.newBuyers, h24.buyerCount)) / h24.buyerCount) : 0,
    },
    holders: {
      launch: launchBuyers(state.early ?? {}, state.meta.createdBlock, deployer, (w) => state.holders.balances[w] ?? 0, hold.supply),
      count: state.holders.count,
      trend: holderTrend,
      growth24hPct: round1n(growth24h),
      top10SharePct: round1(100 * hold.top10Share),
      largestSharePct: round1(100 * hold.largestShare),
      hhi: Math.round(hold.hhi),
      whaleShape: hold.shape,
      concentrationBand: hold.band,
      verdict: 'unrated',
    },
    organic: {
      volumeSharePct: round1(organicVolPct),
      buyerSharePct: round1(organicBuyerPct),
      band: organicBand,
      botWallets: bots,
      insiderWallets: insiderSet.size,
    },
    exit: {
      band: exit.band,
      score: exit.score,
      standardSizeUsd: STANDARD_SIZE_USD,
      priceImpactPct: round2n(exit.impact === null ? null : 100 * exit.impact),
      sellPressurePct: round1(100 * sellPressure),
      whaleSupplyPct: round1(100 * exit.whale),
      direction: blocked !== null ? 'worsening' : direction,
      blocked,
      ladder,
    },
    inflection: infl,
    valuation: {
      stance,
      turnoverBand,
      turnoverPct: round1n(turnoverPct),
      holderGrowthVsPricePct: round1n(holderVsPrice),
      distanceFromHighPct: round1n(distanceFromHigh),
    },
    structure,
    priceAction: priceActionGrid(hourly, fiveMinute, subjectName),
    spark: sparkSeries(hourly),
    changes: { since: null, items: [], headline: '' },
    texts: { rationale: '', thesis: '' },
    facts: { symbol: null, risk: 'low', riskScore: 0, exitRisk: 'low', flags: [], sellable: true },
    basis: {
      priceUsd: price,
      liquidityUsd: liqUsd,
      reserveToken: L.reserveToken,
      quoteReserveUsd,
      top10Tokens: hold.top10Tokens,
      sellPressure,
      hourly: hourly.map((b) => ({ t: b.t, c: b.c })),
      high24h: last24.length > 0 ? Math.max(...last24.map((b) => b.h)) : null,
      low24h: last24.length > 0 ? Math.min(...last24.map((b) => b.l)) : null,
      insiders: [...insiderSet].sort(),
      deployer,
    },
  };
  snapshot.structure.accumulating = isAccumulating(snapshot, hourly);
  decide(snapshot);
  // a red flag is never a bargain: no undervalued stance for a token to avoid
  if (redFlagged(snapshot)) snapshot.valuation.stance = 'stretched';
  snapshot.holders.verdict = holdersVerdict(snapshot);
  const before = priorDigest(opts.written ?? [], now);
  const items = changesBetween(before, digestOf(snapshot));
  snapshot.changes = {
    since: before ? before.asOf : null,
    items,
    headline: writeTemplate('headline', { operation: 'token-changes', subject: subjectName, facts: changeFacts(items) }),
  };
  snapshot.texts = tokenTexts(snapshot, subjectName, signalContext(snapshot));
  snapshot.facts = {
    symbol: snapshot.symbol,
    risk: snapshot.risk.band,
    // rounded to 5 points: the open books that join with it re-derive when it moves, not on every trade
    riskScore: Math.round(snapshot.risk.score / 5) * 5,
    exitRisk: snapshot.exit.band,
    flags: (['rug', 'honeypot', 'concentration'] as const).filter((f) => snapshot.risk.flags[f].flagged),
    sellable: rug.severity !== 'red' && blocked === null,
    deployer: state.meta.deployer,
  };
  return snapshot;
}

/** What the signal rule saw beyond the pillars, for the texts that explain it. */
export function signalContext(s: TokenSnapshot) {
  return { accumulating: s.structure.accumulating, extended: (s.momentum.priceChange24hPct ?? 0) >= THRESHOLDS.extendedRise24hPct };
}

/** Any red risk flag. */
export function redFlagged(s: TokenSnapshot): boolean {
  const f = s.risk.flags;
  return f.rug.severity === 'red' || f.honeypot.severity === 'red' || f.concentration.severity === 'red';
}

/** The holder base's verdict: a red flag or a token to avoid is never better than avoid. */
function holdersVerdict(s: TokenSnapshot): Verdict {
  if (redFlagged(s) || s.verdict === 'avoid') return 'avoid';
  if (!s.data.enough || s.holders.count < 10) return 'unrated';
  if (s.organic.band === 'high' && s.holders.whaleShape === 'distributed' && s.holders.trend !== 'shrinking') return 'mirror-worthy';
  if (s.organic.band === 'low' && s.holders.whaleShape !== 'distributed') return 'avoid';
  return 'watch';
}

/** Pillars → pillarsLit, signal with conviction, verdict (mutates the fresh snapshot it is given). */
function decide(s: TokenSnapshot): void {
  const lit = countLit(s.pillars);
  s.pillarsLit = lit;
  const flags = s.risk.flags;
  const red = flags.rug.severity === 'red' || flags.honeypot.severity === 'red' || flags.concentration.severity === 'red';
  const quality = Math.min(1, s.data.swaps / 200) * Math.min(1, s.data.hoursObserved / 24);
  let value: TokenSignalValue;
  let conviction: number;
  if (red || s.risk.band === 'extreme') {
    value = 'AVOID';
    conviction = Math.max(50, s.risk.score);
  } else {
    // BUY needs a setup seen before the move (a coil, quiet accumulation, smart money buying), not
    // a rise that already happened: pillars lit by a pump (momentum, structure) chase it.
    const accumulating = s.structure.accumulating;
    const setup = s.pillars.coiling || accumulating || s.pillars.smartMoney;
    const extended = (s.momentum.priceChange24hPct ?? 0) >= THRESHOLDS.extendedRise24hPct;
    const riskPenalty = Math.max(0, s.risk.score - 40) * 0.5;
    conviction = clamp((lit / 6) * 60 + quality * 25 + (setup ? 15 : 0) - riskPenalty);
    const lowRisk = s.risk.band === 'low' || s.risk.band === 'moderate';
    const confirmed = s.pillars.coiling || (accumulating && s.pillars.lowExit) || (s.pillars.smartMoney && lit >= 3);
    if (lowRisk && setup && confirmed && !extended) value = 'BUY';
    // a token that already ran is not one to accumulate either: the same chase as a BUY after the move
    else if ((lit >= 2 || setup) && s.risk.band !== 'high' && !extended) value = 'ACCUMULATE';
    else value = 'HOLD';
  }
  s.signal = { value, conviction: Math.round(clamp(conviction)) };
  let verdict: Verdict;
  // a red flag is avoid however little data there is; AVOID always reads avoid
  if (red || value === 'AVOID') verdict = 'avoid';
  else if (!s.data.enough) verdict = 'unrated';
  else if (value === 'BUY' || (value === 'ACCUMULATE' && s.signal.conviction >= 60 && s.risk.band === 'low')) verdict = 'mirror-worthy';
  else verdict = 'watch';
  s.verdict = verdict;
}

/**
 * Quiet accumulation, from the snapshot alone: over 24 h holders grow fast and faster than price,
 * price rises modestly with higher lows (three 8-hour lows, none lower than the one before), and
 * distinct buyers keep up with distinct sellers.
 */
export function isAccumulating(s: TokenSnapshot, hourly: readonly Bar[]): boolean {
  const growth = s.holders.growth24hPct;
  const ch24 = s.momentum.priceChange24hPct;
  if (growth === null || ch24 === null) return false;
  if (growth < THRESHOLDS.accumHolderGrowthPct || growth - ch24 < THRESHOLDS.accumHolderOverPricePct) return false;
  if (ch24 <= 0 || ch24 >= THRESHOLDS.accumMaxRise24hPct) return false;
  const h24 = s.activity.h24;
  if (h24.buyers < THRESHOLDS.accumBuyersPerSeller * Math.max(1, h24.sellers)) return false;
  const bars = hourly.slice(-24);
  if (bars.length < 24) return false;
  const lows = [0, 1, 2].map((g) => Math.min(...bars.slice(g * 8, g * 8 + 8).map((b) => b.l)));
  return lows[1]! >= lows[0]! && lows[2]! >= lows[1]!;
}

function countLit(p: Pillars): number {
  return [p.smartMoney, p.coiling, p.lowExit, p.organic, p.momentum, p.structure].filter(Boolean).length;
}

// ---------------------------------------------------------------------------------------------
// flags

interface HolderShape {
  top10Share: number;
  largestShare: number;
  top10Tokens: number;
  largestHolder: string | null;
  hhi: number;
  shape: WhaleShape;
  band: RiskBand;
  /** the supply shares are of: total supply less burned, at least what holders and pools hold */
  supply: number;
}

/** the supply the concentration measures divide by: the token's, less what was burned, and never less than what is seen held */
function supplyOf(state: TokenState): number {
  let held = 0;
  for (const v of Object.values(state.holders.balances)) if (v > 0) held += v;
  const h = state.holders;
  return Math.max((state.meta.totalSupply ?? 0) - h.burned, held + h.poolBalance);
}

function holderShape(state: TokenState, balances: Record<string, number>): HolderShape {
  const entries = Object.entries(balances).filter((e) => e[1] > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  let held = 0;
  for (const [, v] of entries) held += v;
  // the supply of the balances as they stand: what contracts hold locked is still supply
  const supply = supplyOf(state);
  let top10Tokens = 0;
  for (let i = 0; i < Math.min(10, entries.length); i++) top10Tokens += entries[i]![1];
  const largest = entries[0]?.[1] ?? 0;
  let hhi = 0;
  if (held > 0) for (const [, v] of entries) hhi += (v / held) ** 2 * 10_000;
  const top10Share = supply > 0 ? top10Tokens / supply : 0;
  const largestShare = supply > 0 ? largest / supply : 0;
  const shape: WhaleShape = largestShare > 0.2 ? 'single-whale' : top10Share > 0.5 ? 'top-heavy' : 'distributed';
  const band: RiskBand =
    largestShare > 0.5 || top10Share > 0.8 ? 'extreme' : largestShare > 0.2 || top10Share > 0.5 ? 'high' : top10Share > 0.3 ? 'moderate' : 'low';
  return { top10Share, largestShare, top10Tokens, largestHolder: entries[0]?.[0] ?? null, hhi, shape, band, supply };
}

/** the pool's history first (a pull, a dump, a drain; a crash said as such), then the pre-rug setup, then a migration said */
function rugFlag(fromPool: RiskFlag | null, deployerLpShare: number, hold: HolderShape): RiskFlag {
  if (fromPool && fromPool.severity !== 'none') return fromPool;
  if (deployerLpShare >= 0.5 && (hold.top10Share > THRESHOLDS.concentrationTop10 || hold.largestShare > THRESHOLDS.concentrationLargest)) {
    return {
      flagged: false,
      severity: 'warning',
      reason: 'The deployer owns most of the liquidity while supply is concentrated: a pre-rug setup.',
    };
  }
  return fromPool ?? { flagged: false, severity: 'none', reason: 'No large liquidity removal seen.' };
}

/**
 * The honeypot flag with the contract's trade simulation: the worse of the two stands. A clean
 * simulation never clears red evidence from real trades (a token can let a probe sell and block
 * its holders); it is said beside it. Real sells clear it: the trades' own rule reads recent sells.
 */
function withSimulation(fromTrades: RiskFlag, facts: ContractFacts | null): RiskFlag {
  const sim = facts ? simulatedHoneypot(facts) : null;
  if (!sim || !facts) return fromTrades;
  const rank = { none: 0, warning: 1, red: 2 } as const;
  if (rank[sim.severity] >= rank[fromTrades.severity]) return sim;
  const sellOk = facts.sim?.sell.ok === true && (facts.sim.sell.taxPct ?? 0) < CONTRACT_THRESHOLDS.taxWarning;
  if (fromTrades.severity === 'red' && sellOk) {
    return { ...fromTrades, reason: `${fromTrades.reason.replace(/\.$/, '')}, though a simulated sell went through: the token may tell a simulation from a holder.` };
  }
  return fromTrades;
}

/**
 * The rug flag with LP custody: a pull stays red; LP held by the deployer warns; LP burned or
 * locked clears the trades' pre-rug warning. What the pool's history said (a crash, a migration,
 * a drain under way) is a fact custody does not clear: the custody warning is said beside it.
 */
function withContractRug(fromTrades: RiskFlag, facts: ContractFacts | null, fromPool: boolean, now: number): RiskFlag {
  if (fromTrades.severity === 'red') return fromTrades;
  const lp = lpRugFlag(facts, now);
  if (!fromPool) return lp ?? fromTrades;
  if (lp?.severity !== 'warning') return fromTrades;
  return { ...fromTrades, severity: 'warning', reason: `${fromTrades.reason} ${lp.reason}` };
}

function honeypotFlag(buyers: number, sellers: number, spanSec: number, tax: TaxAverages): RiskFlag {
  // the recent sells first: a tax switched on late is diluted in the average over every sell before it
  const recent = tax.recent && tax.recent.samples >= 3 && tax.recent.avg >= THRESHOLDS.hiddenTaxRed ? tax.recent : null;
  // recent sells that deliver what was sent clear a tax switched off since: real sells, never a simulation
  const recentClean = tax.recent !== null && tax.recent.samples >= 3 && recent === null;
  const all = !recentClean && tax.all && tax.all.samples >= 3 && tax.all.avg >= THRESHOLDS.hiddenTaxRed ? tax.all : null;
  const hit = recent ?? all;
  if (!hit && tax.heavy && tax.heavy.count >= 3 && tax.recent) {
    const { count, avg } = tax.heavy;
    return {
      flagged: true,
      severity: 'red',
      reason: `${count} of the last ${tax.recent.samples} sells delivered about ${Math.round(100 * avg)}% less than sent while the others passed: a tax that hits some sells, such as the larger ones.`,
    };
  }
  if (hit) {
    return {
      flagged: true,
      severity: 'red',
      reason: `${recent ? `The last ${recent.samples} sells deliver` : 'Sells deliver'} about ${Math.round(100 * hit.avg)}% less than sent: a hidden transfer tax.`,
    };
  }
  const expected = buyers >= THRESHOLDS.honeypotMinBuyers && spanSec >= THRESHOLDS.honeypotMinSpanSec;
  if (expected && (sellers === 0 || (buyers >= 40 && sellers / buyers < THRESHOLDS.honeypotSellRatio))) {
    return {
      flagged: true,
      severity: 'red',
      reason: `${buyers} outside wallets bought and ${sellers === 0 ? 'none' : 'almost none'} managed to sell.`,
    };
  }
  if (buyers >= 5 && spanSec >= THRESHOLDS.honeypotMinSpanSec && sellers / buyers < 0.1) {
    return { flagged: false, severity: 'warning', reason: 'Few outside wallets have sold so far; sells may be restricted.' };
  }
  return { flagged: false, severity: 'none', reason: 'Outside wallets buy and sell normally.' };
}

/** the concentration flag with what contracts hold for others said: left out, or counted and why */
function withHoldings(flag: RiskFlag, note: string): RiskFlag {
  return note ? { ...flag, reason: `${flag.reason} ${note}` } : flag;
}

function concentrationFlag(hold: HolderShape, holders: number): RiskFlag {
  if (holders === 0) return { flagged: false, severity: 'none', reason: 'No holders outside the pool yet.' };
  const top = Math.round(100 * hold.top10Share);
  const one = Math.round(100 * hold.largestShare);
  const both = hold.largestShare > THRESHOLDS.concentrationLargest && hold.top10Share > THRESHOLDS.concentrationTop10;
  if (both || hold.largestShare > 0.5 || hold.top10Share > 0.8) {
    return { flagged: true, severity: 'red', reason: `One wallet holds ${one}% and the top ten ${top}% of supply.` };
  }
  if (hold.largestShare > THRESHOLDS.concentrationLargest || hold.top10Share > THRESHOLDS.concentrationTop10) {
    return { flagged: false, severity: 'warning', reason: `Top ten wallets hold ${top}% of supply, the largest ${one}%.` };
  }
  return { flagged: false, severity: 'none', reason: `Top ten wallets hold ${top}% of supply.` };
}

/** a side's tax over every sell seen, and over the recent ones (the transactions still in the ring) */
interface TaxAverages {
  all: { avg: number; samples: number } | null;
  recent: { avg: number; samples: number } | null;
  /** recent trades that lost at least the red tax, and their mean tax (a tax above a size hides in the averages); null when switched off since */
  heavy: { count: number; avg: number } | null;
}

/** the trades' taxes; the recent ones of insiders are no evidence either way (a decoy's clean sell clears nothing) */
function taxAverage(state: TokenState, side: 'buy' | 'sell', insiders: Set<string>): TaxAverages {
  const s = state.tax[side];
  /** the recent outside trades' taxes, in order */
  const taxes: number[] = [];
  for (const t of state.txs) {
    if (t.side !== side || (t.trader !== null && insiders.has(t.trader))) continue;
    const tax = txTax(t, state.meta.pool);
    if (tax !== null) taxes.push(tax);
  }
  const n = taxes.length;
  const sum = taxes.reduce((a, b) => a + b, 0);
  const all = s.samples + n > 0 ? { avg: (s.sum + sum) / (s.samples + n), samples: s.samples + n } : null;
  return { all, recent: n > 0 ? { avg: sum / n, samples: n } : null, heavy: heavyTaxes(taxes) };
}

/**
 * The trades that lost the red tax, unless the tax was switched off since: they form one run
 * followed by at least three trades that passed. Interleaved with trades that passed, they are a
 * tax that hits some trades only (the larger ones), whatever the averages say.
 */
function heavyTaxes(taxes: number[]): TaxAverages['heavy'] {
  const heavy = taxes.map((t, i) => ({ t, i })).filter((x) => x.t >= THRESHOLDS.hiddenTaxRed);
  if (heavy.length === 0) return null;
  const first = (heavy[0] as { i: number }).i;
  const last = (heavy[heavy.length - 1] as { i: number }).i;
  const oneRun = last - first + 1 === heavy.length;
  if (oneRun && taxes.length - 1 - last >= 3) return null;
  return { count: heavy.length, avg: heavy.reduce((a, x) => a + x.t, 0) / heavy.length };
}

function isBot(t: TraderRec): boolean {
  return isBotTrader(t);
}

// ---------------------------------------------------------------------------------------------
// exit, inflection, structure, valuation

/** Price impact of selling `sizeUsd` into a constant-product pool with `quoteUsd` on the quote side. */
export function priceImpact(sizeUsd: number, quoteUsd: number | null): number | null {
  if (quoteUsd === null || quoteUsd <= 0) return null;
  return sizeUsd / (quoteUsd + sizeUsd);
}

export function exitScore(
  sizeUsd: number,
  quoteUsd: number | null,
  sellPressure: number,
  whaleTokens: number,
  reserveToken: number | null,
): { score: number; band: RiskBand; impact: number | null; whale: number } {
  const impact = priceImpact(sizeUsd, quoteUsd);
  const impactPart = impact === null ? 1 : Math.min(1, impact / 0.1);
  const whale = reserveToken && reserveToken > 0 ? whaleTokens / (reserveToken + whaleTokens) : whaleTokens > 0 ? 1 : 0;
  const score = Math.round(clamp(100 * (0.5 * impactPart + 0.25 * sellPressure + 0.25 * whale)));
  return { score, band: scoreBand(score), impact, whale };
}

function inflection(
  hourly: Bar[],
  price: number | null,
  volumeRatio: number | null,
  h24: Agg,
  ch24: number | null,
): TokenSnapshot['inflection'] {
  const K = THRESHOLDS.coilWindowBars;
  const none = { state: null, earlyScore: 0, rangePercentile: null, volumeRatio: round2n(volumeRatio) };
  if (hourly.length < 2 * K || price === null) return none;
  // width of every K-bar window over the history: where the current one sits among them
  const widths: number[] = [];
  for (let i = K - 1; i < hourly.length; i++) widths.push(rangeWidth(hourly.slice(i - K + 1, i + 1)));
  const current = widths[widths.length - 1]!;
  const below = widths.filter((w) => w < current).length;
  const percentile = (100 * below) / widths.length;

  // breakout: price above the prior 12 closed bars' high, on volume well above average
  const prior = hourly.slice(Math.max(0, hourly.length - 13), hourly.length - 1);
  const priorHigh = Math.max(...prior.map((b) => b.h));
  if (
    priorHigh > 0 &&
    price > priorHigh * (1 + THRESHOLDS.breakoutMargin) &&
    volumeRatio !== null &&
    volumeRatio >= THRESHOLDS.breakoutVolumeRatio
  ) {
    const ext = 100 * (price / priorHigh - 1);
    return {
      state: 'breaking-out',
      earlyScore: Math.round(clamp(100 - 2 * ext, 10, 100)),
      rangePercentile: round1(percentile),
      volumeRatio: round2n(volumeRatio),
    };
  }

  // coil: a tight range, much narrower than the range before it, going sideways while buyers hold up
  const before = rangeWidth(hourly.slice(Math.max(0, hourly.length - K - THRESHOLDS.coilPriorBars), hourly.length - K));
  const contraction = before > 0 ? current / before : 1;
  const sideways = ch24 !== null && Math.abs(ch24) < THRESHOLDS.coilMaxMove24hPct;
  const buyersPerSeller = h24.buyerCount / Math.max(1, h24.sellerCount);
  const buyShare = h24.vol > 0 ? (100 * h24.buyVol) / h24.vol : 50;
  const steady = h24.buys > 0 && buyersPerSeller >= THRESHOLDS.coilBuyersPerSeller && buyShare >= THRESHOLDS.coilMinBuyShare;
  if (current <= THRESHOLDS.coilMaxWidth && contraction <= THRESHOLDS.coilContraction && sideways && steady) {
    return {
      state: 'coiling',
      earlyScore: Math.round(clamp(60 + 40 * (1 - contraction / THRESHOLDS.coilContraction))),
      rangePercentile: round1(percentile),
      volumeRatio: round2n(volumeRatio),
    };
  }
  return { ...none, earlyScore: Math.round(clamp((50 - percentile) / 2)), rangePercentile: round1(percentile) };
}

/** (high − low) / mean close of a run of bars; 0 for none. */
function rangeWidth(bars: Bar[]): number {
  if (bars.length === 0) return 0;
  const { hi, lo, meanClose } = barSpan(bars);
  return meanClose > 0 ? (hi - lo) / meanClose : 0;
}

function structureOf(hourly: Bar[], price: number | null): TokenSnapshot['structure'] {
  if (hourly.length < 12 || price === null) return { higherLows: false, aboveBreakout: false, accumulating: false };
  const last = hourly.slice(-12);
  const lows = [0, 1, 2].map((g) => Math.min(...last.slice(g * 4, g * 4 + 4).map((b) => b.l)));
  const higherLows = lows[1]! > lows[0]! && lows[2]! > lows[1]!;
  const base = hourly.slice(-24, -6);
  const level = base.length > 0 ? Math.max(...base.map((b) => b.h)) : Infinity;
  // accumulation is decided once the rest of the snapshot exists (isAccumulating)
  return { higherLows, aboveBreakout: price > level, accumulating: false };
}

function valuationStance(
  ch24h: number | null,
  holderVsPrice: number | null,
  distanceFromHigh: number | null,
  turnover: LevelBand,
  holderTrend: Trend,
): ValuationStance {
  if (ch24h !== null && ch24h >= 30 && holderVsPrice !== null && holderVsPrice <= -20) return 'stretched';
  if (distanceFromHigh !== null && distanceFromHigh >= -5 && turnover === 'high' && (ch24h ?? 0) > 20) return 'stretched';
  if (distanceFromHigh !== null && distanceFromHigh <= -35 && holderTrend !== 'shrinking' && turnover !== 'high') return 'undervalued';
  if (holderVsPrice !== null && holderVsPrice >= 20 && turnover !== 'high') return 'undervalued';
  return 'fair';
}

// ---------------------------------------------------------------------------------------------
// windows and bars

interface Agg {
  /** trades at or after this time are in the window (it ends at the newest event) */
  from: number;
  buys: number;
  sells: number;
  vol: number;
  buyVol: number;
  sellVol: number;
  buyerCount: number;
  sellerCount: number;
  newBuyers: number;
}

function windowAgg(buckets: Bucket[], from: number, to: number): Agg {
  const start = from - (from % 60);
  const a: Agg = { from: start, buys: 0, sells: 0, vol: 0, buyVol: 0, sellVol: 0, buyerCount: 0, sellerCount: 0, newBuyers: 0 };
  for (let i = buckets.length - 1; i >= 0; i--) {
    const b = buckets[i]!;
    if (b.t > to) continue;
    if (b.t < start) break;
    a.buys += b.buys;
    a.sells += b.sells;
    a.vol += b.vol;
    a.buyVol += b.buyVol;
    a.sellVol += b.sellVol;
    a.newBuyers += b.newBuyers;
  }
  return a;
}

/**
 * Distinct buyers and sellers of windows that end at the newest event: a trader bought in the
 * window when its last buy is at or after the window's start (the trader records keep the last
 * buy and sell of every wallet, so the buckets need no per-wallet sets).
 */
function countDistinct(traders: Record<string, TraderRec>, windows: Agg[]): void {
  for (const w in traders) {
    const t = traders[w]!;
    const lastBuy = t.lastBuy === null ? -1 : t.lastBuy.ts;
    for (const a of windows) {
      if (lastBuy >= a.from) a.buyerCount += 1;
      if (t.lastSellTs >= a.from) a.sellerCount += 1;
    }
  }
}

function activityWindow(a: Agg, seconds: number): ActivityWindow {
  const buyShare = a.vol > 0 ? (100 * a.buyVol) / a.vol : 50;
  return {
    buys: a.buys,
    sells: a.sells,
    buyers: a.buyerCount,
    sellers: a.sellerCount,
    volumeBand: volumeBand(a.vol, a.buys + a.sells, seconds),
    buySharePct: round1(buyShare),
    netFlow: buyShare >= 55 ? 'inflow' : buyShare <= 45 ? 'outflow' : 'balanced',
  };
}

/** USD volume per hour → band; `quiet` when there were no trades. */
export function volumeBand(volUsd: number, trades: number, seconds: number): VolumeBand {
  if (trades === 0) return 'quiet';
  const perHour = (volUsd * H) / seconds;
  return perHour < 1_000 ? 'low' : perHour < 10_000 ? 'moderate' : perHour < 100_000 ? 'high' : 'extreme';
}

export function depthBand(liquidityUsd: number | null): DepthBand {
  if (liquidityUsd === null || liquidityUsd < THRESHOLDS.liquidityThinUsd) return 'thin';
  return liquidityUsd < THRESHOLDS.liquidityDeepUsd ? 'moderate' : 'deep';
}

export function scoreBand(score: number): RiskBand {
  return score < 25 ? 'low' : score < 50 ? 'moderate' : score < 75 ? 'high' : 'extreme';
}

/** Group buckets into `size`-second bars (only buckets with swaps carry prices). */
function aggregate(buckets: Bucket[], size: number): Bucket[] {
  const out: Bucket[] = [];
  let cur: Bucket | undefined;
  for (const b of buckets) {
    const t = b.t - (b.t % size);
    if (!cur || cur.t !== t) {
      cur = { ...b, t, n: 0, o: 0, h: 0, l: 0, c: 0, vol: 0 };
      out.push(cur);
    }
    if (b.n > 0) {
      if (cur.n === 0) {
        cur.o = b.o;
        cur.h = b.h;
        cur.l = b.l;
      } else {
        cur.h = Math.max(cur.h, b.h);
        cur.l = Math.min(cur.l, b.l);
      }
      cur.c = b.c;
      cur.n += b.n;
    }
    cur.vol += b.vol;
  }
  return out;
}

/**
 * Regular bars of `size` seconds ending at the bar containing `now`, at most `max` of them, from
 * the first bar with a trade; a bar without trades is the provider's candle of that bar when
 * there is one (`candles`), else the previous close repeated with zero volume.
 */
function filledBars(buckets: Bucket[], size: number, max: number, now: number, candles: readonly CandleBar[] = []): Bar[] {
  const traded = buckets.filter((b) => b.n > 0);
  if (traded.length === 0) return [];
  const candleAt = new Map<number, CandleBar>();
  for (const c of candles) candleAt.set(c.t, c);
  const end = now - (now % size);
  const start = Math.max(traded[0]!.t, end - (max - 1) * size);
  let prevClose = traded[0]!.o;
  for (const b of traded) {
    if (b.t >= start) break;
    prevClose = b.c;
  }
  const byT = new Map<number, Bucket>();
  for (const b of buckets) byT.set(b.t, b);
  const out: Bar[] = [];
  for (let t = start; t <= end; t += size) {
    const b = byT.get(t);
    const candle = candleAt.get(t);
    if (b && b.n > 0) {
      out.push({ t, o: b.o, h: b.h, l: b.l, c: b.c, v: b.vol });
      prevClose = b.c;
    } else if (candle && candle.c > 0) {
      out.push({ t, o: candle.o, h: candle.h, l: candle.l, c: candle.c, v: candle.v });
      prevClose = candle.c;
    } else {
      out.push({ t, o: prevClose, h: prevClose, l: prevClose, c: prevClose, v: b?.vol ?? 0 });
    }
  }
  return out;
}

/** Last traded close of a bucket that ended at or before `ts`. */
function priceBefore(buckets: Bucket[], size: number, ts: number): number | null {
  for (let i = buckets.length - 1; i >= 0; i--) {
    const b = buckets[i]!;
    if (b.t + size <= ts && b.n > 0) return b.c;
  }
  return null;
}

function firstOpen(buckets: Bucket[]): number | null {
  const b = buckets.find((x) => x.n > 0);
  return b ? b.o : null;
}

function holdersAt(hours: Bucket[], ts: number): number | null {
  let found: number | null = null;
  for (const b of hours) {
    if (b.t > ts) break;
    found = b.holders;
  }
  return found ?? hours[0]?.holders ?? null;
}

function liquidityBefore(minutes: Bucket[], ts: number): number | null {
  let found: number | null = null;
  for (const b of minutes) {
    if (b.t > ts) break;
    if (b.liqClose >= 0) found = b.liqClose;
  }
  if (found !== null) return found;
  const first = minutes.find((b) => b.liqClose >= 0);
  return first ? first.liqClose : null;
}

// ---------------------------------------------------------------------------------------------
// small helpers

function pctChange(from: number | null, to: number | null): number | null {
  if (from === null || to === null || from <= 0) return null;
  return (100 * (to - from)) / from;
}

function hourStart(ts: number): number {
  return ts - (ts % H);
}

export function clamp(x: number, lo = 0, hi = 100): number {
  return Math.min(hi, Math.max(lo, x));
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
function round1n(x: number | null): number | null {
  return x === null || !Number.isFinite(x) ? null : round1(x);
}
function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
function round2n(x: number | null): number | null {
  return x === null || !Number.isFinite(x) ? null : Math.round(x * 100) / 100;
}

function iso(ts: number): string {
  return new Date(ts * 1000).toISOString();
}
