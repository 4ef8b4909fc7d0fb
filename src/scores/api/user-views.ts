import type { User } from '../accounts/user.js';

/** Absolute URLs of a user's uploaded pictures; null for one never uploaded. */
export interface PictureUrls {
  picture: string | null;
  coverPicture: string | null;
}

/**
 * `UserDetails` as `GET /me` returns it. The service keeps no social graph, organizations or
 * profile texts, so those fields have their empty values. `picture` is null until one is
 * uploaded; `coverPicture` is '' then (it is not nullable in 2.13.0).
 */
export function userDetailsJson(user: User, pictures: PictureUrls): Record<string, unknown> {
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
    bio: '',
    registrationDate: new Date(user.registrationDate).toISOString(),
    likedScoresCount: 0,
    followersCount: 0,
    followingCount: 0,
    ownedPublicScoresCount: 0,
    coverPicture: pictures.coverPicture ?? '',
    profileTheme: 'default',
    instruments: [],
    privateProfile: false,
    locale: 'en',
    pictureFile: user.pictureFile,
    coverPictureFile: user.coverPictureFile,
  };
}
