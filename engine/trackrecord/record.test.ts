import { describe, expect, it } from 'vitest';
import type { TokenSnapshot } from '../../schemas/token.ts';
import { dueHorizons, recordOfClaim, walletBasisAt } from './record.ts';

const claim = { operation: 'tokenIntel', kind: 'token' as const, chain: 'sim', subject: '0xabc', value: 'avoid', snapshotKey: 'token:sim:0xabc' };
const snapshot = { asOfTs: 7200 + 59, symbol: 'ABC', basis: { priceUsd: 2, liquidityUsd: 1000 } } as unknown as TokenSnapshot;

describe('a track record from a served claim', () => {
  it('is keyed by the hour of its snapshot, referenced at its price, and leaves the snapshot key out', () => {
    const rec = recordOfClaim(claim, snapshot);
    expect(rec).toMatchObject({ key: 'tokenIntel:sim:0xabc:2', refTs: 7259, refPrice: 2, refLiquidityUsd: 1000, symbol: 'ABC' });
    expect(rec).not.toHaveProperty('snapshotKey');
  });

  it('has a horizon due only once event time passed it, never before', () => {
    const rec = recordOfClaim(claim, snapshot);
    expect(dueHorizons(rec, 7259 + 3599)).toEqual([]);
    expect(dueHorizons(rec, 7259 + 3600)).toEqual(['1h']);
    expect(dueHorizons(rec, 7259 + 86_400)).toEqual(['1h', '24h']);
  });

  it("reads a trader's basis at a horizon from its newest snapshot at or before it, not from a later one", () => {
    const at = (iso: string, realisedUsd: number) => ({ asOf: iso, basis: { realisedUsd, costSoldUsd: 100, closed: 1 } });
    const states = [at('2026-01-01T02:00:00Z', 30), at('2026-01-01T00:00:00Z', 10), at('2026-01-01T01:00:00Z', 20)];
    const t = Date.parse('2026-01-01T01:30:00Z') / 1000;
    expect(walletBasisAt(states, t)).toEqual({ measuredTs: Date.parse('2026-01-01T01:00:00Z') / 1000, realisedUsd: 20, costSoldUsd: 100, closed: 1 });
    expect(walletBasisAt(states, t - 86_400)).toBeNull();
  });
});
