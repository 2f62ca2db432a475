import type { Liquidity, PoolCreated, Swap, Sync, TokenEvent, Transfer } from '../../schemas/events.ts';
import { createRng, hashFor, type Rng } from './prng.ts';
import { DAY, HOUR, type Action, type Plan, type TokenPlan } from './plan.ts';

/**
 * The world: pools with real constant-product reserves, balances, and the block loop. Each block
 * runs the planned actions that are due, then draws the random order flow of every live token.
 * Flow is steered toward the token's story path (the "target"): the further the price sits below
 * the target, the likelier the next trade is a buy. Prices therefore move only through real
 * trades with real impact.
 */

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
export const DEAD_ADDRESS = '0x000000000000000000000000000000000000dead';
/** Uniswap V2 fee */
const FEE = 0.003;
/** ETH/USD level around which the simulated WETH price drifts */
const WETH_USD = 3000;
/** how hard order flow is pulled toward the story's target path (per unit of log-price gap) */
const STEER = 1.5;
/** retail chases recent moves (buys after rises, sells after drops): that is why it loses */
const CHASE = 1;
const MOMENTUM_HOURS = 3;
/** log-price given back in the two days after a breakout's peak */
const FADE = 1.0;
/** daily log-price drift of noise and whale tokens (memecoins bleed on average) */
const DRIFT = 0.08;

export interface SimBlock {
  block: number;
  timestamp: number;
  blockHash: string;
  events: TokenEvent[];
}

/** Slowly drifting WETH/USD price: a pure function of time. */
export function wethUsdAt(timestamp: number, genesisTime: number): number {
  const t = (timestamp - genesisTime) / DAY;
  return Math.round(WETH_USD * Math.exp(0.06 * Math.sin((2 * Math.PI * t) / 7) + 0.02 * Math.sin((2 * Math.PI * t) / 1.3)) * 100) / 100;
}

interface PoolState {
  created: boolean;
  rugged: boolean;
  reserveToken: number;
  reserveQuote: number;
  logPrice0: number;
  lpSupply: number;
  /** LP shares by wallet index */
  lp: Map<number, number>;
  balances: Map<number, number>;
  /** retail wallets holding the token, for picking sellers; with their positions in the array */
  retailHolders: number[];
  retailPos: Map<number, number>;
  noise: number;
  noiseAt: number;
  /** slow average of the log price; retail chases moves away from it */
  ema: number;
  emaAt: number;
}

class Heap {
  private items: { time: number; seq: number; action: Action }[] = [];
  private seq = 0;
  push(time: number, action: Action): void {
    const item = { time, seq: this.seq++, action };
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  peekTime(): number {
    return this.items[0]?.time ?? Infinity;
  }
  pop(): Action | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (top === undefined || last === undefined) return undefined;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top.action;
  }
  private less(x: { time: number; seq: number }, y: { time: number; seq: number }): boolean {
    return x.time < y.time || (x.time === y.time && x.seq < y.seq);
  }
  /** a copy of the queue as plain data (its array order is its heap order) */
  state(): HeapState {
    return { seq: this.seq, items: this.items.map((i) => ({ time: i.time, seq: i.seq, action: { ...i.action } })) };
  }
  restore(s: HeapState): void {
    this.seq = s.seq;
    this.items = s.items.map((i) => ({ time: i.time, seq: i.seq, action: { ...i.action } }));
  }
}

interface HeapState {
  seq: number;
  items: { time: number; seq: number; action: Action }[];
}

/** a pool's state with its maps as entry lists */
type PoolData = Omit<PoolState, 'lp' | 'balances' | 'retailPos'> & { lp: [number, number][]; balances: [number, number][]; retailPos: [number, number][] };

/** the shape of WorldState; a state of another shape (older code) is not restored */
const WORLD_STATE_SHAPE = 1;

/**
 * A world between two blocks, as plain data: what a resume restores instead of regenerating
 * every block before it (ingest/simulator/source.ts). `plan` names the plan it belongs to.
 */
