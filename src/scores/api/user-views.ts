import type { User } from '../accounts/user.js';

/** Absolute URLs of a user's uploaded pictures; null for one never uploaded. */
export interface PictureUrls {
  picture: string | null;
  coverPicture: string | null;
}

/** What UserPublicSummary says of an account's organization and class, when it has them. */
export interface MembershipFields {
  organization: string | null;
  organizationRole: string | null;
  classRole?: 'teacher' | 'student';
}

/**
 * `UserPublic`. The service keeps no social graph or profile texts, so those fields have their
 * empty values. `picture` is null until one is uploaded; `coverPicture` is '' then (it is not
 * nullable in 2.13.0).
 */
export function userPublicJson(user: User, pictures: PictureUrls, membership?: MembershipFields): Record<string, unknown> {
  return {
    id: user.id,
    type: 'user',
    username: user.username,
    printableName: user.username,
    firstname: '',
    lastname: '',
    name: user.username,
    picture: pictures.picture,
    isPowerUser: false,
    isFlatTeam: false,
    ...(membership?.organization == null ? {} : { organization: membership.organization }),
    ...(membership?.organizationRole == null ? {} : { organizationRole: membership.organizationRole }),
    ...(membership?.classRole === undefined ? {} : { classRole: membership.classRole }),
    bio: '',
    registrationDate: new Date(user.registrationDate).toISOString(),
    likedScoresCount: 0,
    followersCount: 0,
    followingCount: 0,
    ownedPublicScoresCount: 0,
    coverPicture: pictures.coverPicture ?? '',
    profileTheme: 'default',
    instruments: [],
  };
}

/** `UserDetails` as `GET /me` returns it: UserPublic and the account's own settings. */
export function userDetailsJson(user: User, pictures: PictureUrls): Record<string, unknown> {
  return { ...userPublicJson(user, pictures), privateProfile: false, locale: 'en', pictureFile: user.pictureFile, coverPictureFile: user.coverPictureFile };
}
