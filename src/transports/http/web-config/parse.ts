import { isAbsolute, join } from 'node:path';
import { parseYaml, type YamlMap, type YamlNode } from '../../../yaml/index.js';
import { GO_CIPHER_SUITES, GO_CURVES, GO_TLS13_SUITES, TLS_VERSIONS } from './go-tls-names.js';
import type { ClientAuthType, TlsServerConfig, TlsVersionName, WebConfig } from './model.js';

export type WebConfigParse = { ok: true; config: WebConfig } | { ok: false; errors: string[] };

const CLIENT_AUTH_TYPES: readonly ClientAuthType[] = ['NoClientCert', 'RequestClientCert', 'RequireAnyClientCert', 'VerifyClientCertIfGiven', 'RequireAndVerifyClientCert'];
/** exporter-toolkit's older spelling of RequireAnyClientCert. */
const CLIENT_AUTH_ALIASES: Readonly<Record<string, ClientAuthType>> = { RequireClientCert: 'RequireAnyClientCert' };
const VERIFYING: readonly ClientAuthType[] = ['VerifyClientCertIfGiven', 'RequireAndVerifyClientCert'];
const CERTIFICATE_REQUIRED: readonly ClientAuthType[] = ['RequireAnyClientCert', 'RequireAndVerifyClientCert'];

/**
 * The response headers exporter-toolkit lets the file set, with the values it allows (none
 * listed: any value).
 */
const CONFIGURABLE_HEADERS: Readonly<Record<string, readonly string[]>> = {
  'Strict-Transport-Security': [],
  'X-Content-Type-Options': ['nosniff'],
  'X-Frame-Options': ['deny', 'sameorigin'],
  'X-XSS-Protection': [],
  'Content-Security-Policy': [],
};

/** What Go's bcrypt.Cost accepts: `$2` and a minor letter, a two-digit cost, 22 salt and 31 hash characters. */
const BCRYPT_HASH = /^\$2[abxy]?\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const BCRYPT_MIN_COST = 4;
const BCRYPT_MAX_COST = 31;

/** Go's config.JoinDir: a relative path is taken from the configuration file's directory. */
function fromDir(dir: string, path: string): string {
  return path === '' || isAbsolute(path) ? path : join(dir, path);
}

const quote = (text: string): string => JSON.stringify(text);

/**
 * Field-by-field decoding that refuses what yaml.v2's UnmarshalStrict refuses (unknown and
 * repeated fields, values of the wrong kind) and names each field by its path in the file.
 */
class Decoder {
  readonly errors: string[] = [];

  fail(node: YamlNode, path: string, message: string): undefined {
    this.errors.push(`line ${node.line}: ${path}: ${message}`);
    return undefined;
  }

  struct(node: YamlNode, path: string, fields: Readonly<Record<string, (value: YamlNode, path: string) => void>>): void {
    if (node.kind === 'scalar' && node.tag === '!!null') return;
    if (node.kind !== 'map') {
      this.fail(node, path || 'the file', `expected a mapping of ${Object.keys(fields).join(', ')}`);
      return;
    }
    const seen = new Set<string>();
    for (const { key, value } of node.entries) {
      const name = key.kind === 'scalar' ? key.text : '?';
      const fieldPath = path === '' ? name : `${path}.${name}`;
      const decode = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
      if (decode === undefined) {
        this.fail(key, fieldPath, `unknown field (the fields here are ${Object.keys(fields).join(', ')})`);
      } else if (seen.has(name)) {
        this.fail(key, fieldPath, 'set twice');
      } else {
        seen.add(name);
        decode(value, fieldPath);
      }
    }
  }

  string(node: YamlNode, path: string): string | undefined {
    if (node.kind !== 'scalar') return this.fail(node, path, 'expected a string');
    return node.tag === '!!null' ? '' : node.text;
  }

