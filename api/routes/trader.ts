import { z } from 'zod';
import { ApiError } from '../../schemas/errors.ts';
import type { TokenSnapshot } from '../../schemas/token.ts';
import {
  PortfolioRiskResponse,
  TraderBoardResponse,
  TraderEdgeResponse,
  TraderLeaderboardResponse,
  TraderScoreResponse,
  TraderStyleResponse,
  WalletAnalyzeResponse,
  WalletHealthResponse,
  WalletOverviewComponents,
  WalletOverviewResponse,
  WalletPnlQualityResponse,
  WalletTradesResponse,
} from '../../schemas/trader.ts';
import type { TokenLookup, WalletOverviewComponent } from '../../schemas/trader.ts';
import { TraderStyle } from '../../schemas/wallet.ts';
import type { WalletSnapshot } from '../../schemas/wallet.ts';
import type { Replica, SnapshotEntry } from '../replica.ts';
import type { AnyOperation } from '../operations.ts';
import { defineOperation } from '../operations.ts';
import {
  listFresh,
  portfolioView,
  traderBoard,
  traderEdgeView,
  traderLeaderboard,
  traderScoreView,
  traderStyleView,
  walletAnalyzeView,
  walletFresh,
  walletHealthView,
  walletPnlQualityView,
  walletTradesView,
} from '../views/trader.ts';
import { AddressParam, ChainParam, CursorParam, bodyNumber, decodeCursor, encodeCursor, queryInt } from './common.ts';
import type { RouteDeps } from './context.ts';
import { composeOverview } from './token.ts';

/**
 * Trader and wallet operations over the replica's wallet snapshots. Units: single reads 1,
 * summaries over positions 2, analyses joining token state or written text 3, boards 6,
 * wallet-overview the sum of its eight parts (14).
 */

export const WalletBody = z.object({ chain: ChainParam, wallet: AddressParam });
export const LimitParam = queryInt(1, 100, 20, 'how many items');

/** The latest snapshot of a wallet, or 404 not_found for a wallet the engine never saw trade. */
export function walletSnapshot(replica: Replica, chain: string, wallet: string): WalletSnapshot {
  const s = replica.get<WalletSnapshot>(`wallet:${chain}:${wallet}`);
  if (!s) throw new ApiError('not_found', `wallet ${wallet} has never been seen trading on ${chain}`);
  return s;
}

/** The final fields of a token snapshot the wallet operations read. */
export function tokenLookup(replica: Replica, chain: string): TokenLookup {
  return (token) => {
    const s = replica.get<TokenSnapshot>(`token:${chain}:${token}`);
    return s?.facts;
  };
}

/** Chain time: the newest event folded into any token snapshot of the chain. */
export function chainNow(replica: Replica, chain: string): number {
  let t = 0;
  for (const s of replica.list<TokenSnapshot>('token', chain)) if (s.asOfTs > t) t = s.asOfTs;
  return t;
}

