import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase, type Durability } from '../../sqlite/index.js';

/**
 * Pages of 16 KiB for a new alerts database. Its busiest writes are the change log's rows, one
 * per POST: about 20 KB for 100 alerts, which on 4 KiB pages is a chain of five overflow pages,
 * each its own frame in the WAL. Appending such rows took 69 µs of CPU each on 16 KiB pages
 * against 100-114 µs on 4 KiB pages (and 79 µs on 64 KiB ones).
 */
const ALERTS_PAGE_SIZE = 16_384;

/** The alert API's database file (alerts, silences, the notification log); each store that keeps part of it opens it. */
export function openAlertsDatabase(dataDir: string, durability: Durability): Database.Database {
  return openDatabase(join(dataDir, 'alerts.sqlite'), durability, { pageSize: ALERTS_PAGE_SIZE });
}
