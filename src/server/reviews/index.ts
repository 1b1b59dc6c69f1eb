/** Reviews and profiles: what other features use. Routes are wired by app.ts. */
export { ratingOf } from './rating';
export { createReviewService, type ReviewService } from './service';
export { createReviewSweep, type ReviewSweep } from './publish';
export { bookingReviewRoutes, reviewRoutes } from './routes';
export { createProfileService } from './profiles';
export { userRoutes } from './profile-routes';
