/** Account settings (issue 13): the Settings page's 'Profile', 'Password' and 'Sessions' sections. */
export { ProfileSection } from './components/profile-section';
export { EmailSection } from './components/email-section';
export { PasswordSection } from './components/password-section';
export { SessionsSection } from './components/sessions-section';
