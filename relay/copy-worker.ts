import type { Consumer, Log } from '../infra/log/types.ts';
import { redactedError } from '../infra/redact.ts';
import { Books } from './books.ts';
import { Decisions } from './decisions.ts';
import { RelayEvents } from './events.ts';
import { Executor } from './executor.ts';
import { FollowedAgents } from './followed.ts';
import { consumeLeaderTrades } from './leader-trades.ts';
import { Lifecycle } from './lifecycle.ts';
import { CopyRows, onAgentWrite } from './rows.ts';
import type { CopyDeps, CopyWorker } from './types.ts';

/**
 * The copy worker and its executor (docs/copy-execution.md): the leaders' trades
 * decided for the agents following them, the planned executions of live agents sent to their
 * venue, and the lifecycle loop every `tickMs`: pending sessions and expiries checked and the agent
 * index reloaded (agents created by another API process are seen within it).
 */
export async function startCopyWorker(deps: CopyDeps & { log: Log; tickMs?: number }): Promise<CopyWorker> {
  const rows = new CopyRows(deps.store);
  const events = new RelayEvents(deps);
  const books = new Books(rows);
  const agents = new FollowedAgents(rows, events, deps.now);
  const executor = new Executor(deps, rows, books, events, agents);
  const decisions = new Decisions(rows, books, events, executor, deps.now);
  const lifecycle = new Lifecycle(deps, agents, executor);

  await agents.reload();
  const unlisten = onAgentWrite(deps.store, (a) => agents.changed(a));
  // executions a stopped process left behind, before any new one is decided
  await executor.recover();
  const { tables, trades, fills } = await consumeLeaderTrades({ log: deps.log, rows, agents, decisions, now: deps.now });
  const consumers: Consumer[] = [...tables, trades, fills];

  let ticking: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    ticking = ticking.then(() => lifecycle.tick()).catch((err: unknown) => deps.logger?.warn({ error: redactedError(err) }, 'copy lifecycle check failed'));
  }, deps.tickMs ?? 5000);
  timer.unref();

  return {
    idle: () => executor.idle(),
    tick: () => (ticking = ticking.then(() => lifecycle.tick())),
    lag: async () => [...(await trades.lag()), ...(await fills.lag())],
    async stop() {
      unlisten();
      clearInterval(timer);
      await ticking.catch(() => undefined);
      for (const c of consumers) await c.stop();
      await executor.settled();
    },
  };
}
