import type { TokenChange, TokenSnapshot } from '../../schemas/token.ts';
import { DepthBand, RiskBand } from '../../schemas/token.ts';
import type { WriterRequest } from '../writer/index.ts';
import { writeTemplate } from '../writer/index.ts';

/**
 * The engine's one-sentence texts of a token snapshot, each naming the two or three signals that
 * decided it. The requests are built here once: the template writer phrases them into the
 * snapshot; a configured model writer rephrases the same requests (runtime), never other facts.
 */

const RED_FLAG_PHRASES = {
  rug: 'its liquidity was pulled',
  concentration: 'a few wallets hold most of its supply',
} as const;

function honeypotPhrase(s: TokenSnapshot): string {
  return /tax/i.test(s.risk.flags.honeypot.reason) ? 'its sells lose a prohibitive hidden tax' : 'outside buyers cannot sell it';
}

function redFlagReasons(s: TokenSnapshot): string[] {
  const f = s.risk.flags;
  const out: string[] = [];
  if (f.rug.severity === 'red') out.push(RED_FLAG_PHRASES.rug);
  if (f.honeypot.severity === 'red') out.push(honeypotPhrase(s));
  if (f.concentration.severity === 'red') out.push(RED_FLAG_PHRASES.concentration);
  return out;
}

export interface SignalContext {
  /** quiet accumulation seen (a setup) */
  accumulating: boolean;
  /** the 24 h rise is past the point where a BUY would chase it */
  extended: boolean;
}

/** The signals that decided a token's signal, strongest first, and what held it back. */
export function signalReasons(s: TokenSnapshot, ctx: SignalContext): { reasons: string[]; caveat: string | null } {
  if (s.signal.value === 'AVOID') {
    const red = redFlagReasons(s);
    if (red.length > 0) return { reasons: red, caveat: null };
    const reasons = ['its risk is extreme'];
    if (s.exit.band === 'extreme') reasons.push('exiting would move its price hard');
    if (s.risk.signals.liquidityBand === 'thin') reasons.push('its pool is thin');
    return { reasons, caveat: null };
  }
  const p = s.pillars;
  const setups: string[] = [];
  if (p.coiling) setups.push('it is coiling in a tight range');
  if (ctx.accumulating) setups.push('holders are accumulating quietly');
  if (p.smartMoney) setups.push('smart money is buying');
  const others: string[] = [];
  if (p.lowExit) others.push('exits are cheap');
  if (p.organic) others.push('its flow is organic');
  if (p.momentum) others.push('momentum is rising');
  if (p.structure) others.push('it holds higher lows above its breakout');
  const reasons = [...setups, ...others].slice(0, 3);
  let caveat: string | null = null;
  if (s.signal.value !== 'BUY') {
    if (s.risk.band === 'high' || s.risk.band === 'extreme') caveat = `its risk is ${s.risk.band}`;
    else if (ctx.extended) caveat = 'it has already run up';
    else if (setups.length === 0) caveat = reasons.length > 0 ? 'no setup has formed yet' : null;
    else caveat = 'the setup is not confirmed yet';
  }
  if (reasons.length === 0 && caveat === null) caveat = 'nothing stands out yet';
  return { reasons, caveat };
}

/** The signals behind a valuation stance. */
export function stanceReasons(s: TokenSnapshot): string[] {
  const red = redFlagReasons(s);
  if (red.length > 0) return red;
  const v = s.valuation;
  const ch24 = s.momentum.priceChange24hPct;
  const out: string[] = [];
  if (v.stance === 'stretched') {
    if (v.holderGrowthVsPricePct !== null && v.holderGrowthVsPricePct <= -20) out.push('its price ran far ahead of its holder growth');
    if (v.distanceFromHighPct !== null && v.distanceFromHighPct >= -5) out.push('it trades at its weekly high');
    if (v.turnoverBand === 'high') out.push('turnover is heavy');
    if (out.length === 0 && ch24 !== null && ch24 > 20) out.push('it rose sharply over the day');
  } else if (v.stance === 'undervalued') {
    if (v.holderGrowthVsPricePct !== null && v.holderGrowthVsPricePct >= 20) out.push('holders grow faster than its price');
    if (v.distanceFromHighPct !== null && v.distanceFromHighPct <= -35) out.push('it trades far below its weekly high');
    if (s.holders.trend !== 'shrinking') out.push(`its holder base is ${s.holders.trend === 'growing' ? 'growing' : 'holding up'}`);
    if (v.turnoverBand !== 'high') out.push('turnover is calm');
  } else {
    out.push(`turnover is ${v.turnoverBand}`);
    out.push(s.holders.trend === 'flat' ? 'its holder base is steady' : `its holder base is ${s.holders.trend}`);
    out.push(`momentum is ${s.momentum.band}`);
  }
  return out.slice(0, 3);
}

