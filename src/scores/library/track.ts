/** ScoreTrackPoint: where a measure starts in a track's audio, or where it ends. Times in seconds. */
export interface TrackPoint {
  type: 'measure' | 'end';
  measureUuid?: string;
  time: number;
}

export const TRACK_STATES = ['draft', 'completed', 'deleted'] as const;
export type TrackState = (typeof TRACK_STATES)[number];

export const TRACK_TYPES = ['audio', 'soundcloud', 'youtube', 'vimeo'] as const;
export type TrackType = (typeof TRACK_TYPES)[number];

/** An audio or video recording of a score, synchronized with its measures. Times are epoch milliseconds. */
export interface Track {
  id: string;
  scoreId: string;
  creatorId: string;
  title: string;
  /** The score's default audio source; at most one track of a score has it. */
  isDefault: boolean;
  state: TrackState;
  type: TrackType;
  /** The recording's address when it lives elsewhere (YouTube, Vimeo, SoundCloud, any audio URL). */
  url: string | null;
  /** The host's identifier of the media (YouTube's `v`, Vimeo's number, SoundCloud's path). */
  mediaId: string | null;
  /** The uploaded audio file, when the track was created from one. */
  audioFile: string | null;
  synchronizationPoints: TrackPoint[];
  creationDate: number;
  modificationDate: number;
}
