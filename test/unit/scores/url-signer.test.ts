/** Signed file URLs on an injected clock: valid until they expire, bound to one path and one key. */
import t from 'tap';
import { UrlSigner } from '../../../src/scores/files/index.js';

t.test('a signed URL is valid for its time to live, for its own path, under its own key', async (t) => {
  let now = Date.UTC(2026, 0, 1);
  const signer = new UrlSigner(Buffer.from('k'.repeat(32)), 60_000, () => now);
  const url = new URL(signer.sign('/v2/files/a'), 'http://x');
  t.equal(url.searchParams.get('expires'), String((Date.UTC(2026, 0, 1) + 60_000) / 1000));
  t.equal(signer.check('/v2/files/a', url.searchParams), 'valid');
  t.equal(signer.check('/v2/files/b', url.searchParams), 'invalid', 'another path');
  t.equal(new UrlSigner(Buffer.from('j'.repeat(32)), 60_000, () => now).check('/v2/files/a', url.searchParams), 'invalid', 'another key');
  const later = new URLSearchParams(url.searchParams);
  later.set('expires', String(Number(later.get('expires')) + 3600));
  t.equal(signer.check('/v2/files/a', later), 'invalid', 'a moved expiry breaks the signature');
  t.equal(signer.check('/v2/files/a', new URLSearchParams('expires=abc&signature=00')), 'invalid');
  t.equal(signer.check('/v2/files/a', new URLSearchParams()), 'invalid', 'no parameters');
  now += 60_000;
  t.equal(signer.check('/v2/files/a', url.searchParams), 'valid', 'still valid at its last second');
  now += 1_001;
  t.equal(signer.check('/v2/files/a', url.searchParams), 'expired');
});
