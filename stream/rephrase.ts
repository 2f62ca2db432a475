import { LRUCache } from 'lru-cache';
import type { TokenSnapshot } from '../schemas/token.ts';
import { priceActionKey } from '../schemas/token.ts';
import { signalContext } from '../engine/token/derive.ts';
import { changeFacts, tokenTextRequests } from '../engine/token/texts.ts';
import type { Writer, WriterRequest } from '../engine/writer/index.ts';

/**
 * With a model writer configured, the token texts the template wrote are rephrased from the same
 * requests (the same facts), cached by request so unchanged facts never ask again; the writer
 * falls back to the template on error or timeout, so a snapshot is never held back for long.
 */
export function createRephraser(writer: Writer): (body: unknown) => Promise<unknown> {
  const cache = new LRUCache<string, Promise<string>>({ max: 20_000 });
  const ask = (kind: 'rationale' | 'thesis' | 'headline' | 'summary', req: WriterRequest): Promise<string> => {
    const k = `${kind}|${JSON.stringify(req)}`;
    let p = cache.get(k);
    if (!p) {
      p = writer[kind](req);
      cache.set(k, p);
    }
    return p;
  };
  return async (body) => {
    const s = body as TokenSnapshot;
    const subject = s.symbol ?? 'This token';
    const r = tokenTextRequests(s, subject, signalContext(s));
    const pa = s.priceAction[priceActionKey('1h', 24)];
    const [rationale, thesis, headline, summary] = await Promise.all([
      ask('rationale', r.rationale),
      ask('thesis', r.thesis),
      ask('headline', { operation: 'token-changes', subject, facts: changeFacts(s.changes.items) }),
      pa
        ? ask('summary', {
            operation: 'token-price-action',
            subject,
            facts: { trend: pa.trend, structure: pa.structure, breakout: pa.breakout, volatility: pa.volatility, resolution: '1h', hours: 24, enoughBars: pa.bars >= 3 },
          })
        : Promise.resolve(undefined),
    ]);
    const priceAction = pa && summary ? { ...s.priceAction, [priceActionKey('1h', 24)]: { ...pa, summary } } : s.priceAction;
    return { ...s, texts: { rationale, thesis }, changes: { ...s.changes, headline }, priceAction };
  };
}
