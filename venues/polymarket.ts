/**
 * The prediction-market venue (in validation; Polymarket's CLOB wire format): orders are EIP-712
 * `Order`s of the CTF exchange signed by the agent's key, posted with the L2 headers (an HMAC of
 * the request under API credentials the key derives with an L1 `ClobAuth` signature). A leader's
 * buy of an outcome is copied as a fill-and-kill buy for USD at the agent's slippage from the best
 * ask, on the market's tick; a leader's sell sells the agent's shares of the outcome.
 *
 * The order format, both signatures and the HMAC come from the official @polymarket/clob-client
 * (v5 signs with viem; no ethers). Its signer here is a viem wallet client over the agent's local
 * key whose transport refuses every RPC: the client signs, it never sends a transaction.
 *
 * The account is the agent's own trading address (signature type EOA: maker = signer), which the
 * user funds on the venue: the CLOB has no delegated, trading-only key, which is part of why this
 * venue stays in validation (paper unless the organisation is entitled).
 */
import { AssetType, ClobClient, ExchangeOrderBuilder, OrderType, Side, SignatureType, getContractConfig } from '@polymarket/clob-client';
import type { ApiKeyCreds, OrderBookSummary } from '@polymarket/clob-client';
import { createWalletClient, custom } from 'viem';
import type { LocalAccount } from 'viem';
import { VenueError } from './types.ts';
import type { Quote, QuoteRequest, SubmitHooks, SubmitResult, Venue, VenueSession } from './types.ts';

/** the exchange's contract addresses by chain (the SDK's), for the gateway's session setup */
export { getContractConfig };

export interface PolymarketVenueOptions {
  /** https://clob.polymarket.com or a server speaking its API */
  host: string;
  /** 137 (Polygon) or 80002 (Amoy): the exchange contracts orders are signed for */
  chainId: 137 | 80002;
  /** the agent's key: it signs the orders and owns the trading address */
  agentKeyFor(agentId: string): LocalAccount;
  quoteTtlSeconds?: number;
  now?: () => number;
}

/** outcome tokens and USDC both have 6 decimals on the venue */
const UNITS = 1e6;

/** a wallet client that signs with the local key and has no way to reach a chain */
function signerOf(account: LocalAccount) {
  return createWalletClient({
    account,
    transport: custom({
      request: async ({ method }: { method: string }) => {
        throw new Error(`the prediction venue's signer sends nothing (${method})`);
      },
    }),
  });
}

/** The agents' L2 clients: API credentials derived (or created) once per agent with its key's L1 signature. */
export type PolymarketClients = (agentId: string) => Promise<ClobClient>;

export function createPolymarketClients(opts: PolymarketVenueOptions): PolymarketClients {
  const clients = new Map<string, Promise<ClobClient>>();
  return (agentId: string): Promise<ClobClient> => {
    let c = clients.get(agentId);
    if (!c) {
      const signer = signerOf(opts.agentKeyFor(agentId));
      c = (async () => {
        const l1 = new ClobClient(opts.host, opts.chainId, signer);
        const creds: ApiKeyCreds = await l1.createOrDeriveApiKey();
        if (!creds.key) throw new VenueError('venue_auth', 'the venue gave the agent key no API credentials');
        return new ClobClient(opts.host, opts.chainId, signer, creds, SignatureType.EOA);
      })();
      clients.set(agentId, c);
      // a failure is not cached: the next order tries again
      c.catch(() => clients.delete(agentId));
    }
    return c;
  };
}

/** the venue's answer when it refused: its error text */
const refusal = (r: unknown): string | undefined => {
  if (r && typeof r === 'object') {
    const o = r as { error?: unknown; errorMsg?: unknown; success?: unknown };
    if (typeof o.error === 'string' && o.error !== '') return o.error;
    if (o.error instanceof Error) return o.error.message;
    if (o.error !== undefined && o.error !== null && o.error !== '') return JSON.stringify(o.error);
    if (o.success === false) return typeof o.errorMsg === 'string' && o.errorMsg !== '' ? o.errorMsg : 'the order was not accepted';
  }
  return undefined;
};

/** The collateral (USDC) the agent's trading address holds on the venue, in USD. */
export async function readPolymarketCollateral(clients: PolymarketClients, agentId: string): Promise<number> {
  const client = await clients(agentId);
  const r = await client.getBalanceAllowance({ asset_type: AssetType.COLLATERAL });
  const why = refusal(r);
  if (why) throw new VenueError('venue_rejected', why);
  return Number(r.balance) / UNITS;
}

