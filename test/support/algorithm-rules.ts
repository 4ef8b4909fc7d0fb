/** Rules with several limits, a sliding window and token buckets, for the engine and end-to-end tests. */
export const ALGORITHM_RULES = `
domain: algorithms
descriptors:
  - key: multi
    rate_limit: {unit: second, requests_per_unit: 3}
    rate_limits:
      - {unit: minute, requests_per_unit: 5}
  - key: sliding
    rate_limit: {unit: minute, requests_per_unit: 10, algorithm: sliding_window}
  - key: bucket
    rate_limit: {unit: second, requests_per_unit: 4, algorithm: token_bucket}
  - key: daily
    rate_limits:
      - {unit: second, requests_per_unit: 10, algorithm: token_bucket}
      - {unit: day, requests_per_unit: 12}
`;

/** A minute boundary: 1_700_000_100 % 60 === 0. */
export const MINUTE_START = 1_700_000_100;
