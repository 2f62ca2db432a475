import { describe, expect, it } from 'vitest';
import type { TokenEvent } from '../../schemas/events.ts';
import { TokenSnapshot } from '../../schemas/token.ts';
import { deriveTokenSnapshot } from './derive.ts';
import { foldTokenEvents, initialTokenState } from './state.ts';
import { Market, addr, organicMarket } from './testkit.ts';

/** the snapshot after folding every market's events, oldest first (a second pool continues the first's clock) */
function snap(...markets: Market[]): TokenSnapshot {
  const m = markets[0] as Market;
  const events: TokenEvent[] = markets.flatMap((x) => x.events).sort((a, b) => a.timestamp - b.timestamp || a.block - b.block || a.logIndex - b.logIndex);
  return TokenSnapshot.parse(deriveTokenSnapshot(foldTokenEvents(initialTokenState(m.chain, m.token), events)));
}

/** outside wallets pump the pool for hours, then sell all they bought in a panic within minutes: no LP leaves */
function crash(m: Market, sellers: number, usdEach: number): void {
  const wallets = Array.from({ length: sellers }, (_, i) => addr(70_000 + i));
  const held = wallets.map((w) => m.advance(300).buy(w, usdEach).amountToken);
  m.advance(3600);
  wallets.forEach((w, i) => m.advance(20).sell(w, (held[i] as number) * m.price));
}

describe('a price crash with the liquidity in place', () => {
  it('is a warning that says so, never a rug: outside sellers took the value out, nobody removed liquidity', () => {
    const m = organicMarket(4);
    crash(m, 60, 4000);
    const s = snap(m);
    expect(s.risk.signals.largestLiquidityDropPct).toBeGreaterThan(50);
    expect(s.risk.flags.rug).toMatchObject({ flagged: false, severity: 'warning' });
    expect(s.risk.flags.rug.reason).toMatch(/price crash/);
  });

  it('attacker: the deployer dumps its own supply into the pool to the same effect: red, a dump', () => {
    const m = new Market().launch(100_000, 0.3);
    for (let i = 0; i < 30; i++) m.advance(300).buy(addr(80_000 + i), 300);
    m.advance(600).sell(m.deployer, 90_000);
    const s = snap(m);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/deployer side sold/);
  });

  it('attacker: the deployer hands its supply to a fresh wallet that dumps it: still the deployer side, red', () => {
    const m = new Market().launch(100_000, 0.3);
    for (let i = 0; i < 30; i++) m.advance(300).buy(addr(80_000 + i), 300);
    const fresh = addr('fresh-dumper');
    m.advance(60).transfer(m.deployer, fresh, 600_000);
    m.advance(600).sell(fresh, 90_000);
    expect(snap(m).risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
  });
});

