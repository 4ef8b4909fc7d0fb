import { attempt, ServiceError, unwrap } from '../../errors/index.js';
import { ASSIGNMENT_TYPES, ATTACHMENT_TYPES, SHARING_MODES, type AssignmentType, type SharingMode } from '../education/assignment.js';
import { isEmailAddress } from '../education/education-profile.js';
import type { RosterEntry } from '../education/roster-sync.js';
import { bad, oneOf, optionalBoolean, optionalDate, optionalNumber, optionalString, stringList } from './body-fields.js';

/** ClassCreation / ClassUpdate: `name` is required to create. */
export function classFields(body: Record<string, unknown>, creation: boolean): { name: string | undefined; section: string | undefined } | ServiceError {
  return attempt(() => {
    const name = unwrap(optionalString(body, 'name', 255));
    if (creation && (name === undefined || name.trim() === '')) return bad('name', 'name is required (at most 255 characters)');
    if (name !== undefined && name.trim() === '') return bad('name', 'name cannot be empty');
    return { name, section: unwrap(optionalString(body, 'section', 255)) };
  });
}

/** ClassAttachmentCreation as sent, plus `track`: a recording (ScoreTrack id) of the attached score. */
export interface AttachmentInput {
  type: (typeof ATTACHMENT_TYPES)[number];
  score: string | undefined;
  track: string | undefined;
  worksheet: string | undefined;
  sharingMode: SharingMode;
  lockScoreTemplate: boolean | undefined;
  url: string | undefined;
  googleDriveFileId: string | undefined;
}

const MAX_ATTACHMENTS = 50;

