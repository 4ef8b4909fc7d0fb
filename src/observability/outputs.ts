/**
 * The statistics' outputs, which the main thread alone runs: the statsd sink and the Prometheus
 * page with its statsd mapping. Kept out of index.ts so that no other thread loads their libraries.
 */
export { StatsdSink } from './sinks/statsd-sink.js';
export { PrometheusExposition } from './prometheus/exposition.js';
export { StatsdMapping, MappingError } from './prometheus/statsd-mapping.js';
export { DEFAULT_MAPPING_YAML } from './prometheus/default-mapping.js';
