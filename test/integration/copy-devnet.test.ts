/**
 * Copy-trading execution end to end on a devnet with the real contracts: a partner entitled to
 * evm-spot creates an agent through the relay for a user whose ERC-7579 smart account signs the
 * authorization (EIP-1271); the user's account enables the session the answer describes; a
 * leader's router swap, ingested from the chain and decided by the copy worker, becomes a swap from
 * the user's smart account within the limits; past the daily cap the next is skipped with the
 * reason; after revoke or expiry nothing is submitted. Webhook-free (see test/e2e/agents.test.ts).
 *
 * Own node on COPY_DEVNET_PORT (default 18559).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { erc20Abi, maxUint256, parseEther } from 'viem';
import type { Address, Hex, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, createDevnetClient, deployUniswap, factoryAbi, makeTrades, routerAbi, startDevnet } from '../../infra/devnet/index.ts';
import type { Devnet, DevnetClient, UniswapDeployment } from '../../infra/devnet/index.ts';
import { deployExecutionContracts, deploySessionAccount, ownerExecute } from '../../infra/devnet/execution.ts';
import type { ExecutionDeployment } from '../../infra/devnet/execution.ts';
import { sessionValidatorAbi } from '../../infra/session-account.ts';
import { startApi } from '../../runtime/api.ts';
import type { ApiHandle } from '../../runtime/api.ts';
import { startCopyRole } from '../../runtime/copy.ts';
import type { CopyWorker } from '../../runtime/copy.ts';
import type { Agent, Execution } from '../../schemas/agents.ts';
import { waitFor } from '../contract/wait.ts';
import { signedCall } from '../e2e/relay.ts';
import { devnetEnv, startDevnetStack } from './devnet-stack.ts';
import type { DevnetStack } from './devnet-stack.ts';

const port = Number(process.env.COPY_DEVNET_PORT ?? 18559);
const DEADLINE = 4_000_000_000n;

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment & { execution: ExecutionDeployment };
let work: string;
let stack: DevnetStack;
let api: ApiHandle;
let copy: CopyWorker;
let key: { plaintext: string; orgId: string };
const owner = privateKeyToAccount(generatePrivateKey());
let account: Address;
/** the smart account as a signer of the relay: its address, its owner's personal_sign (EIP-1271) */
let user: LocalAccount;
let leader: Address;
let relayer: Address;
/** tokens a careful agent would copy: wide holder base, liquidity burned, no owner */
let CLEAN: Address;
let CLEAN2: Address;

async function mined(hash: Hex): Promise<number> {
  return Number((await client.waitForTransactionReceipt({ hash })).blockNumber);
}

/**
 * A token launched the way the gates like: the deployer pairs 40 % of the supply with 100 ETH,
 * burns the LP tokens, and hands the rest to 30 holders (2 % each); it keeps nothing.
 */
async function launchCleanToken(): Promise<Address> {
  const from = d.deployer;
  const erc20 = artifacts.erc20();
  const hash = await client.deployContract({ abi: erc20.abi, bytecode: erc20.bytecode, args: [parseEther('1000000')], account: from, chain: client.chain });
  const token = (await client.waitForTransactionReceipt({ hash })).contractAddress as Address;
  await mined(await client.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [d.router, maxUint256], account: from, chain: client.chain }));
  await mined(
    await client.writeContract({ address: d.router, abi: routerAbi, functionName: 'addLiquidityETH', args: [token, parseEther('400000'), 0n, 0n, from, DEADLINE], account: from, chain: client.chain, value: parseEther('100') }),
  );
  const pair = (await client.readContract({ address: d.factory, abi: factoryAbi, functionName: 'getPair', args: [token, d.weth] })) as Address;
  const lp = await client.readContract({ address: pair, abi: erc20Abi, functionName: 'balanceOf', args: [from] });
  await mined(await client.writeContract({ address: pair, abi: erc20Abi, functionName: 'transfer', args: ['0x000000000000000000000000000000000000dEaD', lp], account: from, chain: client.chain }));
  for (let i = 0; i < 30; i++) {
    const holder = privateKeyToAccount(generatePrivateKey()).address;
    await mined(await client.writeContract({ address: token, abi: erc20Abi, functionName: 'transfer', args: [holder, parseEther('20000')], account: from, chain: client.chain }));
  }
  return token;
}

