/** Reconnect waits of the xDS client (XDS_CLIENT_BACKOFF_*), computed as upstream's backoff does. */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** Multiplier per failed attempt; below 1 the wait stays at the initial interval. */
  factor: number;
  /** Draw each wait between the initial interval and the computed one. */
  jitter: boolean;
}

/** The wait before attempt `attempt` (0 for the first retry); `random` in [0, 1). */
export function backoffDelayMs(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  let delay = policy.initialMs * policy.factor ** attempt;
  if (policy.jitter) delay = random() * (delay - policy.initialMs) + policy.initialMs;
  return Math.min(policy.maxMs, Math.max(policy.initialMs, delay));
}
