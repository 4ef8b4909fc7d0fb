/** What the notification log remembers of the last successful send of one group to one integration. */
export interface LogEntry {
  /** Fingerprints of the alerts that were firing, and of those resolved, when it was sent. */
  firing: readonly string[];
  resolved: readonly string[];
  /** When it was sent (epoch ms). */
  at: number;
}

/** Why a notification is sent: Alertmanager's words (its webhook's `notification_reason` in later versions). */
export type SendReason = 'first notification' | 'new alerts added' | 'some alerts resolved' | 'all alerts resolved' | 'repeat interval elapsed';

function isSubset(subset: ReadonlySet<string>, of: ReadonlySet<string>): boolean {
  for (const item of subset) if (!of.has(item)) return false;
  return true;
}

/**
 * Alertmanager's DedupStage decision (notify.DedupStage.needsUpdate): whether a group with these
 * firing and resolved alerts is sent to an integration that last got `last`, and why; undefined
 * when nothing is sent.
 */
export function sendReason(last: LogEntry | undefined, firing: ReadonlySet<string>, resolved: ReadonlySet<string>, sendResolved: boolean, repeatIntervalMs: number, now: number): SendReason | undefined {
  if (last === undefined) return firing.size > 0 ? 'first notification' : undefined;
  const lastFiring = new Set(last.firing);
  if (!isSubset(firing, lastFiring)) return lastFiring.size === 0 ? 'first notification' : 'new alerts added';
  if (firing.size === 0) return lastFiring.size > 0 ? 'all alerts resolved' : undefined;
  if (sendResolved && !isSubset(resolved, new Set(last.resolved))) return 'some alerts resolved';
  return last.at < now - repeatIntervalMs ? 'repeat interval elapsed' : undefined;
}