export interface WorldState {
  plan: string;
  block: number;
  txCounter: number;
  rng: number;
  heap: HeapState;
  pools: PoolData[];
  funded: boolean[];
}

/**
 * A WorldState as text and back. JSON keeps every finite number exactly; the few that are not
 * finite (a story's open end) are written as {"$n": "Infinity"}.
 */
export function encodeWorldState(s: WorldState): string {
  return JSON.stringify(s, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { $n: String(v) } : v));
}

export function decodeWorldState(text: string): WorldState {
  return JSON.parse(text, (_k, v: unknown) => (v !== null && typeof v === 'object' && typeof (v as { $n?: unknown }).$n === 'string' ? Number((v as { $n: string }).$n) : v)) as WorldState;
}

interface Dynamics {
  /** target log price relative to the launch price */
  target: number;
  /** flow trades per hour */
  rate: number;
  sizeMult: number;
  bias: number;
  /** fixed buy probability (overrides the controller) */
  pBuy?: number;
  sellFrac: [number, number];
}

export class World {
  readonly chain: string;
  private readonly plan: Plan;
  private readonly rng: Rng;
  private readonly heap = new Heap();
  private readonly pools: PoolState[];
  private readonly isRetail: boolean[];
  private readonly funded: boolean[];
  private readonly allowedSellers: Set<number>[];
  private blockNumber = 0;
  private txCounter = 0;
  private events: TokenEvent[] = [];
  private logIndex = 0;
  private ts = 0;
  private blockHash = '';
  private wethUsd = WETH_USD;

  constructor(plan: Plan, chain: string) {
    this.plan = plan;
    this.chain = chain;
    this.rng = createRng(`world:${plan.options.seed}`);
    for (const t of plan.actions) this.heap.push(t.time, t.action);
    this.pools = plan.tokens.map(() => ({
      created: false,
      rugged: false,
      reserveToken: 0,
      reserveQuote: 0,
      logPrice0: 0,
      lpSupply: 0,
      lp: new Map(),
      balances: new Map(),
      retailHolders: [],
      retailPos: new Map(),
      noise: 0,
      noiseAt: 0,
      ema: 0,
      emaAt: 0,
    }));
    this.isRetail = plan.wallets.map((w) => w.behaviour === 'retail');
    this.funded = plan.wallets.map((w) => w.funder === null);
    this.allowedSellers = plan.tokens.map((t) => new Set([t.deployer, ...t.insiders]));
  }

  /** what names this world's plan (and the state's shape) in a WorldState: made once, on the first state or restore */
  private planIdMemo: string | undefined;
  private get planId(): string {
    return (this.planIdMemo ??= hashFor(0, JSON.stringify({ shape: WORLD_STATE_SHAPE, chain: this.chain, options: this.plan.options })));
  }

  /** the world as it is now, between two blocks: a copy as plain data */
  state(): WorldState {
    return {
      plan: this.planId,
      block: this.blockNumber,
      txCounter: this.txCounter,
      rng: this.rng.state,
      heap: this.heap.state(),
      pools: this.pools.map((p) => ({ ...p, lp: [...p.lp], balances: [...p.balances], retailPos: [...p.retailPos], retailHolders: [...p.retailHolders] })),
      funded: [...this.funded],
    };
  }

  /**
   * Puts the world where `s` says (a state of this plan, taken by `state`); false, and nothing
   * changed, when it is another plan's or another shape's.
   */
  restore(s: WorldState): boolean {
    if (s.plan !== this.planId || s.pools.length !== this.pools.length || s.funded.length !== this.funded.length) return false;
    this.blockNumber = s.block;
    this.txCounter = s.txCounter;
    this.rng.state = s.rng;
    this.heap.restore(s.heap);
    s.pools.forEach((p, i) => {
      this.pools[i] = { ...p, lp: new Map(p.lp), balances: new Map(p.balances), retailPos: new Map(p.retailPos), retailHolders: [...p.retailHolders] };
    });
    s.funded.forEach((f, i) => (this.funded[i] = f));
    this.ts = this.timeOfBlock(this.blockNumber);
    return true;
  }

