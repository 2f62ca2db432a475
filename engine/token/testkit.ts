import type { Liquidity, PoolCreated, Swap, Sync, TokenEvent, Transfer } from '../../schemas/events.ts';

/**
 * Hand-made chain events for the token engine's tests: a constant-product pool priced in USD whose
 * trades emit the transfer, sync and swap logs of one tx, like a Uniswap V2 pair does.
 */

export function addr(n: number | string): string {
  const hex = typeof n === 'number' ? n.toString(16) : Buffer.from(n).toString('hex');
  return `0x${hex.padStart(40, '0').slice(-40)}`;
}

function hash(n: number): string {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

export interface MarketOptions {
  chain?: string;
  token?: string;
  pool?: string;
  deployer?: string;
  t0?: number;
  supply?: number;
  symbol?: string;
}

export class Market {
  readonly chain: string;
  readonly token: string;
  readonly pool: string;
  readonly deployer: string;
  readonly supply: number;
  readonly symbol: string;
  ts: number;
  block = 1000;
  private logIndex = 0;
  private txn = 0;
  /** pool reserves: tokens and USD on the quote side */
  rt = 0;
  rq = 0;
  readonly events: TokenEvent[] = [];

  constructor(o: MarketOptions = {}) {
    this.chain = o.chain ?? 'sim';
    this.token = o.token ?? addr('tok');
    this.pool = o.pool ?? addr('pool');
    this.deployer = o.deployer ?? addr('deployer');
    this.ts = o.t0 ?? 1_700_000_000 - (1_700_000_000 % 3600);
    this.supply = o.supply ?? 1_000_000;
    this.symbol = o.symbol ?? 'TEST';
  }

  get price(): number {
    return this.rt > 0 ? this.rq / this.rt : 0;
  }

  /** advance time; a new block every 12 s (at least one) */
  advance(seconds: number): this {
    this.ts += seconds;
    this.block += Math.max(1, Math.floor(seconds / 12));
    this.logIndex = 0;
    return this;
  }

  private origin(tx: string) {
    return { chain: this.chain, block: this.block, blockHash: hash(this.block), tx, logIndex: this.logIndex++, timestamp: this.ts };
  }

  private newTx(): string {
    return hash(1_000_000 + ++this.txn);
  }

  private emit<T extends TokenEvent>(e: T): T {
    this.events.push(e);
    return e;
  }

  /** pool creation, the deployer minting the supply, and the deployer adding `liqUsd` of liquidity with `poolShare` of supply */
  launch(liqUsd = 100_000, poolShare = 0.8): this {
    const tx = this.newTx();
    this.emit<PoolCreated>({
      ...this.origin(tx),
      type: 'pool_created',
      token: this.token,
      pool: this.pool,
      symbol: this.symbol,
      decimals: 18,
      quote: 'WETH',
      deployer: this.deployer,
      totalSupply: this.supply,
    });
    this.transfer(addr(0), this.deployer, this.supply, tx);
    this.transfer(this.deployer, this.pool, this.supply * poolShare, tx);
    this.rt = this.supply * poolShare;
    this.rq = liqUsd / 2;
    this.emit<Liquidity>({
      ...this.origin(tx),
      type: 'liquidity',
      token: this.token,
      pool: this.pool,
      provider: this.deployer,
      action: 'add',
      amountToken: this.rt,
      amountQuote: this.rq,
      usd: liqUsd,
    });
    this.sync(tx);
    return this;
  }

  transfer(from: string, to: string, amount: number, tx = this.newTx()): Transfer {
    return this.emit<Transfer>({ ...this.origin(tx), type: 'transfer', token: this.token, from, to, amount });
  }

  sync(tx = this.newTx()): Sync {
    return this.emit<Sync>({
      ...this.origin(tx),
      type: 'sync',
      token: this.token,
      pool: this.pool,
      reserveToken: this.rt,
      reserveQuote: this.rq,
      liquidityUsd: 2 * this.rq,
    });
  }

  /** a buy of `usd`: the pool sends tokens, syncs, and logs the swap */
  buy(trader: string, usd: number): Swap {
    const tx = this.newTx();
    const k = this.rt * this.rq;
    const rq = this.rq + usd;
    const out = this.rt - k / rq;
    this.rq = rq;
    this.rt -= out;
    this.transfer(this.pool, trader, out, tx);
    this.sync(tx);
    return this.swapEvent(tx, trader, 'buy', out, usd);
  }

  /** a sell worth `usd` at the current price; `tax` of the tokens sent goes to the deployer */
  sell(trader: string, usd: number, tax = 0): Swap {
    const tx = this.newTx();
    const sent = usd / this.price;
    const net = sent * (1 - tax);
    if (tax > 0) this.transfer(trader, this.deployer, sent - net, tx);
    this.transfer(trader, this.pool, net, tx);
    const k = this.rt * this.rq;
    const rt = this.rt + net;
    const outUsd = this.rq - k / rt;
    this.rt = rt;
    this.rq -= outUsd;
    this.sync(tx);
    return this.swapEvent(tx, trader, 'sell', net, outUsd);
  }

  private swapEvent(tx: string, trader: string, side: 'buy' | 'sell', amountToken: number, usd: number): Swap {
    return this.emit<Swap>({
      ...this.origin(tx),
      type: 'swap',
      token: this.token,
      pool: this.pool,
      trader,
      side,
      amountToken,
      amountQuote: usd,
      usd,
      priceUsd: this.price,
    });
  }

  /**
   * a provider removes `share` of the pool; `syncFirst`: the Sync before the Burn, as a Uniswap V2
   * pair logs them, instead of after it
   */
  removeLiquidity(provider: string, share: number, syncFirst = false): this {
    const tx = this.newTx();
    const dt = this.rt * share;
    const dq = this.rq * share;
    this.transfer(this.pool, provider, dt, tx);
    this.rt -= dt;
    this.rq -= dq;
    if (syncFirst) this.sync(tx);
    this.liquidityEvent(tx, provider, 'remove', dt, dq);
    if (!syncFirst) this.sync(tx);
    return this;
  }

  /** a provider adds `liqUsd` of liquidity with `tokens` of the token (from its balance) */
  addLiquidity(provider: string, liqUsd: number, tokens: number): this {
    const tx = this.newTx();
    this.transfer(provider, this.pool, tokens, tx);
    this.rt += tokens;
    this.rq += liqUsd / 2;
    this.liquidityEvent(tx, provider, 'add', tokens, liqUsd / 2);
    this.sync(tx);
    return this;
  }

  private liquidityEvent(tx: string, provider: string, action: Liquidity['action'], amountToken: number, amountQuote: number): Liquidity {
    const at = { token: this.token, pool: this.pool, provider, action, amountToken, amountQuote, usd: 2 * amountQuote };
    return this.emit<Liquidity>({ ...this.origin(tx), type: 'liquidity', ...at });
  }

  /** a second pool of the same token, whose events continue this market's clock and blocks */
  secondPool(pool: string): Market {
    const p = new Market({ chain: this.chain, token: this.token, pool, deployer: this.deployer, t0: this.ts, supply: this.supply, symbol: this.symbol });
    p.block = this.block;
    p.txn = 500_000;
    return p;
  }

  /** a deterministic pseudo-random in [0, 1) */
  static rng(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
  }
}

/** A healthy market: many wallets buying and selling for `hours`. */
export function organicMarket(hours: number, seed = 7, o: MarketOptions = {}): Market {
  const m = new Market(o).launch(200_000);
  const rnd = Market.rng(seed);
  const wallets = Array.from({ length: 120 }, (_, i) => addr(10_000 + i));
  const held = new Map<string, number>();
  for (let h = 0; h < hours; h++) {
    for (let i = 0; i < 12; i++) {
      m.advance(300);
      const w = wallets[Math.floor(rnd() * wallets.length)]!;
      const usd = 100 + Math.floor(rnd() * 900);
      if (rnd() < 0.55 || !held.get(w)) {
        m.buy(w, usd);
        held.set(w, (held.get(w) ?? 0) + usd);
      } else {
        const sell = Math.min(usd, held.get(w)! * 0.8);
        m.sell(w, sell);
        held.set(w, held.get(w)! - sell);
      }
    }
  }
  return m;
}

/**
 * A day of wide two-way swings without a trend, then `coilHours` of a tight range inside it with
 * steady two-way trade; `breakout` adds an hour of heavy buying.
 */
export function coilMarket(coilHours = 14, o: MarketOptions = {}): Market {
  const m = new Market(o).launch(200_000);
  const r = Market.rng(3);
  let w = 0;
  for (let h = 0; h < 24; h++) {
    for (let i = 0; i < 6; i++) {
      m.advance(600);
      if ((h + i) % 2 === 0) m.buy(addr(20_000 + (w++ % 80)), 3000 + r() * 2000);
      else m.sell(addr(20_000 + ((w - 1) % 80)), 3000 + r() * 2000);
    }
  }
  for (let h = 0; h < coilHours; h++) {
    for (let i = 0; i < 6; i++) {
      m.advance(600);
      if (i % 2 === 0) m.buy(addr(30_000 + (w++ % 80)), 300);
      else m.sell(addr(30_000 + ((w - 1) % 80)), 250);
    }
  }
  return m;
}

export function breakout(m: Market, buys = 12, usd = 4000): Market {
  for (let i = 0; i < buys; i++) {
    m.advance(240);
    m.buy(addr(40_000 + i), usd);
  }
  return m;
}
