import { describe, expect, it } from 'vitest';
import { decodeMarketFrame, decodeTradesFrame, subscribeMarket, subscribeTrades } from './wire.ts';

const W = '0x56687BF447DB6FFA42FFE2204A05EDAA20F55839';
const payload = { asset: '123', conditionId: '0xc0', outcome: 'Yes', outcomeIndex: 0, price: 0.62, proxyWallet: W, side: 'SELL', size: '25.5', timestamp: 1736100000, transactionHash: '0xt1', title: 'T', slug: 's' };

describe('Polymarket wire formats', () => {
  it('builds the subscription frames', () => {
    expect(subscribeTrades()).toBe('{"action":"subscribe","subscriptions":[{"topic":"activity","type":"trades"}]}');
    expect(subscribeMarket(['1', '2'])).toBe('{"assets_ids":["1","2"],"type":"market"}');
  });

  it('decodes an activity trade (numbers or decimal strings), lowercases the wallet, seconds to ms', () => {
    const d = decodeTradesFrame('polymarket', JSON.stringify({ topic: 'activity', type: 'trades', timestamp: 1736100000123, payload }));
    expect(d).toEqual({
      kind: 'trade',
      trade: { type: 'prediction_trade', venue: 'polymarket', account: W.toLowerCase(), market: '0xc0', asset: '123', outcome: 'Yes', side: 'sell', size: 25.5, price: 0.62, time: 1736100000000, txHash: '0xt1', tradeId: '0xt1:123:sell:25.5:0.62' },
    });
  });

  it('ignores other topics and pongs; rejects trades without a wallet or with a price outside 0..1', () => {
    expect(decodeTradesFrame('polymarket', 'PONG')).toEqual({ kind: 'pong' });
    expect(decodeTradesFrame('polymarket', JSON.stringify({ topic: 'comments', type: 'comment_created', payload: {} }))).toEqual({ kind: 'other' });
    expect(decodeTradesFrame('polymarket', JSON.stringify({ topic: 'activity', type: 'trades', payload: { ...payload, proxyWallet: undefined } })).kind).toBe('rejected');
    expect(decodeTradesFrame('polymarket', JSON.stringify({ topic: 'activity', type: 'trades', payload: { ...payload, price: 1.4 } })).kind).toBe('rejected');
  });

  it('decodes market-channel events, batched in arrays or single, and counts malformed ones', () => {
    const r = decodeMarketFrame(JSON.stringify([
      { event_type: 'last_trade_price', asset_id: '1', market: '0xm', price: '0.456', side: 'SELL', size: '10', fee_rate_bps: '0', timestamp: '1736100000000' },
      { event_type: 'book', asset_id: '1', market: '0xm', bids: [], asks: [{ price: '.5', size: '1' }], timestamp: '1736100000001' },
      { event_type: 'mystery' },
    ]));
    expect(r.rejected).toBe(1);
    expect(r.updates).toEqual([
      { kind: 'last_trade', asset: '1', market: '0xm', price: 0.456, side: 'sell', size: 10, time: 1736100000000 },
      { kind: 'book', asset: '1', market: '0xm', bestBid: null, bestAsk: 0.5, time: 1736100000001 },
    ]);
  });
});
