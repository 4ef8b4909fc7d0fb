import type { Alert } from './model.js';
import type { SilenceIndex } from './silence-index.js';

interface Mark {
  /** The index version the ids are complete for. */
  version: number;
  /** Ids of the silences whose matchers match the alert, sorted; some may have left the index since. */
  ids: string[];
}

/**
 * Alertmanager's marker: per alert (by fingerprint), which silences its labels match, computed
 * once and then only brought up to date with the silences added since. An alert's labels never
 * change under its fingerprint, so a mark goes stale only when silences are added; silences that
 * leave the index (expired, gone) are dropped from a mark when it is next read. Whether a
 * matching silence mutes the alert right now (active, not pending) is the caller's question.
 */
export class SilenceMarker {
  private readonly marks = new Map<string, Mark>();

  constructor(private readonly index: SilenceIndex) {}

  /** Ids of the silences in the index whose matchers match `alert`, sorted. */
  matching(alert: Alert): readonly string[] {
    const version = this.index.version;
    let mark = this.marks.get(alert.fingerprint);
    if (mark === undefined) {
      mark = { version, ids: this.index.matching(alert.labels, 0).sort() };
      this.marks.set(alert.fingerprint, mark);
      return mark.ids;
    }
    if (mark.ids.some((id) => !this.index.has(id))) mark.ids = mark.ids.filter((id) => this.index.has(id));
    if (mark.version !== version) {
      const added = this.index.matching(alert.labels, mark.version);
      if (added.length > 0) mark.ids = [...new Set([...mark.ids, ...added])].sort();
      mark.version = version;
    }
    return mark.ids;
  }

  /** Whether marking an alert now would find nothing: no silence to try (a later `matching` still marks it). */
  get nothingToMark(): boolean {
    return this.index.isEmpty;
  }

  /** Whether `matching` would have to try silences for this alert (never marked, or silences added since). */
  isStale(fingerprint: string): boolean {
    return this.marks.get(fingerprint)?.version !== this.index.version;
  }

  forget(fingerprint: string): void {
    this.marks.delete(fingerprint);
  }
}
