import type { Agent, AgentSession } from '../schemas/agents.ts';
import type { EvmStableCap } from '../schemas/evm-session.ts';

/**
 * Execution venues behind one interface (docs/copy-execution.md). Its only verbs are
 * quote, submit, cancel and revoke: nothing can withdraw or transfer the user's funds out, and a
 * test enumerates every adapter's surface. Venue clients are built by a factory that refuses a
 * sandbox organisation (paper mode never has a signer or a transport).
 */

/** The agent's standing on the venue: whose account trades and which session key signs. */
export interface VenueSession {
  agentId: string;
  /** chain slug (evm-spot) */
  chain: string;
  /** the user's account on the venue, lowercase (evm-spot: the ERC-7579 smart account) */
  account: `0x${string}`;
}

export interface QuoteRequest {
  session: VenueSession;
  /** the instrument: evm-spot the token (lowercase address), hyperliquid the coin, polymarket the outcome token id */
  token: string;
  side: 'buy' | 'sell';
  /** buy (an open): USD to spend */
  usd?: number;
  /** sell (a close): the share (0, 1] of the account's holding of the token to sell (of `amount` when given) */
  fraction?: number;
  /**
   * a close: the agent's own holding it may sell at most (a decimal integer), what its filled copies
   * brought in: evm-spot the token's base units, perpetuals the position's size in units of
   * 10^-PERP_UNIT_DECIMALS; the account's balance or position caps it
   */
  amount?: string;
  /** perpetuals: the position an open adds to */
  direction?: 'long' | 'short';
  /** perpetuals: the order only reduces the account's position (a leader's exit): `side` closes the agent's own position, sized by `amount` */
  reduceOnly?: boolean;
  /** accepted price movement between quote and fill, basis points */
  maxSlippageBps: number;
}

/** An order on an order-book venue, as quoted: what submit signs. */
export interface VenueOrder {
  /** the venue's instrument: Hyperliquid's asset index, Polymarket's outcome token id */
  asset: number | string;
  isBuy: boolean;
  /** in the instrument's units, already on the venue's lot */
  size: string;
  /** the worst accepted price, already on the venue's tick */
  limitPx: string;
  reduceOnly: boolean;
}

/** One fill of an order on the venue. */
export interface VenueFill {
  /** decimal strings as the venue reports them */
  price: string;
  size: string;
}

export interface Quote {
  side: 'buy' | 'sell';
  token: string;
  /** order-book venues: the order to sign (amountIn and expectedOut are then its size) */
  order?: VenueOrder;
  /** what is spent, in the input asset's base units (decimal string) */
  amountIn: string;
  /** what is expected out, base units */
  expectedOut: string;
  /** the least accepted out after slippage, base units */
  minAmountOut: string;
  /** the quote's USD value of amountIn */
  usd: number;
  /** unix seconds after which the quote is not submitted */
  deadline: number;
}

export type SubmitResult =
  | { status: 'filled'; ref: string; amountIn: string; amountOut: string; orderId?: string; fills?: VenueFill[] }
  | { status: 'failed'; ref: string | null; reason: string; detail: string; orderId?: string };

export interface SubmitHooks {
  /** the execution's id: a venue that accepts a client id uses it, so a retried submit is one order */
  executionId: string;
  /** called once the order left (evm-spot: the transaction is sent, with its hash) before waiting for the outcome */
  onSubmitted(ref: string): Promise<void>;
}

export interface Venue {
  readonly venue: string;
  quote(req: QuoteRequest): Promise<Quote>;
  submit(session: VenueSession, quote: Quote, hooks: SubmitHooks): Promise<SubmitResult>;
  /** cancels an order not yet final; a swap already mined cannot be cancelled (cancelled: false) */
  cancel(session: VenueSession, ref: string): Promise<{ cancelled: boolean; detail: string }>;
  /** ends the session on the venue (evm-spot: the session key disables its own session on chain) */
  revoke(session: VenueSession): Promise<{ ref: string | null }>;
}

/** A venue adapter's failure with a reason code an execution records. */
export class VenueError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'VenueError';
  }
}

/**
 * Our one sentence for each reason a venue call fails: what an execution and its webhook carry.
 * The error's own text (a library's, which names the URL it called, and URLs carry providers'
 * keys) goes to the server log only, redacted.
 */
const FAILURES: Record<string, string> = {
  bad_request: "the order did not fit the venue's rules",
  below_lot: "the copy's size is below the venue's smallest lot",
  amount_too_small: 'the amount is too small to trade',
  no_liquidity: 'the market had nothing on that side of the book',
  no_position: 'the agent holds no position of its own to close',
  nothing_to_sell: 'the agent holds nothing of the token to sell',
  no_price: 'the venue gave no price for the instrument',
  no_route: 'no swap route for the token was found',
  unknown_instrument: 'the venue does not list the instrument',
  venue_auth: "the venue did not authenticate the agent's key",
  venue_rejected: 'the venue refused the order',
  venue_unavailable: 'the venue did not take the transaction',
  wrong_chain: 'the venue answered for another chain',
  revoke_failed: 'disabling the session on the venue failed',
  revoke_refused: 'the venue refused to disable the session',
};

/** the sentence for a failure's reason; an unknown reason (and venue_error) says the venue call failed */
export const failureSentence = (reason: string): string =>
  FAILURES[reason] ?? 'the call to the venue failed (the venue or its RPC could not be reached or answered an error); an order sent before it is on the venue';

/** the decimals of a perpetuals agent's counted size (`amount`, an execution's `units`): finer than any venue lot */
export const PERP_UNIT_DECIMALS = 8;

/** Hyperliquid refuses agent-key approvals longer than this (here, not in hyperliquid.ts: the API checks it without loading the venue's SDK) */
export const HYPERLIQUID_MAX_AGENT_VALIDITY_S = 180 * 86_400;

/**
 * What the copy runtime needs of the venues (venues/factory.ts builds it from the deployment's
 * configuration): whether a venue is configured on a chain, the session a live agent's user
 * enables, whether it is enabled, and clients, which are never built for paper.
 */
export interface VenueGateway {
  /** live trading on this venue and chain is configured on this deployment */
  configured(venue: string, chain: string): boolean;
  /** the session a live agent's user enables once (the backend's session key, the module, the calls) */
  sessionSetup(a: { agentId: string; venue: string; chain: string; account: `0x${string}`; spendCapNative?: string; stableCaps?: EvmStableCap[]; expiresAt: number }): Promise<AgentSession>;
  /** the address of the session key the backend derives for an agent (what the user grants it, before the session is set up) */
  sessionKey(agentId: string): `0x${string}`;
  /** whether the user's account enabled the agent's session on the venue, as it was set up */
  sessionEnabled(agent: Agent): Promise<boolean>;
  /** a client trading for a live agent of a live organisation; throws PaperOnlyError for paper agents and sandbox organisations */
  client(org: { id: string; live: boolean }, agent: Agent): Promise<Venue>;
}

/** Refused: a venue client for a paper agent or a sandbox organisation. */
export class PaperOnlyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaperOnlyError';
  }
}
