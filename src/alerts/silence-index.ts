import { matchesAll, patternLiterals } from './matchers/index.js';
import type { LabelSet, Matcher } from './matchers/matcher.js';

interface IndexedSilence {
  id: string;
  matchers: readonly Matcher[];
  /** The index's version when this silence was added: markers older than it have not tried it. */
  version: number;
  /** (name, value) pairs one of which an alert must carry to match; undefined: no such pair is known. */
  anchors: ReadonlyArray<readonly [string, string]> | undefined;
}

/** Below this many silences to try, they are tried one by one rather than looked up by anchor. */
const SCAN_BELOW = 64;

/**
 * The silences that can still become or stay active, with their matchers compiled once (when
 * the silence is created or loaded, never per request), and two ways to find those an alert
 * matches:
 *
 * - by anchor: a silence with an equality matcher (`alertname="X"`), or a regex matcher that is an
 *   alternation of literals (`instance=~"a|b|c"`), can only match alerts carrying one of those
 *   label values, so it is filed under each; an alert looks up its own labels;
 * - by version: every addition bumps the version, so an alert marked at version v only needs the
 *   silences added since (Alertmanager's marker idea, see SilenceMarker).
 */
export class SilenceIndex {
  private current = 0;
  private readonly entries = new Map<string, IndexedSilence>();
  /** In the order they were added, so by version. */
  private readonly added: IndexedSilence[] = [];
  private readonly byAnchor = new Map<string, Map<string, IndexedSilence[]>>();
  private readonly unanchored = new Set<IndexedSilence>();

  /** Bumped by every silence added. */
  get version(): number {
    return this.current;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  add(id: string, matchers: readonly Matcher[]): void {
    this.remove(id);
    const entry: IndexedSilence = { id, matchers, version: ++this.current, anchors: anchorsOf(matchers) };
    this.entries.set(id, entry);
    this.added.push(entry);
    if (entry.anchors === undefined) {
      this.unanchored.add(entry);
      return;
    }
    for (const [name, value] of entry.anchors) {
      let values = this.byAnchor.get(name);
      if (values === undefined) this.byAnchor.set(name, (values = new Map()));
      const list = values.get(value);
      if (list === undefined) values.set(value, [entry]);
      else list.push(entry);
    }
  }

  /** Forgets a silence that can no longer be active (expired, or gone). */
  remove(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    this.added.splice(this.positionOf(entry.version), 1);
    if (entry.anchors === undefined) {
      this.unanchored.delete(entry);
      return;
    }
    for (const [name, value] of entry.anchors) {
      const values = this.byAnchor.get(name);
      const list = values?.get(value)?.filter((other) => other !== entry);
      if (values === undefined || list === undefined) continue;
      if (list.length > 0) values.set(value, list);
      else values.delete(value);
      if (values.size === 0) this.byAnchor.delete(name);
    }
  }

  /** Ids of the silences added after version `since` whose matchers all match `labels`. */
  matching(labels: LabelSet, since: number): string[] {
    const first = this.positionOf(since + 1);
    const ids: string[] = [];
    if (this.added.length - first < SCAN_BELOW) {
      for (let i = first; i < this.added.length; i++) {
        const entry = this.added[i] as IndexedSilence;
        if (matchesAll(entry.matchers, labels)) ids.push(entry.id);
      }
      return ids;
    }
    for (const name in labels) {
      const list = this.byAnchor.get(name)?.get(labels[name] as string);
      if (list !== undefined) for (const entry of list) if (entry.version > since && matchesAll(entry.matchers, labels)) ids.push(entry.id);
    }
    for (const entry of this.unanchored) if (entry.version > since && matchesAll(entry.matchers, labels)) ids.push(entry.id);
    return ids;
  }

  /** Index in `added` of the first entry of version `version` or later. */
  private positionOf(version: number): number {
    let low = 0;
    let high = this.added.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((this.added[mid] as IndexedSilence).version < version) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/**
 * The label values one of which a matching alert must carry: an equality matcher's, else the
 * literals of a regex matcher that is an alternation of them (the smallest such list). An
 * empty value never anchors: a missing label matches it too.
 */
function anchorsOf(matchers: readonly Matcher[]): Array<[string, string]> | undefined {
  let best: Array<[string, string]> | undefined;
  for (const matcher of matchers) {
    if (matcher.type === '=' && matcher.value !== '') return [[matcher.name, matcher.value]];
    if (matcher.type !== '=~') continue;
    const exact = patternLiterals(matcher.value).exact;
    if (exact === undefined || exact.has('')) continue;
    if (best === undefined || exact.size < best.length) best = [...exact].map((value) => [matcher.name, value]);
  }
  return best;
}
