/**
 * Sign-In with Ethereum from a smart-contract wallet: the console verifies an EIP-4361 message
 * signed for a deployed EIP-1271 wallet through the devnet's RPC (RPC_URL_DEVNET, chain id
 * 31337), with viem's verifySiweMessage. Own node on CONSOLE_WALLET_DEVNET_PORT (default 18561).
 */
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evmRpcUrls, loadConfig } from '../../infra/config.ts';
import type { Devnet } from '../../infra/devnet/index.ts';
import { consoleAppPerTest } from '../console-client.ts';
import { OWNER as owner, STRANGER as stranger, startWalletDevnet } from '../fixtures/owner-wallet.ts';

const port = Number(process.env.CONSOLE_WALLET_DEVNET_PORT ?? 18561);

let devnet: Devnet;
let wallet: Address;

beforeAll(async () => {
  const net = await startWalletDevnet(port);
  devnet = net.devnet;
  wallet = await net.deploy(net.wallet.abi, net.wallet.bytecode, [owner.address]);
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
