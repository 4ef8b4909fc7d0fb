import type { YamlMap, YamlNode, YamlScalar } from '../../yaml/index.js';
import { goQuote } from '../matchers/index.js';

/**
 * Decoding a YAML tree into Alertmanager's configuration the way Go's yaml.v2 UnmarshalStrict
 * does it, so that errors read the same:
 *
 * - Unknown keys, duplicate keys and values of the wrong kind are *type errors*: collected,
 *   decoding goes on, and the load fails with all of them (`yaml: unmarshal errors:\n  line 3:
 *   field foo not found in type config.plain`). A type with its own UnmarshalYAML skips its
 *   checks when its fields had type errors (it returns them before checking).
 * - A check of a type's own UnmarshalYAML (`missing name in receiver`) ends the load at once
 *   with that message, whatever came before.
 *
 * The go type names are those yaml.v2 prints: `config.plain` for every Alertmanager type that
 * unmarshals itself through a local `type plain`.
 */
export class ConfigCheckError extends Error {}

export function isNull(node: YamlNode): boolean {
  return node.kind === 'scalar' && node.tag === '!!null';
}

export class Decoder {
  readonly typeErrors: string[] = [];

  /** Ends the load with `message` (yaml.v2's fail); caught by the loader. */
  fail(message: string): never {
    throw new ConfigCheckError(message);
  }

  /** yaml.v2's "cannot unmarshal" type error for `node` decoded into `goType`. */
  typeError(node: YamlNode, goType: string): void {
    let shown = '';
    let tag = '!!map';
    if (node.kind === 'seq') tag = '!!seq';
    if (node.kind === 'scalar') {
      tag = node.tag;
      const chars = [...node.text];
      shown = chars.length > 10 ? ` \`${chars.slice(0, 7).join('')}...\`` : ` \`${node.text}\``;
    }
    this.typeErrors.push(`line ${node.line}: cannot unmarshal ${tag}${shown} into ${goType}`);
  }

  /**
   * Runs `decode` (a type's fields), then `check` (its UnmarshalYAML's own checks) only if the
   * fields decoded without type errors.
   */
  withChecks<T>(decode: () => T, check: (value: T) => void): T {
    const before = this.typeErrors.length;
    const value = decode();
    if (this.typeErrors.length === before) check(value);
    return value;
  }

  /** Whether decoding since `mark` added type errors. */
  mark(): number {
    return this.typeErrors.length;
  }

  clean(mark: number): boolean {
    return this.typeErrors.length === mark;
  }

  /**
   * A mapping into a Go struct: each known key's value goes to its handler, in document
   * order; unknown and repeated keys are type errors. False for null (the zero struct) and for
   * a node that is not a mapping (a type error).
   */
  struct(node: YamlNode, goType: string, fields: Readonly<Record<string, (value: YamlNode, key: YamlScalar) => void>>): node is YamlMap {
    if (isNull(node)) return false;
    if (node.kind !== 'map') {
      this.typeError(node, goType);
      return false;
    }
    const seen = new Set<string>();
    for (const { key, value } of node.entries) {
      const name = key.kind === 'scalar' ? key.text : '';
      const handler = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
      if (handler === undefined || key.kind !== 'scalar') {
        this.typeErrors.push(`line ${key.line}: field ${name} not found in type ${goType}`);
        continue;
      }
      if (seen.has(name)) {
        this.typeErrors.push(`line ${key.line}: field ${name} already set in type ${goType}`);
        continue;
      }
      seen.add(name);
      handler(value, key);
    }
    return true;
  }

  /** A Go string: any scalar's text; null is "". Undefined after a type error. */
  string(node: YamlNode, goType = 'string'): string | undefined {
    if (node.kind !== 'scalar') {
      this.typeError(node, goType);
      return undefined;
    }
    return node.tag === '!!null' ? '' : node.text;
  }

  bool(node: YamlNode): boolean | undefined {
    if (node.kind === 'scalar') {
      if (node.tag === '!!null') return false;
      if (typeof node.value === 'boolean') return node.value;
    }
    this.typeError(node, 'bool');
    return undefined;
  }

  /** A Go unsigned integer (yaml.v2 truncates non-negative floats). */
  uint(node: YamlNode, goType = 'uint64'): number | undefined {
    if (node.kind === 'scalar') {
      if (node.tag === '!!null') return 0;
      const v = node.value;
      if (typeof v === 'bigint' && v >= 0n) return Number(v);
      if (typeof v === 'number' && v >= 0 && v <= 2 ** 64) return Math.trunc(v);
    }
    this.typeError(node, goType);
    return undefined;
  }

  /** A Go slice: null is nil (undefined), each item decoded by `item`. */
  list<T>(node: YamlNode, goType: string, item: (node: YamlNode) => T): T[] | undefined {
    if (isNull(node)) return undefined;
    if (node.kind !== 'seq') {
      this.typeError(node, goType);
      return undefined;
    }
    return node.items.map(item);
  }

  /** A Go []string (items that fail their type check are left out). */
  stringList(node: YamlNode, goType = '[]string'): string[] | undefined {
    const items = this.list(node, goType, (item) => this.string(item));
    return items?.filter((s): s is string => s !== undefined);
  }

  /**
   * A Go map[string]string, kept in document order (printing sorts it); a repeated key is a
   * type error, as UnmarshalStrict has it.
   */
  stringMap(node: YamlNode, goType = 'map[string]string'): Array<[string, string]> | undefined {
    return this.mapOf(node, goType, (value) => this.string(value));
  }

  mapOf<T>(node: YamlNode, goType: string, value: (node: YamlNode) => T | undefined): Array<[string, T]> | undefined {
    if (isNull(node)) return undefined;
    if (node.kind !== 'map') {
      this.typeError(node, goType);
      return undefined;
    }
    const out: Array<[string, T]> = [];
    const seen = new Set<string>();
    for (const entry of node.entries) {
      const key = this.string(entry.key);
      if (key === undefined) continue;
      if (seen.has(key)) {
        this.typeErrors.push(`line ${entry.key.line}: key ${goQuote(key)} already set in map`);
        continue;
      }
      seen.add(key);
      const decoded = value(entry.value);
      if (decoded !== undefined) out.push([key, decoded]);
    }
    return out;
  }
}
