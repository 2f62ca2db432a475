import { describe, expect, it } from 'vitest';
import type { TokenEvent } from '../../schemas/events.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import { Market, addr } from '../token/testkit.ts';
import { foldTokenEvent, initialTokenState } from '../token/state.ts';
import type { TokenState } from '../token/state.ts';
import { foldWalletMessage, walletMessagesOf } from '../rekey.ts';
import { FUNDING_HUB_FANOUT, createFundingTable } from '../tables.ts';
import type { FundingTable } from '../tables.ts';
import { deriveWalletSnapshot } from './derive.ts';
import { initialWalletState } from './state.ts';
import type { WalletState } from './state.ts';
import { clusterOf } from './cluster.ts';

/**
 * Clusters and counterparties through the real folds: token events into token states, the wallet
 * messages the token worker re-keys (with the buyers each trade was against), the wallet states,
 * and the grade derived with the funding table's clusters.
 */

const T0 = 1_700_000_000 - (1_700_000_000 % 3600);
const MIN = 60;
const HOUR = 3600;

/** three tokens on one clock: each market's blocks follow its time (12 s a block) */
function markets(): Market[] {
  return ['AAA', 'BBB', 'CCC'].map((symbol, i) => {
    const m = new Market({ token: addr(`tok${i}`), pool: addr(`pool${i}`), deployer: addr(`dep${i}`), symbol, t0: T0 });
    m.launch(100_000);
    return m;
  });
}

function at(m: Market, ts: number): Market {
  m.advance(ts - m.ts);
  m.block = 1000 + Math.floor((ts - T0) / 12);
  return m;
}

/** the token and wallet folds over every market's events in time order; wallets derived with the funding table's clusters */
function grades(ms: Market[], funding: FundingTable): (wallet: string) => WalletSnapshot {
  const events: TokenEvent[] = ms.flatMap((m) => m.events).sort((a, b) => a.timestamp - b.timestamp || a.block - b.block || a.logIndex - b.logIndex);
  const tokens = new Map<string, TokenState>();
  const wallets = new Map<string, WalletState>();
  for (const e of events) {
    let s = tokens.get(e.token);
    if (!s) tokens.set(e.token, (s = initialTokenState(e.chain, e.token)));
    foldTokenEvent(s, e);
    for (const msg of walletMessagesOf(s, e)) {
      const w = msg.kind === 'swap' ? msg.swap.trader : msg.wallet;
      wallets.set(w, foldWalletMessage(wallets.get(w) ?? initialWalletState(e.chain, w), msg));
    }
  }
  return (w) => deriveWalletSnapshot(wallets.get(w) as WalletState, { inCluster: clusterOf(funding, 'sim', w) });
}

let position = 0;
function fund(f: FundingTable, funder: string, wallet: string): void {
  f.apply({ chain: 'sim', wallet, asset: addr('weth'), funder, position: ++position });
}

/** the quantity a trader holds of a market's token, from its swaps */
function held(m: Market, trader: string): number {
  let q = 0;
  for (const e of m.events) if (e.type === 'swap' && e.trader === trader) q += e.side === 'buy' ? e.amountToken : -e.amountToken;
  return q;
}

const sellAll = (m: Market, trader: string) => m.sell(trader, held(m, trader) * m.price);

const farm = [1, 2, 3, 4].map((i) => addr(`farm${i}`));
const loser = addr('loser');

/**
 * The farm's rounds, every 16 hours over eight days across three tokens: its wallets buy, the
 * loser buys big, they sell into its buy, the loser sells lower. `refresh`: each farm wallet buys
 * a crumb after the loser's buy, just before it sells (its previous trade is then after the loser's).
 */
function farmRounds(o: { refresh?: boolean; dust?: number } = {}): Market[] {
  const ms = markets();
  for (let r = 0; r < 12; r++) {
    const m = ms[r % 3] as Market;
    const t = T0 + HOUR + r * 16 * HOUR;
    at(m, t);
    for (const w of farm) m.buy(w, 500);
    at(m, t + 10 * MIN);
    m.buy(loser, 20_000);
    // outside buyers of a few dollars each: a crowd to hide the loser in
    for (let k = 0; k < (o.dust ?? 0); k++) m.buy(addr(`dust${k}`), 2);
    at(m, t + 15 * MIN);
    if (o.refresh) for (const w of farm) m.buy(w, 1);
    at(m, t + 20 * MIN);
    for (const w of farm) sellAll(m, w);
    at(m, t + 40 * MIN);
    sellAll(m, loser);
  }
  return ms;
}

/** the farm's funding: a funder, a hop, the farm below the hop and the loser through hops of its own */
function farmFunding(linked: boolean): FundingTable {
  const f = createFundingTable();
  const root = addr('farm-root');
  fund(f, root, addr('hop'));
  for (const w of farm) fund(f, addr('hop'), w);
  if (linked) {
    fund(f, root, addr('loser-hop'));
    fund(f, addr('loser-hop'), loser);
  } else fund(f, addr('stranger'), loser);
  return f;
}