  /** last generated block number (including skipped empty blocks) */
  get block(): number {
    return this.blockNumber;
  }

  get nextBlockTime(): number {
    return this.plan.options.genesisTime + (this.blockNumber + 1) * this.plan.options.blockTimeSec;
  }

  timeOfBlock(block: number): number {
    return this.plan.options.genesisTime + block * this.plan.options.blockTimeSec;
  }

  /** Generates the next block; null when it has no events (empty blocks are skipped). */
  step(): SimBlock | null {
    this.blockNumber++;
    this.ts = this.timeOfBlock(this.blockNumber);
    this.events = [];
    this.logIndex = 0;
    this.blockHash = hashFor(this.plan.options.seed, `block:${this.blockNumber}`);
    this.wethUsd = wethUsdAt(this.ts, this.plan.options.genesisTime);
    while (this.heap.peekTime() <= this.ts) {
      const action = this.heap.pop();
      if (action) this.run(action);
    }
    for (const tk of this.plan.tokens) if (this.pools[tk.index]?.created) this.flow(tk);
    if (this.events.length === 0) return null;
    return { block: this.blockNumber, timestamp: this.ts, blockHash: this.blockHash, events: this.events };
  }

  /** Blocks with events up to and including `untilTime`; resumes where the last call stopped. */
  *blocksUntil(untilTime: number): Generator<SimBlock> {
    while (this.nextBlockTime <= untilTime) {
      const b = this.step();
      if (b) yield b;
    }
  }

  /**
   * Regenerates blocks up to `block` without keeping their events; stops early when `enough`
   * says so (a caller cutting the work into slices). True when `block` was reached.
   */
  skipThrough(block: number, enough: () => boolean = () => false): boolean {
    while (this.blockNumber < block) {
      this.step();
      if (enough()) break;
    }
    return this.blockNumber >= block;
  }

  // ---- actions -------------------------------------------------------------------------------

  private run(action: Action): void {
    switch (action.kind) {
      case 'fund':
        return this.fund(action.wallet);
      case 'create':
        return this.create(this.plan.tokens[action.token] as TokenPlan);
      case 'buy': {
        const pool = this.pools[action.token] as PoolState;
        if (!pool.created || !this.funded[action.wallet]) return;
        this.swapBuy(action.token, action.wallet, pool.reserveQuote * action.frac);
        return;
      }
      case 'sell': {
        const pool = this.pools[action.token] as PoolState;
        const bal = pool.balances.get(action.wallet) ?? 0;
        if (bal <= 0) return;
        this.swapSell(action.token, action.wallet, action.frac >= 1 ? bal : bal * action.frac);
        return;
      }
      case 'removeLiquidity':
        return this.removeLiquidity(action.token, action.frac);
      case 'addLiquidity':
        return this.addLiquidity(action.token, action.frac);
      case 'botEpisode':
        return this.botEpisode(action.wallet);
      case 'botTick':
        return this.botTick(action.wallet, action.token, action.until);
    }
  }

  private newTx(): string {
    return hashFor(this.plan.options.seed, `tx:${this.txCounter++}`);
  }

  private origin(tx: string) {
    return {
      chain: this.chain,
      block: this.blockNumber,
      blockHash: this.blockHash,
      tx,
      logIndex: this.logIndex++,
      timestamp: this.ts,
    };
  }

  private address(wallet: number): string {
    return (this.plan.wallets[wallet] as { address: string }).address;
  }

  private transfer(tx: string, token: string, from: string, to: string, amount: number): void {
    const e: Transfer = { type: 'transfer', ...this.origin(tx), token, from, to, amount };
    this.events.push(e);
  }

