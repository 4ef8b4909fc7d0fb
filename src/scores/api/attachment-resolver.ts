import type { ServiceError } from '../../errors/index.js';
import type { Attachment } from '../education/assignment.js';
import type { ScoreApiParts } from './api-parts.js';
import { canReadWithoutKey } from './access.js';
import { bad } from './body-fields.js';
import type { AttachmentInput } from './education-bodies.js';

/**
 * Attachments as stored, from what a teacher or a student sent: a score must exist and be the
 * sender's own or public; in a submission, also one the student's class shares with them (so an
 * assignment never passes a private score further than its owner chose). A score is pinned to
 * its newest revision. A track must be a recording of that score (in a submission, one the
 * student made), and makes the attachment a `performance`.
 */
export async function resolveAttachments(
  parts: Pick<ScoreApiParts, 'scores' | 'tracks' | 'classShares'>,
  inputs: readonly AttachmentInput[],
  senderId: string,
  from: 'assignment' | 'submission',
): Promise<Attachment[] | ServiceError> {
  const resolved: Attachment[] = [];
  for (const [i, input] of inputs.entries()) {
    const where = `attachments[${i}]`;
    if (input.type !== 'flat' || input.score === undefined) {
      const { type, url, worksheet, googleDriveFileId } = input;
      resolved.push({ type, ...(url === undefined ? {} : { url, title: url }), ...(worksheet === undefined ? {} : { worksheet }), ...(googleDriveFileId === undefined ? {} : { googleDriveFileId }) });
      continue;
    }
    const score = await parts.scores.getScore(input.score);
    if (score === undefined || score.trashedAt !== null) return bad('attachments', `${where}: no score ${JSON.stringify(input.score)}`);
    const shared = from === 'submission' && (await parts.classShares.sharesScore(score.id, senderId, false));
    if (!canReadWithoutKey(score, senderId) && !shared) return bad('attachments', `${where}: score ${score.id} is private to its owner`);
    const revision = await parts.scores.getRevision(score.id, 'last');
    const attachment: Attachment = {
      type: 'flat',
      score: score.id,
      ...(revision === undefined ? {} : { revision: revision.id }),
      title: score.title,
      sharingMode: input.sharingMode,
      ...(input.lockScoreTemplate === undefined ? {} : { lockScoreTemplate: input.lockScoreTemplate }),
    };
    if (input.track !== undefined) {
      const track = await parts.tracks.getTrack(score.id, input.track);
      if (track === undefined) return bad('attachments', `${where}: score ${score.id} has no track ${JSON.stringify(input.track)}`);
      if (from === 'submission' && track.creatorId !== senderId) return bad('attachments', `${where}: track ${track.id} was recorded by someone else`);
      Object.assign(attachment, { type: 'performance', track: track.id, sharingMode: 'performance' });
    }
    resolved.push(attachment);
  }
  return resolved;
}
