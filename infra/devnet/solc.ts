/**
 * Compiles Solidity with the npm `solc` package (solc-js, no download): the devnet's story
 * contracts and the trade probe. Imports resolve from node_modules (OpenZeppelin contracts).
 * Output is cached per source set in the OS temp dir, so a test suite compiles once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Abi, Hex } from 'viem';

const require = createRequire(import.meta.url);

export interface Compiled {
  abi: Abi;
  /** creation code */
  bytecode: Hex;
  /** runtime code */
  deployedBytecode: Hex;
}

export interface CompileOptions {
  /** default 'paris' (no PUSH0: runs on every EVM chain) */
  evmVersion?: string;
  optimizerRuns?: number;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

function findImport(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `not found: ${path}` };
  }
}

/** compiles `sources` (file name → text); returns every contract by name */
export function compileSolidity(sources: Record<string, string>, opts: CompileOptions = {}): Record<string, Compiled> {
  const solc = require('solc') as { version(): string; compile(input: string, cb: { import: typeof findImport }): string };
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, { content: v }])),
    settings: {
      evmVersion: opts.evmVersion ?? 'paris',
      optimizer: { enabled: true, runs: opts.optimizerRuns ?? 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const key = createHash('sha256').update(solc.version()).update(JSON.stringify(input)).digest('hex').slice(0, 24);
  const cacheFile = join(tmpdir(), 'intel-solc-cache', `${key}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, Compiled>;
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const result: Record<string, Compiled> = {};
  for (const file of Object.values(out.contracts)) {
    for (const [name, c] of Object.entries(file)) {
      result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
    }
  }
  mkdirSync(dirname(cacheFile), { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(result));
  return result;
}
