import type { Track } from './track.js';

/** Tracks of scores. Like the other stores, possibly asynchronous (PostgreSQL) and durable when a write returns. */
export interface TrackStore {
  /** Stores the track; when it is the default, the score's other tracks stop being so. */
  saveTrack(track: Track): void | Promise<void>;
  getTrack(scoreId: string, trackId: string): Track | undefined | Promise<Track | undefined>;
  /** Oldest first. */
  listTracks(scoreId: string): Track[] | Promise<Track[]>;
  deleteTrack(scoreId: string, trackId: string): void | Promise<void>;
  /** Removes every track of the score (when it is deleted for good). */
  deleteTracksOf(scoreId: string): void | Promise<void>;
}
