import { describe, expect, it } from 'vitest';
import type { PerpFill, PredictionTrade } from '../../schemas/venues.ts';
import { perpLeaderTrade, predictionLeaderTrade } from './venue-trades.ts';

const fill = (f: Partial<PerpFill>): PerpFill => ({
  type: 'perp_fill',
  venue: 'hyperliquid',
  account: `0x${'11'.repeat(20)}`,
  coin: 'ETH',
  side: 'buy',
  size: 1,
  price: 3000,
  startPosition: 0,
  dir: 'Open Long',
  closedPnl: 0,
  fee: 0,
  time: 1_800_000_000_500,
  fillId: '7',
  hash: '0xabc',
  ...f,
});

describe("a leader's venue fills as trades to copy", () => {
  it('a fill that opens or grows a position is an entry in its direction', () => {
    expect(perpLeaderTrade(fill({}))).toMatchObject({ trade: { action: 'open', instrument: 'perp', token: 'ETH', usd: 3000, timestamp: 1_800_000_000, id: 'hyperliquid:7' }, direction: 'long' });
    expect(perpLeaderTrade(fill({ side: 'buy', startPosition: 2 }))).toMatchObject({ trade: { action: 'open' }, direction: 'long' });
    expect(perpLeaderTrade(fill({ side: 'sell', startPosition: 0 }))).toMatchObject({ trade: { action: 'open' }, direction: 'short' });
    expect(perpLeaderTrade(fill({ side: 'sell', startPosition: -1 }))).toMatchObject({ trade: { action: 'open' }, direction: 'short' });
  });

  it('a fill that shrinks it is an exit of the share it closed; to zero or through zero closes it all', () => {
    expect(perpLeaderTrade(fill({ side: 'sell', size: 1, startPosition: 4 }))).toMatchObject({ trade: { action: 'close', fraction: 0.25 }, direction: null });
    expect(perpLeaderTrade(fill({ side: 'buy', size: 3, startPosition: -3 }))).toMatchObject({ trade: { action: 'close', fraction: 1 } });
    // Long > Short: the flip closes the copy; the new short is not copied from this fill
    expect(perpLeaderTrade(fill({ side: 'sell', size: 5, startPosition: 2, dir: 'Long > Short' }))).toMatchObject({ trade: { action: 'close', fraction: 1 } });
  });

  it("a prediction-market buy opens, a sell closes the copy of the outcome", () => {
    const t: PredictionTrade = { type: 'prediction_trade', venue: 'polymarket', account: `0x${'22'.repeat(20)}`, market: '0xm', asset: '123', outcome: 'Yes', side: 'buy', size: 100, price: 0.4, time: 1_800_000_000_000, txHash: '0xt', tradeId: 't1' };
    expect(predictionLeaderTrade(t).trade).toMatchObject({ action: 'open', instrument: 'outcome', token: '123', usd: 40, id: 'polymarket:t1' });
    expect(predictionLeaderTrade({ ...t, side: 'sell' }).trade).toMatchObject({ action: 'close', fraction: 1 });
  });
});
