// Community's early access (issue 38, decision 035): Settings' 'Try new features first'. A page that shows an
// early-access feature asks useEarlyFeature (src/client/hooks/use-early-access.ts).
export { EarlyAccessSection } from './components/early-access-section';
