/**
 * Reading Alertmanager's web configuration file: exporter-toolkit's fields and defaults, its
 * refusals (unknown fields, values it does not know, client CAs without a policy, headers it does
 * not allow, hashes that are not bcrypt), each naming the field; the TLS files checked as one
 * set; which TLS implementation serves a configuration; and the watcher that re-reads them.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import {
  filesOf,
  loadWebConfig,
  nodeTlsPlan,
  parseWebConfig,
  subjectAltNames,
  tlsEngineFor,
  WebConfigWatcher,
  type LoadedWebConfig,
  type TlsServerConfig,
} from '../../../../src/transports/http/web-config/index.js';
import { generateCerts, rotatableServerCerts } from '../../../support/certs.js';
import { tempDir } from '../../../support/temp-dir.js';

/** bcrypt of "s3cret" at cost 4 (bcryptjs). */
const HASH = '$2b$04$U8VBlMN6OTIvH7B.plKfu.n0KgIUTpNjl/OWtYzfN.y7wush1tc/C';

function errorsOf(text: string): string[] {
  const parsed = parseWebConfig(text, '/etc/am');
  return parsed.ok ? [] : parsed.errors;
}

function tlsOf(text: string): TlsServerConfig | undefined {
  const parsed = parseWebConfig(text, '/etc/am');
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config.tls;
}

t.test('an empty file serves plain HTTP with no users, as exporter-toolkit does', async (t) => {
  for (const text of ['', '# nothing\n', '{}\n']) {
    t.same(parseWebConfig(text, '/etc/am'), { ok: true, config: { tls: undefined, http2: true, headers: [], users: [] } }, JSON.stringify(text));
  }
});

t.test('every field of the file, with relative paths taken from its directory', async (t) => {
  const parsed = parseWebConfig(
    [
      'tls_server_config:',
      '  cert_file: tls/server.crt',
      '  key_file: /abs/server.key',
      '  client_auth_type: RequireAndVerifyClientCert',
      '  client_ca_file: ca.crt',
      '  min_version: TLS13',
      '  max_version: TLS13',
      '  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_AES_128_GCM_SHA256]',
      '  prefer_server_cipher_suites: false',
      '  curve_preferences: [X25519, CurveP256]',
      '  client_allowed_sans: [envoy.internal]',
      'http_server_config:',
      '  http2: false',
      '  headers:',
      '    Strict-Transport-Security: max-age=31536000',
      '    X-Frame-Options: sameorigin',
      'basic_auth_users:',
      `  alice: ${HASH}`,
      `  bob: '${HASH}'`,
    ].join('\n'),
    '/etc/am',
  );
  t.same(parsed, {
    ok: true,
    config: {
      tls: {
        certFile: '/etc/am/tls/server.crt',
        keyFile: '/abs/server.key',
        clientAuthType: 'RequireAndVerifyClientCert',
        clientCaFile: '/etc/am/ca.crt',
        minVersion: 'TLS13',
        maxVersion: 'TLS13',
        cipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256'],
        preferServerCipherSuites: false,
        curvePreferences: ['X25519', 'CurveP256'],
        clientAllowedSans: ['envoy.internal'],
      },
      http2: false,
      headers: [
        ['Strict-Transport-Security', 'max-age=31536000'],
        ['X-Frame-Options', 'sameorigin'],
      ],
      users: [
        ['alice', HASH],
        ['bob', HASH],
      ],
    },
  });
});

t.test('TLS defaults: no client certificate, TLS 1.2 to 1.3; settings without a certificate turn nothing on', async (t) => {
  t.match(tlsOf('tls_server_config: {cert_file: c.pem, key_file: k.pem}'), {
    clientAuthType: 'NoClientCert',
    clientCaFile: undefined,
    minVersion: 'TLS12',
    maxVersion: 'TLS13',
    cipherSuites: [],
    preferServerCipherSuites: true,
    curvePreferences: [],
    clientAllowedSans: undefined,
  });
  t.equal(tlsOf('tls_server_config: {min_version: TLS13}'), undefined, 'only a version: plain HTTP, as exporter-toolkit');
  t.equal(tlsOf('tls_server_config: {cert_file: c, key_file: k, client_auth_type: RequireClientCert, client_ca_file: ca}')?.clientAuthType, 'RequireAnyClientCert', 'the old spelling');
});

