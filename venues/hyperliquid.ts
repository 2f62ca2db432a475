/**
 * The perpetuals venue (Hyperliquid's wire format): the user approves an agent key on the venue
 * once (the `approveAgent` user-signed action, with a name and a `valid_until` expiry); the
 * backend signs IOC orders with that key in the venue's L1 action format (msgpack action hash,
 * phantom agent, EIP-712), sized by the agent's limits and the asset's lot (szDecimals) and tick
 * rules. An exit is reduce-only and sized by the agent's own position (what its fills opened), never
 * the rest of the account's. Signing,
 * hashing and the price and size rules come from @nktkas/hyperliquid (only its order verb and its
 * read requests are imported: an agent key cannot move funds on the venue anyway).
 */
import { HttpTransport } from '@nktkas/hyperliquid';
import { ApiRequestError, ApproveAgentTypes, order } from '@nktkas/hyperliquid/api/exchange';
import { clearinghouseState, extraAgents, l2Book, meta } from '@nktkas/hyperliquid/api/info';
import type { MetaResponse } from '@nktkas/hyperliquid/api/info';
import { formatPrice, formatSize } from '@nktkas/hyperliquid/utils';
import { createHash } from 'node:crypto';
import { formatUnits } from 'viem';
import type { LocalAccount } from 'viem';
import { PERP_UNIT_DECIMALS, VenueError } from './types.ts';
import type { Quote, QuoteRequest, SubmitHooks, SubmitResult, Venue, VenueFill, VenueSession } from './types.ts';

export interface HyperliquidVenueOptions {
  /** https://api.hyperliquid.xyz or a server speaking its API (POST /info, POST /exchange) */
  apiUrl: string;
  /** testnet: L1 actions signed with source `b`, user-signed ones for `Testnet` */
  isTestnet?: boolean;
  /** the agent key of an agent (never stored: derived from the service's secret) */
  agentKeyFor(agentId: string): LocalAccount;
  timeoutMs?: number;
  /** a quote is submitted within this many seconds or not at all (default 10) */
  quoteTtlSeconds?: number;
  now?: () => number;
}

/** the chain id user-signed actions are signed for (Arbitrum One on mainnet, as the venue's own app) */
const SIGNATURE_CHAIN_ID = { mainnet: '0xa4b1', testnet: '0x66eee' } as const;

/** The agent's name on the venue: at most 16 characters before the ` valid_until` suffix. */
export const hyperliquidAgentName = (agentId: string): string => `intel ${agentId.slice(3, 13)}`;

/**
 * What the user signs once to approve the agent key: the venue's `approveAgent` action and its
 * EIP-712 typed data (the venue recovers the user from it). The validity is the agent's expiry.
 */
export function hyperliquidApproval(a: { agentAddress: `0x${string}`; agentId: string; expiresAt: number; nonce: number; isTestnet?: boolean }) {
  const chainId = a.isTestnet ? SIGNATURE_CHAIN_ID.testnet : SIGNATURE_CHAIN_ID.mainnet;
  const action = {
    type: 'approveAgent' as const,
    signatureChainId: chainId,
    hyperliquidChain: a.isTestnet ? 'Testnet' : 'Mainnet',
    agentAddress: a.agentAddress.toLowerCase() as `0x${string}`,
    agentName: `${hyperliquidAgentName(a.agentId)} valid_until ${a.expiresAt * 1000}`,
    nonce: a.nonce,
  };
  const { type: _type, signatureChainId: _chain, ...message } = action;
  return {
    action,
    typedData: {
      domain: { name: 'HyperliquidSignTransaction', version: '1', chainId: Number.parseInt(chainId, 16), verifyingContract: '0x0000000000000000000000000000000000000000' as const },
      types: ApproveAgentTypes,
      primaryType: 'HyperliquidTransaction:ApproveAgent' as const,
      message,
    },
  };
}

/** the client order id of an execution: 16 bytes the venue keeps with the order */
export const cloidOf = (executionId: string): `0x${string}` => `0x${createHash('sha256').update(executionId).digest('hex').slice(0, 32)}`;

