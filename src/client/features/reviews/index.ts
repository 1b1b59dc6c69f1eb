/** Reviews and profiles: what other features and the routes use. */
export { RatingSummaryText, Stars } from './components/stars';
export { ReviewItem } from './components/review-item';
export { BookingReviewsSection } from './components/booking-reviews-section';
export { StarRatingInput } from './components/star-rating-input';
export { ProfilePage } from './components/profile-page';
