import { describe, expect, it } from 'vitest';
import type { TokenEvent } from '../../schemas/events.ts';
import { deriveTokenSnapshot } from './derive.ts';
import {
  DEAD_ADDRESS,
  ZERO_ADDRESS,
  foldTokenEvent,
  foldTokenEvents,
  initialTokenState,
  LIMITS,
} from './state.ts';
import type { TokenState } from './state.ts';
import { Market, addr, organicMarket } from './testkit.ts';

function fold(m: Market, events: readonly TokenEvent[] = m.events): TokenState {
  return foldTokenEvents(initialTokenState(m.chain, m.token), events);
}
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const retraction = (e: TokenEvent): TokenEvent => ({ ...e, removed: true });

describe('foldTokenEvent: each event type', () => {
  it('pool_created sets the metadata', () => {
    const m = new Market({ symbol: 'ABC', supply: 5_000 }).launch();
    const s = fold(m);
    expect(s.meta).toMatchObject({
      symbol: 'ABC',
      deployer: m.deployer,
      pool: m.pool,
      totalSupply: 5_000,
      createdAt: m.ts,
      createdBlock: m.block,
      quote: 'WETH',
    });
  });

  it('swap fills the minute and hour buckets, trader records, last price and recent buyers', () => {
    const m = new Market().launch();
    const [a, b] = [addr(1), addr(2)];
    m.advance(60);
    m.buy(a, 500);
    m.advance(12);
    m.buy(b, 300);
    m.advance(12);
    m.buy(a, 200);
    m.advance(12);
    m.sell(b, 100);
    const s = fold(m);
    expect(s.swaps).toBe(4);
    const minute = s.minutes[s.minutes.length - 1]!;
    expect(minute.buys).toBe(3);
    expect(minute.sells).toBe(1);
    expect(minute.buyVol).toBeCloseTo(1000);
    expect(minute.newBuyers).toBe(2);
    // distinct buyers and sellers of a window, from the trader records' last trades
    expect(s.traders[a]!.lastBuy!.ts).toBe(m.ts - 12);
    expect(s.traders[b]!.lastSellTs).toBe(m.ts);
    expect(deriveTokenSnapshot(s).activity.m5).toMatchObject({ buys: 3, sells: 1, buyers: 2, sellers: 1 });
    expect(minute.c).toBeCloseTo(m.price);
    expect(minute.h).toBeGreaterThanOrEqual(minute.l);
    const hour = s.hours[s.hours.length - 1]!;
    expect(hour.buys).toBe(3);
    expect(s.price).toBeCloseTo(m.price);
    expect(s.traders[a]).toMatchObject({ buys: 2, sells: 0 });
    expect(s.traders[b]).toMatchObject({ buys: 1, sells: 1 });
    // newest first, distinct
    expect(s.recentBuyers.map((x) => x.wallet)).toEqual([a, b]);
    expect(s.recentBuyers[0]!.usd).toBe(200);
  });

  it('transfers keep holder balances, excluding pool, zero and dead addresses', () => {
    const m = new Market().launch(100_000, 0.5);
    m.transfer(m.deployer, addr(5), 1_000);
    m.transfer(addr(5), DEAD_ADDRESS, 400);
    m.transfer(addr(5), addr(6), 600);
    const s = fold(m);
    expect(s.holders.balances[m.pool]).toBeUndefined();
    expect(s.holders.balances[ZERO_ADDRESS]).toBeUndefined();
    expect(s.holders.balances[DEAD_ADDRESS]).toBeUndefined();
    expect(s.holders.balances[addr(5)]).toBeUndefined(); // emptied
    expect(s.holders.balances[addr(6)]).toBe(600);
    expect(s.holders.count).toBe(2); // deployer and addr(6)
    expect(s.holders.burned).toBe(400);
    expect(s.holders.poolBalance).toBe(500_000);
    // tokens from the deployer mark an insider
    expect(s.insiders[addr(5)]).toBeDefined();
  });

  it('sync sets reserves and liquidity with history; liquidity events track providers and removals', () => {
    const m = new Market().launch(100_000);
    m.advance(60).removeLiquidity(m.deployer, 0.25);
    const s = fold(m);
    expect(s.liquidity.usd).toBeCloseTo(75_000);
    expect(s.liquidity.reserveToken).toBeCloseTo(m.rt);
    expect(s.liquidity.peakUsd).toBeCloseTo(100_000);
    expect(s.liquidity.history).toHaveLength(2);
    expect(s.liquidity.providers[m.deployer]).toBeCloseTo(75_000);
    expect(s.liquidity.removals).toHaveLength(1);
    expect(s.liquidity.drops).toHaveLength(0); // a quarter is not a large drop
  });

  it('records a large liquidity drop and who removed it', () => {
    const m = new Market().launch(100_000);
    m.advance(120).removeLiquidity(m.deployer, 0.9);
    const s = fold(m);
    expect(s.liquidity.drops).toHaveLength(1);
    expect(s.liquidity.drops[0]!.removedBy).toEqual([m.deployer]);
    expect(s.liquidity.drops[0]!.toUsd / s.liquidity.drops[0]!.fromUsd).toBeCloseTo(0.1);
  });

  it('ignores events of another token', () => {
    const m = new Market().launch();
    const s = initialTokenState(m.chain, addr('other'));
    foldTokenEvents(s, m.events);
    expect(s).toEqual(initialTokenState(m.chain, addr('other')));
  });

  it('marks buyers in the pool-creation block as insiders and detects bots', () => {
    const m = new Market().launch();
    m.buy(addr(9), 1_000); // same block as the launch
    m.advance(60);
    const bot = addr(77);
    for (let i = 0; i < 6; i++) m.buy(bot, 50);
    m.sell(bot, 100); // same-block round trip
    const s = fold(m);
    expect(s.insiders[addr(9)]).toMatch(/pool-creation block/);
    expect(s.traders[bot]!.maxPerMinute).toBeGreaterThanOrEqual(7);
    expect(s.traders[bot]!.sameBlockRoundTrips).toBe(1);
  });

  it('measures a hidden transfer tax from the flows of a sell tx', () => {
    const m = new Market().launch();
    for (let i = 0; i < 40; i++) {
      m.advance(60);
      m.buy(addr(100 + i), 500);
      m.sell(addr(100 + i), 200, 0.4);
    }
    const s = fold(m);
    expect(s.tax.sell.samples).toBeGreaterThan(0);
    expect(s.tax.sell.sum / s.tax.sell.samples).toBeCloseTo(0.4, 5);
    expect(s.tax.buy.samples).toBeGreaterThan(0);
    expect(s.tax.buy.max).toBeCloseTo(0, 9);
  });
});