  private sync(tx: string, tokenIndex: number): void {
    const tk = this.plan.tokens[tokenIndex] as TokenPlan;
    const p = this.pools[tokenIndex] as PoolState;
    const e: Sync = {
      type: 'sync',
      ...this.origin(tx),
      token: tk.address,
      pool: tk.pool,
      reserveToken: p.reserveToken,
      reserveQuote: p.reserveQuote,
      liquidityUsd: 2 * p.reserveQuote * this.wethUsd,
    };
    this.events.push(e);
  }

  private setBalance(tokenIndex: number, wallet: number, value: number): void {
    const p = this.pools[tokenIndex] as PoolState;
    const tk = this.plan.tokens[tokenIndex] as TokenPlan;
    const v = value < tk.totalSupply * 1e-15 ? 0 : value;
    if (v === 0) p.balances.delete(wallet);
    else p.balances.set(wallet, v);
    if (!this.isRetail[wallet]) return;
    const pos = p.retailPos.get(wallet);
    if (v > 0 && pos === undefined) {
      p.retailPos.set(wallet, p.retailHolders.length);
      p.retailHolders.push(wallet);
    } else if (v === 0 && pos !== undefined) {
      const last = p.retailHolders.pop() as number;
      if (last !== wallet) {
        p.retailHolders[pos] = last;
        p.retailPos.set(last, pos);
      }
      p.retailPos.delete(wallet);
    }
  }

  private fund(wallet: number): void {
    const w = this.plan.wallets[wallet];
    if (!w || w.funder === null) return;
    this.transfer(this.newTx(), this.plan.weth, this.address(w.funder), w.address, w.fundAmount);
    this.funded[wallet] = true;
  }

  private create(tk: TokenPlan): void {
    const p = this.pools[tk.index] as PoolState;
    const deployer = this.address(tk.deployer);
    const tx = this.newTx();
    const created: PoolCreated = {
      type: 'pool_created',
      ...this.origin(tx),
      token: tk.address,
      pool: tk.pool,
      symbol: tk.symbol,
      decimals: 18,
      quote: 'WETH',
      deployer,
      totalSupply: tk.totalSupply,
    };
    this.events.push(created);
    this.transfer(tx, tk.address, ZERO_ADDRESS, deployer, tk.totalSupply);
    const inPool = tk.totalSupply * tk.poolShare;
    this.transfer(tx, tk.address, deployer, tk.pool, inPool);
    p.created = true;
    p.reserveToken = inPool;
    p.reserveQuote = tk.quote0;
    p.logPrice0 = Math.log(tk.quote0 / inPool);
    p.lpSupply = Math.sqrt(inPool * tk.quote0);
    p.lp.set(tk.deployer, p.lpSupply);
    p.noiseAt = this.ts;
    p.emaAt = this.ts;
    this.sync(tx, tk.index);
    this.liquidity(tx, tk, tk.deployer, 'add', inPool, tk.quote0);
    let left = tk.totalSupply - inPool;
    if (tk.burnShare > 0) {
      const burn = tk.totalSupply * tk.burnShare;
      this.transfer(this.newTx(), tk.address, deployer, DEAD_ADDRESS, burn);
      left -= burn;
    }
    for (const d of tk.distributions) {
      const amount = Math.min(left, tk.totalSupply * d.share);
      this.transfer(this.newTx(), tk.address, deployer, this.address(d.wallet), amount);
      this.setBalance(tk.index, d.wallet, (p.balances.get(d.wallet) ?? 0) + amount);
      left -= amount;
    }
    this.setBalance(tk.index, tk.deployer, Math.max(0, left));
  }

  private liquidity(tx: string, tk: TokenPlan, provider: number, action: 'add' | 'remove', amountToken: number, amountQuote: number): void {
    const e: Liquidity = {
      type: 'liquidity',
      ...this.origin(tx),
      token: tk.address,
      pool: tk.pool,
      provider: this.address(provider),
      action,
      amountToken,
      amountQuote,
      usd: amountQuote * this.wethUsd,
    };
    this.events.push(e);
  }

