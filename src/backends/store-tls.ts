import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';

/** TLS to a network store (KVSTORE_TLS_*, OBJCACHE_TLS_*): PEM files, empty strings mean "not given". */
export interface StoreTlsFiles {
  clientCertFile: string;
  clientKeyFile: string;
  /** Empty: the system's CAs verify the server. */
  caCertFile: string;
  /** The server's certificate must still chain to a trusted CA, but may name another host. */
  skipHostnameVerification: boolean;
}

/** Node's TLS options from the files, read when a thread opens its store (startup checked they are readable). */
export function storeTlsOptions(tls: StoreTlsFiles): ConnectionOptions {
  const read = (file: string) => (file === '' ? undefined : readFileSync(file));
  return {
    cert: read(tls.clientCertFile),
    key: read(tls.clientKeyFile),
    ca: read(tls.caCertFile),
    ...(tls.skipHostnameVerification ? { checkServerIdentity: () => undefined } : {}),
  };
}
