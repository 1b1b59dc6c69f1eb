/** Reporting, blocking and moderation: what other features and the routes use. */
export { PersonMenu, type Person } from './components/person-menu';
export { ReportDialog } from './components/report-dialog';
export { BlockedPeopleSection } from './components/blocked-people-section';
export { AdminReportsPage } from './components/admin-reports-page';
