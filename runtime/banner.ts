/**
 * The start banner of a process that serves the API: where it listens, how fresh its answers are,
 * and the sandbox key on the first start (to the terminal only, never to the structured log).
 */
import type { Services } from './services.ts';
import type { ApiHandle } from './api.ts';
import { ensureSandboxOrg } from '../api/bootstrap.ts';
import { pickExampleToken } from '../api/example.ts';

/**
 * What the banner says of the answers: per chain, fresh (within the readiness bound) or how far
 * behind the engine is; "ready" only when every chain is fresh, never while answers are days old.
 */
export function freshnessLines(ages: Record<string, number | null>, maxAgeSeconds: number): string[] {
  const span = (s: number) => (s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : s < 172_800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86400)} days`);
  const per = Object.entries(ages).map(([chain, age]) => (age === null ? `${chain}: no snapshot yet` : `${chain}: ${age <= maxAgeSeconds ? 'fresh' : 'behind'}, newest answer ${span(age)} old`));
  const fresh = Object.values(ages).every((a) => a !== null && a <= maxAgeSeconds);
  return [
    fresh ? `  answers are fresh (${per.join('; ')})` : `  catching up, answers are NOT fresh yet (${per.join('; ')}); /readyz turns 200 once every chain is within ${span(maxAgeSeconds)}`,
  ];
}

export async function announceApi(services: Services, api: ApiHandle): Promise<void> {
  const { config, logger } = services;
  const boot = await ensureSandboxOrg(services.store, api.keys);
  const token = await pickExampleToken(api.replica, config.DEFAULT_CHAIN, 30_000);
  const lines = [
    '',
    `  intel API listening at ${api.url}/v1   (docs ${api.url}/v1/docs, OpenAPI ${api.url}/v1/openapi.json)`,
    ...freshnessLines(api.freshness.ageSeconds(Date.now()), config.READY_MAX_AGE_SECONDS),
    `  operator endpoints at ${api.opsUrl}   (/metrics, /healthz, /readyz; not on the API's port)`,
    `  data dir ${config.DATA_DIR}, log ${services.log.kind}, store ${services.store.kind}, default chain ${config.DEFAULT_CHAIN}`,
    '',
    ...(boot.plaintext
      ? [`  sandbox key (shown once, store it now): ${boot.plaintext}`]
      : [`  sandbox organisation ${boot.orgId}; its key was printed on the first start.`, `  mint another: npm run keys -- create --plan sandbox --org ${boot.orgId}`]),
    '',
    '  try:',
    `  curl -s -X POST ${api.url}/v1/token-intel -H 'Authorization: Bearer ${boot.plaintext ?? '<your key>'}' -H 'content-type: application/json' -d '{"token":"${token ?? '<token address>'}"}'`,
  ];
  // the key goes to the terminal only, never to the structured log
  process.stdout.write(lines.join('\n') + '\n\n');
  logger.info({ url: api.url, opsUrl: api.opsUrl }, 'api listening');
}