t.test('unknown and repeated fields are refused with their path and line, as UnmarshalStrict does', async (t) => {
  t.same(errorsOf('tls_server_config:\n  cert_file: c\n  key_file: k\n  cert: inline\n'), [
    'line 4: tls_server_config.cert: unknown field (the fields here are cert_file, key_file, client_auth_type, client_ca_file, min_version, max_version, cipher_suites, prefer_server_cipher_suites, curve_preferences, client_allowed_sans)',
  ]);
  t.same(errorsOf('basic_auth_user:\n  a: b\n'), ['line 1: basic_auth_user: unknown field (the fields here are tls_server_config, http_server_config, basic_auth_users)']);
  t.same(errorsOf('http_server_config:\n  http3: true\n'), ['line 2: http_server_config.http3: unknown field (the fields here are http2, headers)']);
  t.same(errorsOf(`basic_auth_users:\n  a: ${HASH}\n  a: ${HASH}\n`), ['line 3: basic_auth_users.a: set twice']);
  t.same(errorsOf('http_server_config: {http2: true}\nhttp_server_config: {http2: false}\n'), ['line 2: http_server_config: set twice']);
});

t.test('values of the wrong kind name their field', async (t) => {
  t.same(errorsOf('tls_server_config: [a]\n'), ['line 1: tls_server_config: expected a mapping of cert_file, key_file, client_auth_type, client_ca_file, min_version, max_version, cipher_suites, prefer_server_cipher_suites, curve_preferences, client_allowed_sans']);
  t.same(errorsOf('http_server_config: {http2: maybe}\n'), ['line 1: http_server_config.http2: expected true or false']);
  t.same(errorsOf('tls_server_config: {cert_file: {a: 1}, key_file: k}\n'), ['line 1: tls_server_config.cert_file: expected a string']);
  t.same(errorsOf('tls_server_config: {cert_file: c, key_file: k, cipher_suites: TLS_AES_128_GCM_SHA256}\n'), ['line 1: tls_server_config.cipher_suites: expected a list of strings']);
  t.same(errorsOf('basic_auth_users: [alice]\n'), ['line 1: basic_auth_users: expected a mapping']);
  t.same(errorsOf('[1, 2]\n'), ['line 1: the file: expected a mapping of tls_server_config, http_server_config, basic_auth_users']);
  t.match(errorsOf('tls_server_config: {cert_file: "unclosed\n'), [/^yaml: /], 'a YAML syntax error');
});

t.test("the TLS checks exporter-toolkit makes, each naming the field", async (t) => {
  const cases: Array<[string, string]> = [
    ['key_file: k', 'tls_server_config.cert_file: missing: TLS needs a certificate (and key_file)'],
    ['cert_file: c', "tls_server_config.key_file: missing: TLS needs the certificate's key (and cert_file)"],
    ['cert_file: c\n  key_file: k\n  client_auth_type: Sometimes', 'line 4: tls_server_config.client_auth_type: "Sometimes" is not one of NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven, RequireAndVerifyClientCert'],
    ['cert_file: c\n  key_file: k\n  client_ca_file: ca', "line 4: tls_server_config.client_ca_file: set while client_auth_type is NoClientCert: client CA's have been configured without a Client Auth Policy"],
    ['cert_file: c\n  key_file: k\n  client_auth_type: RequireAndVerifyClientCert', 'line 4: tls_server_config.client_auth_type: RequireAndVerifyClientCert needs client_ca_file, the CA client certificates are verified against'],
    ['cert_file: c\n  key_file: k\n  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: ca\n  client_allowed_sans: [x]', 'line 6: tls_server_config.client_allowed_sans: needs client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert (a client may otherwise send no certificate to match)'],
    ['cert_file: c\n  key_file: k\n  min_version: TLS14', 'line 4: tls_server_config.min_version: unknown TLS version "TLS14" (expected TLS10, TLS11, TLS12 or TLS13)'],
    ['cert_file: c\n  key_file: k\n  max_version: SSL3', 'line 4: tls_server_config.max_version: unknown TLS version "SSL3" (expected TLS10, TLS11, TLS12 or TLS13)'],
    ['cert_file: c\n  key_file: k\n  min_version: TLS13\n  max_version: TLS12', 'line 4: tls_server_config.min_version: TLS13 is above max_version TLS12: no version is left'],
    ['cert_file: c\n  key_file: k\n  cipher_suites: [TLS_RSA_WITH_RC4_128_SHA]', 'line 4: tls_server_config.cipher_suites[0]: unknown cipher "TLS_RSA_WITH_RC4_128_SHA" (Go\'s tls.CipherSuites() names, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)'],
    ['cert_file: c\n  key_file: k\n  cipher_suites: [TLS_AES_256_GCM_SHA384]', 'line 4: tls_server_config.cipher_suites: names only TLS 1.3 suites, which are not configurable: TLS 1.2 clients would have no suite; name a TLS 1.2 suite or leave the list out'],
    ['cert_file: c\n  key_file: k\n  curve_preferences: [CurveP256, P-384]', 'line 4: tls_server_config.curve_preferences[1]: unknown curve "P-384" (expected CurveP256, CurveP384, CurveP521, X25519)'],
  ];
  for (const [fields, error] of cases) {
    const errors = errorsOf(`tls_server_config:\n  ${fields}\n`);
    t.same(errors, [error], fields.replace(/\n\s*/g, ', '));
  }
});

