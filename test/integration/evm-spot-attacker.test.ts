/**
 * The attacker who stole everything our backend holds for a live evm-spot agent: its session key
 * AND the relayer key (our bundler). Against the real contracts on a devnet of its own (EntryPoint
 * v0.8, the user's ERC-7579 account, the session module, Uniswap V2), it tries every way to move
 * the user's assets out: through pairs it created, tokens the session never bought, more than the
 * agent's units, approvals, transfers, other recipients, other execution modes, the module's own
 * functions, past each cap. Every attempt is refused in validation or reverts. Then it does the
 * worst the rules leave it (swaps into its own pairs within the caps) and the account's balance
 * changes per asset are printed: nothing past what the user signed, nothing to any address but the
 * account and the pools of its own swaps. The agent's legitimate buy and later sell fill through
 * the venue before and after.
 *
 * Own node on EVM_ATTACK_DEVNET_PORT (default 18563).
 */
import {
  BaseError,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  maxUint256,
  parseAbi,
  parseEther,
  parseEventLogs,
  type Abi,
  type Address,
  type Hex,
  type LocalAccount,
  type TransactionReceipt,
} from 'viem';
import { entryPoint08Abi } from 'viem/account-abstraction';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, compileExecutionContracts, enableSession, factoryAbi, routerAbi } from '../../infra/devnet/index.ts';
import type { Devnet, DevnetClient, ExecutionDeployment, UniswapDeployment } from '../../infra/devnet/index.ts';
import { encodeExecute, sessionAccountAbi, sessionSwapCall, sessionValidatorAbi, type SignedUserOp, type SwapOrder } from '../../infra/session-account.ts';
import { readEvmBudget } from '../../venues/evm-spot.ts';
import { sessionKeysFrom } from '../../venues/session-keys.ts';
import type { Venue, VenueSession } from '../../venues/types.ts';
import { devnetVenue, fund, startSessionDevnet, keyOp, sendOpAs, sendRawAs, simulateOp, type OpsTarget } from './session-ops.ts';

const port = Number(process.env.EVM_ATTACK_DEVNET_PORT ?? 18563);
const MNEMONIC = 'test test test test test test test test test test test junk';
const DEADLINE = 4_000_000_000n;
const NATIVE = '0x0000000000000000000000000000000000000000' as Address;

const owner = privateKeyToAccount(generatePrivateKey());
/** both stolen keys: the relayer (one of the node's funded accounts) and the agent's session key */
const relayer = mnemonicToAccount(MNEMONIC, { addressIndex: 39 });
const sessionKey = sessionKeysFrom('evm-spot-attacker-test-secret')('agent-victim');

const CAP_NATIVE = parseEther('0.2');
const CAP_USDC = parseEther('50');

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment;
let x: ExecutionDeployment;
let account: Address;
let venue: Venue;
let session: VenueSession;
let ops: OpsTarget;
/** the attacker's own token, paired by it with USDC, WETH and TKA */
let EVIL: Address;
/** the TKA units the agent's legitimate buy brought in */
let agentUnits: bigint;

const transferAbi = parseAbi(['function transferFrom(address from, address to, uint256 value) returns (bool)']);

async function send(from: Address | LocalAccount, address: Address, abi: Abi, functionName: string, args: unknown[], value?: bigint): Promise<void> {
  const hash = await client.writeContract({ address, abi, functionName, args, account: from, chain: client.chain, value, gas: 6_000_000n } as never);
  expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe('success');
}

