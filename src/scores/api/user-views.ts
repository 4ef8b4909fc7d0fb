import type { User } from '../accounts/user.js';

/**
 * `UserDetails` as `GET /me` returns it. The service keeps no social graph, organizations or
 * profile texts, so those fields have their empty values; `picture` is null until one is uploaded.
 */
export function userDetailsJson(user: User): Record<string, unknown> {
  return {
    id: user.id,
    type: 'user',
    username: user.username,
    printableName: user.username,
    firstname: '',
    lastname: '',
    name: user.username,
    picture: null,
    isPowerUser: false,
    isFlatTeam: false,
    bio: '',
    registrationDate: new Date(user.registrationDate).toISOString(),
    likedScoresCount: 0,
    followersCount: 0,
    followingCount: 0,
    ownedPublicScoresCount: 0,
    coverPicture: '',
    profileTheme: 'default',
    instruments: [],
    privateProfile: false,
    locale: 'en',
    pictureFile: user.pictureFile,
    coverPictureFile: user.coverPictureFile,
  };
}
