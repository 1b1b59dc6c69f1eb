/** Reviews and profiles (issue 11): what other features use. */
export { ratingOf } from './rating';
export { createProfileService } from './profiles';
export { userRoutes } from './profile-routes';
