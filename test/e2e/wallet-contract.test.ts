/**
 * Smart-contract wallets authorize the execution relay through EIP-1271 on their chain, and
 * through EIP-6492 before they are deployed: a minimal wallet whose isValidSignature accepts its
 * owner's ECDSA signature (OpenZeppelin 5 ships no ready EIP-1271 wallet), and a CREATE2 factory
 * for the counterfactual one, compiled with solc-js and deployed on a devnet of their own; the
 * real app verifies them with RPC_URL_DEVNET from the configuration.
 *
 * Own node on WALLET_CONTRACT_DEVNET_PORT (default 18555).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFunctionData, hashTypedData, serializeErc6492Signature } from 'viem';
import type { Abi, Address, Hex } from 'viem';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { evmRpcUrls, loadConfig } from '../../infra/config.ts';
import type { Devnet, DevnetClient } from '../../infra/devnet/index.ts';
import { OWNER as owner, STRANGER as stranger, startWalletDevnet } from '../fixtures/owner-wallet.ts';
import { accepted, bootRelayApp, detail, grantOf, refused, relayPartner, sendRelay, signRelay } from './relay.ts';
import type { RelayApp, RelayCall } from './relay.ts';

const port = Number(process.env.WALLET_CONTRACT_DEVNET_PORT ?? 18555);


const SALT = `0x${'00'.repeat(31)}07` as Hex;

let devnet: Devnet;
let client: DevnetClient;
let factoryAbi: Abi;
let deployed: Address;
let factory: Address;

beforeAll(async () => {
  const net = await startWalletDevnet(port);
  ({ devnet, client } = net);
  factoryAbi = net.factory.abi;
  deployed = await net.deploy(net.wallet.abi, net.wallet.bytecode, [owner.address]);
  factory = await net.deploy(net.factory.abi, net.factory.bytecode, []);
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

describe('contract wallets authorize the relay (EIP-1271, EIP-6492)', () => {
  let dir: string;
  let relay: RelayApp;
  let a: { org: string; key: string };
  const call = (wallet: Address, over: Partial<RelayCall> = {}): RelayCall => ({ partner: a.org, wallet, timestamp: Math.floor(Date.now() / 1000), ...over });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-contract-'));
    relay = await bootRelayApp(dir, { rpcUrls: evmRpcUrls(loadConfig({ RPC_URL_DEVNET: devnet.rpcUrl })) });
    a = await relayPartner(relay.keys, 'partner-a');
  });
  afterEach(async () => {
    await relay.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a deployed EIP-1271 wallet: its owner's signature is accepted once; a stranger's is refused", async () => {
    expect(await client.getCode({ address: deployed })).not.toBe(undefined);
    const c = call(deployed);
    const byStranger = await sendRelay(relay.app, a.key, c, await signRelay(c, stranger));
    expect(refused(byStranger)).toBe(true);
    expect(detail(byStranger)).toMatch(/not the wallet’s signature/);
    const sig = await signRelay(c, owner);
    expect(accepted(await sendRelay(relay.app, a.key, c, sig))).toBe(true);
    const replay = await sendRelay(relay.app, a.key, c, sig);
    expect(refused(replay)).toBe(true);
    expect(detail(replay)).toMatch(/accepted already/);
    // the chain named in the body is the one asked
    const onDevnet = call(deployed, { body: '{"chain":"devnet"}', path: '/copy/agent/dry-run' });
    expect(accepted(await sendRelay(relay.app, a.key, onDevnet, await signRelay(onDevnet, owner)))).toBe(true);
  });

  it('a wallet not deployed yet signs with EIP-6492 (its factory and deploy call wrapped around the owner signature)', async () => {
    const predicted = (await client.readContract({ address: factory, abi: factoryAbi, functionName: 'addressOf', args: [owner.address, SALT] })) as Address;
    expect(await client.getCode({ address: predicted })).toBeUndefined();
    const c = call(predicted);
    const inner = await signRelay(c, owner);
    // without the wrapper nothing on chain can vouch for the address
    expect(refused(await sendRelay(relay.app, a.key, c, inner))).toBe(true);
    const wrapped = serializeErc6492Signature({
      address: factory,
      data: encodeFunctionData({ abi: factoryAbi, functionName: 'deploy', args: [owner.address, SALT] }),
      signature: inner,
    });
    expect(accepted(await sendRelay(relay.app, a.key, c, wrapped))).toBe(true);
    expect(refused(await sendRelay(relay.app, a.key, c, wrapped))).toBe(true);
    // verification deployed nothing
    expect(await client.getCode({ address: predicted })).toBeUndefined();
  });

  it('without RPC_URL_DEVNET the same contract wallet gets a 401 saying the chain RPC is needed', async () => {
    await relay.close();
    relay = await bootRelayApp(dir, { rpcUrls: evmRpcUrls(loadConfig({})) });
    const c = call(deployed, { body: '{"chain":"devnet"}' });
    const r = await sendRelay(relay.app, a.key, c, await signRelay(c, owner));
    expect(refused(r)).toBe(true);
    expect(detail(r)).toMatch(/smart-contract wallet .* RPC_URL_DEVNET/);
  });

  it("a contract wallet's signature reaches only the agents on the chain where it verified, not the same address's agents on another chain", async () => {
    // the user of address `deployed` on base made an agent there (proven on base, so written as it
    // stands); on the devnet the same address is a contract someone else owns: its owner's
    // signature verifies there, and must not reach the base agent
    const wallet = deployed.toLowerCase();
    const limits = { maxNotionalUsd: 10, dailyCapUsd: 20, maxOpenPositions: 1, maxSlippageBps: 100, minLeaderGrade: 'unrated' as const, expiresAt: Math.floor(Date.now() / 1000) + 86_400 };
    const leader = '0x00000000000000000000000000000000000000aa';
    const onBase = await relay.agents.create({ partner: a.org, keyKind: 'test', wallet, now: Date.now() }, { venue: 'evm-spot', chain: 'base', leader, limits } as never);
    // the contract wallet signs a relay call's message, or a creation's grant (its EIP-712 hash), through its owner
    const signed = async (path: string, body: unknown) => {
      const c = call(deployed, { path, body: JSON.stringify(body) });
      if (path !== '/copy/agent/create') return sendRelay(relay.app, a.key, c, await signRelay(c, owner));
      return sendRelay(relay.app, a.key, c, await owner.sign({ hash: hashTypedData(await grantOf(relay.app, a.key, c)) }));
    };
    const got = await signed('/copy/agent/get', { agentId: onBase.agentId });
    expect(got.statusCode).toBe(404);
    expect(got.json()).toMatchObject({ error: 'not_found' });
    expect(detail(got)).toMatch(/on devnet, where the contract wallet's signature verified/);
    expect((await signed('/copy/agent/revoke', { agentId: onBase.agentId })).statusCode).toBe(404);
    expect((await relay.agents.get({ partner: a.org, keyKind: 'test', wallet, now: Date.now() }, onBase.agentId)).state).toBe('active');
    // an agent on the devnet, where the signature verified: created, listed and read by it
    const made = await signed('/copy/agent/create', { venue: 'evm-spot', chain: 'devnet', leader, limits });
    expect(made.statusCode).toBe(200);
    const onDevnet = (made.json() as { agent: { agentId: string } }).agent.agentId;
    expect((await signed('/copy/agent/get', { agentId: onDevnet })).statusCode).toBe(200);
    const listed = (await signed('/copy/agent/list', { limit: 20 })).json() as { agents: { agentId: string }[] };
    expect(listed.agents.map((x) => x.agentId)).toEqual([onDevnet]);
    // an agent elsewhere, or on a venue whose accounts are keys, is not its to create
    const elsewhere = await signed('/copy/agent/create', { venue: 'evm-spot', leader, limits });
    expect(refused(elsewhere)).toBe(true);
    expect(detail(elsewhere)).toMatch(/verified on devnet, not on sim/);
    const perps = await signed('/copy/agent/create', { venue: 'hyperliquid', leader, limits });
    expect(refused(perps)).toBe(true);
    expect(detail(perps)).toMatch(/a hyperliquid account is a key's/);
  });
});
