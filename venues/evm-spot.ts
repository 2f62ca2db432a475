/**
 * EVM spot venue (docs/copy-execution.md): the user's ERC-7579 smart account has
 * installed the session module (infra/devnet/contracts/SessionSwapValidator.sol) and enabled a
 * session for the agent's key; the key signs ERC-4337 v0.8 user operations whose one call is the
 * module's swap (native in for a buy, native out for a sell, through the session's Uniswap V2
 * router), and we are our own bundler: a relayer EOA sends EntryPoint.handleOps and pays the gas
 * (the operations carry zero fees, so the account pays none). The contracts enforce the session:
 * path rules, amountOutMin above 0, proceeds to the account, per-asset cumulative budgets (native;
 * a token: what the session's buys brought in), an expiry, revocation; whatever they refuse comes
 * back as `failed` / `session_refused`. A sell is sized within the session's budget of the token.
 *
 * The venue object has the four verbs of Venue and nothing else. Idempotency: each execution id
 * owns a nonce lane (the last 4 bytes of the nonce key) and always uses its sequence 0, so the
 * EntryPoint never runs two operations for one execution; a retried submit of the same quote
 * returns the outcome of the operation already mined.
 */
import {
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  parseAbi,
  parseEventLogs,
  stringToHex,
  BaseError,
  ContractFunctionRevertedError,
  NonceTooLowError,
  type Address,
  type Client,
  type Hex,
  type LocalAccount,
  type TransactionReceipt,
} from 'viem';
import { entryPoint08Abi } from 'viem/account-abstraction';
import { privateKeyToAccount } from 'viem/accounts';
import { readContract } from 'viem/actions';
import {
  DEFAULT_USER_OP_GAS,
  encodeExecute,
  handleOpsGas,
  readSessionModuleInstalled,
  sessionSetupCalls,
  sessionSwapCall,
  sessionValidatorAbi,
  signUserOp,
  validatorNonceKey,
  type AccountCall,
  type SessionSetup,
  type SignedUserOp,
  type SwapOrder,
  type UserOpGas,
} from '../infra/session-account.ts';
import { retry } from '../infra/retry.ts';
import type { Backoff } from '../infra/retry.ts';
import { VenueError, type Quote, type QuoteRequest, type SubmitHooks, type SubmitResult, type Venue, type VenueSession } from './types.ts';

const routerAbi = parseAbi(['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)']);

/** the session module's budget key of native (and WETH) */
const NATIVE = '0x0000000000000000000000000000000000000000' as Address;

const wethAbi = parseAbi(['event Withdrawal(address indexed src, uint256 wad)']);

export interface EvmSpotVenueOptions {
  /** the chain slug sessions name (VenueSession.chain) */
  chain: string;
  rpcUrl: string;
  /** the Uniswap V2 router02 sessions are bound to */
  router: Address;
  weth: Address;
  /** the stablecoin native is priced in: router getAmountsOut over [weth, usdStable] */
  usdStable: Address;
  /** ERC-4337 EntryPoint v0.8 */
  entryPoint: Address;
  /** the SessionSwapValidator module */
  sessionValidator: Address;
  /** the EOA that sends handleOps and pays its gas: a private key or a local account */
  relayer: Hex | LocalAccount;
  /** the agent's session key (venues/session-keys.ts derives it from the master secret) */
  sessionKeyFor(agentId: string): LocalAccount;
  /** seconds a quote stays submittable, counted on the chain's clock; default 120 */
  quoteTtlSec?: number;
  /** user operation gas limits and fees; default DEFAULT_USER_OP_GAS (zero fees) */
  userOpGas?: UserOpGas;
  /** how many blocks back a retried submit looks for its operation; default 50,000 */
  lookbackBlocks?: bigint;
  /** receipt polling, ms; default 500 */
  pollingIntervalMs?: number;
}

