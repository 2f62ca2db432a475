import { describe, expect, it } from 'vitest';
import { markForeground, underReadLoad } from './pause.ts';

describe('read load (background work steps back while reads come in)', () => {
  it('is a load at 50 reads a 100 ms window, in the window and the next, and not after', () => {
    const t = 1_000_000_000;
    for (let i = 0; i < 49; i++) markForeground(t + i);
    expect(underReadLoad(t + 60)).toBe(false);
    markForeground(t + 60);
    expect(underReadLoad(t + 61)).toBe(true);
    // the window ended: it still counts until a second window passes without reads
    expect(underReadLoad(t + 150)).toBe(true);
    expect(underReadLoad(t + 250)).toBe(false);
  });

  it('a new window counts with the loaded one before it, then alone', () => {
    const t = 2_000_000_000;
    for (let i = 0; i < 80; i++) markForeground(t + i);
    // a trickle in the next window: the last one was loaded
    markForeground(t + 120);
    expect(underReadLoad(t + 130)).toBe(true);
    // the trickle's window ended with one read: no load
    expect(underReadLoad(t + 225)).toBe(false);
  });

  it('a trickle of reads is no load', () => {
    const t = 3_000_000_000;
    for (let i = 0; i < 30; i++) markForeground(t + i * 10);
    expect(underReadLoad(t + 300)).toBe(false);
  });
});
