/**
 * A session key's own user operations on the devnet, around our venue: signed on a nonce lane of
 * the session module, simulated in handleOps for the EntryPoint's verdict, sent in a handleOps
 * transaction of the sender's own. Shared by the session tests and the attacker test.
 */
import { encodeFunctionData, keccak256, parseEther, type Address, type Hex, type LocalAccount, type TransactionReceipt } from 'viem';
import { entryPoint08Abi } from 'viem/account-abstraction';
import { createDevnetClient, deployExecutionContracts, deploySessionAccount, deployUniswap, startDevnet } from '../../infra/devnet/index.ts';
import type { Devnet, DevnetClient, ExecutionDeployment, UniswapDeployment } from '../../infra/devnet/index.ts';
import { handleOpsGas, signUserOp, validatorNonceKey, type SignedUserOp } from '../../infra/session-account.ts';
import { createEvmSpotVenue } from '../../venues/evm-spot.ts';
import type { Venue } from '../../venues/types.ts';

export interface OpsTarget {
  client: DevnetClient;
  x: ExecutionDeployment;
  chainId: number;
  account: Address;
}

/** `key`'s user operation for the account, on nonce lane `lane` of the session module */
export async function keyOp(t: OpsTarget, key: LocalAccount, callData: Hex, lane = 7): Promise<SignedUserOp> {
  const nonce = await t.client.readContract({ address: t.x.entryPoint, abi: entryPoint08Abi, functionName: 'getNonce', args: [t.account, validatorNonceKey(t.x.sessionValidator, lane)] });
  return signUserOp({ chainId: t.chainId, entryPoint: t.x.entryPoint, sender: t.account, nonce, callData, signer: key });
}

/** the EntryPoint's FailedOp reason when handleOps is simulated with this op, or 'accepted' */
export async function simulateOp(t: OpsTarget, op: SignedUserOp, from: Address): Promise<string> {
  try {
    await t.client.simulateContract({ address: t.x.entryPoint, abi: entryPoint08Abi, functionName: 'handleOps', args: [[op.packed], from], account: from });
    return 'accepted';
  } catch (err) {
    const m = /FailedOp(?:WithRevert)?\(.*?"(AA\d\d[^"]*)"/s.exec(String((err as Error).message)) ?? /(AA\d\d [a-z ]+)/.exec(String((err as Error).message));
    return m?.[1] ?? `unparsed: ${String((err as Error).message).slice(0, 300)}`;
  }
}

/**
 * `sender` signs and sends a transaction to `to` with `data` and gets the receipt. Hardhat answers
 * eth_sendRawTransaction with an error when the transaction reverts, though it mines it: the hash
 * is taken from the signed transaction.
 */
export async function sendRawAs(t: OpsTarget, sender: LocalAccount, to: Address, data: Hex, gas = handleOpsGas()): Promise<TransactionReceipt> {
  const request = await t.client.prepareTransactionRequest({ account: sender, chain: t.client.chain, to, data, gas });
  const raw = await sender.signTransaction(request as never);
  await t.client.sendRawTransaction({ serializedTransaction: raw }).catch(() => undefined);
  return t.client.waitForTransactionReceipt({ hash: keccak256(raw), pollingInterval: 20 });
}

/** `sender` sends handleOps with this op itself (paying the gas) */
export function sendOpAs(t: OpsTarget, sender: LocalAccount, op: SignedUserOp): Promise<TransactionReceipt> {
  return sendRawAs(t, sender, t.x.entryPoint, encodeFunctionData({ abi: entryPoint08Abi, functionName: 'handleOps', args: [[op.packed], sender.address] }));
}

/** gives `who` 1 native from the node's first account, for gas */
export async function fund(t: OpsTarget, who: Address): Promise<void> {
  const [from] = await t.client.getAddresses();
  const hash = await t.client.sendTransaction({ to: who, value: parseEther('1'), account: from as Address, chain: t.client.chain });
  await t.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

/** the evm-spot venue of a devnet deployment, relaying from `relayer` */
export function devnetVenue(rpcUrl: string, d: UniswapDeployment, x: ExecutionDeployment, relayer: LocalAccount, sessionKeyFor: (agentId: string) => LocalAccount): Venue {
  return createEvmSpotVenue({
    chain: 'devnet',
    rpcUrl,
    router: d.router,
    weth: d.weth,
    usdStable: d.tokens.USDC,
    entryPoint: x.entryPoint,
    sessionValidator: x.sessionValidator,
    relayer,
    sessionKeyFor,
    pollingIntervalMs: 20,
  });
}

export interface SessionDevnet extends OpsTarget {
  devnet: Devnet;
  d: UniswapDeployment;
}

/** a devnet of its own with Uniswap V2, the execution contracts and `owner`'s session account holding 20 native */
export async function startSessionDevnet(port: number, owner: Address): Promise<SessionDevnet> {
  const devnet = await startDevnet({ port });
  const client = createDevnetClient(devnet.rpcUrl);
  const d = await deployUniswap(client, { traders: 0 });
  const x = await deployExecutionContracts(client, d);
  const account = await deploySessionAccount(client, x, owner, { fundWei: parseEther('20') });
  return { devnet, client, d, x, account, chainId: d.chainId };
}
