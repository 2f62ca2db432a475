import type { Behaviour, Plan, Story } from './plan.ts';

/** Ground truth of a simulation: what each token and wallet really is. Plain JSON. */
export interface TokenTruth {
  address: string;
  pool: string;
  symbol: string;
  story: Story;
  deployer: string;
  insiders: string[];
  snipers: string[];
  /** wallets handed a large share of supply at launch */
  whales: string[];
  totalSupply: number;
  createdAt: number;
  accumulationStart?: number;
  coilStart?: number;
  breakoutAt?: number;
  /** end of the breakout's rise */
  peakAt?: number;
  rugAt?: number;
  /** latetax: when the sell tax went on (its honeypot flag's event) */
  taxAt?: number;
  bleedStart?: number;
  /** honeypot: times the deployer and insiders sold */
  dumps?: number[];
  /** short rallies (organic, noise, whale tokens) */
  pumps?: number[];
}

export interface WalletTruth {
  address: string;
  behaviour: Behaviour;
  /** address that sent the wallet its first WETH; null for funders */
  funder: string | null;
}

export interface SimTruth {
  chain: string;
  seed: number;
  genesisTime: number;
  blockTimeSec: number;
  /** span (s) over which the stories play out, from genesisTime */
  spanSec: number;
  weth: string;
  zero: string;
  dead: string;
  tokens: TokenTruth[];
  wallets: WalletTruth[];
  /** expected labels (addresses) */
  labels: {
    rug: string[];
    honeypot: string[];
    concentrated: string[];
    edge: string[];
    bots: string[];
    insiders: string[];
    snipers: string[];
    /** the eval's crowds (crowds.ts): sybil farm wallets, and skilled wallets of few round trips */
    farm: string[];
    skilled: string[];
  };
}

export function buildTruth(plan: Plan, chain: string, zero: string, dead: string): SimTruth {
  const addr = (i: number): string => plan.wallets[i]?.address ?? '';
  const tokens: TokenTruth[] = plan.tokens.map((tk) => {
    const t: TokenTruth = {
      address: tk.address,
      pool: tk.pool,
      symbol: tk.symbol,
      story: tk.story,
      deployer: addr(tk.deployer),
      insiders: tk.insiders.map(addr),
      snipers: tk.snipers.map(addr),
      whales: tk.distributions.map((d) => addr(d.wallet)),
      totalSupply: tk.totalSupply,
      createdAt: tk.createdAt,
    };
    if (tk.accumulationStart !== undefined) t.accumulationStart = tk.accumulationStart;
    if (tk.coilStart !== undefined) t.coilStart = tk.coilStart;
    if (tk.breakoutAt !== undefined) {
      t.breakoutAt = tk.breakoutAt;
      t.peakAt = Math.round(tk.breakoutAt + (tk.rampSec ?? 0));
    }
    if (tk.rugAt !== undefined) t.rugAt = tk.rugAt;
    if (tk.taxAt !== undefined) t.taxAt = tk.taxAt;
    if (tk.bleedStart !== undefined) t.bleedStart = tk.bleedStart;
    if (tk.dumps !== undefined) t.dumps = tk.dumps;
    if (tk.pumps.length > 0) t.pumps = tk.pumps.map((p) => p.at);
    return t;
  });
  const wallets: WalletTruth[] = plan.wallets.map((w) => ({
    address: w.address,
    behaviour: w.behaviour,
    funder: w.funder === null ? null : addr(w.funder),
  }));
  const byStory = (s: Story): string[] => tokens.filter((t) => t.story === s).map((t) => t.address);
  const byBehaviour = (b: Behaviour): string[] => wallets.filter((w) => w.behaviour === b).map((w) => w.address);
  return {
    chain,
    seed: plan.options.seed,
    genesisTime: plan.options.genesisTime,
    blockTimeSec: plan.options.blockTimeSec,
    spanSec: plan.options.spanSec,
    weth: plan.weth,
    zero,
    dead,
    tokens,
    wallets,
    labels: {
      rug: [...byStory('rug'), ...byStory('drain')],
      honeypot: [...byStory('honeypot'), ...byStory('latetax')],
      concentrated: byStory('whale'),
      edge: byBehaviour('edge'),
      bots: byBehaviour('bot'),
      insiders: byBehaviour('insider'),
      snipers: byBehaviour('sniper'),
      farm: byBehaviour('farm'),
      skilled: byBehaviour('skilled'),
    },
  };
}
