import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../infra/config.ts';
import { configuredEvmChains, devnetDeploymentFile, evmChainConfig } from './chains.ts';

const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

describe('EVM chain configs from the Config', () => {
  it('turns on exactly the chains with an RPC URL', () => {
    expect(configuredEvmChains(loadConfig({}))).toEqual([]);
    expect(configuredEvmChains(loadConfig({ RPC_URL_ETHEREUM: 'https://rpc.example', RPC_URL_DEVNET: 'http://127.0.0.1:1' }))).toEqual(['ethereum', 'devnet']);
  });

  it('ethereum: mainnet quote assets and confirmations by default, overridable per chain', () => {
    const c = evmChainConfig(loadConfig({ RPC_URL_ETHEREUM: 'wss://rpc.example' }), 'ethereum');
    expect(c).toMatchObject({ slug: 'ethereum', rpcUrl: 'wss://rpc.example', confirmations: 3, startBlock: 0 });
    expect(c.quotes.weth).toBe('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2');
    expect(c.wethUsd).toEqual({ pool: '0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc' });
    const o = evmChainConfig(loadConfig({ RPC_URL_ETHEREUM: 'https://x', CONFIRMATIONS_ETHEREUM: '12', START_BLOCK_ETHEREUM: '100', WETH_USD_ETHEREUM: '3000', STABLES_ETHEREUM: `${A(1)}, ${A(2)}` }), 'ethereum');
    expect(o).toMatchObject({ confirmations: 12, startBlock: 100, wethUsd: { fixed: 3000 } });
    expect(o.quotes.stables).toEqual([A(1), A(2)]);
  });

  it('contract reads: on by default with the chain\'s known LP lockers; LP_LOCKERS_ and CONTRACT_READS_ override', () => {
    const c = evmChainConfig(loadConfig({ RPC_URL_ETHEREUM: 'https://x' }), 'ethereum');
    expect(c.contracts.enabled).toBe(true);
    expect(c.contracts.lpLockers).toContain('0x663a5c229c09b049e36dcc11a9b0d4a8eb9db214');
    const o = evmChainConfig(loadConfig({ RPC_URL_ETHEREUM: 'https://x', LP_LOCKERS_ETHEREUM: A(7), CONTRACT_READS_ETHEREUM: 'false' }), 'ethereum');
    expect(o.contracts).toMatchObject({ enabled: false, lpLockers: [A(7)] });
  });

  it('requests per second: 50 for a provider unless RPC_RPS_ says more; a devnet named by variables is a local node', () => {
    expect(evmChainConfig(loadConfig({ RPC_URL_ETHEREUM: 'https://x' }), 'ethereum').rpc.requestsPerSecond).toBe(50);
    expect(evmChainConfig(loadConfig({ RPC_URL_ETHEREUM: 'https://x', RPC_RPS_ETHEREUM: '300' }), 'ethereum').rpc.requestsPerSecond).toBe(300);
    const devnet = loadConfig({ RPC_URL_DEVNET: 'http://127.0.0.1:1', WETH_DEVNET: A(1), WETH_USD_DEVNET: '2000' });
    expect(evmChainConfig(devnet, 'devnet').rpc.requestsPerSecond).toBe(2000);
  });

  it('a chain without known quote assets names the keys to set', () => {
    const config = loadConfig({ RPC_URL_BASE: 'https://base.example' });
    expect(() => evmChainConfig(config, 'base')).toThrow(/WETH_BASE and WETH_USD_POOL_BASE .* or WETH_USD_BASE/);
    const c = evmChainConfig(loadConfig({ RPC_URL_BASE: 'https://b', WETH_BASE: A(3), WETH_USD_POOL_BASE: A(4), ROUTERS_BASE: A(5) }), 'base');
    expect(c).toMatchObject({ confirmations: 10, quotes: { weth: A(3) }, wethUsd: { pool: A(4) }, routers: [A(5)] });
    expect(() => evmChainConfig(loadConfig({}), 'base')).toThrow(/set RPC_URL_BASE/);
  });

  it('devnet: quote assets, router and start block from the deployment file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intel-evm-rt-'));
    try {
      const file = join(dir, 'deployment.json');
      const missing = loadConfig({ RPC_URL_DEVNET: 'http://127.0.0.1:18999', DEVNET_DEPLOYMENT_FILE: file });
      expect(() => evmChainConfig(missing, 'devnet')).toThrow(/devnet.sh deploy/);
      expect(devnetDeploymentFile(loadConfig({ RPC_URL_DEVNET: 'http://127.0.0.1:18999' }))).toBe('/tmp/intel-devnet-18999/deployment.json');
      writeFileSync(file, JSON.stringify({ weth: A(10), router: A(11), tokens: { USDC: A(12) }, pairs: { wethUsdc: A(13) }, startBlock: 7 }));
      const c = evmChainConfig(missing, 'devnet');
      expect(c).toMatchObject({ slug: 'devnet', confirmations: 1, startBlock: 7, quotes: { weth: A(10), stables: [A(12)] }, wethUsd: { pool: A(13) }, routers: [A(11)] });
      expect(evmChainConfig(loadConfig({ RPC_URL_DEVNET: 'http://127.0.0.1:18999', DEVNET_DEPLOYMENT_FILE: file, CONFIRMATIONS_DEVNET: '2' }), 'devnet').confirmations).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