  private removeLiquidity(tokenIndex: number, frac: number): void {
    const tk = this.plan.tokens[tokenIndex] as TokenPlan;
    const p = this.pools[tokenIndex] as PoolState;
    const owned = p.lp.get(tk.deployer) ?? 0;
    if (!p.created || owned <= 0) return;
    const burn = owned * frac;
    const share = burn / p.lpSupply;
    const amountToken = p.reserveToken * share;
    const amountQuote = p.reserveQuote * share;
    const tx = this.newTx();
    p.reserveToken -= amountToken;
    p.reserveQuote -= amountQuote;
    p.lpSupply -= burn;
    p.lp.set(tk.deployer, owned - burn);
    this.transfer(tx, tk.address, tk.pool, this.address(tk.deployer), amountToken);
    this.setBalance(tokenIndex, tk.deployer, (p.balances.get(tk.deployer) ?? 0) + amountToken);
    this.sync(tx, tokenIndex);
    this.liquidity(tx, tk, tk.deployer, 'remove', amountToken, amountQuote);
    if (tk.story === 'rug' && frac > 0.4) p.rugged = true;
  }

  private addLiquidity(tokenIndex: number, frac: number): void {
    const tk = this.plan.tokens[tokenIndex] as TokenPlan;
    const p = this.pools[tokenIndex] as PoolState;
    const bal = p.balances.get(tk.deployer) ?? 0;
    if (!p.created || bal <= 0) return;
    const amountToken = bal * frac;
    const amountQuote = (amountToken * p.reserveQuote) / p.reserveToken;
    const minted = (p.lpSupply * amountToken) / p.reserveToken;
    const tx = this.newTx();
    this.transfer(tx, tk.address, this.address(tk.deployer), tk.pool, amountToken);
    this.setBalance(tokenIndex, tk.deployer, bal - amountToken);
    p.reserveToken += amountToken;
    p.reserveQuote += amountQuote;
    p.lpSupply += minted;
    p.lp.set(tk.deployer, (p.lp.get(tk.deployer) ?? 0) + minted);
    this.sync(tx, tokenIndex);
    this.liquidity(tx, tk, tk.deployer, 'add', amountToken, amountQuote);
  }

  private swapEvent(tx: string, tk: TokenPlan, wallet: number, side: 'buy' | 'sell', amountToken: number, amountQuote: number): void {
    const p = this.pools[tk.index] as PoolState;
    const e: Swap = {
      type: 'swap',
      ...this.origin(tx),
      token: tk.address,
      pool: tk.pool,
      trader: this.address(wallet),
      side,
      amountToken,
      amountQuote,
      usd: amountQuote * this.wethUsd,
      priceUsd: (p.reserveQuote / p.reserveToken) * this.wethUsd,
    };
    this.events.push(e);
  }

  /** Buys with `quoteIn` WETH; returns the tokens received. */
  private swapBuy(tokenIndex: number, wallet: number, quoteIn: number): number {
    const tk = this.plan.tokens[tokenIndex] as TokenPlan;
    const p = this.pools[tokenIndex] as PoolState;
    if (!(quoteIn > 0) || p.reserveToken <= 0) return 0;
    const eff = quoteIn * (1 - FEE);
    const out = (p.reserveToken * eff) / (p.reserveQuote + eff);
    const tx = this.newTx();
    p.reserveQuote += quoteIn;
    p.reserveToken -= out;
    this.transfer(tx, tk.address, tk.pool, this.address(wallet), out);
    this.setBalance(tokenIndex, wallet, (p.balances.get(wallet) ?? 0) + out);
    this.sync(tx, tokenIndex);
    this.swapEvent(tx, tk, wallet, 'buy', out, quoteIn);
    return out;
  }

