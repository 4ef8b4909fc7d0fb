import type { Track } from '../library/track.js';
import type { TrackStore } from '../library/track-store.js';
import { executorOn, type Connection } from './connection.js';
import { doc, docs, write, type Executor, type Mode, type Outcome } from './plan.js';
import { TRACK_QUERIES as Q } from './queries.js';

/** Tracks as JSON documents indexed by score, in the score database. */
class SqlTrackStore<M extends Mode> implements TrackStore {
  private readonly db: Executor<M>;

  constructor(connection: Connection<M>) {
    this.db = executorOn(connection, Q);
  }

  saveTrack(track: Track): Outcome<M, void> {
    return this.db.transaction(function* () {
      if (track.isDefault) yield* write(Q.clearOtherDefaults, track.scoreId, track.id);
      yield* write(Q.upsert, track.id, track.scoreId, JSON.stringify(track));
    });
  }

  getTrack(scoreId: string, trackId: string): Outcome<M, Track | undefined> {
    return this.db.run(() => doc(Q.track, scoreId, trackId));
  }

  listTracks(scoreId: string): Outcome<M, Track[]> {
    return this.db.run(() => docs(Q.tracks, scoreId));
  }

  deleteTrack(scoreId: string, trackId: string): Outcome<M, void> {
    return this.db.run(() => write(Q.deleteTrack, scoreId, trackId));
  }

  deleteTracksOf(scoreId: string): Outcome<M, void> {
    return this.db.run(() => write(Q.deleteTracks, scoreId));
  }
}

export class SqliteTrackStore extends SqlTrackStore<'sync'> {}
export class PgTrackStore extends SqlTrackStore<'async'> {}
