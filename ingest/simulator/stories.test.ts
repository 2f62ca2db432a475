import { describe, expect, it } from 'vitest';
import type { Swap, Sync, TokenEvent } from '../../schemas/events.ts';
import { createSimulator, type TokenTruth } from './index.ts';
import { holderBalances, summariseWallets } from './inspect.ts';

const G = 1_700_000_000;
const DAY = 86_400;
const HOUR = 3600;

/** Each story must be visible in the raw events alone; checked on two seeds. */
describe.each([42, 1234])('stories in the raw events (seed %i)', (seed) => {
  const sim = createSimulator({ seed, genesisTime: G });
  const events: TokenEvent[] = [];
  for (const b of sim.blocksUntil(G + 10 * DAY)) for (const e of b.events) events.push(e);
  const swapsOf = new Map<string, Swap[]>();
  const syncsOf = new Map<string, Sync[]>();
  for (const e of events) {
    if (e.type === 'swap') swapsOf.set(e.token, [...(swapsOf.get(e.token) ?? []), e]);
    if (e.type === 'sync') syncsOf.set(e.token, [...(syncsOf.get(e.token) ?? []), e]);
  }
  const tokens = (story: string): TokenTruth[] => sim.truth.tokens.filter((t) => t.story === story);
  /** price after the last swap at or before t */
  const priceAt = (token: string, t: number): number => {
    let p = 0;
    for (const s of swapsOf.get(token) ?? []) {
      if (s.timestamp > t) break;
      p = s.priceUsd / sim.wethUsdAt(s.timestamp);
    }
    return p;
  };
  const reserveQuoteAt = (token: string, t: number): number => {
    let q = 0;
    for (const s of syncsOf.get(token) ?? []) {
      if (s.timestamp > t) break;
      q = s.reserveQuote;
    }
    return q;
  };
  const swapsIn = (token: string, from: number, to: number): Swap[] =>
    (swapsOf.get(token) ?? []).filter((s) => s.timestamp >= from && s.timestamp < to);
  const volumePerHour = (token: string, from: number, to: number): number =>
    swapsIn(token, from, to).reduce((a, s) => a + s.amountQuote, 0) / ((to - from) / HOUR);
  const wallets = summariseWallets(events);
  const bots = new Set(sim.truth.labels.bots);

  it('rug: liquidity falls by more than half right after rugAt, removed by the deployer', () => {
    for (const t of tokens('rug')) {
      const rugAt = t.rugAt as number;
      const before = reserveQuoteAt(t.address, rugAt - 1);
      const after = reserveQuoteAt(t.address, rugAt + HOUR);
      expect(after).toBeLessThan(before * 0.5);
      const removes = events.filter(
        (e) => e.type === 'liquidity' && e.token === t.address && e.action === 'remove' && e.timestamp >= rugAt && e.timestamp < rugAt + HOUR,
      );
      expect(removes.length).toBeGreaterThanOrEqual(1);
      for (const r of removes) expect(r.type === 'liquidity' && r.provider).toBe(t.deployer);
      expect(priceAt(t.address, rugAt + 6 * HOUR)).toBeLessThan(priceAt(t.address, rugAt - 1) * 0.2);
    }
  });

  it('no other token loses more than half its liquidity in an hour through removals', () => {
    for (const t of sim.truth.tokens) {
      if (t.story === 'rug') continue;
      for (const e of events) {
        if (e.type !== 'liquidity' || e.token !== t.address || e.action !== 'remove') continue;
        expect(e.amountQuote).toBeLessThan(reserveQuoteAt(t.address, e.timestamp - 1) * 0.5);
      }
    }
  });

  it('honeypot: many buyers, but only the deployer and insiders ever sell; transfers are taxed', () => {
    let taxed = 0;
    for (const t of tokens('honeypot')) {
      const allowed = new Set([t.deployer, ...t.insiders]);
      const swaps = swapsOf.get(t.address) ?? [];
      const buyers = new Set(swaps.filter((s) => s.side === 'buy').map((s) => s.trader));
      const sellers = new Set(swaps.filter((s) => s.side === 'sell').map((s) => s.trader));
      expect(buyers.size).toBeGreaterThanOrEqual(20);
      expect(sellers.size).toBeGreaterThanOrEqual(1);
      for (const s of sellers) expect(allowed.has(s)).toBe(true);
      taxed += events.filter((e) => e.type === 'transfer' && e.token === t.address && e.to === t.address).length;
    }
    expect(taxed).toBeGreaterThan(0);
    // elsewhere, ordinary wallets do sell
    for (const t of tokens('organic')) {
      const sellers = new Set((swapsOf.get(t.address) ?? []).filter((s) => s.side === 'sell').map((s) => s.trader));
      expect(sellers.size).toBeGreaterThan(20);
    }
  });

  it('whale tokens: top holder > 20% and top 10 > 50% of supply; other tokens stay below 20%', () => {
    for (const t of sim.truth.tokens) {
      const cut = t.rugAt !== undefined ? t.rugAt - 1 : G + 10 * DAY;
      const bal = holderBalances(events.filter((e) => e.timestamp <= cut), t.address);
      const excluded = new Set([t.pool, t.address, sim.truth.zero, sim.truth.dead]);
      const shares = Object.entries(bal)
        .filter(([a, v]) => !excluded.has(a) && v > 0)
        .map(([, v]) => v / t.totalSupply)
        .sort((a, b) => b - a);
      const top10 = shares.slice(0, 10).reduce((a, b) => a + b, 0);
      if (t.story === 'whale') {
        expect(shares[0]).toBeGreaterThan(0.2);
        expect(top10).toBeGreaterThan(0.5);
      } else {
        expect(shares[0] ?? 0).toBeLessThan(0.2);
        expect(top10).toBeLessThan(0.5);
      }
    }
  });

  it('accumulation: quiet buying, then a breakout with a multiple of the volume', () => {
    for (const t of tokens('accumulation')) {
      const acc = t.accumulationStart as number;
      const bo = t.breakoutAt as number;
      const peak = t.peakAt as number;
      expect(priceAt(t.address, peak + HOUR)).toBeGreaterThan(2 * priceAt(t.address, acc));
      expect(priceAt(t.address, peak + HOUR)).toBeGreaterThan(1.5 * priceAt(t.address, bo));
      expect(volumePerHour(t.address, bo, peak)).toBeGreaterThan(3 * volumePerHour(t.address, acc, bo));
      const edgeBuys = swapsIn(t.address, acc, bo).filter((s) => s.side === 'buy' && sim.truth.labels.edge.includes(s.trader));
      expect(edgeBuys.length).toBeGreaterThan(0);
    }
  });

  it('coil: volatility contracts during the coil, then price breaks out', () => {
    const vol = (token: string, from: number, to: number): number => {
      // std of 15-minute log returns
      const r: number[] = [];
      for (let t = from + 900; t <= to; t += 900) {
        const a = priceAt(token, t - 900);
        const b = priceAt(token, t);
        if (a > 0 && b > 0) r.push(Math.log(b / a));
      }
      const m = r.reduce((x, y) => x + y, 0) / r.length;
      return Math.sqrt(r.reduce((x, y) => x + (y - m) ** 2, 0) / r.length);
    };
    // buying (bots aside) stays steady: across coils, the last third sees as many buys as the first
    const buys = (token: string, from: number, to: number): number =>
      swapsIn(token, from, to).filter((s) => s.side === 'buy' && !bots.has(s.trader)).length;
    let lateBuys = 0;
    let earlyBuys = 0;
    for (const t of tokens('coil')) {
      const cs = t.coilStart as number;
      const bo = t.breakoutAt as number;
      const third = (bo - cs) / 3;
      expect(vol(t.address, bo - third, bo)).toBeLessThan(0.7 * vol(t.address, t.createdAt + HOUR, cs));
      lateBuys += buys(t.address, bo - third, bo);
      earlyBuys += buys(t.address, cs, cs + third);
      expect(priceAt(t.address, (t.peakAt as number) + HOUR)).toBeGreaterThan(1.5 * priceAt(t.address, bo));
    }
    expect(lateBuys).toBeGreaterThanOrEqual(0.9 * earlyBuys);
  });

  it('bleed: steady decline after bleedStart with more sells than buys', () => {
    for (const t of tokens('bleed')) {
      const bs = t.bleedStart as number;
      const after = swapsIn(t.address, bs, G + 10 * DAY);
      expect(after.filter((s) => s.side === 'sell').length).toBeGreaterThan(after.filter((s) => s.side === 'buy').length);
      expect(priceAt(t.address, G + 10 * DAY)).toBeLessThan(0.7 * priceAt(t.address, bs));
    }
  });

  it('organic: price grows with a growing set of buyers', () => {
    for (const t of tokens('organic')) {
      const end = G + 10 * DAY;
      const launch = syncsOf.get(t.address)?.[0];
      expect(priceAt(t.address, end)).toBeGreaterThan(1.5 * ((launch?.reserveQuote ?? Infinity) / (launch?.reserveToken ?? 1)));
      expect(new Set(swapsIn(t.address, t.createdAt, end).map((s) => s.trader)).size).toBeGreaterThan(50);
    }
  });

  it('edge traders: >= 10 round trips over >= 7 days across >= 3 tokens, and they win', () => {
    const returns: number[] = [];
    for (const a of sim.truth.labels.edge) {
      const w = wallets[a];
      expect(w).toBeDefined();
      if (!w) continue;
      expect(w.roundTrips).toBeGreaterThanOrEqual(10);
      expect(w.tokens.length).toBeGreaterThanOrEqual(3);
      expect(w.lastTrade - w.firstTrade).toBeGreaterThanOrEqual(7 * DAY);
      expect(w.sameBlockRoundTrips).toBe(0);
      expect(w.realisedQuote).toBeGreaterThan(0);
      returns.push(w.realisedReturn);
    }
    const retail = sim.truth.wallets.filter((w) => w.behaviour === 'retail').map((w) => wallets[w.address]?.realisedReturn ?? 0);
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    expect(median(returns)).toBeGreaterThan(0.15);
    expect(median(retail)).toBeLessThan(0.05);
  });

  it('bots: many tiny same-block round trips, several trades a minute, and no profit', () => {
    for (const a of sim.truth.labels.bots) {
      const w = wallets[a];
      expect(w).toBeDefined();
      if (!w) continue;
      expect(w.sameBlockRoundTrips).toBeGreaterThanOrEqual(50);
      expect(w.realisedQuote).toBeLessThanOrEqual(0);
    }
    const bot = sim.truth.labels.bots[0] as string;
    const times = events.filter((e): e is Swap => e.type === 'swap' && e.trader === bot).map((e) => e.timestamp);
    let best = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] as number) - (times[j] as number) >= 60) j++;
      best = Math.max(best, i - j + 1);
    }
    expect(best).toBeGreaterThanOrEqual(4);
  });

  it('insiders are funded in WETH by the deployer shortly before buying in the pool-creation block', () => {
    for (const t of sim.truth.tokens) {
      const created = events.find((e) => e.type === 'pool_created' && e.token === t.address);
      for (const ins of t.insiders) {
        const funding = events.find((e) => e.type === 'transfer' && e.token === sim.truth.weth && e.to === ins);
        expect(funding).toMatchObject({ from: t.deployer });
        const firstBuy = (swapsOf.get(t.address) ?? []).find((s) => s.trader === ins);
        expect(firstBuy?.block).toBe(created?.block);
        expect((created?.timestamp ?? 0) - (funding?.timestamp ?? 0)).toBeLessThanOrEqual(HOUR);
        expect((created?.timestamp ?? 0) - (funding?.timestamp ?? 0)).toBeGreaterThan(0);
      }
      for (const s of t.snipers) {
        const first = (swapsOf.get(t.address) ?? []).find((x) => x.trader === s);
        expect((first?.block ?? Infinity) - (created?.block ?? 0)).toBeGreaterThanOrEqual(1);
        expect((first?.block ?? Infinity) - (created?.block ?? 0)).toBeLessThanOrEqual(3);
      }
    }
  });
});

