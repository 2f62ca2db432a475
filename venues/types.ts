import type { Agent, AgentSession } from '../schemas/agents.ts';
import type { EvmStableCap } from '../schemas/evm-session.ts';

/**
 * Execution venues behind one interface (DESIGN.md "Copy-trading execution"). Its only verbs are
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
  /** evm-spot sell: the base units (a decimal integer) the close may sell at most, the agent's copied holding; the account's balance caps it */
  amount?: string;
  /** perpetuals: the position an open adds to */
  direction?: 'long' | 'short';
  /** perpetuals: the order only reduces the account's position (a leader's exit); sized by `fraction` of it */
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
