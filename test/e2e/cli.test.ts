/**
 * The helper binaries as a user runs them: `node dist/src/cli/config-check.js` and
 * `node dist/src/cli/client.js` as child processes, asserting exact output and exit codes.
 * The client talks to the real service started in-process (gRPC on a free port, manual clock).
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { FIXTURES_DIR as CONFIG_FIXTURES } from '../fixtures/config/index.js';
import { DEFAULT_NOW, startService } from '../support/service-harness.js';
import { D, fixture } from '../support/service-inputs.js';
import type { Teardown } from '../support/teardown.js';
import { tempDirSync } from '../support/temp-dir.js';

/** dist/test/e2e/cli.test.js -> dist/src/cli/ */
const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli');
const CONFIG_CHECK_JS = join(CLI_DIR, 'config-check.js');
const CLIENT_JS = join(CLI_DIR, 'client.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/** Runs a bin with a clean environment; killed (and the test failed) after 20 s. */
function run(script: string, args: string[]): Promise<Run> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const killer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} still running after 20 s; stdout: ${stdout} stderr: ${stderr}`));
    }, 20_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}

/** A temp directory holding copies of config fixtures (test/fixtures/config). */
function configDir(t: Teardown, ...fixtures: string[]): string {
  const dir = tempDirSync(t, 'rl-cli-config-');
  for (const name of fixtures) copyFileSync(fileURLToPath(new URL(name, CONFIG_FIXTURES)), join(dir, name));
  return dir;
}

const lines = (...l: string[]) => l.map((s) => `${s}\n`).join('');

// ---------------------------------------------------------------------------------------------
// ratelimit-config-check

t.test('config check: a good directory', async (t) => {
  const dir = configDir(t, 'basic_config.yaml', 'reload.yaml');
  const r = await run(CONFIG_CHECK_JS, ['-config_dir', dir]);
  t.equal(r.code, 0);
  t.equal(
    r.stdout,
    lines(
      'checking rate limit configs...',
      `loading config directory: ${dir}`,
      `opening config file: ${dir}/basic_config.yaml`,
      `opening config file: ${dir}/reload.yaml`,
      'all rate limit configs ok',
    ),
  );
  t.equal(r.stderr, '');
});

t.test("config check: a bad file fails with the loader's message, prefixed by its path", async (t) => {
  const cases: Array<[string, string]> = [
    ['bad_limit_unit.yaml', "invalid rate limit unit 'foo'"],
    ['bad_yaml.yaml', 'error loading config file: yaml: line 2: found unexpected end of stream'],
    ['misspelled_key.yaml', "config error, unknown key 'ratelimit'"],
  ];
  for (const [bad, message] of cases) {
    const dir = configDir(t, 'reload.yaml', bad);
    const r = await run(CONFIG_CHECK_JS, [`-config_dir=${dir}`]);
    t.equal(r.code, 1, bad);
    const files = ['reload.yaml', bad].sort();
    t.equal(
      r.stdout,
      lines(
        'checking rate limit configs...',
        `loading config directory: ${dir}`,
        ...files.map((f) => `opening config file: ${dir}/${f}`),
        `error loading rate limit configs: ${dir}/${bad}: ${message}`,
      ),
      bad,
    );
    t.equal(r.stderr, '', bad);
  }
});

t.test('config check: -merge_domain_configs decides whether two files may share a domain', async (t) => {
  const dir = configDir(t, 'merge_domain_key1.yaml', 'merge_domain_key2.yaml');
  const head = lines(
    'checking rate limit configs...',
    `loading config directory: ${dir}`,
    `opening config file: ${dir}/merge_domain_key1.yaml`,
    `opening config file: ${dir}/merge_domain_key2.yaml`,
  );
  for (const args of [[], ['-merge_domain_configs=false'], ['--merge_domain_configs=0']]) {
    const r = await run(CONFIG_CHECK_JS, ['-config_dir', dir, ...args]);
    t.equal(r.code, 1, args.join(' ') || 'default');
    t.equal(r.stdout, head + lines(`error loading rate limit configs: ${dir}/merge_domain_key2.yaml: duplicate domain 'test-domain' in config file`));
  }
  for (const args of [['-merge_domain_configs'], ['--merge_domain_configs'], ['-merge_domain_configs=true'], ['-merge_domain_configs=T']]) {
    const r = await run(CONFIG_CHECK_JS, [...args, '--config_dir', dir]);
    t.equal(r.code, 0, args.join(' '));
    t.equal(r.stdout, head + lines('all rate limit configs ok'), args.join(' '));
  }
});

t.test('config check: every file counts whatever its extension; subdirectories are skipped', async (t) => {
  const dir = configDir(t, 'basic_config.yaml');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'broken.yaml'), "'''\n");
  writeFileSync(join(dir, 'notes.txt'), 'domain: notes\ndescriptors: []\n');
  const ok = await run(CONFIG_CHECK_JS, ['-config_dir', dir]);
  t.equal(ok.code, 0);
  t.equal(
    ok.stdout,
    lines(
      'checking rate limit configs...',
      `loading config directory: ${dir}`,
      `opening config file: ${dir}/basic_config.yaml`,
      `opening config file: ${dir}/notes.txt`,
      `skipping directory: ${dir}/sub`,
      'all rate limit configs ok',
    ),
  );
  writeFileSync(join(dir, 'README'), 'not: [yaml\n');
  const bad = await run(CONFIG_CHECK_JS, ['-config_dir', dir]);
  t.equal(bad.code, 1);
  t.match(bad.stdout, new RegExp(`^opening config file: ${dir}/README\n`, 'm'), 'files are listed in byte order (README before basic_config.yaml)');
  t.match(bad.stdout, new RegExp(`\nerror loading rate limit configs: ${dir}/README: error loading config file: yaml: `), 'a non-YAML file fails the check');
});

t.test('config check: an empty directory is fine; a missing one exits 1', async (t) => {
  const empty = tempDirSync(t, 'rl-cli-empty-');
  const ok = await run(CONFIG_CHECK_JS, ['-config_dir', empty]);
  t.equal(ok.code, 0);
  t.equal(ok.stdout, lines('checking rate limit configs...', `loading config directory: ${empty}`, 'all rate limit configs ok'));

  const missing = join(empty, 'nope');
  const r = await run(CONFIG_CHECK_JS, ['-config_dir', missing]);
  t.equal(r.code, 1);
  t.equal(r.stdout, lines('checking rate limit configs...', `loading config directory: ${missing}`, `error opening directory ${missing}: open ${missing}: no such file or directory`));
});

t.test('config check -strict-upstream: an extension key is refused with its file and line; upstream configs pass', async (t) => {
  const dir = configDir(t, 'basic_config.yaml');
  const extended = join(dir, 'z_extended.yaml');
  writeFileSync(extended, 'domain: ext\ndescriptors:\n  - key: k\n    metadata: {algorithm: free-form}\n    rate_limit: {unit: second, requests_per_unit: 1, algorithm: token_bucket}\n');
  const lenient = await run(CONFIG_CHECK_JS, ['-config_dir', dir]);
  t.equal(lenient.code, 0, 'without the flag the extension loads');
  const strict = await run(CONFIG_CHECK_JS, ['-config_dir', dir, '-strict-upstream']);
  t.equal(strict.code, 1);
  t.match(strict.stdout, `error loading rate limit configs: ${extended}: line 5: key 'algorithm' is an extension of this service that upstream ratelimit refuses (-strict-upstream)\n`, 'metadata is not looked into');
  writeFileSync(extended, 'domain: ext\ndescriptors:\n  - key: k\n    rate_limits:\n      - {unit: second, requests_per_unit: 1}\n');
  t.match((await run(CONFIG_CHECK_JS, ['-config_dir', dir, '-strict-upstream'])).stdout, `${extended}: line 4: key 'rate_limits'`);
  rmSync(extended);
  const upstream = await run(CONFIG_CHECK_JS, ['-config_dir', dir, '-strict-upstream']);
  t.equal(upstream.code, 0, 'a configuration upstream accepts passes');
});

t.test('config check: flag errors print the usage on stderr and exit 2; -h exits 0', async (t) => {
  const usage = lines(
    'Usage of ratelimit-config-check:',
    '  -config_dir string',
    '    \tpath to directory containing rate limit configs',
    '  -merge_domain_configs',
    '    \twhether to merge configurations, referencing the same domain',
    '  -strict-upstream',
    "    \trefuse this service's extension keys (rate_limits, algorithm), which upstream ratelimit does not accept",
  );
  const cases: Array<[string[], string]> = [
    [[], 'missing required flag: -config_dir'],
    [['-config_dir='], 'missing required flag: -config_dir'],
    [['-config_dir'], 'flag needs an argument: -config_dir'],
    [['-bogus', 'x'], 'flag provided but not defined: -bogus'],
    [['-merge_domain_configs=maybe', '-config_dir', '/tmp'], 'invalid boolean value "maybe" for -merge_domain_configs: parse error'],
    [['-config_dir', '/tmp', '-merge_domain_configs', 'false'], 'unexpected argument: false'],
  ];
  for (const [args, message] of cases) {
    const r = await run(CONFIG_CHECK_JS, args);
    t.equal(r.code, 2, args.join(' ') || '(no flags)');
    t.equal(r.stdout, '', args.join(' ') || '(no flags)');
    t.equal(r.stderr, `${message}\n${usage}`, args.join(' ') || '(no flags)');
  }
  const help = await run(CONFIG_CHECK_JS, ['-h']);
  t.equal(help.code, 0);
  t.equal(help.stdout, '');
  t.equal(help.stderr, usage);
});

// ---------------------------------------------------------------------------------------------
// ratelimit-client

t.test('client: OK and OVER_LIMIT responses as JSON, hits_addend 1', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const target = `127.0.0.1:${svc.app.grpcPort}`;
  const head = (descriptors: string) => lines(`dial string: ${target}`, 'domain: basic', `descriptors: ${descriptors}`);

  // key1: 50 per second. At now = 1,000,000 the second window resets in 1 s.
  let r = await run(CLIENT_JS, ['-dial_string', target, '-domain', 'basic', '-descriptors', 'key1=foo']);
  t.equal(r.code, 0);
  t.equal(r.stderr, '');
  t.equal(
    r.stdout,
    head('[{"entries":[{"key":"key1","value":"foo"}]}]') +
      lines('response: {"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"requestsPerUnit":50,"unit":"SECOND"},"limitRemaining":49,"durationUntilReset":"1s"}]}'),
  );
  r = await run(CLIENT_JS, ['-dial_string', target, '-domain', 'basic', '-descriptors', 'key1=foo']);
  t.equal(r.stdout.split('\n')[3], 'response: {"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"requestsPerUnit":50,"unit":"SECOND"},"limitRemaining":48,"durationUntilReset":"1s"}]}', 'each call adds 1');
  t.equal(svc.stat('ratelimit.service.rate_limit.basic.key1.total_hits'), 2);

  // one_per_minute: 1 per minute; the minute window resets in 60 - 1,000,000 % 60 = 20 s.
  t.equal(DEFAULT_NOW % 60, 40);
  r = await run(CLIENT_JS, ['--dial_string=' + target, '-domain=basic', '-descriptors=one_per_minute=a']);
  t.equal(r.code, 0);
  t.equal(
    r.stdout,
    head('[{"entries":[{"key":"one_per_minute","value":"a"}]}]') +
      lines('response: {"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"requestsPerUnit":1,"unit":"MINUTE"},"durationUntilReset":"20s"}]}'),
  );
  r = await run(CLIENT_JS, ['-dial_string', target, '-domain', 'basic', '-descriptors', 'one_per_minute=a', '-descriptors', 'key1=bar', '-descriptors', 'unknown=x,other=y']);
  t.equal(r.code, 0, 'OVER_LIMIT is a response, not an error');
  t.equal(r.stderr, '');
  t.equal(
    r.stdout,
    head('[{"entries":[{"key":"one_per_minute","value":"a"}]},{"entries":[{"key":"key1","value":"bar"}]},{"entries":[{"key":"unknown","value":"x"},{"key":"other","value":"y"}]}]') +
      lines(
        'response: {"overallCode":"OVER_LIMIT","statuses":[' +
          '{"code":"OVER_LIMIT","currentLimit":{"requestsPerUnit":1,"unit":"MINUTE"},"durationUntilReset":"20s"},' +
          '{"code":"OK","currentLimit":{"requestsPerUnit":50,"unit":"SECOND"},"limitRemaining":49,"durationUntilReset":"1s"},' +
          '{"code":"OK"}]}',
      ),
  );
  t.equal(svc.stat('ratelimit.service.rate_limit.basic.one_per_minute.over_limit'), 1);
});

t.test('client: the printed JSON is the /json body for the same decision', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const r = await run(CLIENT_JS, ['-dial_string', `127.0.0.1:${svc.app.grpcPort}`, '-domain', 'basic', '-descriptors', 'key1=grpc', '-descriptors', 'one_per_minute=grpc']);
  const http = await svc.post({ domain: 'basic', descriptors: [D('key1', 'http'), D('one_per_minute', 'http')] });
  t.equal(http.status, 200);
  t.equal(r.stdout.split('\n')[3], `response: ${http.text}`);
});

t.test('client: a refused request exits 1 with the gRPC status', async (t) => {
  const svc = await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') } });
  const target = `127.0.0.1:${svc.app.grpcPort}`;
  const r = await run(CLIENT_JS, ['-dial_string', target, '-descriptors', 'key1=foo']);
  t.equal(r.code, 1);
  t.equal(r.stdout, lines(`dial string: ${target}`, 'domain: ', 'descriptors: [{"entries":[{"key":"key1","value":"foo"}]}]'), 'no response line');
  t.equal(r.stderr, 'error: rpc error: code = Unknown desc = rate limit domain must not be empty\n');

  const none = await run(CLIENT_JS, ['-dial_string', target, '-domain', 'basic']);
  t.equal(none.code, 1);
  t.equal(none.stderr, 'error: rpc error: code = Unknown desc = rate limit descriptor list must not be empty\n');
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

t.test('client: an unreachable address exits 1 well within the timeout', async (t) => {
  const port = await closedPort();
  const r = await run(CLIENT_JS, ['-dial_string', `127.0.0.1:${port}`, '-domain', 'basic', '-descriptors', 'key1=foo', '-timeout', '3s']);
  t.equal(r.code, 1);
  t.equal(r.stdout, lines(`dial string: 127.0.0.1:${port}`, 'domain: basic', 'descriptors: [{"entries":[{"key":"key1","value":"foo"}]}]'));
  t.match(r.stderr, /^error: rpc error: code = Unavailable desc = .*ECONNREFUSED/);
  t.ok(r.elapsedMs < 3000, `exited after ${r.elapsedMs} ms`);
});

t.test('client: a server that never answers hits -timeout and exits 1', async (t) => {
  // Accepts TCP connections and never speaks HTTP/2.
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  const port = (server.address() as { port: number }).port;
  const r = await run(CLIENT_JS, ['-dial_string', `127.0.0.1:${port}`, '-domain', 'basic', '-descriptors', 'key1=foo', '-timeout', '700ms']);
  t.equal(r.code, 1);
  t.match(r.stderr, /^error: rpc error: code = DeadlineExceeded desc = Deadline exceeded/);
  t.ok(r.elapsedMs >= 700, `waited the deadline (${r.elapsedMs} ms)`);
  t.ok(r.elapsedMs < 5000, `did not hang (${r.elapsedMs} ms)`);
  t.ok(sockets.length >= 1, 'the client did connect');
});

t.test('client: unix socket dial strings', async (t) => {
  const dir = tempDirSync(t, 'rl-cli-uds-');
  const socket = join(dir, 'grpc.sock');
  await startService(t, { files: { 'basic.yaml': fixture('basic.yaml') }, env: { GRPC_UDS: socket } });
  const answer = (code: string) =>
    `response: {"overallCode":"${code}","statuses":[{"code":"${code}","currentLimit":{"requestsPerUnit":1,"unit":"MINUTE"},"durationUntilReset":"20s"}]}`;
  // Two spellings, one counter (1 per minute): the first call is OK, the second over the limit.
  for (const [target, code] of [
    [`unix:${socket}`, 'OK'],
    [`unix://${socket}`, 'OVER_LIMIT'],
  ] as const) {
    const r = await run(CLIENT_JS, ['-dial_string', target, '-domain', 'basic', '-descriptors', 'one_per_minute=uds']);
    t.equal(r.code, 0, target);
    t.equal(r.stderr, '', target);
    t.equal(r.stdout, lines(`dial string: ${target}`, 'domain: basic', 'descriptors: [{"entries":[{"key":"one_per_minute","value":"uds"}]}]', answer(code)), target);
  }
});

