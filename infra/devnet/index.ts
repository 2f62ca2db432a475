export { startDevnet, stopDevnet, isDevnetUp, devnetPort, devnetRunDir, DEFAULT_DEVNET_PORT } from './node.ts';
export type { Devnet, DevnetOptions } from './node.ts';
export { createDevnetClient, deployUniswap, makeTrades, artifacts, erc20Abi, routerAbi, factoryAbi } from './uniswap.ts';
export type { DevnetClient, UniswapDeployment, TradeRecord, TradeOptions, DeployOptions, DevnetTokenSymbol } from './uniswap.ts';
export { loadDevnetDeployment } from './chain.ts';
export { compileExecutionContracts, deployExecutionContracts, deploySessionAccount, enableSession, ownerExecute } from './execution.ts';
export type { ExecutionContracts, ExecutionDeployment } from './execution.ts';
