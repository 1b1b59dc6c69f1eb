/** Requests: the Browse card, which other lists of open requests reuse with its Accept (along a ride's route). */
export { BrowseRequestCard } from './components/browse-request-card';
