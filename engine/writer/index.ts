import type { Config } from '../../infra/config.ts';

/**
 * The Writer: one sentence of prose (rationale, thesis, headline, summary) over signals the engine
 * computed. The template writer is deterministic and the default; the OpenAI-compatible writer
 * asks a model and falls back to the template on error, timeout or a reply that breaks the rules
 * (more than one line, or digits that could be leaked raw data).
 */

export type FactValue = string | number | boolean | null | readonly string[];

export interface WriterRequest {
  /** the operation the text is for, e.g. `token-signal`, `conviction-board` */
  operation: string;
  /** what the text is about: a token symbol, a wallet label, a chain */
  subject: string;
  /** computed signals: bands, verdicts, lists of lit pillars or flags; numbers are scores */
  facts: Readonly<Record<string, FactValue>>;
}

export interface Writer {
  /** why a signal or verdict (token-signal) */
  rationale(req: WriterRequest): Promise<string>;
  /** the stance in one sentence (token-narrative) */
  thesis(req: WriterRequest): Promise<string>;
  /** what changed or what leads a board (token-changes, radar, conviction board) */
  headline(req: WriterRequest): Promise<string>;
  /** a description of a state (token-price-action, wallet pages) */
  summary(req: WriterRequest): Promise<string>;
}

export type TextKind = keyof Writer;

// ---------------------------------------------------------------------------------------------
// template writer

/** A score 0-100 as a word, so texts never carry numbers. */
export function level(score: number): string {
  return score >= 70 ? 'high' : score >= 40 ? 'moderate' : 'low';
}

function str(f: FactValue | undefined, fallback = ''): string {
  if (f === undefined || f === null) return fallback;
  if (Array.isArray(f)) return f.join(', ');
  if (typeof f === 'number') return level(f);
  return String(f);
}

function list(f: FactValue | undefined): string[] {
  return Array.isArray(f) ? [...(f as readonly string[])] : [];
}

