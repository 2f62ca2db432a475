import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChainEvent, Hash, Hex40, type Swap, type Sync, type TokenEvent } from '../../schemas/events.ts';
import { createSimulator, type SimBlock } from './index.ts';

const G = 1_700_000_000;
const DAY = 86_400;

function generate(seed: number, until = G + 10 * DAY): SimBlock[] {
  return [...createSimulator({ seed, genesisTime: G }).blocksUntil(until)];
}

function digest(blocks: SimBlock[]): string {
  const h = createHash('sha256');
  for (const b of blocks) h.update(JSON.stringify(b));
  return h.digest('hex');
}

const blocks = generate(42);
const events = blocks.flatMap((b) => b.events);
const sim = createSimulator({ seed: 42, genesisTime: G });

describe('simulator: size and ground truth', () => {
  it('has >= 30 tokens, >= 500 wallets and 100k-400k events over 10 days', () => {
    expect(sim.truth.tokens.length).toBeGreaterThanOrEqual(30);
    expect(sim.truth.wallets.length).toBeGreaterThanOrEqual(500);
    expect(events.length).toBeGreaterThan(100_000);
    expect(events.length).toBeLessThan(400_000);
  });

  it('gives every story to several tokens, with symbols that do not name the story', () => {
    const stories = new Map<string, number>();
    for (const t of sim.truth.tokens) stories.set(t.story, (stories.get(t.story) ?? 0) + 1);
    for (const s of ['organic', 'accumulation', 'coil', 'rug', 'honeypot', 'whale', 'bleed', 'noise']) {
      expect(stories.get(s) ?? 0).toBeGreaterThanOrEqual(3);
    }
    const symbols = sim.truth.tokens.map((t) => t.symbol);
    expect(new Set(symbols).size).toBe(symbols.length);
    for (const s of symbols) expect(s).not.toMatch(/RUG|HONEY|WHALE|BLEED|COIL|PUMP/);
  });

  it('exports labels consistent with the per-token and per-wallet truth', () => {
    const { labels, tokens, wallets } = sim.truth;
    expect(labels.rug).toEqual(tokens.filter((t) => t.story === 'rug').map((t) => t.address));
    expect(labels.honeypot.length).toBeGreaterThanOrEqual(3);
    expect(labels.concentrated.length).toBeGreaterThanOrEqual(3);
    expect(labels.edge).toEqual(wallets.filter((w) => w.behaviour === 'edge').map((w) => w.address));
    expect(labels.bots.length).toBeGreaterThanOrEqual(10);
    for (const w of wallets) {
      expect(Hex40.safeParse(w.address).success).toBe(true);
      if (w.behaviour === 'insider') {
        const tk = tokens.find((t) => t.insiders.includes(w.address));
        expect(w.funder).toBe(tk?.deployer);
      }
    }
    expect(new Set(wallets.map((w) => w.address)).size).toBe(wallets.length);
    expect(JSON.parse(JSON.stringify(sim.truth))).toEqual(sim.truth);
  });

  it('spreads key moments over the span, some in the last two days', () => {
    const moments = sim.truth.tokens.flatMap((t) => [t.breakoutAt, t.rugAt].filter((x): x is number => x !== undefined));
    expect(moments.some((t) => t < G + 5 * DAY)).toBe(true);
    expect(moments.filter((t) => t >= G + 8 * DAY && t < G + 10 * DAY).length).toBeGreaterThanOrEqual(2);
    for (const t of moments) expect(t).toBeLessThan(G + 10 * DAY);
  });
});

describe('simulator: options', () => {
  it('honours tokens, wallets, span, block time and chain', () => {
    const small = createSimulator({ seed: 5, genesisTime: G, tokens: 8, wallets: 60, spanDays: 2, blockTimeSec: 6, chain: 'sim-test' });
    expect(small.truth.tokens.length).toBe(8);
    expect(new Set(small.truth.tokens.map((t) => t.story)).size).toBe(8);
    expect(small.truth.spanSec).toBe(2 * DAY);
    for (const t of small.truth.tokens) expect(t.createdAt).toBeLessThan(G + 2 * DAY);
    const out = [...small.blocksUntil(G + 2 * DAY)];
    expect(out.length).toBeGreaterThan(100);
    for (const b of out) {
      expect((b.timestamp - G) % 6).toBe(0);
      for (const e of b.events) expect(e.chain).toBe('sim-test');
    }
    expect(small.block).toBe((2 * DAY) / 6);
  });

  it('rejects a non-numeric seed and a fractional block time', () => {
    expect(() => createSimulator({ seed: Number.NaN, genesisTime: G })).toThrow();
    expect(() => createSimulator({ seed: 1, genesisTime: G, blockTimeSec: 1.5 })).toThrow();
  });
});

