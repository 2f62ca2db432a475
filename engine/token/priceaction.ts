import type { Bar, PriceActionBody, Resolution, RiskBand } from '../../schemas/token.ts';
import { PRICE_ACTION_WINDOWS, priceActionKey } from '../../schemas/token.ts';
import { writeTemplate } from '../writer/index.ts';

/**
 * Price action over the engine's own bars, for every window of PRICE_ACTION_WINDOWS: trend,
 * structure, breakout, volatility, distance from the high and momentum. Computed once per
 * snapshot, so the API serves a window by selecting it.
 */

const RES_SECONDS: Record<Resolution, number> = { '5m': 300, '15m': 900, '1h': 3600, '4h': 14_400 };

const clamp = (x: number, lo = 0, hi = 100) => Math.min(hi, Math.max(lo, x));

function groupBars(bars: readonly Bar[], size: number): Bar[] {
  const out: Bar[] = [];
  for (const b of bars) {
    const t = b.t - (b.t % size);
    const cur = out[out.length - 1];
    if (cur && cur.t === t) {
      cur.h = Math.max(cur.h, b.h);
      cur.l = Math.min(cur.l, b.l);
      cur.c = b.c;
      cur.v += b.v;
    } else out.push({ ...b, t });
  }
  return out;
}

/** Bars of a resolution from the hourly and 5-minute series. */
function seriesFor(hourly: readonly Bar[], fiveMinute: readonly Bar[], resolution: Resolution): Bar[] {
  const size = RES_SECONDS[resolution];
  const src = size < 3600 ? fiveMinute : hourly;
  return size === 300 || size === 3600 ? [...src] : groupBars(src, size);
}

function lastHours(bars: readonly Bar[], hours: number, size: number): Bar[] {
  const last = bars[bars.length - 1];
  if (!last) return [];
  const from = last.t + size - hours * 3600;
  return bars.filter((b) => b.t >= from);
}

/** Highest high, lowest low and mean close of a run of bars (at least one). */
export function barSpan(bars: readonly Bar[]): { hi: number; lo: number; meanClose: number } {
  let hi = -Infinity;
  let lo = Infinity;
  let sum = 0;
  for (const b of bars) {
    hi = Math.max(hi, b.h);
    lo = Math.min(lo, b.l);
    sum += b.c;
  }
  return { hi, lo, meanClose: sum / bars.length };
}

export function analyzePriceAction(bars: readonly Bar[], hours: number, resolution: Resolution): Omit<PriceActionBody, 'summary'> {
  const n = bars.length;
  let trend: PriceActionBody['trend'] = 'sideways';
  let structure: PriceActionBody['structure'] = 'mixed';
  let breakout: PriceActionBody['breakout'] = 'none';
  let volatility: RiskBand = 'low';
  let distanceFromHigh: number | null = null;
  let priceMomentum = 50;
  if (n >= 3) {
    const first = bars[0]!;
    const last = bars[n - 1]!;
    const chg = first.o > 0 ? last.c / first.o - 1 : 0;
    trend = chg > 0.03 ? 'up' : chg < -0.03 ? 'down' : 'sideways';
    const k = Math.max(1, Math.floor(n / 3));
    const thirds = [bars.slice(0, k), bars.slice(k, n - k), bars.slice(n - k)].filter((g) => g.length > 0);
    const lows = thirds.map((g) => Math.min(...g.map((b) => b.l)));
    const highs = thirds.map((g) => Math.max(...g.map((b) => b.h)));
    const rising = lows.every((l, i) => i === 0 || l > lows[i - 1]!);
    const falling = highs.every((h, i) => i === 0 || h < highs[i - 1]!);
    const { hi, lo, meanClose: mean } = barSpan(bars);
    if (rising && !falling) structure = 'higher-lows';
    else if (falling && !rising) structure = 'lower-highs';
    else if (mean > 0 && (hi - lo) / mean < 0.05) structure = 'range';
    let pHi = -Infinity;
    let pLo = Infinity;
    for (let i = 0; i < n - 1; i++) {
      pHi = Math.max(pHi, bars[i]!.h);
      pLo = Math.min(pLo, bars[i]!.l);
    }
    breakout = last.c > pHi ? 'above-range' : last.c < pLo ? 'below-range' : 'none';
    const rets: number[] = [];
    for (let i = 1; i < n; i++) {
      const a = bars[i - 1]!.c;
      const b = bars[i]!.c;
      if (a > 0 && b > 0) rets.push(Math.log(b / a));
    }
    const m = rets.reduce((x, r) => x + r, 0) / Math.max(1, rets.length);
    const sd = Math.sqrt(rets.reduce((x, r) => x + (r - m) ** 2, 0) / Math.max(1, rets.length));
    const hourly = sd * Math.sqrt(3600 / RES_SECONDS[resolution]);
    volatility = hourly < 0.01 ? 'low' : hourly < 0.03 ? 'moderate' : hourly < 0.08 ? 'high' : 'extreme';
    distanceFromHigh = hi > 0 ? Math.round(1000 * (1 - last.c / hi)) / 10 : null;
    const ref = bars[n - k - 1] ?? first;
    const roc = ref.c > 0 ? 100 * (last.c / ref.c - 1) : 0;
    priceMomentum = Math.round(clamp(50 + 2.5 * roc));
  }
  return { hours, resolution, bars: n, trend, structure, breakout, volatility, distanceFromHigh, priceMomentum };
}

/** Price action for every window of every resolution, keyed `resolution:hours`. */
export function priceActionGrid(hourly: readonly Bar[], fiveMinute: readonly Bar[], subject: string): Record<string, PriceActionBody> {
  const out: Record<string, PriceActionBody> = {};
  for (const resolution of Object.keys(PRICE_ACTION_WINDOWS) as Resolution[]) {
    const series = seriesFor(hourly, fiveMinute, resolution);
    for (const hours of PRICE_ACTION_WINDOWS[resolution]) {
      const a = analyzePriceAction(lastHours(series, hours, RES_SECONDS[resolution]), hours, resolution);
      const summary = writeTemplate('summary', {
        operation: 'token-price-action',
        subject,
        facts: { trend: a.trend, structure: a.structure, breakout: a.breakout, volatility: a.volatility, resolution, hours, enoughBars: a.bars >= 3 },
      });
      out[priceActionKey(resolution, hours)] = { ...a, summary };
    }
  }
  return out;
}

/** The last 72 hourly closes rebased to percent from the first of them (first point 0). */
export function sparkSeries(hourly: readonly Bar[]): number[] {
  const closes = hourly.slice(-72).map((b) => b.c);
  const base = closes[0];
  if (!base || base <= 0) return [];
  const series = closes.map((c) => Math.round((10_000 * (c - base)) / base) / 100);
  series[0] = 0;
  return series;
}
