import type { Source } from '../types.ts';
import { buildPlan, DAY, type Plan, type Story } from './plan.ts';
import { createSimSource, type SimSourceOptions } from './source.ts';
import { buildTruth, type SimTruth } from './truth.ts';
import type { Crowd } from './crowds.ts';
import { DEAD_ADDRESS, World, ZERO_ADDRESS, wethUsdAt, type SimBlock } from './world.ts';

export type { SimBlock } from './world.ts';
export type { SimTruth, TokenTruth, WalletTruth } from './truth.ts';
export type { Story, Behaviour } from './plan.ts';
export type { SimSourceOptions } from './source.ts';
export { STORIES, EVAL_STORIES, BEHAVIOURS } from './plan.ts';
export { ZERO_ADDRESS, DEAD_ADDRESS } from './world.ts';
export { EVAL_CROWDS } from './crowds.ts';
export type { Crowd } from './crowds.ts';

export interface SimulatorOptions {
  seed: number;
  /** chain slug on every event; default 'sim' */
  chain?: string;
  /** unix seconds of block 0; stories play out over [genesisTime, genesisTime + spanDays] */
  genesisTime: number;
  /** default 12 */
  blockTimeSec?: number;
  /** days over which the stories play out; default 10 */
  spanDays?: number;
  /** number of tokens; default 36 */
  tokens?: number;
  /** approximate number of wallets (at least enough for the roles); default 600 */
  wallets?: number;
  /** the stories dealt to the tokens in turn; default STORIES (the eval adds EVAL_STORIES) */
  stories?: readonly Story[];
  /** wallet crowds added to the world (the eval adds EVAL_CROWDS); default none */
  crowds?: readonly Crowd[];
}

export interface Simulator {
  readonly chain: string;
  readonly truth: SimTruth;
  /** Blocks with events whose timestamp is <= untilTime; continues from where the last call stopped. */
  blocksUntil(untilTime: number): Generator<SimBlock>;
  /** last generated block number (empty blocks included) */
  readonly block: number;
  /** WETH/USD used to value swaps at a given time */
  wethUsdAt(timestamp: number): number;
  /** an ingest Source (backfill, then live at `speed`) over a fresh, independent world */
  source(opts?: SimSourceOptions): Source;
}

export function createSimulator(opts: SimulatorOptions): Simulator {
  const chain = opts.chain ?? 'sim';
  const blockTimeSec = opts.blockTimeSec ?? 12;
  if (!Number.isFinite(opts.seed)) throw new Error('simulator seed must be a number');
  if (!(blockTimeSec >= 1) || !Number.isInteger(blockTimeSec)) throw new Error('blockTimeSec must be a positive integer');
  const plan: Plan = buildPlan({
    seed: opts.seed,
    genesisTime: Math.floor(opts.genesisTime),
    blockTimeSec,
    spanSec: Math.round((opts.spanDays ?? 10) * DAY),
    tokens: opts.tokens ?? 36,
    wallets: opts.wallets ?? 600,
    ...(opts.stories ? { stories: opts.stories } : {}),
    ...(opts.crowds ? { crowds: opts.crowds } : {}),
  });
  const truth = buildTruth(plan, chain, ZERO_ADDRESS, DEAD_ADDRESS);
  const world = new World(plan, chain);
  return {
    chain,
    truth,
    blocksUntil: (untilTime) => world.blocksUntil(untilTime),
    get block() {
      return world.block;
    },
    wethUsdAt: (timestamp) => wethUsdAt(timestamp, plan.options.genesisTime),
    source: (sourceOpts = {}) => createSimSource(() => new World(plan, chain), chain, sourceOpts),
  };
}
