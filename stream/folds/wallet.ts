import { Topics } from '../../schemas/events.ts';
import type { Verdict } from '../../schemas/common.ts';
import type { WalletMessage } from '../../schemas/topics.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import { TradesByWalletTopic, WalletGradesTopic, recordOf } from '../../infra/topics.ts';
import { foldWalletMessage } from '../../engine/rekey.ts';
import { deriveWalletSnapshot } from '../../engine/wallet/derive.ts';
import { clusterOf } from '../../engine/wallet/cluster.ts';
import type { WalletState } from '../../engine/wallet/state.ts';
import { initialWalletState } from '../../engine/wallet/state.ts';
import type { FoldSpec } from '../spec.ts';
import type { EngineJoins } from '../joins.ts';
import type { FoldContext } from './common.ts';
import { publishedPerKey, splitKey } from './common.ts';

/** the wallet snapshot with the joined tables (its funders, the facts of the tokens it traded) */
function deriveWallet(j: EngineJoins, s: WalletState, key: string): WalletSnapshot {
  const tokens = j.tokenFacts.lookup(s.chain);
  // the deployer of each token it traded (token-facts): a wallet that deployed a token it trades, or was funded by its deployer, is an insider
  const deployers: Record<string, string> = {};
  const deployerUnknown: string[] = [];
  for (const t of Object.keys(s.tokens)) {
    const dep = tokens(t)?.deployer;
    if (dep) deployers[t] = dep;
    else deployerUnknown.push(`${s.chain}:${t}`);
  }
  const inCluster = clusterOf(j.funding, s.chain, s.wallet);
  const snap = deriveWalletSnapshot(s, { funders: j.funding.fundingChain(s.chain, s.wallet), tokens, deployers, inCluster });
  // the token facts it read: its open positions' (their risk), and those of the tokens it
  // traded whose deployer is not known yet (once known it never changes). Without the latter
  // a wallet that closed its position before its token's facts came kept a grade that
  // depended on when they came (seen after a broker outage delayed them)
  j.holdingsRead.set(key, [...(snap.positions ?? []).filter((p) => p.status === 'open').map((p) => `${s.chain}:${p.token}`), ...deployerUnknown]);
  return snap;
}

/**
 * The wallet fold (key chain:wallet): folds the trades the token fold re-keyed by trader, and
 * publishes a grade change to the wallet-grades table (compacted, keyed by wallet).
 */
export function walletFoldSpec(j: EngineJoins, ctx: FoldContext): FoldSpec<WalletState, WalletMessage> {
  /** the grade last published per wallet (a replay publishes a grade again, harmlessly) */
  const gradePublished = publishedPerKey<Verdict>();
  return {
    groupId: 'engine-wallet',
    kind: 'wallet',
    topics: [Topics.tradesByWallet],
    init: (key) => initialWalletState(...splitKey(key)),
    decode: (v) => TradesByWalletTopic.codec.decode(v),
    fold: foldWalletMessage,
    derive: (s, key) => deriveWallet(j, s, key),
    // the token facts it read follow from its derived book, not its state: its entry keeps them
    reads: {
      deriveId: ctx.deriveId,
      watermark: () => j.clock.watermark(),
      save: (key) => j.holdingsRead.rowsOf(key),
      restore: (key, _s, saved, since) => {
        if (!Array.isArray(saved) || !saved.every((r): r is string => typeof r === 'string')) return true;
        j.holdingsRead.set(key, saved);
        return j.clock.changedSince(`funder|${key}`, since) || saved.some((t) => j.clock.changedSince(`facts|${t}`, since));
      },
    },
    joins: [j.consumers.facts, j.consumers.funding],
    ...ctx.hooks,
    emit: (key, body) => {
      const { grade, asOf } = body as { grade: Verdict; asOf: string };
      if (!gradePublished.differs(key, grade)) return [];
      const [chain, wallet] = splitKey(key);
      return [recordOf(WalletGradesTopic, { chain, wallet, grade, asOfTs: Math.floor(Date.parse(asOf) / 1000) })];
    },
    emitted: (key, body) => gradePublished.remember(key, (body as { grade: Verdict }).grade),
    version: (s) => s.version,
    stateVersion: initialWalletState('', '').v,
    historyBucket: (s) => Math.floor(s.asOfTs / 3600),
    // trader track records score a grade by the realised sums at later hours: keep those, when they move
    historyBody: (b) => {
      const w = b as WalletSnapshot;
      return { chain: w.chain, wallet: w.wallet, asOf: w.asOf, grade: w.grade, basis: w.basis };
    },
    historyKey: (h) => JSON.stringify({ ...(h as object), asOf: undefined }),
  };
}
