/** Reporting, blocking and moderation: what other features and the routes use. */
export { PersonMenu, type Person } from './components/person-menu';
