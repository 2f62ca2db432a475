import { addressFor, createRng, type Rng } from './prng.ts';
import { planCrowds, type Crowd } from './crowds.ts';

/**
 * The plan: who exists, which token tells which story, and every scheduled action (launches,
 * insider and sniper trades, edge traders' round trips, rugs, dumps). It is drawn once from the
 * seed, before any block is generated, and is the simulator's ground truth. The random order flow
 * that makes prices move is drawn later, block by block, by the world (world.ts).
 */

export const STORIES = ['organic', 'accumulation', 'coil', 'rug', 'honeypot', 'whale', 'bleed', 'noise'] as const;
/**
 * stories the rules were not written against, for the eval only (`npm start`'s world keeps
 * STORIES): `drain`, a deployer pulling its liquidity in eight steps over hours, no dump;
 * `latetax`, a token that trades cleanly for a day or more until its owner switches on a sell tax
 * of 30-90 % (the deployer exempt), then dumps into the buyers it traps
 */
export const EVAL_STORIES = ['drain', 'latetax'] as const;
export type Story = (typeof STORIES)[number] | (typeof EVAL_STORIES)[number];

/** farm, farmLoser and skilled: the eval's crowds only (crowds.ts) */
export const BEHAVIOURS = ['edge', 'retail', 'bot', 'insider', 'sniper', 'whale', 'deployer', 'funder', 'farm', 'farmLoser', 'skilled'] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export const HOUR = 3600;
export const DAY = 86_400;

export interface PlanOptions {
  seed: number;
  genesisTime: number;
  blockTimeSec: number;
  spanSec: number;
  tokens: number;
  wallets: number;
  /** the stories dealt to the tokens in turn; default STORIES */
  stories?: readonly Story[];
  /** wallet crowds added after the plan (crowds.ts); default none */
  crowds?: readonly Crowd[];
}

export interface Pump {
  at: number;
  /** seconds the rise takes */
  dur: number;
  /** log-price rise */
  rise: number;
  /** share of the rise kept after the pump fades */
  retain: number;
}

export interface WalletPlan {
  index: number;
  address: string;
  behaviour: Behaviour;
  /** wallet index of the funder, null for funders */
  funder: number | null;
  fundedAt: number;
  fundAmount: number;
}

export interface TokenPlan {
  index: number;
  address: string;
  pool: string;
  symbol: string;
  story: Story;
  deployer: number;
  insiders: number[];
  snipers: number[];
  /** recipients of supply handed out at launch (whale tokens) */
  distributions: { wallet: number; share: number }[];
  createdAt: number;
  totalSupply: number;
  quote0: number;
  poolShare: number;
  deployerKeep: number;
  burnShare: number;
  baseRate: number;
  noiseSigma: number;
  pumps: Pump[];
  audience: number[];
  growthPerDay?: number;
  accumulationStart?: number;
  coilStart?: number;
  breakoutAt?: number;
  rampSec?: number;
  peakSec?: number;
  rise?: number;
  rugAt?: number;
  /** latetax: when the sell tax goes on, and its share of every sell but the deployer's */
  taxAt?: number;
  sellTax?: number;
  bleedStart?: number;
  decline?: number;
  dumps?: number[];
}

export type Action =
  | { kind: 'fund'; wallet: number }
  | { kind: 'create'; token: number }
  | { kind: 'buy'; wallet: number; token: number; frac: number }
  | { kind: 'sell'; wallet: number; token: number; frac: number }
  | { kind: 'removeLiquidity'; token: number; frac: number }
  | { kind: 'addLiquidity'; token: number; frac: number }
  | { kind: 'botEpisode'; wallet: number }
  | { kind: 'botTick'; wallet: number; token: number; until: number };

export interface Timed {
  time: number;
  action: Action;
}

export interface Plan {
  options: PlanOptions;
  weth: string;
  wallets: WalletPlan[];
  tokens: TokenPlan[];
  actions: Timed[];
}

