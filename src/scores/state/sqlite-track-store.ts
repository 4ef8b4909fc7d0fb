import type Database from 'better-sqlite3';
import type { Track } from '../library/track.js';
import type { TrackStore } from '../library/track-store.js';

/** Tracks as JSON documents indexed by score, in the score API's SQLite database. */
export class SqliteTrackStore implements TrackStore {
  private readonly save: (track: Track) => void;
  private readonly selectTrack: Database.Statement<[string, string], { doc: string }>;
  private readonly selectTracks: Database.Statement<[string], { doc: string }>;
  private readonly dropTrack: Database.Statement<[string, string]>;
  private readonly dropTracks: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    const upsert = db.prepare<[string, string, string]>('INSERT INTO tracks (id, score_id, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc');
    const selectDefaults = db.prepare<[string, string], { id: string; doc: string }>("SELECT id, doc FROM tracks WHERE score_id = ? AND id != ? AND json_extract(doc, '$.isDefault') = 1");
    const replace = db.prepare<[string, string]>('UPDATE tracks SET doc = ? WHERE id = ?');
    this.save = db.transaction((track: Track) => {
      if (track.isDefault) {
        for (const other of selectDefaults.all(track.scoreId, track.id)) replace.run(JSON.stringify({ ...(JSON.parse(other.doc) as Track), isDefault: false }), other.id);
      }
      upsert.run(track.id, track.scoreId, JSON.stringify(track));
    });
    this.selectTrack = db.prepare('SELECT doc FROM tracks WHERE score_id = ? AND id = ?');
    this.selectTracks = db.prepare('SELECT doc FROM tracks WHERE score_id = ? ORDER BY seq');
    this.dropTrack = db.prepare('DELETE FROM tracks WHERE score_id = ? AND id = ?');
    this.dropTracks = db.prepare('DELETE FROM tracks WHERE score_id = ?');
  }

  saveTrack(track: Track): void {
    this.save(track);
  }

  getTrack(scoreId: string, trackId: string): Track | undefined {
    const row = this.selectTrack.get(scoreId, trackId);
    return row === undefined ? undefined : (JSON.parse(row.doc) as Track);
  }

  listTracks(scoreId: string): Track[] {
    return this.selectTracks.all(scoreId).map((row) => JSON.parse(row.doc) as Track);
  }

  deleteTrack(scoreId: string, trackId: string): void {
    this.dropTrack.run(scoreId, trackId);
  }

  deleteTracksOf(scoreId: string): void {
    this.dropTracks.run(scoreId);
  }
}