  /** Sells `tokenIn`; a honeypot silently rejects sells by anyone but its deployer and insiders. */
  private swapSell(tokenIndex: number, wallet: number, tokenIn: number): number {
    const tk = this.plan.tokens[tokenIndex] as TokenPlan;
    const p = this.pools[tokenIndex] as PoolState;
    if (!(tokenIn > 0)) return 0;
    if (tk.story === 'honeypot' && !this.allowedSellers[tokenIndex]?.has(wallet)) return 0;
    // a late tax: the contract keeps its share of the seller's tokens, the pool gets the rest
    const taxed = tk.story === 'latetax' && this.ts >= (tk.taxAt as number) && wallet !== tk.deployer ? tokenIn * (tk.sellTax as number) : 0;
    const received = tokenIn - taxed;
    const eff = received * (1 - FEE);
    const out = (p.reserveQuote * eff) / (p.reserveToken + eff);
    const tx = this.newTx();
    p.reserveToken += received;
    p.reserveQuote -= out;
    this.transfer(tx, tk.address, this.address(wallet), tk.pool, received);
    if (taxed > 0) this.transfer(tx, tk.address, this.address(wallet), tk.address, taxed);
    this.setBalance(tokenIndex, wallet, (p.balances.get(wallet) ?? 0) - tokenIn);
    this.sync(tx, tokenIndex);
    this.swapEvent(tx, tk, wallet, 'sell', received, out);
    return out;
  }

  // ---- bots ----------------------------------------------------------------------------------

  private botEpisode(wallet: number): void {
    const live = this.plan.tokens.filter((tk) => {
      const p = this.pools[tk.index] as PoolState;
      return p.created && !p.rugged && tk.story !== 'honeypot' && p.reserveQuote > 1;
    });
    if (live.length === 0) {
      this.heap.push(this.ts + HOUR, { kind: 'botEpisode', wallet });
      return;
    }
    const tk = this.rng.pick(live);
    const until = this.ts + this.rng.uniform(3, 10) * 60;
    this.botTick(wallet, tk.index, until);
  }

  private botTick(wallet: number, tokenIndex: number, until: number): void {
    const p = this.pools[tokenIndex] as PoolState;
    const trips = this.rng.chance(0.65) ? (this.rng.chance(0.2) ? 2 : 1) : 0;
    for (let i = 0; i < trips && !p.rugged; i++) {
      const got = this.swapBuy(tokenIndex, wallet, p.reserveQuote * this.rng.uniform(0.001, 0.003));
      this.swapSell(tokenIndex, wallet, got);
    }
    const next = this.ts + this.plan.options.blockTimeSec;
    if (next <= until && !p.rugged) this.heap.push(next, { kind: 'botTick', wallet, token: tokenIndex, until });
    else this.heap.push(this.ts + this.rng.exponential(16 * HOUR), { kind: 'botEpisode', wallet });
  }

  // ---- order flow ----------------------------------------------------------------------------

