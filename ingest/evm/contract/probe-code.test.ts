import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeModule } from './build-probe.ts';

describe('trade probe code', () => {
  it('the committed runtime code is what TradeProbe.sol compiles to (run build-probe.ts after editing it)', () => {
    expect(readFileSync(join(import.meta.dirname, 'probe-code.ts'), 'utf8')).toBe(probeModule());
  });
});
