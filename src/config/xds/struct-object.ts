import { newStruct, type MetadataStruct, type MetadataValue } from '../../engine/metadata.js';
import type { MetadataParse } from '../metadata-decode.js';

/** google.protobuf.Struct as protobufjs' toObject gives it with `oneofs: true`. */
export interface ProtoStruct {
  fields: Record<string, ProtoValue>;
}

interface ProtoValue {
  kind?: 'nullValue' | 'numberValue' | 'stringValue' | 'boolValue' | 'structValue' | 'listValue';
  numberValue?: number;
  stringValue?: string;
  boolValue?: boolean;
  structValue?: ProtoStruct;
  listValue?: { values: ProtoValue[] };
}

/** A RateLimitDescriptor's `metadata` Struct as plain data; a number that is not finite is refused, as in rules files. */
export function metadataOfStruct(struct: ProtoStruct): MetadataParse {
  try {
    return { ok: true, value: structOf(struct) };
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, error: error.message };
    throw error;
  }
}

function structOf(struct: ProtoStruct): MetadataStruct {
  const out = newStruct();
  for (const [key, value] of Object.entries(struct.fields)) out[key] = valueOf(value);
  return out;
}

function valueOf(value: ProtoValue): MetadataValue {
  switch (value.kind) {
    case 'numberValue': {
      const number = value.numberValue as number;
      if (!Number.isFinite(number)) throw new RangeError(`${number} is not a finite number`);
      return number;
    }
    case 'stringValue':
      return value.stringValue as string;
    case 'boolValue':
      return value.boolValue as boolean;
    case 'structValue':
      return structOf(value.structValue as ProtoStruct);
    case 'listValue':
      return (value.listValue?.values ?? []).map(valueOf);
    default:
      // null_value, or a Value with no kind set.
      return null;
  }
}
