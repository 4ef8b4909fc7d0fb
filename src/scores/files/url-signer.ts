import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * Signed, expiring URLs for files this service serves without a bearer token (`?url=true`
 * exports, uploaded audio): an HMAC-SHA256 over the path and the expiry time. Every instance
 * with the same secret accepts the others' URLs.
 */
export class UrlSigner {
  constructor(
    private readonly secret: Uint8Array,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  private signature(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('hex');
  }

  /** The path with `expires` (epoch seconds) and `signature` query parameters. */
  sign(path: string): string {
    const expires = Math.ceil((this.now() + this.ttlMs) / 1000);
    return `${path}?expires=${expires}&signature=${this.signature(path, expires)}`;
  }

  check(path: string, query: URLSearchParams): SignatureCheck {
    const expires = Number(query.get('expires'));
    const given = Buffer.from(query.get('signature') ?? '', 'utf8');
    if (!Number.isSafeInteger(expires)) return 'invalid';
    const expected = Buffer.from(this.signature(path, expires), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return expires * 1000 < this.now() ? 'expired' : 'valid';
  }
}
