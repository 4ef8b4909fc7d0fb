import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { splitTags, type StatTag } from '../stat-tags.js';
import { TIMER_BUCKET_BOUNDS_MS, type StatsStore, type Timer } from '../stats.js';
import { DEFAULT_BUCKETS, type StatType, type StatsdMapping } from './statsd-mapping.js';

export interface ExpositionOptions {
  mapping: StatsdMapping;
  /** PROMETHEUS_RESPONSE_TIME_AS_MILLISECONDS: timers observed in milliseconds, as upstream before it converted them. */
  timersInMilliseconds: boolean;
  /** EXTRA_TAGS, as labels. */
  extraTags: readonly StatTag[];
}

type Labels = Record<string, string>;
interface Series {
  labels: Labels;
  value: number;
  /** Histograms: cumulative count per bucket bound, the sum and the count. */
  histogram?: { bounds: readonly number[]; cumulative: number[]; sum: number; count: number };
}
interface Family {
  type: 'counter' | 'gauge' | 'histogram';
  help: string;
  series: Map<string, Series>;
}

/** What prom-client's registry reads from a metric: its description and `get()`. */
interface CollectedMetric {
  name: string;
  help: string;
  type: Family['type'];
  aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: Family['type']; aggregator: 'sum'; values: Array<{ metricName?: string; labels: Labels; value: number }> }>;
}

const labelKey = (labels: Labels) => JSON.stringify(Object.entries(labels).sort());

/**
 * The `/metrics` page: the statistics store read at scrape time and mapped to metrics as upstream's
 * embedded statsd_exporter does (counters stay counters, gauges gauges, timers become histograms),
 * followed by prom-client's default process and Node.js metrics. prom-client writes the exposition
 * format; the store is the only source of values, so nothing runs per request.
 */
export class PrometheusExposition {
  /** prom-client's process metrics, set up at the first scrape: they keep observers running. */
  private processMetrics: Registry | undefined;

  constructor(private readonly options: ExpositionOptions) {}

  get contentType(): string {
    return Registry.PROMETHEUS_CONTENT_TYPE;
  }

  async render(store: StatsStore): Promise<string> {
    const families = new Map<string, Family>();
    for (const [name, value] of store.counterValues()) this.add(families, name, 'counter', (s) => (s.value += value));
    for (const [name, value] of store.gaugeValues()) this.add(families, name, 'gauge', (s) => (s.value = value));
    for (const timer of store.timerValues()) this.addTimer(families, timer);
    const registry = new Registry();
    for (const [name, family] of families) registry.registerMetric(collected(name, family) as unknown as Metric);
    const ours = families.size === 0 ? '' : await registry.metrics();
    if (this.processMetrics === undefined) {
      this.processMetrics = new Registry();
      collectDefaultMetrics({ register: this.processMetrics });
    }
    return ours + (await this.processMetrics.metrics());
  }

  private seriesOf(families: Map<string, Family>, stat: string, type: StatType): Series | undefined {
    const { base, tags } = splitTags(stat);
    const mapped = this.options.mapping.map(base, type);
    if (mapped === undefined) return undefined;
    const familyType = type === 'observer' ? 'histogram' : type;
    let family = families.get(mapped.name);
    if (family === undefined) {
      family = { type: familyType, help: mapped.help, series: new Map() };
      families.set(mapped.name, family);
    }
    // Like statsd_exporter, a name already exported as another type keeps its first type.
    if (family.type !== familyType) return undefined;
    const labels: Labels = {};
    for (const [key, value] of [...this.options.extraTags, ...tags]) labels[key] = value;
    Object.assign(labels, mapped.labels);
    const key = labelKey(labels);
    let series = family.series.get(key);
    if (series === undefined) {
      series = { labels, value: 0 };
      if (type === 'observer') {
        const bounds = mapped.buckets ?? DEFAULT_BUCKETS;
        series.histogram = { bounds, cumulative: new Array<number>(bounds.length).fill(0), sum: 0, count: 0 };
      }
      family.series.set(key, series);
    }
    return series;
  }

  private add(families: Map<string, Family>, stat: string, type: 'counter' | 'gauge', apply: (series: Series) => void): void {
    const series = this.seriesOf(families, stat, type);
    if (series !== undefined) apply(series);
  }

  /**
   * A sample is in an `le` bucket when its timer bucket's upper bound is at most `le`, which is
   * exact for bounds the timer buckets share (every default bound) and rounds down otherwise.
   */
  private addTimer(families: Map<string, Family>, timer: Timer): void {
    const histogram = this.seriesOf(families, timer.name, 'observer')?.histogram;
    if (histogram === undefined) return;
    const scale = this.options.timersInMilliseconds ? 1 : 1 / 1000;
    for (let i = 0; i < timer.bucketCounts.length; i++) {
      const count = timer.bucketCounts[i] as number;
      if (count === 0) continue;
      const upper = i < TIMER_BUCKET_BOUNDS_MS.length ? (TIMER_BUCKET_BOUNDS_MS[i] as number) * scale : Infinity;
      histogram.bounds.forEach((le, j) => {
        if (upper <= le) (histogram.cumulative[j] as number) += count;
      });
      histogram.count += count;
      histogram.sum += (timer.bucketSumsMs[i] as number) * scale;
    }
  }
}

function collected(name: string, family: Family): CollectedMetric {
  const values: Array<{ metricName?: string; labels: Labels; value: number }> = [];
  for (const series of family.series.values()) {
    const h = series.histogram;
    if (h === undefined) {
      values.push({ labels: series.labels, value: series.value });
      continue;
    }
    h.bounds.forEach((le, j) => values.push({ metricName: `${name}_bucket`, labels: { ...series.labels, le: String(le) }, value: h.cumulative[j] as number }));
    values.push({ metricName: `${name}_bucket`, labels: { ...series.labels, le: '+Inf' }, value: h.count });
    values.push({ metricName: `${name}_sum`, labels: series.labels, value: h.sum });
    values.push({ metricName: `${name}_count`, labels: series.labels, value: h.count });
  }
  const description = { name, help: family.help, type: family.type, aggregator: 'sum' as const };
  return { ...description, get: () => Promise.resolve({ ...description, values }) };
}
