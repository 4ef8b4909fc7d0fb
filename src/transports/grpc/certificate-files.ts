import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import type * as grpc from '@grpc/grpc-js';
import { filesSignature } from '../file-signature.js';

type Provider = grpc.experimental.CertificateProvider;
type IdentityListener = Parameters<Provider['addIdentityCertificateListener']>[0];
type CaListener = Parameters<Provider['addCaCertificateListener']>[0];

export interface CertificateFilesOptions {
  certFile: string;
  keyFile: string;
  /** Client CA for mutual TLS. */
  caFile: string | undefined;
  pollIntervalMs: number;
  /** A changed file set that cannot be used (e.g. a new certificate with the old key). */
  onRejected(reason: string): void;
  onReloaded(): void;
}

/**
 * The server certificate, key and client CA, re-read when the files change. grpc-js's own
 * FileWatcherCertificateProvider hands a new certificate with the old key to the TLS layer
 * while a rotation is half done, and grpc-js then drops every new connection until the files
 * match again. This provider only publishes a set that makes a valid TLS context; until then
 * the previous one keeps serving.
 */
export class CertificateFiles implements Provider {
  private identity: { certificate: Buffer; privateKey: Buffer };
  private ca: Buffer | undefined;
  private readonly identityListeners = new Set<IdentityListener>();
  private readonly caListeners = new Set<CaListener>();
  private signature: string;
  private readonly timer: NodeJS.Timeout;

  /** Throws when the files cannot be read or do not fit together (startup must not go on). */
  constructor(private readonly options: CertificateFilesOptions) {
    const loaded = this.load();
    if (typeof loaded === 'string') throw new Error(loaded);
    this.identity = loaded.identity;
    this.ca = loaded.ca;
    this.signature = this.currentSignature();
    this.timer = setInterval(() => this.poll(), options.pollIntervalMs);
    this.timer.unref();
  }

  private currentSignature(): string {
    return filesSignature([this.options.certFile, this.options.keyFile, this.options.caFile].filter((f) => f !== undefined));
  }

  /** The files as a usable set, or why they are not. */
  private load(): { identity: { certificate: Buffer; privateKey: Buffer }; ca: Buffer | undefined } | string {
    const read = (file: string, setting: string): Buffer | string => {
      try {
        return readFileSync(file);
      } catch (error) {
        return `${setting}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
      }
    };
    const certificate = read(this.options.certFile, 'GRPC_SERVER_TLS_CERT');
    if (typeof certificate === 'string') return certificate;
    const privateKey = read(this.options.keyFile, 'GRPC_SERVER_TLS_KEY');
    if (typeof privateKey === 'string') return privateKey;
    let ca: Buffer | undefined;
    if (this.options.caFile !== undefined) {
      const caFile = read(this.options.caFile, 'GRPC_CLIENT_TLS_CACERT');
      if (typeof caFile === 'string') return caFile;
      ca = caFile;
    }
    try {
      createSecureContext({ cert: certificate, key: privateKey, ...(ca === undefined ? {} : { ca }) });
    } catch (error) {
      return `GRPC_SERVER_TLS_CERT, GRPC_SERVER_TLS_KEY${ca === undefined ? '' : ', GRPC_CLIENT_TLS_CACERT'}: ${(error as Error).message}`;
    }
    return { identity: { certificate, privateKey }, ca };
  }

  private poll(): void {
    const signature = this.currentSignature();
    if (signature === this.signature) return;
    const loaded = this.load();
    if (typeof loaded === 'string') {
      // Keep the last good set; look again when the files change again.
      this.signature = signature;
      this.options.onRejected(loaded);
      return;
    }
    this.signature = signature;
    this.identity = loaded.identity;
    this.ca = loaded.ca;
    for (const listener of this.identityListeners) listener(this.identity);
    if (this.ca !== undefined) for (const listener of this.caListeners) listener({ caCertificate: this.ca });
    this.options.onReloaded();
  }

  addIdentityCertificateListener(listener: IdentityListener): void {
    this.identityListeners.add(listener);
    // grpc-js's own providers answer on the next tick; callers may not expect re-entry.
    process.nextTick(listener, this.identity);
  }

  removeIdentityCertificateListener(listener: IdentityListener): void {
    this.identityListeners.delete(listener);
  }

  addCaCertificateListener(listener: CaListener): void {
    this.caListeners.add(listener);
    if (this.ca !== undefined) process.nextTick(listener, { caCertificate: this.ca });
  }

  removeCaCertificateListener(listener: CaListener): void {
    this.caListeners.delete(listener);
  }

  close(): void {
    clearInterval(this.timer);
  }
}
