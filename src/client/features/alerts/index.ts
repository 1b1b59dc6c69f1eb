/** Saved searches and route alerts: the Alerts page, 'Save this search', and a ride's alert toggle. */
export { AlertsPage } from './components/alerts-page';
export { RouteAlertToggle } from './components/route-alert-toggle';
export { SaveSearchButton } from './components/save-search-button';
