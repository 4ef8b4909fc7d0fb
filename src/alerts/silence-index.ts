import { matchesAll, patternLiterals } from './matchers/index.js';
import type { LabelSet, Matcher } from './matchers/matcher.js';

/**
 * What an alert must carry to match a silence: one of these label values, or a value of this
 * label starting with this prefix.
 */
type Anchor = { kind: 'values'; name: string; values: readonly string[] } | { kind: 'prefix'; name: string; prefix: string };

interface IndexedSilence {
  id: string;
  matchers: readonly Matcher[];
  /** The index's version when this silence was added: markers older than it have not tried it. */
  version: number;
  /** Undefined: nothing is known that a matching alert must carry. */
  anchor: Anchor | undefined;
}

/** Silences filed by (label name, key). */
class AnchorTable {
  private readonly byName = new Map<string, Map<string, IndexedSilence[]>>();

  add(name: string, key: string, entry: IndexedSilence): void {
    let keys = this.byName.get(name);
    if (keys === undefined) this.byName.set(name, (keys = new Map()));
    const list = keys.get(key);
    if (list === undefined) keys.set(key, [entry]);
    else list.push(entry);
  }

  remove(name: string, key: string, entry: IndexedSilence): void {
    const keys = this.byName.get(name);
    const list = keys?.get(key)?.filter((other) => other !== entry);
    if (keys === undefined || list === undefined) return;
    if (list.length > 0) keys.set(key, list);
    else keys.delete(key);
    if (keys.size === 0) this.byName.delete(name);
  }

  get(name: string, key: string): readonly IndexedSilence[] | undefined {
    return this.byName.get(name)?.get(key);
  }
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
 *   label values, so it is filed under each; one with a regex matcher of a literal prefix
 *   (`instance=~"db-12.*"`) is filed under that prefix; an alert looks up its own label values
 *   and their prefixes of the lengths filed;
 * - by version: every addition bumps the version, so an alert marked at version v only needs the
 *   silences added since (Alertmanager's marker idea, see SilenceMarker).
 */
export class SilenceIndex {
  private current = 0;
  private readonly entries = new Map<string, IndexedSilence>();
  /** In the order they were added, so by version. */
  private readonly added: IndexedSilence[] = [];
  private readonly byValue = new AnchorTable();
  private readonly byPrefix = new AnchorTable();
  /** Per label name, the lengths of the prefixes filed, with how many silences use each. */
  private readonly prefixLengths = new Map<string, Map<number, number>>();
  private readonly unanchored = new Set<IndexedSilence>();

  /** Bumped by every silence added. */
  get version(): number {
    return this.current;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** No silence is indexed: every alert matches none. */
  get isEmpty(): boolean {
    return this.entries.size === 0;
  }

  add(id: string, matchers: readonly Matcher[]): void {
    this.remove(id);
    const anchor = anchorOf(matchers);
    const entry: IndexedSilence = { id, matchers, version: ++this.current, anchor };
    this.entries.set(id, entry);
    this.added.push(entry);
    if (anchor === undefined) this.unanchored.add(entry);
    else if (anchor.kind === 'values') for (const value of anchor.values) this.byValue.add(anchor.name, value, entry);
    else {
      this.byPrefix.add(anchor.name, anchor.prefix, entry);
      this.countPrefixLength(anchor.name, anchor.prefix.length, +1);
    }
  }

  /** Forgets a silence that can no longer be active (expired, or gone). */
  remove(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    this.added.splice(this.positionOf(entry.version), 1);
    const anchor = entry.anchor;
    if (anchor === undefined) this.unanchored.delete(entry);
    else if (anchor.kind === 'values') for (const value of anchor.values) this.byValue.remove(anchor.name, value, entry);
    else {
      this.byPrefix.remove(anchor.name, anchor.prefix, entry);
      this.countPrefixLength(anchor.name, anchor.prefix.length, -1);
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
    const take = (list: Iterable<IndexedSilence> | undefined) => {
      if (list !== undefined) for (const entry of list) if (entry.version > since && matchesAll(entry.matchers, labels)) ids.push(entry.id);
    };
    for (const name in labels) {
      const value = labels[name] as string;
      take(this.byValue.get(name, value));
      for (const length of this.prefixLengths.get(name)?.keys() ?? []) if (length <= value.length) take(this.byPrefix.get(name, value.slice(0, length)));
    }
    take(this.unanchored);
    return ids;
  }

  private countPrefixLength(name: string, length: number, change: 1 | -1): void {
    let lengths = this.prefixLengths.get(name);
    if (lengths === undefined) this.prefixLengths.set(name, (lengths = new Map()));
    const count = (lengths.get(length) ?? 0) + change;
    if (count > 0) lengths.set(length, count);
    else lengths.delete(length);
    if (lengths.size === 0) this.prefixLengths.delete(name);
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
 * What a matching alert must carry, the narrowest known: an equality matcher's value, else the
 * literals of a regex matcher that is an alternation of them (the shortest such list), else the
 * longest literal prefix of a regex matcher's pattern. An empty value or prefix never anchors:
 * a missing label matches it too.
 */
function anchorOf(matchers: readonly Matcher[]): Anchor | undefined {
  let values: Anchor | undefined;
  let prefix: Anchor | undefined;
  for (const matcher of matchers) {
    if (matcher.type === '=' && matcher.value !== '') return { kind: 'values', name: matcher.name, values: [matcher.value] };
    if (matcher.type !== '=~') continue;
    const literals = patternLiterals(matcher.value);
    if (literals.exact !== undefined) {
      if (!literals.exact.has('') && (values?.kind !== 'values' || literals.exact.size < values.values.length)) values = { kind: 'values', name: matcher.name, values: [...literals.exact] };
    } else if (literals.prefix !== '' && (prefix?.kind !== 'prefix' || literals.prefix.length > prefix.prefix.length)) {
      prefix = { kind: 'prefix', name: matcher.name, prefix: literals.prefix };
    }
  }
  return values ?? prefix;
}
