/**
 * The routes `npm run bench` drives, one autocannon run each. Add the alert (`/api/v2/...`)
 * and score (`/v2/...`) routes here when they exist; nothing else needs to change.
 */
import { BENCH_BODY } from './bench-request.js';

export interface BenchRoute {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Statuses that count as correct answers; anything else is reported as unexpected. */
  expectedStatuses: readonly number[];
}

export const ROUTES: readonly BenchRoute[] = [
  {
    name: 'ratelimit /json',
    method: 'POST',
    path: '/json',
    headers: { 'content-type': 'application/json' },
    body: BENCH_BODY,
    // The bench config allows 1e9 per second: a 429 here would be a bug, so only 200 is expected.
    expectedStatuses: [200],
  },
];
