/**
 * The copy-trading execution contracts on the devnet (docs/copy-execution.md):
 * ERC-4337's EntryPoint v0.8 (compiled from @account-abstraction/contracts 0.8.0), the session
 * validator module and the users' session account factory (contracts/, on OpenZeppelin's ERC-7579
 * account), all compiled with solc-js for 'cancun' (the EntryPoint uses transient storage).
 *
 * The user side, for tests and as an example: deploy a user's account, and make its owner execute
 * calls (a user operation signed by the owner, validated by the account's own ECDSA signer since
 * its nonce key names no module), e.g. to install the validator and enable a session.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEventLogs, type Address, type Hex, type LocalAccount, type TransactionReceipt } from 'viem';
import { entryPoint08Abi } from 'viem/account-abstraction';
import {
  encodeExecute,
  handleOpsGas,
  readSessionModuleInstalled,
  sessionAccountFactoryAbi,
  sessionSetupCalls,
  signUserOp,
  type AccountCall,
} from '../session-account.ts';
import type { EvmSessionGrant } from '../../schemas/evm-session.ts';
import { compileSolidity, type Compiled } from './solc.ts';
import { deploy, mined } from './uniswap.ts';
import type { DevnetClient, UniswapDeployment } from './uniswap.ts';

const here = dirname(fileURLToPath(import.meta.url));

export interface ExecutionDeployment {
  /** ERC-4337 EntryPoint v0.8 */
  entryPoint: Address;
  /** the SessionSwapValidator module */
  sessionValidator: Address;
  /** CREATE2 factory of SessionAccounts bound to the entry point */
  accountFactory: Address;
}

export interface ExecutionContracts {
  entryPoint: Compiled;
  account: Compiled;
  accountFactory: Compiled;
  sessionValidator: Compiled;
}

/** compiles the EntryPoint and our contracts (cached by solc.ts after the first run) */
export function compileExecutionContracts(): ExecutionContracts {
  const opts = { evmVersion: 'cancun' };
  const ep = compileSolidity(
    { 'EntryPointV08.sol': '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.28;\nimport "@account-abstraction/contracts/core/EntryPoint.sol";\n' },
    opts,
  );
  const ours = compileSolidity(
    Object.fromEntries(['SessionAccount.sol', 'SessionSwapValidator.sol'].map((f) => [f, readFileSync(join(here, 'contracts', f), 'utf8')])),
    opts,
  );
  const pick = (set: Record<string, Compiled>, name: string): Compiled => {
    const c = set[name];
    if (!c) throw new Error(`devnet: ${name} missing from the compiler output`);
    return c;
  };
  return {
    entryPoint: pick(ep, 'EntryPoint'),
    account: pick(ours, 'SessionAccount'),
    accountFactory: pick(ours, 'SessionAccountFactory'),
    sessionValidator: pick(ours, 'SessionSwapValidator'),
  };
}

/** deploys the EntryPoint, the session validator and the account factory from the deployer of `d` */
export async function deployExecutionContracts(client: DevnetClient, d: Pick<UniswapDeployment, 'deployer'>): Promise<ExecutionDeployment> {
  const c = compileExecutionContracts();
  // a first compile blocks the event loop for seconds: let it see the keep-alive sockets the node
  // closed meanwhile, or the next request goes out on a dead one ("other side closed")
  await new Promise((r) => setTimeout(r, 100));
  const entryPoint = await deploy(client, d.deployer, c.entryPoint);
  const sessionValidator = await deploy(client, d.deployer, c.sessionValidator);
  const accountFactory = await deploy(client, d.deployer, c.accountFactory, [entryPoint]);
  return { entryPoint, sessionValidator, accountFactory };
}

async function firstAccount(client: DevnetClient): Promise<Address> {
  const [from] = await client.getAddresses();
  if (!from) throw new Error('devnet: node has no unlocked accounts');
  return from;
}

/** deploys (or finds) the session account of `owner` with `salt`; funds it with `fundWei` from the node's first account */
export async function deploySessionAccount(
  client: DevnetClient,
  x: ExecutionDeployment,
  owner: Address,
  opts: { salt?: Hex; fundWei?: bigint } = {},
): Promise<Address> {
  const salt = opts.salt ?? (`0x${'00'.repeat(32)}` as Hex);
  const from = await firstAccount(client);
  const args = [owner, salt] as const;
  await mined(client, await client.writeContract({ address: x.accountFactory, abi: sessionAccountFactoryAbi, functionName: 'createAccount', args, account: from, chain: client.chain }));
  const account = await client.readContract({ address: x.accountFactory, abi: sessionAccountFactoryAbi, functionName: 'accountAddress', args });
  if (opts.fundWei) await mined(client, await client.sendTransaction({ to: account, value: opts.fundWei, account: from, chain: client.chain }));
  return account;
}

/**
 * The owner makes the account execute `calls`: a user operation on nonce key 0 (the account's own
 * ECDSA signer validates it), sent in handleOps by `bundler` (default: the node's first account).
 * Throws with the revert reason when the operation's execution fails.
 */
export async function ownerExecute(
  client: DevnetClient,
  x: ExecutionDeployment,
  p: { account: Address; owner: LocalAccount; calls: AccountCall[]; bundler?: Address },
): Promise<TransactionReceipt> {
  const bundler = p.bundler ?? (await firstAccount(client));
  const nonce = await client.readContract({ address: x.entryPoint, abi: entryPoint08Abi, functionName: 'getNonce', args: [p.account, 0n] });
  const op = await signUserOp({ chainId: await client.getChainId(), entryPoint: x.entryPoint, sender: p.account, nonce, callData: encodeExecute(p.calls), signer: p.owner });
  const hash = await client.writeContract({
    address: x.entryPoint,
    abi: entryPoint08Abi,
    functionName: 'handleOps',
    args: [[op.packed], bundler],
    account: bundler,
    chain: client.chain,
    gas: handleOpsGas(),
  });
  const receipt = await mined(client, hash);
  const [event] = parseEventLogs({ abi: entryPoint08Abi, eventName: 'UserOperationEvent', logs: receipt.logs });
  if (!event?.args.success) {
    const [reverted] = parseEventLogs({ abi: entryPoint08Abi, eventName: 'UserOperationRevertReason', logs: receipt.logs });
    const reason = reverted?.args.revertReason;
    throw new Error(`devnet: the owner's user operation failed (${reason ?? 'no reason'})`);
  }
  return receipt;
}

/**
 * The owner gives a session key a session on its account: installs the session module unless
 * installed, and enables the session with `grant` (router, caps, expiry).
 */
export async function enableSession(
  client: DevnetClient,
  x: ExecutionDeployment,
  p: { account: Address; owner: LocalAccount; grant: EvmSessionGrant },
): Promise<TransactionReceipt> {
  const installed = await readSessionModuleInstalled(client, p.account, x.sessionValidator);
  const calls = sessionSetupCalls({ account: p.account, validator: x.sessionValidator, grant: p.grant, installed });
  return ownerExecute(client, x, { account: p.account, owner: p.owner, calls });
}
