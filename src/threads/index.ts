export { ConfigMailbox } from './config-mailbox.js';
export type { MailboxRead } from './config-mailbox.js';
export { encodeConfigSegments, SegmentReader, RULES_PER_SEGMENT } from './config-segments.js';
export type { ConfigSegment } from './config-segments.js';
export { SharedHealth } from './shared-health.js';
export { StatsReporter, StatsCollector, newStatsChannelName, STATS_REPORT_MS } from './stats-channel.js';
export { niceThisThread } from './thread-priority.js';