/** The attachments of an assignment or a submission, each checked for the fields its type needs. */
export function attachmentInputs(value: unknown): AttachmentInput[] | ServiceError {
  const param = 'attachments';
  if (!Array.isArray(value) || value.length > MAX_ATTACHMENTS) return bad(param, `attachments must be a list of at most ${MAX_ATTACHMENTS} objects`);
  const result: AttachmentInput[] = [];
  for (const [i, item] of value.entries()) {
    const where = `attachments[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return bad(param, `${where} must be an object`);
    const fields = item as Record<string, unknown>;
    const type = oneOf(fields, 'type', ATTACHMENT_TYPES);
    if (type === undefined) return bad(param, `${where}.type is required: one of ${ATTACHMENT_TYPES.join(', ')}`);
    const sharingMode = oneOf(fields, 'sharingMode', SHARING_MODES);
    const lockScoreTemplate = optionalBoolean(fields, 'lockScoreTemplate');
    const strings = ['score', 'track', 'worksheet', 'url', 'googleDriveFileId'].map((name) => optionalString(fields, name, 2048));
    const refused = [type, sharingMode, lockScoreTemplate, ...strings].find((checked) => checked instanceof ServiceError);
    if (refused !== undefined) return bad(param, `${where}: ${refused.message}`);
    const [score, track, worksheet, url, googleDriveFileId] = strings as Array<string | undefined>;
    const input: AttachmentInput = {
      type: type as AttachmentInput['type'],
      score,
      track,
      worksheet,
      sharingMode: (sharingMode as SharingMode | undefined) ?? 'read',
      lockScoreTemplate: lockScoreTemplate as boolean | undefined,
      url,
      googleDriveFileId,
    };
    const missing = input.type === 'flat' ? 'score' : input.type === 'link' ? 'url' : input.type === 'googleDrive' ? 'googleDriveFileId' : 'worksheet';
    if (input[missing] === undefined) return bad(param, `${where} of type ${input.type} needs ${missing}`);
    if (input.track !== undefined && input.type !== 'flat') return bad(param, `${where}: a track goes with a score (type flat)`);
    if (input.url !== undefined && !/^https?:\/\//i.test(input.url)) return bad(param, `${where}.url must be an http(s) URL`);
    result.push(input);
  }
  return result;
}

/** AssignmentCreation, with `partnerGraph` (or `microsoftGraph`) for the release's third-party suite options. Undefined fields are absent. */
export interface AssignmentFields {
  type?: AssignmentType;
  state?: 'draft' | 'active';
  title?: string;
  description?: string;
  attachments?: AttachmentInput[];
  /** null clears it. */
  dueDate?: number | null;
  scheduledDate?: number | null;
  nbPlaybackAuthorized?: number | null;
  toolset?: string | null;
  coverFile?: string | null;
  cover?: string | null;
  maxPoints?: number | null;
  partnerCategories?: string[] | null;
  assigneeMode?: 'everyone' | 'selected';
  assignedStudents?: string[];
}

/** A nullable field: undefined when absent, null when sent as null, else what `read` makes of it. */
function nullable<T>(body: Record<string, unknown>, name: string, read: () => T | undefined | ServiceError): T | null | undefined | ServiceError {
  if (!(name in body)) return undefined;
  return body[name] === null ? null : read();
}

export function assignmentFields(body: Record<string, unknown>): AssignmentFields | ServiceError {
  const fields: AssignmentFields = {};
  const reads: Array<[keyof AssignmentFields, () => unknown]> = [
    ['type', () => oneOf(body, 'type', ASSIGNMENT_TYPES)],
    ['state', () => oneOf(body, 'state', ['draft', 'active'] as const)],
    ['title', () => optionalString(body, 'title', 255)],
    ['description', () => optionalString(body, 'description', 10_000)],
    ['attachments', () => (body['attachments'] === undefined || body['attachments'] === null ? undefined : attachmentInputs(body['attachments']))],
    ['dueDate', () => nullable(body, 'dueDate', () => optionalDate(body, 'dueDate'))],
    ['scheduledDate', () => nullable(body, 'scheduledDate', () => optionalDate(body, 'scheduledDate'))],
    ['nbPlaybackAuthorized', () => nullable(body, 'nbPlaybackAuthorized', () => optionalNumber(body, 'nbPlaybackAuthorized', 0, 1000))],
    ['toolset', () => nullable(body, 'toolset', () => optionalString(body, 'toolset', 255))],
    ['coverFile', () => nullable(body, 'coverFile', () => optionalString(body, 'coverFile', 255))],
    ['cover', () => nullable(body, 'cover', () => optionalString(body, 'cover', 2048))],
    ['maxPoints', () => nullable(body, 'maxPoints', () => optionalNumber(body, 'maxPoints', 0, 100))],
    ['partnerCategories', () => partnerLink(body)],
    ['assigneeMode', () => oneOf(body, 'assigneeMode', ['everyone', 'selected'] as const)],
    ['assignedStudents', () => (body['assignedStudents'] === undefined || body['assignedStudents'] === null ? undefined : stringList(body['assignedStudents'], 'assignedStudents', 1000))],
  ];
  return attempt(() => {
    for (const [name, read] of reads) {
      const value = unwrap(read());
      if (value !== undefined) (fields as Record<string, unknown>)[name] = value;
    }
    return fields;
  });
}

/**
 * The partner link's categories, sent as `partnerGraph` or as `microsoftGraph` (release 2.13.0's
 * name); null removes the link.
 */
function partnerLink(body: Record<string, unknown>): string[] | null | undefined | ServiceError {
  if ('partnerGraph' in body && 'microsoftGraph' in body) return bad('microsoftGraph', 'send partnerGraph or microsoftGraph (the same link), not both');
  const name = 'microsoftGraph' in body ? 'microsoftGraph' : 'partnerGraph';
  return nullable(body, name, () => partnerCategories(body[name], name));
}

/** `{categories}`: the only part of the partner link a client writes. */
function partnerCategories(value: unknown, name: string): string[] | ServiceError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad(name, `${name} must be an object {categories: [string]}`);
  const categories = (value as Record<string, unknown>)['categories'];
  if (categories === undefined || categories === null) return [];
  const list = stringList(categories, name, 100);
  return list instanceof ServiceError ? bad(name, `${name}.categories must be a list of at most 100 strings`) : list;
}

/** AssignmentCopy: the destination class, an optional draft there to overwrite, and when the copy is published. */
export function copyFields(body: Record<string, unknown>): { classroom: string; assignment: string | undefined; scheduledDate: number | undefined } | ServiceError {
  return attempt(() => {
    const classroom = unwrap(optionalString(body, 'classroom', 64));
    if (classroom === undefined) return bad('classroom', 'classroom is required: the id of the class to copy the assignment to');
    const assignment = unwrap(optionalString(body, 'assignment', 64));
    const scheduledDate = unwrap(optionalDate(body, 'scheduledDate'));
    return { classroom, assignment, scheduledDate };
  });
}

/** AssignmentSubmissionUpdate as a student may send it: attachments and submit. */
export function studentUpdate(body: Record<string, unknown>): { attachments: AttachmentInput[] | undefined; submit: boolean } | ServiceError {
  for (const name of ['draftGrade', 'grade', 'return']) {
    if (body[name] !== undefined) return bad(name, `students can only set attachments and submit, not ${name}`);
  }
  return attempt(() => {
    const submit = unwrap(optionalBoolean(body, 'submit'));
    const attachments = body['attachments'] === undefined || body['attachments'] === null ? undefined : unwrap(attachmentInputs(body['attachments']));
    return { attachments, submit: submit ?? false };
  });
}

/** AssignmentSubmissionUpdate as a teacher may send it: return, draftGrade and grade (null clears a grade). */
export function teacherUpdate(body: Record<string, unknown>): { returned: boolean; draftGrade: number | null | undefined; grade: number | null | undefined } | ServiceError {
  for (const name of ['attachments', 'submit']) {
    if (body[name] !== undefined) return bad(name, `teachers can only set return, draftGrade and grade, not ${name}`);
  }
  return attempt(() => {
    const returned = unwrap(optionalBoolean(body, 'return'));
    const draftGrade = unwrap(nullable(body, 'draftGrade', () => optionalNumber(body, 'draftGrade', 0, 100)));
    const grade = unwrap(nullable(body, 'grade', () => optionalNumber(body, 'grade', 0, 100)));
    return { returned: returned ?? false, draftGrade, grade };
  });
}

const MAX_ROSTER = 5000;

/** A roster synchronization's body: `{users: [{email, role}]}`. */
export function rosterEntries(body: Record<string, unknown>): RosterEntry[] | ServiceError {
  const users = body['users'];
  if (!Array.isArray(users) || users.length > MAX_ROSTER) return bad('users', `users must be a list of at most ${MAX_ROSTER} {email, role} objects`);
  const entries: RosterEntry[] = [];
  for (const [i, item] of users.entries()) {
    const fields = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const { email, role } = fields;
    if (typeof email !== 'string' || !isEmailAddress(email)) return bad('users', `users[${i}].email must be an e-mail address`);
    if (role !== undefined && role !== 'teacher' && role !== 'student') return bad('users', `users[${i}].role must be teacher or student`);
    entries.push({ email: email.toLowerCase(), role: role ?? 'student' });
  }
  return entries;
}