const balanceOf = (token: Address, who: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

/** the session module's swap, as the stolen session key would have the account call it */
const swapOf = (o: Partial<SwapOrder> & Pick<SwapOrder, 'path' | 'amountIn'>): Hex =>
  encodeExecute([sessionSwapCall(x.sessionValidator, sessionKey.address, { amountOutMin: 1n, deadline: DEADLINE, nativeIn: false, nativeOut: false, ...o })]);

const call = (to: Address, data: Hex, value = 0n): Hex => encodeExecute([{ to, data, value }]);

/** execute(mode, raw executionCalldata): the modes encodeExecute never makes */
const executeIn = (mode: string, exec: Hex): Hex =>
  encodeFunctionData({ abi: sessionAccountAbi, functionName: 'execute', args: [`0x${mode.padEnd(64, '0')}`, exec] });

/** the contracts' ABIs, to name their custom errors */
const errorsAbi = (): Abi => {
  const c = compileExecutionContracts();
  return [...c.sessionValidator.abi, ...c.account.abi];
};

function revertName(data: Hex | undefined): string {
  if (!data || data === '0x') return 'no revert data';
  try {
    const e = decodeErrorResult({ abi: errorsAbi(), data });
    return e.errorName === 'Error' ? String(e.args?.[0]) : e.errorName;
  } catch {
    return data.slice(0, 10);
  }
}

/** the outcome of the stolen session key's op: simulated by the relayer, then sent on chain by it */
async function tryOp(callData: Hex): Promise<string> {
  const op: SignedUserOp = await keyOp(ops, sessionKey, callData);
  const verdict = await simulateOp(ops, op, relayer.address);
  const receipt = await sendOpAs(ops, relayer, op);
  if (receipt.status !== 'success') return `refused in validation (${verdict}); handleOps reverted`;
  const [event] = parseEventLogs({ abi: entryPoint08Abi, eventName: 'UserOperationEvent', logs: receipt.logs });
  if (event?.args.success) return 'EXECUTED';
  const [why] = parseEventLogs({ abi: entryPoint08Abi, eventName: 'UserOperationRevertReason', logs: receipt.logs });
  return `reverted in execution (${revertName(why?.args.revertReason)})`;
}

/** the outcome of a transaction the attacker sends itself, from `from`, to a contract */
async function tryDirect(from: LocalAccount, to: Address, data: Hex): Promise<string> {
  let reason = 'no revert';
  try {
    await client.call({ account: from, to, data });
  } catch (err) {
    // the revert data: the node's error object on the RPC error under viem's CallExecutionError
    const dataOf = (e: unknown) => (e as { data?: { data?: unknown } }).data?.data;
    const rpc = err instanceof BaseError ? err.walk((e) => typeof dataOf(e) === 'string') : null;
    reason = revertName(dataOf(rpc) as Hex | undefined);
  }
  const receipt: TransactionReceipt = await sendRawAs(ops, from, to, data, 2_000_000n);
  return receipt.status === 'success' ? 'EXECUTED' : `reverted (${reason})`;
}

interface Holdings {
  native: bigint;
  WETH: bigint;
  USDC: bigint;
  TKA: bigint;
  TKB: bigint;
  EVIL: bigint;
}

async function holdings(): Promise<Holdings> {
  const [native, WETH, USDC, TKA, TKB, evil] = await Promise.all([
    client.getBalance({ address: account }),
    balanceOf(d.weth, account),
    balanceOf(d.tokens.USDC, account),
    balanceOf(d.tokens.TKA, account),
    balanceOf(d.tokens.TKB, account),
    balanceOf(EVIL, account),
  ]);
  return { native, WETH, USDC, TKA, TKB, EVIL: evil };
}

const budgetLeft = async (asset: Address): Promise<bigint> => {
  const b = await readEvmBudget(client, x.sessionValidator, account, sessionKey.address, asset);
  return b.limit - b.spent;
};

const pad = (s: string, n: number) => s.padEnd(n);

beforeAll(async () => {
  const env = await startSessionDevnet(port, owner.address);
  ({ devnet, client, d, x, account } = env);
  ops = env;
  // the user's own holdings beside the agent's: USDC, TKA and TKB it bought itself
  for (const [token, amount] of [[d.tokens.USDC, parseEther('1000')], [d.tokens.TKA, parseEther('500')], [d.tokens.TKB, parseEther('500')]] as const) {
    await send(d.deployer, token, erc20Abi, 'transfer', [account, amount]);
  }
  // the user's grant: native up to 0.2, USDC up to 50
  await enableSession(client, x, {
    account,
    owner,
    grant: {
      sessionKey: sessionKey.address.toLowerCase(),
      router: d.router.toLowerCase(),
      validUntil: Number((await client.getBlock()).timestamp) + 3600,
      capNative: CAP_NATIVE.toString(),
      stables: [{ token: d.tokens.USDC.toLowerCase(), cap: CAP_USDC.toString() }],
    },
  });
  venue = devnetVenue(devnet.rpcUrl, d, x, relayer, () => sessionKey);
  session = { agentId: 'agent-victim', chain: 'devnet', account: account.toLowerCase() as Address };

  // the attacker's preparations, from the relayer's funds: its token, and pairs of it with USDC, WETH and TKA
  await send(d.deployer, d.tokens.USDC, erc20Abi, 'transfer', [relayer.address, parseEther('100')]);
  await send(d.deployer, d.tokens.TKA, erc20Abi, 'transfer', [relayer.address, parseEther('1000')]);
  const hash = await client.deployContract({ ...artifacts.erc20(), args: [parseEther('1000000000')], account: relayer, chain: client.chain, gas: 6_000_000n } as never);
  EVIL = (await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).contractAddress as Address;
  for (const t of [EVIL, d.tokens.USDC, d.tokens.TKA]) await send(relayer, t, erc20Abi, 'approve', [d.router, maxUint256]);
  await send(relayer, d.router, routerAbi, 'addLiquidity', [d.tokens.USDC, EVIL, parseEther('10'), parseEther('1000000'), 0n, 0n, relayer.address, DEADLINE]);
  await send(relayer, d.router, routerAbi, 'addLiquidityETH', [EVIL, parseEther('1000000'), 0n, 0n, relayer.address, DEADLINE], parseEther('0.05'));
  await send(relayer, d.router, routerAbi, 'addLiquidity', [EVIL, d.tokens.TKA, parseEther('1000000'), parseEther('100'), 0n, 0n, relayer.address, DEADLINE]);
}, 300_000);

afterAll(async () => {
  await devnet?.stop();
});

describe('EVM spot: an attacker with the session key and the relayer key of a live agent', () => {
  it('the agent’s copy buy fills through the venue and its units are credited to the session', async () => {
    const q = await venue.quote({ session, token: d.tokens.TKA.toLowerCase() as Address, side: 'buy', usd: 100, maxSlippageBps: 100 });
    expect(BigInt(q.minAmountOut)).toBeGreaterThan(0n);
    const r = await venue.submit(session, q, { executionId: 'exec-victim-buy', onSubmitted: async () => undefined });
    expect(r.status).toBe('filled');
    if (r.status !== 'filled') return;
    agentUnits = BigInt(r.amountOut);
    expect(await budgetLeft(d.tokens.TKA)).toBe(agentUnits);
    expect(await budgetLeft(NATIVE)).toBe(CAP_NATIVE - BigInt(q.amountIn));
  });

  it('every way out is refused or reverts; within the caps the worst it can do stays within them; the table of balance changes', async () => {
    const attacker = relayer.address;
    const before = await holdings();
    const bound = { native: await budgetLeft(NATIVE), USDC: await budgetLeft(d.tokens.USDC), TKA: await budgetLeft(d.tokens.TKA), TKB: await budgetLeft(d.tokens.TKB) };
    expect(bound).toEqual({ native: bound.native, USDC: CAP_USDC, TKA: agentUnits, TKB: 0n });
    const firstBlock = (await client.getBlockNumber()) + 1n;
    const { weth, router } = d;
    const { USDC, TKA, TKB } = d.tokens;
    const usdcTransfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [attacker, parseEther('1')] });
    const properBuy = sessionSwapCall(x.sessionValidator, sessionKey.address, { amountIn: parseEther('0.01'), amountOutMin: 1n, path: [weth, TKA], deadline: DEADLINE, nativeIn: true, nativeOut: false });

    const viaSession: Record<string, Hex> = {
      'path through its own pair: WETH → EVIL → TKA': swapOf({ path: [weth, EVIL, TKA], amountIn: parseEther('0.01'), nativeIn: true }),
      'path through its own pair: USDC → EVIL → TKA': swapOf({ path: [USDC, EVIL, TKA], amountIn: parseEther('1') }),
      'path between two non-base tokens: TKA → EVIL': swapOf({ path: [TKA, EVIL], amountIn: parseEther('1') }),
      'sell TKB, a token the session never bought': swapOf({ path: [TKB, weth], amountIn: parseEther('1'), nativeOut: true }),
      'sell the agent’s TKA units + 1 (the user holds more)': swapOf({ path: [TKA, weth], amountIn: agentUnits + 1n, nativeOut: true }),
      'a swap with amountOutMin 0': swapOf({ path: [weth, TKA], amountIn: parseEther('0.01'), nativeIn: true, amountOutMin: 0n }),
      'approve(router, max) of USDC': call(USDC, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] })),
      'approve(attacker, 1) of USDC': call(USDC, encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [attacker, 1n] })),
      'USDC transfer to the attacker': call(USDC, usdcTransfer),
      'USDC transferFrom(account, attacker)': call(USDC, encodeFunctionData({ abi: transferAbi, functionName: 'transferFrom', args: [account, attacker, 1n] })),
      'native sent to the attacker': call(attacker, '0x', parseEther('0.01')),
      'router swap with the attacker as recipient': call(
        router,
        encodeFunctionData({ abi: routerAbi, functionName: 'swapExactETHForTokens', args: [1n, [weth, TKA], attacker, DEADLINE] }),
        parseEther('0.01'),
      ),
      'batch: a proper swap + a USDC transfer': encodeExecute([properBuy, { to: USDC, data: usdcTransfer, value: 0n }]),
      'batch: two proper swaps': encodeExecute([properBuy, properBuy]),
      'delegatecall mode into the attacker’s token': executeIn('ff', `${EVIL}${usdcTransfer.slice(2)}` as Hex),
      'try mode of a proper swap': executeIn('0001', `${x.sessionValidator}${'00'.repeat(32)}${properBuy.data.slice(2)}` as Hex),
      'uninstall the module (validator)': call(account, encodeFunctionData({ abi: sessionAccountAbi, functionName: 'uninstallModule', args: [1n, x.sessionValidator, '0x'] })),
      'uninstall the module (executor)': call(account, encodeFunctionData({ abi: sessionAccountAbi, functionName: 'uninstallModule', args: [2n, x.sessionValidator, '0x'] })),
      'enable itself a bigger session': call(
        x.sessionValidator,
        encodeFunctionData({
          abi: sessionValidatorAbi,
          functionName: 'enableSession',
          args: [{ sessionKey: sessionKey.address, router, validUntil: Number(DEADLINE), capNative: parseEther('1000'), stables: [] }],
        }),
      ),
      'native past its cap (left + 1 wei) into its own pair': swapOf({ path: [weth, EVIL], amountIn: bound.native + 1n, nativeIn: true }),
      'USDC past its cap (50 + 1 wei) into its own pair': swapOf({ path: [USDC, EVIL], amountIn: CAP_USDC + 1n }),
      'a proper swap past its deadline (reserved, then reverts)': swapOf({ path: [weth, TKA], amountIn: parseEther('0.001'), nativeIn: true, deadline: 1n }),
    };
    const outcomes: [string, string][] = [];
    for (const [what, callData] of Object.entries(viaSession)) outcomes.push([what, await tryOp(callData)]);

    // around the EntryPoint: the stolen keys call the contracts themselves
    const order: SwapOrder = { amountIn: parseEther('0.01'), amountOutMin: 1n, path: [weth, TKA], deadline: DEADLINE, nativeIn: true, nativeOut: false };
    const direct: [string, LocalAccount, Address, Hex][] = [
      ['the module’s swap called by the relayer', relayer, x.sessionValidator, encodeFunctionData({ abi: sessionValidatorAbi, functionName: 'swap', args: [sessionKey.address, order] })],
      ['the account’s execute called by the session key', sessionKey, account, call(USDC, usdcTransfer)],
      [
        'the account’s executeFromExecutor called by the relayer',
        relayer,
        account,
        encodeFunctionData({ abi: parseAbi(['function executeFromExecutor(bytes32 mode, bytes executionCalldata)']), functionName: 'executeFromExecutor', args: [`0x${'00'.repeat(32)}`, `${USDC}${'00'.repeat(32)}${usdcTransfer.slice(2)}` as Hex] }),
      ],
    ];
    await fund(ops, sessionKey.address);
    for (const [what, from, to, data] of direct) {
      outcomes.push([what, await tryDirect(from, to, data)]);
    }
    // ERC-1271: the session key's signature over a digest (a permit), addressed to the module, is not the account's
    const digest = `0x${'ab'.repeat(32)}` as Hex;
    const sig = await sessionKey.sign!({ hash: digest });
    const magic = await client.readContract({ address: account, abi: sessionAccountAbi, functionName: 'isValidSignature', args: [digest, `${x.sessionValidator}${sig.slice(2)}`] });
    outcomes.push(['ERC-1271 signature by the session key (a permit)', magic === '0x1626ba7e' ? 'ACCEPTED' : `refused (${magic})`]);

    const width = Math.max(...outcomes.map(([w]) => w.length));
    console.log(['attempt'.padEnd(width) + ' | outcome', ...outcomes.map(([w, o]) => `${pad(w, width)} | ${o}`)].join('\n'));
    for (const [what, outcome] of outcomes) expect(outcome, what).toMatch(/^(refused|reverted)/);
    expect(Object.fromEntries(outcomes)['a proper swap past its deadline (reserved, then reverts)']).toMatch(/EXPIRED/);

    // the worst the rules leave: the whole USDC cap and what is left of native into its own pairs, amountOutMin 1
    const worst = [
      swapOf({ path: [USDC, EVIL], amountIn: await budgetLeft(USDC) }),
      swapOf({ path: [weth, EVIL], amountIn: await budgetLeft(NATIVE), nativeIn: true }),
    ];
    for (const callData of worst) expect(await tryOp(callData)).toBe('EXECUTED');
    expect(await tryOp(swapOf({ path: [weth, EVIL], amountIn: 1n, nativeIn: true }))).toMatch(/^refused/);
    expect(await tryOp(swapOf({ path: [USDC, EVIL], amountIn: 1n }))).toMatch(/^refused/);

    const after = await holdings();
    const spendable: Record<keyof Holdings, string> = {
      native: `≤ ${formatEther(bound.native)} with WETH`,
      WETH: 'with native',
      USDC: `≤ ${formatEther(bound.USDC)}`,
      TKA: `≤ ${formatEther(bound.TKA)} (the agent's units)`,
      TKB: '0 (never bought)',
      EVIL: 'what its buys brought in',
    };
    const col = (v: string) => pad(v, 24);
    console.log(
      [
        `asset  | ${col('before')} | ${col('after')} | ${col('change')} | the session may spend`,
        ...(Object.keys(before) as (keyof Holdings)[]).map(
          (k) => `${pad(k, 6)} | ${col(formatEther(before[k]))} | ${col(formatEther(after[k]))} | ${col(formatEther(after[k] - before[k]))} | ${spendable[k]}`,
        ),
      ].join('\n'),
    );
    // nothing beyond the caps, per asset
    expect(before.native + before.WETH - (after.native + after.WETH)).toBeLessThanOrEqual(bound.native);
    expect(before.USDC - after.USDC).toBeLessThanOrEqual(bound.USDC);
    expect(after.TKA).toBe(before.TKA);
    expect(after.TKB).toBe(before.TKB);
    // nothing to any address but the pools of its own swaps: every token that left the account went to a pair of an executed path
    const pairs = new Set<string>();
    for (const [a, b] of [[USDC, EVIL], [weth, EVIL]] as const) pairs.add((await client.readContract({ address: d.factory, abi: factoryAbi, functionName: 'getPair', args: [a, b] })).toLowerCase());
    const logs = await client.getLogs({ fromBlock: firstBlock, toBlock: await client.getBlockNumber() });
    const outgoing = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs }).filter((t) => t.args.from.toLowerCase() === account.toLowerCase());
    expect(outgoing.length).toBeGreaterThan(0);
    for (const t of outgoing) expect(pairs.has(t.args.to.toLowerCase()), `${t.address} to ${t.args.to}`).toBe(true);
    // native left only as the executed swaps' amountIn (the op carries no fee: the relayer paid the gas)
    expect(before.native - after.native).toBe(bound.native - parseEther('0.001'));
    // and no approval stays behind
    for (const token of [USDC, TKA, TKB]) expect(await client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [account, router] })).toBe(0n);
  });

  it('the agent’s later sell of its own units still fills through the venue; a quote whose slippage floor rounds to 0 is refused', async () => {
    // one base unit of TKA is worth less than a wei: amountOutMin would be 0, which the module refuses
    await expect(venue.quote({ session, token: d.tokens.TKA.toLowerCase() as Address, side: 'sell', fraction: 1, amount: '1', maxSlippageBps: 100 })).rejects.toMatchObject({
      reason: 'amount_too_small',
    });
    const q = await venue.quote({ session, token: d.tokens.TKA.toLowerCase() as Address, side: 'sell', fraction: 1, amount: agentUnits.toString(), maxSlippageBps: 100 });
    expect(BigInt(q.amountIn)).toBe(agentUnits);
    const r = await venue.submit(session, q, { executionId: 'exec-victim-sell', onSubmitted: async () => undefined });
    expect(r).toMatchObject({ status: 'filled', amountIn: agentUnits.toString() });
    expect(await budgetLeft(d.tokens.TKA)).toBe(0n);
    // nothing more of TKA: the user's own 500 stay out of the session's reach
    await expect(venue.quote({ session, token: d.tokens.TKA.toLowerCase() as Address, side: 'sell', fraction: 1, maxSlippageBps: 100 })).rejects.toThrow(/may sell 0/);
  });
});