t.test('headers: only those exporter-toolkit allows, with their values, and nothing that breaks a line', async (t) => {
  t.same(errorsOf('http_server_config:\n  headers:\n    Server: x\n'), [
    'line 3: http_server_config.headers.Server: HTTP header "Server" can not be configured (these can: Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, X-XSS-Protection, Content-Security-Policy)',
  ]);
  t.same(errorsOf('http_server_config:\n  headers:\n    X-Frame-Options: allow\n'), ['line 3: http_server_config.headers.X-Frame-Options: invalid value "allow" (expected one of "deny", "sameorigin")']);
  t.same(errorsOf('http_server_config:\n  headers:\n    X-Content-Type-Options: sniff\n'), ['line 3: http_server_config.headers.X-Content-Type-Options: invalid value "sniff" (expected one of "nosniff")']);
  t.same(errorsOf('http_server_config:\n  headers:\n    Content-Security-Policy: "a\\r\\nSet-Cookie: b"\n'), [
    'line 3: http_server_config.headers.Content-Security-Policy: a header value holds visible ASCII, spaces and tabs only',
  ]);
});

t.test('basic_auth_users: each value must be a bcrypt hash Go can read', async (t) => {
  t.same(errorsOf('basic_auth_users:\n  alice: s3cret\n'), ['line 2: basic_auth_users.alice: not a bcrypt hash (`$2y$10$` and 53 more characters, as `htpasswd -nbBC 10 user password` prints)']);
  t.same(errorsOf(`basic_auth_users:\n  alice: '${HASH.replace('$04$', '$03$')}'\n`), ['line 2: basic_auth_users.alice: bcrypt cost 3 is outside 4 to 31']);
  t.same(errorsOf(`basic_auth_users:\n  alice: '${HASH.replace('$2b$', '$2y$')}'\n  bob: '${HASH.replace('$2b$', '$2a$')}'\n`), [], 'htpasswd ($2y$) and older ($2a$) spellings');
});