/** a session as the module holds it for (account, session key); the cap and spent amount are native's */
export interface EvmSession {
  /** the session was enabled in the module's current installation on the account */
  enabled: boolean;
  /** the session module is installed on the account (validator and executor) */
  installed: boolean;
  router: Address;
  capWei: bigint;
  spentWei: bigint;
  /** unix seconds */
  validUntil: number;
  revoked: boolean;
}

/** reads the session of `sessionKey` on `account` (not part of the Venue surface) */
export async function readEvmSession(client: Client, validator: Address, account: Address, sessionKey: Address): Promise<EvmSession> {
  const [[router, capWei, spentWei, validUntil, revoked, enabled], installed] = await Promise.all([
    readContract(client, { address: validator, abi: sessionValidatorAbi, functionName: 'session', args: [account, sessionKey] }),
    readSessionModuleInstalled(client, account, validator).catch(() => false),
  ]);
  return { enabled, installed, router, capWei, spentWei, validUntil, revoked };
}

/** a session's budget of one asset: NATIVE (native and WETH), a stablecoin of its grant, or a token its buys credited */
export async function readEvmBudget(client: Client, validator: Address, account: Address, sessionKey: Address, asset: Address): Promise<{ limit: bigint; spent: bigint; base: boolean }> {
  const [limit, spent, base] = await readContract(client, { address: validator, abi: sessionValidatorAbi, functionName: 'budget', args: [account, sessionKey, asset] });
  return { limit, spent, base };
}

/**
 * What the user's account executes once so the agent's session key can trade: install the
 * session module (unless `installed`) and enable the session with its grant. For the
 * agent-creation answer.
 */
export function evmSessionSetup(p: SessionSetup): { module: Address; calls: { to: Address; data: Hex; value: bigint }[] } {
  return { module: p.validator, calls: sessionSetupCalls(p).map((c) => ({ to: c.to, data: c.data, value: c.value ?? 0n })) };
}

/** the nonce lane of an execution: 4 bytes of keccak256(executionId) */
function laneOf(executionId: string): number {
  return Number.parseInt(keccak256(stringToHex(executionId)).slice(2, 10), 16);
}

const failed = (reason: string, ref: string | null, detail: string): SubmitResult => ({ status: 'failed', ref, reason, detail });

function revertString(data: Hex | undefined): string {
  if (!data || data === '0x') return 'no revert data';
  try {
    const e = decodeErrorResult({ abi: [], data });
    return e.args?.length ? String(e.args[0]) : e.errorName;
  } catch {
    return data.slice(0, 74);
  }
}

/** the EntryPoint's FailedOp reason ("AA24 signature error") of a failed simulation, or undefined */
function entryPointRefusal(err: unknown): string | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (!(reverted instanceof ContractFunctionRevertedError)) return undefined;
  const { errorName, args } = reverted.data ?? {};
  if (errorName === 'FailedOp' || errorName === 'FailedOpWithRevert') {
    const inner = errorName === 'FailedOpWithRevert' ? ` (${revertString(args?.[2] as Hex)})` : '';
    return `${String(args?.[1])}${inner}`;
  }
  return reverted.reason ?? errorName ?? reverted.shortMessage;
}

/** sends of one handleOps when other processes keep taking the relayer's transaction nonce */
const NONCE_ATTEMPTS = 8;
/** the waits between those sends: drawn below 50 ms times the sends so far, so two relayers drift apart */
const NONCE_TAKEN_BACKOFF: Backoff = { cap: (n) => 50 * (n + 1), jitter: 'full' };

