import { createHash } from 'node:crypto';
import type { TrackPoint } from '../library/track.js';
import type { MeasureBox } from './measure-boxes.js';

/**
 * A stable UUID for the score's n-th measure (name-based, version 5 layout): MusicXML measures
 * carry no identifier, and the same position keeps its UUID across revisions.
 */
export function measureUuid(scoreId: string, index: number): string {
  const hex = createHash('sha1').update(`${scoreId}/measure/${index}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A measure's point with where the measure is drawn (an extension of the specification's points). */
export type ExportedPoint = TrackPoint & { boxes?: MeasureBox[] };

/** One point per measure start, with the measure's box on each page it is drawn on, then the end of the audio. */
export function synchronizationPoints(scoreId: string, measureStartsMs: readonly number[], endMs: number, measureBoxes: readonly MeasureBox[][] = []): ExportedPoint[] {
  const points: ExportedPoint[] = measureStartsMs.map((ms, index) => ({ type: 'measure', measureUuid: measureUuid(scoreId, index), time: ms / 1000, boxes: measureBoxes[index] ?? [] }));
  points.push({ type: 'end', time: endMs / 1000 });
  return points;
}
