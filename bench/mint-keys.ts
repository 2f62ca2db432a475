/**
 * Bench-only child: mints COUNT enterprise keys for a live organisation in one process and prints
 * them one a line. The fallback when `intel keys create` does not take the operator overrides
 * (--rate-per-minute, --daily-units): the load then rotates over the keys so that no key reaches
 * the plan's per-minute limit. Run against the service's DATA_DIR (or ClickHouse) while the
 * service is stopped, as the CLI is.
 *
 *   DATA_DIR=… node --import tsx bench/mint-keys.ts ORG_ID COUNT
 */
import { createKeyService, createLogger, createServices, loadConfig } from './runtime.ts';

const [org, countArg] = process.argv.slice(2);
if (!org) throw new Error('usage: mint-keys.ts ORG_ID COUNT');
const count = Math.min(1000, Math.max(1, Number(countArg ?? 100)));
const services = await createServices(loadConfig(process.env), createLogger({ LOG_LEVEL: 'warn' }));
try {
  const keys = createKeyService({ store: services.store, log: services.log, cacheTtlSeconds: 0 });
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push((await keys.createKey(org, 'enterprise')).plaintext);
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  await services.shutdown();
}
