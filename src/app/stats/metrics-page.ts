import { readFile } from 'node:fs/promises';
import type { StatsStore } from '../../observability/index.js';
import { DEFAULT_MAPPING_YAML, MappingError, StatsdMapping, type PrometheusExposition } from '../../observability/prometheus/index.js';
import type { Settings } from '../../settings/index.js';
import type { MetricsPage } from '../../transports/debug/index.js';

/**
 * The Prometheus page of the statistics, served at `/metrics` on the debug port and, with
 * USE_PROMETHEUS, on PROMETHEUS_ADDR. A PROMETHEUS_MAPPER_YAML that cannot be read or is not a
 * valid mapping stops the start with a message naming the file.
 */
export async function createMetricsPage(settings: Settings, stats: StatsStore, refresh: () => Promise<void>): Promise<() => Promise<MetricsPage>> {
  let yaml = DEFAULT_MAPPING_YAML;
  const file = settings.prometheusMapperYaml;
  if (file !== '') {
    try {
      yaml = await readFile(file, 'utf8');
    } catch (error) {
      throw new Error(`PROMETHEUS_MAPPER_YAML: cannot read ${file}: ${(error as Error).message}`);
    }
  }
  let mapping: StatsdMapping;
  try {
    mapping = new StatsdMapping(yaml);
  } catch (error) {
    if (error instanceof MappingError) throw new Error(`PROMETHEUS_MAPPER_YAML ${file}: ${error.message}`);
    throw error;
  }
  // prom-client, and the OpenTelemetry API it loads, load on the first scrape: 80 modules a
  // start need not read when nothing scrapes.
  let exposition: Promise<PrometheusExposition> | undefined;
  const expositionOnce = () =>
    (exposition ??= import('../../observability/prometheus/exposition.js').then(
      ({ PrometheusExposition }) =>
        new PrometheusExposition({ mapping, timersInMilliseconds: settings.prometheusResponseTimeAsMilliseconds, extraTags: settings.extraTags }),
    ));
  return async () => {
    const page = await expositionOnce();
    await refresh();
    return { contentType: page.contentType, body: await page.render(stats) };
  };
}
