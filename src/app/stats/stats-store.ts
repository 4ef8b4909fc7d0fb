import { StatsStore, type Logger } from '../../observability/index.js';
import type { Settings } from '../../settings/index.js';

/** A thread's statistics store, bounded by STATS_MAX_NAMES, saying once when it starts folding. */
export function boundedStatsStore(settings: Pick<Settings, 'statsMaxNames'>, logger: Logger, thread: string): StatsStore {
  return new StatsStore(settings.statsMaxNames, () =>
    logger.warn('too many distinct statistic names: new ones now count in ratelimit.stats.overflow', {
      thread,
      STATS_MAX_NAMES: settings.statsMaxNames,
    }),
  );
}
