import type { EducationProfile } from '../education/education-profile.js';
import type { Invitation, LtiCredentials } from '../education/organization.js';
import { executorOn, type Connection } from './connection.js';
import { doc, docs, row, write, type Executor, type Mode, type Outcome } from './plan.js';
import { ORGANIZATION_QUERIES as Q } from './queries.js';

/** An organization's members (by their profiles), invitations and LTI credentials, for the education store. */
export class SqlOrganizationRecords<M extends Mode> {
  private readonly records: Executor<M>;

  constructor(connection: Connection<M>) {
    this.records = executorOn(connection, Q);
  }

  organizationProfiles(organization: string): Outcome<M, EducationProfile[]> {
    return this.records.run(() => docs(Q.organizationProfiles, organization));
  }

  invitations(organization: string): Outcome<M, Invitation[]> {
    return this.records.run(() => docs(Q.invitations, organization));
  }

  invitation(organization: string, id: string): Outcome<M, Invitation | undefined> {
    return this.records.run(() => doc(Q.invitation, organization, id));
  }

  saveInvitation(invitation: Invitation): Outcome<M, void> {
    return this.records.run(() => write(Q.upsertInvitation, invitation.id, invitation.organization, JSON.stringify(invitation)));
  }

  deleteInvitation(id: string): Outcome<M, void> {
    return this.records.run(() => write(Q.deleteInvitation, id));
  }

  ltiCredentials(organization: string): Outcome<M, LtiCredentials[]> {
    return this.records.run(() => docs(Q.ltiCredentials, organization));
  }

  addLtiCredentials(credentials: LtiCredentials, secretHash: string, max: number): Outcome<M, boolean> {
    const { id, organization, consumerKey } = credentials;
    return this.records.run(function* () {
      return (yield* row(Q.addLtiCredentials, id, organization, consumerKey, secretHash, JSON.stringify(credentials), organization, max)) !== undefined;
    });
  }

  deleteLtiCredentials(organization: string, id: string): Outcome<M, boolean> {
    return this.records.run(function* () {
      return (yield* row(Q.deleteLtiCredentials, organization, id)) !== undefined;
    });
  }
}
