import { isStruct, type MetadataStruct, type MetadataValue } from '../../engine/metadata.js';

/**
 * google.protobuf.Struct in its proto3 JSON form, as Go's protojson writes it: a JSON object with
 * its keys in sorted order, numbers as JSON numbers.
 */
export function structJson(struct: MetadataStruct): string {
  let out = '{';
  let sep = '';
  for (const key of Object.keys(struct).sort()) {
    out += `${sep}${JSON.stringify(key)}:${valueJson(struct[key] as MetadataValue)}`;
    sep = ',';
  }
  return out + '}';
}

function valueJson(value: MetadataValue): string {
  if (isStruct(value)) return structJson(value);
  if (Array.isArray(value)) return `[${value.map(valueJson).join(',')}]`;
  return JSON.stringify(value);
}
