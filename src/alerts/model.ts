import type { LabelSet, MatchType } from './matchers/matcher.js';

/** An alert as the store holds it. Times are epoch milliseconds. */
export interface Alert {
  fingerprint: string;
  labels: LabelSet;
  annotations: LabelSet;
  startsAt: number;
  endsAt: number;
  updatedAt: number;
  /** '' when none was sent. */
  generatorURL: string;
  /** `endsAt` came from resolve_timeout, not from the client (the merge rules treat it as weaker). */
  timeout: boolean;
}

/** A silence matcher as stored and as the API shows it. */
export interface SilenceMatcher {
  name: string;
  type: MatchType;
  value: string;
}

export interface Silence {
  /** A random UUID v4, lower case. */
  id: string;
  matchers: readonly SilenceMatcher[];
  startsAt: number;
  endsAt: number;
  updatedAt: number;
  createdBy: string;
  comment: string;
  annotations: LabelSet;
}

export type SilenceState = 'active' | 'pending' | 'expired';

/** As the API reports it: pending before startsAt, active before endsAt, expired after. */
export function silenceState(silence: Silence, now: number): SilenceState {
  if (now < silence.startsAt) return 'pending';
  if (now < silence.endsAt) return 'active';
  return 'expired';
}

/** Resolved: an end time at or before now. */
export function isResolved(alert: Alert, now: number): boolean {
  return alert.endsAt <= now;
}