t.test('which TLS implementation serves a configuration', async (t) => {
  const base = 'tls_server_config:\n  cert_file: c\n  key_file: k\n';
  t.same(tlsEngineFor(tlsOf(base) as TlsServerConfig), { kind: 'uws' }, 'certificate only: uWS on every HTTP thread');
  t.same(tlsEngineFor(tlsOf(`${base}  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: ca\n  cipher_suites: [TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]\n`) as TlsServerConfig), { kind: 'uws' }, 'what uWS verifies and ciphers: uWS');
  t.same(tlsEngineFor(tlsOf(`${base}  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca\n`) as TlsServerConfig), { kind: 'node', why: 'client_auth_type RequireAndVerifyClientCert' });
  t.same(tlsEngineFor(tlsOf(`${base}  min_version: TLS13\n`) as TlsServerConfig), { kind: 'node', why: 'TLS versions TLS13 to TLS13' });
  t.same(tlsEngineFor(tlsOf(`${base}  curve_preferences: [X25519]\n`) as TlsServerConfig), { kind: 'node', why: 'curve_preferences' });
  t.same(tlsEngineFor(tlsOf(`${base}  client_auth_type: RequireAnyClientCert\n  client_allowed_sans: [a]\n`) as TlsServerConfig), { kind: 'node', why: 'client_auth_type RequireAnyClientCert' });

  const plan = nodeTlsPlan(tlsOf(`${base}  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca\n  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, TLS_AES_128_GCM_SHA256]\n  curve_preferences: [CurveP384, X25519]\n  min_version: TLS13\n`) as TlsServerConfig, {
    cert: Buffer.from('c'),
    key: Buffer.from('k'),
    ca: Buffer.from('ca'),
  });
  t.match(plan, {
    context: { minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3', ciphers: 'ECDHE-RSA-AES256-GCM-SHA384', ecdhCurve: 'P-384:X25519' },
    requestCert: true,
    rejectUnauthorized: true,
    requireCertificate: true,
    verifyGivenCertificate: false,
  });
  t.same(subjectAltNames('DNS:envoy.internal, IP Address:127.0.0.1, email:a@b.c, URI:spiffe://x/y, DirName:CN=z'), ['envoy.internal', '127.0.0.1', 'a@b.c', 'spiffe://x/y']);
  t.same(subjectAltNames(undefined), []);
});

t.test('loading reads the TLS files as one set and names the field at fault', async (t) => {
  const certs = await generateCerts(t);
  const dir = await tempDir(t, 'rl-webcfg-');
  const file = join(dir, 'web.yml');
  const write = (text: string) => writeFile(file, text);

  await write(`tls_server_config:\n  cert_file: ${certs.server.certFile}\n  key_file: ${certs.server.keyFile}\nbasic_auth_users:\n  alice: '${HASH}'\n`);
  const good = loadWebConfig(file);
  t.ok(good.ok, 'a matching certificate and key load');
  t.same(good.ok && good.loaded.material?.cert, certs.server.cert);
  t.same(filesOf(file, good.ok ? good.loaded.config : undefined), [file, certs.server.certFile, certs.server.keyFile], 'the files to watch');

  await write(`tls_server_config:\n  cert_file: ${certs.server.certFile}\n  key_file: ${certs.server2.keyFile}\n`);
  t.match(loadWebConfig(file), { ok: false, message: /^WEB_CONFIG_FILE .*web\.yml: tls_server_config\.cert_file and key_file \(.*\) do not make a certificate and its key: / }, 'another certificate\'s key');

  await write('tls_server_config:\n  cert_file: missing.crt\n  key_file: missing.key\n');
  t.same(loadWebConfig(file), { ok: false, message: `WEB_CONFIG_FILE ${file}: tls_server_config.cert_file: cannot read ${join(dir, 'missing.crt')}: ENOENT` }, 'relative to the file, and unreadable');

  await write(`tls_server_config:\n  cert_file: ${certs.server.certFile}\n  key_file: ${certs.server.keyFile}\n  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ${certs.server.keyFile}\n`);
  t.same(loadWebConfig(file), { ok: false, message: `WEB_CONFIG_FILE ${file}: tls_server_config.client_ca_file: ${certs.server.keyFile} holds no PEM certificate` });

  t.match(loadWebConfig(join(dir, 'absent.yml')), { ok: false, message: /^WEB_CONFIG_FILE .*absent\.yml: cannot read it: ENOENT$/ });
});

t.test('the watcher hands on a changed set only once it loads whole, and watches the files it names', async (t) => {
  const certs = await generateCerts(t);
  const { dir, certFile, keyFile, replace } = await rotatableServerCerts(t, certs, 'rl-webcfg-watch-');
  const file = join(dir, 'web.yml');
  await writeFile(file, 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n');
  const changes: LoadedWebConfig[] = [];
  const rejections: string[] = [];
  const watcher = new WebConfigWatcher({ file, pollIntervalMs: 60_000, onChange: (loaded) => changes.push(loaded), onRejected: (message) => rejections.push(message) });
  t.teardown(() => watcher.close());
  t.same(watcher.current.material?.cert, certs.server.cert);

  watcher.poll();
  t.same([changes.length, rejections.length], [0, 0], 'nothing changed: nothing happens');

  // A rotation half done: the new certificate is in place, its key is not yet.
  await replace(certFile, certs.server2.cert);
  watcher.poll();
  t.equal(changes.length, 0, 'a certificate without its key is not handed on');
  t.match(rejections, [/do not make a certificate and its key/]);
  watcher.poll();
  t.equal(rejections.length, 1, 'the same refusal is told once');
  await replace(keyFile, certs.server2.key);
  watcher.poll();
  t.equal(changes.length, 1, 'the whole new pair is');
  t.same(changes[0]?.material?.cert, certs.server2.cert);
  t.same(watcher.current.material?.key, certs.server2.key);

  // The file names files that do not exist yet; they are picked up when they appear.
  await writeFile(file, 'tls_server_config:\n  cert_file: next.crt\n  key_file: next.key\n');
  watcher.poll();
  t.equal(changes.length, 1, 'names of missing files: refused');
  await writeFile(join(dir, 'next.key'), certs.server.key);
  await writeFile(join(dir, 'next.crt'), certs.server.cert);
  watcher.poll();
  t.equal(changes.length, 2, 'once they are there, the file loads');
  t.same(changes[1]?.material?.cert, certs.server.cert);

  await rm(join(dir, 'next.crt'));
  watcher.poll();
  t.equal(changes.length, 2, 'a file gone: the last set that loaded stays');
  t.same(watcher.current.material?.cert, certs.server.cert);
});

t.test('a watcher refuses to start on a file that does not load', async (t) => {
  const dir = await tempDir(t, 'rl-webcfg-bad-');
  const file = join(dir, 'web.yml');
  await writeFile(file, 'tls_server_config:\n  cert_file: c\n');
  t.throws(
    () => new WebConfigWatcher({ file, pollIntervalMs: 1000, onChange: () => undefined, onRejected: () => undefined }),
    new Error(`WEB_CONFIG_FILE ${file}: tls_server_config.key_file: missing: TLS needs the certificate's key (and cert_file)`),
  );
});