  bool(node: YamlNode, path: string): boolean | undefined {
    if (node.kind === 'scalar' && typeof node.value === 'boolean') return node.value;
    if (node.kind === 'scalar' && node.tag === '!!null') return false;
    return this.fail(node, path, 'expected true or false');
  }

  /** A list of strings; each item's own path is `path[i]`. Null is undefined (Go's nil slice). */
  strings(node: YamlNode, path: string): Array<{ value: string; node: YamlNode; path: string }> | undefined {
    if (node.kind === 'scalar' && node.tag === '!!null') return undefined;
    if (node.kind !== 'seq') return this.fail(node, path, 'expected a list of strings');
    const items: Array<{ value: string; node: YamlNode; path: string }> = [];
    node.items.forEach((item, i) => {
      const value = this.string(item, `${path}[${i}]`);
      if (value !== undefined) items.push({ value, node: item, path: `${path}[${i}]` });
    });
    return items;
  }

  /** A string-to-string mapping in file order; a repeated key is refused. */
  stringMap(node: YamlNode, path: string): Array<{ key: string; value: string; node: YamlNode; path: string }> {
    if (node.kind === 'scalar' && node.tag === '!!null') return [];
    if (node.kind !== 'map') {
      this.fail(node, path, 'expected a mapping');
      return [];
    }
    const out: Array<{ key: string; value: string; node: YamlNode; path: string }> = [];
    const seen = new Set<string>();
    for (const entry of (node as YamlMap).entries) {
      const key = this.string(entry.key, `${path} key`);
      if (key === undefined) continue;
      const entryPath = `${path}.${key}`;
      if (seen.has(key)) {
        this.fail(entry.key, entryPath, 'set twice');
        continue;
      }
      seen.add(key);
      const value = this.string(entry.value, entryPath);
      if (value !== undefined) out.push({ key, value, node: entry.value, path: entryPath });
    }
    return out;
  }
}

interface RawTls {
  certFile: string;
  keyFile: string;
  clientAuthType: string;
  clientCaFile: string;
  minVersion: string;
  maxVersion: string;
  cipherSuites: Array<{ value: string; node: YamlNode; path: string }>;
  preferServerCipherSuites: boolean;
  curvePreferences: Array<{ value: string; node: YamlNode; path: string }>;
  clientAllowedSans: string[] | undefined;
  lines: Partial<Record<string, YamlNode>>;
}

function decodeTls(d: Decoder, node: YamlNode, path: string): RawTls {
  const raw: RawTls = {
    certFile: '',
    keyFile: '',
    clientAuthType: '',
    clientCaFile: '',
    minVersion: 'TLS12',
    maxVersion: 'TLS13',
    cipherSuites: [],
    preferServerCipherSuites: true,
    curvePreferences: [],
    clientAllowedSans: undefined,
    lines: {},
  };
  /** Decodes a field and remembers its node, so later checks can name its line. */
  const field = (decode: (value: YamlNode, fieldPath: string) => void) => (value: YamlNode, fieldPath: string) => {
    raw.lines[fieldPath] = value;
    decode(value, fieldPath);
  };
  const text = (set: (value: string) => void) =>
    field((value, fieldPath) => {
      const decoded = d.string(value, fieldPath);
      if (decoded !== undefined) set(decoded);
    });
  d.struct(node, path, {
    cert_file: text((v) => (raw.certFile = v)),
    key_file: text((v) => (raw.keyFile = v)),
    client_auth_type: text((v) => (raw.clientAuthType = v)),
    client_ca_file: text((v) => (raw.clientCaFile = v)),
    min_version: text((v) => (raw.minVersion = v)),
    max_version: text((v) => (raw.maxVersion = v)),
    cipher_suites: field((value, fieldPath) => (raw.cipherSuites = d.strings(value, fieldPath) ?? [])),
    prefer_server_cipher_suites: field((value, fieldPath) => (raw.preferServerCipherSuites = d.bool(value, fieldPath) ?? true)),
    curve_preferences: field((value, fieldPath) => (raw.curvePreferences = d.strings(value, fieldPath) ?? [])),
    client_allowed_sans: field((value, fieldPath) => (raw.clientAllowedSans = d.strings(value, fieldPath)?.map((s) => s.value))),
  });
  return raw;
}