export function createPolymarketVenue(opts: PolymarketVenueOptions, clients: PolymarketClients = createPolymarketClients(opts)): Venue {
  const now = opts.now ?? Date.now;
  const ttl = opts.quoteTtlSeconds ?? 10;

  const quote = async (req: QuoteRequest): Promise<Quote> => {
    if (!Number.isInteger(req.maxSlippageBps) || req.maxSlippageBps < 1 || req.maxSlippageBps >= 10_000) {
      throw new VenueError('bad_request', `maxSlippageBps out of range: ${req.maxSlippageBps}`);
    }
    const c = await clients(req.session.agentId);
    const book: OrderBookSummary = await c.getOrderBook(req.token);
    const why = refusal(book);
    if (why) throw new VenueError('unknown_instrument', `the venue has no book for ${req.token}: ${why}`);
    const tick = Number(book.tick_size);
    const decimals = Math.max(0, Math.round(-Math.log10(tick)));
    const onTick = (p: number, up: boolean) => Number(((up ? Math.ceil(p / tick - 1e-9) : Math.floor(p / tick + 1e-9)) * tick).toFixed(decimals));
    const isBuy = req.side === 'buy';
    const prices = (isBuy ? book.asks : book.bids).map((l) => Number(l.price));
    if (prices.length === 0) throw new VenueError('no_liquidity', `the book of ${req.token} has no ${isBuy ? 'asks' : 'bids'}`);
    const touch = isBuy ? Math.min(...prices) : Math.max(...prices);
    // the worst price accepted, on the tick and inside (0, 1)
    const limit = isBuy ? Math.min(1 - tick, onTick(touch * (1 + req.maxSlippageBps / 10_000), false)) : Math.max(tick, onTick(touch * (1 - req.maxSlippageBps / 10_000), true));
    let size: number;
    if (isBuy) {
      size = Math.floor((req.usd ?? 0) * 100) / 100;
      if (!(size > 0)) throw new VenueError('bad_request', 'a buy needs usd of at least 0.01');
    } else {
      const fraction = req.fraction ?? 1;
      if (!(fraction > 0 && fraction <= 1)) throw new VenueError('bad_request', 'a sell needs a fraction in (0, 1]');
      const held = await c.getBalanceAllowance({ asset_type: AssetType.CONDITIONAL, token_id: req.token });
      const heldWhy = refusal(held);
      if (heldWhy) throw new VenueError('venue_rejected', heldWhy);
      size = Math.floor((Number(held.balance) / UNITS) * fraction * 100) / 100;
      if (!(size > 0)) throw new VenueError('no_position', `the account holds no shares of ${req.token}`);
    }
    return {
      side: req.side,
      token: req.token,
      amountIn: String(size),
      expectedOut: String(size),
      minAmountOut: '0',
      usd: isBuy ? size : size * touch,
      deadline: Math.floor(now() / 1000) + ttl,
      order: { asset: req.token, isBuy, size: String(size), limitPx: String(limit), reduceOnly: !isBuy },
    };
  };

  const submit = async (session: VenueSession, q: Quote, hooks: SubmitHooks): Promise<SubmitResult> => {
    const o = q.order;
    if (!o || typeof o.asset !== 'string') throw new VenueError('bad_request', 'not a prediction-market quote');
    if (Math.floor(now() / 1000) > q.deadline) return { status: 'failed', ref: null, reason: 'quote_expired', detail: `the quote's deadline ${q.deadline} has passed` };
    const c = await clients(session.agentId);
    const [tickSize, negRisk] = await Promise.all([c.getTickSize(o.asset), c.getNegRisk(o.asset)]);
    // market order: BUY spends `amount` USD, SELL sells `amount` shares, at `price` at worst, fill and kill
    const signed = await c.createMarketOrder({ tokenID: o.asset, side: o.isBuy ? Side.BUY : Side.SELL, amount: Number(o.size), price: Number(o.limitPx), orderType: OrderType.FAK }, { tickSize, negRisk });
    // the order's id on the venue is its EIP-712 hash: known before it is posted
    const contracts = getContractConfig(opts.chainId);
    const builder = new ExchangeOrderBuilder(negRisk ? contracts.negRiskExchange : contracts.exchange, opts.chainId, signerOf(opts.agentKeyFor(session.agentId)));
    await hooks.onSubmitted(builder.buildOrderHash(builder.buildOrderTypedData(signed)));
    const r = (await c.postOrder(signed, OrderType.FAK)) as { orderID?: string; makingAmount?: string; takingAmount?: string; status?: string };
    const why = refusal(r);
    if (why) return { status: 'failed', ref: r.orderID ?? null, reason: 'venue_rejected', detail: `the venue refused the order: ${why}`, ...(r.orderID ? { orderId: r.orderID } : {}) };
    const orderId = String(r.orderID);
    // a buy makes USD and takes shares, a sell the reverse: the fill's price is USD per share
    const usd = Number((o.isBuy ? r.makingAmount : r.takingAmount) ?? 0);
    const shares = Number((o.isBuy ? r.takingAmount : r.makingAmount) ?? 0);
    if (!(shares > 0)) return { status: 'failed', ref: orderId, orderId, reason: 'not_filled', detail: `the order ${orderId} did not fill (${r.status ?? 'no status'})` };
    const price = (usd / shares).toFixed(4);
    return { status: 'filled', ref: orderId, orderId, amountIn: o.isBuy ? String(usd) : String(shares), amountOut: o.isBuy ? String(shares) : String(usd), fills: [{ price, size: String(shares) }] };
  };

  const cancel = async (_session: VenueSession, ref: string): Promise<{ cancelled: boolean; detail: string }> => ({
    cancelled: false,
    detail: `order ${ref} was fill-and-kill: what did not fill at once was cancelled by the venue`,
  });

  // nothing to end on the venue: the backend never signs for a revoked agent again; the user
  // withdraws what the trading address holds
  const revoke = async (_session: VenueSession): Promise<{ ref: string | null }> => ({ ref: null });

  return Object.freeze({ venue: 'polymarket', quote, submit, cancel, revoke });
}
