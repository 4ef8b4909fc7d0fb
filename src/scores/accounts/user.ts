/** An account of the score API. Times are epoch milliseconds. */
export interface User {
  /** 24 lower-case hex digits, as the service's other ids. */
  id: string;
  username: string;
  registrationDate: number;
  /** Stored file ids of the profile and cover pictures; null when none was uploaded. */
  pictureFile: string | null;
  coverPictureFile: string | null;
}

/** What a personal access token grants. */
export interface Grant {
  user: User;
  scopes: readonly string[];
}

/** A stored token's grant with what decides whether it still holds (see personal-token.ts). */
export interface TokenGrant extends Grant {
  expirationDate: number | null;
  revocationDate: number | null;
}

/** The two pictures of a profile: `picture` and the cover (background) picture. */
export type PictureKind = 'picture' | 'coverPicture';

/** A user name as the service accepts it: 1-64 letters, digits, '.', '_' or '-'. */
export const USERNAME_RULE = "1-64 letters, digits, '.', '_' or '-'";
export function isValidUsername(name: string): boolean {
  return /^[A-Za-z0-9._-]{1,64}$/.test(name);
}