t.test('client: flag errors exit 2 with the usage on stderr; -h exits 0', async (t) => {
  const bad = await run(CLIENT_JS, ['-descriptors', 'key1']);
  t.equal(bad.code, 2);
  t.equal(bad.stdout, '');
  t.ok(bad.stderr.startsWith('invalid value "key1" for flag -descriptors: invalid descriptor list\nUsage of ratelimit-client:\n  -descriptors value\n'), bad.stderr);
  const unknown = await run(CLIENT_JS, ['-oltp-protocol', 'grpc']);
  t.equal(unknown.code, 2);
  t.ok(unknown.stderr.startsWith('flag provided but not defined: -oltp-protocol\n'), unknown.stderr);
  const help = await run(CLIENT_JS, ['-help']);
  t.equal(help.code, 0);
  t.equal(help.stdout, '');
  t.match(help.stderr, /^Usage of ratelimit-client:\n/);
  t.match(help.stderr, /\n {2}-timeout duration\n {4}\tdeadline of the call, connection included \(default 5s\)\n$/);
  t.match(help.stderr, /\n {2}-dial_string string\n.*\(default "localhost:8081"\)\n/);
});

// ---------------------------------------------------------------------------------------------
// ratelimit-client over TLS

interface Pki {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** A CA, a server certificate for DNS name `rls.test` only, and a client certificate. */
function makePki(t: Teardown): Pki {
  const dir = tempDirSync(t, 'rl-cli-tls-');
  const p = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', p('ca.key'), '-out', p('ca.pem'), '-days', '2', '-subj', '/CN=cli-test-ca', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  for (const [name, cn, ext] of [
    ['server', 'rls.test', 'subjectAltName=DNS:rls.test\nextendedKeyUsage=serverAuth\n'],
    ['client', 'envoy', 'subjectAltName=DNS:envoy\nextendedKeyUsage=clientAuth\n'],
  ] as const) {
    writeFileSync(p(`${name}.ext`), ext);
    openssl('req', ...ec, '-keyout', p(`${name}.key`), '-out', p(`${name}.csr`), '-subj', `/CN=${cn}`);
    openssl('x509', '-req', '-in', p(`${name}.csr`), '-CA', p('ca.pem'), '-CAkey', p('ca.key'), '-CAcreateserial', '-out', p(`${name}.pem`), '-days', '2', '-extfile', p(`${name}.ext`));
  }
  return { dir, ca: p('ca.pem'), serverCert: p('server.pem'), serverKey: p('server.key'), clientCert: p('client.pem'), clientKey: p('client.key') };
}

