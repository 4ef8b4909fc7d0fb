import type { YamlNode } from '../yaml/index.js';
import { metadataOfYaml, type MetadataParse } from './metadata-decode.js';

/**
 * Upstream's second decode of a file, into its Go structs (yaml.v2, non-strict): known fields
 * are typed, keys that belong elsewhere are ignored, and every type mismatch is collected into
 * one `yaml: unmarshal errors:` message with yaml.v2's wording, e.g.
 * "line 5: cannot unmarshal !!int `-1` into uint32".
 */

export interface RawReplaces {
  name: string;
}

export interface RawRateLimit {
  requestsPerUnit: number;
  unit: string;
  unlimited: boolean;
  name: string;
  replaces: RawReplaces[];
  /** Extension: `algorithm`, '' when absent. */
  algorithm?: string;
}

export interface RawDescriptor {
  key: string;
  value: string;
  /** undefined when `rate_limit` is absent or null. */
  rateLimit: RawRateLimit | undefined;
  descriptors: RawDescriptor[];
  shadowMode: boolean;
  detailedMetric: boolean;
  shareThreshold: boolean;
  quotaMode: boolean;
  valueToMetric: boolean;
  /** undefined when `metadata` is absent or null. */
  metadata: MetadataParse | undefined;
  /** Extension: `rate_limits`, further limits of the descriptor. */
  rateLimits?: RawRateLimit[];
}

export interface RawRoot {
  domain: string;
  descriptors: RawDescriptor[];
}

export type DecodeResult = { ok: true; root: RawRoot } | { ok: false; error: string };

/** Go type names as yaml.v2 prints them (upstream's structs live in package `config`). */
const GO_TYPE = {
  descriptors: '[]config.YamlDescriptor',
  descriptor: 'config.YamlDescriptor',
  rateLimit: 'config.YamlRateLimit',
  rateLimits: '[]config.YamlRateLimit',
  replacesList: '[]config.yamlReplaces',
  replaces: 'config.yamlReplaces',
  genericMap: 'map[interface {}]interface {}',
  metadata: 'map[string]interface {}',
} as const;

/** yaml.v2 accepts these YAML 1.1 spellings (even quoted) when the target is a Go bool. */
const BOOL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON'].map((w): [string, boolean] => [w, true]),
  ...['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF'].map((w): [string, boolean] => [w, false]),
]);

const UINT32_MAX = 2n ** 32n - 1n;

/**
 * The generic decode (into map[interface{}]interface{}) that precedes key validation fails
 * when the document is not a map; returns that message, or undefined for a map or nothing.
 */
export function checkDocumentIsMap(root: YamlNode | null): string | undefined {
  if (root === null || root.kind === 'map') return undefined;
  return unmarshalErrors([typeError(root, GO_TYPE.genericMap)]);
}

export function decodeRoot(root: YamlNode | null): DecodeResult {
  const decoder = new Decoder();
  const raw: RawRoot = { domain: '', descriptors: [] };
  decoder.struct(root, 'config.YamlRoot', {
    domain: (n) => (raw.domain = decoder.string(n)),
    descriptors: (n) => (raw.descriptors = decoder.descriptors(n)),
  });
  if (decoder.errors.length > 0) return { ok: false, error: unmarshalErrors(decoder.errors) };
  return { ok: true, root: raw };
}

function emptyRateLimit(): RawRateLimit {
  return { requestsPerUnit: 0, unit: '', unlimited: false, name: '', replaces: [], algorithm: '' };
}

function unmarshalErrors(errors: string[]): string {
  return `yaml: unmarshal errors:\n  ${errors.join('\n  ')}`;
}

/** yaml.v2's text: scalars show their value (cut to 7 bytes + `...` past 10 bytes). */
function typeError(node: YamlNode, goType: string): string {
  let shown = '';
  let tag = node.kind === 'map' ? '!!map' : '!!seq';
  if (node.kind === 'scalar') {
    tag = node.tag;
    const bytes = Buffer.from(node.text);
    shown = bytes.length > 10 ? ` \`${bytes.subarray(0, 7).toString()}...\`` : ` \`${node.text}\``;
  }
  return `line ${node.line}: cannot unmarshal ${tag}${shown} into ${goType}`;
}

function isNull(node: YamlNode | null): node is null {
  return node === null || (node.kind === 'scalar' && node.value === null);
}

type FieldSetters = Record<string, (node: YamlNode) => void>;

/** Decodes into zero values (as Go does) and records mismatches instead of stopping. */
class Decoder {
  readonly errors: string[] = [];

