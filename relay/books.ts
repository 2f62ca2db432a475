import type { AgentBook } from '../engine/copy/decide.ts';
import type { CopyRows } from './rows.ts';

/** one async chain per key: what is run for one key never interleaves */
function createLocks() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return next;
  };
}

/** The agents' books, changed one agent at a time: a decision and an execution's outcome never interleave on one book. */
export class Books {
  private readonly lock = createLocks();

  constructor(private readonly rows: CopyRows) {}

  /** runs `fn` holding the agent's book */
  locked<T>(agentId: string, fn: () => Promise<T>): Promise<T> {
    return this.lock(agentId, fn);
  }

  /** the agent's stored book changed under its lock (an agent with no book yet has nothing to change) */
  async change(agentId: string, change: (book: AgentBook) => AgentBook, version: number): Promise<void> {
    await this.lock(agentId, async () => {
      const book = await this.rows.book(agentId);
      if (book) await this.rows.putBook(agentId, { ...change(book), applied: book.applied }, version);
    });
  }
}
