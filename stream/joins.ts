import type { Consumer, Log } from '../infra/log/types.ts';
import { CandlesTopic, FundingTopic, TokenFactsTopic, WalletGradesTopic } from '../infra/topics.ts';
import { tokenKey } from '../schemas/events.ts';
import { FUNDING_HOPS } from '../schemas/topics.ts';
import { FUNDING_HUB_FANOUT, createCandleTable, createChangeClock, createFundingTable, createGradeTable, createJoinIndex, createTokenFactsTable } from '../engine/tables.ts';
import type { CandleTable, ChangeClock, FundingTable, GradeTable, JoinIndex, TokenFactsTable } from '../engine/tables.ts';
import type { FundingRecord, WalletGradeRecord } from '../schemas/topics.ts';
import type { TopicDef } from '../infra/topics.ts';
import { caughtUp, createReaderSlot, followTable } from './tables.ts';
import type { ReaderSlot, StaleKeys } from './tables.ts';

/**
 * The tables the engine's derivations join with (engine/tables.ts): each folded from its
 * compacted topic by every engine process; a changed row re-derives the keys that read it. Wallet
 * grades feed the tokens' smartMoney pillar, token facts the wallets' open books.
 */
export interface EngineJoins {
  grades: GradeTable;
  tokenFacts: TokenFactsTable;
  funding: FundingTable;
  candles: CandleTable;
  /** token key → the wallets of its recent buyers and its deployer; wallet key → the tokens of its open book */
  buyersRead: JoinIndex;
  deployerRead: JoinIndex;
  holdingsRead: JoinIndex;
  /** when each row read changed (rows named `table|key`), for the checkpoints (FoldSpec.reads) */
  clock: ChangeClock;
  /** the token and wallet workers, once started */
  tokenReaders: ReaderSlot;
  walletReaders: ReaderSlot;
  consumers: { grades: Consumer; facts: Consumer; candles: Consumer; funding: Consumer };
}

/**
 * Follows the joined tables, and resolves once each is read to its end once: the workers derive
 * with complete tables. From then on a change is handed to the workers (before, none had derived
 * anything, and a key a checkpoint restores is checked against every change since that
 * checkpoint's watermark).
 */
export async function followEngineTables(log: Log): Promise<EngineJoins> {
  const j = {
    ...{ grades: createGradeTable(), tokenFacts: createTokenFactsTable(), funding: createFundingTable(), candles: createCandleTable() },
    ...{ buyersRead: createJoinIndex(), deployerRead: createJoinIndex(), holdingsRead: createJoinIndex(), clock: createChangeClock() },
    ...{ tokenReaders: createReaderSlot(), walletReaders: createReaderSlot() },
  };
  const { clock, tokenReaders, walletReaders } = j;
  const opts = { handed: clock.handed };
  /** a table whose changed record changes one row: `row` names it, `stale` its readers */
  const follow = <T extends { chain: string }>(def: TopicDef<T>, apply: (r: T) => boolean, row: (r: T) => string, stale: (r: T) => StaleKeys) =>
    followTable(
      log,
      def,
      (r, at) => {
        if (!apply(r)) return [];
        clock.changed(row(r), at.tp, at.offset);
        return stale(r);
      },
      opts,
    );
  const walletOf = (g: WalletGradeRecord) => tokenKey(g.chain, g.wallet);
  const tokenOf = (r: { chain: string; token: string }) => tokenKey(r.chain, r.token);
  const grades = await follow(WalletGradesTopic, (g) => j.grades.apply(g), (g) => `grades|${walletOf(g)}`, (g) => [[tokenReaders, j.buyersRead.readersOf(walletOf(g))]]);
  const facts = await follow(TokenFactsTopic, (f) => j.tokenFacts.apply(f), (f) => `facts|${tokenOf(f)}`, (f) => [[walletReaders, j.holdingsRead.readersOf(tokenOf(f))]]);
  // a provider's candle of a token re-derives the token (price action reads it for hours without a swap)
  const candles = await follow(CandlesTopic, (c) => j.candles.apply(c), (c) => `candles|${tokenOf(c)}`, (c) => [[tokenReaders, [tokenOf(c)]]]);
  const funding = await followTable(log, FundingTopic, (f, at) => fundingChanged(j, f, (row) => clock.changed(row, at.tp, at.offset)), opts);
  const consumers = { grades, facts, candles, funding };
  await Promise.all(Object.values(consumers).map((c) => caughtUp(c)));
  tokenReaders.arm();
  walletReaders.arm();
  return { ...j, consumers };
}

/** wallets of a changed cluster derived again at most: a cluster wider than this waits for their next trade */
const CLUSTER_REDERIVED = 500;

/**
 * A wallet's first funding changes the funded trees of its funders and of theirs up the chain
 * (the insiders of the tokens they deployed), the funding chains of the wallet and of those below
 * it, and the clusters of every wallet under those funders (a trader's grade leaves out what it won
 * against its own cluster, whichever of the two was funded last).
 */
function fundingChanged(j: Omit<EngineJoins, 'consumers'>, f: FundingRecord, changed: (row: string) => void): StaleKeys {
  const funders = j.funding.apply(f);
  if (funders.length === 0) return [];
  const roots = [...new Set(funders.flatMap((x) => [x, ...j.funding.fundingChain(f.chain, x, FUNDING_HOPS - 1)]))];
  for (const root of roots) changed(`funded|${tokenKey(f.chain, root)}`);
  const below = [f.wallet, ...j.funding.fundedWithin(f.chain, f.wallet, FUNDING_HOPS - 1)].map((w) => tokenKey(f.chain, w));
  for (const w of below) changed(`funder|${w}`);
  const clusters = roots
    .filter((root) => j.funding.fundedCount(f.chain, root) <= FUNDING_HUB_FANOUT)
    .flatMap((root) => j.funding.fundedWithin(f.chain, root, FUNDING_HOPS))
    .map((w) => tokenKey(f.chain, w));
  return [
    [j.tokenReaders, roots.flatMap((root) => [...j.deployerRead.readersOf(tokenKey(f.chain, root))])],
    [j.walletReaders, [...new Set([...below, ...clusters.slice(0, CLUSTER_REDERIVED)])]],
  ];
}
