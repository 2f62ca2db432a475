/**
 * The EVM spot venue on real contracts: ERC-4337's EntryPoint v0.8, the user's ERC-7579 account
 * (OpenZeppelin) with the session validator module, and Uniswap V2, on a devnet of its own. The
 * venue quotes and submits as the agent's session key, relayed by our own bundler; the contracts
 * hold the session to the module's swaps through the router, back to the account, within its caps,
 * until its expiry, whatever the key signs: its own handleOps attempts past the rules revert on
 * chain (test/integration/evm-spot-attacker.test.ts tries every way around them).
 *
 * Own node on EVM_SPOT_DEVNET_PORT (default 18557).
 */
import { encodeFunctionData, erc20Abi as viemErc20Abi, maxUint256, parseEther, type Address, type Hex, type LocalAccount } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enableSession,
  ownerExecute,
  routerAbi,
} from '../../infra/devnet/index.ts';
import type { Devnet, DevnetClient, ExecutionDeployment, UniswapDeployment } from '../../infra/devnet/index.ts';
import { encodeExecute, sessionAccountAbi, sessionSwapCall, sessionValidatorAbi, type AccountCall, type SignedUserOp } from '../../infra/session-account.ts';
import { evmSessionSetup, readEvmSession } from '../../venues/evm-spot.ts';
import { sessionKeysFrom } from '../../venues/session-keys.ts';
import type { Quote, SubmitHooks, Venue, VenueSession } from '../../venues/types.ts';
import { devnetVenue, fund, startSessionDevnet, keyOp as keyOpOn, sendOpAs, simulateOp, type OpsTarget } from './session-ops.ts';

const port = Number(process.env.EVM_SPOT_DEVNET_PORT ?? 18557);
const MNEMONIC = 'test test test test test test test test test test test junk';

const owner = privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');
const stranger = privateKeyToAccount('0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e');
/** the relayer (our bundler) is one of the node's funded accounts, used by no one else here */
const relayer = mnemonicToAccount(MNEMONIC, { addressIndex: 39 });
const keyFor = sessionKeysFrom('evm-spot-session-test-secret');

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment;
let x: ExecutionDeployment;
let account: Address;
let venue: Venue;
let ops: OpsTarget;

/** a process's venue on the devnet, relaying from `relayer` */
const relayingVenue = (): Venue =>
devnetVenue(devnet.rpcUrl, d, x, relayer, keyFor);

async function chainNow(): Promise<number> {
  return Number((await client.getBlock()).timestamp);
}

function sessionOf(agentId: string): VenueSession {
  return { agentId, chain: 'devnet', account: account.toLowerCase() as Address };
}

/** the owner gives the agent's key a session on the account */
async function giveSession(agentId: string, capEth: string, ttlSec: number): Promise<VenueSession> {
  await enableSession(client, x, {
    account,
    owner,
    grant: {
      sessionKey: keyFor(agentId).address.toLowerCase(),
      router: d.router.toLowerCase(),
      capNative: parseEther(capEth).toString(),
      validUntil: (await chainNow()) + ttlSec,
      stables: [],
    },
  });
  return sessionOf(agentId);
}

function hooks(executionId: string): SubmitHooks & { sent: string[] } {
  const sent: string[] = [];
  return { executionId, sent, onSubmitted: async (ref) => void sent.push(ref) };
}

const buyQuote = (session: VenueSession, usd: number, token: Address = d.tokens.TKA): Promise<Quote> =>
  venue.quote({ session, token: token.toLowerCase() as Address, side: 'buy', usd, maxSlippageBps: 100 });

const tokenBalance = (token: Address, who: Address) => client.readContract({ address: token, abi: viemErc20Abi, functionName: 'balanceOf', args: [who] });

/** the session key's own user operation (not through the venue), on nonce lane `lane` of the module */
const keyOp = (key: LocalAccount, callData: Hex, lane = 7) => keyOpOn(ops, key, callData, lane);
const simulate = (op: SignedUserOp, from: Address) => simulateOp(ops, op, from);
/** the session key itself sends handleOps with its op (it was given gas money) and gets the receipt */
const sendAsKey = (key: LocalAccount, op: SignedUserOp) => sendOpAs(ops, key, op);
const fundKey = (key: LocalAccount) => fund(ops, key.address);

/** the router's swap of native for TKA with its proceeds to `to` */
const swapEth = (to: Address) => encodeFunctionData({ abi: routerAbi, functionName: 'swapExactETHForTokens', args: [0n, [d.weth, d.tokens.TKA], to, 4_000_000_000n] });

