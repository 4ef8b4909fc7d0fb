/**
 * Free-form data as a `google.protobuf.Struct` holds it: a rule's `metadata` and the response's
 * `dynamic_metadata`. Plain JSON values, so a configuration carrying them still crosses threads as
 * JSON text. Objects are made without a prototype, so a key such as `__proto__` is only a key.
 */
export type MetadataValue = null | number | string | boolean | MetadataValue[] | MetadataStruct;
export interface MetadataStruct {
  [key: string]: MetadataValue;
}

export function newStruct(): MetadataStruct {
  return Object.create(null) as MetadataStruct;
}

export function isStruct(value: MetadataValue | undefined): value is MetadataStruct {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merges `source` into `target` as upstream does for dynamic metadata: a key already present keeps
 * its value (the first one wins), except that two structs under the same key are merged in turn.
 * `source` is never modified, and nothing of it is shared with `target` that a later merge could
 * change, so the rules' own metadata stays as configured.
 */
export function mergeFirstWins(target: MetadataStruct, source: MetadataStruct): void {
  for (const key of Object.keys(source)) {
    const incoming = source[key] as MetadataValue;
    const present = Object.hasOwn(target, key) ? target[key] : undefined;
    if (present === undefined) {
      target[key] = isStruct(incoming) ? copyStruct(incoming) : incoming;
    } else if (isStruct(present) && isStruct(incoming)) {
      mergeFirstWins(present, incoming);
    }
  }
}

function copyStruct(source: MetadataStruct): MetadataStruct {
  const copy = newStruct();
  mergeFirstWins(copy, source);
  return copy;
}
