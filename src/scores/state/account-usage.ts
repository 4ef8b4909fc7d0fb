import type { Usage } from '../accounts/quota.js';
import { lockAccount, row, type Plan } from './plan.js';
import { ACCOUNT_USAGE } from './queries.js';

/** The size a revision's MusicXML counts for: its UTF-8 bytes, as the migration measures stored ones. */
export function musicXmlBytes(musicXml: string): number {
  return Buffer.byteLength(musicXml, 'utf8');
}

/**
 * In a write's transaction: locks the account, then reads its usage, so quota-checked writes of
 * one account run one after the other and two cannot both see room for one. The store's
 * queries must include ACCOUNT_USAGE.
 */
export function* lockedUsage(userId: string): Plan<Usage> {
  yield* lockAccount(userId);
  return (yield* row(ACCOUNT_USAGE, userId, userId, userId)) as Usage;
}
