import type { TokenEvent } from '../../schemas/events.ts';
import { Topics } from '../../schemas/events.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';
import { FundingTopic, TokenEventsTopic, TokenFactsTopic, TradesByWalletTopic, recordOf } from '../../infra/topics.ts';
import { deriveTokenSnapshot } from '../../engine/token/derive.ts';
import { digestOf, rememberWritten } from '../../engine/token/changes.ts';
import type { TokenState } from '../../engine/token/state.ts';
import { foldTokenEvent, initialTokenState } from '../../engine/token/state.ts';
import { firstFundingOf, walletMessagesOf } from '../../engine/rekey.ts';
import type { FoldSpec } from '../spec.ts';
import type { EngineJoins } from '../joins.ts';
import type { FoldContext } from './common.ts';
import { publishedPerKey, splitKey } from './common.ts';

/** the rows a token's derivation reads: its recent buyers' grades, its deployer's funded wallets (the same in `derive`) */
const tokenReads = (s: TokenState) => ({
  buyers: s.recentBuyers.map((b) => `${s.chain}:${b.wallet}`),
  deployer: s.meta.deployer ? [`${s.chain}:${s.meta.deployer}`] : [],
});

/** an hourly record of what was said and at what price: the system of record of the past */
function tokenHistoryBody(b: unknown) {
  const snap = b as TokenSnapshot;
  return {
    chain: snap.chain,
    token: snap.token,
    symbol: snap.symbol,
    asOf: snap.asOf,
    asOfTs: snap.asOfTs,
    verdict: snap.verdict,
    signal: snap.signal,
    facts: snap.facts,
    priceUsd: snap.basis.priceUsd,
    liquidityUsd: snap.basis.liquidityUsd,
  };
}

/** the token snapshot with the joined tables; an address with no pool (a quote asset such as WETH) is not a token we rate */
function deriveToken(j: EngineJoins, s: TokenState, key: string): TokenSnapshot | undefined {
  if (s.meta.pool === null) return undefined;
  const reads = tokenReads(s);
  j.deployerRead.set(key, reads.deployer);
  const snap = deriveTokenSnapshot(s, {
    insiders: j.funding.fundedWithin(s.chain, s.meta.deployer),
    gradeOf: (wallet) => j.grades.gradeOf(s.chain, wallet),
    written: s.written,
    candles: j.candles.barsOf(s.chain, s.token),
  });
  rememberWritten(s.written, digestOf(snap));
  j.buyersRead.set(key, reads.buyers);
  return snap;
}

/** its reads follow from its state; its candles are its own row */
function tokenRestoredReads(j: EngineJoins, deriveId: string): NonNullable<FoldSpec<TokenState, TokenEvent>['reads']> {
  return {
    deriveId,
    watermark: () => j.clock.watermark(),
    restore: (key, s, _saved, since) => {
      if (s.meta.pool === null) return false;
      const reads = tokenReads(s);
      j.deployerRead.set(key, reads.deployer);
      j.buyersRead.set(key, reads.buyers);
      return (
        j.clock.changedSince(`candles|${key}`, since) ||
        reads.buyers.some((w) => j.clock.changedSince(`grades|${w}`, since)) ||
        reads.deployer.some((d) => j.clock.changedSince(`funded|${d}`, since))
      );
    },
  };
}

/**
 * The token fold (key chain:token): folds token events, re-keys swaps by trader (with hourly price
 * marks for the wallets that traded in the last hours) and first fundings to their topics, and
 * publishes a change of a token's final facts to the token-facts table. `finish` rephrases the
 * texts when a model writer is configured.
 */
export function tokenFoldSpec(j: EngineJoins, ctx: FoldContext, finish?: (body: unknown) => Promise<unknown>): FoldSpec<TokenState, TokenEvent> {
  /** the facts last published per token (a replay publishes them again, harmlessly) */
  const factsPublished = publishedPerKey<string>();
  const factsRecord = (body: unknown) => {
    const snap = body as TokenSnapshot;
    return recordOf(TokenFactsTopic, { chain: snap.chain, token: snap.token, ...snap.facts });
  };
  return {
    groupId: 'engine-token',
    kind: 'token',
    topics: [Topics.tokenEvents],
    init: (key) => initialTokenState(...splitKey(key)),
    decode: (v) => TokenEventsTopic.codec.decode(v),
    fold: foldTokenEvent,
    derive: (s, key) => deriveToken(j, s, key),
    reads: tokenRestoredReads(j, ctx.deriveId),
    finish,
    joins: [j.consumers.grades, j.consumers.funding, j.consumers.candles],
    ...ctx.hooks,
    emit: (key, body) => {
      const out = factsRecord(body);
      return factsPublished.differs(key, out.record.value) ? [out] : [];
    },
    emitted: (key, body) => factsPublished.remember(key, factsRecord(body).record.value),
    version: (s) => Math.max(0, s.lastPosition),
    stateVersion: initialTokenState('', '').v,
    historyBucket: (s) => Math.floor(s.lastTs / 3600),
    historyBody: tokenHistoryBody,
    fanOut: (e, _key, s) => {
      const out = walletMessagesOf(s, e).map((m) => recordOf(TradesByWalletTopic, m));
      const funding = firstFundingOf(s, e);
      if (funding) out.push(recordOf(FundingTopic, funding));
      return out;
    },
  };
}