  private dynamics(tk: TokenPlan, p: PoolState): Dynamics {
    const t = this.ts;
    const age = t - tk.createdAt;
    const noise = p.noise;
    let pump = 0;
    let rateMult = 1;
    let fomo = 1;
    for (const q of tk.pumps) {
      if (t < q.at) break;
      const e = t - q.at;
      if (e < q.dur) {
        pump += (q.rise * e) / q.dur;
        rateMult = Math.max(rateMult, 4);
        fomo = 1.6;
      } else {
        pump += q.rise * (q.retain + (1 - q.retain) * Math.exp(-(e - q.dur) / (6 * HOUR)));
        if (e < 2 * q.dur) rateMult = Math.max(rateMult, 2);
      }
    }
    const base = tk.baseRate;
    const d: Dynamics = { target: 0, rate: base, sizeMult: fomo, bias: 0, sellFrac: [0.3, 1] };
    const breakout = (phaseTarget: number): boolean => {
      const bo = tk.breakoutAt as number;
      const ramp = tk.rampSec as number;
      const peak = tk.peakSec as number;
      const rise = tk.rise as number;
      if (t < bo) return false;
      if (t < bo + ramp) {
        d.target = phaseTarget + (rise * (t - bo)) / ramp;
        d.rate = base * 6;
        d.sizeMult = 1.5;
      } else if (t < bo + ramp + peak) {
        d.target = phaseTarget + rise + 0.3 * noise;
        d.rate = base * 2.5;
      } else {
        d.target = phaseTarget + rise - FADE * Math.min(1, (t - bo - ramp - peak) / (2 * DAY)) + noise;
        d.rate = base * 1.2;
      }
      return true;
    };
    switch (tk.story) {
      case 'organic':
        d.target = ((tk.growthPerDay as number) * age) / DAY + pump + noise;
        d.rate = base * (1 + Math.min(2, age / (3 * DAY))) * rateMult;
        break;
      case 'whale':
      case 'noise':
        d.target = pump + noise * (tk.story === 'noise' ? 1.2 : 1) - (DRIFT * age) / DAY;
        d.rate = base * rateMult;
        break;
      case 'accumulation': {
        const acc = tk.accumulationStart as number;
        if (breakout(0.1)) break;
        if (t < acc) {
          d.target = 0.5 * noise;
          d.rate = base * 0.5;
        } else {
          d.target = (0.1 * (t - acc)) / ((tk.breakoutAt as number) - acc) + 0.2 * noise;
          d.rate = base * 0.6;
          d.sizeMult = 0.7;
        }
        break;
      }
      case 'coil': {
        const cs = tk.coilStart as number;
        if (breakout(0)) break;
        // choppy swings before the coil that die out during it, with ever smaller trades
        const chop = 0.3 * Math.sin((2 * Math.PI * (t - tk.createdAt)) / (4 * HOUR));
        if (t < cs) {
          d.target = 1.5 * noise + chop;
          d.sizeMult = 2.2;
        } else {
          const f = (t - cs) / ((tk.breakoutAt as number) - cs);
          d.target = (1.5 * noise + chop) * Math.max(0, 1 - 1.2 * f) + 0.2 * f;
          d.sizeMult = 2.05 * (1 - f) ** 2 + 0.15;
          d.rate = base * (1 + 0.6 * f);
          d.bias = 0.06;
          d.sellFrac = [0.5, 1];
        }
        break;
      }
      case 'rug': {
        const rugAt = tk.rugAt as number;
        if (t < rugAt) {
          const f = age / (rugAt - tk.createdAt);
          d.target = (tk.rise as number) * Math.pow(Math.max(0, f), 0.7) + 0.4 * noise;
          d.rate = base * (1.5 - 0.5 * f);
        } else {
          // holders dump whatever they have into the empty pool
          d.target = -10;
          d.rate = t - rugAt < 6 * HOUR ? base * 0.8 : base * 0.03;
          d.bias = -0.3;
          d.sizeMult = 20;
        }
        break;
      }
      case 'drain': {
        const rugAt = tk.rugAt as number;
        const f = age / Math.max(1, rugAt - tk.createdAt);
        // rises like a rug until the drain starts, then holders leave a thinning pool
        d.target = t < rugAt ? (tk.rise as number) * Math.pow(Math.max(0, f), 0.7) + 0.4 * noise : (tk.rise as number) - (2 * (t - rugAt)) / DAY + 0.3 * noise;
        if (t >= rugAt) d.bias = -0.1;
        break;
      }
      case 'latetax':
        // an organic start; once the tax is on, sellers get little and the price bleeds
        if (t >= (tk.taxAt as number)) {
          d.target = -(t - (tk.taxAt as number)) / DAY + 0.3 * noise;
          d.bias = -0.1;
        }
        break;
      case 'honeypot':
        d.pBuy = 0.85;
        d.sizeMult = 0.35;
        d.rate = base * (0.15 + Math.exp(-age / (3 * DAY)));
        break;
      case 'bleed': {
        const bs = tk.bleedStart as number;
        if (t < bs) {
          d.target = (0.5 * age) / (bs - tk.createdAt) + 0.3 * noise;
          d.rate = base * 1.5;
        } else {
          const span = Math.max(DAY, this.plan.options.genesisTime + this.plan.options.spanSec - bs);
          d.target = Math.max(-3, 0.5 - ((tk.decline as number) * (t - bs)) / span) + 0.2 * noise;
          d.bias = -0.05;
          d.sizeMult = 0.6;
          d.sellFrac = [0.15, 0.45];
        }
        break;
      }
    }
    return d;
  }