/** The checks exporter-toolkit makes when it builds the TLS configuration, with the field named. */
function checkTls(d: Decoder, raw: RawTls, dir: string, path: string): TlsServerConfig | undefined {
  const at = (field: string, message: string): undefined => {
    const node = raw.lines[`${path}.${field}`];
    if (node === undefined) d.errors.push(`${path}.${field}: ${message}`);
    else d.fail(node, `${path}.${field}`, message);
    return undefined;
  };
  if (raw.certFile === '') at('cert_file', 'missing: TLS needs a certificate (and key_file)');
  if (raw.keyFile === '') at('key_file', 'missing: TLS needs the certificate\'s key (and cert_file)');
  const clientAuthType =
    raw.clientAuthType === '' ? 'NoClientCert' : (CLIENT_AUTH_ALIASES[raw.clientAuthType] ?? CLIENT_AUTH_TYPES.find((type) => type === raw.clientAuthType));
  if (clientAuthType === undefined) at('client_auth_type', `${quote(raw.clientAuthType)} is not one of ${CLIENT_AUTH_TYPES.join(', ')}`);
  if (clientAuthType === 'NoClientCert' && raw.clientCaFile !== '') {
    at('client_ca_file', "set while client_auth_type is NoClientCert: client CA's have been configured without a Client Auth Policy");
  }
  if (clientAuthType !== undefined && VERIFYING.includes(clientAuthType) && raw.clientCaFile === '') {
    at('client_auth_type', `${clientAuthType} needs client_ca_file, the CA client certificates are verified against`);
  }
  if (raw.clientAllowedSans !== undefined && (clientAuthType === undefined || !CERTIFICATE_REQUIRED.includes(clientAuthType))) {
    at('client_allowed_sans', 'needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert (a client may otherwise send no certificate to match)');
  }
  const version = (field: 'min_version' | 'max_version', name: string): TlsVersionName | undefined =>
    Object.prototype.hasOwnProperty.call(TLS_VERSIONS, name) ? (name as TlsVersionName) : at(field, `unknown TLS version ${quote(name)} (expected TLS10, TLS11, TLS12 or TLS13)`);
  const minVersion = version('min_version', raw.minVersion);
  const maxVersion = version('max_version', raw.maxVersion);
  if (minVersion !== undefined && maxVersion !== undefined && TLS_VERSIONS[minVersion].order > TLS_VERSIONS[maxVersion].order) {
    at('min_version', `${minVersion} is above max_version ${maxVersion}: no version is left`);
  }
  for (const suite of raw.cipherSuites) {
    if (GO_CIPHER_SUITES[suite.value] === undefined && !GO_TLS13_SUITES.includes(suite.value)) {
      d.fail(suite.node, suite.path, `unknown cipher ${quote(suite.value)} (Go's tls.CipherSuites() names, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)`);
    }
  }
  if (raw.cipherSuites.length > 0 && raw.cipherSuites.every((suite) => GO_TLS13_SUITES.includes(suite.value))) {
    at('cipher_suites', 'names only TLS 1.3 suites, which are not configurable: TLS 1.2 clients would have no suite; name a TLS 1.2 suite or leave the list out');
  }
  for (const curve of raw.curvePreferences) {
    if (GO_CURVES[curve.value] === undefined) d.fail(curve.node, curve.path, `unknown curve ${quote(curve.value)} (expected ${Object.keys(GO_CURVES).join(', ')})`);
  }
  if (clientAuthType === undefined || minVersion === undefined || maxVersion === undefined) return undefined;
  return {
    certFile: fromDir(dir, raw.certFile),
    keyFile: fromDir(dir, raw.keyFile),
    clientAuthType,
    clientCaFile: raw.clientCaFile === '' ? undefined : fromDir(dir, raw.clientCaFile),
    minVersion,
    maxVersion,
    cipherSuites: raw.cipherSuites.map((suite) => suite.value),
    preferServerCipherSuites: raw.preferServerCipherSuites,
    curvePreferences: raw.curvePreferences.map((curve) => curve.value),
    clientAllowedSans: raw.clientAllowedSans,
  };
}

