import { describe, expect, it } from 'vitest';
import { backfillKey } from '../ingest/evm/backfill-job.ts';
import { parseBackfillArgs } from './backfill.ts';

describe('intel backfill arguments', () => {
  it('parses the range, the flags and the cursor key', () => {
    expect(parseBackfillArgs(['--chain', 'devnet', '--from', '5', '--to', 'head', '--with-engine'])).toMatchObject({ chain: 'devnet', from: 5, to: 'head', withEngine: true, restart: false, progressMs: 1000 });
    expect(parseBackfillArgs(['--chain=ethereum', '--from=1', '--to=10', '--range', '8', '--rps', '20', '--restart'])).toMatchObject({ from: 1, to: 10, range: 8, rps: 20, restart: true });
    expect(() => parseBackfillArgs(['--from', '1'])).toThrow(/--chain is required/);
    expect(() => parseBackfillArgs(['--chain', 'devnet', '--from', '9', '--to', '3'])).toThrow(/before --from/);
    expect(() => parseBackfillArgs(['--chain', 'devnet', '--from', '-1'])).toThrow(/--from must be an integer/);
    expect(backfillKey('devnet', 5, 'head')).toBe('backfill:devnet:5-head');
  });
});
