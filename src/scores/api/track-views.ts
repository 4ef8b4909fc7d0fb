import type { Track } from '../library/track.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** ScoreTrack. `audioUrl` is where an uploaded recording is fetched (a signed link); fields without a value are left out. */
export function trackJson(track: Track, audioUrl: string | undefined): Record<string, unknown> {
  const url = audioUrl ?? track.url;
  const mediaId = track.mediaId ?? track.audioFile;
  return {
    id: track.id,
    title: track.title,
    score: track.scoreId,
    creator: track.creatorId,
    creationDate: iso(track.creationDate),
    modificationDate: iso(track.modificationDate),
    default: track.isDefault,
    state: track.state,
    type: track.type,
    ...(url === null ? {} : { url }),
    ...(mediaId === null ? {} : { mediaId }),
    synchronizationPoints: track.synchronizationPoints,
  };
}