async function leaderBuys(token: Address, eth: string): Promise<void> {
  const hash = await client.writeContract({
    address: d.router,
    abi: routerAbi,
    functionName: 'swapExactETHForTokens',
    args: [0n, [d.weth, token], leader, DEADLINE],
    account: leader,
    chain: client.chain,
    value: parseEther(eth),
  });
  const r = await client.waitForTransactionReceipt({ hash });
  await stack.settle(Number(r.blockNumber));
}

const call = (path: string, body: unknown) => signedCall(api.url, key, user, path, body);

async function executions(agentId: string): Promise<Execution[]> {
  const r = await call('/copy/agent/executions', { agentId, limit: 100 });
  expect(r.status).toBe(200);
  return (r.json as { executions: Execution[] }).executions;
}

async function createAgent(limits: Record<string, unknown>, spendCapNative: string): Promise<Agent> {
  const created = await call('/copy/agent/create', { venue: 'evm-spot', chain: 'devnet', leader, account, spendCapNative, limits });
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  const agent = (created.json as { agent: Agent }).agent;
  expect(agent).toMatchObject({ mode: 'live', state: 'pending', wallet: account.toLowerCase() });
  // the user's one transaction: the calls of the answer, executed by the smart account
  const calls = (agent.session!.setup.calls as { to: Address; data: Hex; value: string }[]).map((c) => ({ to: c.to, data: c.data, value: BigInt(c.value) }));
  await ownerExecute(client, d.execution, { account, owner, calls });
  await copy.tick();
  const active = await call('/copy/agent/get', { agentId: agent.agentId });
  expect((active.json as { agent: Agent }).agent.state).toBe('active');
  return agent;
}

const balanceOf = (token: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [account] });

beforeAll(async () => {
  devnet = await startDevnet({ port });
  client = createDevnetClient(devnet.rpcUrl);
  const uni = await deployUniswap(client, { traders: 4 });
  d = { ...uni, execution: await deployExecutionContracts(client, uni) };
  work = mkdtempSync(join(tmpdir(), 'intel-copy-devnet-'));
  const deploymentFile = join(work, 'deployment.json');
  writeFileSync(deploymentFile, JSON.stringify(d));
  // the relayer pays handleOps gas: a fresh key funded by the node's first account
  const relayerKey = generatePrivateKey();
  relayer = privateKeyToAccount(relayerKey).address;
  const [funder] = await client.getAddresses();
  await client.waitForTransactionReceipt({ hash: await client.sendTransaction({ account: funder!, chain: client.chain, to: privateKeyToAccount(relayerKey).address, value: parseEther('50') }) });
  account = await deploySessionAccount(client, d.execution, owner.address, { fundWei: parseEther('5') });
  user = { ...owner, address: account } as LocalAccount;
  leader = d.traders[0]!;
  stack = await startDevnetStack({ ...devnetEnv(join(work, 'data'), devnet.rpcUrl, deploymentFile), COPY_RELAYER_KEY: relayerKey, LOG_LEVEL: 'warn' });
  api = await startApi(stack.services, { port: 0 });
  copy = await startCopyRole(stack.services, { tickMs: 60_000 });
  CLEAN = await launchCleanToken();
  CLEAN2 = await launchCleanToken();
  // a little history so the tokens have their final facts
  const trades = await makeTrades(client, d, { count: 12, seed: 5, traders: d.traders.slice(1) });
  await stack.settle(Math.max(...trades.map((t) => t.block)));
  const org = await api.keys.createOrg('copy-partner');
  await api.keys.goLive(org.id, Date.now());
  await api.keys.entitle(org.id, 'evm-spot', true, Date.now());
  key = { plaintext: (await api.keys.createKey(org.id, 'pro')).plaintext, orgId: org.id };
}, 300_000);

