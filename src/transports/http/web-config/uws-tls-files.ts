import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UwsTlsOptions } from '../http-server.js';
import { opensslCipherList } from './go-tls-names.js';
import type { TlsMaterial } from './load.js';
import type { TlsServerConfig } from './model.js';

/** Generations of files kept: an HTTP thread still behind by one can build its app from them. */
const GENERATIONS_KEPT = 2;

/**
 * uWebSockets.js reads its certificate, key and CA from files, when each HTTP thread builds its
 * app. Giving it the configured paths would let a rotation in progress hand it a certificate
 * with the wrong key. So the main thread writes the set it checked to a private directory
 * (mode 0700, files 0600, removed at close), one generation per change, and every thread loads
 * exactly that set.
 */
export class UwsTlsFiles {
  /** The private directory (the log names it). */
  readonly dir = mkdtempSync(join(tmpdir(), 'ratelimit-web-tls-'));
  private generation = 0;

  write(tls: TlsServerConfig, material: TlsMaterial): UwsTlsOptions {
    const generation = ++this.generation;
    const file = (name: string, content: Buffer) => {
      const path = join(this.dir, `${generation}-${name}`);
      writeFileSync(path, content, { mode: 0o600 });
      return path;
    };
    const ciphers = opensslCipherList(tls.cipherSuites);
    const options: UwsTlsOptions = {
      cert_file_name: file('cert.pem', material.cert),
      key_file_name: file('key.pem', material.key),
      ...(material.ca === undefined ? {} : { ca_file_name: file('ca.pem', material.ca) }),
      ...(ciphers === '' ? {} : { ssl_ciphers: ciphers }),
    };
    const old = generation - GENERATIONS_KEPT;
    for (const name of ['cert.pem', 'key.pem', 'ca.pem']) rmSync(join(this.dir, `${old}-${name}`), { force: true });
    return options;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
