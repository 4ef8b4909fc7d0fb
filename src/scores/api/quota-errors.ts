import { ServiceError } from '../../errors/index.js';
import type { QuotaRefusal } from '../accounts/quota.js';

/** A refused write as Flat answers it (402, "Account overquota"), naming the bound and how to make room. */
export function quotaExceeded(refusal: QuotaRefusal, param: string): ServiceError {
  switch (refusal.kind) {
    case 'bytes':
      return new ServiceError(
        'SC_QUOTA_EXCEEDED',
        `Account overquota: it stores ${refusal.used} of its ${refusal.limit} bytes and this adds ${refusal.adding}; delete scores for good (DELETE /v2/scores/{score}?now=true; scores in the trash count until then) or recordings to make room`,
        { param },
      );
    case 'uploads':
      return new ServiceError('SC_QUOTA_EXCEEDED', `Account overquota: it keeps ${refusal.limit} uploaded files, the most it may; delete recordings to make room`, { param });
    case 'revisions':
      return new ServiceError('SC_QUOTA_EXCEEDED', `This score has ${refusal.limit} revisions, the most a score may have; go on in a new score`, { param: 'score' });
  }
}
