/** Disputes ('Report a problem', issue 36): what the booking page and the routes use. */
export { ReportProblemButton } from './components/dispute-dialogs';
export { DisputeSection } from './components/dispute-section';
