/**
 * Test certificates made with the openssl command line (P-256 keys, valid for two days), each
 * caller's set in a fresh temp directory of its own:
 *
 * - `ca`: the CA every server and client certificate below is signed by (unless noted);
 * - `server`, `server2`: server certificates with SAN DNS:localhost, IP:127.0.0.1 (server2 is
 *   the rotation target: same names, different key and serial);
 * - `serverElsewhere`: a server certificate for DNS:elsewhere.internal only, which a client
 *   connecting to 127.0.0.1 must refuse unless it skips the hostname check;
 * - `clientEnvoy`: client certificate with SAN DNS:envoy.internal;
 * - `clientOther`: client certificate with SAN DNS:other.internal;
 * - `foreignCa` and `foreignClient`: another CA and a client certificate (SAN DNS:envoy.internal)
 *   signed by it, which the server's client CA must refuse.
 *
 *   const certs = await generateCerts(t);
 *   startProcess(t, { GRPC_SERVER_TLS_CERT: certs.server.certFile, ... });
 *
 * The set is made once a day and copied for every caller after that (sharedSetDir): a full test
 * run asks for 22 sets, and making each took fourteen openssl runs (about 12 s of CPU in all).
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFailure, runCommand } from './command-runner.js';
import type { Teardown } from './teardown.js';
import { makeTempDir, tempDir } from './temp-dir.js';

export interface KeyPair {
  certFile: string;
  keyFile: string;
  /** PEM text of the certificate. */
  cert: Buffer;
  /** PEM text of the private key. */
  key: Buffer;
  /** SHA-256 fingerprint as node:tls reports it (`AB:CD:...`). */
  fingerprint256: string;
  /** Serial number in upper-case hex, as node:tls reports it. */
  serialNumber: string;
}

export interface CertSet {
  dir: string;
  ca: KeyPair;
  server: KeyPair;
  server2: KeyPair;
  serverElsewhere: KeyPair;
  clientEnvoy: KeyPair;
  clientOther: KeyPair;
  foreignCa: KeyPair;
  foreignClient: KeyPair;
  /** Removes the directory (also done by the teardown of the `t` given to generateCerts). */
  remove(): Promise<void>;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  const result = await runCommand('openssl', args, { cwd });
  if (result.code !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${describeFailure(result)}`);
}

function keyPair(dir: string, name: string): KeyPair {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  const cert = readFileSync(certFile);
  const x509 = new X509Certificate(cert);
  return {
    certFile,
    keyFile,
    cert,
    key: readFileSync(keyFile),
    fingerprint256: x509.fingerprint256,
    serialNumber: x509.serialNumber.toUpperCase(),
  };
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function makeCa(dir: string, name: string, cn: string): Promise<void> {
  await openssl(
    [
      'req', '-x509', ...EC, '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${cn}`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
}

async function makeLeaf(dir: string, name: string, ca: string, cn: string, san: string, usage: 'serverAuth' | 'clientAuth', serial: number): Promise<void> {
  const ext = `${name}.ext`;
  await writeFile(
    join(dir, ext),
    `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=${usage}\nsubjectAltName=${san}\n`,
  );
  await openssl(['req', '-new', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`], dir);
  await openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-set_serial', String(serial), '-days', '2', '-extfile', ext, '-out', `${name}.crt`],
    dir,
  );
}

async function makeSet(dir: string): Promise<void> {
  await Promise.all([makeCa(dir, 'ca', 'ratelimit test CA'), makeCa(dir, 'foreign-ca', 'some other CA')]);
  await Promise.all([
    makeLeaf(dir, 'server', 'ca', 'localhost', 'DNS:localhost,IP:127.0.0.1', 'serverAuth', 0x1001),
    makeLeaf(dir, 'server2', 'ca', 'localhost', 'DNS:localhost,IP:127.0.0.1', 'serverAuth', 0x2002),
    makeLeaf(dir, 'server-elsewhere', 'ca', 'elsewhere', 'DNS:elsewhere.internal', 'serverAuth', 0x6006),
    makeLeaf(dir, 'client-envoy', 'ca', 'envoy', 'DNS:envoy.internal', 'clientAuth', 0x3003),
    makeLeaf(dir, 'client-other', 'ca', 'other', 'DNS:other.internal', 'clientAuth', 0x4004),
    makeLeaf(dir, 'foreign-client', 'foreign-ca', 'envoy', 'DNS:envoy.internal', 'clientAuth', 0x5005),
  ]);
}

/**
 * Where the set made first today is kept for the test processes after it. A set made today is
 * valid at least until tomorrow ends, so no process ever replaces a set another may be copying.
 */
export function sharedSetDir(now: Date): string {
  return join(tmpdir(), `rl-test-certs-${now.toISOString().slice(0, 10)}`);
}

/**
 * Makes today's set when there is none: made in a directory of its own, then renamed into place,
 * so a process never copies half a set. When two processes make one at the same time, the second
 * rename fails and both copy the first.
 */
async function ensureSharedSet(shared: string): Promise<void> {
  if (existsSync(shared)) return;
  const fresh = await makeTempDir('rl-certs-making-');
  try {
    await makeSet(fresh.path);
    await rename(fresh.path, shared).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await fresh.remove();
  }
}

/** The whole set, copied into a fresh directory; `t` gets a teardown that removes the directory. */
export async function generateCerts(t?: Teardown): Promise<CertSet> {
  const shared = sharedSetDir(new Date());
  await ensureSharedSet(shared);
  const { path: dir, remove } = await makeTempDir('rl-certs-');
  t?.teardown(remove);
  try {
    await cp(shared, dir, { recursive: true });
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    dir,
    ca: keyPair(dir, 'ca'),
    server: keyPair(dir, 'server'),
    server2: keyPair(dir, 'server2'),
    serverElsewhere: keyPair(dir, 'server-elsewhere'),
    clientEnvoy: keyPair(dir, 'client-envoy'),
    clientOther: keyPair(dir, 'client-other'),
    foreignCa: keyPair(dir, 'foreign-ca'),
    foreignClient: keyPair(dir, 'foreign-client'),
    remove,
  };
}

export interface RotatableCerts {
  dir: string;
  certFile: string;
  keyFile: string;
  /** Writes `content` beside `file` and renames it over: readers see the old file or the new, never half. */
  replace(file: string, content: Buffer): Promise<void>;
}

/** `server`'s certificate and key copied into a directory of their own, to be rotated as rotation tools do. */
export async function rotatableServerCerts(t: Teardown, certs: CertSet, prefix: string): Promise<RotatableCerts> {
  const dir = await tempDir(t, prefix);
  const certFile = join(dir, 'server.crt');
  const keyFile = join(dir, 'server.key');
  await writeFile(certFile, certs.server.cert);
  await writeFile(keyFile, certs.server.key);
  let staged = 0;
  const replace = async (file: string, content: Buffer) => {
    const temp = join(dir, `.staged-${++staged}`);
    await writeFile(temp, content);
    await rename(temp, file);
  };
  return { dir, certFile, keyFile, replace };
}
