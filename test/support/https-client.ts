/**
 * HTTPS requests for whole-process tests: each on a new connection (a new TLS handshake), so a
 * rotated certificate or a refused client shows at once, with the certificate the server
 * presented.
 *
 *   const r = await httpsRequest(`https://127.0.0.1:${port}/json`, { ca: certs.ca.cert, method: 'POST', body });
 *   // r.status, r.headers['www-authenticate'], r.text, r.serverFingerprint
 */
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';

export interface HttpsOptions {
  /** The CA the server certificate must chain to. */
  ca: Buffer;
  /** A client certificate and key, for mutual TLS. */
  cert?: Buffer;
  key?: Buffer;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Basic auth credentials, `user:password`. */
  auth?: string;
  timeoutMs?: number;
}

export interface HttpsResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** SHA-256 fingerprint of the certificate the server presented (`AB:CD:...`). */
  serverFingerprint: string;
}

export function httpsRequest(url: string, options: HttpsOptions): Promise<HttpsResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        ca: options.ca,
        cert: options.cert,
        key: options.key,
        servername: 'localhost',
        agent: false,
        headers: options.headers,
        auth: options.auth,
        timeout: options.timeoutMs ?? 5000,
      },
      (res) => {
        const serverFingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, serverFingerprint }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within ${options.timeoutMs ?? 5000} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The error a request ends with, or undefined when it got an answer (for refused handshakes). */
export async function httpsRefusal(url: string, options: HttpsOptions): Promise<string | undefined> {
  try {
    const r = await httpsRequest(url, options);
    return r.status === 0 ? 'no status' : undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
