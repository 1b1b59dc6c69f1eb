// The alerts feature's public module (docs/along-route.md): saved searches, route alerts, and the
// matching of new rides and requests against them (callbacks app.ts hands to the ride and request services).
export { alertMatching } from './matching';
export { savedSearchRoutes, routeAlertRoutes } from './routes';
export { createSavedSearchService, SAVED_SEARCH_NOT_FOUND, type SavedSearchService } from './service';
