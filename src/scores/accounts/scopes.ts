/** The OAuth2 scopes of the score API (release 2.13.0); an operation accepts any one of those it lists. */
export const SCOPES = [
  'account.public_profile',
  'account.email',
  'account.education_profile',
  'scores.readonly',
  'scores.social',
  'scores',
  'collections.readonly',
  'collections.add_scores',
  'collections',
  'edu.classes',
  'edu.classes.readonly',
  'edu.assignments',
  'edu.assignments.readonly',
  'edu.admin',
  'edu.admin.lti',
  'edu.admin.lti.readonly',
  'edu.admin.users',
  'edu.admin.users.readonly',
] as const;

export type Scope = (typeof SCOPES)[number];

const KNOWN: ReadonlySet<string> = new Set(SCOPES);

export function isScope(text: string): text is Scope {
  return KNOWN.has(text);
}

/**
 * Scopes from a comma-separated list (`scores,account.public_profile`), or the first unknown
 * name. Empty items are ignored; duplicates are kept once.
 */
export function parseScopes(list: string): { ok: true; scopes: Scope[] } | { ok: false; unknown: string } {
  const scopes: Scope[] = [];
  for (const item of list.split(',')) {
    const name = item.trim();
    if (name === '') continue;
    if (!isScope(name)) return { ok: false, unknown: name };
    if (!scopes.includes(name)) scopes.push(name);
  }
  return { ok: true, scopes };
}
