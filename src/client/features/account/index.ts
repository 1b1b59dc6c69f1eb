/** Account settings: the Settings page's 'Profile', 'Password' and 'Sessions' sections. */
export { ProfileSection } from './components/profile-section';
export { EmailSection } from './components/email-section';
export { PasswordSection } from './components/password-section';
export { SessionsSection } from './components/sessions-section';
/** 'Two-factor authentication', 'Your data', 'Delete account', and the re-check ('Confirm it's you') around them. */
export { ConfirmIdentityProvider } from './components/confirm-identity';
export { TwoFactorSection } from './components/two-factor-section';
export { YourDataSection } from './components/your-data-section';
export { DeleteAccountSection } from './components/delete-account-section';
