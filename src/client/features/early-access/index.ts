// Community's early access (issue 38, decision 035): Settings' 'Try new features first', and the check a page makes
// before showing an early-access feature.
export { EarlyAccessSection } from './components/early-access-section';
export { useEarlyFeature } from './api/early-access';