/** the one call a session key may make: the module's swap of `wei` native for TKA */
const moduleSwap = (key: LocalAccount, wei: bigint) =>
  sessionSwapCall(x.sessionValidator, key.address, { amountIn: wei, amountOutMin: 1n, path: [d.weth, d.tokens.TKA], deadline: 4_000_000_000n, nativeIn: true, nativeOut: false });

beforeAll(async () => {
  const env = await startSessionDevnet(port, owner.address);
  ({ devnet, client, d, x, account } = env);
  ops = env;
  venue = relayingVenue();
}, 300_000);

afterAll(async () => {
  await devnet?.stop();
});

describe('EVM spot venue: session swaps on an ERC-7579 account through the EntryPoint', () => {
  it("the account answers EIP-1271 for its owner's personal_sign (viem verifyMessage), never for a stranger or a session key", async () => {
    const message = 'intel: authorize agent creation';
    const byOwner = await owner.signMessage({ message });
    expect(await client.verifyMessage({ address: account, message, signature: byOwner })).toBe(true);
    expect(await client.verifyMessage({ address: account, message, signature: await stranger.signMessage({ message }) })).toBe(false);
    const key = keyFor('agent-1271');
    await giveSession('agent-1271', '1', 3600);
    expect(await client.verifyMessage({ address: account, message, signature: await key.signMessage({ message }) })).toBe(false);
    // addressed to the module (its address before the signature): the module never vouches for a session key
    const viaModule = `${x.sessionValidator}${(await key.signMessage({ message })).slice(2)}` as Hex;
    expect(await client.verifyMessage({ address: account, message, signature: viaModule })).toBe(false);
  });

  it('a session swap within the cap fills through quote and submit, the tokens land in the smart account; a retried submit trades once; a sell brings native back', async () => {
    // the user side as the agents API answers it: install the module and enable the session in one execution
    const key = keyFor('agent-fill');
    const before = await readEvmSession(client, x.sessionValidator, account, key.address);
    const setup = evmSessionSetup({
      account,
      validator: x.sessionValidator,
      grant: { sessionKey: key.address.toLowerCase(), router: d.router.toLowerCase(), capNative: parseEther('1').toString(), validUntil: (await chainNow()) + 3600, stables: [] },
      installed: before.installed,
    });
    expect(setup.module).toBe(x.sessionValidator);
    await ownerExecute(client, x, { account, owner, calls: setup.calls });
    const session = sessionOf('agent-fill');
    const s0 = await readEvmSession(client, x.sessionValidator, account, key.address);
    expect(s0).toMatchObject({ enabled: true, installed: true, capWei: parseEther('1'), spentWei: 0n, revoked: false });

    const q = await buyQuote(session, 100);
    // $100 at the reference pool's ~$2000 per native: ~0.05
    expect(Number(q.amountIn) / 1e18).toBeGreaterThan(0.045);
    expect(Number(q.amountIn) / 1e18).toBeLessThan(0.055);
    expect(BigInt(q.minAmountOut)).toBeLessThan(BigInt(q.expectedOut));
    const heldBefore = await tokenBalance(d.tokens.TKA, account);
    const h = hooks('exec-fill-1');
    const r = await venue.submit(session, q, h);
    expect(r.status).toBe('filled');
    if (r.status !== 'filled') return;
    expect(h.sent).toEqual([r.ref]);
    expect(r.amountIn).toBe(q.amountIn);
    expect(BigInt(r.amountOut)).toBeGreaterThanOrEqual(BigInt(q.minAmountOut));
    expect((await tokenBalance(d.tokens.TKA, account)) - heldBefore).toBe(BigInt(r.amountOut));
    expect((await readEvmSession(client, x.sessionValidator, account, key.address)).spentWei).toBe(BigInt(q.amountIn));

    // the executor retries the same execution: the EntryPoint's nonce lane of the execution is used, the outcome is the one mined
    const again = await venue.submit(session, q, hooks('exec-fill-1'));
    expect(again).toEqual(r);
    expect((await tokenBalance(d.tokens.TKA, account)) - heldBefore).toBe(BigInt(r.amountOut));

    // sell half: the module approves the exact amount and swaps; native comes back to the account, which pays no gas (the relayer does)
    const sell = await venue.quote({ session, token: d.tokens.TKA.toLowerCase() as Address, side: 'sell', fraction: 0.5, maxSlippageBps: 100 });
    expect(BigInt(sell.amountIn)).toBe((await tokenBalance(d.tokens.TKA, account)) / 2n);
    const ethBefore = await client.getBalance({ address: account });
    const sold = await venue.submit(session, sell, hooks('exec-sell-1'));
    expect(sold.status).toBe('filled');
    if (sold.status !== 'filled') return;
    expect(sold.amountIn).toBe(sell.amountIn);
    expect((await client.getBalance({ address: account })) - ethBefore).toBe(BigInt(sold.amountOut));
    // a sell sends no native: the cap's spent amount did not move
    expect((await readEvmSession(client, x.sessionValidator, account, key.address)).spentWei).toBe(BigInt(q.amountIn));
    // a mined swap cannot be cancelled
    expect(await venue.cancel(session, r.ref)).toMatchObject({ cancelled: false });
  });

  it('two processes relaying at once from one relayer key (the API and an engine, or two engines): every swap of both fills, none fails on a taken transaction nonce', async () => {
    // another process's venue: its own clients and its own queue, the same relayer key
    const other = relayingVenue();
    const sessions: VenueSession[] = [];
    for (const i of [0, 1, 2, 3]) sessions.push(await giveSession(`agent-two-procs-${i}`, '1', 3600));
    const quotes = await Promise.all(sessions.map((s) => buyQuote(s, 20)));
    const results = await Promise.all(sessions.map((s, i) => (i % 2 === 0 ? venue : other).submit(s, quotes[i] as Quote, hooks(`exec-two-procs-${i}`))));
    expect(results.map((r) => (r.status === 'filled' ? 'filled' : `${r.status}: ${'detail' in r ? r.detail : ''}`))).toEqual(['filled', 'filled', 'filled', 'filled']);
  });

  it('cap: once spent, a further buy through the venue is failed/session_refused, and the session key’s own handleOps past the cap reverts on chain', async () => {
    const session = await giveSession('agent-cap', '0.06', 3600);
    const key = keyFor('agent-cap');
    const first = await venue.submit(session, await buyQuote(session, 100), hooks('exec-cap-1'));
    expect(first.status).toBe('filled');

    const h = hooks('exec-cap-2');
    const over = await venue.submit(session, await buyQuote(session, 40), h);
    expect(over).toMatchObject({ status: 'failed', reason: 'session_refused', ref: null });
    if (over.status === 'failed') expect(over.detail).toMatch(/spend cap reached/);
    expect(h.sent).toEqual([]);
    const spent = (await readEvmSession(client, x.sessionValidator, account, key.address)).spentWei;

    // the key goes around the venue: its own op, its own handleOps transaction
    await fundKey(key);
    const op = await keyOp(key, encodeExecute([moduleSwap(key, parseEther('0.02'))]));
    expect(await simulate(op, key.address)).toBe('AA24 signature error');
    const held = await tokenBalance(d.tokens.TKA, account);
    const receipt = await sendAsKey(key, op);
    expect(receipt.status).toBe('reverted');
    expect(await tokenBalance(d.tokens.TKA, account)).toBe(held);
    expect((await readEvmSession(client, x.sessionValidator, account, key.address)).spentWei).toBe(spent);

    // what is left of the cap still trades
    const small = await venue.submit(session, await buyQuote(session, 10), hooks('exec-cap-3'));
    expect(small.status).toBe('filled');
  });

  it('calls other than the module’s swap (the router’s swaps themselves, approvals, transfers) are refused, through any encoding', async () => {
    const session = await giveSession('agent-foreign', '1', 3600);
    const key = keyFor('agent-foreign');
    expect((await venue.submit(session, await buyQuote(session, 50), hooks('exec-foreign-1'))).status).toBe('filled');
    await fundKey(key);
    const tka = d.tokens.TKA;
    const transfer = encodeFunctionData({ abi: viemErc20Abi, functionName: 'transfer', args: [key.address, 1n] });
    const approveRouter = encodeFunctionData({ abi: viemErc20Abi, functionName: 'approve', args: [d.router, 1n] });
    const attempts: Record<string, Hex> = {
      'ERC-20 transfer to the session key': encodeExecute([{ to: tka, data: transfer }]),
      'native sent to the session key': encodeExecute([{ to: key.address, data: '0x', value: parseEther('0.01') }]),
      'swap whose proceeds go to the session key': encodeExecute([{ to: d.router, data: swapEth(key.address), value: parseEther('0.01') }]),
      'an approval of the session key': encodeExecute([{ to: tka, data: encodeFunctionData({ abi: viemErc20Abi, functionName: 'approve', args: [key.address, maxUint256] }) }]),
      'a batch hiding a transfer behind an approval of the router': encodeExecute([
        { to: tka, data: approveRouter },
        { to: tka, data: transfer },
      ]),
      'native sent along an approval': encodeExecute([{ to: tka, data: approveRouter, value: 1n }]),
      'the account uninstalling the module': encodeExecute([
        { to: account, data: encodeFunctionData({ abi: sessionAccountAbi, functionName: 'uninstallModule', args: [1n, x.sessionValidator, '0x'] }) },
      ]),
      'the session revoking another key': encodeExecute([
        {
          to: x.sessionValidator,
          data: encodeFunctionData({ abi: sessionValidatorAbi, functionName: 'revokeSession', args: [account, keyFor('agent-fill').address] }),
        },
      ]),
      // mode 0xff: delegatecall into any contract, which would run in the account's context
      'a delegatecall execution': encodeFunctionData({
        abi: sessionAccountAbi,
        functionName: 'execute',
        args: [`0xff${'00'.repeat(31)}`, `${tka}${transfer.slice(2)}` as Hex],
      }),
      'the router’s swap back to the account, called directly': encodeExecute([{ to: d.router, data: swapEth(account), value: parseEther('0.01') }]),
      // mode 0x0001…: "try" execution of a proper swap: only the plain single mode is accepted
      'a swap in try mode': encodeFunctionData({
        abi: sessionAccountAbi,
        functionName: 'execute',
        args: [`0x0001${'00'.repeat(30)}`, `${x.sessionValidator}${'00'.repeat(32)}${moduleSwap(key, parseEther('0.01')).data.slice(2)}` as Hex],
      }),
      'the account’s installModule called directly': encodeFunctionData({ abi: sessionAccountAbi, functionName: 'installModule', args: [1n, x.sessionValidator, '0x'] }),
    };
    for (const [what, callData] of Object.entries(attempts)) {
      expect(await simulate(await keyOp(key, callData), key.address), what).toMatch(/^AA2[34]/);
    }
    // one of them on chain: the transaction reverts and nothing moved
    const held = await tokenBalance(tka, account);
    const receipt = await sendAsKey(key, await keyOp(key, attempts['ERC-20 transfer to the session key'] as Hex));
    expect(receipt.status).toBe('reverted');
    expect(await tokenBalance(tka, key.address)).toBe(0n);
    expect(await tokenBalance(tka, account)).toBe(held);

    // the same rules accept a proper swap signed the same way: the refusals above are the rules, not the signing
    const ok = await keyOp(key, encodeExecute([moduleSwap(key, parseEther('0.01'))]));
    expect(await simulate(ok, key.address)).toBe('accepted');
    // and a stranger's signature over a proper swap is refused
    const byStranger = await keyOp(stranger, encodeExecute([moduleSwap(key, parseEther('0.01'))]));
    expect(await simulate(byStranger, key.address)).toBe('AA24 signature error');
  });

  it('revoke: after venue.revoke the session is revoked on chain and nothing goes through', async () => {
    const session = await giveSession('agent-revoke', '1', 3600);
    const key = keyFor('agent-revoke');
    expect((await venue.submit(session, await buyQuote(session, 50), hooks('exec-revoke-1'))).status).toBe('filled');
    const { ref } = await venue.revoke(session);
    expect(ref).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await readEvmSession(client, x.sessionValidator, account, key.address)).revoked).toBe(true);

    const after = await venue.submit(session, await buyQuote(session, 50), hooks('exec-revoke-2'));
    expect(after).toMatchObject({ status: 'failed', reason: 'session_refused', ref: null });
    if (after.status === 'failed') expect(after.detail).toMatch(/revoked/);
    await fundKey(key);
    const op = await keyOp(key, encodeExecute([moduleSwap(key, parseEther('0.01'))]));
    expect(await simulate(op, key.address)).toBe('AA24 signature error');
    expect((await sendAsKey(key, op)).status).toBe('reverted');
    // nothing left to revoke
    expect(await venue.revoke(session)).toEqual({ ref: null });
  });

  it('expiry: past validUntil (evm_increaseTime) nothing goes through, through the venue or the key’s own handleOps', async () => {
    const session = await giveSession('agent-expiry', '1', 600);
    const key = keyFor('agent-expiry');
    expect((await venue.submit(session, await buyQuote(session, 50), hooks('exec-expiry-1'))).status).toBe('filled');
    await client.increaseTime({ seconds: 601 });
    await client.mine({ blocks: 1 });

    const q = await buyQuote(session, 50);
    const late = await venue.submit(session, q, hooks('exec-expiry-2'));
    expect(late).toMatchObject({ status: 'failed', reason: 'session_refused', ref: null });
    if (late.status === 'failed') expect(late.detail).toMatch(/expired.*AA22/);

    await fundKey(key);
    const op = await keyOp(key, encodeExecute([moduleSwap(key, parseEther('0.01'))]));
    expect(await simulate(op, key.address)).toBe('AA22 expired or not due');
    expect((await sendAsKey(key, op)).status).toBe('reverted');
    // an expired session has nothing to revoke on chain
    expect(await venue.revoke(session)).toEqual({ ref: null });
    // the owner's own operations still work (its signer, not the session)
    const calls: AccountCall[] = [{ to: owner.address, data: '0x', value: 1n }];
    await ownerExecute(client, x, { account, owner, calls });
  });
});
