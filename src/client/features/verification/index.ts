// Verified profiles (issue 37): Settings' 'Verification', the dashboard's e-mail banner, the 'Verified' badge.
export { VerificationSection } from './components/verification-section';
export { useIdCheckState } from './api/id-check';