export function createEvmSpotVenue(opts: EvmSpotVenueOptions): Venue {
  const pollingInterval = opts.pollingIntervalMs ?? 500;
  const client = createPublicClient({ transport: http(opts.rpcUrl, { retryCount: 1 }), cacheTime: 0, pollingInterval });
  const relayer = typeof opts.relayer === 'string' ? privateKeyToAccount(opts.relayer) : opts.relayer;
  const wallet = createWalletClient({ account: relayer, transport: http(opts.rpcUrl, { retryCount: 0 }), cacheTime: 0, pollingInterval });
  const gas = opts.userOpGas ?? DEFAULT_USER_OP_GAS;
  const ttl = BigInt(opts.quoteTtlSec ?? 120);
  const lookback = opts.lookbackBlocks ?? 50_000n;
  const validator = opts.sessionValidator;
  let chainId: number | undefined;
  let stableDecimals: number | undefined;

  // one handleOps at a time from the relayer: simulate, then send (its transaction nonce)
  let tail: Promise<unknown> = Promise.resolve();
  const serially = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };

  const amountsOut = async (amountIn: bigint, path: Address[]): Promise<bigint> => {
    try {
      const amounts = await client.readContract({ address: opts.router, abi: routerAbi, functionName: 'getAmountsOut', args: [amountIn, path] });
      return amounts[amounts.length - 1] ?? 0n;
    } catch (err) {
      throw new VenueError('no_route', `router getAmountsOut over ${path.join(' → ')}: ${err instanceof BaseError ? err.shortMessage : String(err)}`);
    }
  };

  /** the stable's base units one native token (1e18 wei) buys, and the stable's decimals */
  const nativePrice = async (): Promise<{ perNative: bigint; decimals: number }> => {
    stableDecimals ??= await client.readContract({ address: opts.usdStable, abi: erc20Abi, functionName: 'decimals' });
    const perNative = await amountsOut(10n ** 18n, [opts.weth, opts.usdStable]);
    if (perNative === 0n) throw new VenueError('no_price', 'the native/USD reference pool quotes nothing');
    return { perNative, decimals: stableDecimals };
  };

  const chainNow = async (): Promise<bigint> => (await client.getBlock({ blockTag: 'latest' })).timestamp;

  const checkSession = (session: VenueSession): void => {
    if (session.chain !== opts.chain) throw new VenueError('wrong_chain', `this evm-spot venue serves ${opts.chain}, not ${session.chain}`);
  };

  const quote = async (req: QuoteRequest): Promise<Quote> => {
    checkSession(req.session);
    const token = req.token.toLowerCase() as Address;
    if (token === opts.weth.toLowerCase()) throw new VenueError('bad_request', 'the token is the wrapped native asset itself');
    if (!Number.isInteger(req.maxSlippageBps) || req.maxSlippageBps < 0 || req.maxSlippageBps >= 10_000) {
      throw new VenueError('bad_request', `maxSlippageBps out of range: ${req.maxSlippageBps}`);
    }
    const [{ perNative, decimals }, now] = await Promise.all([nativePrice(), chainNow()]);
    // the session module refuses amountOutMin 0: a quote whose slippage floor rounds to nothing is too small
    const keep = (out: bigint) => {
      const min = (out * BigInt(10_000 - req.maxSlippageBps)) / 10_000n;
      if (min === 0n) throw new VenueError('amount_too_small', `the pool returns ${out} base units: nothing left at ${req.maxSlippageBps} bps of slippage`);
      return min;
    };
    if (req.side === 'buy') {
      const usd = req.usd ?? 0;
      if (!Number.isFinite(usd) || usd <= 0) throw new VenueError('bad_request', 'a buy needs usd > 0');
      const usdUnits = (BigInt(Math.round(usd * 1e6)) * 10n ** BigInt(decimals)) / 1_000_000n;
      const wei = (usdUnits * 10n ** 18n) / perNative;
      if (wei === 0n) throw new VenueError('amount_too_small', `$${usd} is less than one wei`);
      const out = await amountsOut(wei, [opts.weth, token]);
      return { side: 'buy', token, amountIn: wei.toString(), expectedOut: out.toString(), minAmountOut: keep(out).toString(), usd, deadline: Number(now + ttl) };
    }
    const fraction = req.fraction ?? 0;
    if (!(fraction > 0 && fraction <= 1)) throw new VenueError('bad_request', 'a sell needs a fraction in (0, 1]');
    if (req.amount !== undefined && !/^\d+$/.test(req.amount)) throw new VenueError('bad_request', `amount must be a decimal integer of base units: ${req.amount}`);
    const { balance, sellable } = await sellableUnits(req.session, token);
    const held = [balance, sellable, req.amount === undefined ? balance : BigInt(req.amount)].reduce((a, b) => (b < a ? b : a));
    const amountIn = fraction >= 1 ? held : (held * BigInt(Math.round(fraction * 1e6))) / 1_000_000n;
    if (amountIn === 0n) {
      const copy = req.amount !== undefined ? `the copy holds ${req.amount} units, ` : '';
      throw new VenueError('nothing_to_sell', `${copy}the account holds ${balance} of ${token}, the session may sell ${sellable} (what its buys brought in)`);
    }
    const out = await amountsOut(amountIn, [token, opts.weth]);
    const usd = Number((out * perNative) / 10n ** 18n) / 10 ** decimals;
    return { side: 'sell', token, amountIn: amountIn.toString(), expectedOut: out.toString(), minAmountOut: keep(out).toString(), usd, deadline: Number(now + ttl) };
  };

  /** the account's balance of `token`, and what is left of the session's budget of it (what the agent's buys brought in, less its sells) */
  const sellableUnits = async (session: VenueSession, token: Address): Promise<{ balance: bigint; sellable: bigint }> => {
    const key = opts.sessionKeyFor(session.agentId).address;
    const [balance, budget] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [session.account] }),
      readEvmBudget(client, validator, session.account, key, token),
    ]);
    return { balance, sellable: budget.limit - budget.spent };
  };

  /** the account's one call for a quote: the session module's swap, native in for a buy, native out for a sell */
  const callsFor = (key: Address, q: Quote): AccountCall[] => {
    const token = q.token as Address;
    const buy = q.side === 'buy';
    const order: SwapOrder = {
      amountIn: BigInt(q.amountIn),
      amountOutMin: BigInt(q.minAmountOut),
      path: buy ? [opts.weth, token] : [token, opts.weth],
      deadline: BigInt(q.deadline),
      nativeIn: buy,
      nativeOut: !buy,
    };
    return [sessionSwapCall(validator, key, order)];
  };

  const sign = async (account: Address, key: LocalAccount, nonce: bigint, calls: AccountCall[]): Promise<SignedUserOp> => {
    chainId ??= await client.getChainId();
    return signUserOp({ chainId, entryPoint: opts.entryPoint, sender: account, nonce, callData: encodeExecute(calls), signer: key, gas });
  };

  /** why the module refuses this session now, read from its state (for the failure's detail) */
  const refusalCause = async (account: Address, key: Address, q: Quote, entryPointReason: string): Promise<string> => {
    try {
      const asset = q.side === 'buy' ? NATIVE : (q.token as Address);
      const [s, b, now] = await Promise.all([readEvmSession(client, validator, account, key), readEvmBudget(client, validator, account, key, asset), chainNow()]);
      if (!s.installed) return `the session module is not installed on ${account} (${entryPointReason})`;
      if (!s.enabled) return `no session for key ${key} on ${account} (${entryPointReason})`;
      if (s.revoked) return `session revoked (${entryPointReason})`;
      if (BigInt(s.validUntil) < now) return `session expired at ${s.validUntil} (${entryPointReason})`;
      const amount = BigInt(q.amountIn);
      const unit = asset === NATIVE ? 'wei' : `units of ${asset}`;
      if (b.spent + amount > b.limit) return `spend cap reached: ${b.spent} of ${b.limit} ${unit} spent, ${amount} more asked (${entryPointReason})`;
    } catch {
      /* the state is only for the detail */
    }
    return `the session validator refused the operation (${entryPointReason})`;
  };

  /** simulates handleOps; sends it unless refused; returns the transaction hash or the refusal */
  const send = (op: SignedUserOp): Promise<{ hash: Hex } | { refusal: string }> =>
    serially(async () => {
      const args = [[op.packed], relayer.address] as const;
      try {
        await client.simulateContract({ address: opts.entryPoint, abi: entryPoint08Abi, functionName: 'handleOps', args, account: relayer.address });
      } catch (err) {
        const refusal = entryPointRefusal(err);
        if (refusal !== undefined) return { refusal };
        throw new VenueError('venue_unavailable', `handleOps simulation: ${err instanceof BaseError ? err.shortMessage : String(err)}`);
      }
      // another process relaying from the same key (the API's revokes beside an engine's swaps, or
      // two engines) can take the transaction nonce this one read: read it again and send again.
      // The user operation's own nonce lane keeps a second send from trading twice
      const hash = await retry(() => wallet.writeContract({ address: opts.entryPoint, abi: entryPoint08Abi, functionName: 'handleOps', args, chain: null, gas: handleOpsGas(gas) }), {
        backoff: NONCE_TAKEN_BACKOFF,
        retries: NONCE_ATTEMPTS - 1,
        shouldRetry: (err) => err instanceof BaseError && (err.walk((e) => e instanceof NonceTooLowError) !== null || /replacement transaction underpriced/i.test(err.message)),
      });
      return { hash };
    });

  /** the outcome of user operation `opHash` mined in `receipt` */
  const outcome = (receipt: TransactionReceipt, opHash: Hex, account: Address, q: Quote): SubmitResult => {
    const ref = receipt.transactionHash;
    const [event] = parseEventLogs({ abi: entryPoint08Abi, eventName: 'UserOperationEvent', logs: receipt.logs }).filter((e) => e.args.userOpHash === opHash);
    if (receipt.status !== 'success' || !event) return failed('reverted', ref, 'the handleOps transaction reverted');
    if (!event.args.success) {
      const [why] = parseEventLogs({ abi: entryPoint08Abi, eventName: 'UserOperationRevertReason', logs: receipt.logs }).filter((e) => e.args.userOpHash === opHash);
      const detail = revertString(why?.args.revertReason);
      const reason = /INSUFFICIENT_OUTPUT_AMOUNT/.test(detail) ? 'slippage' : /EXPIRED/.test(detail) ? 'quote_expired' : 'reverted';
      return failed(reason, ref, `the swap reverted: ${detail}`);
    }
    const acct = account.toLowerCase();
    const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).filter((l) => l.address.toLowerCase() === q.token);
    const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
    if (q.side === 'buy') {
      const out = sum(transfers.filter((t) => t.args.to.toLowerCase() === acct).map((t) => t.args.value));
      return { status: 'filled', ref, amountIn: q.amountIn, amountOut: out.toString() };
    }
    const spent = sum(transfers.filter((t) => t.args.from.toLowerCase() === acct).map((t) => t.args.value));
    const withdrawals = parseEventLogs({ abi: wethAbi, eventName: 'Withdrawal', logs: receipt.logs }).filter(
      (l) => l.address.toLowerCase() === opts.weth.toLowerCase() && l.args.src.toLowerCase() === opts.router.toLowerCase(),
    );
    return { status: 'filled', ref, amountIn: spent.toString(), amountOut: sum(withdrawals.map((w) => w.args.wad)).toString() };
  };

  /** the lane's sequence 0 was used: the outcome of that operation if it is this one, else a refusal */
  const already = async (account: Address, nonce: bigint, op: SignedUserOp, q: Quote): Promise<SubmitResult> => {
    const latest = await client.getBlockNumber();
    const events = await client.getContractEvents({
      address: opts.entryPoint,
      abi: entryPoint08Abi,
      eventName: 'UserOperationEvent',
      args: { sender: account },
      fromBlock: latest > lookback ? latest - lookback : 0n,
      toBlock: latest,
    });
    const prior = events.find((e) => e.args.nonce === nonce);
    if (prior?.args.userOpHash === op.hash && prior.transactionHash) {
      return outcome(await client.getTransactionReceipt({ hash: prior.transactionHash }), op.hash, account, q);
    }
    const where = prior?.transactionHash ? ` in ${prior.transactionHash}` : '';
    return failed('duplicate', prior?.transactionHash ?? null, `an operation of this execution (nonce ${nonce}) was already sent${where} with another quote`);
  };

  const submit = async (session: VenueSession, q: Quote, hooks: SubmitHooks): Promise<SubmitResult> => {
    checkSession(session);
    const account = session.account;
    const key = opts.sessionKeyFor(session.agentId);
    if ((await chainNow()) > BigInt(q.deadline)) return failed('quote_expired', null, `the quote's deadline ${q.deadline} has passed`);
    const amountIn = BigInt(q.amountIn);
    const held =
      q.side === 'buy'
        ? await client.getBalance({ address: account })
        : await client.readContract({ address: q.token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [account] });
    if (held < amountIn) return failed('insufficient_funds', null, `the account holds ${held}, the ${q.side} needs ${amountIn}`);

    const nonce = validatorNonceKey(validator, laneOf(hooks.executionId)) << 64n;
    const op = await sign(account, key, nonce, callsFor(key.address, q));
    const current = await client.readContract({ address: opts.entryPoint, abi: entryPoint08Abi, functionName: 'getNonce', args: [account, nonce >> 64n] });
    if (current !== nonce) return already(account, nonce, op, q);

    const sent = await send(op);
    if ('refusal' in sent) {
      if (/^AA25/.test(sent.refusal)) return already(account, nonce, op, q);
      const sessionRefusal = /^AA2[234]/.test(sent.refusal);
      const detail = sessionRefusal ? await refusalCause(account, key.address, q, sent.refusal) : `the EntryPoint refused the operation: ${sent.refusal}`;
      return failed(sessionRefusal ? 'session_refused' : 'userop_refused', null, detail);
    }
    await hooks.onSubmitted(sent.hash);
    const receipt = await client.waitForTransactionReceipt({ hash: sent.hash, pollingInterval });
    return outcome(receipt, op.hash, account, q);
  };

  const cancel = async (session: VenueSession, ref: string): Promise<{ cancelled: boolean; detail: string }> => {
    checkSession(session);
    try {
      const receipt = await client.getTransactionReceipt({ hash: ref as Hex });
      return { cancelled: false, detail: `mined in block ${receipt.blockNumber}: a swap is atomic once mined, nothing to cancel` };
    } catch {
      return { cancelled: false, detail: 'a sent user operation is not recalled: it executes once when mined, or never' };
    }
  };

  const revoke = async (session: VenueSession): Promise<{ ref: string | null }> => {
    checkSession(session);
    const account = session.account;
    const key = opts.sessionKeyFor(session.agentId);
    const [s, now] = await Promise.all([readEvmSession(client, validator, account, key.address), chainNow()]);
    // nothing left to end: no session, revoked already, or expired (the EntryPoint refuses its operations)
    if (!s.enabled || s.revoked || BigInt(s.validUntil) < now) return { ref: null };
    const nonceKey = validatorNonceKey(validator, 0);
    const nonce = await client.readContract({ address: opts.entryPoint, abi: entryPoint08Abi, functionName: 'getNonce', args: [account, nonceKey] });
    const call = { to: validator, data: encodeFunctionData({ abi: sessionValidatorAbi, functionName: 'revokeSession', args: [account, key.address] }) };
    const op = await sign(account, key, nonce, [call]);
    const sent = await send(op);
    if ('refusal' in sent) throw new VenueError('revoke_refused', `the EntryPoint refused the revocation: ${sent.refusal}`);
    const receipt = await client.waitForTransactionReceipt({ hash: sent.hash, pollingInterval });
    const [event] = parseEventLogs({ abi: entryPoint08Abi, eventName: 'UserOperationEvent', logs: receipt.logs }).filter((e) => e.args.userOpHash === op.hash);
    if (receipt.status !== 'success' || !event?.args.success) throw new VenueError('revoke_failed', `the revocation did not execute (${receipt.transactionHash})`);
    return { ref: receipt.transactionHash };
  };

  return Object.freeze({ venue: 'evm-spot', quote, submit, cancel, revoke });
}