/** The agent key's standing on the venue for a user: approved, until when (ms), or not at all. */
export async function readHyperliquidAgent(apiUrl: string, user: `0x${string}`, agent: `0x${string}`): Promise<{ approved: boolean; validUntil: number | null; name: string | null }> {
  const transport = new HttpTransport({ apiUrl, timeout: 10_000 });
  const agents = await extraAgents({ transport }, { user });
  const mine = agents.find((x) => x.address.toLowerCase() === agent.toLowerCase());
  return { approved: mine !== undefined, validUntil: mine?.validUntil ?? null, name: mine?.name ?? null };
}

/** refusals of the venue that mean the agent key is not (or no longer) approved for the account */
export const AGENT_REFUSED = /does not exist|not approved|agent.*(expired|revoked)/i;

/**
 * A reduce-only exit of the agent's own position: the side that closes it (a sell closes a long),
 * sized by what the agent's fills opened (`amount`) and never more than the account holds that
 * way. The account's position is the user's too: without the agent's size nothing is reduced.
 */
function ownReduce(coin: string, szi: number, req: QuoteRequest): { isBuy: boolean; rawSize: number } {
  if (req.amount === undefined || !/^\d+$/.test(req.amount)) throw new VenueError('no_position', `the agent's own ${coin} position is not counted: the account's other holdings are never reduced`);
  const fraction = req.fraction ?? 1;
  if (!(fraction > 0 && fraction <= 1)) throw new VenueError('bad_request', 'a reduce needs a fraction in (0, 1]');
  const isBuy = req.side === 'buy';
  const own = Number(formatUnits(BigInt(req.amount), PERP_UNIT_DECIMALS)) * fraction;
  // the account's position on the side the agent's closes: a long for a sell, a short for a buy
  const held = isBuy ? -szi : szi;
  if (!(own > 0) || held <= 0) throw new VenueError('no_position', `the account holds no ${coin} ${isBuy ? 'short' : 'long'} of the agent's to reduce`);
  return { isBuy, rawSize: Math.min(own, held) };
}

