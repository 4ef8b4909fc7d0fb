/** Files the score API serves: signed URLs and their key. */
export { loadUrlSecret } from './url-secret.js';
export { UrlSigner } from './url-signer.js';
export type { SignatureCheck } from './url-signer.js';