describe('idempotence', () => {
  it('an event delivered twice in a row changes nothing', () => {
    const m = organicMarket(3);
    const twice: TokenEvent[] = m.events.flatMap((e) => [e, e]);
    expect(fold(m, twice)).toEqual(fold(m));
  });

  it('redelivering the whole history after it was folded changes nothing', () => {
    const m = organicMarket(3);
    const s = fold(m);
    const before = clone(s);
    foldTokenEvents(s, m.events);
    expect(s).toEqual(before);
  });

  it('a redelivered last block (ties on position) is recognised by id', () => {
    const m = organicMarket(2);
    const s = fold(m);
    const before = clone(s);
    const last = m.events.filter((e) => e.block === m.block);
    expect(last.length).toBeGreaterThan(1);
    foldTokenEvents(s, last);
    expect(s).toEqual(before);
  });
});

describe('retractions', () => {
  it('folds out an orphaned block and accepts the new branch', () => {
    const m = organicMarket(2);
    const base = m.events.length;
    const keptState = fold(m);
    const kept = clone(keptState);
    // an orphaned block: a buy, a transfer, a sell
    m.advance(12);
    m.buy(addr(500), 5_000);
    m.transfer(m.deployer, addr(501), 10_000);
    m.sell(addr(10_000), 50);
    const orphan = m.events.slice(base);
    const s = foldTokenEvents(clone(kept), orphan);
    expect(s.swaps).toBe(kept.swaps + 2);
    // the reorg: retractions in reverse order
    foldTokenEvents(s, [...orphan].reverse().map(retraction));
    expect(s.swaps).toBe(kept.swaps);
    expect(s.holders.balances).toEqual(kept.holders.balances);
    expect(s.holders.count).toBe(kept.holders.count);
    expect(s.liquidity.usd).toBeCloseTo(kept.liquidity.usd!);
    expect(s.liquidity.reserveToken).toBeCloseTo(kept.liquidity.reserveToken!);
    expect(s.price).toBeCloseTo(kept.price!);
    expect(s.traders[addr(500)]).toBeUndefined();
    expect(s.recentBuyers).toEqual(kept.recentBuyers);
    const lastMinute = (x: TokenState) => x.minutes.filter((b) => b.n > 0).slice(-1)[0]!;
    expect(lastMinute(s)).toMatchObject({ n: lastMinute(kept).n, c: lastMinute(kept).c });
    const sum = (x: TokenState) => x.hours.reduce((a, b) => a + b.vol, 0);
    expect(sum(s)).toBeCloseTo(sum(kept));
    // a retraction delivered twice changes nothing more
    const after = clone(s);
    foldTokenEvents(s, orphan.map(retraction));
    expect(s).toEqual(after);
    // the new branch at the same heights is folded
    const replacement = orphan.find((e) => e.type === 'swap')!;
    const swapsBefore = s.swaps;
    const alt: TokenEvent = { ...replacement, blockHash: `0x${'ab'.repeat(32)}`, tx: `0x${'cd'.repeat(32)}` };
    foldTokenEvent(s, alt);
    expect(s.swaps).toBe(swapsBefore + 1);
    expect(s.lastPosition).toBeGreaterThan(kept.lastPosition);
  });

  it('a retraction of an event never folded is ignored', () => {
    const m = organicMarket(1);
    const s = fold(m);
    const before = clone(s);
    m.advance(12);
    const e = m.buy(addr(600), 100);
    foldTokenEvent(s, retraction(e));
    expect(s).toEqual(before);
  });

  it('a tx re-included one block later is folded even when it arrives before the old inclusion is retracted', () => {
    const m = organicMarket(2);
    const base = m.events.length;
    m.advance(12);
    m.buy(addr(700), 2_000);
    const old = m.events.slice(base);
    const moved = old.map((e) => ({ ...e, block: e.block + 1, timestamp: e.timestamp + 12, blockHash: `0x${'ef'.repeat(32)}` }));
    const s = fold(m);
    foldTokenEvents(s, moved);
    foldTokenEvents(s, [...old].reverse().map(retraction));
    const expected = foldTokenEvents(fold(m, m.events.slice(0, base)), moved);
    expect(s.swaps).toBe(expected.swaps);
    expect(s.traders[addr(700)]).toMatchObject({ buys: 1, buyUsd: 2_000 });
    expect(s.holders.balances).toEqual(expected.holders.balances);
    expect(s.liquidity.usd).toBeCloseTo(expected.liquidity.usd!);
    expect(deriveTokenSnapshot(s).activity).toEqual(deriveTokenSnapshot(expected).activity);
  });

  it('restores liquidity after a retracted removal', () => {
    const m = new Market().launch(100_000);
    const n = m.events.length;
    m.advance(60).removeLiquidity(m.deployer, 0.9);
    const s = fold(m);
    expect(s.liquidity.drops).toHaveLength(1);
    foldTokenEvents(s, m.events.slice(n).reverse().map(retraction));
    expect(s.liquidity.usd).toBeCloseTo(100_000);
    expect(s.liquidity.drops).toHaveLength(0);
    expect(s.liquidity.removals).toHaveLength(0);
    expect(s.liquidity.providers[m.deployer]).toBeCloseTo(100_000);
  });
});

