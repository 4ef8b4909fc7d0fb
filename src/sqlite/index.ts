/** The embedded SQLite databases of the alert and score APIs, opened alike. */
export { openDatabase } from './open-database.js';
export type { Durability } from './open-database.js';
