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

function templateText(kind: TextKind, req: WriterRequest): string {
  const f = req.facts;
  const s = req.subject;
  switch (`${kind}:${req.operation}`) {
    case 'rationale:token-signal': {
      const pillars = list(f.pillars);
      const flags = list(f.redFlags);
      const why =
        flags.length > 0
          ? `red flags on ${joinWords(flags)}`
          : pillars.length > 0
            ? `${joinWords(pillars)} ${pillars.length === 1 ? 'pillar' : 'pillars'} lit`
            : 'no conviction pillar lit';
      return `${s} is a ${str(f.signal)} with ${level(Number(f.conviction ?? 0))} conviction: ${why}, ${str(f.risk, 'unknown')} risk.`;
    }
    case 'thesis:token-narrative':
      return `${s} looks ${str(f.stance, 'fair')}: ${str(f.momentum, 'flat')} momentum, ${str(f.turnover, 'low')} turnover, holders ${str(f.holderTrend, 'flat')}${
        f.inflection ? `, currently ${str(f.inflection)}` : ''
      }.`;
    case 'headline:token-changes': {
      const changed = list(f.changed);
      if (changed.length === 0) return `${s}: no material change since the last snapshot.`;
      return `${s}: ${joinWords(changed.slice(0, 3))} changed${f.critical ? ', including a critical shift' : ''}; now ${str(f.signal)} and ${str(f.verdict)}.`;
    }
    case 'summary:token-price-action':
      return `${s} trends ${str(f.trend, 'sideways')} with ${str(f.structure, 'mixed')} structure and ${str(f.volatility, 'low')} volatility${
        f.breakout && f.breakout !== 'none' ? `, breaking ${f.breakout === 'above-range' ? 'above' : 'below'} its range` : ''
      }.`;
    default:
      return generic(kind, req);
  }
}

export function createTemplateWriter(): Writer {
  const make = (kind: TextKind) => async (req: WriterRequest) => oneLine(templateText(kind, req));
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
