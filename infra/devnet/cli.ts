/**
 * tsx infra/devnet/cli.ts start|stop|deploy [trades]
 *   start:  starts the node (PID file under /tmp/intel-devnet-<port>/), waits until it answers
 *   stop:   stops it by PID
 *   deploy: deploys Uniswap V2 + tokens + liquidity and the execution contracts (EntryPoint v0.8,
 *           session validator, account factory), makes [trades] swaps, prints the deployment JSON
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDevnet, stopDevnet, devnetPort, devnetRunDir } from './node.ts';
import { deployExecutionContracts } from './execution.ts';
import { createDevnetClient, deployUniswap, makeTrades } from './uniswap.ts';

const [cmd, arg] = process.argv.slice(2);
const port = devnetPort();

if (cmd === 'start') {
  const d = await startDevnet({ port });
  console.log(d.pid === undefined ? `devnet already answering at ${d.rpcUrl}` : `devnet started at ${d.rpcUrl} (pid ${d.pid})`);
} else if (cmd === 'stop') {
  console.log((await stopDevnet({ port })) ? 'devnet stopped' : 'devnet: no PID file, nothing to stop');
} else if (cmd === 'deploy') {
  const client = createDevnetClient(`http://127.0.0.1:${port}`);
  const d = await deployUniswap(client);
  const trades = await makeTrades(client, d, { count: Number(arg ?? 0) });
  d.execution = await deployExecutionContracts(client, d);
  const json = JSON.stringify(d, null, 2);
  writeFileSync(join(devnetRunDir(port), 'deployment.json'), json);
  console.log(json);
  console.log(`${trades.length} trades made`);
} else {
  console.error('usage: devnet.sh {start|stop|deploy [trades]}');
  process.exit(2);
}
