import type { SecureContextOptions } from 'node:tls';
import { GO_CURVES, TLS_VERSIONS, opensslCipherList } from './go-tls-names.js';
import type { TlsMaterial } from './load.js';
import type { TlsServerConfig } from './model.js';

/**
 * Which TLS implementation serves a configuration. uWebSockets.js's own TLS (BoringSSL, on every
 * HTTP thread) serves TLS 1.2 and 1.3 with a certificate, a cipher list, and client certificates
 * verified when given; it cannot require a client certificate, look at its names, choose curves
 * or other versions. Those configurations are served by Node's TLS, on the main thread, in front
 * of the HTTP threads.
 */
export type TlsEngine = { kind: 'uws' } | { kind: 'node'; why: string };

export function tlsEngineFor(tls: TlsServerConfig): TlsEngine {
  if (tls.clientAuthType !== 'NoClientCert' && tls.clientAuthType !== 'VerifyClientCertIfGiven') {
    return { kind: 'node', why: `client_auth_type ${tls.clientAuthType}` };
  }
  if (tls.clientAllowedSans !== undefined) return { kind: 'node', why: 'client_allowed_sans' };
  if (tls.curvePreferences.length > 0) return { kind: 'node', why: 'curve_preferences' };
  if (tls.minVersion !== 'TLS12' || tls.maxVersion !== 'TLS13') return { kind: 'node', why: `TLS versions ${tls.minVersion} to ${tls.maxVersion}` };
  return { kind: 'uws' };
}

/** How Node's TLS serves a configuration: the context, and what each connection must show after its handshake. */
export interface NodeTlsPlan {
  context: SecureContextOptions;
  /** Ask the client for a certificate. */
  requestCert: boolean;
  /** Refuse, in the handshake, a client whose certificate is missing or not signed by the client CA. */
  rejectUnauthorized: boolean;
  /** Close a connection that sent no certificate (RequireAnyClientCert: any certificate, even unverified). */
  requireCertificate: boolean;
  /** Close a connection whose certificate did not verify (VerifyClientCertIfGiven). */
  verifyGivenCertificate: boolean;
  /** The client certificate must carry one of these SANs. */
  allowedSans: string[] | undefined;
}

export function nodeTlsPlan(tls: TlsServerConfig, material: TlsMaterial): NodeTlsPlan {
  const ciphers = opensslCipherList(tls.cipherSuites);
  const curves = tls.curvePreferences.map((curve) => GO_CURVES[curve]).filter((curve): curve is string => curve !== undefined);
  const type = tls.clientAuthType;
  return {
    context: {
      cert: material.cert,
      key: material.key,
      ...(material.ca === undefined ? {} : { ca: material.ca }),
      minVersion: TLS_VERSIONS[tls.minVersion].node,
      maxVersion: TLS_VERSIONS[tls.maxVersion].node,
      ...(ciphers === '' ? {} : { ciphers }),
      ...(curves.length === 0 ? {} : { ecdhCurve: curves.join(':') }),
    },
    requestCert: type !== 'NoClientCert',
    rejectUnauthorized: type === 'RequireAndVerifyClientCert',
    requireCertificate: type === 'RequireAnyClientCert' || type === 'RequireAndVerifyClientCert',
    verifyGivenCertificate: type === 'VerifyClientCertIfGiven',
    allowedSans: tls.clientAllowedSans,
  };
}

/**
 * The SANs Go compares with client_allowed_sans: DNS names, e-mail addresses, IP addresses and
 * URIs, from node:tls's `subjectaltname` text (`DNS:a, IP Address:127.0.0.1, URI:spiffe://x`).
 */
export function subjectAltNames(subjectaltname: string | undefined): string[] {
  if (subjectaltname === undefined || subjectaltname === '') return [];
  return subjectaltname.split(', ').flatMap((entry) => {
    const colon = entry.indexOf(':');
    const kind = entry.slice(0, colon);
    const value = entry.slice(colon + 1).replace(/^"(.*)"$/, '$1');
    return ['DNS', 'email', 'IP Address', 'URI'].includes(kind) ? [value] : [];
  });
}