describe('replay determinism', () => {
  it('the same events give deep-equal states and snapshots', () => {
    const m = organicMarket(26);
    const a = fold(m);
    const b = fold(m);
    expect(a).toEqual(b);
    expect(deriveTokenSnapshot(a)).toEqual(deriveTokenSnapshot(b));
  });

  it('a checkpoint (JSON round trip) in the middle changes nothing', () => {
    const m = organicMarket(26);
    const half = Math.floor(m.events.length / 2);
    const s1 = fold(m, m.events.slice(0, half));
    const restored = JSON.parse(JSON.stringify(s1)) as TokenState;
    foldTokenEvents(restored, m.events.slice(half));
    expect(deriveTokenSnapshot(restored)).toEqual(deriveTokenSnapshot(fold(m)));
  });

  it('state stays bounded: minutes for the last hour, 5-minute buckets for 6 h, 7 days of hours', () => {
    const m = organicMarket(8 * 24);
    const s = fold(m);
    const now = s.lastTs;
    const five = (t: number) => t - (t % 300);
    expect(s.minutesMergedUntil).toBe(five(now - 3600));
    const minutes = s.minutes.filter((b) => b.t >= s.minutesMergedUntil);
    const merged = s.minutes.filter((b) => b.t < s.minutesMergedUntil);
    expect(minutes.length).toBeGreaterThan(0);
    expect(minutes.length).toBeLessThanOrEqual(66);
    expect(merged.every((b) => b.t % 300 === 0)).toBe(true);
    // before the 72 five-minute bars derive reads, at most the carry buckets (last close, last liquidity)
    expect(merged.filter((b) => b.t < five(now) - 71 * 300).length).toBeLessThanOrEqual(2);
    expect(s.minutes.map((b) => b.t)).toEqual([...new Set(s.minutes.map((b) => b.t))].sort((a, b) => a - b));
    expect(s.hours.length).toBeLessThanOrEqual(169);
    expect(s.recent.pos.length).toBeLessThanOrEqual(512);
    expect(s.retracted.pos.length).toBeLessThanOrEqual(128);
    expect(s.recentBuyers.length).toBeLessThanOrEqual(200);
  });

  it('trader records stay bounded on a busy token; retired ones still count as derive reads them', () => {
    const m = new Market().launch(5_000_000);
    const bot = addr(50);
    m.advance(60);
    for (let i = 0; i < 6; i++) m.advance(5).buy(bot, 100); // 6 trades in one minute: a bot
    const n = LIMITS.traders + 700;
    let vol = 600;
    for (let i = 0; i < n; i++) {
      m.advance(100);
      const usd = 100 + (i % 50);
      m.buy(addr(1_000 + i), usd);
      vol += usd;
      if (i % 10 === 0) {
        m.advance(30).sell(addr(1_000 + i), usd / 2);
        vol += usd / 2;
      }
    }
    const s = fold(m);
    expect(s.retired.traders).toBeGreaterThan(0);
    expect(Object.keys(s.traders).length).toBe(s.traderCount);
    expect(s.traderCount).toBeLessThanOrEqual(LIMITS.traders);
    const snap = deriveTokenSnapshot(s);
    expect(snap.risk.signals.buyers).toBe(n + 1);
    expect(snap.risk.signals.nonInsiderSellers).toBe(Math.ceil(n / 10));
    expect(snap.organic.botWallets).toBe(1);
    expect(snap.organic.volumeSharePct).toBeCloseTo((100 * (vol - 600)) / vol, 0);
    // the 24 h windows still count every wallet active in them
    const since = s.lastTs - (s.lastTs % 3600) - 23 * 3600;
    const active = m.events.filter((e) => e.type === 'swap' && e.side === 'buy' && e.timestamp >= since);
    expect(snap.activity.h24.buyers).toBe(new Set(active.map((e) => (e as { trader: string }).trader)).size);
  });

  it('merged 5-minute buckets hold what the swaps of their minutes add up to', () => {
    const m = new Market().launch(200_000);
    const rnd = Market.rng(5);
    for (let i = 0; i < 400; i++) {
      m.advance(20 + Math.floor(rnd() * 40));
      if (rnd() < 0.55) m.buy(addr(100 + Math.floor(rnd() * 30)), 50 + Math.floor(rnd() * 2000));
      else m.sell(addr(100 + Math.floor(rnd() * 30)), 50 + Math.floor(rnd() * 1000));
    }
    const s = fold(m);
    const swaps = m.events.filter((e) => e.type === 'swap');
    for (const b of s.minutes.filter((x) => x.t < s.minutesMergedUntil && x.n > 0)) {
      const in5 = swaps.filter((e) => e.timestamp - (e.timestamp % 300) === b.t);
      expect(b.n).toBe(in5.length);
      expect(b.buys).toBe(in5.filter((e) => e.side === 'buy').length);
      expect(b.vol).toBeCloseTo(in5.reduce((a, e) => a + e.usd, 0), 6);
      expect(b.o).toBe(in5[0]!.priceUsd);
      expect(b.c).toBe(in5[in5.length - 1]!.priceUsd);
      expect(b.h).toBe(Math.max(...in5.map((e) => e.priceUsd)));
      expect(b.l).toBe(Math.min(...in5.map((e) => e.priceUsd)));
    }
    expect(s.minutes.filter((x) => x.t < s.minutesMergedUntil && x.n > 0).length).toBeGreaterThan(20);
  });

  it('batch boundaries and checkpoints do not matter: any split folds to the same state', () => {
    const m = organicMarket(10);
    const whole = fold(m);
    for (const cut of [1, 97, Math.floor(m.events.length / 3), m.events.length - 5]) {
      const first = JSON.parse(JSON.stringify(fold(m, m.events.slice(0, cut)))) as TokenState;
      expect(foldTokenEvents(first, m.events.slice(cut))).toEqual(whole);
    }
  });
});