export function createTraderOperations(deps: RouteDeps): AnyOperation[] {
  const { replica, writer, config } = deps;
  const chainOf = (c: string | undefined) => c ?? config.DEFAULT_CHAIN;
  const wallets = (chain: string) => replica.list<WalletSnapshot>('wallet', chain);
  const read = (i: { chain?: string; wallet: string }) => walletSnapshot(replica, chainOf(i.chain), i.wallet);
  /** wallet operations that project one snapshot: their responses are cached as bytes, aged at send */
  const served = {
    snapshot: (i: { chain?: string; wallet: string }) => `wallet:${chainOf(i.chain)}:${i.wallet}`,
    ageSeconds: (e: SnapshotEntry, nowMs: number) => walletFresh(e.value<WalletSnapshot>(), nowMs).ageSeconds,
  };

  const ops: AnyOperation[] = [
    defineOperation({
      id: 'traderScore',
      served,
      method: 'POST',
      path: '/trader-score',
      cost: 1,
      group: 'trader',
      summary: 'Grade and composite score of a trader with its components and reasons',
      returns: 'grade, score, components, style, reasons, sample',
      request: WalletBody,
      response: TraderScoreResponse,
      handler: async (i, ctx) => traderScoreView(read(i), ctx.now),
    }),
    defineOperation({
      id: 'traderStyle',
      served,
      method: 'POST',
      path: '/trader-style',
      cost: 1,
      group: 'trader',
      summary: 'How a trader trades: style, hold and size bands, tempo and launch timing',
      returns: 'style, medianHold, medianSize, tempo, launchTiming, signals, disqualifiers',
      request: WalletBody,
      response: TraderStyleResponse,
      handler: async (i, ctx) => traderStyleView(read(i), ctx.now),
    }),
    defineOperation({
      id: 'traderEdge',
      served,
      method: 'POST',
      path: '/trader-edge',
      cost: 1,
      group: 'trader',
      summary: "A trader's excess return over the tokens' own moves, with confidence from sample sizes",
      returns: 'edge, confidence, verdict',
      request: WalletBody,
      response: TraderEdgeResponse,
      handler: async (i, ctx) => traderEdgeView(read(i), ctx.now),
    }),
    defineOperation({
      id: 'walletPnlQuality',
      served,
      method: 'POST',
      path: '/wallet-pnl-quality',
      cost: 1,
      group: 'wallet',
      summary: 'Quality of realised results: win rate, profit factor, return bands and consistency',
      returns: 'winRatePct, profitFactor, realisedBand, unrealisedBand, consistency, quality',
      request: WalletBody,
      response: WalletPnlQualityResponse,
      handler: async (i, ctx) => walletPnlQualityView(read(i), ctx.now),
    }),
    defineOperation({
      id: 'walletTrades',
      method: 'POST',
      path: '/wallet-trades',
      cost: 2,
      group: 'wallet',
      summary: 'Derived trade summaries per token (status, outcome band, hold band, size band), newest first; never raw rows',
      returns: 'trades[], totals',
      request: WalletBody.extend({
        limit: bodyNumber(1, 30, 20, 'how many tokens', true),
        cursor: CursorParam,
        status: z.enum(['open', 'closed'], { error: 'must be open or closed' }).optional().meta({ description: 'only open or only closed positions' }),
      }),
      response: WalletTradesResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const list = `walletTrades:${chain}:${i.wallet}:${i.status ?? ''}`;
        const v = walletTradesView(read(i), ctx.now, tokenLookup(replica, chain), { limit: i.limit, status: i.status, after: decodeCursor(list, i.cursor) });
        return { ...v, next: encodeCursor(list, v.next) };
      },
    }),
    defineOperation({
      id: 'walletHealth',
      method: 'POST',
      path: '/wallet-health',
      cost: 2,
      group: 'wallet',
      summary: 'Health of a wallet: disqualifiers, warnings and activity, each flag with a reason',
      returns: 'health, score, flags[], activity, openPositions, staleOpenPositions',
      request: WalletBody,
      response: WalletHealthResponse,
      handler: async (i, ctx) => walletHealthView(read(i), ctx.now, chainNow(replica, chainOf(i.chain))),
    }),
    defineOperation({
      id: 'portfolioRisk',
      method: 'POST',
      path: '/portfolio-risk',
      cost: 3,
      group: 'wallet',
      summary: "Risk of a wallet's open positions from the tokens' risk, exit risk, flags and concentration",
      returns: 'risk, score, concentration, flaggedExposurePct, positions[], summary',
      request: WalletBody,
      response: PortfolioRiskResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const s = read(i);
        const tokens = tokenLookup(replica, chain);
        const v = portfolioView(s, ctx.now, tokens);
        const summary = await writer.summary({
          operation: 'portfolio-risk',
          subject: 'This portfolio',
          facts: {
            risk: v.risk,
            concentration: v.concentration.band,
            flaggedTokens: v.positions.filter((p) => p.flags.length > 0).map((p) => p.symbol ?? 'a token'),
          },
        });
        return { ...v, summary };
      },
    }),
    defineOperation({
      id: 'walletAnalyze',
      method: 'POST',
      path: '/wallet-analyze',
      cost: 3,
      group: 'wallet',
      summary: 'Strengths and weaknesses of a trader with a one-sentence summary',
      returns: 'grade, style, strengths, weaknesses, edge, pnl, consistency, copyability, summary',
      request: WalletBody,
      response: WalletAnalyzeResponse,
      handler: async (i, ctx) => {
        const v = walletAnalyzeView(read(i), ctx.now);
        const summary = await writer.summary({
          operation: 'wallet-analyze',
          subject: 'This trader',
          facts: { grade: v.grade, style: v.style, edge: v.edge, strengths: v.strengths.slice(0, 2), weaknesses: v.weaknesses.slice(0, 2) },
        });
        return { ...v, summary };
      },
    }),
    defineOperation({
      id: 'traderLeaderboard',
      method: 'GET',
      path: '/trader-leaderboard',
      cost: 6,
      group: 'trader',
      summary: 'Rated traders of a chain, grade first then composite score',
      returns: 'leaders[], rated',
      request: z.object({ chain: ChainParam, limit: LimitParam, style: TraderStyle.optional().meta({ description: 'only traders of this style' }), cursor: CursorParam }),
      response: TraderLeaderboardResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const list = `traderLeaderboard:${chain}:${i.style ?? ''}`;
        const b = traderLeaderboard(wallets(chain), { limit: i.limit, style: i.style, after: decodeCursor(list, i.cursor) });
        return { chain, ...listFresh(b.asOf, ctx.now), leaders: b.leaders, next: encodeCursor(list, b.next), rated: b.rated };
      },
    }),
    defineOperation({
      id: 'traderBoard',
      method: 'GET',
      path: '/trader-board',
      cost: 6,
      group: 'market',
      summary: "The chain's traders at a glance: grades, styles, the leaders and what mirror-worthy wallets hold",
      returns: 'headline, grades, styles, top[], holding[]',
      request: z.object({ chain: ChainParam, limit: LimitParam }),
      response: TraderBoardResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        const b = traderBoard(wallets(chain), tokenLookup(replica, chain), { limit: i.limit, chain });
        const lead = b.holding[0];
        const headline = await writer.headline({
          operation: 'trader-board',
          subject: chain,
          facts: { mostHeldBySmartMoney: lead ? (lead.symbol ?? lead.token) : null, leaderStyle: b.top[0]?.style ?? null },
        });
        return { chain, ...listFresh(b.asOf, ctx.now), headline, grades: b.grades, styles: b.styles, top: b.top, holding: b.holding };
      },
    }),
  ];

  const byId = new Map(ops.map((o) => [o.id, o]));
  const parts = Object.keys(WalletOverviewComponents) as WalletOverviewComponent[];
  const units = parts.reduce((a, n) => a + (byId.get(n) as AnyOperation).cost, 0);
  ops.push(
    defineOperation({
      id: 'walletOverview',
      method: 'POST',
      path: '/wallet-overview',
      cost: units,
      group: 'wallet',
      summary: 'The whole trader page in one call: eight operations, each in its own slot (costs the sum of its parts)',
      returns: `wallet, chain, bundle, ${parts.join(', ')}, failed[]`,
      request: WalletBody,
      response: WalletOverviewResponse,
      handler: async (i, ctx) => {
        const chain = chainOf(i.chain);
        walletSnapshot(replica, chain, i.wallet); // 404 before anything else
        const components: Record<string, () => Promise<unknown>> = {};
        for (const n of parts) {
          const op = byId.get(n) as AnyOperation;
          const input = op.request.parse({ chain, wallet: i.wallet });
          components[n] = () => op.handler(input, ctx);
        }
        const { slots, failed } = await composeOverview(components);
        const body: Record<string, unknown> = { wallet: i.wallet, chain, bundle: { operations: parts, units }, ...slots, failed };
        return body as z.input<typeof WalletOverviewResponse>;
      },
    }),
  );
  return ops;
}
