/**
 * The mapping upstream's Prometheus sink uses unless PROMETHEUS_MAPPER_YAML names another
 * (statsd_exporter's format), so dashboards built for upstream find the same metric names and
 * labels: the rule statistics of a two-level key by glob, of deeper keys by regex (domain and the
 * first two levels as labels), errors, the gRPC server's requests and response times, and loads.
 */
const RULE_STATS = ['near_limit', 'over_limit', 'total_hits', 'within_limit', 'shadow_mode'];

function twoLevel(stat: string): string {
  return `  - match: "ratelimit.service.rate_limit.*.*.${stat}"
    name: "ratelimit_service_rate_limit_${stat}"
    timer_type: "histogram"
    labels:
      domain: "$1"
      key1: "$2"
`;
}

function deeper(stat: string): string {
  return `  - match: "ratelimit\\\\.service\\\\.rate_limit\\\\.([^\\\\.]*)\\\\.([^\\\\.]*)\\\\.([^\\\\.]*)(\\\\..*)?\\\\.${stat}"
    match_type: regex
    name: "ratelimit_service_rate_limit_${stat}"
    timer_type: "histogram"
    labels:
      domain: "$1"
      key1: "$2"
      key2: "$3"
`;
}

export const DEFAULT_MAPPING_YAML = `mappings:
${RULE_STATS.map(twoLevel).join('')}${RULE_STATS.map(deeper).join('')}  - match: "ratelimit.service.call.should_rate_limit.*"
    name: "ratelimit_service_should_rate_limit_error"
    match_metric_type: counter
    labels:
      err_type: "$1"
  - match: "ratelimit_server.*.total_requests"
    name: "ratelimit_service_total_requests"
    match_metric_type: counter
    labels:
      grpc_method: "$1"
  - match: "ratelimit_server.*.response_time"
    name: "ratelimit_service_response_time_seconds"
    timer_type: histogram
    labels:
      grpc_method: "$1"
  - match: "ratelimit.service.config_load_success"
    name: "ratelimit_service_config_load_success"
    match_metric_type: counter
  - match: "ratelimit.service.config_load_error"
    name: "ratelimit_service_config_load_error"
    match_metric_type: counter
`;
