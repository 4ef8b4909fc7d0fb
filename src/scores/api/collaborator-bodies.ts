import { unwrap, attempt, type ServiceError } from '../../errors/index.js';
import { impliedRights, type Grantee } from '../library/collaborator.js';
import { bad, optionalBoolean, optionalString } from './body-fields.js';

export interface CollaboratorCreation {
  /** As named in the body: a user's id or username, or a group's id. */
  grantee: Grantee;
  rights: { aclRead: boolean; aclWrite: boolean; aclAdmin: boolean };
}

/** ResourceCollaboratorCreation: `user` or `group`, and the rights (aclRead by default; each right includes those below it). */
export function collaboratorCreation(body: Record<string, unknown>): CollaboratorCreation | ServiceError {
  return attempt((): CollaboratorCreation | ServiceError => {
    // This service sends no e-mail, so it has no invitations to send or to redeem.
    for (const invitation of ['userEmail', 'userToken']) {
      if (body[invitation] !== undefined && body[invitation] !== null) return bad(invitation, `${invitation}: invitations are not supported; share with an existing user (user) or a group (group)`);
    }
    const user = unwrap(optionalString(body, 'user', 255));
    const group = unwrap(optionalString(body, 'group', 255));
    if (user !== undefined && group !== undefined) return bad('group', 'give user or group, not both');
    if (user === undefined && group === undefined) return bad('user', 'user (a user id or username) or group (a group id) is required');
    const rights = impliedRights({
      aclRead: unwrap(optionalBoolean(body, 'aclRead')) ?? true,
      aclWrite: unwrap(optionalBoolean(body, 'aclWrite')) ?? false,
      aclAdmin: unwrap(optionalBoolean(body, 'aclAdmin')) ?? false,
    });
    if (!rights.aclRead) return bad('aclRead', 'a collaborator needs at least one right: aclRead, aclWrite or aclAdmin');
    const grantee: Grantee = user === undefined ? { kind: 'group', id: group ?? '' } : { kind: 'user', id: user };
    return { grantee, rights };
  });
}
