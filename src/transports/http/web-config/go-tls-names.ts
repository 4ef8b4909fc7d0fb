import type { TlsVersionName } from './model.js';

/**
 * Go's crypto/tls names as the web configuration file spells them, and what OpenSSL (Node's
 * TLS) and BoringSSL (uWebSockets.js's) call the same thing.
 */

/**
 * The TLS 1.0-1.2 suites of Go's `tls.CipherSuites()` (the ones exporter-toolkit accepts) and
 * their OpenSSL names. TLS 1.3 suites are not configurable in Go; naming one is accepted and
 * changes nothing, as there.
 */
export const GO_CIPHER_SUITES: Readonly<Record<string, string>> = {
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
};

export const GO_TLS13_SUITES: readonly string[] = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

/** Go curve names and OpenSSL's group names. */
export const GO_CURVES: Readonly<Record<string, string>> = {
  CurveP256: 'P-256',
  CurveP384: 'P-384',
  CurveP521: 'P-521',
  X25519: 'X25519',
};

export const TLS_VERSIONS: Readonly<Record<TlsVersionName, { order: number; node: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3' }>> = {
  TLS10: { order: 0, node: 'TLSv1' },
  TLS11: { order: 1, node: 'TLSv1.1' },
  TLS12: { order: 2, node: 'TLSv1.2' },
  TLS13: { order: 3, node: 'TLSv1.3' },
};

/** The OpenSSL cipher list for Go suite names (TLS 1.3 names dropped); '' when none is left. */
export function opensslCipherList(goNames: readonly string[]): string {
  return goNames
    .map((name) => GO_CIPHER_SUITES[name])
    .filter((name): name is string => name !== undefined)
    .join(':');
}
