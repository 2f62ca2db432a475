/**
 * Transactions for devnet story tests: send, deploy and wait, remembering the last block mined so
 * a test can wait for the stack to fold up to it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Abi, Address, Hash } from 'viem';
import type { DevnetClient, UniswapDeployment } from '../../infra/devnet/index.ts';
import { compileSolidity, type Compiled } from '../../infra/devnet/solc.ts';
import { devnetEnv, startDevnetStack, type DevnetStack } from './devnet-stack.ts';

export const GAS = 6_000_000n;

export function devnetTx(client: () => DevnetClient, contracts: () => Record<string, Compiled>) {
  let lastBlock = 0;
  async function mined(hash: Hash): Promise<number> {
    const r = await client().waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    lastBlock = Math.max(lastBlock, Number(r.blockNumber));
    return Number(r.blockNumber);
  }
  return {
    mined,
    /** the highest block a transaction of this kit was mined in */
    lastBlock: () => lastBlock,
    async send(from: Address, to: Address, abi: Abi, functionName: string, args: unknown[], value?: bigint): Promise<number> {
      const c = client();
      return mined(await c.writeContract({ address: to, abi, functionName, args, account: from, chain: c.chain, gas: GAS, value } as never));
    },
    async deploy(name: string, args: unknown[], from: Address): Promise<Address> {
      const c = client();
      const k = contracts()[name] as Compiled;
      const hash = await c.deployContract({ abi: k.abi, bytecode: k.bytecode, args, account: from, chain: c.chain, gas: GAS });
      await mined(hash);
      return (await c.getTransactionReceipt({ hash })).contractAddress as Address;
    },
    /** moves the chain's clock on and mines a block */
    async increaseTime(seconds: number): Promise<void> {
      await client().request({ method: 'evm_increaseTime' as never, params: [seconds] as never });
      await client().request({ method: 'evm_mine' as never, params: [] as never });
    },
  };
}

/** the story contracts of test/fixtures/contracts, compiled together (solc from npm) */
export function compileStoryContracts(root: string, files: string[]): Record<string, Compiled> {
  return compileSolidity(Object.fromEntries(files.map((f) => [f, readFileSync(join(root, 'test/fixtures/contracts', f), 'utf8')])), { evmVersion: 'cancun' });
}

/** `npm start`'s embedded stack following the devnet that `d` was deployed on, in a temporary data dir; `stop` shuts it down and removes the dir */
export async function startStoryStack(prefix: string, rpcUrl: string, d: UniswapDeployment): Promise<{ stack: DevnetStack; stop: () => Promise<void> }> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const deploymentFile = join(work, 'deployment.json');
  writeFileSync(deploymentFile, JSON.stringify(d));
  const stack = await startDevnetStack(devnetEnv(join(work, 'data'), rpcUrl, deploymentFile));
  return {
    stack,
    async stop() {
      await stack.services.shutdown();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
