import { attempt, unwrap, type ServiceError } from '../../errors/index.js';
import { isEmailAddress, ORGANIZATION_ROLES, type OrganizationRole } from '../education/education-profile.js';
import { LMS_NAMES, type LmsName } from '../education/organization.js';
import { bad, oneOf, optionalString } from './body-fields.js';

/** Flat's user name rule (UserCreation, UserAdminUpdate): 1-30 letters, digits, '-', '_' or '.'. */
const USERNAME = /^[A-Za-z0-9\-_.]{1,30}$/;

/** Flat's locales (FlatLocales). */
const LOCALES = ['en', 'en-GB', 'es', 'fr', 'de', 'it', 'ja', 'ko', 'nl', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sv', 'tr', 'zh-Hans'] as const;

/** The account fields an organization's admin sets; undefined ones are absent. */
export interface AccountFields {
  username?: string;
  firstname?: string;
  lastname?: string;
  email?: string;
  organizationRole?: OrganizationRole;
}

function username(body: Record<string, unknown>): string | undefined | ServiceError {
  const value = optionalString(body, 'username', 30);
  if (typeof value === 'string' && !USERNAME.test(value)) return bad('username', "username must be 1-30 letters, digits, '-', '_' or '.'");
  return value;
}

function email(body: Record<string, unknown>): string | undefined | ServiceError {
  const value = optionalString(body, 'email', 254);
  if (typeof value !== 'string') return value;
  return isEmailAddress(value) ? value.toLowerCase() : bad('email', 'email must be an e-mail address');
}

/**
 * A password as Flat's schemas define it (6-1000 characters). The service signs in with personal
 * access tokens only, so a password is checked and not kept.
 */
function password(body: Record<string, unknown>, required: boolean): ServiceError | undefined {
  const value = body['password'];
  if (value === undefined || value === null) return required ? bad('password', 'password is required (6 to 1000 characters)') : undefined;
  if (typeof value !== 'string' || value.length < 6 || value.length > 1000) return bad('password', 'password must be a string of 6 to 1000 characters');
  return undefined;
}

function names(body: Record<string, unknown>, fields: AccountFields): AccountFields | ServiceError {
  return attempt(() => {
    const firstname = unwrap(optionalString(body, 'firstname', 60));
    const lastname = unwrap(optionalString(body, 'lastname', 60));
    if (firstname !== undefined) fields.firstname = firstname;
    if (lastname !== undefined) fields.lastname = lastname;
    return fields;
  });
}

/** UserCreation: `username` and `password` are required. */
export function userCreation(body: Record<string, unknown>): AccountFields & { username: string } | ServiceError {
  return attempt(() => {
    const name = unwrap(username(body));
    if (name === undefined) return bad('username', "username is required: 1-30 letters, digits, '-', '_' or '.'");
    const refused = password(body, true);
    if (refused !== undefined) return refused;
    unwrap(oneOf(body, 'locale', LOCALES));
    const address = unwrap(email(body));
    return { ...unwrap(names(body, {})), username: name, ...(address === undefined ? {} : { email: address }) };
  });
}

/** UserAdminUpdate: every field optional. */
export function userAdminUpdate(body: Record<string, unknown>): AccountFields | ServiceError {
  return attempt(() => {
    const refused = password(body, false);
    if (refused !== undefined) return refused;
    const fields: AccountFields = unwrap(names(body, {}));
    const name = unwrap(username(body));
    if (name !== undefined) fields.username = name;
    const address = unwrap(email(body));
    if (address !== undefined) fields.email = address;
    const role = unwrap(oneOf(body, 'organizationRole', ORGANIZATION_ROLES));
    if (role !== undefined) fields.organizationRole = role;
    return fields;
  });
}

/** OrganizationInvitationCreation: an e-mail (or none, for an invitation by its code) and the role it gives (teacher unless said). */
export function invitationCreation(body: Record<string, unknown>): { email: string | null; organizationRole: OrganizationRole } | ServiceError {
  return attempt(() => {
    const address = unwrap(email(body));
    const role = unwrap(oneOf(body, 'organizationRole', ORGANIZATION_ROLES));
    return { email: address ?? null, organizationRole: role ?? 'teacher' };
  });
}

/** LtiCredentialsCreation: `name` (at most 300 characters) and `lms` are required. */
export function ltiCredentialsCreation(body: Record<string, unknown>): { name: string; lms: LmsName } | ServiceError {
  return attempt(() => {
    const name = unwrap(optionalString(body, 'name', 300));
    if (name === undefined || name.trim() === '') return bad('name', 'name is required (at most 300 characters)');
    const lms = unwrap(oneOf(body, 'lms', LMS_NAMES));
    if (lms === undefined) return bad('lms', `lms is required: one of ${LMS_NAMES.join(', ')}`);
    return { name, lms };
  });
}
