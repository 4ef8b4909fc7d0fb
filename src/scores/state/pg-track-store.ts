import type pg from 'pg';
import type { Track } from '../library/track.js';
import type { TrackStore } from '../library/track-store.js';
import { inTransaction } from './pg-database.js';

/** Tracks as JSONB documents indexed by score, on PostgreSQL. */
export class PgTrackStore implements TrackStore {
  constructor(private readonly pool: pg.Pool) {}

  saveTrack(track: Track): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      if (track.isDefault) {
        await client.query(`UPDATE tracks SET doc = jsonb_set(doc, '{isDefault}', 'false') WHERE score_id = $1 AND id != $2 AND (doc->>'isDefault')::boolean`, [track.scoreId, track.id]);
      }
      await client.query('INSERT INTO tracks (id, score_id, doc) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc', [track.id, track.scoreId, JSON.stringify(track)]);
    });
  }

  async getTrack(scoreId: string, trackId: string): Promise<Track | undefined> {
    const { rows } = await this.pool.query<{ doc: Track }>('SELECT doc FROM tracks WHERE score_id = $1 AND id = $2', [scoreId, trackId]);
    return rows[0]?.doc;
  }

  async listTracks(scoreId: string): Promise<Track[]> {
    const { rows } = await this.pool.query<{ doc: Track }>('SELECT doc FROM tracks WHERE score_id = $1 ORDER BY seq', [scoreId]);
    return rows.map((row) => row.doc);
  }

  async deleteTrack(scoreId: string, trackId: string): Promise<void> {
    await this.pool.query('DELETE FROM tracks WHERE score_id = $1 AND id = $2', [scoreId, trackId]);
  }

  async deleteTracksOf(scoreId: string): Promise<void> {
    await this.pool.query('DELETE FROM tracks WHERE score_id = $1', [scoreId]);
  }
}
