import { isStruct, type MetadataStruct, type MetadataValue } from '../../engine/metadata.js';

/**
 * google.protobuf.Struct in protobuf wire format, for the response's dynamic_metadata. Not on the
 * hot path (only with RESPONSE_DYNAMIC_METADATA), so each message is built as its own buffer.
 * Map entries are written in key order, so equal metadata gives equal bytes.
 *
 *   Struct      1 fields: map<string, Value> (entries: 1 key, 2 value)
 *   Value       oneof: 1 null_value (enum) 2 number_value (double) 3 string_value 4 bool_value
 *               5 struct_value: Struct   6 list_value: ListValue
 *   ListValue   1 values: Value
 */
export function encodeStruct(struct: MetadataStruct): Buffer {
  const parts: Buffer[] = [];
  for (const key of Object.keys(struct).sort()) {
    const entry = Buffer.concat([lengthDelimited(1, Buffer.from(key)), lengthDelimited(2, encodeValue(struct[key] as MetadataValue))]);
    parts.push(lengthDelimited(1, entry));
  }
  return Buffer.concat(parts);
}

function encodeValue(value: MetadataValue): Buffer {
  if (value === null) return Buffer.from([tag(1, 0), 0]);
  switch (typeof value) {
    case 'number': {
      const out = Buffer.alloc(9);
      out[0] = tag(2, 1);
      out.writeDoubleLE(value, 1);
      return out;
    }
    case 'string':
      return lengthDelimited(3, Buffer.from(value));
    case 'boolean':
      return Buffer.from([tag(4, 0), value ? 1 : 0]);
  }
  if (isStruct(value)) return lengthDelimited(5, encodeStruct(value));
  const list = Buffer.concat(value.map((item) => lengthDelimited(1, encodeValue(item))));
  return lengthDelimited(6, list);
}

function tag(field: number, wireType: number): number {
  return (field << 3) | wireType;
}

function lengthDelimited(field: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag(field, 2)]), varint(body.length), body]);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  while (value >= 128) {
    bytes.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  bytes.push(value);
  return Buffer.from(bytes);
}
