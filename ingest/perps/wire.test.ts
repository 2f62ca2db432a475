import { describe, expect, it } from 'vitest';
import { decodeFrame, isSpotCoin, subscribeUserFills } from './wire.ts';

const USER = '0x8c967e73e6b15087c42a10d344cff4c96d877f1d';

describe('Hyperliquid wire format', () => {
  it('builds the userFills subscription frame', () => {
    expect(subscribeUserFills(USER)).toBe(`{"method":"subscribe","subscription":{"type":"userFills","user":"${USER}"}}`);
  });

  it('decodes acks, pongs, errors and unknown channels without fills', () => {
    expect(decodeFrame('hyperliquid', '{"channel":"pong"}')).toEqual({ kind: 'pong' });
    expect(decodeFrame('hyperliquid', '{"channel":"subscriptionResponse","data":{"method":"subscribe"}}')).toEqual({ kind: 'ack' });
    expect(decodeFrame('hyperliquid', '{"channel":"error","data":"Invalid subscription"}')).toEqual({ kind: 'error', detail: 'Invalid subscription' });
    expect(decodeFrame('hyperliquid', '{"channel":"l2Book","data":{}}')).toEqual({ kind: 'other', channel: 'l2Book' });
    expect(decodeFrame('hyperliquid', 'not json')).toMatchObject({ kind: 'error' });
  });

  it('maps B/A to buy/sell, decimal strings to numbers, skips spot coins, counts malformed fills', () => {
    const fill = { coin: 'SOL', px: '187.25', sz: '12.5', side: 'A', time: 1735689600000, startPosition: '-3.0', dir: 'Open Short', closedPnl: '0.0', hash: '0xab', oid: 1, crossed: false, fee: '0.0234', tid: 42, feeToken: 'USDC' };
    const frame = JSON.stringify({ channel: 'userFills', data: { user: USER.toUpperCase().replace('0X', '0x'), fills: [fill, { ...fill, coin: '@142', tid: 43 }, { ...fill, px: 'abc', tid: 44 }] } });
    const d = decodeFrame('hyperliquid', frame);
    expect(d).toMatchObject({ kind: 'fills', user: USER, isSnapshot: false, skipped: 1, rejected: 1 });
    if (d.kind !== 'fills') throw new Error('unreachable');
    expect(d.fills).toEqual([
      { type: 'perp_fill', venue: 'hyperliquid', account: USER, coin: 'SOL', side: 'sell', size: 12.5, price: 187.25, startPosition: -3, dir: 'Open Short', closedPnl: 0, fee: 0.0234, time: 1735689600000, fillId: '42', hash: '0xab', crossed: false },
    ]);
    expect(isSpotCoin('PURR/USDC')).toBe(true);
    expect(isSpotCoin('kPEPE')).toBe(false);
  });
});
