/**
 * A decoded protobuf message (protobufjs `toObject` output with enums as names and longs as
 * numbers, which is what `decodeRateLimitResponse` returns) in the proto3 JSON mapping Go's
 * protojson uses, driven by the message's reflection type: lowerCamelCase names, fields in
 * declaration order, default values left out, enums by name, 64-bit integers as strings,
 * bytes as base64, Duration as `"58s"`, Timestamp as RFC 3339, Struct/Value/ListValue as
 * plain JSON and wrapper types as their bare value.
 *
 * For a response of this service the text equals the `/json` body for the same decision
 * (that endpoint's encoder is hand-written for the hot path and knows only our fields; this
 * one also prints the fields another server may fill: quota, request headers, raw body,
 * dynamic metadata).
 */
import type protobuf from 'protobufjs';
import { formatDurationJson } from '../ratelimit/index.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const INT64_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const WRAPPERS = new Set(['Double', 'Float', 'Int64', 'UInt64', 'Int32', 'UInt32', 'Bool', 'String', 'Bytes'].map((n) => `.google.protobuf.${n}Value`));

/** `message` as proto3 JSON, ready for JSON.stringify. */
export function messageToJson(type: protobuf.Type, message: Record<string, unknown>): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const field of type.fieldsArray) {
    const value = message[field.name];
    if (value === undefined || value === null) continue;
    const name = field.name; // protobufjs already camel-cases names (keepCase is off)
    if (field.map) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) continue;
      const map: { [key: string]: Json } = {};
      for (const [key, item] of entries) map[key] = valueToJson(field, item);
      out[name] = map;
    } else if (field.repeated) {
      const items = value as unknown[];
      if (items.length === 0) continue;
      out[name] = items.map((item) => valueToJson(field, item));
    } else {
      if (isDefault(field, value)) continue;
      out[name] = valueToJson(field, value);
    }
  }
  return out;
}

/** Proto3 fields that hold their default are not written (message fields are never default). */
function isDefault(field: protobuf.Field, value: unknown): boolean {
  const resolved = field.resolvedType;
  if (resolved !== null && 'fieldsArray' in resolved) return false;
  if (field.partOf !== null && field.partOf !== undefined) return false; // a set oneof member is written
  if (resolved !== null) return value === 0 || value === (resolved as protobuf.Enum).valuesById[0];
  return value === 0 || value === '' || value === false || (value instanceof Uint8Array && value.length === 0);
}

function valueToJson(field: protobuf.Field, value: unknown): Json {
  const resolved = field.resolvedType;
  if (resolved !== null && 'fieldsArray' in resolved) return typedMessageToJson(resolved as protobuf.Type, value as Record<string, unknown>);
  if (resolved !== null) return typeof value === 'number' ? value : String(value); // enum: name, or number when unknown
  return scalarToJson(field.type, value);
}

function scalarToJson(type: string, value: unknown): Json {
  if (INT64_TYPES.has(type)) return String(value);
  if (type === 'bytes') return Buffer.from(value as Uint8Array).toString('base64');
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  return value as Json;
}

function typedMessageToJson(type: protobuf.Type, message: Record<string, unknown>): Json {
  switch (type.fullName) {
    case '.google.protobuf.Duration':
      return JSON.parse(formatDurationJson(Number(message['seconds'] ?? 0) + Number(message['nanos'] ?? 0) / 1e9)) as string;
    case '.google.protobuf.Timestamp':
      return formatTimestamp(Number(message['seconds'] ?? 0), Number(message['nanos'] ?? 0));
    case '.google.protobuf.Struct':
      return structToJson(message);
    case '.google.protobuf.Value':
      return protoValueToJson(message);
    case '.google.protobuf.ListValue':
      return ((message['values'] as Record<string, unknown>[] | undefined) ?? []).map(protoValueToJson);
  }
  if (WRAPPERS.has(type.fullName)) {
    const inner = type.fields['value'] as protobuf.Field;
    return scalarToJson(inner.type, message['value'] ?? (inner.type === 'bool' ? false : inner.type === 'string' ? '' : 0));
  }
  return messageToJson(type, message);
}

function structToJson(message: Record<string, unknown>): Json {
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries((message['fields'] as Record<string, Record<string, unknown>> | undefined) ?? {})) out[key] = protoValueToJson(value);
  return out;
}

function protoValueToJson(value: Record<string, unknown>): Json {
  if ('numberValue' in value) return scalarToJson('double', value['numberValue']);
  if ('stringValue' in value) return value['stringValue'] as string;
  if ('boolValue' in value) return value['boolValue'] as boolean;
  if ('structValue' in value) return structToJson(value['structValue'] as Record<string, unknown>);
  if ('listValue' in value) return ((value['listValue'] as Record<string, unknown>)['values'] as Record<string, unknown>[] | undefined ?? []).map(protoValueToJson);
  return null;
}

/** RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits, as Go's protojson writes it. */
function formatTimestamp(seconds: number, nanos: number): string {
  const base = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (nanos === 0) return `${base}Z`;
  let frac = String(nanos).padStart(9, '0');
  while (frac.endsWith('000')) frac = frac.slice(0, -3);
  return `${base}.${frac}Z`;
}
