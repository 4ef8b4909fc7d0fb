import { ServiceError, unwrap } from '../../errors/index.js';
import type { ApiOutcome, ApiRequest, ApiRoute } from '../../transports/http/handoff/index.js';
import { newId } from '../accounts/tokens.js';
import type { Grant } from '../accounts/user.js';
import { MAX_COLLABORATORS_PER_SCORE, type Collaborator, type Grantee, type ScoreRights } from '../library/collaborator.js';
import type { Score } from '../library/score.js';
import type { ScoreApiParts } from './api-parts.js';
import { pictureUrls } from './account-routes.js';
import { grantedRoutes, READ, scoreAccess, WRITE } from './access.js';
import { bad, jsonObjectBody } from './body-fields.js';
import { collaboratorCreation } from './collaborator-bodies.js';
import { groupJson } from './education-views.js';
import { jsonResponse } from './responses.js';
import { collaboratorJson, ownerPermission } from './sharing-views.js';
import { userPublicJson } from './user-views.js';

export type CollaboratorRoutesParts = Pick<ScoreApiParts, 'accounts' | 'scores' | 'classShares' | 'education' | 'absoluteUrl' | 'now'>;

/** Sharing a score with users and groups, with rights (getScoreCollaborators, addScoreCollaborator, getScoreCollaborator, removeScoreCollaborator). */
export function collaboratorRoutes(parts: CollaboratorRoutesParts): ApiRoute[] {
  const route = grantedRoutes(parts);
  return [
    route('GET', '/v2/scores/:score/collaborators', READ, getScoreCollaborators),
    route('POST', '/v2/scores/:score/collaborators', WRITE, addScoreCollaborator),
    // The specification lists only scores.readonly here; scores reads too, as for every other read of a score.
    route('GET', '/v2/scores/:score/collaborators/:collaborator', READ, getScoreCollaborator),
    route('DELETE', '/v2/scores/:score/collaborators/:collaborator', WRITE, removeScoreCollaborator),
  ];
}

function collaboratorNotFound(id: string | undefined): ServiceError {
  return new ServiceError('SC_COLLABORATOR_NOT_FOUND', `no collaborator ${JSON.stringify(id ?? '')} on this score`, { param: 'collaborator' });
}

/** The user or group a permission names, as ResourceCollaborator shows it; undefined once the account or the class is gone. */
async function subjectOf(parts: CollaboratorRoutesParts, request: ApiRequest, grantee: Grantee): Promise<{ user: Record<string, unknown> } | { group: Record<string, unknown> } | undefined> {
  if (grantee.kind === 'user') {
    const user = await parts.accounts.userById(grantee.id);
    return user === undefined ? undefined : { user: userPublicJson(user, pictureUrls(parts, request, user)) };
  }
  const classroom = await parts.education.classByGroup(grantee.id);
  if (classroom === undefined) return undefined;
  const teachers = classroom.teachersGroupId === grantee.id;
  const members = (await parts.education.members(classroom.id)).filter((member) => member.role === (teachers ? 'teacher' : 'student')).length;
  return { group: groupJson(classroom, teachers ? 'teachers' : 'students', members) };
}

async function collaboratorView(parts: CollaboratorRoutesParts, request: ApiRequest, collaborator: Collaborator): Promise<Record<string, unknown> | undefined> {
  const subject = await subjectOf(parts, request, collaborator.grantee);
  return subject === undefined ? undefined : collaboratorJson(collaborator.scoreId, collaborator, subject);
}

/**
 * The score's collaborators as ResourceCollaborator, its owner first. Groups are shown to the
 * score's collaborators only, as the specification says of ResourceCollaborator.
 */
export async function collaboratorsView(parts: CollaboratorRoutesParts, request: ApiRequest, score: Score, rights: ScoreRights): Promise<Array<Record<string, unknown>>> {
  const listed: Array<Record<string, unknown>> = [];
  const owner = await parts.accounts.userById(score.ownerId);
  if (owner !== undefined) listed.push(collaboratorJson(score.id, ownerPermission(owner.id), { user: userPublicJson(owner, pictureUrls(parts, request, owner)) }));
  for (const collaborator of await parts.scores.listCollaborators(score.id)) {
    if (collaborator.grantee.kind === 'group' && !rights.isCollaborator) continue;
    const view = await collaboratorView(parts, request, collaborator);
    if (view !== undefined) listed.push(view);
  }
  return listed;
}

