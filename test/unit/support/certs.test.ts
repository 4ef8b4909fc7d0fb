import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { generateCerts, sharedSetDir } from '../../support/certs.js';

t.test('every caller gets its own copy of the one set made today', async (t) => {
  const first = await generateCerts(t);
  const second = await generateCerts(t);
  t.ok(existsSync(sharedSetDir(new Date())), 'the set is kept for the callers after these');
  t.not(first.dir, second.dir, 'a directory each');
  t.equal(first.ca.fingerprint256, second.ca.fingerprint256, 'the same CA');
  await writeFile(join(first.dir, 'extra.txt'), 'written by a test');
  t.notOk(existsSync(join(second.dir, 'extra.txt')), "what a test writes into its set stays in its copy");
  await first.remove();
  t.ok(existsSync(second.server.certFile), "removing one copy leaves the other");
});

t.test('the set is signed as its names say', async (t) => {
  const certs = await generateCerts(t);
  const ca = new X509Certificate(certs.ca.cert);
  const foreignCa = new X509Certificate(certs.foreignCa.cert);
  for (const name of ['server', 'server2', 'serverElsewhere', 'clientEnvoy', 'clientOther'] as const) {
    t.ok(new X509Certificate(certs[name].cert).verify(ca.publicKey), `${name} is signed by the CA`);
  }
  t.notOk(new X509Certificate(certs.foreignClient.cert).verify(ca.publicKey), 'foreignClient is not signed by the CA');
  t.ok(new X509Certificate(certs.foreignClient.cert).verify(foreignCa.publicKey), 'but by the foreign CA');
  t.not(certs.server.fingerprint256, certs.server2.fingerprint256, 'server2 is another certificate');
  t.ok(new X509Certificate(certs.server.cert).checkIP('127.0.0.1'), 'server is for 127.0.0.1');
  t.ok(Date.parse(ca.validTo) - Date.now() > 24 * 3600 * 1000, 'valid for more than a day still');
});

t.test("a day's set is named by its UTC date", async (t) => {
  t.match(sharedSetDir(new Date('2026-03-04T23:59:59Z')), /rl-test-certs-2026-03-04$/);
});
