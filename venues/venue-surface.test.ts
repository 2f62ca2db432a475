/**
 * Every venue adapter's surface is the four verbs of Venue and its name, nothing else: no method
 * that could withdraw or transfer the user's funds (docs/copy-execution.md). Building an
 * adapter touches no network, so this runs without a chain.
 */
import { describe, expect, it } from 'vitest';
import { createEvmSpotVenue } from './evm-spot.ts';
import { createHyperliquidVenue } from './hyperliquid.ts';
import { createPolymarketVenue } from './polymarket.ts';
import { sessionKeysFrom } from './session-keys.ts';
import type { Venue } from './types.ts';

const ADDRESS = `0x${'11'.repeat(20)}` as const;

const adapters: Record<string, () => Venue> = {
  'evm-spot': () =>
    createEvmSpotVenue({
      chain: 'devnet',
      rpcUrl: 'http://127.0.0.1:9',
      router: ADDRESS,
      weth: ADDRESS,
      usdStable: ADDRESS,
      entryPoint: ADDRESS,
      sessionValidator: ADDRESS,
      relayer: `0x${'22'.repeat(32)}`,
      sessionKeyFor: sessionKeysFrom('surface-test'),
    }),
  hyperliquid: () => createHyperliquidVenue({ apiUrl: 'http://127.0.0.1:9', agentKeyFor: sessionKeysFrom('surface-test') }),
  polymarket: () => createPolymarketVenue({ host: 'http://127.0.0.1:9', chainId: 137, agentKeyFor: sessionKeysFrom('surface-test') }),
};

/** every property name reachable on the object: its own and its prototypes' up to Object.prototype */
function surface(v: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = v; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const k of Reflect.ownKeys(o)) names.add(String(k));
  }
  return [...names].sort();
}

describe('venue adapters expose only quote, submit, cancel and revoke', () => {
  for (const [name, build] of Object.entries(adapters)) {
    it(`${name}: its methods are exactly cancel, quote, revoke, submit; its only other property is its name; it cannot be extended`, () => {
      const venue = build();
      const names = surface(venue);
      const methods = names.filter((k) => typeof (venue as unknown as Record<string, unknown>)[k] === 'function');
      expect(methods).toEqual(['cancel', 'quote', 'revoke', 'submit']);
      expect(names.filter((k) => !methods.includes(k))).toEqual(['venue']);
      expect(venue.venue).toBe(name);
      expect(Object.isFrozen(venue)).toBe(true);
      expect(() => Object.defineProperty(venue, 'withdraw', { value: () => undefined })).toThrow();
    });
  }
});
