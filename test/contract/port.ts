/**
 * An adapter fronted over a MessagePort (infra/bridge/), for the contract suites: the host side
 * serves `owned`, the client adapter calls it through a real channel (structured clone, the
 * asynchronous delivery of another thread), and closing the client closes the host's too.
 */
import { MessageChannel } from 'node:worker_threads';
import { serveBridge } from '../../infra/bridge/host.ts';
import { Rpc } from '../../infra/bridge/rpc.ts';
import type { Log } from '../../infra/log/types.ts';
import type { Store } from '../../infra/store/types.ts';

export function overPort<T extends { close(): Promise<void> }>(owned: { log: Log } | { store: Store }, client: (rpc: Rpc) => T): T {
  const { port1, port2 } = new MessageChannel();
  const host = serveBridge(port1, owned);
  const c = client(new Rpc(port2));
  return {
    ...c,
    async close() {
      await c.close();
      await host.close();
      await ('log' in owned ? owned.log : owned.store).close();
    },
  };
}