describe('the eval\'s extra stories', () => {
  it('drain: the deployer removes its liquidity in eight steps over hours, none of them half the pool, and the pool ends under half its high', () => {
    const sim = createSimulator({ seed: 7, genesisTime: G, tokens: 18, stories: ['organic', 'drain'] });
    const drains = sim.truth.tokens.filter((t) => t.story === 'drain');
    expect(drains.length).toBe(9);
    expect(sim.truth.labels.rug).toEqual(expect.arrayContaining(drains.map((t) => t.address)));
    const removals = new Map<string, { ts: number; usd: number }[]>();
    const liquidity = new Map<string, { ts: number; usd: number }[]>();
    for (const b of sim.blocksUntil(G + 10 * DAY)) {
      for (const e of b.events) {
        if (e.type === 'liquidity' && e.action === 'remove') removals.set(e.token, [...(removals.get(e.token) ?? []), { ts: e.timestamp, usd: e.usd }]);
        if (e.type === 'sync') liquidity.set(e.token, [...(liquidity.get(e.token) ?? []), { ts: e.timestamp, usd: e.liquidityUsd }]);
      }
    }
    for (const t of drains) {
      const r = removals.get(t.address) ?? [];
      if ((t.rugAt as number) > G + 9 * DAY) continue; // its drain runs past the span
      expect(r).toHaveLength(8);
      expect((r[7] as { ts: number }).ts - (r[0] as { ts: number }).ts).toBeGreaterThan(3 * HOUR);
      const syncs = liquidity.get(t.address) ?? [];
      const before = (ts: number) => [...syncs].reverse().find((s) => s.ts < ts)?.usd ?? 0;
      for (const x of r) expect(x.usd).toBeLessThan(0.5 * before(x.ts));
      const high = Math.max(...syncs.filter((s) => s.ts <= (r[0] as { ts: number }).ts).map((s) => s.usd));
      expect(before((r[7] as { ts: number }).ts + 60)).toBeLessThan(0.5 * high);
    }
  });

  it('latetax: sells go through untaxed until the tax goes on, then every seller but the deployer loses its share to the contract', () => {
    const sim = createSimulator({ seed: 11, genesisTime: G, tokens: 12, stories: ['organic', 'latetax'] });
    const taxed = sim.truth.tokens.filter((t) => t.story === 'latetax');
    expect(taxed.length).toBe(6);
    expect(sim.truth.labels.honeypot).toEqual(expect.arrayContaining(taxed.map((t) => t.address)));
    const byTx = new Map<string, { token: string; ts: number; from: string; to: string; amount: number }[]>();
    const sells: { tx: string; token: string; trader: string; ts: number }[] = [];
    for (const b of sim.blocksUntil(G + 10 * DAY)) {
      for (const e of b.events) {
        if (e.type === 'transfer') byTx.set(e.tx, [...(byTx.get(e.tx) ?? []), { token: e.token, ts: e.timestamp, from: e.from, to: e.to, amount: e.amount }]);
        if (e.type === 'swap' && e.side === 'sell') sells.push({ tx: e.tx, token: e.token, trader: e.trader, ts: e.timestamp });
      }
    }
    const plan = new Map(taxed.map((t) => [t.address, t]));
    let before = 0;
    let after = 0;
    for (const s of sells) {
      const t = plan.get(s.token);
      if (!t) continue;
      const legs = (byTx.get(s.tx) ?? []).filter((l) => l.token === s.token && l.from === s.trader);
      const toContract = legs.filter((l) => l.to === s.token).reduce((a, l) => a + l.amount, 0);
      const sent = legs.reduce((a, l) => a + l.amount, 0);
      if (s.ts < (t.taxAt as number) || s.trader === t.deployer) {
        expect(toContract).toBe(0);
        before++;
      } else {
        expect(toContract / sent).toBeGreaterThanOrEqual(0.3 - 1e-9);
        expect(toContract / sent).toBeLessThanOrEqual(0.9 + 1e-9);
        after++;
      }
    }
    expect(before).toBeGreaterThan(20);
    expect(after).toBeGreaterThan(20);
  });
});