describe('a sybil farm graded smart', () => {
  it('control: the same wins against a loser outside the farm grade the farm wallet mirror-worthy', () => {
    const g = grades(farmRounds(), farmFunding(false))(farm[0] as string);
    expect(g.grade, g.reasons.join('; ')).toBe('mirror-worthy');
  });

  it('attacker: wallets funded through hops win round trips against a loser of their own cluster: avoid, no edge', () => {
    const grade = grades(farmRounds(), farmFunding(true));
    for (const w of farm) {
      const g = grade(w);
      expect(g.grade, g.reasons.join('; ')).toBe('avoid');
      expect(g.reasons.join(' ')).toMatch(/won against wallets sharing its funders/);
      expect(g.sample.closedRoundTrips).toBe(0);
    }
    expect(grade(loser).grade).not.toBe('mirror-worthy');
  });

  it('attacker: a crumb bought after the loser, just before selling, does not hide the loser (the round trip keeps its buyers from its opening buy)', () => {
    const g = grades(farmRounds({ refresh: true }), farmFunding(true))(farm[1] as string);
    expect(g.grade, g.reasons.join('; ')).toBe('avoid');
  });

  it('attacker: twenty outside buyers of a few dollars beside the loser do not outweigh it', () => {
    const g = grades(farmRounds({ dust: 20 }), farmFunding(true))(farm[2] as string);
    expect(g.grade, g.reasons.join('; ')).toBe('avoid');
  });

  it('an exchange that funded thousands is no cluster: its customers trading against each other stay strangers', () => {
    const f = createFundingTable();
    const exchange = addr('exchange');
    for (let i = 0; i <= FUNDING_HUB_FANOUT; i++) fund(f, exchange, addr(`customer${i}`));
    expect(clusterOf(f, 'sim', addr('customer0'))(addr('customer1'))).toBe(false);
    // below the exchange, one customer's own wallets are its cluster
    fund(f, addr('customer0'), addr('alt'));
    expect(clusterOf(f, 'sim', addr('alt'))(addr('customer0'))).toBe(true);
    expect(clusterOf(f, 'sim', addr('alt'))(addr('customer1'))).toBe(false);
  });
});

const skilled = addr('skilled');
const crowd = [1, 2, 3].map((i) => addr(`crowd${i}`));

/** `n` round trips every 12 hours across three tokens: it buys, the crowd buys after it, it sells into their buys */
function skilledRounds(o: { n?: number; every?: number; loseLast?: boolean } = {}): Market[] {
  const ms = markets();
  const n = o.n ?? 6;
  for (let r = 0; r < n; r++) {
    const m = ms[r % 3] as Market;
    const t = T0 + HOUR + r * (o.every ?? 12 * HOUR);
    const lose = o.loseLast === true && r === n - 1;
    at(m, t);
    if (lose) m.buy(addr('whale'), 10_000);
    m.buy(skilled, 1000);
    at(m, t + 30 * MIN);
    // the losing round: a whale that bought before it dumps; otherwise the crowd buys after it
    if (lose) sellAll(m, addr('whale'));
    else for (const w of crowd) m.buy(w, 5000);
    at(m, t + 90 * MIN);
    sellAll(m, skilled);
    at(m, t + 3 * HOUR);
    for (const w of crowd) if (held(m, w) > 0) sellAll(m, w);
  }
  return ms;
}

describe('grades that find skill', () => {
  const strangers = () => {
    const f = createFundingTable();
    fund(f, addr('s-funder'), skilled);
    crowd.forEach((w, i) => fund(f, addr(`c-funder${i}`), w));
    return f;
  };

  it('a wallet that won every round trip on three tokens against outsiders is graded after six, its confidence stated', () => {
    const g = grades(skilledRounds(), strangers())(skilled);
    expect(g.sample.closedRoundTrips).toBe(6);
    expect(g.sample.met).toBe(true);
    expect(g.grade, g.reasons.join('; ')).toBe('mirror-worthy');
    expect(g.reasons[0]).toMatch(/^graded early, confidence low: won all 6 round trips on 3 tokens against outside counterparties/);
  });

  it('one losing round trip among them: unrated until the full sample', () => {
    const g = grades(skilledRounds({ n: 7, loseLast: true }), strangers())(skilled);
    expect(g.sample.closedRoundTrips).toBe(7);
    expect(g.pnlQuality.winRatePct).toBeCloseTo((6 / 7) * 100, 1);
    expect(g.grade, g.reasons.join('; ')).toBe('unrated');
  });

  it('six wins within one day are a streak, not a record: unrated', () => {
    const g = grades(skilledRounds({ every: 3 * HOUR }), strangers())(skilled);
    expect(g.grade, g.reasons.join('; ')).toBe('unrated');
  });

  it('attacker: the same six wins against a crowd it funded are no early grade: avoid', () => {
    const f = createFundingTable();
    fund(f, addr('s-funder'), skilled);
    for (const w of crowd) fund(f, skilled, w);
    const g = grades(skilledRounds(), f)(skilled);
    expect(g.grade, g.reasons.join('; ')).toBe('avoid');
  });
});