describe('order within a block', () => {
  it('folds a block whose transfers arrive after its swap', () => {
    const m = new Market().launch();
    m.advance(60);
    const n = m.events.length;
    m.buy(addr(1), 500);
    const block = m.events.slice(n);
    const reordered = [...block.filter((e) => e.type === 'swap'), ...block.filter((e) => e.type !== 'swap')];
    const a = fold(m);
    const b = fold(m, [...m.events.slice(0, n), ...reordered]);
    expect(b.holders).toEqual(a.holders);
    expect(b.liquidity.usd).toBe(a.liquidity.usd);
    expect(b.swaps).toBe(a.swaps);
  });
});

describe('retraction property', () => {
  it('folding a suffix of blocks out restores the prefix (random cut points)', async () => {
    const fc = await import('fast-check');
    const m = organicMarket(4, 11);
    const blocks = [...new Set(m.events.map((e) => e.block))];
    const near = (a: number | null, b: number | null) => a === b || (a !== null && b !== null && Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)));
    fc.assert(
      fc.property(fc.integer({ min: Math.floor(blocks.length / 2), max: blocks.length - 1 }), (cut) => {
        const forkBlock = blocks[cut]!;
        const prefix = m.events.filter((e) => e.block < forkBlock);
        const suffix = m.events.filter((e) => e.block >= forkBlock);
        const expected = fold(m, prefix);
        const s = fold(m);
        foldTokenEvents(s, [...suffix].reverse().map(retraction));
        if (s.swaps !== expected.swaps || s.holders.count !== expected.holders.count) return false;
        for (const [w, v] of Object.entries(expected.holders.balances)) if (!near(s.holders.balances[w] ?? 0, v)) return false;
        if (!near(s.liquidity.usd, expected.liquidity.usd) || !near(s.price, expected.price)) return false;
        const vol = (x: TokenState) => x.hours.reduce((a, b) => a + b.vol, 0);
        return near(vol(s), vol(expected)) && JSON.stringify(s.recentBuyers) === JSON.stringify(expected.recentBuyers);
      }),
      { numRuns: 25, seed: 42 },
    );
  });
});

