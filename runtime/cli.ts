/**
 * The one entry point: reads the environment once, validates it, and starts roles.
 *   intel start            ingest + engine + api in one process (the embedded default)
 *   intel ingest|engine|api   one role (distributed mode: any number of each)
 *   intel migrate          create or upgrade the store's tables
 *   intel keys create --plan sandbox|free|pro|enterprise [--org ORG] [--rate-per-minute N] [--daily-units N] | list | revoke KEY_ID | go-live ORG | entitle ORG VENUE [--off]
 *   intel backfill --chain SLUG --from BLOCK --to BLOCK|head
 *   intel eval [--seeds 1,2,3] [--days N]
 *   intel status [--url OPS_URL] [--once] [--json] [--every SECONDS]
 */
import { flag } from './args.ts';
import { consoleOriginProblem, loadConfig } from '../infra/config.ts';
import type { Config } from '../infra/config.ts';
import { createLogger, createServices } from './services.ts';
import type { Services } from './services.ts';
import type { ApiHandle } from './api.ts';

function onSignals(services: Services, timeoutMs: number): void {
  let stopping = false;
  const stop = (sig: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    services.logger.info({ signal: sig, timeout_ms: timeoutMs }, 'shutting down: draining, flushing, committing');
    // bounded: a dependency that hangs (a broker gone) must not keep the process from ending
    setTimeout(() => {
      services.logger.error({ timeout_ms: timeoutMs }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, timeoutMs).unref();
    void services.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function runRoles(config: Config, roles: { ingest: boolean; engine: boolean; api: boolean }): Promise<void> {
  // before anything starts: the refusal is the only thing the operator reads
  const originProblem = roles.api ? consoleOriginProblem(config) : undefined;
  if (originProblem) throw new Error(originProblem);
  const services = await createServices(config);
  onSignals(services, config.SHUTDOWN_TIMEOUT_MS);
  const { logger } = services;
  // the engine restores and the ingesters resume while the API already answers; a role that
  // cannot start (or the API thread, failing later) ends the process
  const fatal = (role: string) => (err: unknown) => {
    logger.fatal({ err, role }, 'a role failed');
    void services.shutdown().finally(() => process.exit(1));
  };
  // the API serves the snapshots in the store while the engine restores its checkpoints and the
  // ingesters resume, so a restart answers within a second or two. Beside the engine or the
  // ingest it runs in a thread of its own: its event loop and heap hold only what reads need, so
  // the engine's folds and collections never stall an answer; the roles here start meanwhile, at
  // a lower priority than the API's thread (runtime/api-thread.ts), not after it listens: on a
  // 10-day data dir a restart was fresh 0.3-0.5 s sooner and listened up to 0.2 s later
  const shared = roles.engine || roles.ingest;
  let api: ApiHandle | undefined;
  const started: Promise<unknown>[] = [];
  if (roles.api && shared) {
    const { startApiThread } = await import('./api-thread.ts');
    started.push(startApiThread(services, fatal('api')).catch(fatal('api')));
  } else if (roles.api) api = await (await import('./api.ts')).startApi(services);
  if (roles.engine) {
    started.push(import('./engine.ts').then((m) => m.startEngine(services)).catch(fatal('engine')));
    // copy decisions and execution: keyed by leader over the same trades the wallet worker folds
    started.push(import('./copy.ts').then((m) => m.startCopyRole(services)).catch(fatal('copy')));
  }
  if (roles.ingest) started.push(import('./ingest.ts').then((m) => m.startIngest(services)).catch(fatal('ingest')));
  if (!roles.api) await Promise.all(started);
  // the API thread says its banner itself
  if (api) await (await import('./banner.ts')).announceApi(services, api);
}

async function keysCommand(config: Config, args: string[]): Promise<void> {
  const services = await createServices(config, createLogger({ LOG_LEVEL: 'warn' }));
  try {
    const { createKeyService } = await import('../infra/keys.ts');
    const { ensureSandboxOrg } = await import('../api/bootstrap.ts');
    const keys = createKeyService({ store: services.store, log: services.log, cacheTtlSeconds: 0 });
    const sub = args[0];
    if (sub === 'create') {
      const { z } = await import('zod');
      const { PlanSchema, KeyLimitOverrides } = await import('../schemas/keys.ts');
      const parsed = z
        .object({
          plan: PlanSchema.default('sandbox'),
          org: z.string().min(1).optional(),
          ratePerMinute: z.coerce.number().optional(),
          dailyUnits: z.coerce.number().optional(),
        })
        .safeParse({ plan: flag(args, 'plan'), org: flag(args, 'org'), ratePerMinute: flag(args, 'rate-per-minute'), dailyUnits: flag(args, 'daily-units') });
      if (!parsed.success) throw new Error(`keys create: ${parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join('; ')}`);
      const { plan, ratePerMinute, dailyUnits } = parsed.data;
      const overrides = KeyLimitOverrides.safeParse({ ratePerMinute, dailyUnits });
      if (!overrides.success) {
        const names = { ratePerMinute: 'rate-per-minute', dailyUnits: 'daily-units' } as Record<string, string>;
        throw new Error(`keys create: ${overrides.error.issues.map((i) => `--${names[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`).join('; ')}`);
      }
      let org = parsed.data.org;
      // a partner's organisation has the console's cap; the deployment's own (no --org) has none
      let maxActive: number | undefined;
      if (org) maxActive = (await keys.getOrg(org))?.live ? config.KEYS_PER_ORG_LIVE : config.KEYS_PER_ORG_SANDBOX;
      else {
        // sandbox keys go to the sandbox organisation; live plans to the deployment's operator organisation
        const { ensureOperatorOrg } = await import('../api/bootstrap.ts');
        org = plan === 'sandbox' ? (await ensureSandboxOrg(services.store, keys)).orgId : (await ensureOperatorOrg(services.store, keys)).orgId;
      }
      const { plaintext, record } = await keys.createKey(org, plan, overrides.data, { maxActive });
      const { limitsOf } = await import('../schemas/keys.ts');
      const limits = limitsOf(record);
      process.stdout.write(`${plaintext}\n`);
      process.stderr.write(
        `created ${record.kind} key ${record.displayPrefix}… (id ${record.id.slice(0, 12)}) for ${org}, plan ${plan}, ` +
          `${limits.ratePerMinute} requests/minute, ${limits.dailyUnits ?? 'no'} daily unit quota. It is shown once.\n`,
      );
    } else if (sub === 'list') {
      for (const k of await keys.list(flag(args, 'org'))) {
        const o = k.overrides ? `  (${k.overrides.ratePerMinute ?? '-'}/min, ${k.overrides.dailyUnits ?? '-'} units/day)` : '';
        process.stdout.write(`${k.id.slice(0, 16)}  ${k.displayPrefix}…  ${k.orgId}  ${k.plan}${o}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}\n`);
      }
    } else if (sub === 'revoke') {
      const prefix = args[1];
      if (!prefix) throw new Error('usage: intel keys revoke KEY_ID (or a unique prefix of it)');
      const matches = (await keys.list()).filter((k) => k.id.startsWith(prefix));
      if (matches.length !== 1) throw new Error(`${matches.length} keys match ${prefix}`);
      await keys.revoke((matches[0] as { id: string }).id, Date.now());
      process.stdout.write(`revoked ${(matches[0] as { id: string }).id.slice(0, 16)}\n`);
    } else if (sub === 'go-live') {
      const org = args[1];
      if (!org) throw new Error('usage: intel keys go-live ORG_ID');
      const { revoked } = await keys.goLive(org, Date.now());
      process.stdout.write(`${org} is live; ${revoked} sandbox key(s) revoked. Mint live keys with: intel keys create --plan free --org ${org}\n`);
    } else if (sub === 'entitle') {
      const [org, venue] = [args[1], args[2]];
      if (!org || !venue) throw new Error('usage: intel keys entitle ORG_ID VENUE [--off]');
      const { ExecutionVenue } = await import('../schemas/agents.ts');
      if (!ExecutionVenue.safeParse(venue).success) throw new Error(`keys entitle: unknown venue ${venue}; venues: ${ExecutionVenue.options.join(', ')}`);
      const on = !args.includes('--off');
      const next = await keys.entitle(org, venue, on, Date.now());
      // the copy worker reads the entitlement at every submit and pauses the live agents it no longer covers
      const after = on ? '' : `; its live ${venue} agents submit nothing more and are paused (agent.paused) at the copy worker's next check`;
      process.stdout.write(`${org} ${on ? 'is entitled to' : 'is no longer entitled to'} ${venue}; venues: ${next.venues.join(', ') || 'none'}${after}\n`);
    } else {
      throw new Error('usage: intel keys create --plan sandbox|free|pro|enterprise [--org ORG] [--rate-per-minute N] [--daily-units N] (enterprise only) | list [--org ORG] | revoke KEY_ID | go-live ORG | entitle ORG VENUE [--off]');
    }
  } finally {
    await services.shutdown();
  }
}

export async function main(argv: string[]): Promise<void> {
  const [cmd = 'start', ...args] = argv;
  const config = loadConfig(process.env);
  switch (cmd) {
    case 'start':
      return runRoles(config, { ingest: true, engine: true, api: true });
    case 'ingest':
    case 'engine':
    case 'api':
      return runRoles(config, { ingest: cmd === 'ingest', engine: cmd === 'engine', api: cmd === 'api' });
    case 'migrate': {
      const services = await createServices(config);
      await services.shutdown();
      process.stdout.write(`store ${services.store.kind} migrated\n`);
      return;
    }
    case 'keys':
      return keysCommand(config, args);
    case 'backfill': {
      const { backfillCommand } = await import('./backfill.ts');
      return backfillCommand(config, args);
    }
    case 'eval': {
      const { evalCommand } = await import('./eval.ts');
      return evalCommand(args);
    }
    case 'status': {
      const { statusCommand } = await import('./status.ts');
      const { opsPort } = await import('../infra/config.ts');
      return statusCommand(args, `http://${config.OPS_HOST}:${opsPort(config)}`);
    }
    default:
      throw new Error(`unknown command ${cmd}; commands: start, ingest, engine, api, migrate, keys, backfill, eval, status`);
  }
}
