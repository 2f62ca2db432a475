/**
 * The user's ERC-7579 session account and the session validator module (their Solidity is in
 * infra/devnet/contracts/): ABIs, the account's `execute` encoding, the nonce key that selects the
 * validator, and signed ERC-4337 v0.8 user operations. Shared by the EVM spot venue
 * (venues/evm-spot.ts, the session key's operations) and the devnet's user-side helpers
 * (infra/devnet/execution.ts, the owner's operations).
 */
import { encodeAbiParameters, encodeFunctionData, encodePacked, parseAbi, type Address, type Client, type Hex, type LocalAccount } from 'viem';
import { readContract } from 'viem/actions';
import {
  getUserOperationHash,
  getUserOperationTypedData,
  toPackedUserOperation,
  type PackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction';
import type { EvmSessionGrant } from '../schemas/evm-session.ts';

export const sessionAccountAbi = parseAbi([
  'function execute(bytes32 mode, bytes executionCalldata) payable',
  'function installModule(uint256 moduleTypeId, address module, bytes initData)',
  'function uninstallModule(uint256 moduleTypeId, address module, bytes deInitData)',
  'function isModuleInstalled(uint256 moduleTypeId, address module, bytes additionalContext) view returns (bool)',
  'function signer() view returns (address)',
  'function entryPoint() view returns (address)',
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
]);

export const sessionAccountFactoryAbi = parseAbi([
  'function createAccount(address owner, bytes32 salt) returns (address account)',
  'function accountAddress(address owner, bytes32 salt) view returns (address)',
]);

export const sessionValidatorAbi = parseAbi([
  'struct StableCap { address token; uint256 cap; }',
  'struct SessionGrant { address sessionKey; address router; uint48 validUntil; uint256 capNative; StableCap[] stables; }',
  'struct SwapOrder { uint256 amountIn; uint256 amountOutMin; address[] path; uint256 deadline; bool nativeIn; bool nativeOut; }',
  'function enableSession(SessionGrant g)',
  'function revokeSession(address account, address sessionKey)',
  'function swap(address sessionKey, SwapOrder order)',
  'function session(address account, address sessionKey) view returns (address router, uint256 capWei, uint256 spentWei, uint48 validUntil, bool revoked, bool enabled)',
  'function budget(address account, address sessionKey, address asset) view returns (uint256 limit, uint256 spent, bool base)',
  'event SessionEnabled(address indexed account, address indexed sessionKey, address router, uint256 capWei, uint48 validUntil)',
  'event SessionSpent(address indexed account, address indexed sessionKey, address asset, uint256 amount, uint256 spent)',
  'event SessionCredited(address indexed account, address indexed sessionKey, address token, uint256 amount, uint256 limit)',
  'event SessionRevoked(address indexed account, address indexed sessionKey, address by)',
]);

/** ERC-7579 module types: the session module is installed as both */
export const MODULE_TYPE_VALIDATOR = 1n;
export const MODULE_TYPE_EXECUTOR = 2n;

/** whether the session module is installed on `account` as a validator and as an executor (throws when the read fails) */
export async function readSessionModuleInstalled(client: Client, account: Address, module: Address): Promise<boolean> {
  const installed = (type: bigint) => readContract(client, { address: account, abi: sessionAccountAbi, functionName: 'isModuleInstalled', args: [type, module, '0x'] });
  const [validator, executor] = await Promise.all([installed(MODULE_TYPE_VALIDATOR), installed(MODULE_TYPE_EXECUTOR)]);
  return validator && executor;
}

/** an exact-input swap the session module makes for a session key (`nativeIn`: native in, path[0] is WETH; `nativeOut`: native out) */
export interface SwapOrder {
  amountIn: bigint;
  amountOutMin: bigint;
  path: readonly Address[];
  deadline: bigint;
  nativeIn: boolean;
  nativeOut: boolean;
}

/** the account's call of the module's swap: the only call a session key's operation may make, with its revocation */
export function sessionSwapCall(module: Address, sessionKey: Address, order: SwapOrder): AccountCall {
  return { to: module, data: encodeFunctionData({ abi: sessionValidatorAbi, functionName: 'swap', args: [sessionKey, order] }), value: 0n };
}

/** one call the account makes */
export interface AccountCall {
  to: Address;
  data: Hex;
  value?: bigint;
}

/** ERC-7579 modes: call type in the first byte (0x00 single, 0x01 batch), exec type default, nothing else */
const MODE_SINGLE = `0x${'00'.repeat(32)}` as Hex;
const MODE_BATCH = `0x01${'00'.repeat(31)}` as Hex;

/** the account's `execute(mode, executionCalldata)`: single mode for one call, batch mode for more */
export function encodeExecute(calls: readonly AccountCall[]): Hex {
  const [first] = calls;
  if (!first) throw new Error('encodeExecute: no call');
  if (calls.length === 1) {
    const single = encodePacked(['address', 'uint256', 'bytes'], [first.to, first.value ?? 0n, first.data]);
    return encodeFunctionData({ abi: sessionAccountAbi, functionName: 'execute', args: [MODE_SINGLE, single] });
  }
  const batch = encodeAbiParameters(
    [{ type: 'tuple[]', components: [{ name: 'target', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'callData', type: 'bytes' }] }],
    [calls.map((c) => ({ target: c.to, value: c.value ?? 0n, callData: c.data }))],
  );
  return encodeFunctionData({ abi: sessionAccountAbi, functionName: 'execute', args: [MODE_BATCH, batch] });
}

/**
 * The 192-bit EntryPoint nonce key of a user operation validated by `validator`: OpenZeppelin's
 * AccountERC7579 reads the validator from the nonce's top 20 bytes; `lane` fills the key's last 4
 * bytes (each lane has its own sequence). Key 0 (no module) is the owner's.
 */
export function validatorNonceKey(validator: Address, lane = 0): bigint {
  return (BigInt(validator) << 32n) | BigInt(lane >>> 0);
}

export interface UserOpGas {
  verificationGasLimit: bigint;
  callGasLimit: bigint;
  preVerificationGas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * Limits that fit the module's swap (its checks, an approval, the swap, the balance reads). Fees are zero:
 * the relayer that sends handleOps pays the transaction's gas itself, so nothing is charged to
 * the account (and nothing counts against a session's cap but the value sent).
 */
export const DEFAULT_USER_OP_GAS: UserOpGas = {
  verificationGasLimit: 400_000n,
  callGasLimit: 600_000n,
  preVerificationGas: 60_000n,
  maxFeePerGas: 0n,
  maxPriorityFeePerGas: 0n,
};

/** gas for a handleOps transaction carrying one user operation with these limits */
export function handleOpsGas(gas: UserOpGas = DEFAULT_USER_OP_GAS): bigint {
  return gas.verificationGasLimit + gas.callGasLimit + gas.preVerificationGas + 250_000n;
}

export interface SignedUserOp {
  userOp: UserOperation<'0.8'>;
  packed: PackedUserOperation;
  /** the EntryPoint's userOpHash (EIP-712 digest in v0.8) */
  hash: Hex;
}

/** a v0.8 user operation (no initCode, no paymaster) signed by `signer` over its hash (raw ECDSA of the EIP-712 digest) */
export async function signUserOp(p: {
  chainId: number;
  entryPoint: Address;
  sender: Address;
  nonce: bigint;
  callData: Hex;
  signer: LocalAccount;
  gas?: UserOpGas;
}): Promise<SignedUserOp> {
  const userOp: UserOperation<'0.8'> = { sender: p.sender, nonce: p.nonce, callData: p.callData, ...(p.gas ?? DEFAULT_USER_OP_GAS), signature: '0x' };
  const hash = getUserOperationHash({ chainId: p.chainId, entryPointAddress: p.entryPoint, entryPointVersion: '0.8', userOperation: userOp });
  userOp.signature = await p.signer.signTypedData(getUserOperationTypedData({ chainId: p.chainId, entryPointAddress: p.entryPoint, userOperation: userOp }));
  return { userOp, packed: toPackedUserOperation(userOp), hash };
}

/**
 * The calls an account makes once to give a session key its session: install the session module
 * as validator and executor (unless `installed`), then enable the session with the grant.
 */
export interface SessionSetup {
  /** the user's smart account */
  account: Address;
  /** the session module */
  validator: Address;
  grant: EvmSessionGrant;
  /** the module is installed on the account already (both types) */
  installed?: boolean;
}

/** the grant as the contract's enableSession takes it */
export function grantArgs(g: EvmSessionGrant) {
  return {
    sessionKey: g.sessionKey as Address,
    router: g.router as Address,
    validUntil: g.validUntil,
    capNative: BigInt(g.capNative),
    stables: g.stables.map((s) => ({ token: s.token as Address, cap: BigInt(s.cap) })),
  };
}

export function sessionSetupCalls(p: SessionSetup): AccountCall[] {
  const enable: AccountCall = {
    to: p.validator,
    data: encodeFunctionData({ abi: sessionValidatorAbi, functionName: 'enableSession', args: [grantArgs(p.grant)] }),
    value: 0n,
  };
  if (p.installed) return [enable];
  const install = (type: bigint): AccountCall => ({
    to: p.account,
    data: encodeFunctionData({ abi: sessionAccountAbi, functionName: 'installModule', args: [type, p.validator, '0x'] }),
    value: 0n,
  });
  return [install(MODULE_TYPE_VALIDATOR), install(MODULE_TYPE_EXECUTOR), enable];
}
