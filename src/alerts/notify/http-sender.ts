import type { NotifyResult } from './integration.js';

/**
 * How integrations that speak HTTP (webhook, Slack, PagerDuty, Teams) send: one POST through
 * the integration's `http_config` (basic auth, authorization or bearer token, TLS, proxy,
 * redirects). Made once per configuration load by `createHttpSender` (http-client.ts).
 */
export interface HttpSender {
  /** Resolves with the answer, whatever its status; rejects when no answer came (refused, reset, aborted, timed out). */
  post(request: HttpPost): Promise<HttpAnswer>;
}

export interface HttpPost {
  url: string;
  body: string;
  /** Content-Type and any integration headers; User-Agent and authorization are the sender's. */
  headers: Readonly<Record<string, string>>;
  signal: AbortSignal;
  /** The integration's own bound on this attempt (`timeout`); 0: none. */
  timeoutMs?: number;
}

export interface HttpAnswer {
  status: number;
  /** The first bytes of the answer's body (enough for an error message). */
  body: string;
}

/** The User-Agent Alertmanager sends (`Alertmanager/<version>`); ours names this service. */
export const NOTIFIER_USER_AGENT = 'Alertmanager/0.25.0 (ratelimit-node)';

/**
 * Alertmanager's verdict on an HTTP answer (notify.RetrierFunc): 2xx is sent; 5xx is retried;
 * anything else is given up at once, `unexpected status code N: <body>`.
 */
export function resultOfAnswer(answer: HttpAnswer): NotifyResult {
  if (answer.status >= 200 && answer.status < 300) return { ok: true };
  const error = `unexpected status code ${answer.status}${answer.body === '' ? '' : `: ${answer.body}`}`;
  if (answer.status >= 500) return { ok: false, retry: true, reason: 'serverError', error };
  return { ok: false, retry: false, reason: 'clientError', error };
}

/** A send that got no answer: retried, unless it was ended on purpose. */
export function resultOfError(error: unknown, signal: AbortSignal): NotifyResult {
  const message = error instanceof Error ? error.message : String(error);
  if (signal.aborted) return { ok: false, retry: false, reason: signal.reason === 'deadline' ? 'contextDeadlineExceeded' : 'contextCanceled', error: message };
  return { ok: false, retry: true, reason: 'other', error: message };
}
