import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { TlsServerConfig, WebConfig } from './model.js';
import { parseWebConfig } from './parse.js';

/** The certificate, key and client CA as read and checked together. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
  ca: Buffer | undefined;
}

export interface LoadedWebConfig {
  config: WebConfig;
  /** Present exactly when the configuration turns TLS on. */
  material: TlsMaterial | undefined;
}

export type WebConfigLoad = { ok: true; loaded: LoadedWebConfig } | { ok: false; message: string };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

function read(file: string, field: string): Buffer | string {
  try {
    return readFileSync(file);
  } catch (error) {
    return `tls_server_config.${field}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
}

/** Reads the files `tls` names and checks they make a TLS server context, as one set. */
export function loadTlsMaterial(tls: TlsServerConfig): TlsMaterial | string {
  const cert = read(tls.certFile, 'cert_file');
  if (typeof cert === 'string') return cert;
  const key = read(tls.keyFile, 'key_file');
  if (typeof key === 'string') return key;
  let ca: Buffer | undefined;
  if (tls.clientCaFile !== undefined) {
    const caFile = read(tls.clientCaFile, 'client_ca_file');
    if (typeof caFile === 'string') return caFile;
    const certificates = caFile.toString('latin1').match(PEM_CERTIFICATE) ?? [];
    if (certificates.length === 0) return `tls_server_config.client_ca_file: ${tls.clientCaFile} holds no PEM certificate`;
    try {
      for (const pem of certificates) new X509Certificate(pem);
    } catch (error) {
      return `tls_server_config.client_ca_file: ${tls.clientCaFile}: ${(error as Error).message}`;
    }
    ca = caFile;
  }
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    return `tls_server_config.cert_file and key_file (${tls.certFile}, ${tls.keyFile}) do not make a certificate and its key: ${(error as Error).message}`;
  }
  return { cert, key, ca };
}

/**
 * Reads and checks the web configuration file and the files it names. The message of a failure
 * names the file and every field at fault.
 */
export function loadWebConfig(file: string): WebConfigLoad {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, message: `WEB_CONFIG_FILE ${file}: cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  const parsed = parseWebConfig(text, dirname(path));
  if (!parsed.ok) return { ok: false, message: `WEB_CONFIG_FILE ${file}: ${parsed.errors.join('; ')}` };
  const config = parsed.config;
  if (config.tls === undefined) return { ok: true, loaded: { config, material: undefined } };
  const material = loadTlsMaterial(config.tls);
  if (typeof material === 'string') return { ok: false, message: `WEB_CONFIG_FILE ${file}: ${material}` };
  return { ok: true, loaded: { config, material } };
}

/** Every file whose change may change the configuration: the file itself and those it names. */
export function filesOf(file: string, config: WebConfig | undefined): string[] {
  const tls = config?.tls;
  const named = tls === undefined ? [] : [tls.certFile, tls.keyFile, ...(tls.clientCaFile === undefined ? [] : [tls.clientCaFile])];
  return [resolve(file), ...named];
}
