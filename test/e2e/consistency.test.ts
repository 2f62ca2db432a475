import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/**
 * One verdict, computed once: over a simulator run, for every token the engine rates, every
 * operation's answer agrees with every other, and token-overview's slots equal the single
 * operations' answers. Each invariant is named in the violation it reports.
 */

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SINGLE = {
  tokenIntel: '/v1/token-intel',
  tokenSignal: '/v1/token-signal',
  tokenRisk: '/v1/token-risk',
  tokenHoldersInsight: '/v1/token-holders-insight',
  tokenNarrative: '/v1/token-narrative',
  tokenInflection: '/v1/token-inflection',
  tokenValuation: '/v1/token-valuation',
  exitRisk: '/v1/exit-risk',
  tokenChanges: '/v1/token-changes',
  tokenPriceAction: '/v1/token-price-action',
  smartMoneyFlow: '/v1/smart-money-flow',
} as const;
type Single = keyof typeof SINGLE;

/** an answer without its request-time field */
const stable = (x: J) => {
  const { ageSeconds: _a, ...rest } = x;
  return rest;
};

const SEVERITY_OF_FLAG = (r: J, k: string) => r.flags[k].severity as string;

describe('every operation agrees with every other about a token (simulator seed 17, 10 days)', () => {
  let stack: Stack;
  const answers = new Map<string, Record<Single | 'overview' | 'smartMoneyFlowSmall', J>>();
  let movers: J[] = [];
  let board: J[] = [];
  let radar: J[] = [];
  const compared = new Map<string, J>();
  const violations: string[] = [];
  const check = (ok: boolean, invariant: string, token: string, detail: unknown) => {
    if (!ok) violations.push(`${invariant} — ${token}: ${JSON.stringify(detail)}`);
  };

  beforeAll(async () => {
    stack = await startStack({ seed: 17, days: 10 });
    await stack.advanceTo(Math.floor(Date.now() / 1000));
    const listKey = await stack.newKey('enterprise');
    movers = ((await stack.call('GET', '/v1/market-movers?limit=100', listKey)).json.movers as J[]) ?? [];
    board = ((await stack.call('GET', '/v1/conviction-board?limit=100&refresh=1', listKey)).json.board as J[]) ?? [];
    radar = ((await stack.call('GET', '/v1/smart-money-radar?limit=100&window=24&refresh=1', listKey)).json.accumulating as J[]) ?? [];
    const tokens = stack.sim.truth.tokens.map((t) => t.address);
    for (let i = 0; i < tokens.length; i += 20) {
      const r = await stack.call('POST', '/v1/token-compare', listKey, { tokens: tokens.slice(i, i + 20) });
      if (r.status === 200) for (const item of r.json.ranked as J[]) compared.set(item.token as string, item);
    }
    for (const token of tokens) {
      const key = await stack.newKey('enterprise');
      const probe = await stack.call('POST', SINGLE.tokenIntel, key, { token });
      if (probe.status === 404) continue;
      expect(probe.status, JSON.stringify(probe.json)).toBe(200);
      const got = {} as Record<Single | 'overview' | 'smartMoneyFlowSmall', J>;
      for (const [name, path] of Object.entries(SINGLE) as [Single, string][]) {
        const r = await stack.call('POST', path, key, name === 'smartMoneyFlow' ? { token, sample: 200 } : { token });
        expect(r.status, `${name} ${JSON.stringify(r.json)}`).toBe(200);
        got[name] = r.json;
      }
      got.smartMoneyFlowSmall = (await stack.call('POST', SINGLE.smartMoneyFlow, key, { token, sample: 10 })).json;
      got.overview = (await stack.call('POST', '/v1/token-overview', key, { token, sample: 200 })).json;
      answers.set(token, got);
    }
  }, 600_000);
  afterAll(async () => stack?.stop());

  it('rates enough tokens, some with red flags and some on the board, to say something', () => {
    const all = [...answers.values()];
    const coverage = {
      tokens: answers.size,
      redFlagged: all.filter((a) => ['rug', 'honeypot', 'concentration'].some((k) => SEVERITY_OF_FLAG(a.tokenRisk, k) === 'red')).length,
      signals: Object.fromEntries(['BUY', 'ACCUMULATE', 'HOLD', 'AVOID'].map((v) => [v, all.filter((a) => a.tokenSignal.signal === v).length])),
      smartMoneyBuying: all.filter((a) => a.smartMoneyFlow.smartMoneyBuying).length,
      withChanges: all.filter((a) => (a.tokenChanges.changes as J[]).length > 0).length,
      movers: movers.length,
      board: board.length,
      radar: radar.length,
    };
    console.log('consistency coverage', JSON.stringify(coverage));
    expect(answers.size).toBeGreaterThan(20);
    expect([...answers.values()].some((a) => ['rug', 'honeypot', 'concentration'].some((k) => SEVERITY_OF_FLAG(a.tokenRisk, k) === 'red'))).toBe(true);
    expect(board.length).toBeGreaterThan(0);
    expect(movers.length).toBeGreaterThan(0);
  });

  it('holds every invariant for every token', () => {
    const moverOf = new Map(movers.map((m) => [m.token as string, m]));
    const boardOf = new Map(board.map((b) => [b.token as string, b]));
    const radarOf = new Map(radar.map((r) => [r.token as string, r]));
    for (const [token, a] of answers) {
      const verdict = a.tokenIntel.verdict;
      const signal = a.tokenSignal.signal;
      const conviction = a.tokenSignal.conviction;
      const pillars = a.tokenSignal.pillars as Record<string, boolean>;
      const red = ['rug', 'honeypot', 'concentration'].filter((k) => SEVERITY_OF_FLAG(a.tokenRisk, k) === 'red');

      // 1. one verdict
      for (const [where, v] of [
        ['smart-money-flow', a.smartMoneyFlow.verdict],
        ['token-changes.current', a.tokenChanges.current.verdict],
        ['market-movers', moverOf.get(token)?.verdict ?? verdict],
        ['conviction-board', boardOf.get(token)?.verdict ?? verdict],
        ['smart-money-radar', radarOf.get(token)?.verdict ?? verdict],
        ['token-compare', compared.get(token)?.verdict ?? verdict],
      ] as const)
        check(v === verdict, `one verdict (${where} = token-intel)`, token, { intel: verdict, [where]: v });

      // 2. one signal and one conviction
      for (const [where, s, c] of [
        ['token-changes.current', a.tokenChanges.current.signal, conviction],
        ['conviction-board', boardOf.get(token)?.signal ?? signal, boardOf.get(token)?.conviction ?? conviction],
        ['smart-money-radar', radarOf.get(token)?.signal ?? signal, radarOf.get(token)?.conviction ?? conviction],
        ['market-movers', moverOf.get(token)?.signal ?? signal, moverOf.get(token)?.conviction ?? conviction],
        ['token-compare', compared.get(token)?.signal ?? signal, compared.get(token)?.conviction ?? conviction],
      ] as const)
        check(s === signal && c === conviction, `one signal and conviction (${where} = token-signal)`, token, { signal, conviction, [where]: [s, c] });

      // 3. one set of pillars
      check(Object.values(pillars).filter(Boolean).length === a.tokenSignal.pillarsLit, 'pillarsLit counts the lit pillars', token, a.tokenSignal);
      const b = boardOf.get(token);
      if (b) check(JSON.stringify(b.pillars) === JSON.stringify(pillars) && b.pillarsLit === a.tokenSignal.pillarsLit, 'board pillars = token-signal pillars', token, { board: b.pillars, signal: pillars });

      // 4. one definition of smart buyers, inside the stated window
      const flow = a.smartMoneyFlow;
      check(flow.smartMoneyBuying === pillars.smartMoney, 'smartMoneyBuying = smartMoney pillar', token, { flow: flow.smartMoneyBuying, pillar: pillars.smartMoney });
      check(!flow.smartMoneyBuying || (flow.mirrorWorthyBuyers >= 2 && flow.buyersInWindow >= flow.mirrorWorthyBuyers), 'smart money buying means mirror-worthy buys inside the window', token, flow);
      const r = radarOf.get(token);
      if (r) check(r.smartBuyers === flow.mirrorWorthyBuyers, 'radar smartBuyers (24 h) = smart-money-flow mirrorWorthyBuyers', token, { radar: r.smartBuyers, flow: flow.mirrorWorthyBuyers });
      else check(flow.mirrorWorthyBuyers === 0 || signal === 'AVOID' || verdict === 'unrated' || radar.length === 100, 'a rated token with smart buyers in 24 h is on the 24 h radar', token, flow);

      // 5. sample changes only the sample block
      const small = a.smartMoneyFlowSmall;
      check(
        small.verdict === flow.verdict && small.smartMoneyBuying === flow.smartMoneyBuying && small.mirrorWorthyBuyers === flow.mirrorWorthyBuyers,
        'smart-money-flow answers do not depend on sample',
        token,
        { sample10: small, sample200: flow },
      );

      // 6. a red flag means AVOID, avoid, never undervalued, never listed as an opportunity
      if (red.length > 0) {
        check(signal === 'AVOID' && verdict === 'avoid', 'red flag → AVOID / avoid', token, { red, signal, verdict });
        check(a.tokenNarrative.stance !== 'undervalued' && a.tokenValuation.stance !== 'undervalued', 'red flag → never undervalued', token, { red, stance: a.tokenNarrative.stance });
        check(a.tokenHoldersInsight.verdict === 'avoid', 'red flag → holders-insight avoid', token, { red, holders: a.tokenHoldersInsight.verdict });
        check(!moverOf.has(token) && !boardOf.has(token) && !radarOf.has(token), 'red flag → not in movers, board or radar', token, red);
      }
      if (signal === 'AVOID') check(verdict === 'avoid', 'AVOID → avoid', token, { signal, verdict });

      // 7. a token that cannot be sold has the highest exit risk and no lowExit
      if (SEVERITY_OF_FLAG(a.tokenRisk, 'honeypot') === 'red') {
        check(a.exitRisk.exitRisk === 'extreme' && a.tokenIntel.entry.exitRisk === 'extreme', 'unsellable → extreme exit risk', token, { exit: a.exitRisk.exitRisk, intel: a.tokenIntel.entry.exitRisk });
        check(!pillars.lowExit, 'unsellable → lowExit unlit', token, pillars);
      }

      // 8. one exit risk at the standard size, one stance, one inflection, one risk band
      check(a.tokenIntel.entry.exitRisk === a.exitRisk.exitRisk && a.exitRisk.signals.sizeUsd === a.tokenIntel.entry.sizeUsd, 'token-intel entry exit = exit-risk at the standard size', token, {
        intel: a.tokenIntel.entry,
        exit: a.exitRisk.exitRisk,
      });
      check(pillars.lowExit === (a.exitRisk.exitRisk === 'low'), 'lowExit pillar ⇔ exit-risk low', token, { lowExit: pillars.lowExit, exit: a.exitRisk.exitRisk });
      check(a.tokenNarrative.stance === a.tokenValuation.stance && a.tokenValuation.stance === a.tokenIntel.entry.stance, 'one valuation stance', token, {
        narrative: a.tokenNarrative.stance,
        valuation: a.tokenValuation.stance,
        intel: a.tokenIntel.entry.stance,
      });
      check(a.tokenInflection.state === a.tokenIntel.entry.inflection && a.tokenChanges.current.inflection === a.tokenInflection.state, 'one inflection state', token, {
        inflection: a.tokenInflection.state,
        intel: a.tokenIntel.entry.inflection,
      });
      check(pillars.coiling === (a.tokenInflection.state === 'coiling'), 'coiling pillar ⇔ inflection coiling', token, { pillar: pillars.coiling, state: a.tokenInflection.state });
      check(a.tokenRisk.risk === a.tokenIntel.risk.band && a.tokenChanges.current.risk === a.tokenRisk.risk && (moverOf.get(token)?.risk ?? a.tokenRisk.risk) === a.tokenRisk.risk, 'one risk band', token, {
        risk: a.tokenRisk.risk,
        intel: a.tokenIntel.risk.band,
      });
      check(a.tokenChanges.current.momentum === a.tokenIntel.momentum.band, 'one momentum band', token, { changes: a.tokenChanges.current.momentum, intel: a.tokenIntel.momentum.band });
      check(signal !== 'BUY' || a.tokenRisk.risk === 'low' || a.tokenRisk.risk === 'moderate', 'BUY only with low or moderate risk', token, { signal, risk: a.tokenRisk.risk });

      // 9. every change token-changes reports ends where the current answers are
      const now: Record<string, unknown> = {
        verdict,
        signal,
        risk: a.tokenRisk.risk,
        'flags.rug': SEVERITY_OF_FLAG(a.tokenRisk, 'rug'),
        'flags.honeypot': SEVERITY_OF_FLAG(a.tokenRisk, 'honeypot'),
        'flags.concentration': SEVERITY_OF_FLAG(a.tokenRisk, 'concentration'),
        liquidity: a.tokenRisk.signals.liquidity,
        momentum: a.tokenIntel.momentum.band,
        inflection: a.tokenInflection.state,
        'holders.trend': a.tokenHoldersInsight.trend.direction,
        exitRisk: a.exitRisk.exitRisk,
        valuation: a.tokenValuation.stance,
        pillarsLit: a.tokenSignal.pillarsLit,
      };
      for (const c of a.tokenChanges.changes as J[]) {
        check(c.from !== c.to, 'a reported change changed something', token, c);
        if (c.metric in now) check(c.to === now[c.metric], `token-changes ${c.metric} ends at the current answer`, token, { change: c, current: now[c.metric] });
      }

      // 10. texts: one grammatical sentence, no digits beyond the symbol's
      const sym = (a.tokenIntel.symbol as string | null) ?? '';
      for (const [where, text] of [
        ['rationale', a.tokenSignal.rationale],
        ['thesis', a.tokenNarrative.thesis],
        ['headline', a.tokenChanges.headline],
        ['summary', a.tokenPriceAction.summary],
      ] as const) {
        const t = String(text);
        check(/^[A-Z0-9$]/.test(t) && /[.]$/.test(t) && t.split(/[.!?](\s|$)/).filter((x) => x && x.trim()).length === 1, `${where} is one sentence`, token, t);
        check(!/\d/.test(sym ? t.split(sym).join('') : t), `${where} carries no numbers`, token, t);
        check(!/\b(a|an) (BUY|ACCUMULATE|HOLD|AVOID)\b|\bnow AVOID and\b/.test(t), `${where} is not a filled-in template`, token, t);
      }

      // 11. token-overview's slots are the single operations' answers
      for (const name of (Object.keys(SINGLE) as Single[]).filter((n) => n !== 'tokenRisk')) {
        check(JSON.stringify(stable(a.overview[name] as J)) === JSON.stringify(stable(a[name])), `token-overview.${name} = ${name}`, token, { overview: a.overview[name], single: a[name] });
      }
      check(Array.isArray(a.overview.failed) && a.overview.failed.length === 0, 'token-overview has no failed slot', token, a.overview.failed);
    }
    expect(violations.slice(0, 30), `${violations.length} violations`).toEqual([]);
  });

  it('writes different rationales for tokens with different reasons', () => {
    const bySignal = new Map<string, Set<string>>();
    for (const a of answers.values()) {
      const set = bySignal.get(a.tokenSignal.signal) ?? new Set<string>();
      // the reason, without the subject
      set.add(String(a.tokenSignal.rationale).replace(String(a.tokenIntel.symbol), 'X'));
      bySignal.set(a.tokenSignal.signal, set);
    }
    const distinct = new Set([...bySignal.values()].flatMap((s) => [...s]));
    expect(distinct.size).toBeGreaterThan(Math.min(5, answers.size / 4));
    expect(bySignal.size).toBeGreaterThan(1);
  });
});