  private flow(tk: TokenPlan): void {
    const p = this.pools[tk.index] as PoolState;
    const rng = this.rng;
    // Ornstein-Uhlenbeck noise on the target, stepped every 5 simulated minutes
    if (this.ts - p.noiseAt >= 300) {
      const dt = this.ts - p.noiseAt;
      const decay = Math.exp(-dt / DAY);
      p.noise = p.noise * decay + tk.noiseSigma * Math.sqrt(1 - decay * decay) * rng.normal();
      p.noiseAt = this.ts;
    }
    const d = this.dynamics(tk, p);
    if (this.ts > p.emaAt) {
      const now = Math.log(p.reserveQuote / p.reserveToken) - p.logPrice0;
      p.ema += (1 - Math.exp(-(this.ts - p.emaAt) / (MOMENTUM_HOURS * HOUR))) * (now - p.ema);
      p.emaAt = this.ts;
    }
    const prob = Math.min(0.9, (d.rate * this.plan.options.blockTimeSec) / HOUR);
    for (let n = 0; n < 4 && rng.next() < prob; n++) {
      const logPrice = Math.log(p.reserveQuote / p.reserveToken) - p.logPrice0;
      const pBuy = d.pBuy ?? Math.min(0.94, Math.max(0.06, 0.5 + STEER * (d.target - logPrice) + CHASE * (logPrice - p.ema) + d.bias));
      if (rng.chance(0.02)) {
        this.walletTransfer(tk, p);
        continue;
      }
      if (rng.next() >= pBuy && p.retailHolders.length > 0) {
        const seller = rng.pick(p.retailHolders);
        const bal = p.balances.get(seller) ?? 0;
        const frac = rng.uniform(d.sellFrac[0], d.sellFrac[1]);
        // sells are sized like buys (a holder trims), so quiet phases stay quiet
        const cap = p.reserveToken * rng.lognormal(0.005, 0.8) * d.sizeMult;
        this.swapSell(tk.index, seller, Math.min(cap, frac > 0.9 ? bal : bal * frac));
        continue;
      }
      if (p.rugged) continue;
      const buyer = this.pickFunded(tk);
      if (buyer === undefined) continue;
      const size = Math.min(0.05, rng.lognormal(0.004, 0.8) * d.sizeMult);
      this.swapBuy(tk.index, buyer, p.reserveQuote * size);
    }
  }

  private pickFunded(tk: TokenPlan): number | undefined {
    if (tk.audience.length === 0) return undefined;
    for (let i = 0; i < 4; i++) {
      const w = this.rng.pick(tk.audience);
      if (this.funded[w]) return w;
    }
    return undefined;
  }

  /**
   * A holder moves tokens to another wallet. On a honeypot the contract taxes it: the recipient
   * gets a tenth, the rest goes to the token contract (a transfer that delivers far less than sent).
   */
  private walletTransfer(tk: TokenPlan, p: PoolState): void {
    if (p.retailHolders.length === 0) return;
    const from = this.rng.pick(p.retailHolders);
    const to = this.rng.pick(tk.audience);
    if (to === from) return;
    const bal = p.balances.get(from) ?? 0;
    const amount = bal * this.rng.uniform(0.2, 0.6);
    if (amount <= 0) return;
    const tx = this.newTx();
    const delivered = tk.story === 'honeypot' ? amount * 0.1 : amount;
    this.transfer(tx, tk.address, this.address(from), this.address(to), delivered);
    if (delivered < amount) this.transfer(tx, tk.address, this.address(from), tk.address, amount - delivered);
    this.setBalance(tk.index, from, bal - amount);
    this.setBalance(tk.index, to, (p.balances.get(to) ?? 0) + delivered);
  }
}

