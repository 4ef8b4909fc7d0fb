import { newStruct, type MetadataStruct, type MetadataValue } from '../engine/metadata.js';
import { describe, type YamlMap, type YamlNode } from '../yaml/index.js';

export type MetadataParse = { ok: true; value: MetadataStruct } | { ok: false; error: string };

/**
 * A rule's `metadata` map as the google.protobuf.Struct it becomes: strings, numbers, booleans,
 * nulls, lists and maps with string keys. What a Struct cannot hold (a key that is not a string,
 * a number that is not finite) is the reason of `error parsing metadata: <reason>`.
 */
export function metadataOfYaml(map: YamlMap): MetadataParse {
  try {
    return { ok: true, value: structOf(map) };
  } catch (error) {
    if (error instanceof MetadataError) return { ok: false, error: error.message };
    throw error;
  }
}

class MetadataError extends Error {}

function structOf(map: YamlMap): MetadataStruct {
  const struct = newStruct();
  for (const { key, value } of map.entries) {
    if (key.kind !== 'scalar' || typeof key.value !== 'string') {
      throw new MetadataError(`line ${key.line}: key ${describe(key)} is not a string`);
    }
    struct[key.value] = valueOf(value);
  }
  return struct;
}

function valueOf(node: YamlNode): MetadataValue {
  switch (node.kind) {
    case 'map':
      return structOf(node);
    case 'seq':
      return node.items.map(valueOf);
    case 'scalar': {
      const value = node.value;
      if (typeof value === 'bigint') return Number(value);
      if (typeof value === 'number' && !Number.isFinite(value)) {
        throw new MetadataError(`line ${node.line}: ${node.text} is not a finite number`);
      }
      return value;
    }
  }
}
