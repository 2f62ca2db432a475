/**
 * A small Prometheus registry: counters kept here, gauges read from providers at scrape time
 * (ingest cursors, engine lag), rendered in the text exposition format at `/metrics`.
 */
type Labels = Record<string, string>;

interface Sample {
  labels: Labels;
  value: number;
}

export interface Metrics {
  inc(name: string, labels?: Labels, by?: number): void;
  /** a gauge family computed at scrape time */
  gauge(name: string, help: string, read: () => Promise<Sample[]> | Sample[]): void;
  /** run before each render (counts kept elsewhere are folded in) */
  onScrape(fn: () => void): void;
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
    async render() {
      for (const fn of scrapes) fn();
      const out: string[] = [];
      for (const [name, family] of counters) {
        out.push(`# HELP ${name} ${help[name] ?? name}`, `# TYPE ${name} counter`);
        for (const s of family.values()) out.push(`${name}${fmtLabels(s.labels)} ${s.value}`);
      }
      for (const [name, g] of gauges) {
        let samples: Sample[] = [];
        try {
          samples = await g.read();
        } catch {
          continue;
        }
        out.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`);
        for (const s of samples) out.push(`${name}${fmtLabels(s.labels)} ${s.value}`);
      }
      return out.join('\n') + '\n';
    },
  };
}