const SIGNAL_WORDS: Record<string, string> = { BUY: 'buy', ACCUMULATE: 'accumulate', HOLD: 'hold', AVOID: 'avoid' };

function changePhrase(c: TokenChange): string {
  const to = c.to;
  const from = c.from;
  switch (c.metric) {
    case 'verdict':
      return `its verdict moved to ${String(to)}`;
    case 'signal':
      return `its signal moved to ${SIGNAL_WORDS[String(to)] ?? String(to)}`;
    case 'risk':
      return `risk ${RiskBand.options.indexOf(to as RiskBand) > RiskBand.options.indexOf(from as RiskBand) ? 'rose' : 'eased'} to ${String(to)}`;
    case 'flags.rug':
    case 'flags.honeypot':
    case 'flags.concentration': {
      const flag = c.metric.slice('flags.'.length);
      return to === 'red' ? `its ${flag} flag went red` : to === 'warning' ? `its ${flag} flag shows a warning` : `its ${flag} flag cleared`;
    }
    case 'liquidity':
      return `liquidity ${DepthBand.options.indexOf(to as DepthBand) < DepthBand.options.indexOf(from as DepthBand) ? 'thinned' : 'deepened'} to ${String(to)}`;
    case 'momentum':
      return `momentum turned ${String(to)}`;
    case 'inflection':
      return to === null ? `it stopped ${String(from)}` : `it started ${String(to)}`;
    case 'holders.trend':
      return `its holder base turned ${String(to)}`;
    case 'exitRisk':
      return `exit risk moved to ${String(to)}`;
    case 'valuation':
      return `it now looks ${String(to)}`;
    case 'pillarsLit':
      return Number(to) > Number(from) ? 'more conviction pillars lit up' : 'conviction pillars went dark';
    case 'priceChangePct':
      return Number(to) > 0 ? 'its price jumped' : 'its price dropped';
    case 'priceBreak':
      return to === 'above-24h-high' ? 'its price broke above the day’s high' : 'its price broke below the day’s low';
    default:
      return `${c.metric} changed`;
  }
}

const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 } as const;
/** causes before consequences: a flag or a price break explains a risk band or a signal moving */
const METRIC_ORDER = ['flags.rug', 'flags.honeypot', 'flags.concentration', 'priceBreak', 'priceChangePct', 'liquidity', 'exitRisk', 'inflection', 'momentum'];
const rank = (m: string) => {
  const i = METRIC_ORDER.indexOf(m);
  return i === -1 ? METRIC_ORDER.length : i;
};

/**
 * The facts of a token-changes headline: the signal it moved to (when it moved) and the changes
 * that explain it as phrases, causes first.
 */
export function changeFacts(items: readonly TokenChange[]): { movedTo: string | null; changes: string[] } {
  const signal = items.find((c) => c.metric === 'signal');
  const causes = items
    .filter((c) => c.metric !== 'signal' && c.metric !== 'verdict')
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || rank(a.metric) - rank(b.metric));
  const phrases = causes.map(changePhrase);
  // without a signal move, a verdict move is the news
  const verdict = items.find((c) => c.metric === 'verdict');
  if (!signal && verdict) phrases.unshift(changePhrase(verdict));
  return { movedTo: signal ? (SIGNAL_WORDS[String(signal.to)] ?? String(signal.to)) : null, changes: phrases };
}

/** The writer requests of a snapshot's texts (rationale of token-signal, thesis of token-narrative). */
export function tokenTextRequests(s: TokenSnapshot, subject: string, ctx: SignalContext): { rationale: WriterRequest; thesis: WriterRequest } {
  const why = signalReasons(s, ctx);
  return {
    rationale: {
      operation: 'token-signal',
      subject,
      facts: { signal: s.signal.value, conviction: s.signal.conviction, reasons: why.reasons, caveat: why.caveat },
    },
    thesis: { operation: 'token-narrative', subject, facts: { stance: s.valuation.stance, reasons: stanceReasons(s) } },
  };
}

export function tokenTexts(s: TokenSnapshot, subject: string, ctx: SignalContext): { rationale: string; thesis: string } {
  const r = tokenTextRequests(s, subject, ctx);
  return { rationale: writeTemplate('rationale', r.rationale), thesis: writeTemplate('thesis', r.thesis) };
}
