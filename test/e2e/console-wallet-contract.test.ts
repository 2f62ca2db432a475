/**
 * Sign-In with Ethereum from a smart-contract wallet: the console verifies an EIP-4361 message
 * signed for a deployed EIP-1271 wallet through the devnet's RPC (RPC_URL_DEVNET, chain id
 * 31337), with viem's verifySiweMessage. Own node on CONSOLE_WALLET_DEVNET_PORT (default 18561).
 */
import type { Abi, Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evmRpcUrls, loadConfig } from '../../infra/config.ts';
import { createDevnetClient, startDevnet } from '../../infra/devnet/index.ts';
import type { Devnet, DevnetClient } from '../../infra/devnet/index.ts';
import { compileSolidity } from '../../infra/devnet/solc.ts';
import { consoleAppPerTest } from '../console-client.ts';
import { WALLET_SOURCE, deployContract } from '../fixtures/owner-wallet.ts';

const port = Number(process.env.CONSOLE_WALLET_DEVNET_PORT ?? 18561);
const owner = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const stranger = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

let devnet: Devnet;
let client: DevnetClient;
let wallet: Address;

const deploy = (abi: Abi, bytecode: Hex, args: unknown[]) => deployContract(client, abi, bytecode, args);

beforeAll(async () => {
  devnet = await startDevnet({ port });
  client = createDevnetClient(devnet.rpcUrl);
  const compiled = compileSolidity({ 'OwnerWallet.sol': WALLET_SOURCE });
  const w = compiled.OwnerWallet!;
  wallet = await deploy(w.abi, w.bytecode, [owner.address]);
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

describe('console sign-in with an EIP-1271 smart-contract wallet', () => {
  const { boot } = consoleAppPerTest();

  it("accepts the wallet's owner's signature through the chain's RPC, refuses a stranger's, and without the RPC", async () => {
    const c = await boot({ rpcUrls: evmRpcUrls(loadConfig({ RPC_URL_DEVNET: devnet.rpcUrl })) });
    // the message names the contract wallet; its owner (an EOA) signs it
    const asWallet = { ...owner, address: wallet };
    const b = c.browser();
    const byStranger = await b.siweSigned({ ...stranger, address: wallet }, 31337);
    const refused = await b.call('POST', '/console/api/siwe/verify', byStranger);
    expect(refused.status).toBe(401);
    expect(refused.json.error).toBe('signin_failed');
    const signed = await b.siweSigned(asWallet, 31337);
    const ok = await b.call('POST', '/console/api/siwe/verify', signed);
    expect(ok.status).toBe(200);
    expect(ok.json.member).toMatchObject({ identity: `wallet:${wallet.toLowerCase()}`, role: 'owner' });

    const noRpc = await boot();
    const nb = noRpc.browser();
    const r = await nb.call('POST', '/console/api/siwe/verify', await nb.siweSigned(asWallet, 31337));
    expect(r.status).toBe(401);
  });
});