t.test('client: TLS and mutual TLS', async (t) => {
  const pki = makePki(t);
  const svc = await startService(t, {
    files: { 'basic.yaml': fixture('basic.yaml') },
    env: { GRPC_SERVER_USE_TLS: 'true', GRPC_SERVER_TLS_CERT: pki.serverCert, GRPC_SERVER_TLS_KEY: pki.serverKey, GRPC_CLIENT_TLS_CACERT: pki.ca },
  });
  const target = `127.0.0.1:${svc.app.grpcPort}`;
  const request = ['-dial_string', target, '-domain', 'basic', '-descriptors', 'key1=tls', '-timeout', '3s'];
  const tls = ['-grpc-use-tls', '-grpc-server-ca-file', pki.ca];
  const clientCert = ['-grpc-cert-file', pki.clientCert, '-grpc-key-file', pki.clientKey];

  const ok = await run(CLIENT_JS, [...request, ...tls, ...clientCert, '-grpc-server-name', 'rls.test']);
  t.equal(ok.stderr, '');
  t.equal(ok.code, 0);
  t.equal(ok.stdout.split('\n')[3], 'response: {"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{"requestsPerUnit":50,"unit":"SECOND"},"limitRemaining":49,"durationUntilReset":"1s"}]}');

  const wrongName = await run(CLIENT_JS, [...request, ...tls, ...clientCert]);
  t.equal(wrongName.code, 1, 'the certificate names rls.test, not 127.0.0.1');
  t.match(wrongName.stderr, /^error: rpc error: code = Unavailable desc = .*ERR_TLS_CERT_ALTNAME_INVALID/);
  t.equal(wrongName.stderr.split('\n').length, 2, 'one line, no deprecation warning');

  const noClientCert = await run(CLIENT_JS, [...request, ...tls, '-grpc-server-name', 'rls.test']);
  t.equal(noClientCert.code, 1, 'mutual TLS wants a client certificate');
  t.match(noClientCert.stderr, /^error: rpc error: code = Unavailable desc = /);

  const unknownCa = await run(CLIENT_JS, [...request, '-grpc-use-tls', ...clientCert, '-grpc-server-name', 'rls.test']);
  t.equal(unknownCa.code, 1, 'the test CA is not among the default roots');
  t.match(unknownCa.stderr, /^error: rpc error: code = Unavailable desc = /);

  const plaintext = await run(CLIENT_JS, request);
  t.equal(plaintext.code, 1, 'plaintext to a TLS port');
  t.match(plaintext.stderr, /^error: rpc error: code = Unavailable desc = /);

  t.equal(svc.stat('ratelimit.service.rate_limit.basic.key1.total_hits'), 1, 'only the good call reached the service');
});
