/**
 * A small Prometheus registry: counters kept here, gauges read from providers at scrape time
 * (ingest cursors, engine lag), rendered in the text exposition format at `/metrics`.
 */
type Labels = Record<string, string>;

interface Sample {
  labels: Labels;
  value: number;
}

/** one metric family as collected: what another thread's registry hands over to be rendered here */
export interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples: Sample[];
}

export interface Metrics {
  inc(name: string, labels?: Labels, by?: number): void;
  /** a gauge family computed at scrape time */
  gauge(name: string, help: string, read: () => Promise<Sample[]> | Sample[]): void;
  /** run before each render (counts kept elsewhere are folded in) */
  onScrape(fn: () => void): void;
  /**
   * families kept elsewhere (another thread's registry), rendered with these: a counter both
   * keep sums per label set, a gauge family kept here wins
   */
  include(collect: () => Promise<Family[]>): void;
  /** this registry's families, with what it includes */
  collect(): Promise<Family[]>;
  render(): Promise<string>;
}

function fmtLabels(l: Labels): string {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

export function createMetrics(help: Record<string, string> = {}): Metrics {
  const counters = new Map<string, Map<string, Sample>>();
  const gauges = new Map<string, { help: string; read: () => Promise<Sample[]> | Sample[] }>();
  const scrapes: (() => void)[] = [];
  const included: (() => Promise<Family[]>)[] = [];

  async function collect(): Promise<Family[]> {
    for (const fn of scrapes) fn();
    const out = new Map<string, Family>();
    for (const [name, family] of counters) out.set(name, { name, help: help[name] ?? name, type: 'counter', samples: [...family.values()].map((s) => ({ labels: s.labels, value: s.value })) });
    for (const [name, g] of gauges) {
      try {
        out.set(name, { name, help: g.help, type: 'gauge', samples: await g.read() });
      } catch {
        continue;
      }
    }
    for (const other of included) {
      let families: Family[];
      try {
        families = await other();
      } catch {
        continue;
      }
      for (const f of families) {
        const mine = out.get(f.name);
        if (!mine) out.set(f.name, f);
        else if (mine.type === 'counter' && f.type === 'counter') {
          const byLabels = new Map(mine.samples.map((s) => [fmtLabels(s.labels), s]));
          for (const s of f.samples) {
            const m = byLabels.get(fmtLabels(s.labels));
            if (m) m.value += s.value;
            else mine.samples.push(s);
          }
        }
      }
    }
    return [...out.values()];
  }

  return {
    inc(name, labels = {}, by = 1) {
      const family = counters.get(name) ?? new Map<string, Sample>();
      counters.set(name, family);
      const k = fmtLabels(labels);
      const s = family.get(k) ?? { labels, value: 0 };
      s.value += by;
      family.set(k, s);
    },
    gauge(name, h, read) {
      gauges.set(name, { help: h, read });
    },
    onScrape(fn) {
      scrapes.push(fn);
    },
    include(fn) {
      included.push(fn);
    },
    collect,
    async render() {
      const out: string[] = [];
      for (const f of await collect()) {
        out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
        for (const s of f.samples) out.push(`${f.name}${fmtLabels(s.labels)} ${s.value}`);
      }
      return out.join('\n') + '\n';
    },
  };
}