function checkHeader(d: Decoder, header: { key: string; value: string; node: YamlNode; path: string }): [string, string] | undefined {
  const allowed = Object.prototype.hasOwnProperty.call(CONFIGURABLE_HEADERS, header.key) ? CONFIGURABLE_HEADERS[header.key] : undefined;
  if (allowed === undefined) {
    return d.fail(header.node, header.path, `HTTP header ${quote(header.key)} can not be configured (these can: ${Object.keys(CONFIGURABLE_HEADERS).join(', ')})`);
  }
  if (allowed.length > 0 && !allowed.includes(header.value)) {
    return d.fail(header.node, header.path, `invalid value ${quote(header.value)} (expected one of ${allowed.map(quote).join(', ')})`);
  }
  // A header value goes out verbatim: a line break in it would start a header of its own.
  if (/[^\t\x20-\x7e]/.test(header.value)) return d.fail(header.node, header.path, 'a header value holds visible ASCII, spaces and tabs only');
  return [header.key, header.value];
}

function checkUser(d: Decoder, user: { key: string; value: string; node: YamlNode; path: string }): [string, string] | undefined {
  const match = BCRYPT_HASH.exec(user.value);
  if (match === null) return d.fail(user.node, user.path, 'not a bcrypt hash (`$2y$10$` and 53 more characters, as `htpasswd -nbBC 10 user password` prints)');
  const cost = Number(match[1]);
  if (cost < BCRYPT_MIN_COST || cost > BCRYPT_MAX_COST) return d.fail(user.node, user.path, `bcrypt cost ${cost} is outside ${BCRYPT_MIN_COST} to ${BCRYPT_MAX_COST}`);
  return [user.key, user.value];
}

/**
 * Decodes and checks a web configuration file's text. Relative file names are taken from
 * `dir`, the file's directory, as exporter-toolkit does. Every problem is reported, each naming
 * its field.
 */
export function parseWebConfig(text: string, dir: string): WebConfigParse {
  const parsed = parseYaml(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.error] };
  const d = new Decoder();
  let rawTls: RawTls | undefined;
  let http2 = true;
  let headers: Array<{ key: string; value: string; node: YamlNode; path: string }> = [];
  let users: Array<{ key: string; value: string; node: YamlNode; path: string }> = [];
  if (parsed.root !== null) {
    d.struct(parsed.root, '', {
      tls_server_config: (value, path) => (rawTls = decodeTls(d, value, path)),
      http_server_config: (value, path) =>
        d.struct(value, path, {
          http2: (v, p) => (http2 = d.bool(v, p) ?? true),
          headers: (v, p) => (headers = d.stringMap(v, p)),
        }),
      basic_auth_users: (value, path) => (users = d.stringMap(value, path)),
    });
  }
  if (d.errors.length > 0) return { ok: false, errors: d.errors };
  const raw = rawTls as RawTls | undefined;
  const tlsOn = raw !== undefined && (raw.certFile !== '' || raw.keyFile !== '' || raw.clientAuthType !== '' || raw.clientCaFile !== '');
  const tls = tlsOn ? checkTls(d, raw, dir, 'tls_server_config') : undefined;
  const config: WebConfig = {
    tls,
    http2,
    headers: headers.map((header) => checkHeader(d, header)).filter((h): h is [string, string] => h !== undefined),
    users: users.map((user) => checkUser(d, user)).filter((u): u is [string, string] => u !== undefined),
  };
  return d.errors.length > 0 ? { ok: false, errors: d.errors } : { ok: true, config };
}