export function createHyperliquidVenue(opts: HyperliquidVenueOptions): Venue {
  const transport = new HttpTransport({ apiUrl: opts.apiUrl, isTestnet: opts.isTestnet ?? false, timeout: opts.timeoutMs ?? 10_000 });
  const now = opts.now ?? Date.now;
  const ttl = opts.quoteTtlSeconds ?? 10;
  let universe: { at: number; assets: MetaResponse['universe'] } | undefined;

  const asset = async (coin: string): Promise<{ index: number; szDecimals: number }> => {
    if (!universe || now() - universe.at > 60_000) universe = { at: now(), assets: (await meta({ transport })).universe };
    const index = universe.assets.findIndex((u) => u.name === coin);
    const u = universe.assets[index];
    if (!u) throw new VenueError('unknown_instrument', `${coin} is not listed on the venue`);
    if (u.isDelisted) throw new VenueError('unknown_instrument', `${coin} is delisted on the venue`);
    return { index, szDecimals: u.szDecimals };
  };

  const position = async (user: `0x${string}`, coin: string): Promise<number> => {
    const s = await clearinghouseState({ transport }, { user });
    const p = s.assetPositions.find((x) => x.position.coin === coin);
    return p ? Number(p.position.szi) : 0;
  };

  const quote = async (req: QuoteRequest): Promise<Quote> => {
    const coin = req.token;
    if (!Number.isInteger(req.maxSlippageBps) || req.maxSlippageBps < 1 || req.maxSlippageBps >= 10_000) {
      throw new VenueError('bad_request', `maxSlippageBps out of range: ${req.maxSlippageBps}`);
    }
    const [{ index, szDecimals }, book] = await Promise.all([asset(coin), l2Book({ transport }, { coin })]);
    const bestBid = Number(book?.levels[0][0]?.px ?? NaN);
    const bestAsk = Number(book?.levels[1][0]?.px ?? NaN);
    let isBuy: boolean;
    let rawSize: number;
    if (req.reduceOnly) {
      ({ isBuy, rawSize } = ownReduce(coin, await position(req.session.account, coin), req));
    } else {
      if (req.direction === undefined) throw new VenueError('bad_request', 'an open needs a direction');
      const usd = req.usd ?? 0;
      if (!Number.isFinite(usd) || usd <= 0) throw new VenueError('bad_request', 'an open needs usd > 0');
      isBuy = req.direction === 'long';
      rawSize = usd / (isBuy ? bestAsk : bestBid);
    }
    const ref = isBuy ? bestAsk : bestBid;
    if (!Number.isFinite(ref) || ref <= 0) throw new VenueError('no_liquidity', `the ${coin} book has no ${isBuy ? 'asks' : 'bids'}`);
    let size: string;
    try {
      // the lot: sizes are truncated to szDecimals
      size = formatSize(rawSize.toFixed(12), szDecimals);
    } catch {
      throw new VenueError('below_lot', `${rawSize} ${coin} is below the venue's lot of ${10 ** -szDecimals}`);
    }
    // the tick: an IOC limit at the accepted slippage from the touch, five significant figures
    const limit = ref * (isBuy ? 1 + req.maxSlippageBps / 10_000 : 1 - req.maxSlippageBps / 10_000);
    const limitPx = formatPrice(limit.toPrecision(12), szDecimals);
    const usd = Number(size) * ref;
    return {
      side: isBuy ? 'buy' : 'sell',
      token: coin,
      amountIn: size,
      expectedOut: size,
      minAmountOut: '0',
      usd,
      deadline: Math.floor(now() / 1000) + ttl,
      order: { asset: index, isBuy, size, limitPx, reduceOnly: req.reduceOnly === true },
    };
  };

  const failed = (reason: string, ref: string | null, detail: string): SubmitResult => ({ status: 'failed', ref, reason, detail });

  const submit = async (session: VenueSession, q: Quote, hooks: SubmitHooks): Promise<SubmitResult> => {
    const o = q.order;
    if (!o || typeof o.asset !== 'number') throw new VenueError('bad_request', 'not a perpetuals quote');
    if (Math.floor(now() / 1000) > q.deadline) return failed('quote_expired', null, `the quote's deadline ${q.deadline} has passed`);
    const wallet = opts.agentKeyFor(session.agentId);
    const cloid = cloidOf(hooks.executionId);
    // the client order id is the order's reference until the venue answers with its own
    await hooks.onSubmitted(cloid);
    try {
      const r = await order(
        { transport, wallet },
        { orders: [{ a: o.asset, b: o.isBuy, p: o.limitPx, s: o.size, r: o.reduceOnly, t: { limit: { tif: 'Ioc' } }, c: cloid }], grouping: 'na' },
      );
      const st = r.response.data.statuses[0];
      if (st && typeof st === 'object' && 'filled' in st) {
        const f = st.filled;
        const fills: VenueFill[] = [{ price: f.avgPx, size: f.totalSz }];
        return { status: 'filled', ref: String(f.oid), orderId: String(f.oid), amountIn: f.totalSz, amountOut: (Number(f.totalSz) * Number(f.avgPx)).toFixed(6), fills };
      }
      if (st && typeof st === 'object' && 'resting' in st) return failed('not_filled', String(st.resting.oid), `the IOC order ${st.resting.oid} rests on the book`);
      return failed('not_filled', null, `the venue answered ${JSON.stringify(st ?? null)}`);
    } catch (err) {
      if (err instanceof ApiRequestError) {
        const reason = AGENT_REFUSED.test(err.message) ? 'agent_refused' : 'venue_rejected';
        return failed(reason, null, `the venue refused the order: ${err.message}`);
      }
      throw err;
    }
  };

  const cancel = async (_session: VenueSession, ref: string): Promise<{ cancelled: boolean; detail: string }> => ({
    cancelled: false,
    detail: `order ${ref} was immediate-or-cancel: what did not fill at once was cancelled by the venue`,
  });

  // the venue has no revocation an agent key can sign: the user replaces or removes the API
  // wallet on the venue; the backend never signs for a revoked agent again
  const revoke = async (_session: VenueSession): Promise<{ ref: string | null }> => ({ ref: null });

  return Object.freeze({ venue: 'hyperliquid', quote, submit, cancel, revoke });
}
