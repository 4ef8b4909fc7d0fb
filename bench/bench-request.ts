/**
 * The one request every benchmark sends and the config that answers it with 200 (domain `bench`,
 * one descriptor `service=api, user=bench-user`, limited to 1,000,000,000 per second so no run
 * ever reaches 429). Constants only: the bare servers and the peer import them, and must load
 * nothing of the service's.
 */
export const BENCH_DOMAIN = 'bench';
export const BENCH_LIMIT_PER_SECOND = 1_000_000_000;

export const BENCH_REQUEST = {
  domain: BENCH_DOMAIN,
  descriptors: [{ entries: [{ key: 'service', value: 'api' }, { key: 'user', value: 'bench-user' }] }],
};

/** The JSON body of `POST /json`. */
export const BENCH_BODY = JSON.stringify(BENCH_REQUEST);

export const BENCH_CONFIG_YAML = `domain: ${BENCH_DOMAIN}
descriptors:
  - key: service
    value: api
    descriptors:
      - key: user
        rate_limit:
          unit: second
          requests_per_unit: ${BENCH_LIMIT_PER_SECOND}
`;