describe('liquidity moved to another pool of the token', () => {
  /** the deployer pulls the pool; `by` puts `share` of it in a new pool `afterSec` later */
  function migrate(share: number, by?: string, afterSec = 120): { m: Market; p2: Market } {
    const m = organicMarket(4);
    const before = 2 * m.rq;
    const tokens = m.rt;
    m.advance(60).removeLiquidity(m.deployer, 1, true);
    const p2 = m.secondPool(addr('pool-v2'));
    p2.advance(afterSec).addLiquidity(by ?? m.deployer, before * share, tokens * share);
    return { m, p2 };
  }

  it('is a migration: the rug flag says so and stays down', () => {
    const { m, p2 } = migrate(1);
    const s = snap(m, p2);
    expect(s.risk.flags.rug.reason).toMatch(/migration/);
    expect(s.risk.flags.rug).toMatchObject({ flagged: false, severity: 'none' });
    expect(s.risk.flags.rug.reason).toMatch(/migration/);
  });

  it('attacker: pulls the pool and puts back a fraction elsewhere: a pull, red', () => {
    const { m, p2 } = migrate(0.3);
    expect(snap(m, p2).risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
  });

  it('attacker: migrates, then pulls the new pool: red', () => {
    const { m, p2 } = migrate(1);
    p2.advance(3600).removeLiquidity(m.deployer, 0.95, true);
    expect(snap(m, p2).risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
  });

  it('attacker: pulls the pool and another wallet fills a new pool with as much: not the liquidity the deployer took, a pull, red', () => {
    const { m, p2 } = migrate(1, addr('stand-in'));
    const s = snap(m, p2);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/pulled by the deployer/);
  });

  it('attacker: pulls the pool and puts the liquidity back in a new pool only a day later: holders had nowhere to sell, a pull, red', () => {
    const { m, p2 } = migrate(1, undefined, 26 * 3600);
    expect(snap(m, p2).risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
  });
});

describe('a drain too slow for the windowed rules', () => {
  /** the deployer takes `share` of the pool every `everyH` hours, `times` times, while outsiders trade */
  function drained(share: number, everyH: number, times: number, remover?: string): Market {
    const m = organicMarket(2);
    const rnd = Market.rng(11);
    for (let i = 0; i < times; i++) {
      for (let j = 0; j < everyH; j++) m.advance(3600).buy(addr(90_000 + Math.floor(rnd() * 50)), 200);
      m.removeLiquidity(remover ?? m.deployer, share, true);
    }
    return m;
  }

  it('a few percent every few hours for days: no fall within a window or a day, yet red once the deployer side took half', () => {
    const m = drained(0.04, 4, 24);
    const s = snap(m);
    // no windowed fall: every drop recorded stays under half (the old rules said nothing red)
    expect(s.risk.signals.largestLiquidityDropPct).toBeLessThan(50);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/slow drain/);
    expect(s.risk.flags.rug.reason).toMatch(/24 removals over 3\.8 days/);
    expect(s.verdict).toBe('avoid');
  });

  it('half way there it warns', () => {
    expect(snap(drained(0.04, 4, 9)).risk.flags.rug).toMatchObject({ flagged: false, severity: 'warning' });
  });

  it('attacker: the LP tokens are moved to a wallet that never supplied liquidity and drained from there: still the deployer side', () => {
    const s = snap(drained(0.04, 4, 24, addr('lp-holder')));
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
  });

  it('an outside provider that supplied and then withdrew its own liquidity is not the deployer side', () => {
    const m = organicMarket(2);
    const lp = addr('outside-lp');
    m.advance(60).addLiquidity(lp, 200_000, m.rt);
    for (let i = 0; i < 8; i++) m.advance(4 * 3600).removeLiquidity(lp, 0.1, true);
    expect(snap(m).risk.flags.rug.severity).toBe('none');
  });
});

describe('the Uniswap V2 order of logs: the Sync before the Burn', () => {
  it('counts the removal in the fall it completed: a pull, red', () => {
    const m = organicMarket(4);
    m.advance(60).removeLiquidity(m.deployer, 0.9, true);
    const s = snap(m);
    expect(s.risk.flags.rug).toMatchObject({ flagged: true, severity: 'red' });
    expect(s.risk.flags.rug.reason).toMatch(/pulled by the deployer/);
  });
});

describe('the deployer side of the liquidity', () => {
  it('attacker: the deployer creates the pool and a fresh wallet supplies all its liquidity while the deployer keeps most of the supply: the liquidity is the deployer side\u2019s, a pre-rug setup', () => {
    const m = new Market().launch(100_000, 0.3);
    const FRESH = addr(90_001);
    for (const e of m.events) if (e.type === 'liquidity') e.provider = FRESH;
    for (let i = 0; i < 10; i++) m.advance(300).buy(addr(91_000 + i), 200);
    const s = snap(m);
    expect(s.risk.signals.deployerLiquiditySharePct).toBe(100);
    expect(s.risk.flags.rug).toMatchObject({ severity: 'warning' });
    expect(s.risk.flags.rug.reason).toMatch(/pre-rug/);
  });
});

describe('the deployer side of the liquidity: more than the first provider', () => {
  it('attacker: the deployer adds a dust of liquidity first, a fresh wallet the bulk two blocks later: both are deployer side, a pre-rug setup', () => {
    const m = new Market().launch(100, 0.001);
    const FRESH = addr(90_002);
    m.advance(24).addLiquidity(FRESH, 100_000, 300_000);
    for (let i = 0; i < 10; i++) m.advance(300).buy(addr(92_000 + i), 200);
    const s = snap(m);
    expect(s.risk.signals.deployerLiquiditySharePct).toBe(100);
    expect(s.risk.flags.rug.reason).toMatch(/pre-rug/);
  });
});