describe('simulator: determinism', () => {
  it('same seed and options give byte-identical events', { timeout: 60_000 }, () => {
    expect(digest(generate(42))).toBe(digest(blocks));
  });

  it('a different seed gives different events and addresses', () => {
    const other = createSimulator({ seed: 43, genesisTime: G });
    expect(other.truth.tokens[0]?.address).not.toBe(sim.truth.tokens[0]?.address);
    expect(digest([...other.blocksUntil(G + DAY)])).not.toBe(digest(blocks.filter((b) => b.timestamp <= G + DAY)));
  });

  it('blocksUntil continues where it stopped: chunked generation equals one pass', () => {
    const s = createSimulator({ seed: 42, genesisTime: G });
    const chunked: SimBlock[] = [];
    for (let t = G + 7_777; t <= G + 2 * DAY; t += 7_777) chunked.push(...s.blocksUntil(t));
    chunked.push(...s.blocksUntil(G + 2 * DAY));
    expect(digest(chunked)).toBe(digest(blocks.filter((b) => b.timestamp <= G + 2 * DAY)));
  });
});

describe('simulator: event validity', () => {
  it('every event parses with the zod schemas, on chain sim', () => {
    const bad: string[] = [];
    for (const e of events) {
      const r = ChainEvent.safeParse(e);
      if (!r.success) bad.push(`${JSON.stringify(e)}: ${r.error.message}`);
      else if (e.chain !== 'sim') bad.push(`chain ${e.chain}`);
    }
    expect(bad.slice(0, 3)).toEqual([]);
  });

  it('blocks have increasing numbers, grid timestamps and unique hashes; tx hashes are valid', () => {
    const bad: string[] = [];
    let prev = 0;
    const blockHashes = new Set<string>();
    const hashRe = /^0x[0-9a-f]{64}$/;
    for (const b of blocks) {
      if (b.block <= prev) bad.push(`block ${b.block} after ${prev}`);
      if (b.timestamp !== G + b.block * 12) bad.push(`block ${b.block} timestamp ${b.timestamp}`);
      if (!hashRe.test(b.blockHash)) bad.push(`block hash ${b.blockHash}`);
      blockHashes.add(b.blockHash);
      prev = b.block;
      b.events.forEach((e, i) => {
        if (e.block !== b.block || e.blockHash !== b.blockHash || e.timestamp !== b.timestamp || e.logIndex !== i) {
          bad.push(`origin of ${JSON.stringify(e)}`);
        }
      });
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(Hash.safeParse(blocks[0]?.blockHash).success).toBe(true);
    expect(blockHashes.size).toBe(blocks.length);
    // a tx hash never spans two blocks
    const txBlock = new Map<string, number>();
    for (const e of events) {
      const seen = txBlock.get(e.tx);
      if (seen !== undefined && seen !== e.block) bad.push(`tx ${e.tx} in blocks ${seen} and ${e.block}`);
      txBlock.set(e.tx, e.block);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(txBlock.size).toBeGreaterThan(events.length / 4);
  });

  it('per token: pool_created comes first, then events in (block, logIndex) order', () => {
    const bad: string[] = [];
    const last = new Map<string, number>();
    const created = new Set<string>();
    for (const e of events) {
      if (e.token === sim.truth.weth) continue;
      if (e.type === 'pool_created') {
        if (created.has(e.token)) bad.push(`second pool_created for ${e.token}`);
        created.add(e.token);
      } else if (!created.has(e.token)) {
        bad.push(`${e.type} before pool_created for ${e.token}`);
      }
      const pos = e.block * 100_000 + e.logIndex;
      if (pos <= (last.get(e.token) ?? -1)) bad.push(`out of order: ${e.token} at ${e.block}/${e.logIndex}`);
      last.set(e.token, pos);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(created.size).toBe(sim.truth.tokens.length);
  });

  it('token pools are constant-product: syncs match swaps and liquidity changes, fee included', () => {
    const reserves = new Map<string, { t: number; q: number }>();
    const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-30);
    const bad: string[] = [];
    let pendingSync: Sync | undefined;
    let checked = 0;
    for (const e of events) {
      if (e.type === 'sync') {
        pendingSync = e;
        continue;
      }
      if (e.type !== 'swap' && e.type !== 'liquidity') continue;
      const sync = pendingSync as Sync;
      const check = (ok: boolean, what: string): void => {
        if (!ok) bad.push(`${what}: ${JSON.stringify(e)}`);
      };
      check(sync.tx === e.tx, 'sync in the same tx');
      const before = reserves.get(e.token) ?? { t: 0, q: 0 };
      if (e.type === 'swap') {
        const s: Swap = e;
        const dt = s.side === 'buy' ? -s.amountToken : s.amountToken;
        const dq = s.side === 'buy' ? s.amountQuote : -s.amountQuote;
        check(close(sync.reserveToken, before.t + dt), 'token reserve');
        check(close(sync.reserveQuote, before.q + dq), 'quote reserve');
        // Uniswap V2 output with a 0.3% fee
        const out = s.side === 'buy'
          ? (before.t * s.amountQuote * 0.997) / (before.q + s.amountQuote * 0.997)
          : (before.q * s.amountToken * 0.997) / (before.t + s.amountToken * 0.997);
        check(close(s.side === 'buy' ? s.amountToken : s.amountQuote, out), 'constant-product output');
        check(sync.reserveToken * sync.reserveQuote >= before.t * before.q * (1 - 1e-12), 'k never shrinks on a swap');
        const weth = sim.wethUsdAt(s.timestamp);
        check(close(s.priceUsd, (sync.reserveQuote / sync.reserveToken) * weth), 'priceUsd after the swap');
        check(close(s.usd, s.amountQuote * weth), 'usd = amountQuote * wethUsd');
        checked++;
      } else {
        const sign = e.action === 'add' ? 1 : -1;
        check(close(sync.reserveToken, before.t + sign * e.amountToken), 'liquidity token reserve');
        check(close(sync.reserveQuote, before.q + sign * e.amountQuote), 'liquidity quote reserve');
        if (before.t > 0) check(close(sync.reserveQuote / sync.reserveToken, before.q / before.t), 'liquidity keeps the price');
      }
      reserves.set(e.token, { t: sync.reserveToken, q: sync.reserveQuote });
      pendingSync = undefined;
    }
    expect(bad.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(50_000);
  });

  it('every swap moves tokens by a transfer in the same tx, and balances never go negative', () => {
    const byTx = new Map<string, TokenEvent[]>();
    for (const e of events) {
      const list = byTx.get(e.tx) ?? [];
      list.push(e);
      byTx.set(e.tx, list);
    }
    const bad: string[] = [];
    const pools = new Map(sim.truth.tokens.map((t) => [t.address, t.pool]));
    for (const e of events) {
      if (e.type !== 'swap') continue;
      const tr = (byTx.get(e.tx) ?? []).find((x) => x.type === 'transfer');
      const [from, to] = e.side === 'buy' ? [pools.get(e.token), e.trader] : [e.trader, pools.get(e.token)];
      if (tr?.type !== 'transfer' || tr.token !== e.token || tr.from !== from || tr.to !== to || tr.amount !== e.amountToken) {
        bad.push(`swap without its transfer: ${JSON.stringify(e)}`);
      }
    }
    const supply = new Map(sim.truth.tokens.map((t) => [t.address, t.totalSupply]));
    const bal = new Map<string, number>();
    for (const e of events) {
      if (e.type !== 'transfer' || e.token === sim.truth.weth) continue;
      const k = `${e.token}:${e.from}`;
      const next = (bal.get(k) ?? 0) - e.amount;
      if (e.from !== sim.truth.zero && next < -1e-9 * (supply.get(e.token) ?? 1)) bad.push(`negative balance ${k}`);
      bal.set(k, next);
      bal.set(`${e.token}:${e.to}`, (bal.get(`${e.token}:${e.to}`) ?? 0) + e.amount);
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it('mints the supply from the zero address, burns to 0x…dead and funds wallets with WETH', () => {
    for (const t of sim.truth.tokens) {
      const mint = events.find((e) => e.type === 'transfer' && e.token === t.address && e.from === sim.truth.zero);
      expect(mint).toMatchObject({ to: t.deployer, amount: t.totalSupply });
    }
    expect(events.some((e) => e.type === 'transfer' && e.to === sim.truth.dead)).toBe(true);
    const funded = new Set(events.filter((e) => e.type === 'transfer' && e.token === sim.truth.weth).map((e) => (e.type === 'transfer' ? e.to : '')));
    for (const w of sim.truth.wallets) if (w.funder !== null && w.behaviour !== 'retail') expect(funded.has(w.address)).toBe(true);
  });
});

describe('the eval crowds', () => {
  it("a sybil farm is labelled, paid from one root through hops as its loser is; skilled wallets are labelled; the stories' wallets are unchanged", () => {
    const plain = createSimulator({ seed: 7, genesisTime: 1_700_000_000, spanDays: 10 });
    const sim = createSimulator({ seed: 7, genesisTime: 1_700_000_000, spanDays: 10, crowds: ['sybil', 'skilled'] });
    const { wallets, labels } = sim.truth;
    expect(wallets.slice(0, plain.truth.wallets.length)).toEqual(plain.truth.wallets);
    expect(labels.farm.length).toBeGreaterThanOrEqual(3);
    expect(labels.skilled).toHaveLength(1);
    const funderOf = new Map(wallets.map((w) => [w.address, w.funder]));
    const rootOf = (w: string) => funderOf.get(funderOf.get(w) ?? '') ?? null;
    const loser = wallets.find((w) => w.behaviour === 'farmLoser')?.address as string;
    for (const f of labels.farm) expect(rootOf(f)).toBe(rootOf(loser));
    expect(funderOf.get(labels.farm[0] as string)).not.toBe(funderOf.get(loser));
    // funded, they trade: the farm and its loser on the same tokens
    const traded = new Map<string, Set<string>>();
    for (const b of sim.blocksUntil(1_700_000_000 + 10 * 86_400))
      for (const e of b.events) if (e.type === 'swap') (traded.get(e.trader) ?? traded.set(e.trader, new Set()).get(e.trader))?.add(e.token);
    for (const f of [...labels.farm, ...labels.skilled]) expect(traded.get(f)?.size ?? 0).toBeGreaterThanOrEqual(3);
    for (const t of traded.get(labels.farm[0] as string) ?? []) expect(traded.get(loser)?.has(t)).toBe(true);
  }, 60_000);
});
