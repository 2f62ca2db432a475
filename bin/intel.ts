/**
 * The `intel` command: reads the environment once (runtime/cli.ts) and starts roles or runs a
 * command. Everything it does lives in runtime/; this file only runs it.
 */
import { setFlagsFromString } from 'node:v8';

// the heap grows twice its live size before the next full collection, where V8 grows it by as
// little as 10 %: the engine's heap (about 100 MB live on the 10-day simulator) was collected
// every 30-40 s under read load, and its marking slowed the API thread's answers by about a
// quarter while it ran (the two share the machine's cores and caches)
setFlagsFromString('--heap-growing-percent=100');
// `intel start` answers from a thread of its own: its code loads while this one loads the rest
// and opens the log and the store (runtime/api-thread.ts); other commands load none of it
if (process.argv[2] === 'start') (await import('../runtime/api-thread.ts')).spawnApiThreadEarly();
const { main } = await import('../runtime/cli.ts');

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`intel: ${err instanceof Error ? err.message : String(err)}\n`);
  // where it failed, for the operator (a fatal start-up error is rare and worth its stack)
  if (err instanceof Error && err.stack) process.stderr.write(`${err.stack.split('\n').slice(1, 12).join('\n')}\n`);
  process.exit(1);
});