function joinWords(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function generic(kind: TextKind, req: WriterRequest): string {
  const parts = Object.entries(req.facts)
    .filter(([, v]) => v !== null && typeof v !== 'number' && !(Array.isArray(v) && v.length === 0))
    .slice(0, 4)
    .map(([k, v]) => `${k.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)} ${str(v)}`);
  const body = parts.length > 0 ? parts.join('; ') : 'no notable signals yet';
  return `${req.subject}: ${body}.`.replace(/^: /, kind === 'headline' ? 'Update: ' : '');
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
/** A small count as a word (texts never carry digits). */
export function countWord(n: number): string {
  return NUMBER_WORDS[n] ?? 'many';
}

const HOURS_WORDS: Record<number, string> = {
  1: 'hour',
  2: 'two hours',
  3: 'three hours',
  4: 'four hours',
  6: 'six hours',
  12: 'twelve hours',
  24: 'day',
  48: 'two days',
  72: 'three days',
  120: 'five days',
  168: 'week',
};
function hoursWord(h: FactValue | undefined): string {
  const n = Number(h);
  return HOURS_WORDS[n] ?? (n % 24 === 0 ? `${countWord(n / 24)} days` : `${countWord(n)} hours`);
}
const RESOLUTION_WORDS: Record<string, string> = { '5m': 'five-minute', '15m': 'fifteen-minute', '1h': 'hourly', '4h': 'four-hour' };
const SIGNAL_LEAD: Record<string, string> = { BUY: 'is a buy', ACCUMULATE: 'is one to accumulate', HOLD: 'is a hold', AVOID: 'is one to avoid' };
const STANCE_WORDS: Record<string, string> = { undervalued: 'undervalued', fair: 'fairly valued', stretched: 'stretched' };
const STRUCTURE_WORDS: Record<string, string> = {
  'higher-lows': 'making higher lows',
  'lower-highs': 'making lower highs',
  range: 'holding a tight range',
  mixed: 'without a clear structure',
};
const TREND_WORDS: Record<string, string> = { up: 'trends up', down: 'trends down', sideways: 'moves sideways' };

function capitalise(t: string): string {
  return t.length > 0 ? t[0]!.toUpperCase() + t.slice(1) : t;
}

function templateText(kind: TextKind, req: WriterRequest): string {
  const f = req.facts;
  const s = req.subject;
  switch (`${kind}:${req.operation}`) {
    case 'rationale:token-signal': {
      // facts.reasons: the two or three signals that decided it; facts.caveat: what held it back
      const reasons = list(f.reasons).slice(0, 3);
      const lead = SIGNAL_LEAD[str(f.signal)] ?? `is rated ${str(f.signal).toLowerCase()}`;
      const why = reasons.length > 0 ? ` because ${joinWords(reasons)}` : '';
      const caveat = f.caveat ? `, but ${str(f.caveat)}` : '';
      return `${s} ${lead} with ${level(Number(f.conviction ?? 0))} conviction${why}${caveat}.`;
    }
    case 'thesis:token-narrative': {
      const reasons = list(f.reasons).slice(0, 3);
      const stance = STANCE_WORDS[str(f.stance)] ?? str(f.stance, 'fairly valued');
      return `${s} looks ${stance}${reasons.length > 0 ? ` because ${joinWords(reasons)}` : ''}.`;
    }
    case 'headline:token-changes': {
      const changed = list(f.changes);
      if (f.movedTo) {
        const to = str(f.movedTo);
        const lead = to === 'buy' || to === 'hold' ? `became a ${to}` : `moved to ${to}`;
        return `${s} ${lead}${changed.length > 0 ? ` as ${joinWords(changed.slice(0, 2))}` : ''}.`;
      }
      if (changed.length === 0) return `${s} has not changed materially since the snapshot an hour earlier.`;
      return `${s}: ${joinWords(changed.slice(0, 3))}.`;
    }
    case 'summary:token-price-action': {
      const span =
        f.hours === undefined || f.resolution === undefined
          ? ''
          : `over the last ${hoursWord(f.hours)} of ${RESOLUTION_WORDS[str(f.resolution)] ?? str(f.resolution)} bars`;
      if (f.enoughBars === false) return `${s} has too few bars ${span || 'yet'} for a reading.`;
      const breakout = f.breakout && f.breakout !== 'none' ? `, breaking ${f.breakout === 'above-range' ? 'above' : 'below'} its range` : '';
      return `${span ? `${capitalise(span)}, ` : ''}${s} ${TREND_WORDS[str(f.trend)] ?? 'moves sideways'}, ${STRUCTURE_WORDS[str(f.structure)] ?? 'without a clear structure'}, with ${str(
        f.volatility,
        'low',
      )} volatility${breakout}.`;
    }
    case 'headline:conviction-board': {
      if (f.leader === null || f.leader === undefined) return `No ${s} token has enough conviction to make the board yet.`;
      return `${str(f.leader)} leads the ${s} conviction board as a ${str(f.leaderSignal, 'hold').toLowerCase()} with ${countWord(Number(f.leaderPillarsLit ?? 0))} of six pillars lit.`;
    }
    case 'headline:smart-money-radar': {
      const acc = list(f.accumulating);
      if (acc.length === 0) return `Smart money on ${s} is not accumulating any token over the last ${hoursWord(f.windowHours)}.`;
      return `Smart money on ${s} is accumulating ${joinWords(acc.slice(0, 3))}${acc.length > 3 ? ' among others' : ''} over the last ${hoursWord(f.windowHours)}.`;
    }
    case 'summary:portfolio-risk': {
      const flagged = list(f.flaggedTokens);
      if (f.concentration === 'none') return `${s} has no open position to put at risk.`;
      const book = f.concentration === 'concentrated' ? 'a concentrated book' : f.concentration === 'moderate' ? 'a moderately concentrated book' : 'a diversified book';
      const exposure = flagged.length > 0 ? `, exposed to flagged ${joinWords(flagged.slice(0, 2))}${flagged.length > 2 ? ' among others' : ''}` : '';
      return `${s} carries ${str(f.risk, 'unknown')} risk in ${book}${exposure}.`;
    }
    case 'summary:wallet-analyze': {
      const strengths = list(f.strengths).filter((x) => !/\d/.test(x));
      const weaknesses = list(f.weaknesses).filter((x) => !/\d/.test(x));
      const style = f.style ? ` ${str(f.style)}` : '';
      const good = strengths.length > 0 ? ` with ${joinWords(strengths.slice(0, 2))}` : '';
      const bad = weaknesses.length > 0 ? `${good ? ', but' : ' and'} ${joinWords(weaknesses.slice(0, 2))}` : '';
      return `${s} is a${/^ [aeiou]/.test(style) ? 'n' : ''}${style} trader graded ${str(f.grade, 'unrated')}${good}${bad}.`;
    }
    case 'rationale:copy-decision': {
      const failed = list(f.failed);
      const verdict = str(f.verdict, 'unrated');
      if (failed.length === 0) return `${s} is ${verdict} to mirror: every gate passes.`;
      return `${s} is ${verdict} to mirror because the ${joinWords(failed.slice(0, 3))} ${failed.length === 1 ? 'gate fails' : 'gates fail'}.`;
    }
    case 'headline:trader-board':
      if (!f.mostHeldBySmartMoney) return `No token on ${s} is held by several mirror-worthy traders yet.`;
      return `${str(f.mostHeldBySmartMoney)} is the token most held by mirror-worthy traders on ${s}${f.leaderStyle ? `, where the top trader is a ${str(f.leaderStyle)} trader` : ''}.`;
    case 'summary:market-regime':
      return `The ${s} market is ${str(f.regime, 'neutral')}, with ${str(f.breadth, 'low')} breadth and ${str(f.volatility, 'low')} volatility.`;
    default:
      return generic(kind, req);
  }
}

/** The template writer's text, synchronously: what the engine writes into snapshots. */
export function writeTemplate(kind: TextKind, req: WriterRequest): string {
  return oneLine(templateText(kind, req));
}

export function createTemplateWriter(): Writer {
  const make = (kind: TextKind) => async (req: WriterRequest) => writeTemplate(kind, req);
  return { rationale: make('rationale'), thesis: make('thesis'), headline: make('headline'), summary: make('summary') };
}

function oneLine(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}

/**
 * Accept a model's reply only if it is one short sentence without digits (other than those in the
 * subject, e.g. a symbol like `PEPE2`): numbers in prose could leak raw provider data.
 */
export function acceptable(text: string, subject: string): string | null {
  const t = oneLine(text).replace(/^["'“]+|["'”]+$/g, '');
  if (t.length < 8 || t.length > 320) return null;
  if (/[\r\n]/.test(text.trim())) return null;
  const withoutSubject = subject ? t.split(subject).join('') : t;
  if (/\d/.test(withoutSubject)) return null;
  return t;
}

// ---------------------------------------------------------------------------------------------
// OpenAI-compatible writer

export interface OpenAIWriterOptions {
  /** base URL up to and including the version, e.g. `https://api.openai.com/v1` */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  /** injectable for tests; defaults to the global fetch */
  fetch?: typeof fetch;
}

const SYSTEM = [
  'You write exactly one plain sentence for a crypto intelligence API.',
  'Use only the signals given. Never write numbers, digits, prices, amounts or addresses.',
  'No markdown, no quotes, no advice disclaimers.',
].join(' ');

const KIND_HINT: Record<TextKind, string> = {
  rationale: 'Explain why the signal was given.',
  thesis: 'State the investment stance as a thesis.',
  headline: 'Write a headline of what changed or what leads.',
  summary: 'Summarise the state described.',
};

/** Facts as the model sees them: numbers (scores) become words, like in the templates. */
function factsForModel(facts: WriterRequest['facts']): Record<string, string | boolean | string[] | null> {
  const out: Record<string, string | boolean | string[] | null> = {};
  for (const [k, v] of Object.entries(facts)) out[k] = typeof v === 'number' ? level(v) : Array.isArray(v) ? [...v] : (v as string | boolean | null);
  return out;
}

export function createOpenAIWriter(opts: OpenAIWriterOptions, fallback: Writer = createTemplateWriter()): Writer {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeoutMs = opts.timeoutMs ?? 3000;
  const doFetch = opts.fetch ?? fetch;

  async function ask(kind: TextKind, req: WriterRequest): Promise<string> {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), timeoutMs);
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: opts.model,
          temperature: 0.2,
          max_tokens: 80,
          messages: [
            { role: 'system', content: SYSTEM },
            {
              role: 'user',
              content: `${KIND_HINT[kind]} Operation: ${req.operation}. Subject: ${req.subject}. Signals: ${JSON.stringify(factsForModel(req.facts))}`,
            },
          ],
        }),
        signal: ac.signal,
      });
      if (!res.ok) throw new Error(`writer endpoint answered ${res.status}`);
      const body = (await res.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new Error('writer endpoint reply has no message content');
      const ok = acceptable(content, req.subject);
      if (ok === null) throw new Error('writer reply rejected');
      return ok;
    } catch {
      return fallback[kind](req);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    rationale: (r) => ask('rationale', r),
    thesis: (r) => ask('thesis', r),
    headline: (r) => ask('headline', r),
    summary: (r) => ask('summary', r),
  };
}

/** The configured writer: the OpenAI-compatible one when WRITER_URL is set, else the template. */
export function createWriterFromConfig(config: Pick<Config, 'WRITER_URL' | 'WRITER_API_KEY' | 'WRITER_MODEL'>): Writer {
  const template = createTemplateWriter();
  if (!config.WRITER_URL) return template;
  return createOpenAIWriter({ baseUrl: config.WRITER_URL, apiKey: config.WRITER_API_KEY, model: config.WRITER_MODEL }, template);
}