const SYLLABLES = ['ka', 'zu', 'mo', 'ri', 'pe', 'lo', 'xa', 'ne', 'ti', 'bu', 'qo', 'va', 'sy', 'fe', 'do', 'gu', 'ji', 'wy', 'ze', 'ny', 'ob', 'ax', 'il', 'um'];
const SUPPLIES = [1_000_000, 100_000_000, 1_000_000_000, 420_690_000_000, 1_000_000_000_000];

export function buildPlan(options: PlanOptions): Plan {
  const { seed, genesisTime: G, blockTimeSec: bt, spanSec: S } = options;
  const rng = createRng(`plan:${seed}`);
  const end = G + S;
  /** first block at or after t (never before block 1) */
  const snap = (t: number): number => G + Math.max(1, Math.ceil((t - G) / bt)) * bt;
  const actions: Timed[] = [];
  const at = (time: number, action: Action): void => {
    actions.push({ time: snap(time), action });
  };

  // ---- wallets -------------------------------------------------------------------------------
  const wallets: WalletPlan[] = [];
  const addWallet = (behaviour: Behaviour, funder: number | null, fundedAt: number, fundAmount: number): number => {
    const index = wallets.length;
    wallets.push({ index, address: addressFor(seed, `wallet:${index}`), behaviour, funder, fundedAt: snap(fundedAt), fundAmount });
    return index;
  };
  const T = Math.max(1, Math.floor(options.tokens));
  const W = Math.max(1, Math.floor(options.wallets));
  const exchanges = [0, 1, 2].map(() => addWallet('funder', null, G, 0));
  const botOperator = addWallet('funder', null, G, 0);
  const early = (frac: number): number => G + rng.uniform(0, S * frac);
  const fromExchange = (behaviour: Behaviour, fundedAt: number, amount: number): number =>
    addWallet(behaviour, rng.pick(exchanges), fundedAt, amount);

  const nEdge = Math.max(3, Math.round(W * 0.04));
  const nBot = Math.max(2, Math.round(W * 0.05));
  const nSniper = Math.max(2, Math.round(W * 0.03));
  const nWhale = Math.max(3, Math.round(W * 0.025));
  const edge = Array.from({ length: nEdge }, () => fromExchange('edge', early(0.03), rng.uniform(5, 20)));
  const bots = Array.from({ length: nBot }, () => addWallet('bot', botOperator, early(0.02), rng.uniform(1, 3)));
  const snipers = Array.from({ length: nSniper }, () => fromExchange('sniper', G + bt * rng.int(1, 20), rng.uniform(3, 10)));
  const whales = Array.from({ length: nWhale }, () => fromExchange('whale', early(0.05), rng.uniform(50, 200)));
  // deployers and insiders are created with their tokens below; retail fills the rest
  const nRetail = Math.max(30, W - wallets.length - T * 4);
  const retail = Array.from({ length: nRetail }, () =>
    fromExchange('retail', rng.chance(0.6) ? early(0.05) : early(0.6), rng.uniform(0.5, 5)),
  );

  // ---- tokens --------------------------------------------------------------------------------
  const symbols = new Set<string>();
  const symbol = (): string => {
    for (;;) {
      const n = rng.chance(0.5) ? 2 : 3;
      let s = '';
      for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
      s = s.toUpperCase().slice(0, rng.int(3, 5));
      if (!symbols.has(s)) {
        symbols.add(s);
        return s;
      }
    }
  };
  const dealt = options.stories ?? STORIES;
  const stories: Story[] = Array.from({ length: T }, (_, i) => dealt[i % dealt.length] as Story);
  const counts = new Map<Story, number>();
  for (const s of stories) counts.set(s, (counts.get(s) ?? 0) + 1);
  const seen = new Map<Story, number>();
  const minStart = G + Math.max(HOUR * 3, S * 0.01);
  const clampStart = (t: number): number => Math.max(minStart, t);

  const tokens: TokenPlan[] = [];
  for (let i = 0; i < T; i++) {
    const story = stories[i] as Story;
    const k = seen.get(story) ?? 0;
    seen.set(story, k + 1);
    // spread each story's key moments over the span: k-th of n lands in the k-th slice
    const u = (k + rng.uniform(0.2, 0.8)) / (counts.get(story) ?? 1);
    const tk: TokenPlan = {
      index: i,
      address: addressFor(seed, `token:${i}`),
      pool: addressFor(seed, `pool:${i}`),
      symbol: symbol(),
      story,
      deployer: -1,
      insiders: [],
      snipers: [],
      distributions: [],
      createdAt: 0,
      totalSupply: rng.pick(SUPPLIES),
      quote0: rng.uniform(6, 25),
      poolShare: rng.uniform(0.85, 0.92),
      deployerKeep: rng.uniform(0.04, 0.08),
      burnShare: 0,
      baseRate: rng.uniform(5, 9),
      noiseSigma: rng.uniform(0.12, 0.22),
      pumps: [],
      audience: [],
    };
    switch (story) {
      case 'organic':
        tk.createdAt = G + S * (0.01 + 0.25 * u);
        tk.growthPerDay = rng.uniform(0.05, 0.08);
        break;
      case 'accumulation':
        tk.breakoutAt = G + S * (0.3 + 0.62 * u);
        tk.accumulationStart = tk.breakoutAt - S * rng.uniform(0.12, 0.22);
        tk.createdAt = clampStart(tk.accumulationStart - S * rng.uniform(0.04, 0.12));
        tk.rampSec = rng.uniform(3, 6) * HOUR;
        tk.peakSec = rng.uniform(10, 20) * HOUR;
        tk.rise = rng.uniform(1.0, 1.5);
        break;
      case 'coil':
        tk.breakoutAt = G + S * (0.35 + 0.6 * u);
        tk.coilStart = tk.breakoutAt - S * rng.uniform(0.15, 0.25);
        tk.createdAt = clampStart(tk.coilStart - S * rng.uniform(0.08, 0.15));
        tk.rampSec = rng.uniform(2, 4) * HOUR;
        tk.peakSec = rng.uniform(8, 16) * HOUR;
        tk.rise = rng.uniform(0.8, 1.2);
        break;
      case 'rug':
        tk.rugAt = G + S * (0.15 + 0.8 * u);
        tk.createdAt = clampStart(tk.rugAt - S * rng.uniform(0.05, 0.25));
        tk.rise = rng.uniform(0.8, 1.4);
        tk.baseRate *= 1.4;
        tk.deployerKeep = rng.uniform(0.08, 0.12);
        break;
      case 'drain':
        tk.rugAt = G + S * (0.15 + 0.7 * u);
        tk.createdAt = clampStart(tk.rugAt - S * rng.uniform(0.05, 0.25));
        tk.rise = rng.uniform(0.6, 1.0);
        tk.deployerKeep = rng.uniform(0.08, 0.12);
        break;
      case 'latetax':
        tk.createdAt = G + S * (0.02 + 0.45 * u);
        tk.taxAt = tk.createdAt + S * rng.uniform(0.12, 0.3);
        tk.sellTax = rng.uniform(0.3, 0.9);
        break;
      case 'honeypot':
        tk.createdAt = G + S * (0.05 + 0.8 * u);
        tk.baseRate *= 1.3;
        tk.deployerKeep = rng.uniform(0.08, 0.12);
        break;
      case 'whale':
        tk.createdAt = G + S * (0.02 + 0.6 * u);
        tk.poolShare = rng.uniform(0.35, 0.4);
        tk.deployerKeep = 0.03;
        break;
      case 'bleed':
        tk.createdAt = G + S * (0.01 + 0.3 * u);
        tk.bleedStart = tk.createdAt + S * rng.uniform(0.06, 0.12);
        tk.decline = rng.uniform(1.0, 1.4);
        tk.deployerKeep = rng.uniform(0.1, 0.14);
        break;
      case 'noise':
        tk.createdAt = G + S * (0.02 + 0.7 * u);
        tk.noiseSigma = rng.uniform(0.2, 0.3);
        tk.deployerKeep = 0.03;
        break;
    }
    tk.createdAt = snap(tk.createdAt);
    for (const key of ['accumulationStart', 'coilStart', 'breakoutAt', 'rugAt', 'bleedStart'] as const) {
      const v = tk[key];
      if (v !== undefined) tk[key] = snap(v);
    }
    tokens.push(tk);
  }

  // deployers, insiders, launch funding
  for (const tk of tokens) {
    const c = tk.createdAt;
    const deployerFunded = Math.max(G + bt, c - rng.uniform(1, 8) * HOUR);
    tk.deployer = fromExchange('deployer', deployerFunded, tk.quote0 + rng.uniform(2, 10));
    const nInsiders = rng.int(2, 4);
    for (let j = 0; j < nInsiders; j++) {
      const fundedAt = Math.min(c - bt, Math.max(deployerFunded + bt, c - rng.uniform(2, 30) * 60));
      tk.insiders.push(addWallet('insider', tk.deployer, fundedAt, rng.uniform(1, 5)));
    }
    tk.audience = rng.shuffle([...retail]).slice(0, Math.min(retail.length, rng.int(60, 140)));
    if (tk.story === 'whale') {
      const [top, ...rest] = rng.shuffle([...whales]);
      tk.distributions.push({ wallet: top as number, share: rng.uniform(0.24, 0.28) });
      for (const w of rest.slice(0, 2)) tk.distributions.push({ wallet: w, share: rng.uniform(0.11, 0.14) });
    }
    const distributed = tk.distributions.reduce((a, d) => a + d.share, 0);
    tk.burnShare = Math.max(0, 1 - tk.poolShare - tk.deployerKeep - distributed);
  }

  // pumps: short rallies on organic, noise and whale tokens (edge traders buy just before them)
  for (const tk of tokens) {
    if (tk.story !== 'organic' && tk.story !== 'noise' && tk.story !== 'whale') continue;
    let t = tk.createdAt + rng.uniform(0.3, 0.8) * DAY;
    while (t < end - 6 * HOUR) {
      tk.pumps.push({
        at: snap(t),
        dur: rng.uniform(1.5, 3) * HOUR,
        rise: rng.uniform(0.3, 0.45),
        retain: tk.story === 'organic' ? 0.15 : 0.05,
      });
      t += rng.uniform(0.6, 1.3) * DAY;
    }
  }

  // ---- scheduled actions ---------------------------------------------------------------------
  for (const w of wallets) if (w.funder !== null) actions.push({ time: w.fundedAt, action: { kind: 'fund', wallet: w.index } });
  for (const tk of tokens) at(tk.createdAt, { kind: 'create', token: tk.index });

  for (const tk of tokens) {
    const c = tk.createdAt;
    const token = tk.index;
    // insiders buy in the launch block
    for (const w of tk.insiders) at(c, { kind: 'buy', wallet: w, token, frac: rng.uniform(0.02, 0.05) });
    // snipers in the first blocks after launch
    const nSnipe = rng.int(1, 3);
    for (const w of rng.shuffle([...snipers]).slice(0, nSnipe)) {
      const buyAt = c + bt * rng.int(1, 3);
      tk.snipers.push(w);
      at(buyAt, { kind: 'buy', wallet: w, token, frac: rng.uniform(0.01, 0.03) });
      at(buyAt + rng.uniform(0.25, 6) * HOUR, { kind: 'sell', wallet: w, token, frac: 1 });
    }
    switch (tk.story) {
      case 'rug': {
        const rugAt = tk.rugAt as number;
        for (const w of tk.insiders) at(Math.max(c + 600, rugAt - rng.uniform(0.5, 6) * HOUR), { kind: 'sell', wallet: w, token, frac: 1 });
        at(rugAt - bt, { kind: 'sell', wallet: tk.deployer, token, frac: 1 });
        const steps = rng.int(1, 3);
        const fracs = steps === 1 ? [0.95] : steps === 2 ? [0.7, 0.85] : [0.5, 0.7, 0.8];
        let t = rugAt;
        for (const frac of fracs) {
          at(t, { kind: 'removeLiquidity', token, frac });
          t += rng.uniform(1, 6) * 60;
        }
        // and dumps the tokens the removal handed back into what is left of the pool
        at(t, { kind: 'sell', wallet: tk.deployer, token, frac: 1 });
        break;
      }
      case 'drain': {
        // a seventh of what the deployer still holds, every 30 to 50 minutes, eight times: no step is a pull
        let t = tk.rugAt as number;
        for (let j = 0; j < 8; j++) {
          at(t, { kind: 'removeLiquidity', token, frac: 1 / 7 });
          t += rng.uniform(30, 50) * 60;
        }
        for (const w of tk.insiders) at(t + rng.uniform(0, 2) * HOUR, { kind: 'sell', wallet: w, token, frac: 1 });
        break;
      }
      case 'latetax':
        // the owner dumps some hours after the switch, untaxed
        at((tk.taxAt as number) + rng.uniform(2, 8) * HOUR, { kind: 'sell', wallet: tk.deployer, token, frac: 0.6 });
        break;
      case 'honeypot': {
        const n = rng.int(2, 3);
        const life = Math.min(3 * DAY, Math.max(6 * HOUR, end - c - HOUR));
        const dumps: number[] = [];
        for (let j = 0; j < n; j++) {
          const t = snap(c + life * ((j + rng.uniform(0.3, 0.9)) / n));
          dumps.push(t);
          at(t, { kind: 'sell', wallet: tk.deployer, token, frac: 0.5 });
          at(t + bt, { kind: 'sell', wallet: rng.pick(tk.insiders), token, frac: rng.uniform(0.6, 1) });
        }
        tk.dumps = dumps;
        break;
      }
      case 'bleed': {
        const from = tk.bleedStart as number;
        const to = Math.max(from + DAY, end);
        for (let j = 0; j < 8; j++) at(from + ((j + rng.next()) / 8) * (to - from), { kind: 'sell', wallet: tk.deployer, token, frac: 0.2 });
        for (const w of tk.insiders) {
          at(from + rng.uniform(0, 0.4) * (to - from), { kind: 'sell', wallet: w, token, frac: 0.5 });
          at(from + rng.uniform(0.4, 1) * (to - from), { kind: 'sell', wallet: w, token, frac: 1 });
        }
        break;
      }
      case 'accumulation':
      case 'coil': {
        const after = (tk.breakoutAt as number) + (tk.rampSec as number);
        for (const w of tk.insiders) at(after + rng.uniform(0.5, 1) * (tk.peakSec as number), { kind: 'sell', wallet: w, token, frac: 1 });
        break;
      }
      default: {
        for (const w of tk.insiders) {
          const first = c + rng.uniform(0.5, 3) * DAY;
          at(first, { kind: 'sell', wallet: w, token, frac: 0.5 });
          at(first + rng.uniform(1, 4) * DAY, { kind: 'sell', wallet: w, token, frac: 1 });
        }
        if (tk.story === 'organic') {
          at(c + rng.uniform(1, 3) * DAY, { kind: 'addLiquidity', token, frac: 0.5 });
          at(c + rng.uniform(4, 7) * DAY, { kind: 'addLiquidity', token, frac: 0.9 });
        }
        if (tk.story === 'noise') at(c + rng.uniform(1, 3) * DAY, { kind: 'removeLiquidity', token, frac: rng.uniform(0.06, 0.12) });
      }
    }
  }

  // whales: a few large swing positions in healthy tokens
  const healthy = tokens.filter((t) => t.story === 'organic' || t.story === 'noise' || t.story === 'accumulation');
  for (const w of whales) {
    const n = rng.int(2, 4);
    const from = wallets[w]?.fundedAt ?? G;
    for (let j = 0; j < n && healthy.length > 0; j++) {
      const tk = rng.pick(healthy);
      const t = Math.max(tk.createdAt + 0.5 * DAY, from + HOUR) + rng.uniform(0, 0.5) * S;
      if (t > end - DAY) continue;
      at(t, { kind: 'buy', wallet: w, token: tk.index, frac: rng.uniform(0.02, 0.04) });
      at(t + rng.uniform(1, 3) * DAY, { kind: 'sell', wallet: w, token: tk.index, frac: 1 });
    }
  }

  planEdgeTraders(rng, tokens, edge, wallets, at, G, S);

  for (const b of bots) {
    const start = (wallets[b]?.fundedAt ?? G) + rng.exponential(8 * HOUR);
    at(start, { kind: 'botEpisode', wallet: b });
  }

  planCrowds({ seed, genesisTime: G, spanSec: S, tokens, exchanges, addWallet, at }, options.crowds ?? []);
  return { options, weth: addressFor(seed, 'WETH'), wallets, tokens, actions };
}