afterAll(async () => {
  await stack?.services.shutdown();
  await devnet?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('copy-trading execution on the devnet (evm-spot, ERC-7579 session)', () => {
  let agent: Agent;

  it("a leader's router swap is mirrored from the user's smart account within the limits; past the daily cap the next is skipped", async () => {
    agent = await createAgent({ maxNotionalUsd: 100, dailyCapUsd: 150, maxOpenPositions: 5, maxSlippageBps: 500, minLeaderGrade: 'unrated', expiresAt: Math.floor(Date.now() / 1000) + 3600 }, '0.2');
    const before = await balanceOf(CLEAN);
    // $200 of TKA: the agent copies $100, its maximum per trade
    await leaderBuys(CLEAN, '0.1');
    await waitFor(async () => (await executions(agent.agentId)).some((e) => e.status === 'filled' || e.status === 'failed' || e.status === 'skipped'), 'the copy of the first buy');
    await copy.idle();
    const [first] = await executions(agent.agentId);
    expect(first, JSON.stringify(first)).toMatchObject({ side: 'buy', token: CLEAN.toLowerCase(), status: 'filled', reason: null, notionalUsd: 100 });
    expect(first!.ref).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(CLEAN)).toBeGreaterThan(before);
    const receipt = await client.getTransactionReceipt({ hash: first!.ref as Hex });
    expect(receipt.status).toBe('success');

    // another $100 would pass the $150 daily cap
    await leaderBuys(CLEAN2, '0.05');
    await waitFor(async () => (await executions(agent.agentId)).length === 2, 'the decision on the second buy');
    const [second] = await executions(agent.agentId);
    expect(second).toMatchObject({ token: CLEAN2.toLowerCase(), status: 'skipped', reason: 'daily_cap', ref: null });
    expect(await balanceOf(CLEAN2)).toBe(0n);
  });

  it('after revoke nothing is submitted, and the session is disabled on chain', async () => {
    const revoked = await call('/copy/agent/revoke', { agentId: agent.agentId });
    expect(revoked.json).toMatchObject({ agent: { state: 'revoked' } });
    expect((revoked.json as { agent: Agent }).agent.stateReason).toMatch(/disabled on chain in 0x/);
    const session = await client.readContract({ address: d.execution.sessionValidator, abi: sessionValidatorAbi, functionName: 'session', args: [account, agent.session!.sessionKey as Address] });
    expect(session[4]).toBe(true); // revoked
    const n = (await executions(agent.agentId)).length;
    await leaderBuys(CLEAN2, '0.02');
    // the copy worker has read the trade: without this the count below held before it arrived
    await waitFor(async () => (await copy.lag()).every((l) => l.lag === 0), 'the copy worker to read the trade');
    await copy.idle();
    expect((await executions(agent.agentId)).length).toBe(n);
    expect(await balanceOf(CLEAN2)).toBe(0n);
  });

  it("a leader's sell closes the copy only: the account's other holding of the token stays", async () => {
    // the account holds CLEAN already (the first agent's copy, revoked since): the user's, for this agent
    const before = await balanceOf(CLEAN);
    expect(before).toBeGreaterThan(0n);
    const seller = await createAgent({ maxNotionalUsd: 50, dailyCapUsd: 200, maxOpenPositions: 5, maxSlippageBps: 500, minLeaderGrade: 'unrated', expiresAt: Math.floor(Date.now() / 1000) + 3600 }, '0.2');
    await leaderBuys(CLEAN, '0.05');
    await waitFor(async () => (await executions(seller.agentId)).some((e) => e.status === 'filled' || e.status === 'failed'), 'the copy of the buy');
    await copy.idle();
    const [bought] = await executions(seller.agentId);
    expect(bought, JSON.stringify(bought)).toMatchObject({ side: 'buy', status: 'filled' });
    const copied = (await balanceOf(CLEAN)) - before;
    expect(copied).toBeGreaterThan(0n);
    // the leader sells all it holds of the token
    const held = await client.readContract({ address: CLEAN, abi: erc20Abi, functionName: 'balanceOf', args: [leader] });
    await mined(await client.writeContract({ address: CLEAN, abi: erc20Abi, functionName: 'approve', args: [d.router, held], account: leader, chain: client.chain }));
    const hash = await client.writeContract({ address: d.router, abi: routerAbi, functionName: 'swapExactTokensForETH', args: [held, 0n, [CLEAN, d.weth], leader, DEADLINE], account: leader, chain: client.chain });
    await stack.settle(await mined(hash));
    await waitFor(async () => (await executions(seller.agentId)).some((e) => e.side === 'sell' && (e.status === 'filled' || e.status === 'failed')), 'the copy of the sell');
    await copy.idle();
    const sold = (await executions(seller.agentId)).find((e) => e.side === 'sell');
    expect(sold, JSON.stringify(sold)).toMatchObject({ status: 'filled', units: copied.toString() });
    // what the agent bought went out; what the user held before is untouched
    expect(await balanceOf(CLEAN)).toBe(before);
    await call('/copy/agent/revoke', { agentId: seller.agentId });
  });

  it('the same agent under a sandbox key records paper executions and sends no transaction', async () => {
    const sandbox = await api.keys.createOrg('copy-sandbox');
    const paperKey = { plaintext: (await api.keys.createKey(sandbox.id, 'sandbox')).plaintext, orgId: sandbox.id };
    const limits = { maxNotionalUsd: 100, dailyCapUsd: 1000, maxOpenPositions: 5, maxSlippageBps: 500, minLeaderGrade: 'unrated', expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    const created = await signedCall(api.url, paperKey, user, '/copy/agent/create', { venue: 'evm-spot', chain: 'devnet', leader, account, spendCapNative: '0.2', limits });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const paper = (created.json as { agent: Agent }).agent;
    expect(paper).toMatchObject({ mode: 'paper', state: 'active', session: null });
    const relayerNonce = await client.getTransactionCount({ address: relayer });
    const accountNonce = await client.getTransactionCount({ address: account });
    const held = await balanceOf(CLEAN);
    await leaderBuys(CLEAN, '0.05');
    const list = async () => (await signedCall(api.url, paperKey, user, '/copy/agent/executions', { agentId: paper.agentId })).json.executions as Execution[];
    // a sandbox key has 60 requests a minute: wait for the copy worker, then ask once
    await waitFor(async () => (await copy.lag()).every((l) => l.lag === 0), 'the copy worker to decide the trade');
    await copy.idle();
    const [e] = await list();
    expect(e).toMatchObject({ status: 'skipped', reason: 'paper', notionalUsd: 100, ref: null });
    // nothing left the relayer, the account holds what it held
    expect(await client.getTransactionCount({ address: relayer })).toBe(relayerNonce);
    expect(await client.getTransactionCount({ address: account })).toBe(accountNonce);
    expect(await balanceOf(CLEAN)).toBe(held);
    await signedCall(api.url, paperKey, user, '/copy/agent/revoke', { agentId: paper.agentId });
  });

  it("after the expiry nothing is submitted: the leader's next trade is skipped as expired", async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 300;
    const short = await createAgent({ maxNotionalUsd: 20, dailyCapUsd: 100, maxOpenPositions: 5, maxSlippageBps: 500, minLeaderGrade: 'unrated', expiresAt }, '0.05');
    // the chain moves past the expiry (the session's validUntil on chain, the agent's limit here)
    await client.request({ method: 'evm_increaseTime' as never, params: [600] as never });
    await leaderBuys(CLEAN2, '0.02');
    await waitFor(async () => (await executions(short.agentId)).length === 1, 'the decision on the trade after expiry');
    const [e] = await executions(short.agentId);
    expect(e).toMatchObject({ status: 'skipped', reason: 'agent_expired', ref: null });
    await copy.idle();
    expect(await balanceOf(CLEAN2)).toBe(0n);
  });
});