  /** Map entries in document order; keys that are not fields of the struct are ignored. */
  struct(node: YamlNode | null, goType: string, fields: FieldSetters): boolean {
    if (isNull(node)) return false;
    if (node.kind !== 'map') return this.mismatch(node, goType);
    for (const { key, value } of node.entries) {
      const setter = key.kind === 'scalar' && Object.hasOwn(fields, key.text) ? fields[key.text] : undefined;
      setter?.(value);
    }
    return true;
  }

  list<T>(node: YamlNode | null, goType: string, element: (item: YamlNode) => T): T[] {
    if (isNull(node)) return [];
    if (node.kind === 'seq') return node.items.map(element);
    this.mismatch(node, goType);
    return [];
  }

  /** A Go string field takes any scalar's text. */
  string(node: YamlNode): string {
    if (isNull(node)) return '';
    if (node.kind === 'scalar') return node.text;
    this.mismatch(node, 'string');
    return '';
  }

  bool(node: YamlNode): boolean {
    if (isNull(node)) return false;
    if (node.kind === 'scalar') {
      if (typeof node.value === 'boolean') return node.value;
      const word = BOOL_WORDS.get(node.text);
      if (typeof node.value === 'string' && word !== undefined) return word;
    }
    return this.mismatch(node, 'bool');
  }

  uint32(node: YamlNode): number {
    if (isNull(node)) return 0;
    if (node.kind === 'scalar' && typeof node.value === 'bigint' && node.value >= 0n && node.value <= UINT32_MAX) {
      return Number(node.value);
    }
    this.mismatch(node, 'uint32');
    return 0;
  }

  descriptors(node: YamlNode): RawDescriptor[] {
    return this.list(node, GO_TYPE.descriptors, (item) => this.descriptor(item));
  }

  private descriptor(node: YamlNode): RawDescriptor {
    const d: RawDescriptor = {
      key: '',
      value: '',
      rateLimit: undefined,
      descriptors: [],
      shadowMode: false,
      detailedMetric: false,
      shareThreshold: false,
      quotaMode: false,
      valueToMetric: false,
      metadata: undefined,
      rateLimits: [],
    };
    this.struct(node, GO_TYPE.descriptor, {
      key: (n) => (d.key = this.string(n)),
      value: (n) => (d.value = this.string(n)),
      rate_limit: (n) => (d.rateLimit = this.rateLimit(n)),
      descriptors: (n) => (d.descriptors = this.descriptors(n)),
      shadow_mode: (n) => (d.shadowMode = this.bool(n)),
      detailed_metric: (n) => (d.detailedMetric = this.bool(n)),
      share_threshold: (n) => (d.shareThreshold = this.bool(n)),
      quota_mode: (n) => (d.quotaMode = this.bool(n)),
      value_to_metric: (n) => (d.valueToMetric = this.bool(n)),
      metadata: (n) => (d.metadata = this.metadata(n)),
      rate_limits: (n) => (d.rateLimits = this.list(n, GO_TYPE.rateLimits, (item) => this.rateLimit(item) ?? emptyRateLimit())),
    });
    return d;
  }

  /** `rate_limit` is a pointer upstream: null leaves the descriptor without a limit. */
  private rateLimit(node: YamlNode): RawRateLimit | undefined {
    const r = emptyRateLimit();
    const present = this.struct(node, GO_TYPE.rateLimit, {
      requests_per_unit: (n) => (r.requestsPerUnit = this.uint32(n)),
      unit: (n) => (r.unit = this.string(n)),
      unlimited: (n) => (r.unlimited = this.bool(n)),
      name: (n) => (r.name = this.string(n)),
      replaces: (n) => (r.replaces = this.list(n, GO_TYPE.replacesList, (item) => this.replaces(item))),
      algorithm: (n) => (r.algorithm = this.string(n)),
    });
    return present ? r : undefined;
  }

  /** `metadata` is a map of anything upstream: only its shape is checked here. */
  private metadata(node: YamlNode): MetadataParse | undefined {
    if (isNull(node)) return undefined;
    if (node.kind === 'map') return metadataOfYaml(node);
    this.mismatch(node, GO_TYPE.metadata);
    return undefined;
  }

  private replaces(node: YamlNode): RawReplaces {
    const r: RawReplaces = { name: '' };
    this.struct(node, GO_TYPE.replaces, { name: (n) => (r.name = this.string(n)) });
    return r;
  }

  private mismatch(node: YamlNode, goType: string): false {
    this.errors.push(typeError(node, goType));
    return false;
  }
}
