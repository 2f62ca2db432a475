/**
 * One API process of the execution relay for the tests that need several (`node --import tsx
 * test/e2e/relay-server.ts <data dir>`): the real app over the embedded store in the data dir,
 * which other processes open too, listening on 127.0.0.1 and an ephemeral port; it prints
 * `listening <url>` and stops on SIGTERM.
 */
import type { AddressInfo } from 'node:net';
import { bootRelayApp } from './relay.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: relay-server.ts <data dir>');
const booted = await bootRelayApp(dir);
await booted.app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening http://127.0.0.1:${(booted.app.server.address() as AddressInfo).port}`);
process.once('SIGTERM', () => {
  void booted.close().then(() => process.exit(0));
});
