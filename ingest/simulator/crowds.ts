import { createRng } from './prng.ts';
import type { Action, Behaviour, TokenPlan } from './plan.ts';

/**
 * Wallet crowds the eval adds to the world (`npm start`'s world has none): each drawn from its own
 * random stream after the plan, so the stories' tokens and wallets stay as they were.
 * - `sybil`: a farm of wallets paid from one root through a hop wins round trips against a loser
 *   the same root paid through a hop of its own (class 7: the cluster loses what the farm wins).
 * - `skilled`: wallets that buy ahead of a pump and sell into it a few times only, on three tokens
 *   (skill the full sample would leave unrated for days).
 */
export const EVAL_CROWDS = ['sybil', 'skilled'] as const;
const HOUR = 3600;
const DAY = 86_400;
export type Crowd = (typeof EVAL_CROWDS)[number];

export interface CrowdContext {
  seed: number;
  genesisTime: number;
  spanSec: number;
  tokens: TokenPlan[];
  /** exchanges: funders of everyone's first WETH */
  exchanges: number[];
  addWallet: (behaviour: Behaviour, funder: number | null, fundedAt: number, fundAmount: number) => number;
  at: (time: number, action: Action) => void;
}

/** tokens with pumps (organic, noise, whale), their pumps after `from` */
function pumpsAfter(tokens: TokenPlan[], from: number): { token: number; at: number }[] {
  return tokens.flatMap((t) => t.pumps.filter((p) => p.at > from).map((p) => ({ token: t.index, at: p.at }))).sort((a, b) => a.at - b.at);
}

function planFarm(c: CrowdContext, k: number): void {
  const rng = createRng(`crowd:${c.seed}:sybil:${k}`);
  const G = c.genesisTime;
  const start = G + rng.uniform(0.02, 0.05) * c.spanSec;
  const root = c.addWallet('funder', rng.pick(c.exchanges), start - 6 * HOUR, 200);
  const hop = c.addWallet('funder', root, start - 5 * HOUR, 100);
  const farm = Array.from({ length: rng.int(3, 5) }, () => c.addWallet('farm', hop, start - 4 * HOUR + rng.uniform(0, HOUR), 10));
  const loserHop = c.addWallet('funder', root, start - 5 * HOUR, 100);
  const loser = c.addWallet('farmLoser', loserHop, start - 4 * HOUR, 80);
  const healthy = c.tokens.filter((t) => t.story === 'organic' || t.story === 'noise' || t.story === 'accumulation').map((t) => t);
  if (healthy.length === 0) return;
  const every = rng.uniform(14, 18) * HOUR;
  for (let t = start; t < G + c.spanSec - 2 * HOUR; t += every) {
    const live = healthy.filter((x) => x.createdAt + HOUR < t);
    if (live.length === 0) continue;
    const token = rng.pick(live).index;
    for (const w of farm) c.at(t + rng.uniform(0, 120), { kind: 'buy', wallet: w, token, frac: rng.uniform(0.003, 0.006) });
    c.at(t + rng.uniform(8, 12) * 60, { kind: 'buy', wallet: loser, token, frac: rng.uniform(0.12, 0.2) });
    for (const w of farm) c.at(t + rng.uniform(18, 25) * 60, { kind: 'sell', wallet: w, token, frac: 1 });
    c.at(t + rng.uniform(35, 60) * 60, { kind: 'sell', wallet: loser, token, frac: 1 });
  }
}

function planSkilled(c: CrowdContext, k: number): void {
  const rng = createRng(`crowd:${c.seed}:skilled:${k}`);
  const G = c.genesisTime;
  const from = G + rng.uniform(0.05, 0.4) * c.spanSec;
  const w = c.addWallet('skilled', rng.pick(c.exchanges), from - HOUR, rng.uniform(5, 20));
  // a round trip about every half day, a pump of a token it did not just trade
  let last = -1;
  let after = from;
  for (let n = 0; n < rng.int(5, 7); n++) {
    const next = pumpsAfter(c.tokens, after + 2 * HOUR).find((p) => p.token !== last);
    if (!next) return;
    c.at(next.at - rng.uniform(0.5, 2) * HOUR, { kind: 'buy', wallet: w, token: next.token, frac: rng.uniform(0.004, 0.008) });
    c.at(next.at + rng.uniform(1.5, 2.5) * HOUR, { kind: 'sell', wallet: w, token: next.token, frac: 1 });
    last = next.token;
    after = next.at + rng.uniform(0.3, 0.6) * DAY;
  }
}

export function planCrowds(c: CrowdContext, crowds: readonly Crowd[]): void {
  // the plan scheduled its own wallets' funding already: a crowd's wallets are funded as they are added
  const funded: CrowdContext = {
    ...c,
    addWallet: (behaviour, funder, fundedAt, fundAmount) => {
      const w = c.addWallet(behaviour, funder, fundedAt, fundAmount);
      if (funder !== null) c.at(fundedAt, { kind: 'fund', wallet: w });
      return w;
    },
  };
  crowds.forEach((crowd, k) => (crowd === 'sybil' ? planFarm(funded, k) : planSkilled(funded, k)));
}