interface Opportunity {
  token: number;
  buyFrom: number;
  buyTo: number;
  sellFrom: number;
  sellTo: number;
  tranches: number;
  weight: number;
}

/**
 * Traders with a real edge act on each story's future: they buy shortly before a pump or during
 * an accumulation/coil phase, and sell near the top. Slots spread their round trips over the
 * span so each one has >= 10 round trips over >= 7 days across several tokens.
 */
function planEdgeTraders(
  rng: Rng,
  tokens: TokenPlan[],
  edge: number[],
  wallets: WalletPlan[],
  at: (time: number, action: Action) => void,
  G: number,
  S: number,
): void {
  const opps: Opportunity[] = [];
  for (const tk of tokens) {
    for (const p of tk.pumps) {
      opps.push({ token: tk.index, buyFrom: p.at - 3 * HOUR, buyTo: p.at - 0.3 * HOUR, sellFrom: p.at + p.dur, sellTo: p.at + p.dur + HOUR, tranches: rng.int(1, 2), weight: 1 });
    }
    if (tk.breakoutAt !== undefined) {
      const phaseStart = tk.accumulationStart ?? tk.coilStart ?? tk.createdAt;
      const top = tk.breakoutAt + (tk.rampSec as number);
      opps.push({
        token: tk.index,
        buyFrom: tk.breakoutAt - 0.6 * (tk.breakoutAt - phaseStart),
        buyTo: tk.breakoutAt - HOUR,
        sellFrom: top + HOUR,
        sellTo: top + Math.max(HOUR * 2, (tk.peakSec as number) - HOUR),
        tranches: tk.story === 'coil' ? rng.int(3, 5) : rng.int(2, 3),
        weight: 3,
      });
    }
  }
  if (opps.length === 0) return;
  const slots = 16;
  const lo = G + 0.04 * S;
  const hi = G + 0.97 * S;
  for (const w of edge) {
    const fundedAt = wallets[w]?.fundedAt ?? G;
    const taken: { token: number; from: number; to: number }[] = [];
    for (let s = 0; s < slots; s++) {
      const a = lo + ((hi - lo) * s) / slots;
      const b = lo + ((hi - lo) * (s + 1)) / slots;
      const candidates = opps.filter(
        (o) =>
          o.buyFrom >= a &&
          o.buyFrom < b &&
          o.buyFrom > fundedAt + 600 &&
          !taken.some((x) => x.token === o.token && x.from <= o.sellTo + HOUR && o.buyFrom <= x.to + HOUR),
      );
      if (candidates.length === 0) continue;
      const total = candidates.reduce((acc, o) => acc + o.weight, 0);
      let r = rng.uniform(0, total);
      let chosen = candidates[0] as Opportunity;
      for (const o of candidates) {
        r -= o.weight;
        if (r <= 0) {
          chosen = o;
          break;
        }
      }
      const sellAt = rng.uniform(chosen.sellFrom, chosen.sellTo);
      taken.push({ token: chosen.token, from: chosen.buyFrom, to: sellAt });
      // many small tranches when accumulating quietly, fewer and larger before a pump
      const perTranche = chosen.tranches > 3 ? [0.001, 0.0025] : [0.004, 0.01];
      for (let j = 0; j < chosen.tranches; j++) {
        at(rng.uniform(chosen.buyFrom, chosen.buyTo), { kind: 'buy', wallet: w, token: chosen.token, frac: rng.uniform(perTranche[0] as number, perTranche[1] as number) });
      }
      at(sellAt, { kind: 'sell', wallet: w, token: chosen.token, frac: 1 });
    }
  }
}
