/**
 * The process's Prometheus metrics over prom-client: counters kept here, gauges read from
 * providers at scrape time (ingest cursors, engine lag), rendered at `/metrics`. Each thread keeps
 * its own registry; the API thread's scrape aggregates the other thread's families into its own
 * (prom-client's AggregatorRegistry, as for a cluster's workers), so one scrape sees the process.
 */
import { AggregatorRegistry, Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

interface Sample {
  labels: Labels;
  value: number;
}

/** one metric family as collected (prom-client's JSON form): what another thread's registry hands over */
export type Family = Awaited<ReturnType<Registry['getMetricsAsJSON']>>[number];

export interface Metrics {
  inc(name: string, labels?: Labels, by?: number): void;
  /** a gauge family computed at scrape time; its samples carry exactly the `labelNames` */
  gauge(name: string, help: string, labelNames: readonly string[], read: () => Promise<Sample[]> | Sample[]): void;
  /** run before each render (counts kept elsewhere are folded in) */
  onScrape(fn: () => void): void;
  /**
   * families kept elsewhere (another thread's registry), rendered with these: a counter both
   * keep sums per label set, a gauge's sample kept here wins over the same labels kept there
   */
  include(collect: () => Promise<Family[]>): void;
  /** this registry's families, with what it includes */
  collect(): Promise<Family[]>;
  render(): Promise<string>;
}

export function createMetrics(help: Record<string, string> = {}): Metrics {
  // this thread's registry: prom-client's Registry types its entries as plain objects without get()
  const families = new Map<string, Counter | Gauge>();
  const scrapes: (() => void)[] = [];
  const included: (() => Promise<Family[]>)[] = [];

  /** every family here and included; a family whose reading fails is left out of this scrape */
  async function aggregated(): Promise<Registry> {
    for (const fn of scrapes) fn();
    const mine = await Promise.all([...families.values()].map((m): Promise<Family | undefined> => m.get().catch(() => undefined)));
    const theirs = await Promise.all(included.map((other) => other().catch((): Family[] => [])));
    // the first registry's value of a gauge wins ('first' aggregator), so this one comes first
    return AggregatorRegistry.aggregate([mine.filter((f) => f !== undefined), ...theirs]);
  }

  return {
    inc(name, labels = {}, by = 1) {
      let counter = families.get(name);
      if (!(counter instanceof Counter)) {
        counter = new Counter({ name, help: help[name] ?? name, labelNames: Object.keys(labels), registers: [] });
        families.set(name, counter);
      }
      counter.inc(labels, by);
    },
    gauge(name, h, labelNames, read) {
      // registering a family again replaces it (a job runner restarted over the same registry)
      const gauge = new Gauge({
        name,
        help: h,
        labelNames,
        registers: [],
        aggregator: 'first',
        async collect(this: Gauge) {
          const samples = await read();
          this.reset();
          for (const s of samples) this.set(s.labels, s.value);
        },
      });
      families.set(name, gauge);
    },
    onScrape(fn) {
      scrapes.push(fn);
    },
    include(fn) {
      included.push(fn);
    },
    async collect() {
      return (await aggregated()).getMetricsAsJSON();
    },
    async render() {
      return (await aggregated()).metrics();
    },
  };
}