/** The permission the `collaborator` parameter names: its own id, or the user's or group's id. */
async function namedCollaborator(parts: CollaboratorRoutesParts, request: ApiRequest, score: Score): Promise<Collaborator | ServiceError> {
  const id = request.params['collaborator'] ?? '';
  const found = (await parts.scores.listCollaborators(score.id)).find((collaborator) => collaborator.id === id || collaborator.grantee.id === id);
  return found ?? collaboratorNotFound(id);
}

async function getScoreCollaborators(parts: CollaboratorRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, rights } = unwrap(await scoreAccess(parts, request, grant, 'read'));
  return jsonResponse(200, await collaboratorsView(parts, request, score, rights));
}

async function getScoreCollaborator(parts: CollaboratorRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, rights } = unwrap(await scoreAccess(parts, request, grant, 'read'));
  const listed = await collaboratorsView(parts, request, score, rights);
  const id = request.params['collaborator'];
  const found = listed.find((entry) => entry['id'] === id || (entry['user'] as { id?: string } | undefined)?.id === id || (entry['group'] as { id?: string } | undefined)?.id === id);
  return found === undefined ? collaboratorNotFound(id) : jsonResponse(200, found);
}

/** The grantee a creation names: a user by id or username (not the owner), or a group of a class the caller is in. */
async function granteeOf(parts: CollaboratorRoutesParts, score: Score, grant: Grant, named: Grantee): Promise<Grantee | ServiceError> {
  if (named.kind === 'user') {
    const user = (await parts.accounts.userById(named.id)) ?? (await parts.accounts.userByName(named.id));
    if (user === undefined) return bad('user', `no user has the id or username ${JSON.stringify(named.id)}`);
    if (user.id === score.ownerId) return bad('user', 'the owner of the score has every right on it already');
    return { kind: 'user', id: user.id };
  }
  const classroom = await parts.education.classByGroup(named.id);
  // A group of a class the caller is not in is as unknown to them as one that does not exist.
  if (classroom === undefined || (await parts.education.roleIn(classroom.id, grant.user.id)) === undefined) return bad('group', `no group ${JSON.stringify(named.id)} among your classes' groups`);
  return named;
}

async function addScoreCollaborator(parts: CollaboratorRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score } = unwrap(await scoreAccess(parts, request, grant, 'admin'));
  const fields = unwrap(collaboratorCreation(unwrap(jsonObjectBody(request))));
  const grantee = unwrap(await granteeOf(parts, score, grant, fields.grantee));
  const collaborator: Collaborator = { id: newId(), scoreId: score.id, grantee, ...fields.rights, creationDate: parts.now() };
  const saved = await parts.scores.saveCollaborator(collaborator, score.ownerId, MAX_COLLABORATORS_PER_SCORE);
  if (saved === false) return new ServiceError('SC_SCORE_SHARING_FULL', `Account overquota: the score has ${MAX_COLLABORATORS_PER_SCORE} collaborators, as many as one score may have`, { param: 'score' });
  const view = await collaboratorView(parts, request, saved);
  if (view === undefined) throw new Error(`collaborator ${saved.id} names nothing`);
  return jsonResponse(200, view);
}

/** By the score's administrators; a user shared the score directly may also leave it. */
async function removeScoreCollaborator(parts: CollaboratorRoutesParts, request: ApiRequest, grant: Grant): Promise<ApiOutcome> {
  const { score, rights } = unwrap(await scoreAccess(parts, request, grant, 'read'));
  if (request.params['collaborator'] === score.ownerId) return new ServiceError('SC_FORBIDDEN', 'The owner of a score cannot be removed from it');
  const leaving = (collaborator: Collaborator) => collaborator.grantee.kind === 'user' && collaborator.grantee.id === grant.user.id;
  const collaborator = await namedCollaborator(parts, request, score);
  if (!rights.aclAdmin && (collaborator instanceof ServiceError || !leaving(collaborator))) return new ServiceError('SC_FORBIDDEN', 'Not granted to manage this score');
  await parts.scores.removeCollaborator(score.id, unwrap(collaborator).id);
  return { status: 204 };
}