describe('a token with several pools', () => {
  it('liquidity is the sum of its pools: syncs of a small second pool between the first pool\'s are no drop; the second pool is no holder', () => {
    const m = new Market().launch(100_000);
    const pool2 = addr('p2');
    const second = (usd: number): TokenEvent[] => {
      const s = m.sync();
      m.events.pop();
      return [{ ...s, pool: pool2, liquidityUsd: usd, reserveQuote: usd / 2, reserveToken: 1_000 }];
    };
    m.advance(60);
    m.transfer(m.deployer, pool2, 1_000);
    m.events.push(...second(10_000));
    for (let i = 0; i < 5; i++) {
      m.advance(30);
      m.buy(addr(10 + i), 500);
      m.advance(30);
      m.events.push(...second(10_000 + i));
    }
    const s = fold(m);
    expect(s.liquidity.drops).toEqual([]);
    expect(s.liquidity.usd).toBeGreaterThan(100_000);
    expect(s.holders.balances[pool2]).toBeUndefined();
    expect(s.meta.pool).toBe(m.pool);
    expect(s.meta.pools).toEqual([pool2]);
    // a retraction of the second pool's last sync restores its previous value
    const last = m.events[m.events.length - 1] as TokenEvent;
    const before = s.liquidity.usd as number;
    foldTokenEvent(s, retraction(last));
    expect(s.liquidity.usd).toBeCloseTo(before - 1);
  });
});

describe('a drain over hours', () => {
  it('removals of a tenth every 40 minutes: no drop after two, a drop with its duration once the pool stands at half its high, red and naming the deployer', () => {
    const m = new Market().launch(100_000);
    m.buy(addr(1), 500);
    const after = (n: number): TokenState => {
      const mm = new Market().launch(100_000);
      mm.buy(addr(1), 500);
      for (let i = 0; i < n; i++) {
        mm.advance(2400);
        mm.removeLiquidity(mm.deployer, 0.1);
      }
      return fold(mm);
    };
    expect(after(2).liquidity.drops).toEqual([]);
    const s = after(8);
    expect(s.liquidity.drops).toHaveLength(1);
    const d = s.liquidity.drops[0]!;
    expect(d.toUsd / d.fromUsd).toBeLessThan(0.5);
    expect(d.overSec).toBeGreaterThanOrEqual(7 * 2400);
    expect(d.removedBy).toEqual([m.deployer]);
    expect(deriveTokenSnapshot(s).risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(deriveTokenSnapshot(s).risk.flags.rug.reason).toMatch(/over 5 h of removals, pulled by the deployer/);
  });
});
